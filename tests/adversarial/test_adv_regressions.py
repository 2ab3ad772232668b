"""Every input that once broke something, kept in ``fixtures/`` and run again.

A fixture is one file: header lines ``# broke: ...`` (what it broke when it was
found) and, for some kinds, ``# spec: ...`` / ``# players: ...``, then the
input itself, exactly as it was given (``@TMP@`` stands for the folder that
holds the spec folder and the planted secret files).  The kind is the suffix:

- ``.spec.yaml`` / ``.spec.spel``: a spec, validated, loaded and played;
- ``.players.json``: ``{"spec": ..., "players": ...}``, a shipped spec loaded at
  that player count;
- ``.log.json``: a log, read and replayed as ``spelbok replay`` does;
- ``.snapshot.json``: a snapshot, restored with ``game.restore`` and played on;
- ``.reading.yaml``: a reading file, run as ``spelbok verify`` does;
- ``.api.json``: ``{"spec", "players", "call", "args"}``, one call of the state API
  (``new_state`` with keyword arguments, a method of a fresh state, or ``apply_made``:
  ``apply`` of a hand-made ``Action(*args)``).

Each must end in a clean error or correct behaviour, within the time bound.
New failing inputs of the generated categories are written out by running
the suite with ``SPELBOK_ADVERSARIAL_SAVE=DIR`` set.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from adv_exercise import api_call, load_players, log_file, reading_file, snapshot, spec_file
from adv_harness import FIXTURES, Outcome, plant, problems, run_bounded

WATCH = ("adv-secret", "/etc/passwd", "/dev/zero", "/proc/")
KINDS = (".spec.yaml", ".spec.spel", ".players.json", ".log.json", ".snapshot.json",
         ".reading.yaml", ".api.json")
FILES = sorted(p for p in FIXTURES.iterdir() if p.name.endswith(KINDS))


def read_fixture(path: Path) -> tuple[dict[str, str], str]:
    """(header, body) of a fixture file."""
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    header: dict[str, str] = {}
    while text.startswith("# "):
        line, _, text = text.partition("\n")
        key, _, value = line[2:].partition(": ")
        header[key] = value
    return header, text


def run_fixture(path: Path, tmp: Path) -> Outcome:
    header, body = read_fixture(path)
    body = body.replace("@TMP@", str(tmp))
    folder = plant(tmp)
    kind = next(k for k in KINDS if path.name.endswith(k))
    if kind in (".spec.yaml", ".spec.spel"):
        target = folder / ("mutant" + kind[len(".spec"):])
        target.write_text(body, encoding="utf-8", errors="surrogateescape")
        return run_bounded(spec_file, str(target), watch=WATCH)
    if kind == ".players.json":
        data = json.loads(body)
        return run_bounded(load_players, data["spec"], data["players"])
    if kind == ".log.json":
        target = folder / "tampered.json"
        target.write_text(body, encoding="utf-8", errors="surrogateescape")
        return run_bounded(log_file, str(target), watch=WATCH)
    if kind == ".api.json":
        data = json.loads(body)
        return run_bounded(api_call, data["spec"], data["players"], data["call"],
                           tuple(data["args"]))
    if kind == ".snapshot.json":
        return run_bounded(snapshot, header["spec"], int(header["players"]), json.loads(body))
    target = folder / "readings" / "tampered.yaml"
    target.write_text(body, encoding="utf-8", errors="surrogateescape")
    return run_bounded(reading_file, str(target), watch=WATCH)


def test_every_fixture_says_what_it_broke() -> None:
    for path in FIXTURES.iterdir():
        if path.name == "README.md":
            continue
        assert path.name.endswith(KINDS), f"{path.name}: not a fixture kind ({', '.join(KINDS)})"
        assert "broke" in read_fixture(path)[0], f"{path.name} has no '# broke:' line"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fixture(path: Path, tmp_path: Path) -> None:
    out = run_fixture(path, tmp_path)
    bad = problems(out)
    assert not bad, f"{path.name} (once broke: {read_fixture(path)[0]['broke']}):\n" + "\n".join(
        bad + ([out.detail[-3000:]] if out.kind == "crash" else []))
