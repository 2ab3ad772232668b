"""A trick-rule family of the ``tricks`` step: announcements a player may make at his
turn in a trick, before his card (``tricks.announce``, a list of the part
``announcement``: a side's call to raise the stakes, a handful of trumps shown).

An announcement is a word offered beside the cards while its condition holds for the
player to play; he may make any that are offered, several in turn, then plays his
card.  It may set variables (``then``), show cards of his hand to every seat
(``shows``), run steps at once in which others answer (``steps``), and end the tricks
step (``ends_tricks``).  One marked ``any_turn`` is offered to every player for whom its
condition holds, before each card of the trick, not only to the player to play: the
others are asked in turn after him, each may announce or ``pass`` (``AnyTurnPlay``).
The trick code plays them (``CardPlay``); this module gives the tricks home their key,
part, grammar, reading, writing, prose and checks.

>>> FIELD.name, ANNOUNCEMENT.name
('announce', 'announcement')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_node
from .shared import read_then

if TYPE_CHECKING:
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["ANNOUNCEMENT", "FIELD", "GRAMMAR", "compile_check", "describe", "read", "write"]

Path = tuple[Any, ...]

ANNOUNCEMENT: Construct = Construct("announcement", "part", "an announcement a player may make "
                                    "at his turn in a trick, before his card", (
    Field("word", "token", "its word, offered beside the cards (`double`, `call`)", required=True),
    Field("when", "formula", "offered to the player to play while this holds for him (read "
          "before each of his cards, and again after each announcement he makes)",
          default="true"),
    Field("then", "assignments", "assignments, evaluated for the announcer", default={}),
    Field("shows", "formula", "cards of his hand shown to every seat (a card set, e.g. "
          "`trumps(hand)`): known to all until played"),
    Field("steps", "steps", "steps run at once, after `then` (others may answer), before "
          "the announcer plays on", default=[]),
    Field("ends_tricks", "formula", "after it (and its steps), the tricks step ends at once "
          "when this holds: the trick in progress is abandoned", default="false"),
    Field("any_turn", "condition", "true: offered to every player for whom `when` holds "
          "before each card of the trick, not only to the player to play: the others "
          "are asked in turn after him, each may make it (and others offered) or say "
          "`pass`, once per card (fixed when the game loads: true, false or an option)",
          default=False),
    SOURCE,
), x_name="in an announcement")

#: The key of a tricks step that holds them.
FIELD: Field = Field("announce", "list[announcement]", "announcements a player may make at "
                     "his turn, before his card (a double, a raise, a shown hand), any of them, several "
                     "in turn", default=[], omitted=True)

GRAMMAR = r"""
// an announcement at a player's turn in a trick, before his card (tricks.announce)
announce: "announce" word ("when" formula)? _end _announce_details?
_announce_details: _INDENT (then_line | announce_shows | announce_steps | announce_ends | announce_any_turn | source_line)+ _DEDENT
announce_shows: "showing" formula _NL
announce_steps: "after" "it" ":" _NL _steps_block
announce_ends: "the" "tricks" "end" "if" formula _NL
// any_turn: every player may make it before each card, out of turn too
announce_any_turn: "any" "player" "may" "announce" "it" "before" "each" "card" cond? _NL
"""


def read(b: _Builder, node: Any, kind: str, tricks: dict[str, Any], tp: Path,
         verbs: list[Any]) -> None:
    """``announce WORD when …`` and its lines: one ``tricks.announce`` entry."""
    if "announce" not in tricks:
        b.put(tricks, (*tp, "announce"), [], node, "the announcements")
    entries = tricks["announce"]
    path = (*tp, "announce", len(entries))
    d: dict[str, Any] = {}
    entries.append(d)
    b.mark(path, node)
    word = node.children[0]
    b.put(d, (*path, "word"), b.word(word), word, "the word of this announcement")
    for c in node.children[1:]:
        if is_node(c, "formula"):
            b.put(d, (*path, "when"), b.formula(c), c, "the condition of an announcement")
        elif is_node(c, "then_line"):
            read_then(b, c, d, path)
        elif is_node(c, "announce_shows"):
            f = c.children[0]
            b.put(d, (*path, "shows"), b.formula(f), f, "the cards an announcement shows")
        elif is_node(c, "announce_ends"):
            f = c.children[0]
            b.put(d, (*path, "ends_tricks"), b.formula(f), f,
                  "when an announcement ends the tricks")
        elif is_node(c, "announce_any_turn"):
            b.put(d, (*path, "any_turn"), b.flag(True, c.children, c), c,
                  "whether an announcement may be made out of turn")
        elif is_node(c, "announce_steps"):
            b.put(d, (*path, "steps"), [], c, "the steps after an announcement")
            d["steps"] = b.steps(c.children, (*path, "steps"))
    b.citation(node, d, path)


def write(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """One ``announce`` line each, with its lines under it."""
    for d in tr.get("announce") or []:
        t.check(d, t.keys(ANNOUNCEMENT), "in an announcement")
        when = t.formula(d.get("when", "true"))
        out.add(ind, f"announce {t.word(d.get('word', ''), ('when',))}"
                + ("" if when == "true" else f" when {when}"))
        t.assignments(out, ind + 1, "then ", d.get("then") or {}, "then ")
        if d.get("shows") is not None:
            out.add(ind + 1, f"showing {t.formula(d['shows'])}")
        ends = t.formula(d.get("ends_tricks", "false"))
        if ends != "false":
            out.add(ind + 1, f"the tricks end if {ends}")
        if t.cond(d.get("any_turn", False)) is not False:
            t.flag(out, ind + 1, d["any_turn"], "any player may announce it before each card",
                   "")
        t.source(out, ind + 1, d)
        steps = list(d.get("steps") or [])
        if steps:
            out.add(ind + 1, "after it:")
            out.steps(ind + 2, steps)


def describe(ctx: _Ctx, tr: Mapping[str, Any], sub: int) -> list[str]:
    """A rule (and the steps it runs) for each announcement."""
    body: list[str] = []
    for d in tr.get("announce") or []:
        word, when = d.get("word", ""), d.get("when", "true")
        who = "a player" if when in ("true", True) else f"a player where {p.formula(when)}"
        any_turn = d.get("any_turn", False)
        if any_turn in (False, "false"):
            said = (f"At his turn in a trick, before his card, {who} may announce {word} "
                    f"(write: {word}); he may make any announcements offered, several in "
                    "turn, then plays")
        else:
            said = (f"Before each card of a trick, {who} may announce {word} (write: "
                    f"{word}), out of turn too"
                    + ("" if any_turn in (True, "true") else
                       f" if {p.formula(any_turn)} (else only at his turn)")
                    + ": the player to play may make it beside his card; before it the "
                    "others are asked in turn after him, each making any announcements "
                    "offered, several in turn, then saying pass (write: pass), once each "
                    "per card")
        then = d.get("then") or {}
        if then:
            said += "; it sets " + ", ".join(f"{k} = {p.formula(v)}" for k, v in then.items())
        shows = d.get("shows")
        if shows is not None:
            said += f"; it shows {p.formula(shows)} to every player (known until played)"
        ends = d.get("ends_tricks", "false")
        if ends not in ("false", False):
            said += (f"; then, when {p.formula(ends)}, the tricks end at once (the trick in "
                     "progress is abandoned)")
        body += p.wrap(said + ".", sub + 2, first=" " * sub + "- ")
        steps = d.get("steps") or []
        if steps:
            body.append(" " * (sub + 2) + f"After {word} is announced:")
            for i, s in enumerate(steps, 1):
                body += ctx.step_lines(s, f"{i}", sub + 4)
    return body


def compile_check(c: Typer, entries: list[Any], path: Path, taken: list[str]) -> None:
    """Each announcement's word (one of its own), its condition, what it sets and
    shows, when it ends the tricks, and its steps; one made out of turn (``any_turn``,
    fixed when the game loads) leaves the word ``pass`` to the seats asked."""
    out_of_turn: Path = ()
    for k, d in enumerate(entries):
        here = (*path, k)
        w = str(d.get("word", ""))
        if w in taken:
            c.error((*here, "word"), f"'{w}' is already a word of this tricks step: an "
                    "announcement needs a word of its own")
        taken.append(w)
        when = d.get("when", "true")
        if when not in (True, "true"):
            c.condition(when, (*here, "when"), True)
        c.assigns(d.get("then") or {}, (*here, "then"), True)
        shows = d.get("shows")
        if shows is not None:
            c.formula(shows, (*here, "shows"), True)
            try:
                kind = c.typed(shows, True).type
            except Exception:  # noqa: BLE001 - reported by formula()
                kind = "cards"
            if kind != "cards":
                c.error((*here, "shows"), "'shows' names cards of the announcer's hand: "
                        "a card set such as `trumps(hand)`, not a formula that gives "
                        f"{kind}", "e.g. shows: trumps(hand)")
        ends = d.get("ends_tricks", "false")
        if ends not in (False, "false"):
            c.condition(ends, (*here, "ends_tricks"), False)
        c.check_steps(d.get("steps") or [], (*here, "steps"))
        any_turn = d.get("any_turn", False)
        if any_turn not in (False, "false"):
            c.constant(any_turn, (*here, "any_turn"), (True, False))
            out_of_turn = here
    if out_of_turn and "pass" in taken:
        k = next((k for k, d in enumerate(entries) if str(d.get("word", "")) == "pass"), -1)
        c.error((*path, k, "word") if k >= 0 else (*out_of_turn, "any_turn"),
                "'pass' is the word of a player asked out of turn who announces nothing: "
                "it cannot be another word of this tricks step",
                "give the announcement (or the knock) another word")
