"""A trick-rule family of the ``tricks`` step: face-down plays (``face_down``,
``face_down_word``, ``face_down_as``, ``face_down_shown``).

The trick code plays them (``CardPlay``); views hide them (``observe.view``).  This module
gives the tricks home their keys, grammar, reading, writing and prose.

>>> [f.name for f in FIELDS]
['face_down', 'face_down_word', 'face_down_as', 'face_down_shown']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Field, words_of
from ..dsl_nodes import cond_at, is_node

if TYPE_CHECKING:
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["FIELDS", "GRAMMAR", "READERS", "describe", "write"]

Path = tuple[Any, ...]
_w = words_of

FIELDS: tuple[Field, ...] = (
    Field("face_down", "formula", "per-player condition, read at each play: may play a "
          "card of the hand face down (notation `down 7H`)", default="false", omitted=True),
    Field("face_down_word", "word", "the word of a face-down play", default="down",
          omitted=True),
    Field("face_down_as", "word", "what a face-down card counts as", default="lowest_trump",
          omitted=True,
          words=_w(("lowest_trump", "a trump below every other (no suit while there is no "
                                    "trump)"),
                   ("no_suit", "a card of no suit: it never wins; led, it leaves the suit "
                               "led to the next card"))),
    Field("face_down_shown", "condition", "a face-down card is shown when its trick ends "
          "(false: it stays hidden from the other seats)", default=True, omitted=True),
)
_AS: tuple[str, ...] = tuple(w.name for w in FIELDS[2].words)

GRAMMAR = r"""
// face-down plays (tricks.face_down, face_down_word, face_down_as, face_down_shown)
face_down: "cards" "may" "be" "played" "face" "down" ("," "written" word)? cond? _NL
face_down_as: "a" "face-down" "card" "counts" "as" "the" "lowest" "trump" _NL   -> down_lowest
            | "a" "face-down" "card" "counts" "as" "no" "suit" _NL            -> down_no_suit
            | "a" "face-down" "card" "counts" "as" ":" word _NL               -> down_as_word
face_down_shown: "a" "face-down" "card" "is" "shown" "when" "its" "trick" "ends" cond? _NL -> down_shown
               | "a" "face-down" "card" "stays" "hidden" _NL                               -> down_hidden
"""


def _read_face_down(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
                    verbs: list[Any]) -> None:
    conds = [x for x in c.children if is_node(x, "cond")]
    value = b.formula(conds[0].children[0]) if conds else "true"
    b.put(tricks, (*tp, "face_down"), value, cond_at(c.children, c),
          "the rule on face-down plays")
    for w in c.children:
        if is_node(w, "word"):
            b.put(tricks, (*tp, "face_down_word"), b.word(w), w, "the word of a face-down play")


def _read_as(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
             verbs: list[Any]) -> None:
    value = ("lowest_trump" if kind == "down_lowest" else "no_suit" if kind == "down_no_suit"
             else b.word(c.children[0]))
    b.put(tricks, (*tp, "face_down_as"), value, c, "what a face-down card counts as")


def _read_shown(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
                verbs: list[Any]) -> None:
    b.put(tricks, (*tp, "face_down_shown"), b.flag(kind == "down_shown", c.children, c),
          cond_at(c.children, c), "whether a face-down card is shown")


#: The reader of each of its lines, by grammar rule (the tricks home's reader calls them).
READERS: dict[str, Callable[..., None]] = {
    "face_down": _read_face_down,
    "down_lowest": _read_as, "down_no_suit": _read_as, "down_as_word": _read_as,
    "down_shown": _read_shown, "down_hidden": _read_shown,
}


def write(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """Its lines, where they differ from the defaults."""
    down = t.formula(tr.get("face_down", "false"))
    down_word = tr.get("face_down_word", "down")
    if down != "false" or down_word != "down":
        out.add(ind, "cards may be played face down"
                + ("" if down_word == "down" else f", written {t.word(down_word, ('if',))}")
                + ("" if down == "true" else f" if {down}"))
    down_as = tr.get("face_down_as", "lowest_trump")
    if down_as != "lowest_trump":
        out.add(ind, "a face-down card counts as " + (
            "no suit" if down_as == "no_suit" else f": {t.word(down_as)}"))
    if "face_down_shown" in tr and t.cond(tr["face_down_shown"]) is not True:
        t.flag(out, ind, tr["face_down_shown"], "a face-down card is shown when its trick ends",
              "a face-down card stays hidden")


def describe(ctx: _Ctx, tr: Mapping[str, Any]) -> list[str]:
    """Its sentence (none when no card may be played face down)."""
    rules: list[str] = []
    down = tr.get("face_down", "false")
    if down not in ("false", False):
        who = "A player" if down in ("true", True) else f"A player where {p.formula(down)}"
        down_as, as_note = ctx.enum(tr.get("face_down_as", "lowest_trump"),
                                    _AS)
        counts = ("the lowest trump (of no suit while there is no trump)"
                  if down_as == "lowest_trump" else "a card of no suit, which never wins")
        shown = tr.get("face_down_shown", True)
        seen = ("the others see it when the trick ends" if shown is True else
                "it stays hidden from the others" if shown is False else
                f"the others see it when the trick ends if {p.formula(shown)}")
        rules.append(f"{who} may play a card face down (write: "
                     f"{tr.get('face_down_word', 'down')} 7H); it counts as {counts}{as_note}, "
                     f"and {seen}.")
    return rules
