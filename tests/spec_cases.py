"""The shipped specs and variants at two player counts each, for the game-AI tests."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from spelbok.lang.loader import read_spec

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted(ROOT.glob("specs/*.yaml")) + sorted(ROOT.glob("specs/variants/*.yaml"))


@cache
def _players(path: Path) -> tuple[int, int]:
    tree = read_spec(path).tree
    return int(tree["players"]["min"]), int(tree["players"]["max"])


def players(path: Path) -> tuple[int, int]:
    """The fewest and the most players of a spec file, read (and checked) once per test
    process however many test modules build their cases from it."""
    return _players(Path(path).resolve())


def _counts(path: Path) -> list[int]:
    """Two player counts of a spec (one when it has only one)."""
    lo, hi = players(path)
    return sorted({lo, min(lo + 1, hi)})


CASES = [(p, n) for p in SPECS for n in _counts(p)]
