"""Ordered duties: ``allow`` levels with reasons (tricks and decide), and trick rules worked
out per trick (issue 15, item 2)."""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.analysis.readings import run_reading
from spelbok.engine.tricks import TrickPlay, TrickPlayEach
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.loader import read_spec
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.minispec import HEAD

FULL = HEAD.replace("ranks: [A, K, Q, J, 10, 9, 8, 7]",
                    "ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]")
END = 'end: {when: "hand_number >= 2", winners: "tricks == max(tricks)"}\n'

# "he must lead his highest trump if it is the ace, else any trump, else anything"
LEVELS = (
    "      allow:\n"
    "        - if: \"led_suit != 'none' or card == highest(trumps(hand)) and rank_of(card) == 'A'\"\n"
    "          reason: lead the ace of trumps\n"
    "        - if: \"led_suit != 'none' or is_trump(card)\"\n"
    "          reason: lead a trump\n")
LEAD = FULL + "  - deal: {size: 3}\n  - tricks:\n" + LEVELS + END


def state(spec: str, position: dict[str, Any], players: int = 2) -> spelbok.State:
    return spelbok.load(spec, players=players).new_state(seed=1, position=position)


def legal(st: spelbok.State) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


def refusal(st: spelbok.State, action: str) -> spelbok.IllegalActionError:
    with pytest.raises(spelbok.IllegalActionError) as info:
        st.clone().apply(action)
    return info.value


def play_of(game: spelbok.Game) -> TrickPlay:
    return next(i for i in game.program.code if isinstance(i, TrickPlay))


# ------------------------------------------------------------------ levels in a trick


def test_the_first_level_that_admits_a_card_decides() -> None:
    # with the ace of trumps: only the ace
    st = state(LEAD, {"trump": "S", "leader": 0, "hands": {0: "AS 9S 2H", 1: "KH QH 3C"}})
    assert legal(st) == ["AS"]
    assert refusal(st, "9S").reason == "lead the ace of trumps"
    assert "2H is not allowed: lead the ace of trumps" in str(refusal(st, "2H"))
    # trumps without the ace: the second level decides, any trump
    st = state(LEAD, {"trump": "S", "leader": 0, "hands": {0: "KS 9S 2H", 1: "AH QH 3C"}})
    assert legal(st) == ["9S", "KS"]
    assert refusal(st, "2H").reason == "lead a trump"
    # no trump: no level admits a card, so anything may be led
    st = state(LEAD, {"trump": "S", "leader": 0, "hands": {0: "KD 9C 2H", 1: "AH QH 3C"}})
    assert legal(st) == ["2H", "9C", "KD"]


def test_levels_come_after_the_duties() -> None:
    # following suit comes first: the levels only choose among the cards it leaves
    spec = LEAD.replace("led_suit != 'none' or ", "")
    st = state(spec, {"trump": "S", "leader": 1, "hands": {0: "AS 9S 2H", 1: "KH QH 3C"}})
    st.apply("KH")
    assert legal(st) == ["2H"]  # must follow hearts: no level admits 2H, so the duty stands
    assert "follow suit" in refusal(st, "AS").reason


def test_a_level_without_a_reason_names_its_rule() -> None:
    spec = LEAD.replace("          reason: lead a trump\n", "")
    st = state(spec, {"trump": "S", "leader": 0, "hands": {0: "KS 9S 2H", 1: "AH QH 3C"}})
    assert refusal(st, "2H").reason == "the rule `led_suit != 'none' or is_trump(card)` does not allow it"


def test_one_allow_keeps_the_plain_trick_play() -> None:
    # a spec without levels builds the plain instruction, with no further level to try
    one = LEAD.replace(LEVELS, "      allow: \"is_trump(card)\"\n      reason: a trump\n")
    play = play_of(spelbok.load(one, players=2))
    assert type(play) is TrickPlay and play.more == []
    assert len(play_of(spelbok.load(LEAD, players=2)).more) == 1


# ------------------------------------------------------------------ levels in a decision

DECIDE = FULL + (
    "  - decide: bid\n"
    "    choose: [pass, play, solo]\n"
    "    allow:\n"
    "      - if: \"choice == 'solo' or hand_number > 1\"\n"
    "        reason: the first hand is played solo\n"
    "      - if: \"choice != 'pass'\"\n"
    "  - deal: {size: 3}\n  - tricks: {}\n") + END


def test_levels_of_a_decision() -> None:
    st = spelbok.load(DECIDE, players=2).new_state(seed=1)
    assert legal(st) == ["solo"]
    assert refusal(st, "pass").reason == "the first hand is played solo"
    # a level without a reason: the options are listed
    spec = DECIDE.replace("'solo' or hand_number > 1", "'solo' and hand_number > 1").replace(
        "        reason: the first hand is played solo\n", "")
    st = spelbok.load(spec, players=2).new_state(seed=1)
    assert legal(st) == ["play", "solo"]
    assert refusal(st, "pass").reason == "the choice is play or solo"


ONE_REASON = DECIDE.replace(
    "    allow:\n      - if: \"choice == 'solo' or hand_number > 1\"\n"
    "        reason: the first hand is played solo\n      - if: \"choice != 'pass'\"\n",
    "    allow: \"choice != 'pass'\"\n    reason: nobody passes\n")


def test_a_decision_s_single_allow_may_give_a_reason() -> None:
    st = spelbok.load(ONE_REASON, players=2).new_state(seed=1)
    assert refusal(st, "pass").reason == "nobody passes"
    text = " ".join(describe(read_spec(ONE_REASON)).split())
    assert "Only choices where `choice != 'pass'` are allowed (a choice it refuses is " \
           "answered \"nobody passes\")." in text
    dsl = to_dsl(normalize(load_yaml(ONE_REASON, "s.yaml")[0]))
    assert '        allowed when choice != \'pass\', otherwise "nobody passes"\n' in dsl


# ------------------------------------------------------------------ a reading's reason check

READING = """reading: 1
spec: lead.yaml
players: 2
cases:
  - name: c
    cites: x
    position: {trump: S, leader: 0, hands: {0: "KS 9S 2H", 1: "AH QH 3C"}}
    steps:
      - play: 2H
        expect_error: illegal
        reason: REASON
"""


@pytest.mark.parametrize("reason, ok", [("lead a trump", True),
                                        ("lead the ace of trumps", False),
                                        # the words of the action are not the rules' reason
                                        ("is not allowed", False), ("2H", False)])
def test_a_reading_checks_the_level_s_reason(tmp_path: Any, reason: str, ok: bool) -> None:
    (tmp_path / "lead.yaml").write_text(LEAD, encoding="utf-8")
    path = tmp_path / "r.yaml"
    path.write_text(READING.replace("REASON", reason), encoding="utf-8")
    report = run_reading(path)
    assert report.ok is ok, report.format()


# ------------------------------------------------------------------ per-trick rules

PER_TRICK = FULL + "  - deal: {size: 3}\n  - tricks: {follow: \"trick_number > 1\"}\n" + END


def test_a_follow_rule_worked_out_per_trick() -> None:
    st = state(PER_TRICK, {"trump": "none", "leader": 0,
                           "hands": {0: "AH KH QH", 1: "7H 9C 6C"}})
    st.apply("AH")
    assert legal(st) == ["6C", "7H", "9C"]  # trick 1: no duty to follow
    st.apply("9C")
    st.apply("KH")
    assert legal(st) == ["7H"]  # trick 2: follow suit
    assert refusal(st, "6C").reason == "you must follow suit (H)"
    game = spelbok.load(PER_TRICK, players=2)
    assert isinstance(play_of(game), TrickPlayEach)


def test_a_position_in_a_later_trick_has_that_trick_s_rules() -> None:
    for played, want in ((0, ["6C", "7H"]), (1, ["7H"])):
        st = state(PER_TRICK, {"trump": "none", "leader": 0, "tricks_played": played,
                               "tricks": {0: played}, "hands": {0: "KH QH", 1: "7H 6C"}})
        st.apply("KH")
        assert legal(st) == want, played


def test_a_rule_read_from_a_variable_set_after_each_trick() -> None:
    spec = FULL.replace("hand:\n", "variables:\n  hand: {free: true}\nhand:\n") + (
        "  - deal: {size: 3}\n"
        "  - tricks:\n"
        "      follow: not free\n"
        "      after_each:\n"
        "        - set: {free: \"last_winner == 1\"}\n") + END
    st = state(spec, {"trump": "none", "leader": 0, "hands": {0: "AH KH QH", 1: "7H 8H 9C"}})
    st.apply("AH")
    st.apply("9C")  # free in trick 1; P0 wins, so trick 2 has the duty
    st.apply("KH")
    assert legal(st) == ["7H", "8H"]


def test_fixed_rules_are_worked_out_once() -> None:
    # plain words, or a condition on an option: the plain instruction, its rules built once
    for follow in ("true", "false", "seats > 2"):
        game = spelbok.load(PER_TRICK.replace('"trick_number > 1"', follow), players=2)
        play = play_of(game)
        assert type(play) is TrickPlay
    start = next(i for i in game.program.code if type(i).__name__ == "TricksStart")
    assert start.fixed_flags is not None


# ------------------------------------------------------------------ describe, convert

def test_describe_says_the_levels_and_the_per_trick_rule() -> None:
    text = " ".join(describe(read_spec(LEAD)).split())
    assert ("must also satisfy the first of these conditions that some card the player may "
            "play meets") in text
    assert '(a card refused is answered "lead the ace of trumps"); else' in text
    text = " ".join(describe(read_spec(PER_TRICK)).split())
    assert "When `trick_number > 1` (worked out as each trick starts): a player must follow" in text
    text = " ".join(describe(read_spec(DECIDE)).split())
    assert '"the first hand is played solo"); else `choice != \'pass\'`' in text


@pytest.mark.parametrize("spec", [LEAD, DECIDE, PER_TRICK, ONE_REASON])
def test_convert_round_trip(spec: str) -> None:
    tree = normalize(load_yaml(spec, "s.yaml")[0])
    text = to_dsl(tree)
    assert normalize(parse_dsl(text, "s.spel")[0]) == tree, text


def test_the_dsl_of_levels() -> None:
    text = to_dsl(normalize(load_yaml(LEAD, "s.yaml")[0]))
    assert ("        a card may be played only if led_suit != 'none' or card == "
            "highest(trumps(hand)) and rank_of(card) == 'A', otherwise \"lead the ace of "
            "trumps\"\n        else only if led_suit != 'none' or is_trump(card), otherwise "
            "\"lead a trump\"\n") in text
    tree, pos = parse_dsl(text, "s.spel")
    line = text.split("\n").index("        else only if led_suit != 'none' or is_trump(card), "
                                  "otherwise \"lead a trump\"") + 1
    assert pos[("hand", 1, "tricks", "allow", 1, "if")][1:] == (line, 22)
    assert pos[("hand", 1, "tricks", "allow", 0, "reason")][1] == line - 1
    dtext = to_dsl(normalize(load_yaml(DECIDE, "d.yaml")[0]))
    assert "        else allowed when choice != 'pass'\n" in dtext


# ------------------------------------------------------------------ located errors

def error_of(spec: str, name: str = "s.yaml") -> str:
    with pytest.raises(SpecError) as info:
        if name.endswith(".spel"):
            parse_dsl(spec, name)
        else:
            spelbok.load(spec, players=2)
    return str(info.value)


def test_located_errors() -> None:
    no_if = LEAD.replace("        - if: \"led_suit != 'none' or is_trump(card)\"\n"
                         "          reason: lead a trump\n", "        - reason: lead a trump\n")
    assert error_of(no_if).endswith("13:11: missing required key 'if' in an allow level")
    bad_reason = LEAD.replace("reason: lead a trump", "reason: [lead, trump]")
    assert error_of(bad_reason).endswith("14:19: expected a string, got a list")
    one = LEAD.replace("        - if: \"led_suit != 'none' or is_trump(card)\"\n"
                       "          reason: lead a trump\n", "")
    assert "11:9: the list needs at least 2 items, got 1 (one level is written as a " \
           "condition, with its 'reason' beside it)" in error_of(one)
    both = LEAD.replace("      allow:\n", "      reason: why\n      allow:\n")
    assert "10:15: with 'allow' levels, each level gives its own 'reason'" in error_of(both)
    not_cond = PER_TRICK.replace('"trick_number > 1"', '"trick_number + 1"')
    assert ("9:22: expected a condition (true or false) here, not a formula that gives a "
            "number") in error_of(not_cond)
    cards = PER_TRICK.replace('"trick_number > 1"', '"trick"')
    assert "9:22: expected a condition (true or false) here, not a formula that gives a set " \
           "of cards" in error_of(cards)
    bad_level = LEAD.replace("or is_trump(card)\"", "or is_trump(card) +\"")
    assert "<spec>:13:" in error_of(bad_level)


def test_an_else_line_needs_the_line_it_goes_on() -> None:
    text = to_dsl(normalize(load_yaml(LEAD, "s.yaml")[0]))
    lines = [x for x in text.split("\n") if not x.startswith("        a card may be")]
    message = error_of("\n".join(lines), "s.spel")
    assert "an 'else' level follows the line 'a card may be played only if …' it goes on" \
        in message
    text = to_dsl(normalize(load_yaml(DECIDE, "s.yaml")[0]))
    lines = [x for x in text.split("\n") if not x.startswith("        allowed when")]
    message = error_of("\n".join(lines), "s.spel")
    line = next(i for i, x in enumerate(lines, 1) if x.startswith("        else allowed when"))
    assert f"s.spel:{line}:9: an 'else' level follows the line 'allowed when …' it goes on" \
        in message


# ------------------------------------------------------------------ conformance

@pytest.mark.parametrize("spec", [LEAD, DECIDE, PER_TRICK, LEAD.replace(
    "  - tricks:\n", "  - tricks:\n      follow: trick_number > 1\n      head: trick_number > 2\n")])
def test_conformance(spec: str) -> None:
    for players in (2, 4):
        rep = check_game(spelbok.load(spec, players=players), matches=30, seed=players,
                         deep_every=7)
        assert rep.ok, rep.failures
