"""The auction's ``doubling: closes``: a double ends the bidding but for the doubled
side's redouble (each of its players once), and a redouble ends the auction.

Each test plays the same calls with and without the rule, so it fails without it.
"""

from __future__ import annotations

import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml
from spelbok.validation import validate

from tests.test_auction import play, spec, start

DOUBLES = "      double: true\n      redouble: true\n"
CLOSES = DOUBLES + "      doubling: closes\n"


def legal(st: spelbok.State) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def teams(extra: str) -> spelbok.State:
    text = spec("      partner: teams\n" + extra).replace(
        "dealer: {first: 0", "teams: [[0, 2], [1, 3]]\ndealer: {first: 0")
    return spelbok.load(text).new_state(seed=1)


def test_an_open_double_lets_the_next_player_bid_a_closing_one_does_not() -> None:
    st = start(DOUBLES)
    play(st, "bid 6", "double")
    assert st.current_player == 3 and "bid 7" in legal(st)  # the bidding goes on
    st = start(CLOSES)
    play(st, "bid 6", "double")
    assert st.current_player == 1 and legal(st) == ["pass", "redouble"]  # the bidder alone
    play(st, "pass")  # he has spoken: the auction is over, doubled
    assert st.decision_name != "bid" and st.var("who") == 1 and st.var("times") == 1


def test_a_redouble_ends_the_auction_at_once() -> None:
    st = start(DOUBLES)
    play(st, "bid 6", "double", "pass", "pass", "redouble")
    assert st.decision_name == "bid" and st.current_player == 2  # more calls are asked for
    st = teams(CLOSES)
    play(st, "bid 6", "double", "redouble")  # P3 redoubles: P0 and P1 are not asked
    assert st.decision_name != "bid" and st.var("times") == 2 and st.var("who") == 1


def test_each_player_of_the_doubled_side_speaks_once_the_doubler_s_partner_never() -> None:
    st = teams(DOUBLES)
    play(st, "bid 6", "double", "pass")
    assert st.current_player == 0 and "bid 7" in legal(st)  # the doubler's partner bids on
    st = teams(CLOSES)
    play(st, "bid 6", "double")
    assert st.current_player == 3 and legal(st) == ["pass", "redouble"]
    play(st, "pass")
    assert st.current_player == 1 and legal(st) == ["pass", "redouble"]  # P0 skipped
    play(st, "pass")
    assert st.decision_name != "bid" and st.var("times") == 1


def test_the_rule_in_the_dsl_describe_and_validate() -> None:
    text = spec(CLOSES)
    tree = normalize(load_yaml(text, "a.yaml")[0])
    dsl = to_dsl(tree)
    assert "a double closes the bidding" in dsl
    assert normalize(parse_dsl(dsl, "a.spel")[0]) == tree
    said = dsl.replace("a double closes the bidding", "a double leaves the bidding open")
    auction = next(s["auction"] for s in parse_dsl(said, "a.spel")[0]["hand"] if "auction" in s)
    assert auction["doubling"] == "open"
    assert "A double closes the bidding" in describe(text)
    assert "A double closes the bidding" not in describe(spec(DOUBLES))
    assert validate(text) == []
    [e] = validate(spec(DOUBLES + "      doubling: shut\n"))
    assert "doubling" in e.message or "shut" in e.message
