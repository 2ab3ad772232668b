"""An auction's ``call_allow``: which cards of ``called_ranks`` the declarer may call, a
condition on the card (``card``) read for him once the contract and its trump are known;
with no card meeting it he calls none (Schafkopf: a plain suit's ace, of a suit he holds a
card of; a Solo calls nothing).  Each test fails without the construct."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml
from spelbok.validation import validate

from tests.test_auction import play, spec

RULE = ("      partner: called_card\n"
        "      call_allow: \"contract_level == 6 and suit_of(card) != 'H' and "
        "count(cards_of(hand, suit_of(card))) > 0\"\n")


def calls(st: spelbok.State) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


def _bid(extra: str, bid: str) -> spelbok.State:
    st = spelbok.load(spec(extra + "    label: bidding\n")).new_state(
        seed=1, position={"phase": "bidding", "hands": {
            0: "2C 3C", 1: "2S 3D KD", 2: "AS 4C", 3: "AD AC"}})
    play(st, bid, "pass", "pass", "pass")  # seat 1, the first bidder, declares
    return st


def test_only_the_cards_meeting_the_condition_may_be_called() -> None:
    st = _bid("      partner: called_card\n", "bid 6")
    assert calls(st) == ["call AC", "call AD", "call AH", "call AS"]
    st = _bid(RULE, "bid 6")
    assert st.decision_name == "call" and calls(st) == ["call AD", "call AS"]
    with pytest.raises(spelbok.IllegalActionError):
        st.apply("call AC")


def test_no_card_meeting_it_means_no_call() -> None:
    st = _bid("      partner: called_card\n", "bid 7")
    if st.decision_name == "trump":
        play(st, "trump S")
    assert st.decision_name == "call"
    st = _bid(RULE, "bid 7")
    if st.decision_name == "trump":
        play(st, "trump S")
    assert st.decision_name == "play"  # a level-7 contract calls nobody


def test_it_converts_to_the_dsl_and_back_and_is_described() -> None:
    tree = normalize(load_yaml(spec(RULE), "a.yaml")[0])
    text = to_dsl(tree)
    assert "the declarer may call a card only if contract_level == 6" in text
    assert normalize(parse_dsl(text, "a.spel")[0]) == tree
    prose = describe(spelbok.load(spec(RULE)).doc)
    assert "He may call only a card for which" in prose and "plays alone" in prose


def test_validate_locates_a_call_rule_without_a_called_partner(tmp_path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(spec(RULE.replace("partner: called_card", "partner: none")), "utf-8")
    errors = validate(str(path))
    assert any("'call_allow' is only used with 'partner: called_card'" in str(e)
               and ":" in str(e) for e in errors), errors
    path.write_text(spec(RULE.replace("suit_of(card) != 'H'", "suit_of(card) != 3")), "utf-8")
    errors = validate(str(path))
    assert errors and all(str(e).startswith(str(path)) for e in errors)
