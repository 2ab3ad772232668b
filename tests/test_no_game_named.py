"""The interpreter names no game: everything a game needs is in its spec.  Each shipped
spec's file name and ``name`` are looked for in the package's Python sources, comments and
docstrings included (the shipped ``example`` spec of the doctests apart, and words that are
also the vocabulary's: a suit's name, a kind of play)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: names that are also ordinary words of the vocabulary or of the doctests
WORDS = {"example", "hearts", "spades", "tractor"}


def _game_names() -> set[str]:
    from spelbok.lang.loader import read_spec

    names = set()
    for p in (ROOT / "specs").glob("*.yaml"):
        if p.name.endswith(".schema.json"):
            continue
        names |= {p.stem.replace("-", " "), str(read_spec(p).tree["name"]).lower()}
    return {n for n in names if n not in WORDS}


def test_no_python_source_of_the_interpreter_names_a_shipped_game() -> None:
    names = _game_names()
    assert {"knektpass", "mighty", "rook"} <= names
    pattern = re.compile("|".join(r"\b" + re.escape(n).replace(r"\ ", r"[\s_-]") + r"\b"
                                  for n in sorted(names)), re.IGNORECASE)
    found = [f"{p.relative_to(ROOT)}:{i}: {m.group(0)}"
             for p in sorted((ROOT / "interpreter").rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for m in pattern.finditer(line)]
    assert not found, found
