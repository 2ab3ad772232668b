"""Positions: partial descriptions of a moment in a hand (spelbok.engine.position)."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
import spelbok
import spelbok.engine.position as position_mod
from spelbok.analysis.readings import run_reading
from spelbok.cards import card_id, card_name, names
from spelbok.engine.position import PositionError


@pytest.fixture(scope="module")
def k3() -> spelbok.Game:
    return spelbok.load("knektpass", players=3)


@pytest.fixture(scope="module")
def kow() -> spelbok.Game:
    return spelbok.load("knockout-whist", players=3)


def legal(st: spelbok.State) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


def test_doctests() -> None:
    result = doctest.testmod(position_mod)
    assert result.failed == 0 and result.attempted > 0


# -- positions build the intended state -----------------------------------------------------


def test_trick_in_progress(k3: spelbok.Game) -> None:
    st = k3.new_state(position={
        "trump": "H", "leader": 1, "dealer": 0, "tricks": {1: 2, 2: 1},
        "hands": {0: "7C 8C", 1: "9C", 2: "AH KC"}, "trick": ["JS"],
    })
    assert st.dealer == 0 and st.trump_letter() == "H"
    assert st.current_player == 2
    assert st.trick.cards == [(1, card_id("JS"))]
    assert [names(h) for h in st.hands] == [["7C", "8C"], ["9C"], ["KC", "AH"]]
    assert st.won == [0, 2, 1] and st.trick_no == 3
    assert legal(st) == ["AH"]  # JS is a trump: hearts must follow and head
    # players default to the seats holding cards
    plays = k3.program.pvar_names.index("plays")
    assert st.pv_rows[plays] == [True, True, True]
    st.apply("AH")
    st.apply("7C")
    assert st.current_player == 1  # JS won
    assert st.won == [0, 3, 1]


def test_default_talon_is_the_rest_of_the_pack(k3: spelbok.Game) -> None:
    st = k3.new_state(seed=5, position={"trump": "S", "hands": {1: "AS", 2: "KS"}})
    assert len(st.stock) == 36 - 2
    assert st.current_player == 1  # forehand leads; seat 0 holds nothing, so does not play
    plays = k3.program.pvar_names.index("plays")
    assert st.pv_rows[plays] == [False, True, True]


def test_explicit_talon_top_first_and_the_rest_out_of_play(k3: spelbok.Game) -> None:
    st = k3.new_state(position={
        "phase": "exchange", "to_act": 2, "trump": "D", "plays": [True, False, True],
        "hands": {0: "7C 8C 9C 10C QC", 2: "7H 8H 9H 10H QH"}, "talon": ["AC", "AS", "AH"],
    })
    assert [card_name(c) for c in reversed(st.stock)] == ["AC", "AS", "AH"]
    assert st.current_player == 2
    assert max(len(a.cards) for a in st.legal_actions()) == 3
    st.apply("exchange 7H 8H")
    assert sorted(names(st.hands[2])) == sorted(["9H", "10H", "QH", "AC", "AS"])
    assert st.current_player == 0


def test_variables_per_seat_and_global(kow: spelbok.Game) -> None:
    st = kow.new_state(position={
        "phase": "after tricks", "hand_number": 3, "tricks": [2, 3, 0],
        "vars": {"survived": [2, 2, 2], "dog_lives": 0},
    })
    # the hand was scored: seat 2 is out, the next hand is dealt (4 cards)
    assert st.out == [False, False, True]
    assert st.hand_number == 4
    assert [h.bit_count() for h in st.hands] == [4, 4, 0]
    assert st.scores == [3, 3, 2]


def test_round_of_a_repeated_decision(k3: spelbok.Game) -> None:
    base: dict[str, Any] = {"phase": "exchange", "trump": "D", "plays": [True, True, True],
                            "hands": {0: "7C 8C 9C 10C QC", 1: "7S 8S 9S 10S QS",
                                      2: "7H 8H 9H 10H QH"}, "talon": "AC AS AH AD KC"}
    st = k3.new_state(position={**base, "round": 3, "to_act": 0})
    st.apply("exchange")
    assert st.current_player == 1 and str(k3.program.code[st.pc].__class__.__name__) == "TrickPlay"
    st = k3.new_state(position={**base, "round": 1, "to_act": 0})
    st.apply("exchange")
    assert st.current_player == 1 and k3.program.code[st.pc].__class__.__name__ == "Exchange"


def test_dog_may_hold_fewer_cards(kow: spelbok.Game) -> None:
    st = kow.new_state(position={
        "hand_number": 2, "trump": "S", "leader": 1, "dog": [False, False, True],
        "hands": {0: "2C 3C 4C 5C 6C 7C", 1: "2D 3D 4D 5D 6D", 2: "AH"}, "trick": ["7D"],
    })
    assert legal(st) == ["AH", "knock"]


def test_full_trick_is_scored(k3: spelbok.Game) -> None:
    st = k3.new_state(position={"trump": "H", "leader": 0,
                                "hands": {0: "7C", 1: "8C", 2: "9C"}, "trick": "JS JC AH"})
    assert st.won == [0, 1, 0]
    assert st.current_player == 1


def test_snapshot_and_log_of_a_position(k3: spelbok.Game) -> None:
    st = k3.new_state(position={"trump": "H", "leader": 1,
                                "hands": {0: "7C 8C", 1: "9C", 2: "AH KC"}, "trick": ["JS"]})
    st.apply("AH")
    d = st.to_dict()
    json.dumps(d)
    assert k3.restore(d) == st
    kinds = [e["event"] for e in st.log]
    assert "position" in kinds


def test_yaml_style_string_seat_keys(k3: spelbok.Game) -> None:
    st = k3.new_state(position={"trump": "H", "leader": "1",
                                "hands": {"0": "7C 8C", "1": "9C 10C", "2": "AH KC"}})
    assert st.current_player == 1


# -- impossible positions are located errors -------------------------------------------------


@pytest.mark.parametrize(
    ("position", "key", "words"),
    [
        ({"hands": {0: "7C AS", 1: "7C KS"}}, ("hands", 1), "7C is in two places"),
        ({"hands": {0: "AS", 1: "KS"}, "turn_up": "AS"}, ("turn_up",), "in two places"),
        ({"hands": {0: "2C KS", 1: "AS QS"}}, ("hands", 0), "2C is not in the pack"),
        ({"hands": {0: "XX"}}, ("hands", 0), "'XX' is not a card"),
        ({"hands": {0: "AS KS", 1: "QS", 2: "JS 10S"}}, ("hands", 1), "as many cards"),
        ({"hands": {5: "AS"}}, ("hands", 5), "there is no seat 5"),
        ({"dealer": 3, "hands": {0: "AS"}}, ("dealer",), "there is no seat 3"),
        ({"leader": -1, "hands": {0: "AS"}}, ("leader",), "no seat -1"),
        ({"hands": {0: "AS", 1: "KS", 2: "QS"}, "trick": ["JC", "JS", "JH", "JD"]},
         ("trick",), "4 cards but only 3"),
        ({"hands": {0: "AS"}, "trump": "X"}, ("trump",), "suit letter"),
        ({"hands": {0: "AS"}, "phase": "bid"}, ("phase",), "no step 'bid'"),
        ({"hands": {0: "AS"}, "dealr": 1}, ("dealr",), "unknown key 'dealr'"),
        ({"hands": {0: "AS"}, "out": [0]}, ("hands", 0), "out of the match"),
        ({"trump": "H", "leader": 0, "hands": {0: "7D", 1: "KC", 2: "9S 10S"},
          "trick": ["9C", "7C"]}, ("trick", 1), "could not have played 7C here: you must head"),
        ({"trump": "H", "leader": 0, "hands": {0: "7C", 1: "8C", 2: "9C 10C"},
          "trick": ["AC", "AH"]}, ("trick", 1), "must follow suit"),
        ({"vars": {"score": [1, 2]}, "hands": {0: "AS"}}, ("vars", "score"), "one entry per seat"),
        ({"vars": {"plays": {0: 3}}, "hands": {0: "AS"}}, ("vars", "plays", 0), "true or false"),
        ({"vars": {"scroe": [1, 2, 3]}}, ("vars", "scroe"), "no variable 'scroe'"),
        ({"phase": "exchange", "to_act": 2, "plays": [True, True, False],
          "hands": {0: "AS"}}, ("to_act",), "does not decide"),
        ({"phase": "after tricks", "hands": {0: "AS"}}, ("hands", 0), "every hand is empty"),
    ],
)
def test_impossible_positions(k3: spelbok.Game, position: dict[str, Any], key: tuple[Any, ...],
                              words: str) -> None:
    with pytest.raises(PositionError) as info:
        k3.new_state(position=position)
    assert words in str(info.value)
    assert info.value.key == key
    assert str(info.value).startswith("position ")
    assert isinstance(info.value, spelbok.SpecError)


def test_did_you_mean_for_unknown_keys(k3: spelbok.Game) -> None:
    with pytest.raises(PositionError) as info:
        k3.new_state(position={"hand": {0: "AS"}})
    assert info.value.hint == "hands"


READING = """\
reading: 1
spec: knektpass
players: 3
cases:
  - name: impossible
    cites: "a test"
    position:
      trump: H
      hands:
        0: "AS KS"
        1: "7C AS"
    steps: []
"""


def test_position_errors_are_located_in_the_reading_file() -> None:
    report = run_reading("pos.yaml", text=READING)
    case = report.cases[0]
    assert case.status == "error"
    assert case.message.startswith("pos.yaml:11:12: AS is in two places")
