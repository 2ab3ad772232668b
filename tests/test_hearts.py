"""Hearts (specs/hearts.yaml): whole matches by bots (the shared checks: test_shelf.py)."""

from __future__ import annotations

from pathlib import Path

import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "hearts.yaml"


def test_bots_play_whole_matches() -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = spelbok.load(SPEC, players=4, options={"target": 50, "moon": "choose"})
    bots = [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3), make_bot("random", 4)]
    final = play_match(game, bots, seed=3)
    assert final.is_terminal and not final.limit_reached
    assert max(final.scores) >= 50
    assert final.winners and all(final.scores[w] == min(final.scores) for w in final.winners)
