"""Preferans (specs/preferans.yaml): the deal's talon after the first packet, every
reading playing whole matches, the settlement summing to zero (shared checks:
test_shelf.py, the readings file)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "preferans.yaml"

#: every option value other than the default
READINGS = [("pool_size", 10), ("pool_size", 30), ("pool_worth", 20), ("half_whist", "none"),
            ("whist_sharing", "gentleman"), ("lone_whister", "closed"),
            ("allpass_talon", "unused"), ("allpass_progression", "rising"),
            ("allpass_progression", "doubling"), ("allpass_zero", "pool")]


def test_the_talon_is_dealt_after_the_first_packet() -> None:
    """2 to forehand, the talon's 2, then twos round until each has ten."""
    game = spelbok.load(SPEC, players=3)
    deck = [f"{r}{s}" for s in "SHCD" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]
    state = game.new_state(seed=0, deck=deck, dealer=0)
    forehand = state.view(1)["hand"]
    assert deck[0] in forehand and deck[1] in forehand
    for seat in range(3):
        hand = state.view(seat)["hand"]
        assert deck[2] not in hand and deck[3] not in hand
    # all pass: the talon's first card is turned and sets the suit of the first trick
    for _ in range(3):
        state.apply("pass")
    assert state.view(1)["turn_up"][-1] in (deck[2], deck[3])


@pytest.mark.parametrize("name, value", READINGS, ids=[f"{n}={v}" for n, v in READINGS])
def test_every_reading_plays_whole_matches_and_settles_to_zero(name: str, value: object) -> None:
    game = spelbok.load(SPEC, players=3, options={name: value}, max_hands=8)
    rng = random.Random(7)
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        scores = state.var("score")
        # the whists are zero-sum; sharing out the pools and mountains leaves only the
        # third rounded down (the remainder of their sum by three)
        assert 0 <= sum(scores) <= 2
