"""Scenario tests for German Whist (specs/german-whist.yaml) on stacked decks.

Two seats; with ``dealer=0`` seat 1 is the non-dealer and leads first. The
deal is one card at a time from the dealer's left, so a stacked deck (top
first) alternates seat 1, seat 0 for 26 cards; the 27th is turned face up and
the 28th is the hidden card the loser of the first trick draws.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.cards import card_id, names

SPEC = Path(__file__).resolve().parent.parent / "specs" / "german-whist.yaml"
DSL = SPEC.with_suffix(".spel")
READING = SPEC.parent / "readings" / "german-whist.yaml"

# trump spades (9S turned), the next hidden card 4S, then QS turned up
HAND_1 = "AH KH QH JH 10H 2C 3C 4C 5C 6C 2D 3D 4D"
HAND_0 = "9H 8H 7H 6H 5H 7C 8C 9C 10C JC 5D 6D 7D"


# -- helpers ------------------------------------------------------------------------------------


def load(**options: Any) -> spelbok.Game:
    return spelbok.load(SPEC, players=2, options=options or None)


def stack(game: spelbok.Game, hand1: str, hand0: str, turn_up: str, talon: str = "") -> list[str]:
    """A deck (top first) dealing ``hand1`` to seat 1 and ``hand0`` to seat 0 (dealer 0)."""
    deck: list[str] = []
    for a, b in zip(hand1.split(), hand0.split(), strict=True):
        deck += [a, b]
    deck.append(turn_up)
    deck += talon.split()
    assert len(set(deck)) == len(deck), "a card is dealt twice"
    deck += [c for c in game.deck if c not in deck]
    return deck


def start(game: spelbok.Game | None = None, hand1: str = HAND_1, hand0: str = HAND_0,
          turn_up: str = "9S", talon: str = "4S QS", seed: int = 1) -> spelbok.State:
    game = game or load()
    return game.new_state(seed=seed, deck=stack(game, hand1, hand0, turn_up, talon), dealer=0)


def held(state: spelbok.State, seat: int) -> set[str]:
    return set(names(state.hands[seat]))


def var(state: spelbok.State, name: str) -> Any:
    return state.var(name)


def lowest(state: spelbok.State) -> str:
    return str(min(state.legal_actions(), key=lambda a: (card_id(str(a)) % 13, card_id(str(a)))))


def play_drawing_phase(state: spelbok.State) -> None:
    """Play the 13 drawing tricks with the lowest legal card."""
    while len(state.stock) or state.turn_up:
        state.apply(lowest(state))


# ============================================================================ the spec itself


def test_spec_and_twin_are_valid_and_equal() -> None:
    from spelbok.lang.loader import read_spec
    from spelbok.validation import validate

    assert validate(SPEC) == []
    if DSL.exists():
        assert validate(DSL) == []
        assert read_spec(SPEC).tree == read_spec(DSL).tree


def test_two_players_only_with_a_full_pack() -> None:
    from spelbok.errors import SpelbokError

    assert len(load().deck) == 52
    for n in (1, 3):
        with pytest.raises(SpelbokError):
            spelbok.load(SPEC, players=n)


def test_the_reading_file_passes() -> None:
    from spelbok.analysis.readings import run_reading

    report = run_reading(str(READING))
    assert report.ok, report.format()
    assert report.passed >= 12 and report.failed == 0


# ============================================================================ deal and drawing


def test_thirteen_each_and_a_face_up_stock_card_for_trump() -> None:
    st = start()
    assert held(st, 1) == set(HAND_1.split()) and held(st, 0) == set(HAND_0.split())
    v = st.view(1)
    assert v["turn_up"] == ["9S"] and v["trump"] == "S" and v["talon"] == 25
    assert st.current_player == 1  # the non-dealer leads


def test_winner_takes_the_face_up_card_loser_the_hidden_one() -> None:
    st = start(talon="4S QD 2S")
    st.apply("AH")
    assert sorted(map(str, st.legal_actions())) == sorted(["9H", "8H", "7H", "6H", "5H"])
    st.apply("5H")
    assert "9S" in held(st, 1) and "4S" in held(st, 0)
    assert [h.bit_count() for h in st.hands] == [13, 13]
    v = st.view(0)
    assert v["turn_up"] == ["QD"] and v["trump"] == "S"  # the new card does not make trumps
    assert v["talon"] == 23 and st.current_player == 1
    assert st.won == [0, 0]  # drawing tricks do not count
    assert var(st, "drawn_tricks") == [0, 1]


def test_face_up_card_is_public_and_stays_known_in_the_winners_hand() -> None:
    st = start()
    # both seats see the face-up card before the trick
    assert st.view(0)["turn_up"] == ["9S"] and st.view(1)["turn_up"] == ["9S"]
    st.apply("2C")
    st.apply("7C")  # seat 0 wins and takes 9S; seat 1 draws the hidden 4S
    assert "9S" in held(st, 0)
    other = st.view(1)
    assert "9S" in other["known_cards"][0]
    assert "4S" not in other["known_cards"][1] and other["known_cards"][1] == []
    # seat 0 does not learn seat 1's hidden draw
    assert "4S" not in str(st.view(0)["known_cards"])
    rng = random.Random(5)
    for _ in range(20):
        d = st.determinize(1, rng)
        assert "9S" in set(names(d.hands[0]))
        assert set(names(d.hands[1])) == held(st, 1)  # seat 1's own hand is untouched
        assert [h.bit_count() for h in d.hands] == [13, 13]
        assert len(d.stock) == len(st.stock) and d.turn_up == st.turn_up
    # from seat 0's side, the hidden 4S may be anywhere it cannot see
    seen_elsewhere = any("4S" not in set(names(st.determinize(0, rng).hands[1]))
                         for _ in range(20))
    assert seen_elsewhere


def test_known_card_is_forgotten_once_played() -> None:
    st = start()
    st.apply("2C")
    st.apply("7C")  # seat 0 takes 9S
    st.apply("9S")  # and leads it
    assert st.view(1)["known_cards"][0] == []


def test_the_drawing_phase_is_thirteen_tricks_then_the_last_winner_leads() -> None:
    st = start()
    trick_count = 0
    last = None
    while len(st.stock) or st.turn_up:
        st.apply(lowest(st))
        if len(st.view(0)["trick"]) == 0:
            trick_count += 1
            last = st.view(0)["tricks_played"][-1][2]
    assert trick_count == 13
    assert [h.bit_count() for h in st.hands] == [13, 13]
    assert st.won == [0, 0] and sum(var(st, "drawn_tricks")) == 13
    assert st.current_player == last


def test_the_play_out_counts_and_a_single_deal_ends_the_match() -> None:
    st = start()
    play_drawing_phase(st)
    while not st.is_terminal:
        st.apply(lowest(st))
    tricks = st.view(0)["tricks"]
    assert sum(tricks) == 13
    diff = abs(tricks[0] - tricks[1])
    best = 0 if tricks[0] > tricks[1] else 1
    assert st.scores[best] == diff and st.scores[1 - best] == 0
    assert st.winners == [best]


# ============================================================================ options


def scored_position(**options: Any) -> spelbok.State:
    """The end of a deal: 3 and 10 drawing tricks, then 8 and 5 of the last 13."""
    game = load(**options)
    return game.new_state(position={"phase": "after tricks 2", "tricks": [8, 5],
                                     "drawn_tricks": [3, 10]})


@pytest.mark.parametrize("counted, hand_score, scores", [
    ("last_13", "difference", [3, 0]),
    ("all_26", "difference", [0, 4]),
    ("weighted", "difference", [0, 1]),
    ("last_13", "per_trick", [8, 5]),
    ("all_26", "per_trick", [11, 15]),
    ("weighted", "per_trick", [19, 20]),
])
def test_option_counted_tricks_and_hand_score(counted: str, hand_score: str,
                                              scores: list[int]) -> None:
    st = scored_position(counted_tricks=counted, hand_score=hand_score)
    assert st.scores == scores
    assert st.is_terminal


def test_option_to_fifty_goes_on_and_raises_the_goal_when_both_reach_it() -> None:
    game = load(match_length="to_fifty", hand_score="per_trick")
    st = game.new_state(position={"phase": "after tricks 2", "tricks": [7, 6], "score": [45, 46]})
    assert not st.is_terminal and st.scores == [52, 52] and var(st, "goal") == 60
    assert st.dealer == 1 and st.current_player == 0  # the deal alternates
    st = game.new_state(position={"phase": "after tricks 2", "tricks": [7, 6], "score": [45, 30]})
    assert st.is_terminal and st.winners == [0]


def test_option_high_low_plays_without_trumps() -> None:
    low = start(load(play_mode="high_low"), turn_up="2S", talon="4S")
    assert low.view(0)["trump"] is None and var(low, "low") is True
    high = start(load(play_mode="high_low"), turn_up="8D", talon="4S")
    assert var(high, "low") is False
    game = load(play_mode="high_low")
    st = game.new_state(position={"phase": "after tricks 2", "tricks": [8, 5], "low": True})
    assert st.scores == [0, 3]  # fewer tricks is better in a low hand


def test_option_first_dealer() -> None:
    low = load(first_dealer="cut_low").new_state(seed=2)
    high = load(first_dealer="cut_high").new_state(seed=2)
    assert (low.dealer, high.dealer) == (0, 1)


# ============================================================================ bots and tools


@pytest.mark.parametrize("bots", [("random", "greedy"), ("ismcts:20", "random")])
def test_bots_play_whole_matches(bots: tuple[str, str]) -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = load()
    final = play_match(game, [make_bot(b, seed=i) for i, b in enumerate(bots)], seed=3)
    assert final.is_terminal and final.winners
    assert sum(final.view(0)["tricks"]) == 13


def test_bots_play_a_match_to_fifty() -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = load(match_length="to_fifty", hand_score="per_trick")
    final = play_match(game, [make_bot("greedy", 1), make_bot("random", 2)], seed=4)
    assert final.is_terminal and len(final.winners) == 1
    assert max(final.scores) >= 50


def test_describe_mentions_the_drawing_phase() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    result = CliRunner().invoke(cli, ["describe", str(SPEC)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "German Whist" in text
    assert "face-up card" in text and "drawing" in text
    for option in ("counted_tricks", "hand_score", "match_length", "play_mode", "first_dealer"):
        assert option in text
