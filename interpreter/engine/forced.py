"""What a table plays for its person without asking him: a forced card, or ``pass``
when it is all he may do.  The engine asks all the same (whom it waits for must tell
no seat what a hand holds); the terminal and the browser answer for the person, and
a resumed match's undo skips these (:func:`~spelbok.engine.history.choices`).

>>> from spelbok.engine.actions import parse_action as a
>>> lone_pass([a("pass")]), lone_pass([a("pass"), a("JC")]), plays_itself([a("JC")])
(True, False, True)
>>> plays_itself([a("knock")]), plays_itself([a("pass")])
(False, True)
"""

from __future__ import annotations

from typing import Any

from .actions import CARD, is_pass
from .play_sets import PlaySets


def lone_pass(legal: Any) -> bool:
    """Whether ``pass`` is the only legal action: nothing to decide, so a table plays it
    for its player without asking (the engine asks all the same, so that who is asked
    tells nobody what a hand holds)."""
    a = _lone(legal)
    return a is not None and is_pass(a)


def _lone(legal: Any) -> Any:
    """The only legal action, or None; a lazy play set of cards is never counted (plays
    of several cards: a table always asks)."""
    if isinstance(legal, PlaySets):
        return None
    return legal[0] if len(legal) == 1 else None


def plays_itself(legal: Any) -> bool:
    """Whether a table plays the only legal action for its person without asking: a
    forced card, or a lone ``pass``."""
    a = _lone(legal)
    return a is not None and (a.kind == CARD or is_pass(a))


__all__ = ["lone_pass", "plays_itself"]
