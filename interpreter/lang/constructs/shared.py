"""What several steps share: the per-player ``for``, the zones, who decides or leads
(``who_map`` and the who words), the levels of an ordered ``allow``.

Each piece is written once here (its declaration, its grammar, its reading, writing and
prose) and the steps' homes use it.

>>> [w.name for w in ZONES][:3], write_zone("turn_up"), write_zone("pile")
(['hand', 'widow', 'stock'], 'the turn-up', 'zone pile')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Construct, Field, Word, words_of
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..dsl_build import _Builder

__all__ = ["ALLOW_LEVEL", "FOR", "HOMES", "check_for", "LEADER_WORDS", "WHO_MAP", "WHO_WORDS", "ZONES",
           "describe_levels", "describe_who", "read_allow_else", "read_then", "read_who", "read_zone",
           "write_allow", "write_who", "write_zone"]

#: The per-player ``for`` of a step (``set``, ``move``).
FOR: Field = Field("for", "formula", "per-player condition: applied to each player from forehand")

#: Words a newcomer writes in ``for`` to mean every player (its condition is ``true``).
_EVERY_WORDS = frozenset({"all", "every", "everyone", "everybody", "each"})


def check_for(chk: _Checker, path: tuple[Any, ...], step: Mapping[str, Any]) -> None:
    """A ``for`` that is a bare word for every player (``for: all``), when the spec names
    nothing so, is an error that says the condition to write: ``for: "true"``."""
    word = step.get("for")
    if not isinstance(word, str) or word.strip() not in _EVERY_WORDS:
        return
    word = word.strip()
    declared = {n for scope in (chk.tree.get("variables") or {}).values()
                if isinstance(scope, dict) for n in scope}
    if word in declared or word in chk.options and word not in chk.RESERVED:
        return
    chk.err((*path, "for"), f"'for' is a condition each player must meet, and '{word}' names "
            "no value: for every player the condition is true", 'for: "true"')

#: The zones cards may be in (``move.from``, ``move.to``, an exchange's ``draw_from``).
ZONES: tuple[Word, ...] = (
    Word("hand", "the hand of the player a `for` names"),
    Word("widow", "the spare hand a deal's `widow` fills"),
    Word("stock", "the cards not dealt (the talon), hidden"),
    Word("turn_up", "the public turn-up zone"),
    Word("discards", "the hidden discard pile"),
    Word("laid_aside", "the cards the player a `for` names laid away face down (his "
         "`discarded`, seen by him alone)"),
)

#: How the DSL writes a zone (``zone WORD`` for another word).
_ZONE_TEXT = {"stock": "the stock", "turn_up": "the turn-up", "widow": "the widow",
              "hand": "the hand", "discards": "the discards"}


def read_zone(b: _Builder, node: Any) -> str:
    """A zone's name: ``the stock`` -> ``stock``, ``zone WORD`` -> the word."""
    if node.data == "zone_word":
        return b.word(node.children[0])
    return str(node.data[len("zone_"):])


def write_zone(zone: Any) -> str:
    """A zone as the DSL writes it."""
    return _ZONE_TEXT.get(str(zone), f"zone {t.word(zone)}")


# ------------------------------------------------------------------------------ who

#: Who decides (``decide.who``): these words, or a ``who_map``.
WHO_WORDS = words_of(("dealer", "the dealer"), ("forehand", "the player left of the dealer"),
                     ("each", "every player in turn, from forehand"),
                     ("last_winner", "the winner of the last trick"))
#: Who leads (``tricks.leader``): a single player.
LEADER_WORDS = tuple(w for w in WHO_WORDS if w.name != "each")

WHO_MAP: Construct = Construct("who_map", "part", "the player with the most of a formula", (
    Field("most", "formula", "the per-player number to have most of", required=True),
    Field("ties", "word", "who wins a tie", default="forehand",
          words=words_of(("cut", "a cut decides"), ("forehand", "the first from forehand"))),
), x_name="in '{key}'",
    schema_doc="The player with the most of `most` (ties: cut | forehand).")

WHO_GRAMMAR = r"""
// who decides (a decision) or leads (tricks): one player, or each player in turn
who: "each" "player" ("where" formula)?                     -> who_each
   | _single
   | "the" "first" "player" "from" _single "where" formula  -> who_first
_single: who_dealer | who_forehand | who_last_winner | who_most | who_text
who_dealer: "the"? "dealer"
who_forehand: "forehand"
who_last_winner: "the" "last" "winner"
who_most: "the" "player" "with" "the" "most" formula ("," "ties" "broken"? "by" word ","?)?
who_text: TEXT
"""

_WHO_RULES = {"who_dealer": "dealer", "who_forehand": "forehand",
              "who_last_winner": "last_winner"}


def read_who(b: _Builder, node: Any, step: dict[str, Any], path: tuple[Any, ...], key: str,
             where_key: str) -> None:
    """Reads a ``who`` phrase into ``step[key]`` (and its condition into ``where_key``)."""
    kind = node.data
    if kind == "who":
        node = node.children[0]
        kind = node.data
    if kind == "who_each":
        step[key] = "each"
        b.mark((*path, key), node)
        if node.children:
            f = node.children[0]
            step[where_key] = b.formula(f)
            b.mark((*path, where_key), f)
        return
    if kind == "who_first":
        read_who(b, node.children[0], step, path, key, where_key)
        f = node.children[1]
        step[where_key] = b.formula(f)
        b.mark((*path, where_key), f)
        return
    b.mark((*path, key), node)
    if kind in _WHO_RULES:
        step[key] = _WHO_RULES[kind]
    elif kind == "who_text":
        step[key] = b.string(node.children[0])
    else:  # who_most
        most: dict[str, Any] = {"most": b.formula(node.children[0])}
        b.mark((*path, key, "most"), node.children[0])
        if len(node.children) > 1:
            most["ties"] = b.word(node.children[1])
            b.mark((*path, key, "ties"), node.children[1])
        step[key] = most


def _single_who(who: Any, more: bool) -> str:
    """One player; ``more``: words follow (a comma then closes the ties phrase)."""
    if isinstance(who, Mapping):
        t.check(who, t.keys(WHO_MAP), "in a 'most' player choice")
        text = f"the player with the most {t.formula(who.get('most', '0'))}"
        ties = who.get("ties")
        if ties is not None and str(ties) != "forehand":
            text += f", ties broken by {t.word(ties)}" + ("," if more else "")
        return text
    if who == "dealer":
        return "the dealer"
    if who == "forehand":
        return "forehand"
    if who == "last_winner":
        return "the last winner"
    return t.quote(str(who))


def write_who(who: Any, where: Any, more: bool) -> str:
    """A ``who`` phrase as the DSL writes it; ``more``: words follow it."""
    cond = None if where is None or t.formula(where) == "true" else t.formula(where)
    if who == "each":
        return "each player" + (f" where {cond}" if cond else "")
    if cond:
        return f"the first player from {_single_who(who, True)} where {cond}"
    return _single_who(who, more)


def describe_who(who: Any, where: Any, single: bool) -> str:
    """Who, in prose (``single``: one player, the first from ``who`` meeting ``where``)."""
    cond = where not in (None, "true", True)
    if isinstance(who, Mapping):
        ties = "cut for it" if who.get("ties", "forehand") == "cut" else \
            "the first of them from forehand"
        text = f"the player with the highest {p.formula(who.get('most'))}"
        if cond:
            text += f" among those where {p.formula(where)}"
        return text + f" (on a tie, {ties})"
    if who == "each":
        text = "each player in turn from forehand"
        return text + (f", among those where {p.formula(where)}," if cond else "")
    base = {"dealer": "the dealer", "forehand": "forehand",
            "last_winner": "the winner of the last trick"}.get(str(who), p.formula(who))
    if cond and single:
        start = "the dealer" if who == "dealer" else "forehand"
        return f"the first player from {start} (round to the left) where {p.formula(where)}"
    return base


# ------------------------------------------------------------------------------ allow levels

ALLOW_LEVEL: Construct = Construct("allow_level", "part", "one level of an ordered `allow`", (
    Field("if", "formula", "the condition on each candidate", required=True),
    Field("reason", "text", "the message for a candidate outside this level, when it decides"),
), x_name="in an allow level",
    schema_doc="One level of an ordered allow: the first level whose condition admits a "
               "candidate decides; its reason answers a refused one.")


def read_allow_else(b: _Builder, owner: dict[str, Any], path: tuple[Any, ...], node: Any,
                    first: str) -> None:
    """An ``else …`` line: the next level of the ``allow`` the lines above began.

    The first such line turns the ``allow`` (and its ``reason``) into the list of
    levels, with their positions."""
    allow = owner.get("allow")
    if allow is None:
        raise b.fail(f"an 'else' level follows the line '{first} …' it goes on", node)
    here = (*path, "allow")
    if not isinstance(allow, list):
        level: dict[str, Any] = {"if": allow}
        b.pos[(*here, 0)] = b.pos[(*here, 0, "if")] = b.pos[here]
        if "reason" in owner:
            level["reason"] = owner.pop("reason")
            b.pos[(*here, 0, "reason")] = b.pos.pop((*path, "reason"))
        allow = owner["allow"] = [level]
    f, *why = node.children
    i = len(allow)
    level = {"if": b.formula(f)}
    b.mark((*here, i), node)
    b.mark((*here, i, "if"), f)
    for tok in why:
        level["reason"] = b.string(tok)
        b.mark((*here, i, "reason"), tok)
    allow.append(level)


def write_allow(out: t.Out, indent: int, owner: Mapping[str, Any], first: str,
                more: str) -> None:
    """The lines of an ``allow`` (and its ``reason``): one condition, or its levels in order,
    each with ``, otherwise "reason"`` when it gives one."""
    allow = owner.get("allow")
    reason = owner.get("reason")
    if isinstance(allow, list):
        if reason is not None:
            raise ValueError("to_dsl: with 'allow' levels, each level gives its own 'reason'")
        for i, level in enumerate(allow):
            t.check(level, t.keys(ALLOW_LEVEL), "in an allow level")
            _allow_line(out, indent, more if i else first, level.get("if", "true"),
                        level.get("reason"))
    elif (allow is not None and t.cond(allow) is not True) or reason is not None:
        _allow_line(out, indent, first, allow if allow is not None else "true", reason)


def _allow_line(out: t.Out, indent: int, head: str, cond: Any, reason: Any) -> None:
    out.add(indent, f"{head} {t.formula(cond)}"
            + (f", otherwise {t.quote(str(reason))}" if reason is not None else ""))


def describe_levels(levels: list[Any], what: str) -> str:
    """The levels of an ordered ``allow``, as prose: each tried when those before admit
    no candidate."""
    parts = []
    for i, level in enumerate(levels):
        cond = level.get("if", "true") if isinstance(level, Mapping) else "true"
        why = level.get("reason") if isinstance(level, Mapping) else None
        parts.append(("" if i == 0 else "else ") + p.formula(cond)
                     + (f' (a {what} refused is answered "{why}")' if why else ""))
    return "; ".join(parts)


def read_then(b: _Builder, node: Any, owner: dict[str, Any], path: tuple[Any, ...]) -> None:
    """A ``then a = …, b = …`` line: its assignments added to ``owner["then"]``."""
    then = owner.setdefault("then", {})
    if len(then) == 0:
        b.mark((*path, "then"), node)
    b.assigns(node.children, then, (*path, "then"))


#: The shared parts' homes (the registry's PART_HOMES).
HOMES: tuple[Home, ...] = (Home(WHO_MAP, grammar=WHO_GRAMMAR),
                           Home(ALLOW_LEVEL))
