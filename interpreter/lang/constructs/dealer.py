"""The dealer: who deals first, where the deal passes, whether it skips players out,
when the same dealer deals again (``stays``: a condition read as each hand ends), and
which seat deals the next hand (``next``: a number read as each hand ends).

>>> DECL.field("first").default, DECL.field("rotate").default.text
('cut_low', 'the play direction (`players.direction`)')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...errors import FormulaError
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field, words_of
from ..dsl_nodes import is_node
from .home import Home
from .players import direction_of

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..compile_checks import Typer
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["DEALER"]

DECL: Construct = Construct("dealer", "section", "first dealer, rotation", (
    Field("first", "first_dealer", "the first dealer", default="cut_low",
          words=words_of(("cut_low", "the lowest cut"), ("cut_high", "the highest cut"),
                         ("random", "a random seat"))),
    Field("rotate", "word", "where the deal passes", default=Derived("the play direction "
          "(`players.direction`)"),
          words=words_of(("left", "to the left"), ("right", "to the right"),
                         ("none", "it stays"))),
    Field("skip_out", "condition", "the deal skips eliminated players", default=True),
    Field("stays", "formula", "a condition read as each hand ends, after its steps (its "
          "variables as they stand, for no seat): while it holds the same dealer deals "
          "the next hand", default="false"),
    Field("next", "formula", "a number read as each hand ends, after its steps (for no "
          "seat), when the same dealer does not stay: the seat that deals the next hand "
          "(e.g. the holder of a called card); a value that is no seat still in the "
          "match (-1) lets the deal pass as `rotate` says", default="-1", omitted=True),
    SOURCE,
))

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
first_dealer: "first" "dealer" ":" first_what _end _sources?
first_what: "lowest" "cut"                  -> first_cut_low
          | "highest" "cut"                 -> first_cut_high
          | "random"                        -> first_random
          | "seat" INT                      -> first_seat
          | word                            -> first_word
rotation: "the" "deal" "passes" rotate_what ("," skip_phrase)? _end _sources?
rotation_none: "the" "deal" "does" "not" "pass" ("," skip_phrase)? _end _sources?
rotate_what: "to"? "the"? word
skip_phrase: "skipping" "players" "who" "are" "out" "if" formula     -> skip_if
           | "skipping" "players" "who" "are" "out"                  -> skip_yes
           | "not" "skipping" "players" "who" "are" "out"            -> skip_no
skipping_yes: "the" "deal" "skips" "players" "who" "are" "out" _end _sources?
skipping_no: "the" "deal" "does" "not" "skip" "players" "who" "are" "out" _end _sources?
dealer_stays: "the" "same" "dealer" "deals" "again" "after" "a" "hand" "if" formula _end _sources?
dealer_next: "the" "next" "hand" "is" "dealt" "by" "seat" formula _end _sources?
"""


def _put(b: Builder, st: Any, key: str, value: Any, node: Any = None) -> None:
    dealer = b.section("dealer", st)
    b.put(dealer, ("dealer", key), value, node if node is not None else st,
          f"the dealer's '{key}'")


def read_first_dealer(b: Builder, st: Any) -> None:
    """Reads ``first dealer: lowest cut`` (highest cut, random, seat N, a word)."""
    what = st.children[0]
    kind = what.data
    value: Any
    if kind == "first_seat":
        value = int(what.children[0])
    elif kind == "first_word":
        value = b.word(what.children[0])
    else:
        value = {"first_cut_low": "cut_low", "first_cut_high": "cut_high",
                 "first_random": "random"}[kind]
    _put(b, st, "first", value, what)
    b.citation(st, b.tree["dealer"], ("dealer",))


def _skip(b: Builder, st: Any) -> None:
    for c in st.children:
        if is_node(c, "skip_yes") or is_node(c, "skip_no"):
            _put(b, st, "skip_out", c.data == "skip_yes", c)
        elif is_node(c, "skip_if"):
            _put(b, st, "skip_out", b.formula(c.children[-1]), c)


def read_rotation(b: Builder, st: Any) -> None:
    """Reads ``the deal passes to the left[, skipping players who are out]``."""
    what = st.children[0]
    _put(b, st, "rotate", b.word(what.children[-1]), what)
    _skip(b, st)
    b.citation(st, b.tree["dealer"], ("dealer",))


def read_rotation_none(b: Builder, st: Any) -> None:
    """Reads ``the deal does not pass[, …]``."""
    _put(b, st, "rotate", "none")
    _skip(b, st)
    b.citation(st, b.tree["dealer"], ("dealer",))


def read_dealer_stays(b: Builder, st: Any) -> None:
    """Reads ``the same dealer deals again after a hand if <formula>``."""
    f = st.children[0]
    _put(b, st, "stays", b.formula(f), f)
    b.citation(st, b.tree["dealer"], ("dealer",))


def read_dealer_next(b: Builder, st: Any) -> None:
    """Reads ``the next hand is dealt by seat <formula>``."""
    f = st.children[0]
    _put(b, st, "next", b.formula(f), f)
    b.citation(st, b.tree["dealer"], ("dealer",))


def read_skipping_yes(b: Builder, st: Any) -> None:
    """Reads ``the deal skips players who are out``."""
    _put(b, st, "skip_out", True)
    b.citation(st, b.tree["dealer"], ("dealer",))


def read_skipping_no(b: Builder, st: Any) -> None:
    """Reads ``the deal does not skip players who are out``."""
    _put(b, st, "skip_out", False)
    b.citation(st, b.tree["dealer"], ("dealer",))


def _dealer(out: t.Out, dealer: Mapping[str, Any]) -> None:
    t.check(dealer, t.keys(DECL), "in 'dealer'")
    if not dealer:
        return
    out.blank()
    lines: list[str] = []
    if "first" in dealer:
        first = dealer["first"]
        if isinstance(first, int) and not isinstance(first, bool):
            what = f"seat {first}"
        else:
            what = {"cut_low": "lowest cut", "cut_high": "highest cut", "random": "random"}.get(
                str(first), t.word(first, ("lowest", "highest", "random", "seat"))
            )
        lines.append(f"first dealer: {what}")
    skip = dealer.get("skip_out")
    skip_phrase = (
        "" if skip is None else
        f", skipping players who are out if {skip}" if isinstance(skip, str) else
        ", skipping players who are out" if skip else ", not skipping players who are out"
    )
    if "rotate" in dealer:
        rotate = str(dealer["rotate"])
        if rotate == "none":
            lines.append("the deal does not pass" + skip_phrase)
        else:
            lines.append(f"the deal passes to the {t.word(rotate)}" + skip_phrase)
    elif skip is not None:
        lines.append(
            "the deal skips players who are out" if skip
            else "the deal does not skip players who are out"
        )
    if not lines:
        lines.append("first dealer: lowest cut")  # a dealer map with only a source
    stays = t.formula(dealer.get("stays", "false"))
    if stays != "false":
        lines.append(f"the same dealer deals again after a hand if {stays}")
    nxt = t.formula(dealer.get("next", "-1"))
    if nxt != "-1":
        lines.append(f"the next hand is dealt by seat {nxt}")
    out.add(0, lines[0])
    t.source(out, 1, dealer)
    for line in lines[1:]:
        out.add(0, line)


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The dealer's lines, its source under the first."""
    _dealer(out, tree.get("dealer") or {})


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Dealing": the first dealer, where the deal passes."""
    d = tree.get("dealer") or {}
    first = d.get("first", "cut_low")
    if first == "cut_low":
        text = "The players cut for the first deal: the lowest card deals (ties cut again)."
    elif first == "cut_high":
        text = "The players cut for the first deal: the highest card deals (ties cut again)."
    elif first == "random":
        text = "The first dealer is chosen at random."
    elif isinstance(first, int):
        text = f"Seat {first} deals first."
    else:
        value, note = ctx.enum(first, ("cut_low", "cut_high", "random"))
        text = f"The first dealer is chosen by {p.formula(first)}{note}."
    direction = direction_of(tree)
    rotate, note = ctx.enum(d.get("rotate", direction), ("left", "right", "none"))
    if rotate == "none":
        text += f" The same player deals every hand{note}."
    else:
        text += f" The deal then passes to the {rotate}{note}"
        text += ", skipping players who are out." if d.get("skip_out", True) else "."
    stays = d.get("stays", "false")
    if stays not in ("false", False):
        text += f" The same player deals again after a hand where {p.formula(stays)}."
    nxt = d.get("next", "-1")
    if nxt not in ("-1", -1):
        text += (f" The next hand is dealt by seat {p.formula(nxt)}, worked out as a hand "
                 "ends (the deal passes on as usual when it names no seat still in).")
    text += f" Forehand is the player to the dealer's {direction}."
    return ctx.title("Dealing") + p.wrap(text) + p.cite(d, 2)


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """The first dealer and the rotation are words (or options giving them); a first
    seat exists."""
    dealer = tree["dealer"]
    first = dealer["first"]
    ck.enum(("dealer", "first"), first, "dealer.first")
    lo = tree["players"]["min"]
    if isinstance(first, int) and not 0 <= first < lo:
        ck.err(
            ("dealer", "first"),
            f"seat {first} does not exist with {lo} players (seats are 0..{lo - 1})",
        )
    ck.enum(("dealer", "rotate"), dealer["rotate"], "dealer.rotate")


def compile_check(c: Typer, tree: dict[str, Any], path: tuple[Any, ...]) -> None:
    """``stays``: a condition read for no seat; ``next``: a number read for no seat."""
    stays = (tree.get("dealer") or {}).get("stays", "false")
    if stays not in ("false", False):
        c.condition(stays, (*path, "dealer", "stays"), False, "`kind == 'solo'`")
    nxt = (tree.get("dealer") or {}).get("next", "-1")
    if nxt not in ("-1", -1):
        c.number(nxt, (*path, "dealer", "next"), False)
        try:
            kind = c.typed(nxt, False).type
        except FormulaError:
            return  # already reported
        if kind not in ("int", "any"):
            c.error((*path, "dealer", "next"), "expected a seat number here (a number read "
                    f"as the hand ends), not a formula that gives {kind}")


DEALER: Home = Home(
    DECL,
    grammar=GRAMMAR,
    entries=("first_dealer", "rotation", "rotation_none", "skipping_yes", "skipping_no",
             "dealer_stays", "dealer_next"),
    builds={
        "first_dealer": read_first_dealer, "rotation": read_rotation,
        "rotation_none": read_rotation_none, "skipping_yes": read_skipping_yes,
        "skipping_no": read_skipping_no, "dealer_stays": read_dealer_stays,
        "dealer_next": read_dealer_next},
    write=write,
    describe=describe,
    check=check,
    compile_check=compile_check,
    keys=(Field("dealer", "dealer", "first dealer, rotation",
                default=Derived("its keys' defaults"), doc_type="map",
                doc_default="see below"),),
)
