"""The ``move`` step: move cards between zones (hand, widow, stock, turn-up, discards).

>>> HOME.name, HOME.compile, POSITIONS
('move', 'spelbok.engine.stock:compile_move', ('shuffled', 'top', 'bottom'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from .home import Home
from .shared import FOR, ZONES, check_for, read_zone, write_zone

if TYPE_CHECKING:
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["HOME", "POSITIONS"]

DECL: Construct = Construct("move", "step", "move cards between zones", body=(
    Field("from", "word", "the zone cards come from", default="stock", words=ZONES),
    Field("to", "word", "the zone they go to", default="hand", words=ZONES),
    Field("count", "count", "how many cards", default="all"),
    Field("position", "word", "where cards moved to the stock go", default="shuffled",
          omitted=True,
          words=words_of(("shuffled", "shuffled into it"), ("top", "on top"),
                         ("bottom", "at the bottom")),
          schema_doc="Where cards moved to the stock go: shuffled (the default), top or "
                     "bottom."),
    Field("face_up", "condition", "the cards move face up: every seat sees them (known in "
          "the hand they go to)", default="false", omitted=True),
    SOURCE,
), fields=(FOR,),
    schema_doc="Move cards between zones: hand, widow, stock, turn_up, discards, laid_aside.")

#: Where cards moved to the stock may go, the default first.
POSITIONS: tuple[str, ...] = tuple(w.name for w in DECL.field("position").words)

GRAMMAR = r"""
// move cards between zones: "move 1 card from the turn-up to the hand of each player where …",
// or "for each player where …, move all cards from the widow to the hand"
move: for_each? "move" move_count "from" zone move_whose? "to" zone move_whose? move_place? move_face_up? _end _attrs?
// the cards move face up: every seat sees them
move_face_up: "," "face" "up" ("if" formula)?
move_count: ALL_CARDS                                       -> move_all
          | formula ("card" | "cards")                      -> move_some
move_whose: "of" "each" "player" ("where" formula)?
// where cards moved to the stock go (shuffled in, unless the spec says otherwise)
move_place: "," "shuffled" "in"                             -> place_shuffled
          | "," "on" "top"                                  -> place_top
          | "," "at" "the" "bottom"                         -> place_bottom
          | "," "placed" ":" word                           -> place_word
"""

# where a move puts cards in the stock ('' : the option named by a word)
_PLACES = {"place_shuffled": "shuffled", "place_top": "top", "place_bottom": "bottom",
           "place_word": ""}


def build(b: _Builder, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Reads a ``move`` line."""
    move: dict[str, Any] = {}
    step["move"] = move
    mp = (*path, "move")
    b.mark(mp, st)
    zones = iter(("from", "to"))
    for c in st.children:
        kind = getattr(c, "data", None)
        if kind == "move_all":
            move["count"] = "all"
            b.mark((*mp, "count"), c)
        elif kind == "move_some":
            f = c.children[0]
            move["count"] = b.formula(f, "count")
            b.mark((*mp, "count"), f)
        elif kind is not None and kind.startswith("zone_"):
            key = next(zones)
            move[key] = read_zone(b, c)
            b.mark((*mp, key), c)
        elif kind in ("for_each", "move_whose"):
            if c.children:
                value, node = b.formula(c.children[0]), c.children[0]
            else:
                value, node = "true", c
            b.put(step, (*path, "for"), value, node, "whose hand ('of each player')")
        elif kind == "move_face_up":
            move["face_up"] = b.formula(c.children[0]) if c.children else True
            b.mark((*mp, "face_up"), c)
        elif kind in _PLACES:
            move["position"] = _PLACES[kind] or b.word(c.children[0])
            b.mark((*mp, "position"), c)
    for key in ("from", "to", "count", "position", "face_up"):  # the order of the YAML surface
        if key in move:
            move[key] = move.pop(key)
    b.attrs(st, step, path)


def write(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``move N cards from ZONE to ZONE``; whose hand: ``the hand of each player where …``."""
    t.check(step, t.keys(DECL), "in a move step")
    body = step["move"] or {}
    t.check(body, t.keys(DECL, body=True), "in 'move'")
    count = body.get("count", "all")
    what = "all cards" if count == "all" else t.cards(count)
    source, target = write_zone(body.get("from", "stock")), write_zone(body.get("to", "hand"))
    head = ""
    if "for" in step:
        cond = t.formula(step["for"])
        whose = "of each player" + ("" if cond == "true" else f" where {cond}")
        if body.get("from", "stock") == "hand":
            source += " " + whose
        elif body.get("to", "hand") == "hand":
            target += " " + whose
        else:
            head = "for each player, " if cond == "true" else f"for each player where {cond}, "
    position = body.get("position", POSITIONS[0])
    place = {"shuffled": "", "top": ", on top", "bottom": ", at the bottom"}.get(
        position, f", placed: {t.word(position)}")
    face = body.get("face_up", False)
    if face not in (False, "false"):
        place += ", face up" if face in (True, "true") else f", face up if {t.formula(face)}"
    out.add(indent, f"{head}move {what} from {source} to {target}{place}")
    out.attrs(indent + 1, step, "move")


def describe(ctx: _Ctx, step: Mapping[str, Any], number: str,
             sub: int) -> tuple[str, list[str], list[str]]:
    """``Move N cards from … to …``."""
    m = step["move"]
    zone = {"hand": "the hand", "widow": "the widow", "stock": "the stock",
            "turn_up": "the turn-up", "discards": "the discard pile",
            "laid_aside": "the cards laid aside"}
    count = str(m.get("count", "all"))
    what = ("all cards" if count == "all" else
            f"{count} card{'' if count == '1' else 's'}" if count.isdigit() else
            f"{p.formula(count)} cards")
    each = step.get("for")
    whose = "" if each is None else (
        " of each player" if each in ("true", True) else f" of each player where {p.formula(each)}")
    src = zone.get(str(m.get("from")), str(m.get("from")))
    dst = zone.get(str(m.get("to")), str(m.get("to")))
    if m.get("from") in ("hand", "laid_aside"):
        src += whose
    elif m.get("to") == "hand":
        dst += whose
    place = ""
    if m.get("to") == "stock":
        position, pnote = ctx.enum(m.get("position", POSITIONS[0]), POSITIONS)
        place = {"shuffled": ", shuffled into it", "top": ", on top",
                 "bottom": ", at the bottom"}.get(position, "") + pnote
    face = m.get("face_up", False)
    if face not in (False, "false"):
        place += ", face up (every player sees them)" if face in (True, "true") else (
            f", face up when {p.formula(face)}")
    text = f"Move {what} from {src} to {dst}{place}."
    return text, [], p.cite(m, sub)


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """The zones (a hand needs ``for``), the count, and where cards go in the stock."""
    m = step["move"]
    p = (*path, "move")
    zones = tuple(w.name for w in ZONES)
    source = c.constant(m.get("from", "stock"), (*p, "from"), zones)
    target = c.constant(m.get("to", "hand"), (*p, "to"), zones)
    each = step.get("for")
    if ("hand" in (source, target) or "laid_aside" in (source, target)) and each is None:
        c.error(p, "moving cards from or to a hand or a player's laid-aside cards needs "
                "'for:' (whose)")
    c.constant(m.get("face_up", False), (*p, "face_up"), (True, False))
    if m.get("count", "all") != "all":
        c.formula(m["count"], (*p, "count"), each is not None)
    if each is not None:
        c.formula(each, (*path, "for"), True)
    positions = tuple(w.name for w in DECL.field("position").words)
    c.constant(m.get("position", positions[0]), (*p, "position"), positions)
    if "position" in m and target != "stock":
        c.error((*p, "position"), "'position' says where cards go in the stock: "
                "it needs 'to: stock'")


HOME: Home = Home(DECL, grammar=GRAMMAR, builds={"move": build}, write=write, describe=describe,
                  compile_check=compile_check,
                  check=check_for, compile="spelbok.engine.stock:compile_move")
