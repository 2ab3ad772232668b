"""Bad command lines, in real subprocesses: exit 1 or 2, no traceback, no raw escapes.

A handful only (each costs an interpreter start); they run a few at a time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from adv_harness import CONTROL, SPECS

#: seconds per command: a safety bound for a loaded machine, not a measure
TIMEOUT = 60
ESC = "\x1b]0;owned\x07\x1b[2J"


def _cases(tmp: Path) -> list[tuple[str, list[str], tuple[int, ...]]]:
    bad_utf8 = tmp / "latin1.yaml"
    bad_utf8.write_bytes("spelbok: 1\nname: Kn\xe4ktpass\n".encode("latin-1"))
    evil = tmp / f"evil{ESC}.yaml"
    evil.write_text("spelbok: 1\nname: [\n", encoding="utf-8")
    example = str(SPECS / "example.yaml")
    return [
        ("bad-bot", ["play", example, "--auto", "--seed", "1", "--bots", "nosuchbot"], (1, 2)),
        ("bot-escape", ["simulate", example, "--games", "1", "--bots", f"random,{ESC}"], (1, 2)),
        ("players-0", ["play", example, "--auto", "--players", "0"], (2,)),
        ("games-minus-1", ["simulate", example, "--games", "-1"], (2,)),
        ("seat-99", ["play", example, "--seat", "99", "--seed", "1"], (1, 2)),
        ("missing-file", ["validate", str(tmp / "no-such-file.yaml")], (1,)),
        ("directory", ["validate", str(tmp)], (1,)),
        ("dev-zero", ["validate", "/dev/zero"], (1,)),
        ("not-utf8-yaml", ["validate", str(bad_utf8)], (1,)),
        ("escape-in-name", ["validate", str(evil)], (1,)),
        ("escape-spec-name", ["describe", f"no-such{ESC}"], (1, 2)),
        ("replay-dev-zero", ["replay", "/dev/zero"], (1,)),
        ("verify-not-utf8", ["verify", str(bad_utf8)], (1,)),
        ("option-escape", ["play", example, "--auto", "--seed", "1", "-o", f"{ESC}=1"], (1, 2)),
    ]


def _run(args: list[str]) -> subprocess.CompletedProcess[bytes] | None:
    env = {**os.environ, "SPELBOK_PURE": os.environ.get("SPELBOK_PURE", "1"), "NO_COLOR": "1",
           "COLUMNS": "100"}
    try:
        return subprocess.run([sys.executable, "-m", "spelbok.cli.main", *args],
                              capture_output=True, timeout=TIMEOUT, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


def test_bad_command_lines(tmp_path: Path) -> None:
    cases = _cases(tmp_path)
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(_run, [args for _label, args, _codes in cases]))
    failures = []
    for (label, args, codes), res in zip(cases, results, strict=True):
        if res is None:
            failures.append(f"[{label}] {args}: no end within {TIMEOUT} s")
            continue
        out = res.stdout.decode("utf-8", "replace") + res.stderr.decode("utf-8", "replace")
        if "Traceback" in out:
            tail = out.strip().splitlines()[-1]
            failures.append(f"[{label}] {args}: a traceback ({tail[:160]})")
        if res.returncode not in codes:
            failures.append(f"[{label}] {args}: exit {res.returncode}, not {codes}: "
                            f"{out.strip()[:160]!r}")
        m = CONTROL.search(out)
        if m:
            failures.append(f"[{label}] {args}: raw control character {m.group()!r} in "
                            f"{out.strip()[:160]!r}")
        if not out.strip():
            failures.append(f"[{label}] {args}: exit {res.returncode} without a word")
    assert not failures, "\n".join(failures)


def test_a_good_command_line_still_works() -> None:
    # the guard against a suite that passes because nothing runs at all
    res = _run(["validate", str(SPECS / "example.spel")])
    assert res is not None and res.returncode == 0, res
