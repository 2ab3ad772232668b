"""A declared pack in an auction's contracts (trump by the pack's suit letters, called
ranks) and in a card-points table (rank and card keys of the pack)."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.errors import SpecError, SpecErrors

SPEC = (Path(__file__).parent / "specs" / "pack_auction.yaml").read_text()
JOKER = SPEC.replace("  ranks: [2, 4, 5, 6, 7, S, C, R, 3, 1]\n",
                     "  ranks: [2, 4, 5, 6, 7, S, C, R, 3, 1]\n  extra: [{name: JK}]\n")


def test_a_contract_sets_a_trump_of_the_pack() -> None:
    g = spelbok.load(SPEC, players=3)
    st = g.new_state(seed=1)
    assert [str(a) for a in st.legal_actions()] == ["pass", "bid 1", "bid 2", "bid 3"]
    for a in ("bid 1", "pass", "pass"):
        st.apply(a)
    assert st.trump_letter() == "O"


def test_a_chosen_trump_is_named_by_the_packs_letters() -> None:
    g = spelbok.load(SPEC, players=3)
    st = g.new_state(seed=1)
    for a in ("bid 2", "pass", "pass"):
        st.apply(a)
    assert [str(a) for a in st.legal_actions()] == ["trump O", "trump C", "trump E", "trump B"]
    st.apply("trump E")
    assert st.trump_letter() == "E" and st.phase.kind == "trick"


def test_the_points_table_reads_the_packs_ranks_and_cards() -> None:
    g = spelbok.load(SPEC, players=3)
    # 1, 3, R, C, S of each suit: 30 a suit; the 7 of oros 5 more
    assert sum(g.program.points[0].card) == 4 * 30 + 5
    j = spelbok.load(JOKER.replace("cards: {7O: 5}", "cards: {7O: 5, JK: 20}"), players=3)
    assert sum(j.program.points[0].card) == 4 * 30 + 5 + 20


@pytest.mark.parametrize(("old", "new", "message"), [
    ("{level: 1, trump: O}", "{level: 1, trump: H}",
     r":22:\d+: unknown trump 'H' of the contract '1': expected O, C, E, B, none, chosen, keep"),
    ("{level: 3, trump: B}", "{level: 3, trump: b}", r":24:\d+: unknown trump 'b'"),
    ("ranks: {1: 11,", "ranks: {A: 11,",
     r":14:\d+: 'A' in points.ranks is not a rank \(2 4 5 6 7 S C R 3 1\)"),
    ("cards: {7O: 5}", "cards: {7H: 5}", r":15:\d+: '7H' in points.cards is not a card"),
    ("cards: {7O: 5}", "cards: {JK: 5}", r":15:\d+: 'JK' in points.cards is not a card"),
    ("        - {level: 3, trump: B}\n",
     "        - {level: 3, trump: B}\n      partner: called_card\n",
     r":21:\d+: the called rank 'A' is not a rank of the pack \(2 4 5 6 7 S C R 3 1\)"),
    ("        - {level: 3, trump: B}\n",
     "        - {level: 3, trump: B}\n      partner: called_card\n      called_ranks: [1, K]\n",
     r":26:\d+: the called rank 'K' is not a rank of the pack"),
])
def test_the_packs_words_are_checked(old: str, new: str, message: str) -> None:
    assert old in SPEC
    with pytest.raises((SpecError, SpecErrors), match=message):
        spelbok.load(SPEC.replace(old, new), players=3)


def test_a_called_card_of_the_pack_plays() -> None:
    text = SPEC.replace("        - {level: 3, trump: B}\n",
                        "        - {level: 3, trump: B}\n      partner: called_card\n"
                        "      called_ranks: [1]\n")
    g = spelbok.load(text, players=3)
    st = g.new_state(seed=1)
    for a in ("bid 1", "pass", "pass"):
        st.apply(a)
    assert all(str(a).startswith("call 1") for a in st.legal_actions())


def test_conformance_over_a_spanish_auction() -> None:
    game = spelbok.load(SPEC, players=3)
    rep = check_game(game, matches=8, seed=2, deep_every=4)
    assert rep.ok, rep.failures
