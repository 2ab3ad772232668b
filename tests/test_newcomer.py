"""What a newcomer met (issue 35, item 7), each with its test."""

from __future__ import annotations

from pathlib import Path

import pytest
from spelbok.validation import diagnose

SPECS = Path(__file__).resolve().parent.parent / "specs"


# ------------------------------------------------------------- for: all in a set step


@pytest.mark.parametrize("word", ["all", "everyone", "each"])
def test_for_every_word_suggests_true(tmp_path: Path, word: str) -> None:
    text = (SPECS / "auction-pitch.yaml").read_text(encoding="utf-8")
    assert text.count('    for: "true"\n') >= 1
    bad = text.replace('    for: "true"\n', f"    for: {word}\n", 1)
    spec = tmp_path / "g.yaml"
    spec.write_text(bad, encoding="utf-8")
    line = bad[: bad.index(f"    for: {word}\n")].count("\n") + 1
    errors, _ = diagnose(spec)
    assert len(errors) == 1, [str(e) for e in errors]
    e = errors[0]
    assert (e.line, e.col) == (line, 10)
    assert e.hint == 'for: "true"'
    assert f"'{word}'" in e.message


def test_for_every_word_declared_is_a_name(tmp_path: Path) -> None:
    """A spec that declares the word as a variable means that variable: no error."""
    spec = tmp_path / "g.yaml"
    spec.write_text("""spelbok: 1
name: Tiny
players: {min: 2, max: 2}
deck: [{ranks: [A, K, Q, J, '10', '9']}]
variables: {player: {each: true, score: 0}}
hand:
  - deal: {size: 3}
  - set: {score: "score + 1"}
    for: each
  - tricks: {}
end: {when: "true", winners: "true"}
""", encoding="utf-8")
    errors, _ = diagnose(spec)
    assert errors == []
