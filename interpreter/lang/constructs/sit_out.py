"""Sitting a hand out: seats that stay in the match but take no part in one hand.

``sit_out.when`` is a condition read for each seat as each hand starts (its dealer
known, before its first step), e.g. ``seats == 4 and seat == dealer``: the dealer of a
game for three played by four sits each hand out.  A seat sitting out is dealt no card,
takes no decision, is skipped by every turn (the deal, the auction, decisions in turn,
the leads and the play of the tricks, passing, melds, patterns, a dummy), but stays in
the match: its variables, its score and the end's formulas count it, the dealer passes
over every seat (the sitter included), and the next hand reads the condition again.
The formulas read ``sits_out`` (this hand) beside ``out`` (out of the match).

The engine keeps one mask of the seats in no part of the hand, ``State.off``
(:meth:`spelbok.engine.program.Program.seat_hand`): without this section it is the
``out`` list itself, so a spec that does not use it pays nothing.

>>> DECL.name, [f.name for f in DECL.fields]
('sit_out', ['when', 'source'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...formula.parse import formula_names
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..compile_checks import Typer
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["SIT_OUT"]

DECL: Construct = Construct("sit_out", "section", "seats that sit a hand out", (
    Field("when", "formula", "a condition read for each seat as each hand starts (its dealer "
          "known): the seat sits the hand out (dealt no card, given no turn, still in the "
          "match), e.g. `seats == 4 and seat == dealer`", required=True),
    SOURCE,
))

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
sit_out: "a" "player" "sits" "a" "hand" "out" "if" formula _end _sources?
"""


def read_sit_out(b: Builder, st: Any) -> None:
    """Reads ``a player sits a hand out if <formula>``."""
    f = st.children[0]
    section = b.section("sit_out", st)
    b.put(section, ("sit_out", "when"), b.formula(f), f, "the sitting out")
    b.citation(st, section, ("sit_out",))


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """``a player sits a hand out if <formula>`` and its source."""
    sec = tree.get("sit_out")
    if sec:
        t.check(sec, t.keys(DECL), "in 'sit_out'")
        out.blank()
        out.add(0, f"a player sits a hand out if {t.formula(sec['when'])}")
        t.source(out, 1, sec)


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Sitting out": who sits each hand out, and what that means."""
    sec = tree.get("sit_out")
    if not sec:
        return []
    text = (f"A player sits a hand out where {p.formula(sec['when'])} (worked out as the "
            "hand starts): he is dealt no card and has no turn in that hand, but stays in "
            "the match, keeps his score and may deal.")
    return ctx.title("Sitting out") + p.wrap(text) + p.cite(sec, 2)


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """Nothing beyond the formula's own checks (compile_check)."""


def compile_check(c: Typer, tree: dict[str, Any], path: tuple[Any, ...]) -> None:
    """``when``: a condition read for each seat, that does not read ``sits_out`` (what it
    decides)."""
    sec = tree.get("sit_out")
    if not sec:
        return
    where = (*path, "sit_out", "when")
    c.condition(sec["when"], where, True, "`seats == 4 and seat == dealer`")
    try:
        names = formula_names(str(sec["when"]))
    except Exception:  # noqa: BLE001 - a formula that does not parse: already reported
        return
    if "sits_out" in names:
        c.error(where, "sit_out.when decides who sits out: it cannot read `sits_out`")


SIT_OUT: Home = Home(
    DECL,
    grammar=GRAMMAR,
    entries=("sit_out",),
    builds={"sit_out": read_sit_out},
    write=write,
    describe=describe,
    check=check,
    compile_check=compile_check,
    keys=(Field("sit_out", "sit_out", "seats that sit a hand out: `{when: condition}`, read "
                "for each seat as each hand starts", doc_type="map", doc_default="absent"),),
)
