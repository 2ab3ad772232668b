"""What a seat is shown, as text: shared by the terminal (``cli/``), the web page's log
(:mod:`spelbok.web`) and the game-AI interfaces' ``render`` (:mod:`spelbok.rl`).

- :mod:`.text`: cards, suits, hands, tricks and scores as text (:class:`~.text.Style`:
  symbols or letters, colour, width, the game's own pack);
- :mod:`.narrator`: match events as lines, with one seat's eyes or all (:func:`~.narrator.transcript`);
- :mod:`.panel`: the table a seat sees before its decision.
"""

from .narrator import Narrator, transcript
from .panel import panel
from .text import (
    PLAIN,
    Style,
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

__all__ = ["PLAIN", "Narrator", "Style", "card", "cards", "hand_line", "panel", "player_names",
           "scores_line", "sort_hand", "suit", "transcript", "trick_line", "wrap_items",
           "wrap_words"]
