"""Spades (specs/spades.yaml): partners keep one side score (the shared checks: test_shelf.py)."""

from __future__ import annotations

from pathlib import Path

import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "spades.yaml"


def test_both_partners_keep_the_side_score() -> None:
    game = spelbok.load(SPEC, players=4)
    state = game.new_state(seed=5)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    score = state.var("score")
    assert score[0] == score[2] and score[1] == score[3]
