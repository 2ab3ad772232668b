"""``seat_of(card)``: the seat that played a card to the trick (in ``after_each``, to the
trick just finished), so that a rule may read who holds the trick and his side."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.lang.validate import validate

# partners opposite; a void player must trump unless his partner holds the trick
SPEC = """spelbok: 1
name: Partner mini
players: {min: 4, max: 4}
teams: [[0, 2], [1, 3]]
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
variables:
  hand: {leader_seat: -1, ace_seat: -1}
hand:
  - deal: {size: 8}
  - tricks:
      allow: >-
        led_suit == 'none' or count(cards_of(hand, led_suit)) > 0 or is_trump(card)
        or count(trumps(hand)) == 0 or seat_of(winning_card) == partner
      reason: "trump when an opponent holds the trick"
      after_each:
        - set: {leader_seat: "seat_of(led_card)", ace_seat: "seat_of('AS')"}
end: {when: "hand_number >= 1", winners: "tricks == max(tricks)"}
"""
HANDS = {0: "AH KH", 1: "7H 8H", 2: "7C 7S", 3: "QH JH"}


def state_after(plays: list[str], leader: int = 0, spec: str = SPEC) -> spelbok.State:
    game = spelbok.load(spec, players=4)
    st = game.new_state(seed=1, position={"hands": HANDS, "leader": leader, "trump": "S"})
    for card in plays:
        st.apply(card)
    return st


def test_a_void_player_need_not_trump_while_his_partner_holds_the_trick() -> None:
    st = state_after(["AH", "7H"])  # seat 0, seat 2's partner, holds the trick
    assert sorted(str(a) for a in st.legal_actions()) == ["7C", "7S"]


def test_a_void_player_must_trump_when_an_opponent_holds_the_trick() -> None:
    game = spelbok.load(SPEC, players=4)
    st = game.new_state(seed=1, position={"hands": {0: "8H KH", 1: "AH 7D", 2: "7C 7S",
                                                    3: "QH JH"}, "leader": 1, "trump": "S"})
    st.apply("AH")  # seat 1, an opponent of seat 2, holds the trick
    assert [str(a) for a in st.legal_actions()] == ["7S"]
    with pytest.raises(spelbok.IllegalActionError, match="trump when an opponent"):
        st.apply("7C")


def test_after_each_it_reads_the_trick_just_finished() -> None:
    game = spelbok.load(SPEC, players=4)
    st = game.new_state(seed=1, position={"hands": {0: "AH AS", 1: "7H 8H", 2: "9H 7S",
                                                    3: "QH JH"}, "leader": 1, "trump": "S"})
    for card in ("7H", "9H", "QH", "AH"):
        st.apply(card)
    assert st.var("leader_seat") == 1 and st.var("ace_seat") == -1
    for card in ("AS", "8H", "7S", "JH"):  # seat 0 won and leads the ace of spades
        st.apply(card)
    assert st.var("leader_seat") == 0 and st.var("ace_seat") == 0


def test_every_copy_of_a_card_is_that_card() -> None:
    spec = SPEC.replace("deck:", "pack:\n  suits: [{letter: C}, {letter: S}, {letter: H}, "
                        "{letter: D}]\n  ranks: [7, 8, 9, 10, J, Q, K, A]\n  copies: 2\ndeck:")
    game = spelbok.load(spec, players=4)
    st = game.new_state(seed=1, position={"hands": {0: "AH AS", 1: "7H 8H", 2: "9H AS",
                                                    3: "QH JH"}, "leader": 0, "trump": "S"})
    for card in ("AH", "7H", "9H", "QH", "AS", "8H", "AS", "JH"):
        st.apply(card)
    assert st.var("ace_seat") == 0  # the first copy played


@pytest.mark.parametrize("formula, bad, message", [
    ("seat_of(3) == partner", "3)", "seat_of() needs a card, got an int"),
    ("seat_of('ZZ') == partner", "'ZZ'", "'ZZ' is not a card"),
    ("seat_of(winning_card) == 'x'", "== 'x'", "cannot compare an int with a str"),
])
def test_a_bad_argument_is_a_located_error(tmp_path: Path, formula: str, bad: str,
                                           message: str) -> None:
    text = SPEC.replace("seat_of(winning_card) == partner", formula)
    file = tmp_path / "spec.yaml"
    file.write_text(text, encoding="utf-8")
    errors = [str(e) for e in validate(str(file))]
    i = text.index(bad, text.index("seat_of("))
    where = f"{text.count(chr(10), 0, i) + 1}:{i - text.rfind(chr(10), 0, i)}"
    assert errors == [f"{file}:{where}: " + errors[0].split(": ", 1)[1]], errors
    assert message in errors[0]
