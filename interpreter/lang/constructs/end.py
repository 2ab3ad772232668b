"""The end of the match: when it ends, who wins, the reported score, the most hands.

>>> END.name, DECL.field("max_hands").default == DEFAULT_MAX_HANDS
('end', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...limits import MAX_HANDS
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["DEFAULT_MAX_HANDS", "END"]

DEFAULT_MAX_HANDS: int = 1000
"""The bound on a match's hands when ``end.max_hands`` is absent (redeals count): the one
meaning of an absent ``max_hands`` (a safety bound, not "no bound"), read by the model's
users, the compiler and the checks."""

DECL: Construct = Construct("end", "section", "when the match ends, who wins", (
    Field("when", "formula", "hand/match condition, checked after each hand", required=True),
    Field("winners", "formula", "per-player condition, evaluated when the match ends",
          required=True),
    Field("score", "formula", "per-player number reported as the seat's score",
          schema_doc="Per-player score reported for each seat (state.scores)."),
    Field("max_hands", "int", "the match ends after this many hands (redeals count); "
          "absent, the safety bound applies: play stops there as well",
          default=DEFAULT_MAX_HANDS, omitted=True, minimum=1, maximum=MAX_HANDS),
    SOURCE,
))

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
match_end: "the" "match" "ends" ("when" formula)? _end _end_details?
_end_details: _INDENT (winners | score | max_hands | source_line)+ _DEDENT
winners: "the"? "winners" "are" "the" "players" "where" formula _NL
max_hands: "after"? "at" "most" INT "hands" _NL
score: "the" "score" "of" "each" "player" "is" formula _NL
"""


def read_match_end(b: Builder, st: Any) -> None:
    """Reads ``the match ends when …`` and its winners, score and most hands."""
    end: dict[str, Any] = {}
    b.put(b.tree, ("end",), end, st, "the end of the match")
    for c in st.children:
        if is_node(c, "formula"):
            end["when"] = b.formula(c)
            b.mark(("end", "when"), c)
        elif is_node(c, "winners"):
            f = c.children[0]
            b.put(end, ("end", "winners"), b.formula(f), f, "the winners")
        elif is_node(c, "score"):
            f = c.children[0]
            b.put(end, ("end", "score"), b.formula(f), f, "the score of each player")
        elif is_node(c, "max_hands"):
            tok = c.children[0]
            b.put(end, ("end", "max_hands"), int(tok), tok, "the most hands")
    b.citation(st, end, ("end",))


def _end(out: t.Out, end: Mapping[str, Any]) -> None:
    t.check(end, t.keys(DECL), "in 'end'")
    out.blank()
    out.add(0, "the match ends" + (f" when {t.formula(end['when'])}" if "when" in end else ""))
    if "winners" in end:
        out.add(1, f"the winners are the players where {t.formula(end['winners'])}")
    if end.get("score") is not None:  # optional: absent and "0" differ in the model
        out.add(1, f"the score of each player is {t.formula(end['score'])}")
    if end.get("max_hands") is not None:
        out.add(1, f"at most {int(end['max_hands'])} hands")
    t.source(out, 1, end)


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The end of the match and its details."""
    if "end" in tree:
        _end(out, tree["end"])


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"End of the match": when, who wins, the score reported, the safety bound."""
    e = tree.get("end") or {}
    lines = ctx.title("End of the match")
    lines += p.wrap(f"After each hand, the match ends when {p.formula(e.get('when'))}.")
    lines += p.wrap(f"The winners are the players where {p.formula(e.get('winners'))}.")
    if e.get("score") is not None:
        lines += p.wrap(f"Each player's reported score is {p.formula(e['score'])}.")
    if e.get("max_hands") is not None:
        lines += p.wrap(f"As a safety bound, the match stops after {e['max_hands']} hands "
                        "(redeals count).")
    return lines + p.cite(e, 2)


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """The match can end: a false end.when needs max_hands."""
    end = tree["end"]
    if end["when"].strip() == "false" and "max_hands" not in end:
        ck.err(
            ("end", "when"),
            "the match can never end: end.when is false and there is no max_hands",
            f"only the safety bound would stop it, after {DEFAULT_MAX_HANDS} hands",
        )


END: Home = Home(
    DECL,
    grammar=GRAMMAR,
    entries=("match_end",),
    builds={"match_end": read_match_end},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("end", "end", "when the match ends, who wins", required=True,
                doc_type="map, required"),),
)
