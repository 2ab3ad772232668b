"""What several steps share: the per-player ``for``, the zones, who decides or leads
(``who_map`` and the who words), the levels of an ordered ``allow``.

Each piece is written once here (its declaration, its grammar, its reading, writing and
prose) and the steps' homes use it.

>>> [w.name for w in ZONES][:3]
['hand', 'widow', 'stock']
"""

from __future__ import annotations

from ..declare import Field, Word

__all__ = ["FOR", "ZONES"]

#: The per-player ``for`` of a step (``set``, ``move``).
FOR = Field("for", "formula", "per-player condition: applied to each player from forehand")

#: The zones cards may be in (``move.from``, ``move.to``, an exchange's ``draw_from``).
ZONES: tuple[Word, ...] = (
    Word("hand", "the hand of the player a `for` names"),
    Word("widow", "the spare hand a deal's `widow` fills"),
    Word("stock", "the cards not dealt (the talon), hidden"),
    Word("turn_up", "the public turn-up zone"),
    Word("discards", "the hidden discard pile"),
)
