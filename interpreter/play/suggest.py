"""A short list of sensible plays for a person when the legal plays of several cards
(``tricks.combos``: a lazy :class:`~spelbok.engine.play_sets.PlaySets`) are too many
to list: the tables (the terminal's menu, the browser's buttons) offer these, and the
person may write or pick any other play of cards, which the engine checks.

The suggestions are the hand's two longest tractors and three pairs that are plays,
then the plays a bot considers (:func:`~spelbok.play.bots.heuristics.play_candidates`:
the weakest and the strongest cards of each way to play) of several cards; a single
card is picked or written by its name, so none is listed.

Any other legal list (one card at a time, an exchange) has no suggestions: it is
listed in full.

>>> import spelbok
>>> st = spelbok.load("example", players=3).new_state(seed=1)
>>> suggestions(st, st.legal_actions())
[]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.actions import CARDS
from ..engine.play_sets import PlaySets, pairs_of, tractors_of

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.state import State

#: How many plays are suggested at most.
SUGGESTED = 8


def suggestions(state: State, legal: Any, limit: int = SUGGESTED) -> list[Action]:
    """Up to ``limit`` plays of several cards of ``legal`` (a :class:`PlaySets` of
    ``state``'s player to act) worth offering; [] for any other list."""
    if not isinstance(legal, PlaySets) or state.current is None:
        return []
    from .bots.heuristics import play_candidates

    hand = state.hands[state.current]
    masks: list[int] = []
    ins = state.game.program.code[state.pc]
    order_of = getattr(ins, "order_of", None)
    if legal.pack is not None and order_of is not None:
        order = order_of(state.tables)
        kinds = [m for m in tractors_of(state.tables, legal.pack, order, hand) if legal.fits(m)]
        kinds.sort(key=lambda m: -m.bit_count())
        pairs = [m for m in pairs_of(legal.pack, hand) if legal.fits(m)]
        masks += kinds[:2] + pairs[:3]  # the longest tractors, a few pairs: room for more
    out: list[Action] = []
    seen: set[int] = set()
    for m in masks:
        if m not in seen and legal.fits(m):
            seen.add(m)
            out.append(legal.make(m))
    for a in play_candidates(legal, state.tables, True):
        if len(out) >= limit:
            break
        if a.kind == CARDS and a.value not in seen:
            seen.add(a.value)
            out.append(a)
    return out[:limit]


__all__ = ["SUGGESTED", "suggestions"]
