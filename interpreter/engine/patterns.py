"""The hand-pattern instruction (step ``patterns``): which seat holds the best of a
ranked list of named hand patterns, read by the following steps as ``pattern`` and
``pattern_seat`` (a hand settled before play: score it, then ``end_hand``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .steps import Fn, Instr, Path

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State


class Patterns(Instr):
    """Find the best pattern held: the first of the list any seat still in holds; between
    seats holding it, the higher ``rank``, then the first from forehand."""

    def __init__(self, names: list[str], conds: list[Fn], ranks: list[Fn | None]) -> None:
        self.names = names
        self.conds = conds
        self.ranks = ranks  # None: rank 0 (no tie-break but the order from forehand)

    def run(self, st: State) -> bool:
        seats = [p for p in st.order_from(st.prog.nxt[st.dealer]) if not st.off[p]]
        name, seat = "none", -1
        for i, cond in enumerate(self.conds):
            holders = [p for p in seats if cond(st, p)]
            if holders:
                rank = self.ranks[i]
                best = holders[0]
                if rank is not None:
                    top = rank(st, best)
                    for p in holders[1:]:
                        r = rank(st, p)
                        if r > top:
                            best, top = p, r
                name, seat = self.names[i], best
                break
        st.pattern = name
        st.pattern_seat = seat
        if st.rec is not None:
            st.event("pattern", pattern=name, seat=seat)
        st.pc += 1
        return True


def compile_patterns(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``patterns`` step: each pattern's condition and rank."""
    names: list[str] = []
    conds: list[Fn] = []
    ranks: list[Fn | None] = []
    for i, pat in enumerate(step["patterns"]):
        p = (*path, "patterns", i)
        names.append(str(pat["name"]))
        conds.append(c.condition(pat["if"], (*p, "if"), True, "`count(hand) == 5`"))
        rank = pat.get("rank", "0")
        ranks.append(None if rank in (0, "0") else c.number(rank, (*p, "rank"), True))
    code.append(Patterns(names, conds, ranks))


__all__ = ["Patterns"]
