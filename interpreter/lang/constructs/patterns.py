"""The ``patterns`` step: find the best hand pattern held (before play); its part ``pattern``.

>>> HOME.name, HOME.compile, [c.name for c in HOME.parts]
('patterns', 'spelbok.engine.patterns:compile_patterns', ['pattern'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["HOME", "PATTERN"]

PATTERN: Construct = Construct("pattern", "part", "a named pattern of a hand (a `patterns` step)", (
    Field("name", "name", "its name (what `pattern` reads when it wins)", required=True),
    Field("if", "formula", "per-player condition: the seat's hand has the pattern",
          required=True),
    Field("rank", "formula", "per-player number: between seats with this pattern, the "
          "higher wins (then the first from forehand)", default="0"),
    SOURCE,
), x_name="in a pattern")

DECL: Construct = Construct("patterns", "step", "find the best hand pattern held (before play)",
                 value=Field("patterns", "list[pattern]", "the patterns, best first; the best "
                             "held is read as `pattern` and `pattern_seat`", required=True,
                             min_items=1, doc_type="list of patterns"))

GRAMMAR = r"""
// the best hand pattern held, best first: "find the best hand pattern:" then one line a
// pattern, "flush if count(cards_of(hand, 'H')) == 5, ranked by count(hand where ...)"
patterns: "find" "the" "best" "hand" "pattern" ":" _end _patterns_block
_patterns_block: _INDENT (hand_pattern | _attr)+ _DEDENT
// (its own line end, not _end: a pattern named like a step's first word stays a name)
hand_pattern: word "if" formula pattern_rank? citation? _NL
pattern_rank: "," "ranked" "by" formula
"""

#: Words that open another line of a patterns block (a pattern so named is quoted).
_RESERVED = ("source", "label", "when", "only", "nothing")


def build(b: _Builder, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Reads ``find the best hand pattern:`` and its pattern lines."""
    pats: list[dict[str, Any]] = []
    step["patterns"] = pats
    b.mark((*path, "patterns"), st)
    for c in st.children:
        if not is_node(c, "hand_pattern"):
            continue
        pp = (*path, "patterns", len(pats))
        name, cond = c.children[0], c.children[1]
        pat: dict[str, Any] = {"name": b.word(name), "if": b.formula(cond)}
        b.mark(pp, c)
        b.mark((*pp, "name"), name)
        b.mark((*pp, "if"), cond)
        for x in c.children[2:]:
            if is_node(x, "pattern_rank"):
                pat["rank"] = b.formula(x.children[0])
                b.mark((*pp, "rank"), x.children[0])
        b.citation(c, pat, pp)
        pats.append(pat)
    b.attrs(st, step, path)


def write(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``find the best hand pattern:`` and one line a pattern, best first."""
    t.check(step, t.keys(DECL), "in a patterns step")
    out.add(indent, "find the best hand pattern:")
    for pat in step["patterns"] or []:
        t.check(pat, t.keys(PATTERN), "in a pattern")
        line = (f"{t.word(pat.get('name', ''), _RESERVED)} "
                f"if {t.formula(pat.get('if', 'false'))}")
        rank = pat.get("rank")
        if rank is not None and t.formula(rank) != "0":
            line += f", ranked by {t.formula(rank)}"
        if isinstance(pat.get("source"), str):
            line += f" — source {t.quote(pat['source'])}"
        out.add(indent + 1, line)
    out.attrs(indent + 1, step)


def describe(ctx: _Ctx, step: Mapping[str, Any], number: str,
             sub: int) -> tuple[str, list[str], list[str]]:
    """The search for the best pattern, and the patterns in order."""
    body: list[str] = []
    text = ("Find the best hand pattern held by a player still in: the first of these that "
            "some player holds, best first (between players holding it, the higher rank, "
            "then the first from forehand). Its name is `pattern` and its holder "
            "`pattern_seat` ('none' and -1 when nobody holds one).")
    for i, pat in enumerate(step["patterns"]):
        rank = pat.get("rank", "0")
        tie = "" if str(rank) == "0" else f"; ranked by {p.formula(rank)}"
        src = f" [{pat['source']}]" if isinstance(pat.get("source"), str) else ""
        body += p.wrap(f"{pat['name']}: when {p.formula(pat['if'])}{tie}.{src}", sub + 2,
                       first=" " * sub + f"{i + 1}) ")
    return text, body, []


def check(chk: _Checker, path: tuple[Any, ...], step: dict[str, Any]) -> None:
    """Each pattern's name once."""
    chk.no_repeats([x["name"] for x in step["patterns"]], (*path, "patterns"), "pattern name")


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Each pattern's condition, and its rank (a whole number)."""
    for i, pat in enumerate(step["patterns"]):
        p = (*path, "patterns", i)
        c.condition(pat["if"], (*p, "if"), True, "`count(hand) == 5`")
        rank = pat.get("rank", "0")
        if rank not in (0, "0"):
            c.number(rank, (*p, "rank"), True)


HOME: Home = Home(DECL, parts=(PATTERN,), grammar=GRAMMAR, builds={"patterns": build}, write=write,
            compile_check=compile_check,
            describe=describe, check=check, compile="spelbok.engine.patterns:compile_patterns")
