"""Rank orders that differ by suit (``ranking.suit_ranks``) and for the trump suit
(``ranking.trump_ranks``): checked with located errors, told by ``describe``, written back
by ``convert``, and played by the engine's order tables (the one winner rule)."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.cards import parse_card
from spelbok.engine.trick import trick_winner
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.validate import validate
from spelbok.lang.yamlio import load_yaml

PIPS = "A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2"
SPEC = f"""spelbok: 1
name: Suit orders mini
players: {{min: 2, max: 4}}
deck:
  - ranks: [{PIPS}]
ranking:
  ranks: [{PIPS}]
  suit_ranks:
    c: [K, Q, J, A, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    "♠": [K, Q, J, A, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  trump_ranks: [J, 9, {PIPS.replace("J, ", "").replace("9, ", "")}]
hand:
  - deal: {{size: 5}}
  - tricks: {{}}
end: {{when: "hand_number >= 2", winners: "tricks == max(tricks)"}}
"""


def errors_of(tmp_path: Path, text: str) -> list[str]:
    """``line:col: message`` of each error of the spec ``text``."""
    file = tmp_path / "spec.yaml"
    file.write_text(text, encoding="utf-8")
    return [str(e).removeprefix(f"{file}:") for e in validate(str(file))]


def winner(game: spelbok.Game, trump: int, cards: str) -> int:
    """Who wins a trick of ``cards`` (seats 0, 1, ... in order) under ``trump``."""
    pairs = [(i, parse_card(c)) for i, c in enumerate(cards.split())]
    return trick_winner(game.program.tables[trump], pairs, True, trump).seat


def test_each_suit_plays_its_own_order_and_trumps_theirs() -> None:
    game = spelbok.load(SPEC, players=2)
    none, hearts, clubs = 4, 2, 0
    assert winner(game, none, "10C 2C") == 1  # clubs run low to high
    assert winner(game, none, "2H 10H") == 1  # hearts, the plain order: high to low
    assert winner(game, none, "JS AS") == 0  # the ace below the knave in spades
    assert winner(game, hearts, "AH 9H JH") == 2  # the trump order: J 9 A ...
    assert winner(game, hearts, "AH 9H") == 1
    assert winner(game, clubs, "AC 9C JC") == 2  # trump_ranks over the suit's own order
    assert winner(game, clubs, "2C 10C") == 1


def test_the_spec_is_normalized_and_written_back() -> None:
    canonical = normalize(load_yaml(SPEC, "s.yaml")[0])
    assert set(canonical["ranking"]["suit_ranks"]) == {"C", "S"}
    spel = to_dsl(canonical)
    assert "ranks of ♣ ♠ from high to low: K Q J A 2 3 4 5 6 7 8 9 10" in spel
    assert "trump ranks from high to low: J 9 A K Q 10 8 7 6 5 4 3 2" in spel
    assert normalize(parse_dsl(spel, "s.spel")[0]) == canonical


def test_describe_tells_each_order() -> None:
    text = " ".join(describe(SPEC).split())
    assert "The trump suit ranks J 9 A K Q 10 8 7 6 5 4 3 2 (high to low), whatever its " \
        "order as a plain suit." in text
    assert "Hearts and diamonds rank A K Q J 10 9 8 7 6 5 4 3 2 (high to low)." in text
    assert "Clubs and spades rank K Q J A 2 3 4 5 6 7 8 9 10 (high to low)." in text


@pytest.mark.parametrize("old, new, message", [
    ("    c: [", "    x: [", "'X' is not a suit of the pack"),
    ("    c: [K, Q, J, A, 2,", "    c: [K, Q, J, 2,",
     "the rank 'A' is in the deck but not in the order of the suit C (ranking.suit_ranks)"),
    ("  trump_ranks: [J, 9,", "  trump_ranks: [J, J, 9,", "the rank 'J' is listed twice"),
])
def test_a_bad_order_is_a_located_error(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = SPEC.replace(old, new, 1)
    errors = errors_of(tmp_path, text)
    assert len(errors) == 1 and message in errors[0], errors
    line = errors[0].split(":")[0]
    assert new.strip().split(":")[0] in text.splitlines()[int(line) - 1], errors


def test_a_dsl_order_given_twice_for_a_suit_is_an_error(tmp_path: Path) -> None:
    spel = to_dsl(normalize(load_yaml(SPEC, "s.yaml")[0]))
    spel = spel.replace("ranks of ♣ ♠ from", "ranks of ♣ ♠ ♣ from")
    file = tmp_path / "s.spel"
    file.write_text(spel, encoding="utf-8")
    errors = [str(e) for e in validate(str(file))]
    assert len(errors) == 1 and "the rank order of the suit C is given twice" in errors[0]
