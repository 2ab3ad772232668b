"""``ranking.kept_cards``: a card that never wins and stays with its owner (its
player's won cards, not the trick winner's)."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.errors import SpecError, SpecErrors
from spelbok.lang.describe import describe
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.loader import read_spec

SPEC = """spelbok: 1
name: kept-card mini
players: {min: 2, max: 3}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
ranking:
  free_cards: [7C]
  kept_cards: [7C]
points:
  ranks: {A: 11, K: 4}
  cards: {7C: 5}
variables:
  player: {score: 0}
hand:
  - deal: {size: 5}
  - tricks: {}
  - set: {score: score + card_points}
    for: "true"
end: {when: "hand_number >= 2", winners: "score == max(score)", score: score}
"""


def _won(st: spelbok.State, seat: int) -> list[str]:
    return sorted(st.game.program.pack.names_of(st.won_cards[seat]))


def test_a_kept_card_never_wins_and_goes_to_its_owner() -> None:
    g = spelbok.load(SPEC, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "7C AH", 1: "8C KH"}, "leader": 0,
                                       "trump": "none"}, record=True)
    st.apply("7C")
    st.apply("8C")
    assert [e for e in st.log if e["event"] == "trick"][-1]["winner"] == 1
    assert _won(st, 0) == ["7C"] and _won(st, 1) == ["8C"]
    st.apply("KH")
    st.apply("AH")
    # the hand is over: 0 scored the 7C he kept, the AH and the KH
    assert st.scores[0] - st.scores[1] == 5 + 11 + 4


def test_a_kept_card_played_to_anothers_trick_stays_with_its_owner() -> None:
    g = spelbok.load(SPEC, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "AH 8C", 1: "7C KS"}, "leader": 0,
                                       "trump": "none"}, record=True)
    st.apply("AH")
    assert "7C" in [str(a) for a in st.legal_actions()]  # a free card too
    st.apply("7C")
    assert _won(st, 0) == ["AH"] and _won(st, 1) == ["7C"]


def test_kept_cards_describe_convert_and_check() -> None:
    assert "7C never wins a trick and stays with its owner" in describe(SPEC).replace("♣", "C")
    dsl = to_dsl(read_spec("k.yaml", text=SPEC).tree)
    assert "cards that stay with their owner: 7C" in dsl.replace("♣", "C")
    assert read_spec("k.spel", text=dsl).tree == read_spec("k.yaml", text=SPEC).tree
    with pytest.raises((SpecError, SpecErrors), match=r":8:\d+: the card .7C. is listed twice"):
        spelbok.load(SPEC.replace("kept_cards: [7C]", "kept_cards: [7C, 7C]"), players=2)


def test_conformance_with_a_kept_card() -> None:
    rep = check_game(spelbok.load(SPEC, players=3), matches=8, seed=3, deep_every=4)
    assert rep.ok, rep.failures
