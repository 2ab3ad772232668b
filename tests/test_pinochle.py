"""Pinochle (specs/pinochle.yaml): the melds its meld table scores (every meld
declared), checked against a direct count of the meld table of Bicycle's rules over
random deals of the double pack.  The rule cases themselves are in specs/readings/pinochle.yaml."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "pinochle.yaml"
RANKS = ["A", "10", "K", "Q", "J", "9"]
SUITS = ["C", "D", "H", "S"]


def expected_meld(hand: list[str], trump: str) -> int:
    """The meld of ``hand`` by the table: a class uses a card once, classes share cards."""
    held = Counter((c[:-1], c[-1]) for c in hand)
    runs = min(held[r, trump] for r in ("A", "10", "K", "Q", "J"))
    points = 1500 if runs == 2 else 150 * runs
    points += 40 * min(held["K", trump] - runs, held["Q", trump] - runs)
    points += sum(20 * min(held["K", s], held["Q", s]) for s in SUITS if s != trump)
    points += 10 * held["9", trump]
    for rank, value in (("A", 100), ("K", 80), ("Q", 60), ("J", 40)):
        around = min(held[rank, s] for s in SUITS)
        points += 10 * value if around == 2 else value * around
    pinochles = min(held["Q", "S"], held["J", "D"])
    return points + (300 if pinochles == 2 else 40 * pinochles)


@pytest.fixture(scope="module")
def game() -> spelbok.Game:
    return spelbok.load(SPEC)


@pytest.mark.parametrize("seed", range(4))
def test_meld_formulas_match_the_meld_table(game: spelbok.Game, seed: int) -> None:
    rng = random.Random(seed)
    for deal in range(4):
        pack = [r + s for r in RANKS for s in SUITS] * 2
        rng.shuffle(pack)
        # rich hands for seat 0, in turn: a suit's double run and more, or all eight
        # cards of a rank (each rank comes up over the seeds)
        if deal % 2 == 0:
            suit = rng.choice(SUITS)
            rich = [r + suit for r in ("A", "10", "K", "Q", "J")] * 2
            rich += ["QS", "JD"] if suit in ("C", "H") else ["9" + suit]
        else:
            rank = ("A", "K", "Q", "J")[(2 * seed + deal // 2) % 4]
            rich = [rank + s for s in SUITS] * 2
        for c in rich:
            pack.remove(c)
        pack = rich + pack
        hands = {seat: " ".join(pack[seat * 12:seat * 12 + 12]) for seat in range(4)}
        trump = rng.choice(SUITS)
        st = game.new_state(position={"phase": "show melds", "trump": trump, "hands": hands})
        while st.decision_name == "declare_melds":  # every seat declares all it makes
            st.apply(st.legal_actions()[0])
        want = [expected_meld(pack[seat * 12:seat * 12 + 12], trump) for seat in range(4)]
        assert st.var("meld") == want, (hands, trump)
