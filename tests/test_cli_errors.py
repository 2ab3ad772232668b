"""The command line on hostile or mistaken input, in real processes: exit codes, one-line
messages, never a traceback, nothing of a spec's control characters on the terminal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from spelbok.cli.main import EscapingStream, SpelbokGroup, escape_controls

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
LONG = "a" * 5000


def spelbok(*args: str, cwd: Path | None = None, timeout: float = 120
            ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SPELBOK_PURE": os.environ.get("SPELBOK_PURE", "1"), "NO_COLOR": "1"}
    result = subprocess.run([sys.executable, "-m", "spelbok.cli.main", *args], cwd=cwd,
                            capture_output=True, text=True, timeout=timeout, env=env)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


@pytest.mark.parametrize("bot", ["ismcts:²", "ismcts:-5", "ismcts:99999999999", "nosuchbot"])
def test_bad_bot_names_are_usage_errors(bot: str) -> None:
    for cmd in (["play", "example", "--auto"], ["simulate", "example", "-g", "1"]):
        r = spelbok(*cmd, "--bots", bot)
        assert r.returncode == 2 and "bot" in r.stderr


@pytest.mark.parametrize("args", [
    ["validate", LONG], ["describe", LONG], ["play", LONG, "--auto"], ["verify", LONG],
    ["replay", LONG], ["validate", "a/" * 3000],
])
def test_an_overlong_file_name_is_one_line(args: list[str]) -> None:
    r = spelbok(*args)
    assert r.returncode == 1
    assert len((r.stdout + r.stderr).strip().splitlines()) == 1


def test_a_reading_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(b"reading: 1\nspec: \xff\n")
    r = spelbok("verify", str(path))
    assert r.returncode == 1 and f"{path}:2:7: the file is not valid UTF-8" in r.stderr


@pytest.mark.parametrize("args", [
    ["--games", str(10**12)], ["--games", "-3"], ["--games", "0"], ["--seed", "x"],
    ["--seed", "1.5"], ["--jobs", "-1"],
])
def test_bad_numbers_are_usage_errors(args: list[str]) -> None:
    r = spelbok("simulate", "example", *args)
    assert r.returncode == 2 and "Error:" in r.stderr


def test_jobs_are_capped_and_odd_seeds_are_fine() -> None:
    r = spelbok("simulate", "example", "-n", "2", "-g", "2", "--jobs", str(10**15),
                "--seed", str(-(10**30)), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["games"] == 2


def _default_sigint() -> None:
    # a suite started in the background (``cmd &`` in a script) runs with Ctrl-C ignored,
    # and a child inherits that: Python then leaves it ignored, as nohup expects
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_during_simulate_is_one_line_and_130(jobs: str) -> None:
    env = {**os.environ, "SPELBOK_PURE": os.environ.get("SPELBOK_PURE", "1")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "spelbok.cli.main", "simulate", "knektpass", "-n", "3",
         "-g", "100000", "--jobs", jobs],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True, preexec_fn=_default_sigint)
    time.sleep(3)  # let it start simulating (no assertion on time: any moment will do)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: the whole process group
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:  # never leave a simulation of 100 000 matches behind
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130
    assert "Traceback" not in out + err and err.strip() == "interrupted"


@needs_fifo
def test_output_onto_a_fifo_or_device_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "out.spel"
    os.mkfifo(fifo)
    for target in (str(fifo), "/dev/null"):
        r = spelbok("convert", "example", "--to", "dsl", "-o", target, "--force", timeout=60)
        assert r.returncode == 2 and "not a regular file" in r.stderr
    r = spelbok("play", "example", "--auto", "--log", str(fifo), timeout=60)
    assert r.returncode == 2 and "not a regular file" in r.stderr


@needs_fifo
def test_a_fifo_named_on_the_command_line_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "g.yaml"
    os.mkfifo(fifo)
    for cmd in ("validate", "describe", "verify", "replay"):
        r = spelbok(cmd, str(fifo), timeout=60)
        assert r.returncode == 1 and "not a regular file" in r.stdout + r.stderr


def test_extends_outside_needs_allow_path(tmp_path: Path) -> None:
    (tmp_path / "secret.yaml").write_text("TOPSECRET line\n")
    game = tmp_path / "game"
    game.mkdir()
    (game / "v.yaml").write_text("spelbok: 1\nextends: ../secret.yaml\nname: V\n")
    (game / "w.yaml").write_text(f"spelbok: 1\nextends: {tmp_path}/base.yaml\nname: W\n")
    (tmp_path / "base.yaml").write_text("spelbok: 1\nextends: example\nname: Base\n")
    for cmd in (["validate"], ["describe"], ["convert"], ["play", "--auto"],
                ["simulate", "-g", "1"]):
        r = spelbok(cmd[0], str(game / "v.yaml"), *cmd[1:])
        assert r.returncode == 1 and "TOPSECRET" not in r.stdout + r.stderr
        assert f"{game / 'v.yaml'}:2:10: '../secret.yaml' leads out of the folder" in r.stderr \
            + r.stdout
    r = spelbok("validate", str(game / "w.yaml"))
    assert r.returncode == 1 and "is an absolute path" in r.stdout
    r = spelbok("validate", str(game / "w.yaml"), "--allow-path", str(tmp_path))
    assert r.returncode == 0 and r.stdout.strip().endswith("ok")
    r = spelbok("compare", str(game / "w.yaml"), "example", "-g", "1", "-n", "2",
                "--allow-path", str(tmp_path))
    assert r.returncode == 0


def test_a_log_names_only_a_spec_beside_it(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "m.json"
    log.parent.mkdir()
    r = spelbok("play", "example", "-n", "2", "--auto", "--seed", "3", "--log", str(log))
    assert r.returncode == 0
    data = json.loads(log.read_text())
    assert spelbok("replay", str(log)).returncode == 0
    for evil in ("/etc/passwd", "../../etc/passwd", str(tmp_path / "x.yaml")):
        (tmp_path / "x.yaml").write_text("root:x:0:0:root:/root:/bin/bash\n")
        log.write_text(json.dumps({**data, "spec": evil}))
        r = spelbok("replay", str(log))
        assert r.returncode == 1 and "root:" not in r.stdout + r.stderr
        assert "a file may only name a shipped spec" in r.stderr
    # a spec file written relative to the log's folder, so the log can name it
    spec = tmp_path / "logs" / "g.yaml"
    spec.write_text("spelbok: 1\nextends: example\nname: G\n")
    r = spelbok("play", "g.yaml", "-n", "2", "--auto", "--log", "m2.json", cwd=spec.parent)
    assert r.returncode == 0 and json.loads((spec.parent / "m2.json").read_text())["spec"] == "g.yaml"
    assert spelbok("replay", str(spec.parent / "m2.json")).returncode == 0


def test_control_characters_of_a_spec_never_reach_the_terminal(tmp_path: Path) -> None:
    spec = tmp_path / "evil.yaml"
    spec.write_text('spelbok: 1\nextends: example\nname: "Evil\\e]0;owned\\a\\e[2J\\x9b"\n'
                    'about: "line\\rover\\u202ewritten"\n')
    for args in (["describe", str(spec)], ["play", str(spec), "--auto", "-n", "2"],
                 ["validate", str(tmp_path / "no\x1b[2Jsuch.yaml")]):
        r = spelbok(*args)
        text = r.stdout + r.stderr
        assert not any(c in text for c in "\x1b\x07\r\x9b\u202e"), repr(text)
    assert "Evil\\x1b]0;owned\\x07" in spelbok("describe", str(spec)).stdout


def test_escape_keeps_spelbok_colours_only() -> None:
    red = click.style("7H", fg="red")
    assert escape_controls(f"{red} \x1b]0;x\x07 \x1b[2J") == f"{red} \\x1b]0;x\\x07 \\x1b[2J"
    assert escape_controls("tab\tand\nnewline") == "tab\tand\nnewline"
    assert escape_controls("\u202e") == "\\u202e"


def test_the_stream_hides_its_buffer_and_refuses_bytes() -> None:
    import io

    raw = io.StringIO()
    stream = EscapingStream(raw)
    stream.write("a\x1bb")
    assert raw.getvalue() == "a\\x1bb"
    with pytest.raises(TypeError):
        stream.write(b"x")  # type: ignore[arg-type]
    assert not hasattr(stream, "buffer")


@pytest.mark.parametrize("exc, words", [
    (OSError(36, "File name too long", "x" * 300), "the file name is too long"),
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad"), "not valid UTF-8"),
    (RecursionError(), "nested too deeply"),
    (MemoryError(), "out of memory"),
])
def test_one_handler_turns_system_errors_into_one_line(exc: BaseException, words: str) -> None:
    group = SpelbokGroup(lazy={})

    @group.command("boom")
    def boom() -> None:
        raise exc

    r = CliRunner().invoke(group, ["boom"])
    assert r.exit_code == 1
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0]


def test_data_on_stdout_survives_the_terminal_filter(tmp_path: Path) -> None:
    # a name holding a bidi override and a C1 control: converted to stdout, then read back
    from spelbok.lang.loader import read_spec

    src = tmp_path / "a.yaml"
    src.write_text((Path(__file__).parent.parent / "specs/example.yaml").read_text(encoding="utf-8").replace(
        "name: Example", 'name: "Ex\\u202Eam\\x9Bple"', 1), encoding="utf-8")
    for surface, suffix in (("yaml", ".yaml"), ("dsl", ".spel")):
        out = spelbok("convert", str(src), "--to", surface)
        assert out.returncode == 0, out.stderr
        back = tmp_path / f"back{suffix}"
        back.write_text(out.stdout, encoding="utf-8")
        assert read_spec(str(back)).tree["name"] == "Ex\u202eam\x9bple"
