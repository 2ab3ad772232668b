"""A contract's ``ends``: a bid of it ends the auction at once, no one speaking after it
(Mighty's run, a bid of all twenty points, ends the election at that moment).

Each test plays the same bids with and without the key, so it fails without it.
"""

from __future__ import annotations

import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.test_auction import AUCTION, SPEC, play


def spec(ends: str | None) -> str:
    """The auction mini with its level-9 contract ending the auction (``ends``), or not."""
    nine = "        - {level: 9}\n"
    line = nine if ends is None else f"        - {{level: 9, ends: {ends}}}\n"
    return SPEC.format(auction=AUCTION.replace(nine, line).replace("{extra}", ""))


def start(ends: str | None) -> spelbok.State:
    return spelbok.load(spec(ends)).new_state(seed=1)


def test_a_bid_that_ends_the_auction_leaves_no_one_to_speak() -> None:
    st = start(None)
    play(st, "bid 9")
    assert st.decision_name == "bid" and st.current_player == 2  # the others may still bid 10
    st = start("true")
    play(st, "bid 9")  # the auction is over: the play begins
    assert st.decision_name == "play"


def test_other_bids_still_go_round() -> None:
    st = start("true")
    play(st, "bid 8")
    assert st.decision_name == "bid" and st.current_player == 2
    play(st, "bid 10")  # not the ending contract: the others still speak
    assert st.decision_name == "bid" and st.current_player == 3


def test_the_condition_is_read_for_the_bidder() -> None:
    st = start('"seat == 2"')
    play(st, "bid 9")  # seat 1: the condition is false for him
    assert st.decision_name == "bid" and st.current_player == 2
    st = start('"seat == 2"')
    play(st, "pass", "bid 9")  # seat 2: it ends, and the play begins
    assert st.decision_name == "play"


def test_describe_and_convert_round_trip() -> None:
    text = describe(spelbok.load(spec("true")).doc)
    assert "9 (level 9): take 9 tricks; trump unchanged; a bid of it ends the auction." in text
    for ends, words in (("true", "contract at level 9, ending the auction\n"),
                        ('"seat == 2"', "ending the auction if seat == 2")):
        tree = normalize(load_yaml(spec(ends), "a.yaml")[0])
        dsl = to_dsl(tree)
        assert words in dsl
        assert normalize(parse_dsl(dsl, "a.spel")[0]) == tree
    assert "ending the auction" not in to_dsl(normalize(load_yaml(spec(None), "a.yaml")[0]))
