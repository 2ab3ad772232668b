"""Card-play mechanics inside the trick: trump named by a played card, ..."""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.engine.trick import TrickPlay, TrumpLeadPlay
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.minispec import mini


def state(spec: str, position: dict[str, Any] | None = None, players: int = 2,
          seed: int = 1) -> spelbok.State:
    return spelbok.load(spec, players=players).new_state(seed=seed, position=position)


def error_of(spec: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        spelbok.load(spec, players=2)
    return info.value


def roundtrip(spec: str) -> None:
    """YAML -> DSL -> YAML gives the same canonical tree."""
    canonical = normalize(load_yaml(spec, "mini.yaml")[0])
    assert normalize(parse_dsl(to_dsl(canonical), "mini.spel")[0]) == canonical


def tricks(body: str) -> str:
    return mini("  - deal: {size: 3}\n  - tricks: {" + body + "}\n")


# -- trump named by a played card (tricks.trump_from, trump_by) ----------------------

FIRST_LEAD = tricks("trump_from: first_lead")
BY_SECOND = tricks('trump_from: first_lead, trump_by: "seat == 1"')


def test_the_first_card_led_names_trump_at_once() -> None:
    st = state(FIRST_LEAD, {"trump": "none", "leader": 0,
                            "hands": {0: "8H 7C KD", 1: "AD 7H QC"}})
    assert st.trump_letter() == "none"
    st.apply("8H")
    assert st.trump_letter() == "H"
    assert [str(a) for a in st.legal_actions()] == ["7H"]  # the led suit, now trump
    st.apply("7H")
    st.apply("KD")  # seat 0 won; a later lead does not name trump again
    assert st.trump_letter() == "H"


def test_a_card_of_the_named_trump_wins_a_later_trick() -> None:
    st = state(FIRST_LEAD, {"trump": "none", "leader": 0,
                            "hands": {0: "8H AC KC", 1: "AH 7H QD"}})
    st.apply("8H")
    st.apply("AH")  # seat 1 wins and leads
    st.apply("QD")
    st.apply("AC")  # void in diamonds, and clubs are not trump: seat 1 wins
    assert st.won == [0, 2]


def test_trump_by_names_whose_lead_counts() -> None:
    st = state(BY_SECOND, {"trump": "none", "leader": 0,
                           "hands": {0: "7H AC KD", 1: "AH 9C QD"}})
    st.apply("7H")  # seat 0 leads: not the player trump_by admits
    assert st.trump_letter() == "none"
    st.apply("AH")
    st.apply("9C")  # seat 1 leads clubs: trump
    assert st.trump_letter() == "C"
    # by trick: the second trick's lead names trump, whoever leads it
    spec = tricks('trump_from: first_lead, trump_by: "trick_number == 2"')
    st = state(spec, {"trump": "none", "leader": 0, "hands": {0: "7H AC KD", 1: "AH 9C QD"}})
    st.apply("7H")
    st.apply("AH")
    assert st.trump_letter() == "none"
    st.apply("QD")
    assert st.trump_letter() == "D"


def test_a_trump_already_set_is_kept() -> None:
    st = state(FIRST_LEAD, {"trump": "S", "leader": 0, "hands": {0: "8H 7C KD", 1: "AD 7H QC"}})
    st.apply("8H")
    assert st.trump_letter() == "S"


def test_the_event_log_says_which_lead_named_trump() -> None:
    game = spelbok.load(FIRST_LEAD, players=2)
    st = game.new_state(seed=1, record=True,
                        position={"trump": "none", "leader": 0,
                                  "hands": {0: "8H 7C KD", 1: "AD 7H QC"}})
    st.apply("8H")
    assert {"event": "trump", "suit": "H", "seat": 0, "card": "8H"} in st.log


def test_a_spec_without_trump_from_compiles_to_the_plain_trick_play() -> None:
    plain = spelbok.load(tricks(""), players=2).program.code
    assert [type(i) for i in plain if isinstance(i, TrickPlay)] == [TrickPlay]
    named = spelbok.load(FIRST_LEAD, players=2).program.code
    assert [type(i) for i in named if isinstance(i, TrickPlay)] == [TrumpLeadPlay]


def test_trump_from_errors_are_located() -> None:
    e = error_of(tricks('trump_by: "seat == 1"'))
    assert (e.line, "trump_by") == (9, "trump_by") and "no 'trump_from'" in e.message
    assert "trump_from: first_lead" in (e.hint or "")
    e = error_of(tricks("trump_from: first_card"))
    assert e.line == 9 and "first_lead" in str(e)
    e = error_of(tricks('trump_from: first_lead, trump_by: "seat == nobody"'))
    assert e.line == 9 and "nobody" in str(e)


def test_trump_from_round_trips_and_is_described() -> None:
    roundtrip(FIRST_LEAD)
    roundtrip(BY_SECOND)
    text = to_dsl(normalize(load_yaml(BY_SECOND, "mini.yaml")[0]))
    assert "the first card led names trump, when led by a player where seat == 1" in text
    prose = " ".join(describe(BY_SECOND).split())
    assert "the first card led by a player where `seat == 1` names trump" in prose


def test_trump_from_keeps_every_invariant() -> None:
    for spec in (FIRST_LEAD, BY_SECOND):
        game = spelbok.load(spec.replace("size: 3", "size: 8"), players=3, max_hands=4)
        rep = check_game(game, matches=20, seed=5)
        assert rep.ok, rep.failures
