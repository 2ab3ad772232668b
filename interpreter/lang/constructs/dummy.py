"""A trick-rule family of the ``tricks`` step: a dummy (``dummy``, ``dummy_by``), a seat
whose hand is laid face up after the opening lead and whose cards another seat chooses
(a dummy, played by the declarer).

The trick code plays it (:class:`spelbok.engine.dummy.DummyPlay`); this module gives
the tricks home its keys, grammar, reading, writing, prose and checks.

>>> [f.name for f in FIELDS]
['dummy', 'dummy_by']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Field

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["FIELDS", "GRAMMAR", "READERS", "check", "describe", "write"]

Path = tuple[Any, ...]

FIELDS: tuple[Field, ...] = (
    Field("dummy", "formula", "per-player condition: the dummy (the first seat still in "
          "that satisfies it), whose hand is laid face up after the opening lead and "
          "whose cards the seat `dummy_by` names chooses", default="false", omitted=True,
          schema_doc="A per-player condition naming the dummy (the first seat still in "
                     "that satisfies it; none: no dummy): its hand is shown to every seat "
                     "once the first card of the step is played (the opening lead), and "
                     "at its turn the seat named by dummy_by chooses its card, from its "
                     "hand and under its duties (e.g. `declarer_team and not "
                     "is_declarer`)."),
    Field("dummy_by", "formula", "per-player condition: who chooses the dummy's cards "
          "(the first other seat still in that satisfies it)", default="false",
          omitted=True,
          schema_doc="With dummy: a per-player condition naming the seat that chooses "
                     "the dummy's cards (the first other seat still in that satisfies "
                     "it; none: the dummy plays its own cards), e.g. `is_declarer`."),
)

GRAMMAR = r"""
// a dummy (tricks.dummy, dummy_by)
dummy: "the" "dummy" "is" "the" "player" "where" formula _NL
dummy_by: "the" "dummy" "is" "played" "by" "the" "player" "where" formula _NL
"""


def _read(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
          verbs: list[Any]) -> None:
    f = c.children[0]
    what = "the dummy" if kind == "dummy" else "who plays the dummy's cards"
    b.put(tricks, (*tp, kind), b.formula(f), f, what)


#: The reader of each of its lines, by grammar rule (the tricks home's reader calls them).
READERS: dict[str, Callable[..., None]] = {"dummy": _read, "dummy_by": _read}


def write(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """Its lines, when the step has a dummy."""
    if "dummy" in tr:
        out.add(ind, f"the dummy is the player where {t.formula(tr['dummy'])}")
    if "dummy_by" in tr:
        out.add(ind, f"the dummy is played by the player where {t.formula(tr['dummy_by'])}")


def describe(ctx: _Ctx, tr: Mapping[str, Any]) -> list[str]:
    """Its sentence (none without a dummy)."""
    dummy = tr.get("dummy", "false")
    if dummy in ("false", False):
        return []
    by = tr.get("dummy_by", "false")
    whose = ("the dummy plays its own cards" if by in ("false", False) else
             f"at the dummy's turn the player where {p.formula(by)} chooses its card, "
             "from the dummy's hand and under the dummy's duties (a person or bot in the "
             "dummy's seat is never asked)")
    return [f"The player where {p.formula(dummy)} is the dummy: once the opening lead is "
            f"made, the dummy's hand is laid face up for all to see, and {whose}."]


def check(chk: _Checker, path: Path, body: Mapping[str, Any]) -> None:
    """``dummy_by`` has no effect without ``dummy``."""
    if body.get("dummy") in (None, False, "false") and chk.written((*path, "dummy_by")):
        chk.warn((*path, "dummy_by"), "'dummy_by' has no effect: this tricks step has "
                 "no 'dummy'", key=True)
