"""Whist (specs/whist.yaml): whole matches by bots (the shared checks: test_shelf.py)."""

from __future__ import annotations

from pathlib import Path

import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "whist.yaml"


def test_bots_play_whole_matches() -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = spelbok.load(SPEC, players=4)
    bots = [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3), make_bot("random", 4)]
    final = play_match(game, bots, seed=3)
    assert final.is_terminal and not final.limit_reached
    # partners share the result; the rubber's balance is zero-sum
    assert final.scores[0] == final.scores[2] and final.scores[1] == final.scores[3]
    assert sum(final.scores) == 0 and set(final.winners) in ({0, 2}, {1, 3})
