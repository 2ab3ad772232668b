"""``times_played(card)``: how many cards the seat has played this hand that are the card (any
copy) or match a pattern, so a step after the play reads who played what (Schafkopf's
runners counted from the cards as played)."""

from __future__ import annotations

import pytest
import spelbok

SPEC = """spelbok: 1
name: Played mini
players: {min: 4, max: 4}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
variables:
  hand_player: {aces: 0, spade_ace: false, trumps_seen: 0}
hand:
  - deal: {size: 8}
  - tricks:
      after_each:
        - set: {aces: "times_played('A@*')", spade_ace: "times_played('AS') > 0",
                trumps_seen: "times_played('*@trump')"}
          for: "true"
end: {when: "hand_number >= 1", winners: "tricks == max(tricks)"}
"""
HANDS = {0: "AH AS", 1: "7H 8H", 2: "9H 7S", 3: "QH JH"}


def _state(spec: str = SPEC, hands: dict[int, str] = HANDS) -> spelbok.State:
    game = spelbok.load(spec, players=4)
    return game.new_state(seed=1, position={"hands": hands, "leader": 0, "trump": "S"})


def test_it_counts_the_cards_each_seat_played_this_hand() -> None:
    st = _state()
    for card in ("AH", "7H", "9H", "QH"):
        st.apply(card)
    assert st.var("aces") == [1, 0, 0, 0]
    assert st.var("spade_ace") == [False] * 4
    for card in ("AS", "8H", "7S", "JH"):
        st.apply(card)
    assert st.var("aces") == [2, 0, 0, 0]
    assert st.var("spade_ace") == [True, False, False, False]
    assert st.var("trumps_seen") == [1, 0, 1, 0]  # the ace and the seven of spades


def test_every_copy_of_a_card_counts() -> None:
    spec = SPEC.replace("deck:", "pack:\n  suits: [{letter: C}, {letter: S}, {letter: H}, "
                        "{letter: D}]\n  ranks: [7, 8, 9, 10, J, Q, K, A]\n  copies: 2\ndeck:")
    spec = spec.replace("times_played('AS') > 0", "times_played('AS') == 2")
    st = _state(spec, {0: "AS AS", 1: "7H 8H", 2: "9H 9D", 3: "QH JH"})
    for card in ("AS", "7H", "9H", "QH"):
        st.apply(card)
    assert st.var("spade_ace") == [False] * 4
    for card in ("AS", "8H", "9D", "JH"):
        st.apply(card)
    assert st.var("spade_ace") == [True, False, False, False]


def test_it_needs_a_seat() -> None:
    spec = SPEC.replace("hand_player: {", "hand: {any_ace: 0}\n  hand_player: {").replace(
        "for: \"true\"", "for: \"true\"\n        - set: {any_ace: \"times_played('AS')\"}")
    with pytest.raises(spelbok.SpecError, match=r"played\(\) reads the seat's cards"):
        spelbok.load(spec, players=4)
    ok = spec.replace("{any_ace: \"times_played('AS')\"}", "{any_ace: \"sum(times_played('AS'))\"}")
    spelbok.load(ok, players=4)
