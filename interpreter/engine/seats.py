"""Who acts: the seat selectors of a decision's ``who`` and a tricks step's ``leader``.

A selector gives the seats that act, in turn, from a state: each seat still in from
forehand (``each``), the first one from the dealer, forehand or the last trick's
winner that ``where`` admits, or the seat with the most of a formula (``who: {most:
..}``, a tie cut at random or won by the first from forehand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lang import vocabulary as _v
from ..lang.compile_checks import SELECTORS
from .steps import UNSET, Fn, Path, Selector, fixed

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State

#: Who wins a tie of ``who: {most: ..}`` when ``ties`` is absent.
TIES_DEFAULT: str = _v.construct("who_map").field("ties").default


def _first(st: State, order: list[int], where_fn: Fn | None) -> list[int]:
    """The first seat of ``order`` meeting ``where_fn`` (any seat when None), as a list."""
    if where_fn is None:
        return order[:1]
    for p in order:
        if where_fn(st, p):
            return [p]
    return []


def seat_selector(c: Compiler, who: Any, where: Any, path: Path) -> Selector:
    """Who acts, in turn: ``who`` (a selector word, ``{most: .., ties: ..}``, or a formula
    over options naming a selector), the first seat ``where`` admits."""
    where_fn = c.formula(where, (*path, "where"), True) if where is not None else None
    if fixed(where_fn) is True:  # 'where: true' filters nothing
        where_fn = None
    if isinstance(who, dict):
        expr = c.formula(who.get("most", "0"), (*path, "who", "most"), True)
        ties = who.get("ties", TIES_DEFAULT)

        same = fixed(expr) is not UNSET  # fixed at load time: every seat ties

        def most(st: State) -> list[int]:
            cands = st.forehand_order()
            if where_fn is not None:
                cands = [p for p in cands if where_fn(st, p)]
            if not cands:
                return []
            if same:
                tied = cands
            else:
                vals = [expr(st, p) for p in cands]
                best = max(vals)
                tied = [p for p, v in zip(cands, vals, strict=True) if v == best]
            if len(tied) > 1 and ties == "cut":
                pick = tied[st.random_below(len(tied))]
                if st.rec is not None:
                    st.event("cut_tie", among=tied, chosen=pick)
                return [pick]
            return [tied[0]]

        return most
    if who not in SELECTORS:
        # a formula over options naming a selector (a reading switch)
        who = c.constant(who, (*path, "who"), SELECTORS)
    if who == "each":
        return lambda st: st.forehand_order()  # `where` is applied lazily by Decide

    def single(st: State) -> list[int]:
        # seats in the hand, in turn from the named one (from forehand for 'forehand')
        out = st.off
        if who == "dealer" and not out[st.dealer]:
            start = st.dealer
        elif who == "last_winner" and st.last_winner >= 0 and not out[st.last_winner]:
            start = st.last_winner
        elif who == "dealer":  # a dealer who is out: the last seat still in before them
            seats = [p for p in st.prog.rot[st.prog.nxt[st.dealer]] if not out[p]]
            return [] if not seats else _first(st, [seats[-1], *seats[:-1]], where_fn)
        else:
            start = st.prog.nxt[st.dealer]
        return _first(st, [p for p in st.prog.rot[start] if not out[p]], where_fn)

    return single
