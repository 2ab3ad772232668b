"""The dealer: who deals first, where the deal passes, whether it skips players out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field, words_of
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit

__all__ = ["DEALER"]

DECL = Construct("dealer", "section", "first dealer, rotation", (
    Field("first", "first_dealer", "the first dealer", default="cut_low",
          words=words_of(("cut_low", "the lowest cut"), ("cut_high", "the highest cut"),
                         ("random", "a random seat"))),
    Field("rotate", "word", "where the deal passes", default="left",
          words=words_of(("left", "to the left"), ("right", "to the right"),
                         ("none", "it stays"))),
    Field("skip_out", "condition", "the deal skips eliminated players", default=True),
    SOURCE,
))

# ---------------------------------------------------------------- DSL


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
    rotate, note = ctx.enum(d.get("rotate", "left"), ("left", "right", "none"))
    if rotate == "none":
        text += f" The same player deals every hand{note}."
    else:
        text += f" The deal then passes to the {rotate}{note}"
        text += ", skipping players who are out." if d.get("skip_out", True) else "."
    text += " Forehand is the player to the dealer's left."
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


DEALER = Home(
    DECL,
    write=write,
    describe=describe,
    check=check,
    keys=(Field("dealer", "dealer", "first dealer, rotation",
                default=Derived("its keys' defaults"), doc_type="map",
                doc_default="see below"),),
)
