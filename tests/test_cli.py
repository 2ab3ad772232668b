"""The command line: every command's success and error paths, exit codes, rendering."""

from __future__ import annotations

import doctest
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
import spelbok
from click.testing import CliRunner, Result
from spelbok import render
from spelbok.cli import main as cli_main
from spelbok.cli.main import SpelbokGroup, cli, error_lines
from spelbok.errors import SpecError, SpecErrors, SpelbokError
from spelbok.lang.loader import read_spec

ROOT = Path(__file__).resolve().parent.parent
KNEKTPASS = str(ROOT / "specs" / "knektpass.yaml")
AUTO = ["play", "knektpass", "--players", "3", "--auto", "--seed", "1"]
QUICK = ["play", "knektpass", "--players", "3", "--bots", "random", "--max-hands", "2"]

BAD_SPEC = """\
spelbok: 1
name: Broken
players: {min: 2, max: 4}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
hand:
  - deal: {size: 5}
  - tricks: {follw: true}
end:
  when: "any(scroe <= 0)"
  winners: "true"
"""


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input, env=env)
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


# ----------------------------------------------------------------------------- the group


def test_help_lists_every_command() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for name in ("validate", "describe", "convert", "schema", "play", "replay", "simulate",
                 "compare", "verify"):
        assert f"  {name} " in result.output


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and spelbok.__version__ in result.output


def test_unknown_command_is_a_usage_error_with_a_hint() -> None:
    result = run("validat", "knektpass")
    assert result.exit_code == 2
    assert "did you mean 'validate'" in result.output


def test_no_command_shows_usage() -> None:
    result = run()
    assert result.exit_code in (0, 2)
    assert "Usage:" in result.output


def test_missing_command_module_still_listed_and_fails_cleanly() -> None:
    @click.group(cls=SpelbokGroup, lazy={"ghost": ("spelbok.cli.no_such_module:cmd", "A ghost.")})
    def group() -> None:
        pass

    runner = CliRunner()
    listing = runner.invoke(group, ["--help"])
    assert listing.exit_code == 0 and "ghost" in listing.output and "A ghost." in listing.output
    ran = runner.invoke(group, ["ghost", "--anything", "x"])
    assert ran.exit_code == 1
    assert "error: the 'ghost' command is not available" in ran.output
    assert "Traceback" not in ran.output
    assert "Not available" in runner.invoke(group, ["ghost", "--help"]).output


def test_help_imports_no_command_module() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from spelbok.cli.main import cli\n"
        "r = CliRunner().invoke(cli, ['--help'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(('spelbok', 'lark')))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    for heavy in ("spelbok.cli.play", "spelbok.cli.spec_commands", "spelbok.engine.game", "lark",
                  "spelbok.lang.loader"):
        assert heavy not in out


def test_keyboard_interrupt_exits_130_quietly(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    from spelbok.cli import prompt

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))  # where the interrupted match goes

    def interrupted(text: str) -> str | None:
        raise KeyboardInterrupt

    monkeypatch.setattr(prompt, "_read", interrupted)
    result = run("play", "knektpass", "--seed", "3")
    assert result.exit_code == 130


def test_error_lines() -> None:
    errs = SpecErrors([SpecError("a", path="x.yaml", line=1, col=2), SpecError("b", path="x.yaml")])
    assert error_lines(errs) == ["x.yaml:1:2: a", "error: x.yaml: b"]
    assert error_lines(SpelbokError("two\nlines")) == ["error: two", "  lines"]


# ----------------------------------------------------------------------------- validate


def test_validate_good_specs() -> None:
    result = run("validate", "knektpass", str(ROOT / "specs" / "knektpass.spel"))
    assert result.exit_code == 0
    assert "knektpass: ok" in result.output
    assert "knektpass.spel: ok" in result.output


def test_validate_bad_spec_reports_located_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_SPEC, encoding="utf-8")
    result = run("validate", str(bad))
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert lines and all(line.startswith(f"{bad}:") for line in lines)
    assert any("follw" in line for line in lines)
    first = lines[0].split(":")
    assert first[1].isdigit() and first[2].isdigit()


def test_validate_formula_error_points_into_the_formula(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_SPEC.replace("follw", "follow"), encoding="utf-8")
    result = run("validate", str(bad))
    assert result.exit_code == 1
    assert result.stdout == f"{bad}:10:14: unknown name 'scroe'\n"  # at the s, after the quote


def test_validate_mixed_good_and_bad(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("spelbok: 1\nname: [unclosed\n", encoding="utf-8")
    result = run("validate", "knektpass", str(bad), "--quiet")
    assert result.exit_code == 1
    # exactly the bad file's error: --quiet drops the good spec's "ok" line
    assert result.stdout == f"{bad}:3:1: invalid YAML: did not find expected ',' or ']' " \
        "(while parsing a flow sequence on line 2)\n"
    assert "1 of 2 specs have errors" in result.stderr


def test_validate_missing_file_and_no_argument() -> None:
    result = run("validate", "knektpas")
    assert result.exit_code == 1 and "did you mean 'knektpass'" in result.output
    assert run("validate").exit_code == 2


def test_validate_warnings_exit_0_unless_strict() -> None:
    spec = str(ROOT / "tests" / "bad_specs" / "words_all_conditional.yaml")
    result = run("validate", spec)
    assert result.exit_code == 0
    assert result.stdout == (
        f"{spec}:14:7: warning: every word of 'announce' has a 'when': when none holds, "
        "every word is offered, whatever its 'when' (give one word no 'when' to say which stands "
        "then)\n"
        f"{spec}: ok (1 warning)\n")
    strict = run("validate", "knektpass", spec, "--strict", "--quiet")
    assert strict.exit_code == 1
    # the warning line alone (the file's path may hold any word, "ok" too: compare exactly)
    assert strict.stdout == result.stdout.splitlines(keepends=True)[0]
    assert "1 of 2 specs have errors or warnings" in strict.stderr
    assert run("validate", "knektpass", "--strict").exit_code == 0


# ----------------------------------------------------------------------------- describe


def test_describe_mentions_top_trumps_and_citations() -> None:
    result = run("describe", "knektpass")
    assert result.exit_code == 0
    out = result.output
    assert "J♣ J♠ J♥ J♦" in out
    assert "[en: Cards" in out and "[en: Play" in out
    assert "void_rule: any | trump_if_beats | trump | overtrump (default trump_if_beats)" in out


def test_describe_players() -> None:
    result = run("describe", "knektpass", "--players", "4")
    assert result.exit_code == 0
    assert "52 cards" in result.output and "36 cards" not in result.output
    bad = run("describe", "knektpass", "--players", "11")
    assert bad.exit_code == 1 and bad.stderr.startswith("error: ")


def test_describe_bad_spec_is_located(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_SPEC, encoding="utf-8")
    result = run("describe", str(bad))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"{bad}:")


# ----------------------------------------------------------------------------- convert


def test_convert_round_trip_gives_the_same_canonical_tree(tmp_path: Path) -> None:
    spel = tmp_path / "k.spel"
    back = tmp_path / "k.yaml"
    assert run("convert", "knektpass", "--to", "dsl", "-o", str(spel)).exit_code == 0
    assert run("convert", str(spel), "--to", "yaml", "-o", str(back)).exit_code == 0
    text = back.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    assert text.splitlines()[1] == "spelbok: 1"
    original = read_spec("knektpass").tree
    assert read_spec(str(spel)).tree == original
    assert read_spec(str(back)).tree == original
    assert run("validate", str(back), str(spel)).exit_code == 0


def test_convert_to_stdout_and_inferred_surface() -> None:
    dsl = run("convert", "knektpass")
    assert dsl.exit_code == 0 and dsl.output.startswith("spelbok 1\n")
    yml = run("convert", str(ROOT / "specs" / "knektpass.spel"))
    assert yml.exit_code == 0 and "\nspelbok: 1\n" in yml.output


def test_convert_never_overwrites_without_force(tmp_path: Path) -> None:
    out = tmp_path / "k.spel"
    out.write_text("keep me", encoding="utf-8")
    refused = run("convert", "knektpass", "-o", str(out))
    assert refused.exit_code == 2 and "--force" in refused.output
    assert out.read_text(encoding="utf-8") == "keep me"
    assert run("convert", "knektpass", "-o", str(out), "--force").exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("spelbok 1")


def test_convert_errors(tmp_path: Path) -> None:
    assert run("convert", "knektpass", "--to", "json").exit_code == 2
    nowhere = run("convert", "knektpass", "-o", str(tmp_path / "no" / "dir" / "k.spel"))
    assert nowhere.exit_code == 1 and nowhere.stderr.startswith("error: cannot write")
    assert run("convert", "nope.yaml").exit_code == 1


# ----------------------------------------------------------------------------- schema


def test_schema_prints_the_json_schema() -> None:
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert "hand" in schema["$defs"]["spec"]["properties"]


# ----------------------------------------------------------------------------- play


@pytest.fixture(scope="module")
def auto_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    log = tmp_path_factory.mktemp("play") / "match.json"
    result = run(*AUTO, "--log", str(log))
    assert result.exit_code == 0
    assert result.stderr == f"log written to {log}\n"
    return result.stdout, log


@pytest.fixture(scope="module")
def auto_output(auto_run: tuple[str, Path]) -> str:
    return auto_run[0]


def test_play_auto_prints_a_readable_transcript_with_a_winner(auto_output: str) -> None:
    lines = auto_output.splitlines()
    assert lines[0] == "Knektpass · 3 players · seed 1"
    assert "Cut for the deal:" in auto_output
    assert any(line.startswith("Hand 1 · dealer ") for line in lines)
    assert any(line.startswith("  trick 1: ") and " → " in line for line in lines)
    assert any(line.strip().startswith("tricks ") and "scores " in line for line in lines)
    assert "Winner" in lines[-1]


def test_play_auto_is_identical_for_the_same_seed() -> None:
    # (the real-command test below also compares a whole greedy match with auto_output)
    first = run(*QUICK, "--auto", "--seed", "11").output
    assert run(*QUICK, "--auto", "--seed", "11").output == first
    assert run(*QUICK, "--auto", "--seed", "12").output != first


def test_play_log_then_replay(auto_run: tuple[str, Path]) -> None:
    auto_output, log = auto_run
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["spelbok_log"] == 1
    assert data["spec"] == "knektpass" and data["players"] == 3 and data["seed"] == 1
    assert data["winners"] and len(data["scores"]) == 3
    assert all(isinstance(a, str) for a in data["actions"])
    assert data["events"][-1]["event"] == "match_end"
    replay = run("replay", str(log))
    assert replay.exit_code == 0
    body = [line for line in auto_output.splitlines()[2:] if line]
    assert [line for line in replay.stdout.splitlines()[1:] if line] == body
    assert "replay ok" in replay.stderr


def test_replay_errors(tmp_path: Path) -> None:
    missing = run("replay", str(tmp_path / "none.json"))
    assert missing.exit_code == 1 and "no such log file" in missing.stderr
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"spelbok_log": 1, "spec": ', encoding="utf-8")
    result = run("replay", str(corrupt))
    assert result.exit_code == 1 and "not a spelbok log" in result.stderr
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}', encoding="utf-8")
    assert run("replay", str(other)).exit_code == 1

    log = tmp_path / "m.json"
    assert run(*QUICK, "--auto", "--seed", "5", "--log", str(log)).exit_code == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    data["events"][5]["seat"] = 99
    tampered = tmp_path / "t.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", str(tampered))
    assert result.exit_code == 1 and "differs from the log at event 6" in result.stderr
    data = json.loads(log.read_text(encoding="utf-8"))
    data["actions"][0] = "AS"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", str(tampered))
    assert result.exit_code == 1 and "action 1 ('AS') cannot be replayed" in result.stderr

    # a log from a spelbok that turned seeds into cards another way
    for made_with in (None, "mersenne-twister"):
        data = json.loads(log.read_text(encoding="utf-8"))
        assert data["shuffle"] == "shake128-fisher-yates-1"
        if made_with is None:
            del data["shuffle"]
        else:
            data["shuffle"] = made_with
        tampered.write_text(json.dumps(data), encoding="utf-8")
        result = run("replay", str(tampered))
        assert result.exit_code == 1 and "shuffles differently" in result.stderr
        assert (made_with or "an older shuffle") in result.stderr


def test_play_options_and_usage_errors() -> None:
    ok = run(*QUICK, "--auto", "--seed", "4", "--option", "void_rule=any", "-o", "floor_zero=true")
    assert ok.exit_code == 0 and "options void_rule=any, floor_zero=true" in ok.output
    bad_value = run(*QUICK, "--auto", "--option", "void_rule=maybe")
    assert bad_value.exit_code == 1 and "error: option 'void_rule' cannot be" in bad_value.stderr
    unknown = run(*QUICK, "--auto", "--option", "void_rul=any")
    assert unknown.exit_code == 1 and "did you mean 'void_rule'" in unknown.stderr
    assert run(*QUICK, "--auto", "--option", "void_rule").exit_code == 2
    bad_bot = run(*QUICK, "--auto", "--bots", "randon")
    assert bad_bot.exit_code == 2 and "unknown bot 'randon'" in bad_bot.stderr
    assert run(*QUICK, "--seat", "3").exit_code == 2
    assert run("play", "knektpass", "--players", "11", "--auto").exit_code == 1
    assert run("play", "knektpass", "--seed", "x").exit_code == 2


def test_play_without_seed_prints_the_seed() -> None:
    result = run(*QUICK, "--auto")
    assert result.exit_code == 0
    assert "seed " in result.output.splitlines()[0]


def test_play_verbose_auto_shows_hands() -> None:
    result = run(*QUICK, "--auto", "--seed", "2", "-v")
    assert result.exit_code == 0 and "  dealt: " in result.output


def test_play_interactive_menu_notation_and_quit() -> None:
    result = run("play", "knektpass", "--seed", "3", "--bots", "random",
                 input="1\nexchange\nzz\nhelp\nquit\n")
    assert result.exit_code == 0
    out = result.output
    assert "your hand" in out and "scores" in out
    assert "announce: 1 play  2 pass" in out
    assert "✗" in out  # 'zz' refused, with the reason
    assert "How to answer" in out
    assert "Match abandoned in hand " in out and "(seed 3)." in out


def test_play_interactive_end_of_input_abandons(tmp_path: Path) -> None:
    log = tmp_path / "partial.json"
    result = run("play", "knektpass", "--seed", "3", "--log", str(log), input="1\n")
    assert result.exit_code == 0 and "abandoned" in result.output
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["finished"] is False and data["human"] == 0 and data["actions"]
    replay = run("replay", str(log))
    assert replay.exit_code == 0 and "abandoned in hand " in replay.output


def test_play_interactive_to_the_end() -> None:
    # the human always takes the first menu entry; random bots, few hands
    result = run("play", "knektpass", "--players", "3", "--seat", "1", "--bots", "random",
                 "--seed", "9", "--max-hands", "2", input="1\n" * 200)
    assert result.exit_code == 0
    assert "Match over after 2 hands" in result.output
    assert "abandoned" not in result.output


# ----------------------------------------------------------------------------- rendering


def test_card_rendering_and_colour() -> None:
    assert render.card("10h") == "10♥" and render.card("J♣") == "J♣"
    red = render.card("QD", render.Style(color=True))
    assert "\x1b[31m" in red and "Q♦" in red
    assert "\x1b[" not in render.card("QS", render.Style(color=True))
    assert render.card("AS", render.Style(symbols=False)) == "AS"


class _FakeTTY(io.StringIO):
    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert render.Style.for_stream(_FakeTTY()).color is True
    assert render.Style.for_stream(io.StringIO()).color is False
    assert render.Style.for_stream(_FakeTTY(), no_color=True).color is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert render.Style.for_stream(_FakeTTY()).color is False
    assert cli_main.use_color(_FakeTTY()) is False


def test_no_symbols_when_the_stream_cannot_encode_them() -> None:
    class Ascii(io.StringIO):
        encoding = "ascii"

    assert render.Style.for_stream(Ascii()).symbols is False


def test_hand_sorted_by_suit_trump_first_with_top_trumps() -> None:
    game = spelbok.load("knektpass", players=3)
    hand = ["7C", "JS", "AH", "6H", "KC", "JD", "10D"]
    groups = render.sort_hand(hand, game, "H")
    assert groups[0] == ["JS", "JD", "AH", "6H"]  # jacks belong to the trump suit
    assert ["KC", "7C"] in groups and ["10D"] in groups
    line = render.hand_line(hand, game, "H")
    assert line.startswith("J♠ J♦ A♥ 6♥ │ ")


def test_transcript_never_fails_on_odd_events() -> None:
    events = [
        {"event": "hand", "number": 1, "dealer": 0},
        {"event": "trick"},  # fields missing
        {"event": "mystery", "seat": 1, "cards": ["AS"]},
        {"event": "decision", "seat": 7, "decision": "bid", "action": "3"},
        "not even a map",
        {"event": "end_hand", "tricks": [0, 0], "scores": [1, 2], "out": [False, True]},
        {"event": "match_end", "winners": [], "scores": [1, 2], "limit_reached": True},
    ]
    lines = render.transcript(events, ["a", "b"])
    text = "\n".join(lines)
    assert "mystery: seat=1, cards=[AS]" in text
    assert "bid: P7 3" in text
    assert "b 2 (out)" in text
    assert "Winner: nobody" in text and "limit" in text


def test_transcript_of_knockout_whist_knocks_and_eliminations() -> None:
    result = run("play", "knockout-whist", "--players", "4", "--auto", "--seed", "2")
    assert result.exit_code == 0
    out = result.output
    assert "knocked)" in out and "is out of the match" in out and "names " in out


@pytest.mark.parametrize("module", [render, "spelbok.cli.main", "spelbok.cli.options",
                                    "spelbok.cli.spec_commands"])
def test_doctests(module: object) -> None:
    import importlib

    mod = importlib.import_module(module) if isinstance(module, str) else module
    failures, _ = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert failures == 0


def test_a_shared_option_is_the_same_in_every_command() -> None:
    """An option two commands have is declared once (cli/options.py): the same flags,
    metavar, type and help everywhere; only the default may differ."""
    from spelbok.cli.options import PER_COMMAND, SWEEP_FORMS

    seen: dict[str, tuple[str, tuple[object, ...]]] = {}
    shared: set[str] = set()
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None
        for param in command.params:
            if not isinstance(param, click.Option) or param.opts[0] == "--help":
                continue
            long = max(param.opts, key=len)
            if long in PER_COMMAND or (name, long) in SWEEP_FORMS:
                continue
            form = (sorted(param.opts), param.secondary_opts, param.metavar, param.help,
                    type(param.type), param.multiple, param.is_flag)
            first = seen.setdefault(long, (name, form))
            assert form == first[1], f"{long} in '{name}' differs from '{first[0]}'"
            if first[0] != name:
                shared.add(long)
    assert {"--players", "--seed", "--bots", "--option", "--max-hands", "--json",
            "--allow-path", "--no-color"} <= shared


# ----------------------------------------------------------------------------- the real command


SPELBOK = shutil.which("spelbok")
needs_command = pytest.mark.skipif(SPELBOK is None, reason="the spelbok command is not installed")


def _spelbok(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    assert SPELBOK is not None
    return subprocess.run([SPELBOK, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=60, encoding="utf-8")


@needs_command
def test_real_command_validate() -> None:
    proc = _spelbok("validate", "specs/knektpass.yaml")
    assert proc.returncode == 0 and proc.stdout == "specs/knektpass.yaml: ok\n"


@needs_command
def test_real_command_play_auto(auto_output: str) -> None:
    proc = _spelbok(*AUTO)
    assert proc.returncode == 0 and proc.stdout == auto_output


@needs_command
def test_real_command_errors_without_traceback() -> None:
    proc = _spelbok("describe", "specs/nothing.yaml")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr
    usage = _spelbok("play", "--seat")  # an option without its value (no SPEC: a first game)
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


# ----------------------------------------------------------------------------- a copy of specs/


def test_a_copy_of_the_shipped_tree_names_shipped_specs_as_the_shipped_copy_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a clone's specs/ with a non-editable install: its reading files and variants
    # name '../knektpass.yaml', outside their folder; they get the shipped file
    # (nothing else outside the folder: the rest is refused as before)
    copy = tmp_path / "clone" / "specs"
    for sub in ("readings", "variants"):
        (copy / sub).mkdir(parents=True)
    shutil.copy(ROOT / "specs" / "readings" / "knektpass-1847.yaml", copy / "readings")
    shutil.copy(ROOT / "specs" / "variants" / "knektpass-void-any.yaml", copy / "variants")
    monkeypatch.chdir(tmp_path / "clone")
    verified = run("verify", "specs/readings/knektpass-1847.yaml")
    assert verified.exit_code == 0, verified.output
    assert verified.output.startswith("specs/readings/knektpass-1847.yaml — Knektpass after")
    described = run("describe", "specs/variants/knektpass-void-any.yaml")
    assert described.exit_code == 0, described.output
    assert described.output.startswith("Knektpass (a void player may play any card)\n")
    # a folder not named like a shipped one, a path leaving the shipped tree, an absolute path
    (tmp_path / "clone" / "mine").mkdir()
    for folder, spec, why in (("mine", "../knektpass.yaml", "leads out of the folder"),
                              ("specs/readings", "../../knektpass.yaml", "leads out of the folder"),
                              ("specs/readings", "../../../../../etc/passwd", "leads out of the folder"),
                              ("specs/readings", "/etc/passwd", "is an absolute path")):
        reading = tmp_path / "clone" / folder / "r.yaml"
        reading.write_text(f"reading: 1\nspec: {spec}\ncases: []\n", encoding="utf-8")
        refused = run("verify", str(reading.relative_to(tmp_path / "clone")))
        assert refused.exit_code == 1
        assert refused.output.startswith(f"{folder}/r.yaml:2:7: '{spec}' {why}: "), refused.output
