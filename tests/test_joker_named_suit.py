"""A declaration made with a card and constrained by it: a joker led with a named suit,
which every later player of the trick must follow if he can (``tricks.declare`` with
``binds`` and ``bound: rest``; issue 33, item 1)."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.errors import IllegalActionError

SUITS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
WORDS = "\n".join(
    f"""      - word: {word}
        when: "led_suit == 'none' and card == 'JK'"
        then: {{named: "'{s}'"}}
        binds: "suit_of(card) == '{s}'"
        bound: rest
        reason: "the joker was led as {word}: follow {word}\""""
    for word, s in SUITS.items())

SPEC = f"""spelbok: 1
name: Named joker
players: {{min: 3, max: 3}}
pack:
  suits: [{{letter: C}}, {{letter: S}}, {{letter: H, colour: red}}, {{letter: D, colour: red}}]
  ranks: [7, 8, 9, 10, J, Q, K, A]
  extra: [{{name: JK}}]
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
ranking:
  top_trumps: [JK]
variables:
  hand: {{named: "'none'"}}
hand:
  - deal: {{size: 3}}
  - tricks:
      declare:
{WORDS}
end: {{when: "hand_number >= 2", winners: "tricks == max(tricks)"}}
"""


def start(hands: dict[int, str]) -> spelbok.State:
    return spelbok.load(SPEC, players=3).new_state(
        seed=1, position={"trump": "none", "leader": 0, "hands": hands})


def names(st: spelbok.State) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


def test_the_joker_led_names_a_suit_every_later_player_must_follow() -> None:
    st = start({0: "JK 7C 8C", 1: "AS 7H 9D", 2: "KC 8H QD"})
    assert "hearts JK" in names(st)  # the joker may be led naming any suit
    st.apply("hearts JK")
    assert st.var("named") == "H"
    assert names(st) == ["7H"]  # he holds a heart: he must play it
    st.apply("7H")
    assert names(st) == ["8H"]  # binds every later player (bound: rest)


def test_a_player_without_the_named_suit_plays_any_card() -> None:
    st = start({0: "JK 7C 8C", 1: "AS 7H 9D", 2: "KC 8H QD"})
    st.apply("spades JK")
    st.apply("AS")
    assert names(st) == ["8H", "KC", "QD"]


def test_another_card_led_names_nothing() -> None:
    st = start({0: "JK 7C 8C", 1: "AS 7H 9D", 2: "KC 8H QD"})
    with pytest.raises(IllegalActionError, match="may not declare hearts with 7C"):
        st.apply("hearts 7C")
