"""The auction's ``last_word``: when all the others pass the highest bid, its bidder
speaks once more (bids again, as his contracts' ``allow`` lets him, or passes, which
ends the auction).

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
from tests.test_doubling import legal

OPEN = "      pass_final: false\n"
LAST = OPEN + "      last_word: true\n"


def test_the_highest_bidder_speaks_once_more_after_the_others_pass() -> None:
    st = start(OPEN)
    play(st, "bid 6", "pass", "pass", "pass")
    assert st.decision_name != "bid" and st.var("who") == 1  # three passes end it
    st = start(LAST)
    play(st, "bid 6", "pass", "pass", "pass")
    assert st.decision_name == "bid" and st.current_player == 1 and "bid 9" in legal(st)
    play(st, "pass")  # his pass ends the auction
    assert st.decision_name != "bid" and st.var("who") == 1 and st.var("level") == 6


def test_a_bid_on_the_last_word_gives_the_others_the_word_again() -> None:
    st = start(LAST)
    play(st, "bid 6", "pass", "pass", "pass", "bid 9")
    assert st.current_player == 2 and "bid 10" in legal(st)
    play(st, "pass", "pass", "pass")
    assert st.current_player == 1 and legal(st) == ["pass", "bid 10"]
    play(st, "pass")
    assert st.decision_name != "bid" and st.var("level") == 9 and st.var("who") == 1


def test_a_contract_s_allow_may_bar_the_highest_bidder() -> None:
    text = spec(LAST).replace("{level: 9}", '{level: 9, allow: "not is_declarer"}')
    st = spelbok.load(text).new_state(seed=1)
    play(st, "bid 6")
    assert "bid 9" in legal(st)  # P2 may bid it
    play(st, "pass", "pass", "pass")
    assert st.current_player == 1 and "bid 9" not in legal(st) and "bid 10" in legal(st)


def test_the_rule_in_the_dsl_describe_and_validate() -> None:
    text = spec(LAST)
    tree = normalize(load_yaml(text, "a.yaml")[0])
    dsl = to_dsl(tree)
    assert "the highest bidder has the last word" in dsl
    assert normalize(parse_dsl(dsl, "a.spel")[0]) == tree
    assert "its bidder speaks once more" in describe(text)
    assert "its bidder speaks once more" not in describe(spec(OPEN))
    assert validate(text) == []
    [e] = validate(spec("      last_word: true\n"))  # passes final: refused
    assert "last_word" in e.message
