"""Cards of equal power (``ranking.equal_cards``) and the rule for equal best cards
(``ranking.equal_best``: first, last, tie): who takes the trick, a tied trick won by
nobody (``tied_tricks``, ``tied_by``, ``last_winner``), the DSL, validate, describe and
the trick line of a tied trick."""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml
from spelbok.view.text import trick_line

HEAD = """spelbok: 1
name: Equals
players: {min: 2, max: 4}
deck:
  - players: [2, 4]
    ranks: [A, K, Q, J, 10, 9, 8, 7]
"""
HAND = """variables:
  hand: {ties: 0, tier: -1, lead: -1}
hand:
  - deal: {size: 3}
  - tricks:
      after_each:
        - set: {ties: tied_tricks, tier: tied_by, lead: last_winner}
end: {when: "hand_number >= 3", winners: "tricks == max(tricks)"}
"""


def spec(ranking: str, teams: str = "") -> str:
    return HEAD + teams + "ranking:\n" + ranking + HAND


def state(text: str, hands: dict[int, str], players: int = 2, leader: int = 0) -> spelbok.State:
    return spelbok.load(text, players=players).new_state(
        seed=1, position={"trump": "none", "leader": leader, "hands": hands})


def var(st: spelbok.State, name: str) -> Any:
    return st.var(name)


# copies of one card are equal (two packs), and so are the cards of an equal_cards group
GROUPS = "  equal_cards: [[AC, AH], [KC, KH, KS]]\n"


def test_by_default_the_first_of_equal_cards_keeps_the_trick() -> None:
    st = state(spec(GROUPS), {0: "AH KD 7S", 1: "AC QD 8S"})
    st.apply("AH")
    st.apply("AC")  # equal power, but another suit: only the led suit wins (a plain card)
    assert st.view(0)["tricks"] == [1, 0]


TOPS = "  top_trumps: [AC, AH, KC, KH, KS]\n" + GROUPS


def test_equal_top_trumps_first_last_and_tie() -> None:
    won = {}
    for rule in ("first", "last", "tie"):
        st = state(spec(TOPS + f"  equal_best: {rule}\n"), {0: "AH QD 7S", 1: "AC 9D 8S"})
        st.apply("AH")
        st.apply("AC")
        won[rule] = st.view(0)["tricks"], var(st, "ties"), var(st, "tier"), var(st, "lead")
    assert won["first"] == ([1, 0], 0, -1, 0)
    assert won["last"] == ([0, 1], 0, -1, 1)
    # tied: won by nobody, counted in tied_tricks, tied by seat 1, the leader leads again
    assert won["tie"] == ([0, 0], 1, 1, 0)


def test_without_the_group_the_higher_top_trump_wins() -> None:
    st = state(spec("  top_trumps: [AC, AH, KC, KH, KS]\n  equal_best: tie\n"),
               {0: "AH QD 7S", 1: "AC 9D 8S"})
    st.apply("AH")
    st.apply("AC")
    assert st.view(0)["tricks"] == [0, 1] and var(st, "ties") == 0


def test_a_higher_card_after_a_tie_wins_the_trick() -> None:
    st = state(spec("  top_trumps: [AS, AC, AH, KC, KH, KS]\n" + GROUPS + "  equal_best: tie\n"),
               {0: "AH QD 7S", 1: "AC 9D 8S", 2: "AS 10D 9S"}, players=3)
    for c in ("AH", "AC", "AS"):
        st.apply(c)
    assert st.view(0)["tricks"] == [0, 0, 1] and var(st, "ties") == 0 and var(st, "tier") == -1


def test_equal_cards_of_partners_do_not_tie() -> None:
    teams = "teams: [[0, 2], [1, 3]]\n"
    text = spec(TOPS + "  equal_best: tie\n", teams)
    hands = {0: "KH QD 7S", 1: "9D 8D 8S", 2: "KC 10D 9S", 3: "10H 10C JD"}
    st = state(text, hands, players=4)
    for c in ("KH", "9D", "KC", "10H"):
        st.apply(c)
    assert st.view(0)["tricks"] == [1, 0, 0, 0] and var(st, "ties") == 0
    # an opponent's equal card ties it, whoever played the other equal ones
    st = state(text, {0: "KH QD 7S", 1: "KS 8D 8S", 2: "KC 10D 9S", 3: "10H 10C JD"}, players=4)
    for c in ("KH", "KS", "KC", "10H"):
        st.apply(c)
    assert st.view(0)["tricks"] == [0, 0, 0, 0]
    assert var(st, "ties") == 1 and var(st, "tier") == 2 and var(st, "lead") == 0


def test_a_tied_trick_reads_as_tied() -> None:
    st = state(spec(TOPS + "  equal_best: tie\n"), {0: "AH QD 7S", 1: "AC 9D 8S"})
    st.apply("AH")
    st.apply("AC")
    event = [e for e in st.log if e["event"] == "trick"][-1]
    assert event["winner"] == -1 and event["tied_by"] == 1
    assert trick_line(event["cards"], ["P0", "P1"], winner=event["winner"]).endswith(
        "the trick is tied")
    assert st.view(0)["tricks_played"][-1][2] == -1


def roundtrip(text: str) -> str:
    canonical = normalize(load_yaml(text, "equals.yaml")[0])
    dsl = to_dsl(canonical)
    assert normalize(parse_dsl(dsl, "equals.spel")[0]) == canonical
    return dsl


@pytest.mark.parametrize("rule", ["first", "last", "tie"])
def test_the_dsl_writes_and_reads_them(rule: str) -> None:
    dsl = roundtrip(spec(TOPS + f"  equal_best: {rule}\n"))
    assert "cards of equal power: A♣ A♥" in dsl or "cards of equal power: AC AH" in dsl


def test_describe_tells_them() -> None:
    text = " ".join(describe(spec(TOPS + "  equal_best: tie\n")).split())
    assert "Cards of equal power" in text and "the trick is tied" in text


def error_of(text: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        spelbok.load(text, players=2)
    return info.value


def test_validate_reports_misuse() -> None:
    twice = error_of(spec("  equal_cards: [[AC, AH], [AH, AS]]\n"))
    assert "in two groups of equal cards" in str(twice) and ":" in str(twice)
    alone = error_of(spec("  equal_cards: [[AC]]\n"))
    assert "at least 2 items" in str(alone) and str(alone).startswith("<spec>:8:")
    rule = error_of(spec("  equal_best: split\n"))
    assert "equal_best" in str(rule)
    unknown = error_of(spec("  equal_cards: [[AC, ZZ]]\n"))
    assert "unknown card 'ZZ'" in str(unknown) and str(unknown).startswith("<spec>:8:")


# -- a decision's see_partners: the side deciding sees its partners' hands -----------------

SEE = """spelbok: 1
name: Partners
players: {min: 4, max: 4}
deck:
  - players: [4, 4]
    ranks: [A, K, Q, J, 10, 9, 8, 7]
teams: [[0, 2], [1, 3]]
hand:
  - deal: {size: 2}
  - decide: go
    who: forehand
    choose: [yes, no]
    see_partners: "seat == 1"
  - tricks: {}
end: {when: "hand_number >= 2", winners: "tricks == max(tricks)"}
"""


def test_a_decider_and_his_partner_see_each_others_hands_and_nobody_else_does() -> None:
    st = spelbok.load(SEE.replace('"seat == 1"', "true")).new_state(seed=3)
    d = st.current
    mate, others = (d + 2) % 4, [(d + 1) % 4, (d + 3) % 4]
    hands = [st.view(p)["hand"] for p in range(4)]
    known = [st.view(p)["known_cards"] for p in range(4)]
    assert sorted(known[d][mate]) == sorted(hands[mate])
    assert sorted(known[mate][d]) == sorted(hands[d])
    assert all(known[o] == [[], [], [], []] for o in others)
    assert all(known[d][o] == [] for o in others)
    # a condition false for the decider shows nothing
    st2 = spelbok.load(SEE.replace('"seat == 1"', '"seat == 9"')).new_state(seed=3)
    assert all(st2.view(p)["known_cards"] == [[], [], [], []] for p in range(4))
    st.apply("yes")
    while st.current != d:
        st.apply(str(st.legal_actions()[0]))
    card = hands[d][0]
    st.apply(card)  # a card played leaves the partner's known cards
    assert card not in st.view(mate)["known_cards"][d]


def test_see_partners_is_written_and_read_in_the_dsl() -> None:
    dsl = roundtrip(SEE)
    assert "seeing the hands of the partners if seat == 1" in dsl


def test_equal_best_cards_limits_the_rule_to_its_cards() -> None:
    # both groups equal; 'last' holds for the aces alone: of the kings the first wins
    only = TOPS + "  equal_best: last\n  equal_best_cards: [AC, AH]\n"
    won = {}
    for lead, follow in (("AH", "AC"), ("KH", "KC")):
        st = state(spec(only), {0: f"{lead} QD 7S", 1: f"{follow} 9D 8S"})
        st.apply(lead)
        st.apply(follow)
        won[lead] = st.view(0)["tricks"]
    assert won == {"AH": [0, 1], "KH": [1, 0]}
    text = roundtrip(spec(only))
    assert "the rule for equal best cards holds only for:" in text
    assert "alone: of other equal cards the first played wins" in " ".join(describe(spec(only)).split())
    with pytest.raises(SpecError, match="unknown card 'ZZ'"):
        spelbok.load(spec(TOPS + "  equal_best: last\n  equal_best_cards: [ZZ]\n"))
