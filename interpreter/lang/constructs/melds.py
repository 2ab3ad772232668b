"""Melds: the table of named combinations of cards (the ``melds`` section and its
``meld`` part) and the ``declare_melds`` step that declares them; two homes, one
construct family.

>>> MELDS.name, DECLARE_MELDS.name, DECLARE_MELDS.group
('melds', 'declare_melds', 'step')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..compile_checks import Typer
    from ..describe import _Ctx as Ctx
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["DECLARE_MELDS", "DECLARE_MELDS_STEP", "MELD", "MELDS"]

MELD: Construct = Construct("meld", "part", "a named combination of cards a player may declare", (
    Field("ranks", "ranks", "its ranks (with `in`)", default=[]),
    Field("spread", "word", "how the ranks spread over the suits", default="one_suit",
          words=words_of(("one_suit", "all of them in one suit: each suit may make one"),
                         ("every_suit", "each of them in every suit of the deck"))),
    Field("run", "int", "instead of `ranks`: at least this many cards in sequence (the "
          "ranking's order) in one suit; each such sequence makes one", default=0,
          omitted=True, minimum=0, maximum=13),
    Field("points", "formula", "per-player number: what the meld scores, each time it is "
          "made", required=True),
    SOURCE,
), x_name="in meld '{key}'")

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
// a meld of the `melds` table: "meld marriage: K Q in one suit, worth 20",
// "meld four_jacks: J in every suit, worth 40", "meld sequence: run of 3 in one suit, worth 30"
meld: "meld" word ":" rank* meld_run? "in" meld_spread "," "worth" formula _end _sources?
meld_run: "run" "of" INT
meld_spread: "one" "suit"                                   -> meld_one_suit
           | "every" "suit"                                 -> meld_every_suit
           | ":" word                                       -> meld_spread_word
"""


def read_meld(b: Builder, st: Any) -> None:
    """Reads ``meld NAME: K Q in one suit, worth 20``."""
    name = st.children[0]
    melds = b.section("melds", st)
    path = ("melds", b.word(name))
    meld: dict[str, Any] = {}
    b.put(melds, path, meld, name, f"the meld '{b.word(name)}'")
    items = [c for c in st.children if is_node(c, "rank")]
    if items:
        meld["ranks"] = b.ranks(items)
        b.mark_items((*path, "ranks"), items)
    for c in st.children:
        if is_node(c, "meld_run"):
            meld["run"] = int(c.children[0])
            b.mark((*path, "run"), c.children[0])
        elif getattr(c, "data", "") in ("meld_one_suit", "meld_every_suit",
                                        "meld_spread_word"):
            word = {"meld_one_suit": "one_suit", "meld_every_suit": "every_suit"}.get(c.data)
            meld["spread"] = word or b.word(c.children[-1])
            b.mark((*path, "spread"), c)
    f = next(c for c in st.children if is_node(c, "formula"))
    meld["points"] = b.formula(f)
    b.mark((*path, "points"), f)
    b.citation(st, meld, path)


def _melds(out: t.Out, melds: Mapping[str, Any]) -> None:
    """``meld NAME: RANKS in one suit, worth FORMULA`` (or ``in every suit``, ``run of N``)."""
    for name, meld in melds.items():
        t.check(meld, t.keys(MELD), f"in meld '{name}'")
        out.blank()
        parts = [str(r) for r in meld.get("ranks") or []]
        if meld.get("run"):
            parts.append(f"run of {int(meld['run'])}")
        where = meld.get("spread", "one_suit")
        parts.append(f"in {where.replace('_', ' ')}" if where in ("one_suit", "every_suit")
                     else f"in: {t.word(where)}")
        out.add(0, f"meld {t.word(name)}: {' '.join(parts)}, worth {t.formula(meld.get('points', 0))}")
        t.source(out, 1, meld)


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The table of melds, one line a meld."""
    _melds(out, tree.get("melds") or {})


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Melds": each meld of the table, what makes it and what it scores."""
    melds = tree.get("melds") or {}
    if not melds:
        return []
    lines = ctx.title("Melds")
    lines += p.wrap("A meld scores each time a hand makes it, when declared.")
    for name, m in melds.items():
        ranks = " ".join(str(r) for r in m.get("ranks") or [])
        if m.get("run"):
            what = f"at least {m['run']} cards in sequence in one suit (each sequence counts)"
        elif m.get("spread", "one_suit") == "every_suit":
            what = f"{ranks} of every suit"
        elif m.get("spread", "one_suit") == "one_suit":
            what = f"{ranks} of one suit (each suit may make one)"
        else:
            what = f"{ranks} (spread: {m['spread']})"
        lines += p.wrap(f"{name}: {what}, worth {p.formula(m.get('points', 0))}.", 4, first="  ")
        lines += p.cite(m, 6)
    return lines


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """Each meld: ranks or a run (not both), that some deck of the spec can make."""
    for name, m in (tree.get("melds") or {}).items():
        at = ("melds", name)
        ck.enum((*at, "spread"), m["spread"], "meld.spread")
        ranks, run = m["ranks"], m.get("run", 0)
        if bool(ranks) == bool(run):
            ck.err(at, f"the meld '{name}' needs either 'ranks' or 'run'"
                   + (", not both" if ranks else ""), key=True)
            continue
        ck.no_repeats(ranks, (*at, "ranks"), "rank")
        decks = [set(map(str, e["ranks"])) for e in tree["deck"]]
        missing = [r for r in ranks if not any(str(r) in d for d in decks)]
        if missing:
            ck.err((*at, "ranks", ranks.index(missing[0])),
                   f"the meld '{name}' can never be made: no deck has the rank "
                   f"{missing[0]}")
        if run and not any(run <= len(d) for d in decks):
            ck.err((*at, "run"), f"the meld '{name}' can never be made: no deck has "
                   f"{run} ranks")


#: The table of melds (a key of the top level).
MELDS: Home = Home(
    None, parts=(MELD,),
    grammar=GRAMMAR,
    entries=("meld",),
    builds={"meld": read_meld},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("melds", "names[meld]", "named combinations of cards (declared by a "
                "`declare_melds` step), see below", default={}, omitted=True,
                doc_type="map name → meld"),),
)

#: The step in which each player declares the melds of their hand.
DECLARE_MELDS_STEP: Construct = Construct(
    "declare_melds", "step", "each player declares the melds of their hand",
    body=(
        Field("show", "condition", "the declared cards are shown to every player", default=True),
        SOURCE,
    ),
    fields=(Field("for", "formula", "per-player condition: who declares", default="not out"),),
    schema_doc="Each player (`for`) declares the melds of the `melds` table in their hand: "
               "`meld_points` is what they score; with `show`, their cards become public.")

# ---------------------------------------------------------------- the declare_melds step

STEP_GRAMMAR = r"""
// every player (or those `for each player where …,` names) declares the melds of the table
declare_melds: for_each? "declare" "melds" melds_show? _end _attrs?
melds_show: "," "not" "shown"                               -> melds_hidden
          | "," "shown" "if" formula                        -> melds_shown_if
"""


def read_step(b: Builder, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Reads ``[for each player where …,] declare melds[, not shown | , shown if …]``."""
    body: dict[str, Any] = {}
    step["declare_melds"] = body
    b.mark((*path, "declare_melds"), st)
    for c in st.children:
        if is_node(c, "for_each"):
            value, node = (b.formula(c.children[0]), c.children[0]) if c.children \
                else ("true", c)
            b.put(step, (*path, "for"), value, node, "who declares")
        elif is_node(c, "melds_hidden"):
            b.put(body, (*path, "declare_melds", "show"), False, c, "whether melds are shown")
        elif is_node(c, "melds_shown_if"):
            f = c.children[0]
            b.put(body, (*path, "declare_melds", "show"), b.formula(f), f,
                  "whether melds are shown")
    b.attrs(st, step, path)


def write_step(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``[for each player where …,] declare melds[, not shown | , shown if …]``."""
    t.check(step, t.keys(DECLARE_MELDS_STEP), "in a declare_melds step")
    body = step["declare_melds"] or {}
    t.check(body, t.keys(DECLARE_MELDS_STEP, body=True), "in 'declare_melds'")
    head = ""
    each = step.get("for")
    if each is not None and t.formula(each) != "not out":
        head = ("for each player, " if t.formula(each) == "true"
                else f"for each player where {t.formula(each)}, ")
    show = body.get("show", True)
    tail = ("" if show is True else ", not shown" if show is False
            else f", shown if {t.formula(show)}")
    out.add(indent, f"{head}declare melds{tail}")
    out.attrs(indent + 1, step, "declare-melds")


def describe_step(ctx: Ctx, step: Mapping[str, Any], number: str,
                  sub: int) -> tuple[str, list[str], list[str]]:
    """Who declares, whether the cards are shown, what ``meld_points`` is."""
    body = step["declare_melds"]
    each = step.get("for", "not out")
    who = ("Each player still in" if each == "not out" else "Each player" if each in (True, "true")
           else f"Each player where {p.formula(each)}")
    show = body.get("show", True)
    shown = (" and shows their cards to all" if show is True else "" if show is False
             else f" and, when {p.formula(show)}, shows their cards to all")
    text = (f"{who}, from forehand, declares the melds their hand makes{shown}; "
            "`meld_points` is what they score.")
    return text, [], p.cite(body, sub)


def check_step(ck: Checker, path: tuple[Any, ...], step: dict[str, Any]) -> None:
    """A spec that declares melds has a table of them."""
    if not ck.tree.get("melds"):
        ck.err((*path, "declare_melds"), "there are no melds to declare: the spec has no "
               "'melds' table", key=True)


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """The melds table (each meld's spread and points), whose melds, and whether shown."""
    p = (*path, "declare_melds")
    table = c.tree.get("melds") or {}
    if not table:
        c.error(p, "there are no melds to declare: the spec has no 'melds' table")
    spreads = tuple(w.name for w in MELD.field("spread").words)
    for name, m in table.items():
        c.constant(m.get("spread", "one_suit"), ("melds", name, "spread"), spreads)
        c.number(m["points"], ("melds", name, "points"), True)
    each = step.get("for", "not out")
    if each != "not out":
        c.formula(each, (*path, "for"), True)
    c.constant(step["declare_melds"].get("show", True), (*p, "show"), (True, False))


DECLARE_MELDS: Home = Home(DECLARE_MELDS_STEP, grammar=STEP_GRAMMAR, builds={"declare_melds": read_step},
                     write=write_step, describe=describe_step, check=check_step,
                     compile_check=compile_check,
                     compile="spelbok.engine.melds:compile_declare_melds")
