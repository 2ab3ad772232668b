"""Announcements made out of turn (``tricks.announce`` with ``any_turn: true``): before
each card the other players are asked in turn after the player to play, each may
announce or pass, once per card; in the DSL, validate, describe, the game-AI action
space, the terminal's words, and the shipped spec that uses them."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.engine.any_turn import AnyTurnPlay
from spelbok.engine.tricks import CardPlay
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.minispec import HEAD

VARS = "variables:\n  hand: {said: 0}\n  hand_player: {calls: 0}\n"
END = 'end: {when: "hand_number >= 3", winners: "tricks == max(tricks)"}\n'
HIGH = """        - word: high
          when: "calls == 0 and cards >= 2"
          then: {calls: "calls + 1", said: "said + 1"}
          any_turn: true
        - word: higher
          when: "calls == 1 and cards >= 2"
          then: {calls: "calls + 1", said: "said + 10"}
          any_turn: true
"""
HANDS = {0: "AH KH 7C", 1: "AS KS 7D", 2: "QH QS QD"}


def spec(announce: str = HIGH) -> str:
    """A three-player spec with ``announce`` (YAML list items under the tricks step)."""
    head = HEAD.replace("hand:\n", VARS + "hand:\n")
    return head + "  - deal: {size: 3}\n  - tricks:\n      announce:\n" + announce + END


def state(text: str | None = None) -> spelbok.State:
    game = spelbok.load(text or spec(), players=3)
    return game.new_state(seed=1, position={"leader": 0, "trump": "none", "hands": HANDS})


def names(st: spelbok.State) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def test_the_others_are_asked_in_turn_before_each_card() -> None:
    st = state()
    # before the leader's card: seat 1, then seat 2, each may announce or pass
    assert st.current == 1 and names(st) == ["high", "pass"]
    st.apply("high")
    assert st.current == 1 and names(st) == ["higher", "pass"]  # he may go on
    st.apply("pass")
    assert st.current == 2 and names(st) == ["high", "pass"]
    with pytest.raises(spelbok.IllegalActionError, match="P0 is to play"):
        st.apply("QH")
    st.apply("pass")
    # the leader plays, his own announcements beside his cards
    assert st.current == 0 and names(st) == ["7C", "KH", "AH", "high"]
    st.apply("AH")
    # the next card's window: seat 2, then seat 0 (seat 1 has said high: higher)
    assert st.current == 2
    st.apply("pass")
    assert st.current == 0 and names(st) == ["high", "pass"]
    st.apply("high")
    st.apply("pass")
    assert st.current == 1 and "AS" in names(st) and "pass" not in names(st)
    assert st.var("calls") == [1, 1, 0] and st.var("said") == 2


def first_card(st: spelbok.State) -> None:
    st.apply(next(a for a in st.legal_actions() if a.kind != "word"))


def test_an_open_window_asks_every_seat_and_none_opens_when_nobody_may_announce() -> None:
    """Whom the window asks tells nobody what decides an offer (a hidden side): once
    someone may announce, every other seat is asked, pass the only choice of a seat
    offered nothing; when nobody may, no window opens."""
    st = state()
    for _ in range(3):  # trick 1: every seat passes, then plays
        while "pass" in names(st):
            st.apply("pass")
        first_card(st)
    assert st.trick_no == 1
    st.apply("pass")
    st.apply("pass")
    lead = st.current
    first_card(st)  # the leader holds one card now: before the next card only the third is asked
    third = 3 - lead - st.trick.order[1]
    assert st.current == third and names(st) == ["high", "pass"]
    st.apply("pass")
    assert st.current == lead and names(st) == ["pass"]  # one card: offered nothing
    st.apply("pass")
    assert st.current == st.trick.order[1] and "pass" not in names(st)
    first_card(st)  # two seats hold one card: before the third's card nobody is asked
    assert st.current == third and "pass" not in names(st)


def test_an_announcement_out_of_turn_is_told_in_the_terminal_and_the_log() -> None:
    from spelbok.view.narrator import Narrator

    game = spelbok.load(spec(), players=3)
    st = game.new_state(seed=1, position={"leader": 0, "trump": "none", "hands": HANDS},
                        record=True)
    st.apply("high")
    event = [e for e in st.log if e.get("event") == "decision"][-1]
    assert event["seat"] == 1 and event["to_play"] == 0
    n = Narrator(["P0", "P1", "P2"])
    assert n.feed(event) == ["  P1 announces high (out of turn)"]


def test_a_spec_without_any_turn_pays_nothing() -> None:
    plain = spelbok.load(spec(HIGH.replace("          any_turn: true\n", "")), players=3)
    assert any(type(i) is CardPlay for i in plain.program.code)
    assert not any(isinstance(i, AnyTurnPlay) for i in plain.program.code)
    st = plain.new_state(seed=1, position={"leader": 0, "trump": "none", "hands": HANDS})
    assert st.current == 0 and "pass" not in names(st)
    used = spelbok.load(spec(), players=3)
    assert any(isinstance(i, AnyTurnPlay) for i in used.program.code)


def test_the_dsl_writes_and_reads_any_turn() -> None:
    canonical = normalize(load_yaml(spec(), "a.yaml")[0])
    dsl = to_dsl(canonical)
    assert "any player may announce it before each card" in dsl
    assert normalize(parse_dsl(dsl, "a.spel")[0]) == canonical


def test_validate_locates_a_pass_word_and_a_changing_any_turn() -> None:
    text = spec(HIGH.replace("word: higher", "word: pass"))
    with pytest.raises(SpecError) as info:
        spelbok.load(text, players=3)
    assert "'pass'" in info.value.message
    assert info.value.line == text.splitlines().index("        - word: pass") + 1
    text = spec(HIGH.replace("any_turn: true", "any_turn: said > 0", 1))
    with pytest.raises(SpecError) as info:
        spelbok.load(text, players=3)
    assert "fixed when the game is loaded" in info.value.message
    assert info.value.line == next(i for i, s in enumerate(text.splitlines(), 1)
                                   if "any_turn" in s)


def test_describe_says_the_others_are_asked() -> None:
    text = " ".join(describe(spec()).split())
    assert "out of turn too" in text and "saying pass (write: pass)" in text


def test_the_action_space_numbers_pass() -> None:
    pytest.importorskip("numpy")  # the rl extra
    from spelbok.rl.encoding import Encoding, Match

    game = spelbok.load(spec(), players=3)
    enc = Encoding(game)
    assert "pass" in enc.labels and "high" in enc.labels
    m = Match(enc, game.new_state(seed=1, position={"leader": 0, "trump": "none",
                                                   "hands": HANDS}))
    assert sorted(enc.labels[i] for i in m.legal()) == ["high", "pass"]
    m.apply(enc.labels.index("pass"))
    assert sorted(enc.labels[i] for i in m.legal()) == ["high", "pass"]


def test_bots_play_whole_matches_out_of_turn() -> None:
    from spelbok.analysis.conformance import check_game

    for name in (spec(), "doppelkopf"):
        rep = check_game(spelbok.load(name) if name == "doppelkopf"
                         else spelbok.load(name, players=3), matches=4, seed=3)
        assert rep.ok, rep.failures


def test_doppelkopf_asks_the_others_before_the_first_card() -> None:
    game = spelbok.load("doppelkopf")
    st = game.new_state(seed=1)
    while st.decision_name != "play":
        st.apply("healthy")
    asked = []
    while "pass" in names(st):
        asked.append(st.current)
        st.apply("pass")
    # the three others, then the leader with his cards (Re or Kontra beside them)
    assert len(set(asked)) == 3 and st.current not in asked
    assert {"re", "kontra"} & set(names(st))


def test_the_table_offers_pass_and_tells_an_announcement_out_of_turn() -> None:
    pytest.importorskip("jinja2")
    from spelbok.web.tableview import table

    st = state()
    t = table(st, 1, ["S", "W", "N"], to_act=True, log_viewer=1)
    assert [b["text"] for b in t["actions"]] == ["high", "pass"]
    st.apply("high")
    seen = table(st, 0, ["S", "W", "N"], to_act=False, log_viewer=0)
    assert any("W announces high (out of turn)" in line for line in seen["log"])
