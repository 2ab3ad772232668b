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
    classes = _class_files(tmp)
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
        # the classes of hostile input (issue 30): status 1, in bounded time
        ("players-minus-1e18", ["validate", classes["players"]], (1,)),
        ("steps-5000", ["validate", classes["steps"]], (1,)),
        ("steps-5000-convert", ["convert", classes["steps"], "--to", "dsl"], (1,)),
        ("float-rank", ["validate", classes["float"]], (1,)),
        ("huge-10e400", ["validate", classes["huge"]], (1,)),
        ("fullwidth-option", ["validate", classes["fullwidth"]], (1,)),
        ("replay-bid-superscript", ["replay", classes["log"]], (1,)),
        ("verify-bid-superscript", ["verify", classes["reading"]], (1,)),
    ]


def _class_files(tmp: Path) -> dict[str, str]:
    """One file of each class of hostile input, for the commands that read them."""
    import json

    import yaml
    from adv_classes import many_steps
    from adv_mutate import dump

    tree = yaml.safe_load((SPECS / "example.yaml").read_text(encoding="utf-8"))
    out = {}

    def spec(name: str, text: str) -> None:
        (tmp / f"{name}.yaml").write_text(text, encoding="utf-8")
        out[name] = str(tmp / f"{name}.yaml")

    spec("players", dump({**tree, "players": {"min": -(10**18), "max": 4}}))
    spec("steps", many_steps(5000))
    ranks = ["A", "K", "Q", "J", 10.0, "9", "8", "7"]
    spec("float", dump({**tree, "deck": [{**tree["deck"][0], "ranks": ranks}],
                        "ranking": {**tree["ranking"], "ranks": ranks}}))
    spec("huge", dump({**tree, "end": {**tree["end"], "max_hands": 10**400}}))
    spec("fullwidth", dump({**tree, "options": {"deals": {"values": ["１０", 5],
                                                           "default": 5}}}))
    import spelbok
    from spelbok.cli.play import write_log
    from spelbok.engine.rng import SHUFFLE

    st = spelbok.load("oh-hell", players=3, max_hands=1).new_state(seed=1)
    write_log(str(tmp / "log.json"), {"spec": "oh-hell", "players": 3, "options": {},
                                      "seed": 1, "shuffle": SHUFFLE, "max_hands": 1,
                                      "bots": {}, "human": None}, st)
    log = json.loads((tmp / "log.json").read_text(encoding="utf-8"))
    log["actions"] = ["bid ²"]
    (tmp / "log.json").write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    out["log"] = str(tmp / "log.json")
    reading = {"reading": 1, "spec": "oh-hell", "players": 3, "dealer": 0,
               "cases": [{"name": "a bid in superscript digits", "deck": "AS",
                          "steps": [{"play": "bid ²"}]}]}
    (tmp / "reading.yaml").write_text(yaml.safe_dump(reading, allow_unicode=True),
                                      encoding="utf-8")
    out["reading"] = str(tmp / "reading.yaml")
    return out


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
