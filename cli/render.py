"""Terminal rendering: its home is the library's :mod:`spelbok.view` (the web page and
the game-AI interfaces show the same text); these names stay importable from here.

>>> card("10H"), cards(["JC", "AS"])
('10♥', 'J♣ A♠')
"""

from __future__ import annotations

from spelbok.view.narrator import Narrator, transcript
from spelbok.view.text import (
    PLAIN,
    SUITS,
    SYMBOLS,
    Style,
    _visible_len,
    card,
    cards,
    hand_line,
    player_names,
    scores_line,
    sort_hand,
    suit,
    trick_line,
    wrap_items,
    wrap_words,
)

__all__ = [
    "PLAIN",
    "SUITS",
    "SYMBOLS",
    "Narrator",
    "Style",
    "_visible_len",
    "card",
    "cards",
    "hand_line",
    "player_names",
    "scores_line",
    "sort_hand",
    "suit",
    "transcript",
    "trick_line",
    "wrap_items",
    "wrap_words",
]
