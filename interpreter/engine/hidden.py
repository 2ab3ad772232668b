"""Hidden variables at run time: which seats' values a seat may not see, and their values
in a bot's sample (the spec's ``hidden``, :mod:`spelbok.lang.constructs.hidden`).

The state keeps every value; what a seat sees is worked out when it looks (its view,
its observation tensor, its sample), so play costs nothing more.  A seat sees its own
value and each seat's whose ``reveal`` condition holds; once the match is over, all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .compiler import Compiler
    from .program import Fn, Program
    from .state import State

__all__ = ["Secret", "compile_hidden", "hidden_masks", "resample"]


class Secret(NamedTuple):
    """One hidden variable: its row of ``pv_rows``, its reveal condition and its sample
    (each ``fn(state, seat)``)."""

    row: int
    reveal: Fn
    sample: Fn


def compile_hidden(c: Compiler, prog: Program, hidden: dict[str, Any]) -> None:
    """The spec's hidden variables, as :class:`Secret` entries of ``prog.secrets``."""
    out = []
    for name, entry in hidden.items():
        at = ("hidden", name)
        out.append(Secret(c.pvars[name],
                          c.condition(entry.get("reveal", False), (*at, "reveal"), True),
                          c.formula(entry["sample"], (*at, "sample"), True)))
    prog.secrets = tuple(out)


def hidden_masks(st: State, seat: int) -> list[int]:
    """For each per-player row, the mask of the seats whose value ``seat`` may not see
    (0 for a row that is not hidden)."""
    masks = [0] * len(st.pv_rows)
    if st.is_terminal:
        return masks
    for s in st.prog.secrets:
        m = 0
        for p in range(st.n):
            if p != seat and not s.reveal(st, p):
                m |= 1 << p
        masks[s.row] = m
    return masks


def resample(sample: State, st: State, seat: int) -> None:
    """In ``sample`` (a clone of ``st`` whose hidden cards were re-dealt for ``seat``),
    give each seat whose hidden value ``seat`` cannot see the value its ``sample``
    formula works out from its new cards, so that no bot reads the real one."""
    masks = hidden_masks(st, seat)
    for s in st.prog.secrets:
        m = masks[s.row]
        if not m:
            continue
        row = list(sample.pv_rows[s.row])
        for p in range(st.n):
            if m >> p & 1:
                row[p] = s.sample(sample, p)
        sample.pv_rows[s.row] = row
