"""How much of a test's work over every shipped spec each spec does: one rule for all.

A test that plays every shipped spec states its work (matches, hands, bot questions,
decisions) for a pack of :data:`PACK` cards.  A spec's cost grows with the cards its
hands deal: each card is a decision, and a long hand makes every decision dearer (more
plays to list, longer rollouts for a bot).  So a spec with a larger pack does that work
in proportion, about as many cards played as the stated work on a 36-card pack
(Tractor's 108 cards: a third of it), rounded up: never less than one whole match,
hand or question, so that every spec still plays complete ones and the test can still
fail.  A pack of at most 36 cards does all of it.
"""

from __future__ import annotations

from typing import Any

#: the pack a test's stated work is counted in (Knektpass's 36 cards)
PACK = 36


def scaled(game: Any, work: int) -> int:
    """``work`` (matches, hands, questions, decisions) for ``game``'s pack: all of it up
    to :data:`PACK` cards, else ``work * PACK / cards`` rounded up (at least 1)."""
    cards = max(PACK, len(game.deck))
    return max(1, -(-work * PACK // cards))
