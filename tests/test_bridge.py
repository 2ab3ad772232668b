"""Contract Bridge (specs/bridge.yaml): the dummy, the side score (shared checks: test_shelf.py)."""

from __future__ import annotations

from pathlib import Path

import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "bridge.yaml"


def test_the_dummy_is_shown_to_all_once_the_first_trick_is_over() -> None:
    game = spelbok.load(SPEC, players=4)
    state = game.new_state(seed=1)
    dealer = state.dealer
    for call in ("one_club", "pass", "pass", "pass"):
        state.apply(call)
    dummy = (dealer + 2) % 4
    watcher = (dealer + 1) % 4
    state.apply(state.legal_actions()[0])
    assert state.view(watcher)["known_cards"][dummy] == []
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert len(state.view(watcher)["known_cards"][dummy]) == 12


def test_both_partners_keep_the_side_score() -> None:
    game = spelbok.load(SPEC, players=4, options={"scoring": "duplicate", "boards": 4})
    state = game.new_state(seed=5)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    score = state.var("score")
    assert score[0] == score[2] and score[1] == score[3]
