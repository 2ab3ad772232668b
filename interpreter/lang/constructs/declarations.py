"""A trick-rule family of the ``tricks`` step: declarations attached to a card play
(``tricks.declare``, a list of the part ``declaration``: a marriage, a demand on the next
player).

The trick code plays them (``CardPlay``).  This module gives the tricks home their key,
part, grammar, reading, writing and prose.

>>> FIELD.name, DECLARATION.name
('declare', 'declaration')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from ..dsl_nodes import is_node
from .shared import read_then

if TYPE_CHECKING:
    from ..dsl_build import _Builder

__all__ = ["DECLARATION", "FIELD", "GRAMMAR", "describe", "read", "write"]

Path = tuple[Any, ...]

DECLARATION: Construct = Construct("declaration", "part", "a declaration attached to a card play", (
    Field("word", "token", "its word; the notation joins the card played with it: "
          "`marriage KH`", required=True),
    Field("when", "formula", "the condition on the card played with it (the names of a "
          "card, as in `allow`, and the player's `hand`)", default="true"),
    Field("then", "assignments", "assignments, evaluated for the declarer (the card in "
          "`card`) before the card is played", default={}),
    Field("binds", "formula", "a condition on each card of the next player to the trick (or "
          "of every later one, `bound: rest`): he must play a card it admits, if he can, a "
          "free card too", default="true"),
    Field("bound", "word", "whom `binds` binds", default="next",
          words=words_of(("next", "the next player to the trick"),
                         ("rest", "every later player of the trick (Loo's \"Pam be civil\")"))),
    Field("reason", "text", "the message for a card `binds` refuses"),
    Field("required", "condition", "true: a card its `when` admits may not be played "
          "without a declaration (a joker led must name a suit): the card alone is no "
          "legal play while a required declaration admits it (fixed when the game loads: "
          "true, false or an option)", default=False),
    SOURCE,
), x_name="in a declaration")

#: The key of a tricks step that holds them.
FIELD: Field = Field("declare", "list[declaration]", "declarations a player may attach to a card "
          "he plays (a marriage, a demand on the next player)", default=[], omitted=True)

GRAMMAR = r"""
// a declaration attached to a card play (tricks.declare): its word, the card it goes with
declare: "declare" word ("with" "a" "card" "where" formula)? _end _declare_details?
_declare_details: _INDENT (then_line | binds | bound_line | declare_required | source_line)+ _DEDENT
binds: binds_who "player" "must" "play" "a" "card" "where" formula ("," "otherwise" TEXT)? _NL
binds_who: "the" "next"                                    -> binds_next
         | "every" "later"                                 -> binds_rest
// whom the demand binds, as a word (an option's name)
bound_line: "the" "demand" "binds" ":" word _NL
// required: the card it admits is played only with a declaration
declare_required: "the" "card" "may" "not" "be" "played" "without" "a" "declaration" cond? _NL
"""


def read(b: _Builder, node: Any, kind: str, tricks: dict[str, Any], tp: Path,
                 verbs: list[Any]) -> None:
    """``declare WORD with a card where …`` and its lines: one ``tricks.declare`` entry."""
    if "declare" not in tricks:
        b.put(tricks, (*tp, "declare"), [], node, "the declarations")
    entries = tricks["declare"]
    path = (*tp, "declare", len(entries))
    d: dict[str, Any] = {}
    entries.append(d)
    b.mark(path, node)
    word = node.children[0]
    b.put(d, (*path, "word"), b.word(word), word, "the word of this declaration")
    for c in node.children[1:]:
        if is_node(c, "formula"):
            b.put(d, (*path, "when"), b.formula(c), c, "the card a declaration goes with")
        elif is_node(c, "then_line"):
            read_then(b, c, d, path)
        elif is_node(c, "declare_required"):
            b.put(d, (*path, "required"), b.flag(True, c.children, c), c,
                  "whether a declaration is required")
        elif is_node(c, "bound_line"):
            w = c.children[0]
            b.put(d, (*path, "bound"), b.word(w), w, "whom the demand binds")
        elif is_node(c, "binds"):
            who, f = c.children[0], c.children[1]
            b.put(d, (*path, "binds"), b.formula(f), f, "the demand of a declaration")
            if who.data == "binds_rest":
                b.put(d, (*path, "bound"), "rest", who, "whom the demand binds")
            for tok in c.children[2:]:
                b.put(d, (*path, "reason"), b.string(tok), tok,
                      "the reason for a card the demand refuses")
    b.citation(node, d, path)


def write(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """One ``declare`` line each, with its lines under it."""
    for d in tr.get("declare") or []:
        t.check(d, t.keys(DECLARATION), "in a declaration")
        when = t.formula(d.get("when", "true"))
        out.add(ind, f"declare {t.word(d.get('word', ''), ('with',))}"
                + ("" if when == "true" else f" with a card where {when}"))
        t.assignments(out, ind + 1, "then ", d.get("then") or {}, "then ")
        binds = t.formula(d.get("binds", "true"))
        reason = d.get("reason")
        bound = d.get("bound", "next")
        if binds != "true" or reason is not None or bound == "rest":
            who = "every later" if bound == "rest" else "the next"
            out.add(ind + 1, f"{who} player must play a card where {binds}"
                    + (f", otherwise {t.quote(str(reason))}" if reason is not None else ""))
        if bound not in ("next", "rest"):  # a word the phrases do not say: an option's name
            out.add(ind + 1, f"the demand binds: {t.word(bound)}")
        if t.cond(d.get("required", False)) is not False:
            t.flag(out, ind + 1, d["required"],
                   "the card may not be played without a declaration", "")
        t.source(out, ind + 1, d)


def describe(tr: Mapping[str, Any]) -> list[str]:
    """A sentence for each declaration."""
    rules: list[str] = []
    for d in tr.get("declare") or []:
        word, when = d.get("word", ""), d.get("when", "true")
        card = "any card" if when in ("true", True) else f"a card where {p.formula(when)}"
        said = f"A player may declare {word} with {card} he plays (write: {word} 7H)"
        then = d.get("then") or {}
        if then:
            said += "; it sets " + ", ".join(f"{k} = {p.formula(v)}" for k, v in then.items())
        binds = d.get("binds", "true")
        if binds not in ("true", True):
            whom = ("every later player of the trick" if d.get("bound") == "rest"
                    else "the next player to the trick")
            said += (f"; {whom} must then play a card where {p.formula(binds)} if he can "
                     "(a free card too)")
            if d.get("reason"):
                said += f' (else "{d["reason"]}")'
        required = d.get("required", False)
        if required not in (False, "false"):
            said += ("; such a card may not be played without a declaration"
                     + ("" if required in (True, "true") else f" if {p.formula(required)}"))
        rules.append(said + ".")
    return rules
