"""The shipped specs and variants at two player counts each, for the game-AI tests."""

from __future__ import annotations

from pathlib import Path

import spelbok

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted(ROOT.glob("specs/*.yaml")) + sorted(ROOT.glob("specs/variants/*.yaml"))


def _counts(path: Path) -> list[int]:
    """Two player counts of a spec (one when it has only one)."""
    tree = spelbok.load(str(path)).tree
    lo, hi = tree["players"]["min"], tree["players"]["max"]
    return sorted({lo, min(lo + 1, hi)})


CASES = [(p, n) for p in SPECS for n in _counts(p)]
