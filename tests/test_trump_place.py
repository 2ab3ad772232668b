"""Top trumps placed below the trump suit (``ranking.top_trumps_place``): the word or an
option, checked with located errors, told by ``describe``, written back by ``convert``,
and played by the engine's order tables (the one winner rule, following suit)."""

from __future__ import annotations

from pathlib import Path

import spelbok
from spelbok.cards import parse_card
from spelbok.engine.trick import trick_winner
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.validate import validate
from spelbok.lang.yamlio import load_yaml

SPEC = """spelbok: 1
name: Low top trumps mini
players: {min: 2, max: 4}
options:
  place: {values: [high, low], default: low}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]
ranking:
  top_trumps: [JC, JS]
  top_trumps_place: place
hand:
  - deal: {size: 5}
  - tricks: {}
end: {when: "hand_number >= 2", winners: "tricks == max(tricks)"}
"""
HEARTS = 2


def winner(game: spelbok.Game, trump: int, cards: str) -> int:
    """Who wins a trick of ``cards`` (seats 0, 1, ... in order) under ``trump``."""
    pairs = [(i, parse_card(c)) for i, c in enumerate(cards.split())]
    return trick_winner(game.program.tables[trump], pairs, True, trump).seat


def test_low_top_trumps_rank_below_the_trump_suit_and_above_plain_cards() -> None:
    game = spelbok.load(SPEC, players=3)
    assert winner(game, HEARTS, "JC 2H") == 1  # the lowest heart beats the top trump
    assert winner(game, HEARTS, "AD JC") == 1  # which beats the ace of the suit led
    assert winner(game, HEARTS, "JS JC") == 1  # in their listed order among themselves
    assert winner(game, HEARTS, "AS JS") == 1  # a top trump, not a spade any more


def test_high_the_default_order_is_unchanged() -> None:
    game = spelbok.load(SPEC, players=3, options={"place": "high"})
    assert winner(game, HEARTS, "JC 2H") == 0
    assert winner(game, HEARTS, "AH JS") == 1
    assert winner(game, HEARTS, "JS JC") == 1


def test_a_low_top_trump_still_belongs_to_the_trump_suit() -> None:
    game = spelbok.load(SPEC, players=3)
    tables = game.program.tables[HEARTS]
    jc = parse_card("JC")
    assert tables.suit[jc] == HEARTS and tables.trump[jc]
    assert tables.power[jc] < tables.power[parse_card("2H")]
    assert tables.power[jc] > tables.power[parse_card("AD")]


def test_the_spec_is_written_back_in_both_surfaces() -> None:
    canonical = normalize(load_yaml(SPEC, "s.yaml")[0])
    assert canonical["ranking"]["top_trumps_place"] == "place"
    spel = to_dsl(canonical)
    assert "top trumps rank: place" in spel
    assert normalize(parse_dsl(spel, "s.spel")[0]) == canonical
    low = normalize(load_yaml(SPEC.replace("top_trumps_place: place",
                                           "top_trumps_place: low"), "s.yaml")[0])
    assert "top trumps rank below the trump suit" in to_dsl(low)
    assert normalize(parse_dsl(to_dsl(low), "s.spel")[0]) == low


def test_absent_it_costs_nothing_in_the_canonical_model() -> None:
    plain = normalize(load_yaml(SPEC.replace("  top_trumps_place: place\n", ""), "s.yaml")[0])
    assert "top_trumps_place" not in plain["ranking"]


def test_describe_places_them_below_the_trump_suit() -> None:
    text = " ".join(describe(SPEC).split())
    assert "below the whole trump suit, as its lowest cards" in text
    assert "Beside them the trump suit ranks" in text


def test_a_bad_word_or_option_is_a_located_error(tmp_path: Path) -> None:
    file = tmp_path / "spec.yaml"
    file.write_text(SPEC.replace("top_trumps_place: place", "top_trumps_place: lowest"),
                    encoding="utf-8")
    errors = [str(e) for e in validate(str(file))]
    assert any("top_trumps_place" in e and "lowest" in e for e in errors), errors
    file.write_text(SPEC.replace("values: [high, low]", "values: [high, middle]"),
                    encoding="utf-8")
    errors = [str(e) for e in validate(str(file))]
    assert any("middle" in e for e in errors), errors


def test_describe_with_the_word_low_puts_the_suit_above_them() -> None:
    text = " ".join(describe(SPEC.replace("top_trumps_place: place",
                                          "top_trumps_place: low")).split())
    assert "below the whole trump suit, as its lowest cards:" in text
    assert "Above them the trump suit ranks" in text
