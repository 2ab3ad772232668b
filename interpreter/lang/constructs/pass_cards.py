"""The ``pass_cards`` step: each player passes cards to another, all at once.

>>> HOME.name, HOME.compile
('pass_cards', 'spelbok.engine.passing:compile_pass_cards')
>>> [w.name for w in DIRECTIONS]
['left', 'right', 'across', 'none']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, Word
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["DIRECTIONS", "HOME"]

#: Where passed cards go (``pass_cards.directions``).
DIRECTIONS: tuple[Word, ...] = (
    Word("left", "to the next player to the left"),
    Word("right", "to the next player to the right"),
    Word("across", "to the player opposite (an even number of players)"),
    Word("none", "nowhere: no cards are passed this hand"),
)

DECL: Construct = Construct("pass_cards", "step", "each player passes cards to another, all at once", body=(
    Field("count", "formula", "how many cards each player passes", required=True),
    Field("players", "formula", "who passes (per-player condition, read as the step "
          "starts): the others pass nothing, and receive only what is passed to them",
          default="not out",
          schema_doc="Who passes (a per-player condition, read as the step starts; "
                     "default every player still in): the others pass nothing and "
                     "receive only what is passed to them. The directions count among "
                     "all the players still in: with `across`, two partners "
                     "exchange cards while the other side passes nothing."),
    Field("directions", "list[word]", "where the cards go, one direction a hand in turn",
          default=["left"], min_items=1, words=DIRECTIONS,
          doc_type="list of words"),
    Field("by", "formula", "which direction this hand: its index in `directions` (counted "
          "from 0, modulo their number)", default="hand_number - 1"),
    SOURCE,
), schema_doc="Each player still in chooses `count` cards and passes them in this hand's "
              "direction; nobody sees what they receive until all have passed.")

_BY_DEFAULT = DECL.field("by").default

GRAMMAR = r"""
// pass cards before play: "each player passes 3 cards left, right, across or none by hand_number - 1"
// (one direction a hand, in turn: the one `by` counts to, from 0)
pass_cards: "each" "player" pass_who? "passes" formula ("card" | "cards") pass_to (("," | "or") pass_to)* pass_by? _end _attrs?
pass_to: word
pass_who: "where" formula
pass_by: "by" formula
"""


def build(b: _Builder, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Reads ``each player passes N cards left, right … by …``."""
    passing: dict[str, Any] = {}
    step["pass_cards"] = passing
    pp = (*path, "pass_cards")
    b.mark(pp, st)
    for c in st.children:
        if is_node(c, "pass_who"):
            f = c.children[0]
            passing["players"] = b.formula(f)
            b.mark((*pp, "players"), f)
    count = next(c for c in st.children if is_node(c, "formula"))
    passing["count"] = b.formula(count, "count")
    b.mark((*pp, "count"), count)
    dirs = [c for c in st.children if is_node(c, "pass_to")]
    passing["directions"] = [b.word(c.children[0]) for c in dirs]
    b.mark_items((*pp, "directions"), dirs)
    for c in st.children:
        if is_node(c, "pass_by"):
            f = c.children[0]
            passing["by"] = b.formula(f)
            b.mark((*pp, "by"), f)
    b.attrs(st, step, path)


def write(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``each player passes N cards left, right, across or none by FORMULA``."""
    t.check(step, t.keys(DECL), "in a pass_cards step")
    body = step["pass_cards"] or {}
    t.check(body, t.keys(DECL, body=True), "in 'pass_cards'")
    dirs = [t.word(d, ("or", "by")) for d in body.get("directions") or ["left"]]
    who = t.formula(body.get("players", "not out"))
    line = ("each player" + ("" if who == "not out" else f" where {who}")
            + f" passes {t.cards(body.get('count', 0))} ") + (
        ", ".join(dirs[:-1]) + " or " + dirs[-1] if len(dirs) > 1 else dirs[0])
    by = body.get("by")
    if by is not None and t.formula(by) != _BY_DEFAULT:
        line += f" by {t.formula(by)}"
    out.add(indent, line)
    out.attrs(indent + 1, step, "pass-cards")


_PASS_TO = {"left": "to the player on their left", "right": "to the player on their right",
            "across": "to the player opposite", "none": ""}


def describe(ctx: _Ctx, step: Mapping[str, Any], number: str,
             sub: int) -> tuple[str, list[str], list[str]]:
    """``Each player passes N cards to the player on their left``, or in turn by hand."""
    u = step["pass_cards"]
    count = str(u.get("count", 0))
    what = (f"{count} card{'' if count == '1' else 's'}" if count.isdigit()
            else f"{p.formula(count)} cards")
    dirs = []
    for d in u.get("directions") or ["left"]:
        word, note = ctx.enum(d, _PASS_TO)
        dirs.append((_PASS_TO.get(str(word)) or "no cards are passed") + note)
    if len(dirs) == 1:
        text = f"Each player passes {what} {dirs[0]}."
        if dirs[0].startswith("no cards"):
            text = "No cards are passed."
    else:
        by = p.formula(u.get("by", "hand_number - 1"))
        text = (f"Each player passes {what}, in turn by {by} (counting from 0): "
                + "; ".join(f"{i}: {d}" for i, d in enumerate(dirs)) + ".")
    who = u.get("players", "not out")
    if who != "not out":
        text = (f"Only the players where {p.formula(who)} pass (as the step starts): "
                + text[0].lower() + text[1:] + " The others pass nothing.")
    text += " Players choose their cards before receiving any."
    return text, [], p.cite(u, sub)


def check(chk: _Checker, path: tuple[Any, ...], step: dict[str, Any]) -> None:
    """Directions that exist; ``across`` only among an even number of players (unless
    a condition switches the step on: it may be meant for some player counts only, and
    the compiler judges it at each count it loads)."""
    guarded = step.get("when", "true") != "true" or any(
        k in ("then", "else", "all_pass") for k in path if isinstance(k, str))
    here = (*path, "pass_cards")
    dirs = step["pass_cards"]["directions"]
    for i, d in enumerate(dirs):
        chk.enum((*here, "directions", i), d, "pass_cards.directions")
    lo, hi = chk.tree["players"]["min"], chk.tree["players"]["max"]
    odd = [k for k in range(lo, hi + 1) if k % 2]
    if "across" in dirs and odd and not guarded:
        chk.err((*here, "directions", dirs.index("across")),
                f"cards cannot be passed across among {odd[0]} players: 'across' needs "
                "an even number (limit 'players' to even counts)")


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """The directions (``across`` among an even number of players), the hand's number
    that picks one, and how many cards."""
    t = step["pass_cards"]
    p = (*path, "pass_cards")
    words = tuple(w.name for w in DECL.field("directions").words)
    directions = [c.constant(d, (*p, "directions", i), words)
                  for i, d in enumerate(t.get("directions", ["left"]))]
    if "across" in directions and c.n % 2 and not c.dead:
        c.error((*p, "directions"), f"cards cannot be passed across among {c.n} "
                "players: 'across' needs an even number")
    c.number(t.get("by", "hand_number - 1"), (*p, "by"), False)
    c.number(t["count"], (*p, "count"), True)
    if t.get("players", "not out") != "not out":
        c.condition(t["players"], (*p, "players"), True, "`team == 0`")


HOME: Home = Home(DECL, grammar=GRAMMAR, builds={"pass_cards": build}, write=write, describe=describe,
            compile_check=compile_check,
            check=check, compile="spelbok.engine.passing:compile_pass_cards",
            code_parts=("start", "pass"))
