"""The auction's ``doubling: any_turn``: after each bid its opponents are asked in turn,
before the next player's own turn, whether they double it; a double closes the bidding.

Each test plays the same calls with ``doubling: closes`` and with ``any_turn``, so it
fails without the rule.
"""

from __future__ import annotations

from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml
from spelbok.validation import validate

from tests.test_auction import play, spec, start
from tests.test_doubling import CLOSES, DOUBLES, legal, teams

ANY = DOUBLES + "      doubling: any_turn\n"


def test_the_bidder_s_other_opponent_is_asked_before_the_next_player() -> None:
    st = teams(CLOSES)
    play(st, "bid 6")
    assert st.current_player == 2  # the next player's turn: P0 waits for his own
    st = teams(ANY)
    play(st, "bid 6")
    assert st.current_player == 0 and legal(st) == ["pass", "double"]  # P0, out of turn
    play(st, "pass")  # he lets it stand: P2's own turn, where he may double or bid
    assert st.current_player == 2 and "double" in legal(st) and "bid 7" in legal(st)


def test_a_double_out_of_turn_closes_the_bidding() -> None:
    st = teams(ANY)
    play(st, "bid 6", "double")  # P0 doubles before P2 speaks
    assert st.current_player == 1 and legal(st) == ["pass", "redouble"]  # the doubled side
    play(st, "pass")
    assert st.current_player == 3 and legal(st) == ["pass", "redouble"]  # P2 never speaks
    play(st, "pass")
    assert st.decision_name != "bid" and st.var("times") == 1 and st.var("who") == 1


def test_a_pass_when_asked_is_no_pass_of_the_bidding() -> None:
    st = start(ANY)  # each plays alone: all three others are opponents
    play(st, "bid 6")
    assert st.current_player == 3 and legal(st) == ["pass", "double"]  # P2 is next: not asked
    play(st, "pass", "pass")  # P3 and P0 let it stand
    assert st.current_player == 2 and "bid 7" in legal(st)
    play(st, "bid 7", "pass", "pass")  # asked: P0 and P1 (P3 is next)
    assert st.current_player == 3 and "bid 8" in legal(st)  # P3 has not passed the bidding
    play(st, "pass", "pass", "pass")  # three passes of the bidding end it (a pass asks no one)
    assert st.decision_name != "bid" and st.current_player == 2  # P2 names his trump


def test_no_one_is_asked_when_bids_may_not_be_doubled() -> None:
    st = start("      doubling: any_turn\n")
    play(st, "bid 6")
    assert st.current_player == 2 and "double" not in legal(st)


def test_the_rule_in_the_dsl_describe_and_validate() -> None:
    text = spec(ANY)
    tree = normalize(load_yaml(text, "a.yaml")[0])
    dsl = to_dsl(tree)
    assert "a double may come out of turn and closes the bidding" in dsl
    assert normalize(parse_dsl(dsl, "a.spel")[0]) == tree
    assert "A double may come out of turn" in describe(text)
    assert "A double closes the bidding" in describe(text)
    assert "A double may come out of turn" not in describe(spec(CLOSES))
    assert validate(text) == []
    [e] = validate(spec("      hold: in_turn\n" + ANY))
    assert "any_turn" in e.message
