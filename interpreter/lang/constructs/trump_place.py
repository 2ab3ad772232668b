"""A key of the ranking: where the top trumps stand among the trumps
(``top_trumps_place``): above the whole trump suit (``high``, the default) or below it
(``low``: the lowest trumps, still of the trump suit, beating every plain card).

A card that joins whichever suit is trump at the bottom of its order (a bird card as
the lowest trump) is a top trump placed low. The word may name an option whose
values are ``high`` and ``low``, so that a reading chooses the place. The engine plays
it: :func:`spelbok.engine.order.build_tables` gives a top trump placed low a power
below the trump suit's cards and above every plain card. This module gives the ranking
home its key, grammar, reading, writing, prose and check.

>>> [f.name for f in FIELDS], PLACES
(['top_trumps_place'], ('high', 'low'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Field, words_of

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["BUILDS", "ENTRIES", "FIELDS", "GRAMMAR", "PLACES", "check", "describe",
           "lead_in", "phrase", "write"]

FIELDS: tuple[Field, ...] = (
    Field("top_trumps_place", "word", "where the top trumps stand among the trumps (the word "
          "or an option whose values are these words)", default="high", omitted=True,
          words=words_of(("high", "above the whole trump suit"),
                         ("low", "below the whole trump suit: the lowest trumps, in their "
                                 "listed order, still above every card that is no trump"))),
)
#: The words, in order.
PLACES: tuple[str, ...] = tuple(w.name for w in FIELDS[0].words)

GRAMMAR = r"""
// where the top trumps stand among the trumps (ranking.top_trumps_place)
top_place: "top" "trumps" "rank" place_what _end _sources?
place_what: "above" "the" "trump" "suit"    -> place_high
          | "below" "the" "trump" "suit"    -> place_low
          | ":" word                        -> place_word
"""
#: Its grammar rules that are sections' statements.
ENTRIES: tuple[str, ...] = ("top_place",)


def read_top_place(b: Builder, st: Any) -> None:
    """Reads ``top trumps rank below the trump suit`` (or above it, or ``: <option>``)."""
    what = st.children[0]
    value = {"place_high": "high", "place_low": "low"}.get(what.data)
    if value is None:
        value = b.word(what.children[0])
    ranking = b.section("ranking", st)
    b.put(ranking, ("ranking", "top_trumps_place"), value, st, "the top trumps' place")
    b.citation(st, ranking, ("ranking",))


#: The reader of each of its grammar rules.
BUILDS = {"top_place": read_top_place}


def write(out: t.Out, ranking: Mapping[str, Any]) -> list[str]:
    """Its DSL line (none when the key is absent), which the ranking writes."""
    if "top_trumps_place" not in ranking:
        return []
    value = ranking["top_trumps_place"]
    return [{"high": "top trumps rank above the trump suit",
             "low": "top trumps rank below the trump suit"}.get(
                 str(value), f"top trumps rank: {t.word(value)}")]


def phrase(ctx: DescribeKit, ranking: Mapping[str, Any]) -> str:
    """Where the ranking's sentence on the top trumps puts them."""
    place, note = ctx.enum(ranking.get("top_trumps_place", "high"), PLACES)
    if place == "low":
        return f"below the whole trump suit, as its lowest cards{note}"
    return f"above the whole trump suit{note}"


def lead_in(ranking: Mapping[str, Any]) -> str:
    """How the sentence on the trump suit's order refers to the top trumps: the suit
    ranks below them, above them (placed low), or beside them (an option says)."""
    place = str(ranking.get("top_trumps_place", "high"))
    return {"high": "Below them", "low": "Above them"}.get(place, "Beside them")


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """Its sentence when the place is read from an option."""
    r = tree.get("ranking") or {}
    if str(r.get("top_trumps_place", "high")) in PLACES:
        return []
    return p.wrap("With 'high' the top trumps rank above the whole trump suit; with 'low' "
                  "below it, as its lowest cards, still beating every card that is no trump.")


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """The word, or an option whose values are the words."""
    ranking = tree["ranking"]
    if "top_trumps_place" in ranking:
        ck.enum(("ranking", "top_trumps_place"), ranking["top_trumps_place"],
                "ranking.top_trumps_place")
