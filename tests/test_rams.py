"""Scenario tests for Rams (specs/rams.yaml), on stacked decks and positions.

Seats are numbered clockwise; with ``dealer=0`` seat 1 is forehand (the
dealer's left). A deal goes three cards, then two, to each seat from the
dealer's left and to the widow last in each round, then a card is turned for
trump. The spec's score (``state.scores``) is a seat's counters.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.cards import names
from spelbok.errors import IllegalActionError

SPEC = Path(__file__).resolve().parent.parent / "specs" / "rams.yaml"
DSL = SPEC.with_suffix(".spel")
READING = SPEC.parent / "readings" / "rams.yaml"

# seat 1: spades, seat 2: hearts, seat 0 (dealer): diamonds, widow: clubs; 7H turned
TOP = "AS KS QS  AH KH QH  AD KD QD  AC KC QC  JS 10S  JH 10H  JD 10D  JC 10C  7H"


# -- helpers ------------------------------------------------------------------------------------


def load(players: int = 3, **options: Any) -> spelbok.Game:
    return spelbok.load(SPEC, players=players, options=options or None)


def start(game: spelbok.Game | None = None, seed: int = 1) -> spelbok.State:
    game = game or load()
    top = TOP.split()
    deck = top + [c for c in game.deck if c not in top]  # the rest stays in the stock
    return game.new_state(seed=seed, deck=deck, dealer=0)


def legal(state: spelbok.State) -> list[str]:
    return sorted(str(a) for a in state.legal_actions())


def var(state: spelbok.State, name: str) -> Any:
    """A declared variable: a list per seat, or one value."""
    return state.var(name)


def held(state: spelbok.State, seat: int) -> set[str]:
    return set(names(state.hands[seat]))


def do(state: spelbok.State, *actions: str) -> None:
    for a in actions:
        state.apply(a)


def settle(game: spelbok.Game, **position: Any) -> spelbok.State:
    """The state right after the tricks of a hand given by ``position`` are scored."""
    return game.new_state(seed=1, position={"phase": "after tricks", "dealer": 0, **position})


# -- the spec -----------------------------------------------------------------------------------


def test_yaml_and_dsl_twins_have_the_same_model() -> None:
    from spelbok.lang.loader import read_spec

    assert read_spec(SPEC).tree == read_spec(DSL).tree


def test_spec_is_valid_and_every_rule_cites_a_source() -> None:
    from spelbok.lang.loader import read_spec
    from spelbok.validation import validate

    assert not validate(SPEC)
    tree = read_spec(SPEC).tree
    for step in tree["hand"]:
        assert step.get("source"), step
    for name, opt in tree["options"].items():
        assert opt.get("source") and opt.get("about"), name


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_32_card_pack_five_each_a_widow_and_a_turn_up(players: int) -> None:
    st = load(players).new_state(seed=players)
    assert len(st.game.deck) == 32
    assert [h.bit_count() for h in st.hands] == [5] * players
    assert st.widow.bit_count() == 5
    assert len(st.turn_up) == 1 and len(st.stock) == 32 - 5 * players - 5 - 1


def test_the_deal_goes_three_then_two_with_the_widow_last_in_each_round() -> None:
    st = start()
    assert held(st, 1) == {"AS", "KS", "QS", "JS", "10S"}
    assert held(st, 2) == {"AH", "KH", "QH", "JH", "10H"}
    assert held(st, 0) == {"AD", "KD", "QD", "JD", "10D"}
    assert set(names(st.widow)) == {"AC", "KC", "QC", "JC", "10C"}
    assert st.view(1)["trump"] == "H" and st.view(1)["turn_up"] == ["7H"]
    assert st.current_player == 1 and st.decision_name == "general"


def test_the_widow_is_hidden_from_every_view() -> None:
    st = start()
    for seat in range(3):
        view = st.view(seat)
        assert view["widow"] == 5
        assert not {"AC", "KC", "QC", "JC", "10C"} & set(str(view).replace("'", " ").split())


# -- General Rams -------------------------------------------------------------------------------


def test_general_rams_is_offered_to_each_in_turn_before_play_or_pass() -> None:
    st = start()
    for seat in (1, 2, 0):
        assert st.current_player == seat and legal(st) == ["decline", "general"]
        st.apply("decline")
    assert st.decision_name == "announce" and st.current_player == 1
    assert legal(st) == ["pass", "play", "widow"]


def test_after_general_rams_nobody_may_pass_and_the_declarer_leads() -> None:
    st = start()
    do(st, "decline", "general")  # seat 2 undertakes all five tricks
    assert st.decision_name == "announce" and st.current_player == 1
    assert legal(st) == ["play"]
    do(st, "play")
    assert st.current_player == 0 and legal(st) == ["play"]
    do(st, "play")
    assert st.decision_name == "play" and st.current_player == 2
    assert var(st, "declarer") == [False, False, True] and var(st, "plays") == [True] * 3


def test_option_general_lead_forehand() -> None:
    st = start(load(general_lead="forehand"))
    do(st, "decline", "general", "play", "play")
    assert st.current_player == 1


def test_option_general_widow_keeps_the_widow_on_offer() -> None:
    st = start(load(general_widow=True))
    do(st, "decline", "general")
    assert legal(st) == ["play", "widow"]
    do(st, "widow", "play")
    assert held(st, 1) == {"AC", "KC", "QC", "JC", "10C"}


def test_a_general_that_takes_every_trick_plays_out_and_settles() -> None:
    # seat 2 holds the five top hearts, which are trumps: it wins every trick
    st = start()
    do(st, "decline", "general", "play", "play")
    while st.decision_name == "play":
        st.apply(sorted(legal(st))[0])
    assert st.view(0)["tricks"] == [0, 0, 0]  # a new hand has begun
    assert st.scores == [10, 10, 0]
    assert var(st, "pool") == 5 and st.view(0)["out"] == [False, False, True]


@pytest.mark.parametrize("rule, change", [("rammed", [5, -1, 5]), ("tricks", [5, -1, -4])])
def test_option_general_failure(rule: str, change: list[int]) -> None:
    game = load(general_failure=rule)
    st = settle(game, general=True, declarer=[False, False, True],
                counters=[10, 10, 10], tricks=[0, 1, 4])
    assert [s - 10 for s in st.scores] == change


# -- play, pass or take the widow ---------------------------------------------------------------


def test_passers_throw_in_their_hands_and_the_first_player_in_leads() -> None:
    st = start()
    do(st, "decline", "decline", "decline", "pass", "play", "play")
    assert st.decision_name == "play" and st.current_player == 2
    assert [h.bit_count() for h in st.hands] == [5, 0, 5]
    assert set(st.view(1)["own_discards"]) == {"AS", "KS", "QS", "JS", "10S"}


def test_the_widow_replaces_the_takers_hand_and_only_one_may_take_it() -> None:
    st = start()
    do(st, "decline", "decline", "decline", "widow")
    assert legal(st) == ["pass", "play"]
    do(st, "pass", "play")
    assert held(st, 1) == {"AC", "KC", "QC", "JC", "10C"}
    assert st.widow == 0 and held(st, 2) == set()
    assert var(st, "took_widow") == [False, True, False]
    # the widow taker's old hand is his own discard; nobody else sees it
    assert "AS" in st.view(1)["own_discards"] and st.view(0)["own_discards"] == []


def test_a_widow_taker_must_play_it() -> None:
    st = start()
    do(st, "decline", "decline", "decline", "widow", "pass", "pass")
    assert st.decision_name == "play" and st.current_player == 1
    assert var(st, "plays") == [False, True, False]


def test_when_all_pass_nothing_is_paid_and_the_next_dealer_deals() -> None:
    st = start()
    do(st, "decline", "decline", "decline", "pass", "pass", "pass")
    assert st.view(0)["dealer"] == 1 and st.view(0)["hand_number"] == 2
    assert st.scores == [5, 5, 5] and var(st, "pool") == 0
    assert st.current_player == 2 and st.decision_name == "general"


# -- trick play ---------------------------------------------------------------------------------


def trick_state(game: spelbok.Game, hands: dict[int, str]) -> spelbok.State:
    return game.new_state(seed=1, position={"trump": "H", "leader": 1, "hands": hands})


def test_must_follow_suit() -> None:
    st = trick_state(load(), {1: "9S 7C", 2: "7S KD", 0: "8S AD"})
    st.apply("9S")
    assert legal(st) == ["7S"]
    with pytest.raises(IllegalActionError):
        st.apply("KD")


@pytest.mark.parametrize("duty, expected", [("trump", ["8H"]), ("follow", ["8H", "KD"]),
                                            ("head", ["8H"])])
def test_option_duty_when_void(duty: str, expected: list[str]) -> None:
    st = trick_state(load(duty=duty), {1: "AS 7C", 2: "8H KD", 0: "9S 8S"})
    st.apply("AS")
    assert legal(st) == sorted(expected)


@pytest.mark.parametrize("duty, expected", [("trump", ["10S", "7S"]), ("head", ["10S"])])
def test_option_duty_head_when_following(duty: str, expected: list[str]) -> None:
    st = trick_state(load(duty=duty), {1: "9S 7C", 2: "10S 7S", 0: "8S AD"})
    st.apply("9S")
    assert legal(st) == sorted(expected)


def test_the_highest_trump_wins_and_leads_next() -> None:
    st = trick_state(load(), {1: "AS 7C", 2: "8H KD", 0: "9H 8D"})
    do(st, "AS", "8H", "9H")
    assert st.current_player == 0 and st.view(0)["tricks"] == [1, 0, 0]


# -- counters, the pool and the end -------------------------------------------------------------


def test_counting_down_a_counter_per_trick_and_five_for_none() -> None:
    st = settle(load(), plays=[True, True, False], counters=[5, 5, 5], tricks=[0, 5, 0])
    assert st.scores == [10, 0, 5]
    assert var(st, "pool") == 5
    assert st.view(0)["out"] == [False, True, False]  # seat 1 played its last counter


def test_a_seat_pays_no_more_counters_than_it_holds() -> None:
    st = settle(load(), counters=[5, 2, 5], tricks=[1, 4, 0])
    assert st.scores == [4, 0, 10] and var(st, "pool") == 3


def test_the_last_seat_holding_counters_loses() -> None:
    st = settle(load(), counters=[1, 2, 6], tricks=[1, 2, 2])
    assert st.is_terminal and st.winners == [0, 1] and st.scores == [0, 0, 4]


def test_option_goal_first_out_wins() -> None:
    position = {"counters": [1, 4, 6], "tricks": [1, 2, 2]}
    st = settle(load(), **position)
    assert not st.is_terminal and st.view(0)["out"] == [True, False, False]
    st = settle(load(goal="first_out_wins"), **position)
    assert st.is_terminal and st.winners == [0]


@pytest.mark.parametrize("stake", [5, 7, 10])
def test_option_stake(stake: int) -> None:
    assert start(load(stake=stake)).scores == [stake] * 3


def test_option_method_pool_ante_trick_takings_and_carry_over() -> None:
    game = load(method="pool", stake=10)
    st = start(game)
    assert st.scores == [5, 10, 10] and var(st, "pool") == 5  # the dealer's ante
    do(st, "decline", "decline", "decline", "pass", "pass", "pass")
    assert st.scores == [5, 5, 10] and var(st, "pool") == 10  # carried, plus the next ante
    st = settle(game, counters=[10, 10, 10], pool=5, tricks=[3, 2, 0])
    # +3, +2 (then seat 1 antes five for the next deal), -5 for no trick
    assert st.scores == [13, 7, 5] and var(st, "pool") == 10


def test_option_method_pool_ends_after_two_rounds_of_deals() -> None:
    game = load(method="pool")
    st = settle(game, hand_number=6, plays=[True, True, False], counters=[12, 3, 7], pool=5,
                tricks=[2, 3, 0])
    assert st.is_terminal and st.winners == [0] and st.scores == [14, 6, 7]


# -- hidden information -------------------------------------------------------------------------


def test_determinize_keeps_own_cards_and_reshuffles_the_unseen() -> None:
    st = start()
    do(st, "decline", "decline", "decline", "widow", "play", "play")
    rng = random.Random(5)
    d = st.determinize(2, rng)
    assert held(d, 2) == held(st, 2)
    assert [h.bit_count() for h in d.hands] == [5, 5, 5]
    assert d.discards.bit_count() == 5 and d.widow == 0
    # the widow went to seat 1 unseen: other deals of the unseen cards are sampled
    assert any(held(st.determinize(2, rng), 1) != held(st, 1) for _ in range(20))
    d1 = st.determinize(1, rng)
    assert held(d1, 1) == held(st, 1) and d1.discards == st.discards  # seat 1 knows its discards


# -- bots, describe, readings -------------------------------------------------------------------


@pytest.mark.parametrize("players, bots", [(3, ["random", "greedy", "ismcts:20"]),
                                           (5, ["greedy"] * 5)])
def test_bots_play_whole_matches(players: int, bots: list[str]) -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = spelbok.load(SPEC, players=players, max_hands=6)
    final = play_match(game, [make_bot(b, seed=i) for i, b in enumerate(bots)], seed=2)
    assert final.is_terminal and final.winners


def test_bots_play_the_pool_method() -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = spelbok.load(SPEC, players=4, options={"method": "pool"})
    final = play_match(game, [make_bot("greedy", seed=i) for i in range(4)], seed=3)
    assert final.is_terminal and final.winners
    assert final.view(0)["hand_number"] == 8


def test_describe_explains_general_rams_the_widow_and_the_pool() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    result = CliRunner().invoke(cli, ["describe", str(SPEC)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Rams" in text and "General Rams" in text
    assert "widow" in text and "pool" in text


def test_the_readings_pass() -> None:
    from spelbok.analysis.readings import run_reading

    report = run_reading(str(READING))
    assert report.ok, report.format()
    assert report.passed >= 12 and report.failed == 0
    assert len(report.separating) >= 7
