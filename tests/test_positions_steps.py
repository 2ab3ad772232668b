"""Positions at every kind of step: counted tricks steps, the steps run after each
trick (decisions and moves), and a phase named by a step's label."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.analysis.readings import run_reading
from spelbok.cards import names
from spelbok.engine.position import PositionError

# two scored tricks steps of two tricks each (a hand of four tricks)
COUNTED = """\
spelbok: 1
name: Counted steps
players: {min: 2, max: 2}
deck: [{players: [2, 2], ranks: [A, K, Q, J, 10, 9, 8, 7]}]
variables:
  player: {score: 0}
dealer: {first: 0}
hand:
  - deal: {size: 4}
  - tricks: {count: 2}
  - tricks: {count: 2, leader: last_winner}
  - set: {score: "score + tricks"}
    for: "true"
end: {when: "hand_number >= 1", winners: "score == max(score)", score: score}
"""

# decisions and a move run after each trick, then a decision after the tricks
AFTER_EACH = """\
spelbok: 1
name: After each
players: {min: 2, max: 2}
deck: [{players: [2, 2], ranks: [A, K, Q, J, 10, 9, 8, 7]}]
variables:
  player: {score: 0, claims: 0}
dealer: {first: 0}
hand:
  - deal: {size: 3}
  - tricks:
      after_each:
        - decide: claim
          who: last_winner
          choose: [yes, no]
          then: {claims: "claims + (if choice == 'yes' then 1 else 0)"}
        - decide: boast
          who: last_winner
          choose: [loud, quiet]
        - move: {from: stock, to: hand, count: 1}
          for: "seat == last_winner"
          label: draw
  - decide: bid
    who: forehand
    choose: [high, low]
  - move: {from: stock, to: discards}
    label: clear the stock
  - set: {score: "score + tricks + claims"}
    for: "true"
end: {when: "hand_number >= 1", winners: "score == max(score)", score: score}
"""


def _game(tmp_path: Path, text: str, name: str) -> spelbok.Game:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return spelbok.load(str(path))


@pytest.fixture
def counted(tmp_path: Path) -> spelbok.Game:
    return _game(tmp_path, COUNTED, "counted")


@pytest.fixture
def after_each(tmp_path: Path) -> spelbok.Game:
    return _game(tmp_path, AFTER_EACH, "after-each")


def _legal(st: spelbok.State) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


# -- counted tricks steps -------------------------------------------------------------------


def test_second_counted_step_with_tricks_taken_plays_its_last_trick(
        counted: spelbok.Game) -> None:
    # the first step's two tricks and one of the second's: the second step's last trick
    st = counted.new_state(position={"phase": "tricks 2", "tricks": [2, 1], "leader": 1,
                                     "hands": {0: "AS", 1: "KH"}})
    assert st.decision_name == "play" and st.current_player == 1
    assert st.trick_no == 3 and st.last_winner == 1
    st.apply("KH")
    st.apply("AS")
    assert st.is_terminal and st.scores == [2, 2]


def test_a_trick_under_way_in_a_later_counted_step(counted: spelbok.Game) -> None:
    # the second step's first trick: seat 1 has led QH
    st = counted.new_state(position={"phase": "tricks 2", "tricks": [2, 0], "leader": 1,
                                     "hands": {0: "AS 7S", 1: "KH"}, "trick": ["QH"]})
    assert st.current_player == 0 and names(st.hands[1]) == ["KH"]
    st.apply("AS")  # no heart, no trump: QH wins
    assert st.current_player == 1
    st.apply("KH")
    st.apply("7S")
    assert st.is_terminal and st.scores == [2, 2]


def test_first_counted_step_goes_on_to_the_second(counted: spelbok.Game) -> None:
    st = counted.new_state(position={"tricks": [1, 0], "leader": 0,
                                     "hands": {0: "AS KS QS", 1: "AH KH QH"}})
    st.apply("AS")
    st.apply("AH")
    # the first step's two tricks are over; the second step is led by the last winner
    assert st.trick_no == 2 and st.current_player == 0 and st.won == [2, 0]


def test_a_counted_step_whose_tricks_are_all_played_is_an_error(counted: spelbok.Game) -> None:
    with pytest.raises(PositionError) as e:
        counted.new_state(position={"tricks": [2, 0], "hands": {0: "AS", 1: "AH"}})
    assert e.value.key == ("tricks",)
    assert "plays 2 trick(s), and 2 have been played" in str(e.value)
    assert "after tricks 1" in (e.value.hint or "")
    with pytest.raises(PositionError) as e:
        counted.new_state(position={"phase": "tricks 2", "tricks_played": 1,
                                    "hands": {0: "AS", 1: "AH"}})
    assert e.value.key == ("tricks_played",) and "at least 2" in str(e.value)


def test_after_a_counted_step_the_next_step_starts(counted: spelbok.Game) -> None:
    st = counted.new_state(position={"phase": "after tricks", "tricks": [1, 1],
                                     "hands": {0: "AS KS", 1: "AH KH"}})
    assert st.trick_no == 2 and st.decision_name == "play"


def test_tricks_played_counts_the_tricks_of_an_unscored_step(tmp_path: Path) -> None:
    # German Whist's drawing phase as 13 tricks: its last trick, with one card
    # left in the stock beside the face-up card
    variant = tmp_path / "gw13.yaml"
    variant.write_text("spelbok: 1\nextends: german-whist\nname: German Whist 13\n"
                       "hand: {drawing: {tricks: {count: 13}}}\n", encoding="utf-8")
    game = spelbok.load(str(variant))
    pos = {"trump": "S", "turn_up": "QS", "talon": "3D", "leader": 1,
           "hands": {1: "KH 3C", 0: "2H AS"}, "tricks_played": 12}
    st = game.new_state(position=pos)
    assert st.trick_no == 12
    st.apply("KH")
    st.apply("2H")
    # seat 1 won and took QS, seat 0 the 3D: the play-out starts, led by seat 1
    assert names(st.hands[1]) == ["3C", "QS"] and names(st.hands[0]) == ["AS", "3D"]
    assert st.current_player == 1 and st.trick_no == 13 and not st.stock
    with pytest.raises(PositionError):
        game.new_state(position={**pos, "tricks_played": 13})


# -- the steps run after each trick, and steps after them --------------------------------------


def test_a_decision_after_each_trick(after_each: spelbok.Game) -> None:
    st = after_each.new_state(position={"phase": "claim", "leader": 1, "tricks": [0, 1],
                                        "hands": {0: "AS KS", 1: "AH KH"}})
    assert st.decision_name == "claim" and st.current_player == 1
    st.apply("yes")
    assert st.decision_name == "boast" and st.current_player == 1
    st.apply("quiet")
    # seat 1 draws, then leads the next trick
    assert st.current_player == 1 and st.hands[1].bit_count() == 3 and st.trick_no == 1


def test_the_second_decision_after_each_trick(after_each: spelbok.Game) -> None:
    st = after_each.new_state(position={"phase": "boast", "leader": 0, "tricks": [1, 0],
                                        "hands": {0: "AS KS", 1: "AH KH"}})
    assert st.decision_name == "boast" and st.current_player == 0
    assert st.var("claims") == [0, 0]  # the claim before it was not asked again


def test_a_move_after_each_trick_named_by_its_label(after_each: spelbok.Game) -> None:
    st = after_each.new_state(position={"phase": "draw", "leader": 1, "tricks": [0, 1],
                                        "hands": {0: "AS KS", 1: "AH KH"}, "talon": "QD"})
    assert names(st.hands[1]) == ["KH", "AH", "QD"]  # seat 1 drew the talon's card
    assert st.current_player == 1 and st.decision_name == "play"


def test_a_decision_after_the_tricks_steps(after_each: spelbok.Game) -> None:
    st = after_each.new_state(position={"phase": "bid"})
    assert st.decision_name == "bid" and st.current_player == 1  # forehand


def test_a_move_after_the_tricks_named_by_its_label(after_each: spelbok.Game) -> None:
    st = after_each.new_state(position={"phase": "clear the stock", "tricks": [2, 1],
                                        "claims": [1, 0], "talon": "QD JD"})
    # the stock goes to the discards, then the hand is scored and the match ends
    assert st.is_terminal and not st.stock and st.scores == [3, 1]


def test_unknown_phase_lists_every_step_name(after_each: spelbok.Game) -> None:
    with pytest.raises(PositionError) as e:
        after_each.new_state(position={"phase": "claims"})
    assert "phases are: tricks, after tricks, claim, boast, bid, draw, clear the stock" in str(
        e.value)
    assert e.value.hint is not None and "claim" in e.value.hint


def test_after_tricks_of_a_step_with_after_each_runs_the_rest_of_the_hand(
        after_each: spelbok.Game) -> None:
    # not the steps run after each trick: the hand goes on after the tricks step
    st = after_each.new_state(position={"phase": "after tricks", "tricks": [2, 1]})
    assert st.decision_name == "bid"


def test_a_counted_step_error_is_located_in_the_reading_file(tmp_path: Path) -> None:
    (tmp_path / "counted.yaml").write_text(COUNTED, encoding="utf-8")
    reading = tmp_path / "counted-reading.yaml"
    reading.write_text("""\
reading: 1
spec: counted.yaml
cases:
  - name: the first step is over
    cites: "a test"
    position:
      hands: {0: "AS", 1: "AH"}
      tricks_played: 2
    steps: []
""", encoding="utf-8")
    case = run_reading(str(reading)).cases[0]
    assert case.status == "error"
    assert case.message.startswith(f"{reading}:8:22: this tricks step plays 2 trick(s)")
