"""What several steps share: the per-player ``for``, the zones, who decides or leads
(``who_map`` and the who words), the levels of an ordered ``allow``.

Each piece is written once here (its declaration, its grammar, its reading, writing and
prose) and the steps' homes use it.

>>> [w.name for w in ZONES][:3], write_zone("turn_up"), write_zone("pile")
(['hand', 'widow', 'stock'], 'the turn-up', 'zone pile')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from ..declare import Field, Word

if TYPE_CHECKING:
    from ..dsl_build import _Builder

__all__ = ["FOR", "ZONES", "read_zone", "write_zone"]

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

#: How the DSL writes a zone (``zone WORD`` for another word).
_ZONE_TEXT = {"stock": "the stock", "turn_up": "the turn-up", "widow": "the widow",
              "hand": "the hand", "discards": "the discards"}


def read_zone(b: _Builder, node: Any) -> str:
    """A zone's name: ``the stock`` -> ``stock``, ``zone WORD`` -> the word."""
    if node.data == "zone_word":
        return b.word(node.children[0])
    return str(node.data[len("zone_"):])


def write_zone(zone: Any) -> str:
    """A zone as the DSL writes it."""
    return _ZONE_TEXT.get(str(zone), f"zone {t.word(zone)}")
