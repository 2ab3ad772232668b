"""The ``tricks`` step: play tricks, with its rules (the trick-rule flags, leading trumps,
face-down plays, abstaining, an ``allow``) and its parts ``declaration`` and
``announcement``.

The rule flags (``follow``, ``head``, ...) are declared with their DSL phrase and their
prose (``Field.rule``, ``phrase``, ``prose``): the grammar names each flag's rule after
its key, and the reader, the writer and ``describe`` read the rest from the declaration.

>>> HOME.name, HOME.compile, [c.name for c in HOME.parts]
('tricks', 'spelbok.engine.tricks:compile_tricks', ['declaration', 'announcement'])
>>> [f.name for f in DUTIES][:3]
['follow', 'head', 'head_after_trump']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from ..dsl_nodes import cond_at, is_node
from . import (
    announcements,
    blind,
    combos,
    declarations,
    dummy,
    face_down,
    laid_aside,
    trick_takes,
    tricks_compile,
)
from .home import Home
from .shared import (
    LEADER_WORDS,
    describe_levels,
    describe_who,
    read_allow_else,
    read_who,
    write_allow,
    write_who,
)

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["DUTIES", "HOME", "RULE_FIELDS"]

Path = tuple[Any, ...]
_w = words_of

DECL: Construct = Construct("tricks", "step", "play tricks", body=(
    Field("players", "formula", "who takes part (per-player condition)", default="not out"),
    Field("leader", "who", "who leads the first trick", default="forehand",
          words=LEADER_WORDS),
    Field("leader_where", "formula", "the leader is the first from `leader` satisfying this",
          default="true"),
    Field("follow", "condition", "must follow the led (effective) suit", default=True,
          rule=True,
          phrase=("must follow suit", "need not follow suit"),
          prose=("A player must follow the suit led if able.", "A player need not follow suit.")),
    Field("head", "condition", "when following, must beat the trick if able", default=False,
          rule=True,
          phrase=("must head the trick", "need not head the trick"),
          prose=("A player following suit must head the trick (beat the best card so far) if able.", "")),
    Field("head_after_trump", "condition", "... even when the trick is already trumped",
          default=False, rule=True,
          phrase=("must head the trick even after it is trumped", "need not head the trick after it is trumped"),
          prose=("A player following suit must still beat the best card of the suit led even after the trick has been trumped.", "")),
    Field("void_trump", "condition", "when void in the led suit, must play a trump if able",
          default=False, rule=True,
          phrase=("a void player must trump", "a void player need not trump"),
          prose=("A player who cannot follow suit must play a trump if able.", "")),
    Field("void_beat", "condition", "when void, must beat the trick (with a trump) if able",
          default=False, rule=True,
          phrase=("a void player must beat the trick", "a void player need not beat the trick"),
          prose=("A player who cannot follow suit must beat the trick with a trump if able.", "")),
    Field("overtrump", "condition", "a trump played to a trick that holds a trump must "
          "beat it, if the player holds a higher trump", default=False, omitted=True,
          rule=True,
          phrase=("a player who trumps must overtrump", "a player who trumps need not overtrump"),
          prose=("A player who trumps a trick that already holds a trump must play a higher trump if able.", "")),
    Field("lead_trumps", "word", "when trumps may be led", default="any",
          words=_w(("any", "always"),
                   ("broken", "not until trumps are broken, unless the leader holds only "
                              "trumps"))),
    Field("trumps_broken_by", "word", "with `lead_trumps: broken`, what breaks trumps",
          default="ruff", omitted=True,
          words=_w(("ruff", "a trump played to a trick led in another suit"),
                   ("any", "any trump played, a lead included")),
          schema_doc="With lead_trumps: broken, what breaks trumps: ruff (a trump played "
                     "to a trick led in another suit; the default) or any (any trump "
                     "played, a lead included)."),
    Field("first_trick_trumps", "condition", "false: no trump in a hand's first trick "
          "unless forced", default=True, rule=True),
    # trump named by a card play (the trick code: TrumpLeadPlay)
    Field("trump_from", "word", "a card play that names trump while no trump is set",
          default="none", omitted=True,
          words=_w(("none", "no card play names trump"),
                   ("first_lead", "the suit of the first card led by a player `trump_by` "
                                  "admits becomes trump, at once")),
          schema_doc="A card play that names trump while no trump is set: none (the "
                     "default) or first_lead (the suit of the first card led by a player "
                     "trump_by admits)."),
    Field("trump_by", "formula", "with `trump_from`, whose lead names trump (per-player "
          "condition, read at each lead while no trump is set)", default="true",
          omitted=True,
          schema_doc="With trump_from: whose lead names trump (a per-player condition, "
                     "read at each lead while no trump is set; e.g. `seat == declarer`, "
                     "`trick_number == 2`)."),
    *face_down.FIELDS, *blind.FIELDS, *laid_aside.FIELDS, *dummy.FIELDS, *trick_takes.FIELDS,
    declarations.FIELD, announcements.FIELD, *combos.FIELDS,
    Field("abstain", "formula", "per-player condition: may knock (skip a trick)",
          default="false"),
    Field("abstain_word", "word", "the word for knocking", default="knock"),
    Field("abstain_lead", "condition", "may knock when due to lead", default=True,
          rule=True),
    Field("abstain_with_suit", "condition", "may knock while holding the led suit",
          default=True, rule=True),
    Field("allow", "allow", "extra condition on each candidate card, or levels tried in "
          "order", default="true",
          schema_doc="Extra condition on each candidate card. A list of levels ({if, "
                     "reason}) is tried in order: the first that admits a card decides."),
    Field("reason", "text", "the message for a card `allow` refuses",
          schema_doc="The message for a card that 'allow' refuses (default: the rule itself)."),
    Field("count", "count", "how many tricks this step plays", default="all", omitted=True,
          schema_doc="How many tricks this step plays (default: until the hands are "
                     "empty)."),
    Field("scored", "condition", "false: these tricks do not count in `tricks`",
          default=True, omitted=True,
          schema_doc="false: tricks of this step do not count in `tricks`."),
    Field("after_each", "steps", "steps run after every trick", default=[], omitted=True,
          schema_doc="Steps run after each trick (`last_winner` is its winner)."),
    Field("draw", "word", "after each trick, who draws a card from the stock (before "
          "`after_each`)", default="none", omitted=True,
          words=_w(("none", "nobody"),
                   ("winner_first", "the winner, then the other players in turn, while "
                                    "the stock lasts and is not closed"))),
    SOURCE,
))

#: The trick rules checked on every card (the ``rule`` keys), in reference order.
RULE_FIELDS: tuple[Field, ...] = tuple(f for f in DECL.body or () if f.rule)
#: The rules that read as a duty (a DSL line on / off, a sentence of describe).
DUTIES: tuple[Field, ...] = tuple(f for f in RULE_FIELDS if f.phrase[0])
_DEFAULTS = {f.name: f.default for f in RULE_FIELDS}
_BROKEN_BY: tuple[str, ...] = tuple(w.name for w in DECL.field("trumps_broken_by").words)

GRAMMAR = r"""
tricks: "play" trick_count? ("tricks" | "trick") ("among" "players" "where" formula)? ("," "led" "by" who)? _end _trick_rules?
trick_count: formula
_trick_rules: _INDENT (_trick_rule | _attr)+ _DEDENT
_trick_rule: follow | head | head_after_trump | void_trump | void_beat | overtrump | lead_trumps | broken_by
           | first_trick_trumps | abstain | abstain_lead | abstain_with_suit | allow | allow_else
           | count_line | scored | after_each | draw_line | trump_from | face_down | face_down_as
           | face_down_shown | declare | dummy | dummy_by | announce | aside_turn | new_trump
           | combos | takes_trick | blind
// the number of tricks as a line of its own (needed for a count that starts with the name 'tricks')
count_line: "play" trick_count ("tricks" | "trick") _NL
scored: "these" "tricks" "count" cond? _NL                    -> scored_yes
      | "these" "tricks" "do" "not" "count" _NL              -> scored_no
after_each: "after" "each" "trick" ":" _NL _steps_block
// the stock: drawing after each trick (the rules once it is closed read stock_closed, talon)
draw_line: "draw" "from" "the" "stock" "after" "each" "trick" "," "the" "winner" "first" _NL -> draw_winner_first
         | "draw" "from" "the" "stock" "after" "each" "trick" ":" word _NL                -> draw_word
duty: "must"                                                -> must
    | "need" "not"                                          -> need_not
follow: duty "follow" "suit" cond? _NL
head: duty "head" "the" "trick" cond? _NL
head_after_trump: duty "head" "the" "trick" "even"? "after" "it" "is" "trumped" cond? _NL
void_trump: "a" "void" "player" duty "trump" cond? _NL
void_beat: "a" "void" "player" duty "beat" "the" "trick" cond? _NL
overtrump: "a" "player" "who" "trumps" duty "overtrump" cond? _NL
lead_trumps: "trumps" "may" "be" "led" "at" "any" "time" _NL          -> lead_any
           | "trumps" "may" "not" "be" "led" "until" "broken" _NL     -> lead_broken
           | "leading" "trumps" ":" word _NL                          -> lead_word
broken_by: "trumps" "are" "broken" "by" "a" "trump" "played" "to" "another" "suit" _NL  -> broken_ruff
         | "trumps" "are" "broken" "by" "any" "trump" "played" _NL                    -> broken_any
         | "trumps" "are" "broken" "by" ":" word _NL                                  -> broken_word
first_trick_trumps: "trumps" "may" "be" "played" "in" "the" "first" "trick" cond? _NL  -> first_trick_yes
                  | "no" "trumps" "in" "the" "first" "trick" "unless" "forced" _NL    -> first_trick_no
// a card play that names trump (tricks.trump_from, with tricks.trump_by)
trump_from: "the" "first" "card" "led" "names" "trump" trump_by? _NL       -> trump_first_lead
          | "trump" "is" "named" "by" ":" word trump_by? _NL            -> trump_from_word
trump_by: "," "when" "led" "by" "a" "player" "where" formula
@@families@@
abstain: "a" "player" "may" word cond? _NL
abstain_lead: "a" "player" "may" may_not? word "when" "due" "to" "lead" cond? _NL
abstain_with_suit: "a" "player" "may" may_not? word "while" "holding" "the" "led" "suit" cond? _NL
may_not: "not"
allow: "a" "card" "may" "be" "played" "only" "if" formula ("," "otherwise" TEXT)? _NL
// the next level of an ordered 'allow': tried when the ones before admit no card
allow_else: "else" "only" "if" formula ("," "otherwise" TEXT)? _NL
""".replace("@@families@@\n", face_down.GRAMMAR.lstrip("\n") + blind.GRAMMAR.lstrip("\n") + declarations.GRAMMAR.lstrip("\n")
            + dummy.GRAMMAR.lstrip("\n") + announcements.GRAMMAR.lstrip("\n") + laid_aside.GRAMMAR.lstrip("\n")
            + combos.GRAMMAR.lstrip("\n") + trick_takes.GRAMMAR.lstrip("\n"))

# ------------------------------------------------------------------------------ reading the DSL
# One reader a line of a tricks step (its grammar rule), each with the same arguments:
# the builder, the node, its rule, the step's map, its path, the abstain verbs seen.

_Reader = Callable[["_Builder", Any, str, dict[str, Any], Path, list[Any]], None]


def _count(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
           verbs: list[Any]) -> None:
    f = c.children[0].children[0] if kind == "count_line" else c.children[0]
    b.put(tricks, (*tp, "count"), b.formula(f, "count"), f, "the number of tricks")


def _scored(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
            verbs: list[Any]) -> None:
    b.put(tricks, (*tp, "scored"), b.flag(kind == "scored_yes", c.children, c),
          cond_at(c.children, c), "whether these tricks count")


def _draw(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
          verbs: list[Any]) -> None:
    value = "winner_first" if kind == "draw_winner_first" else b.word(c.children[0])
    b.put(tricks, (*tp, "draw"), value, c, "who draws after each trick")


def _after_each(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
                verbs: list[Any]) -> None:
    b.put(tricks, (*tp, "after_each"), [], c, "the steps after each trick")
    tricks["after_each"] = b.steps(c.children, (*tp, "after_each"))


def _players(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
             verbs: list[Any]) -> None:
    tricks["players"] = b.formula(c)
    b.mark((*tp, "players"), c)


def _leader(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
            verbs: list[Any]) -> None:
    read_who(b, c, tricks, tp, "leader", "leader_where")


def _duty(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
          verbs: list[Any]) -> None:
    duty, *rest = c.children
    b.put(tricks, (*tp, kind), b.flag(duty.data == "must", rest, c), cond_at(rest, c),
          f"the rule '{kind}'")


def _word_rule(key: str, what: str, words: dict[str, str]) -> _Reader:
    """The reader of a rule written as one of its words' phrases, or ``…: WORD``."""
    def read(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
             verbs: list[Any]) -> None:
        value = words[kind] or b.word(c.children[0])
        b.put(tricks, (*tp, key), value, c, what)
    return read


def _flag_rule(key: str, yes: str, what: str) -> _Reader:
    """The reader of a flag written on (rule ``yes``, maybe with ``if …``) or off."""
    def read(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
             verbs: list[Any]) -> None:
        b.put(tricks, (*tp, key), b.flag(kind == yes, c.children, c), cond_at(c.children, c),
              what)
    return read


def _trump_from(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
                verbs: list[Any]) -> None:
    value = "first_lead" if kind == "trump_first_lead" else b.word(c.children[0])
    b.put(tricks, (*tp, "trump_from"), value, c, "the card play that names trump")
    for by in c.children:
        if is_node(by, "trump_by"):
            f = by.children[0]
            b.put(tricks, (*tp, "trump_by"), b.formula(f), f, "whose lead names trump")


def _abstain(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
             verbs: list[Any]) -> None:
    verb = c.children[0]
    verbs.append(verb)
    b.put(tricks, (*tp, "abstain_word"), b.word(verb), verb, "the word for abstaining")
    conds = [x for x in c.children if is_node(x, "cond")]
    value = b.formula(conds[0].children[0]) if conds else "true"
    b.put(tricks, (*tp, "abstain"), value, cond_at(c.children, c), "the rule on abstaining")


def _abstain_when(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
                  verbs: list[Any]) -> None:
    may = not any(is_node(x, "may_not") for x in c.children)
    rest = [x for x in c.children if not is_node(x, "may_not")]
    verbs.append(rest[0])
    b.put(tricks, (*tp, kind), b.flag(may, rest[1:], c), cond_at(rest, c), f"the rule '{kind}'")


def _allow(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
           verbs: list[Any]) -> None:
    f = c.children[0]
    b.put(tricks, (*tp, "allow"), b.formula(f), f, "the rule 'allow'")
    for tok in c.children[1:]:  # ', otherwise "…"': the reason for a refused card
        b.put(tricks, (*tp, "reason"), b.string(tok), tok, "the reason for a refused card")


def _allow_else(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
                verbs: list[Any]) -> None:
    read_allow_else(b, tricks, tp, c, "a card may be played only if")


#: The reader of each line of a tricks step, by its grammar rule (a flag's rule is its key).
_READERS: dict[str, _Reader] = {
    "trick_count": _count, "count_line": _count,
    "scored_yes": _scored, "scored_no": _scored,
    "draw_winner_first": _draw, "draw_word": _draw,
    "after_each": _after_each, "formula": _players,
    "who": _leader, "who_each": _leader, "who_first": _leader,
    **{f.name: _duty for f in DUTIES},
    **dict.fromkeys(("lead_any", "lead_broken", "lead_word"), _word_rule(
        "lead_trumps", "the rule on leading trumps",
        {"lead_any": "any", "lead_broken": "broken", "lead_word": ""})),
    **dict.fromkeys(("broken_ruff", "broken_any", "broken_word"), _word_rule(
        "trumps_broken_by", "what breaks trumps",
        {"broken_ruff": "ruff", "broken_any": "any", "broken_word": ""})),
    **dict.fromkeys(("first_trick_yes", "first_trick_no"), _flag_rule(
        "first_trick_trumps", "first_trick_yes", "the rule on trumps in the first trick")),
    "trump_first_lead": _trump_from, "trump_from_word": _trump_from,
    **face_down.READERS, **blind.READERS, **laid_aside.READERS, **dummy.READERS, **trick_takes.READERS,
    "declare": declarations.read, "announce": announcements.read, **combos.READERS,
    "abstain": _abstain, "abstain_lead": _abstain_when, "abstain_with_suit": _abstain_when,
    "allow": _allow, "allow_else": _allow_else,
}


def build(b: _Builder, st: Any, step: dict[str, Any], path: Path) -> None:
    """Reads ``play tricks …`` and its rule lines; one word for abstaining throughout."""
    tricks: dict[str, Any] = {}
    step["tricks"] = tricks
    tp = (*path, "tricks")
    b.mark(tp, st)
    verbs: list[Any] = []
    for c in st.children:
        kind = getattr(c, "data", None)
        read = _READERS.get(kind) if isinstance(kind, str) else None
        if read is not None:
            read(b, c, str(kind), tricks, tp, verbs)
    word = tricks.get("abstain_word", "knock")
    for verb in verbs:
        if b.word(verb) != word:
            raise b.fail(
                f"this rule calls abstaining '{b.word(verb)}', but the trick rules call it"
                f" '{word}': use one word (set it with 'a player may {word} if …')",
                verb,
            )
    b.attrs(st, step, path)


# ------------------------------------------------------------------------------ writing the DSL


def _head(tr: Mapping[str, Any], count: str | None, count_line: bool) -> str:
    """``play [N] tricks [among players where …][, led by …]``."""
    line = "play tricks"
    if count is not None and not count_line:
        line = f"play {count} trick" + ("" if count == "1" else "s")
    if "players" in tr and t.formula(tr["players"]) != "not out":
        line += f" among players where {t.formula(tr['players'])}"
    leader = tr.get("leader", "forehand")
    where = tr.get("leader_where")
    if leader != "forehand" or (where is not None and t.formula(where) != "true"):
        line += f", led by {write_who(leader, where, False)}"
    return line


def _write_trumps(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """The duties, then the rules on trumps: leading, breaking, the first trick, naming."""
    for f in DUTIES:
        default = _DEFAULTS[f.name]
        if f.name == "follow" or (f.name in tr and t.cond(tr[f.name]) != default):
            t.flag(out, ind, tr.get(f.name, default), *f.phrase)
    lead = tr.get("lead_trumps")
    if lead is not None and lead != "any":
        out.add(ind, "trumps may not be led until broken" if lead == "broken"
                else f"leading trumps: {t.word(lead)}")
    broken = tr.get("trumps_broken_by", _BROKEN_BY[0])
    if broken != _BROKEN_BY[0]:
        out.add(ind, "trumps are broken by any trump played" if broken == "any"
                else f"trumps are broken by: {t.word(broken)}")
    if "first_trick_trumps" in tr and t.cond(tr["first_trick_trumps"]) is not True:
        t.flag(out, ind, tr["first_trick_trumps"], "trumps may be played in the first trick",
              "no trumps in the first trick unless forced")
    trump_from = tr.get("trump_from", "none")
    if trump_from != "none" or "trump_by" in tr:
        by = t.formula(tr.get("trump_by", "true"))
        out.add(ind, ("the first card led names trump" if trump_from == "first_lead"
                      else f"trump is named by: {t.word(trump_from)}")
                + ("" if by == "true" else f", when led by a player where {by}"))


def _write_abstain(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    verb = t.word(tr.get("abstain_word", "knock"), ("not",))
    abstain = t.formula(tr.get("abstain", "false"))
    if abstain != "false" or str(tr.get("abstain_word", "knock")) != "knock":
        out.add(ind, f"a player may {verb}" + ("" if abstain == "true" else f" if {abstain}"))
    for key, phrase in (("abstain_lead", "when due to lead"),
                        ("abstain_with_suit", "while holding the led suit")):
        if key in tr and t.cond(tr[key]) is not True:
            t.flag(out, ind, tr[key], f"a player may {verb} {phrase}",
                  f"a player may not {verb} {phrase}")


def write(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``play tricks …`` and one line a rule that differs from its default."""
    t.check(step, t.keys(DECL), "in a tricks step")
    tr = step["tricks"] or {}
    t.check(tr, t.keys(DECL, body=True), "in 'tricks'")
    count = tr.get("count", "all")
    count = None if count == "all" else t.formula(count)
    # a count starting with the name 'tricks' would read as the keyword: it goes on a line
    count_line = count is not None and re.match(r"tricks?\b", count) is not None
    out.add(indent, _head(tr, count, count_line))
    ind = indent + 1
    _write_trumps(out, ind, tr)
    for family in (face_down, blind, laid_aside, dummy, trick_takes, declarations, announcements, combos):
        family.write(out, ind, tr)  # each family of rules writes its own lines, in this order
    _write_abstain(out, ind, tr)
    write_allow(out, ind, tr, "a card may be played only if", "else only if")
    if count_line:
        out.add(ind, f"play {count} tricks")
    if "scored" in tr and t.cond(tr["scored"]) is not True:
        t.flag(out, ind, tr["scored"], "these tricks count", "these tricks do not count")
    draw = tr.get("draw", "none")
    if draw != "none":
        out.add(ind, "draw from the stock after each trick, the winner first"
                if draw == "winner_first" else f"draw from the stock after each trick: {t.word(draw)}")
    out.attrs(ind, step, "tricks")
    after = list(tr.get("after_each") or [])
    if after:
        out.add(ind, "after each trick:")
        out.steps(ind + 1, after)


# ------------------------------------------------------------------------------ prose


def _per_trick(ctx: _Ctx, value: Any) -> str:
    """`` (worked out as each trick starts)`` for a trick rule that reads a per-trick name."""
    from ...errors import FormulaError
    from ...formula import formula_names  # only for this note

    try:
        names = formula_names(str(value))
    except FormulaError:  # a formula the checks report: no note
        return ""
    return " (worked out as each trick starts)" if names & set(ctx.per_trick_names) else ""


def _duty_rules(ctx: _Ctx, tr: Mapping[str, Any]) -> list[str]:
    """Whether these tricks count, then the duties (declared with their sentences)."""
    rules: list[str] = []
    if tr.get("scored", True) is False:
        rules.append("These tricks do not count towards the tricks a player takes.")
    elif tr.get("scored", True) is not True:
        rules.append(f"These tricks count only when {p.formula(tr['scored'])}.")
    for f in DUTIES:
        yes, no = f.prose
        value = tr.get(f.name)
        if value is True:
            rules.append(yes)
        elif value is False:
            if no:
                rules.append(no)
        elif value is not None:
            rules.append(f"When {p.formula(value)}{ctx.option_note(value)}"
                         f"{_per_trick(ctx, value)}: {yes[0].lower()}{yes[1:]}")
    return rules


def _trump_rules(ctx: _Ctx, tr: Mapping[str, Any]) -> list[str]:
    """Leading trumps and what breaks them; trumps in the first trick; naming trump."""
    rules: list[str] = []
    lead, note = ctx.enum(tr.get("lead_trumps", "any"), ("any", "broken"))
    breaks = {"ruff": "a trump has been played to a trick of another suit",
              "any": "any trump has been played, even one led by a player holding nothing else"}
    by, by_note = ctx.enum(tr.get("trumps_broken_by", _BROKEN_BY[0]), _BROKEN_BY)
    until = breaks.get(by, breaks["ruff"]) + (' ("broken")' if lead == "broken" else "")
    if by_note:  # an option chooses what breaks trumps: say what the other value does
        other = next(v for v in _BROKEN_BY if v != by)
        until += f"{by_note[:-1]}; with '{other}', until {breaks[other]})"
    if lead == "broken":
        rules.append(f"Trumps may not be led until {until}, unless the leader holds only "
                     f"trumps{note}.")
    elif note:
        rules.append(f"Trumps may be led at any time{note}; with 'broken', not until {until}.")
    ftt = tr.get("first_trick_trumps", True)
    rule = ("no trump may be played to the first trick of a hand unless a player has nothing "
            "else; such a trump counts as a plain card")
    if ftt is False:
        rules.append(rule[0].upper() + rule[1:] + ".")
    elif ftt is not True:
        value = ctx.default_of(ftt)
        note = {True: " (with the default options it is true: trumps may be played)",
                False: " (with the default options it is false)"}.get(value, "") \
            if isinstance(value, bool) else ""
        rules.append(f"When {p.formula(ftt)} is false, {rule}{note}.")
    trump_from, from_note = ctx.enum(tr.get("trump_from", "none"),
                                     tuple(w.name for w in DECL.field("trump_from").words))
    if trump_from == "first_lead" or from_note:
        by = tr.get("trump_by", "true")
        whose = "" if by in ("true", True) else f" by a player where {p.formula(by)}"
        rules.append(f"While no trump is set, the first card led{whose} names trump: its suit "
                     f"becomes trump at once, for that trick and the rest of the hand{from_note}.")
    return rules


def _other_rules(tr: Mapping[str, Any]) -> list[str]:
    """Abstaining, the ``allow`` on each card, drawing from the stock."""
    rules: list[str] = []
    abstain = tr.get("abstain", "false")
    if abstain not in ("false", False):
        word = tr.get("abstain_word", "knock")
        who = "A player" if abstain in ("true", True) else f"A player where {p.formula(abstain)}"
        extra = []
        if tr.get("abstain_lead", True) is False:
            extra.append("not when due to lead")
        if tr.get("abstain_with_suit", True) is False:
            extra.append("not while holding the suit led")
        rules.append(f"{who} may {word} (sit the trick out, write: {word}) instead of playing, "
                     "as long as they hold fewer cards than tricks remain"
                     + (f" ({'; '.join(extra)})" if extra else "") + ".")
    allow = tr.get("allow", "true")
    if isinstance(allow, list):
        rules.append("Each card played must also satisfy the first of these conditions that "
                     "some card the player may play meets (when none does, any card may be "
                     "played): " + describe_levels(allow, "card") + ".")
    elif allow not in ("true", True):
        reason = f'; a card it refuses is answered "{tr["reason"]}"' if tr.get("reason") else ""
        rules.append(f"Each card played must also satisfy {p.formula(allow)} (when no card "
                     f"does, any card may be played){reason}.")
    draw = tr.get("draw", "none")
    if draw == "winner_first":
        rules.append("After each trick the winner, then each other player in turn, draws a "
                     "card from the stock, while it lasts and is not closed.")
    elif draw != "none":
        rules.append(f"After each trick players draw from the stock as {p.formula(draw)} says.")
    return rules


def describe(ctx: _Ctx, step: Mapping[str, Any], number: str,
             sub: int) -> tuple[str, list[str], list[str]]:
    """Who plays how many tricks, who leads, each rule, and the steps after each trick."""
    tr = step["tricks"]
    players = tr.get("players", "not out")
    among = ("the players still in" if players == "not out"
             else f"the players where {p.formula(players)}")
    leader = describe_who(tr.get("leader", "forehand"), tr.get("leader_where"), True)
    count = str(tr.get("count", "all"))
    how_many = ("until their hands are empty" if count == "all" else
                f"for {count} tricks" if count.isdigit() else f"for {p.formula(count)} tricks")
    text = (f"Play tricks among {among} {how_many}. {leader[0].upper()}"
            f"{leader[1:]} leads the first trick; the winner of each trick leads the next.")
    rules = [*_duty_rules(ctx, tr), *_trump_rules(ctx, tr), *face_down.describe(ctx, tr), *blind.describe(tr), *laid_aside.describe(ctx, tr),
             *dummy.describe(ctx, tr), *declarations.describe(tr), *combos.describe(ctx, tr), *trick_takes.describe(tr), *_other_rules(tr)]
    body: list[str] = []
    for rule in rules:
        body += p.wrap(rule, sub + 2, first=" " * sub + "- ")
    body += announcements.describe(ctx, tr, sub)
    after = tr.get("after_each") or []
    if after:
        body.append(" " * sub + "After each trick (last_winner is its winner):")
        for i, s in enumerate(after, 1):
            body += ctx.step_lines(s, f"{i}", sub + 2)
    return text, body, p.cite(tr, sub)


# ------------------------------------------------------------------------------ checks


def check(chk: _Checker, path: Path, step: dict[str, Any]) -> None:
    """The keys of abstaining have no effect without ``abstain``; an announcement with
    no condition may be said without end."""
    body = step["tricks"]
    for k, d in enumerate(body.get("announce") or []):
        if d.get("when", "true") in (True, "true"):
            chk.warn((*path, "tricks", "announce", k, "word"), f"'{d.get('word')}' has no "
                     "'when': it is offered again after it is made, so a player may say it "
                     "without end (give it a condition its 'then' makes false)")
    if body.get("abstain") in (None, False, "false"):
        for key in ("abstain_word", "abstain_lead", "abstain_with_suit"):
            if chk.written((*path, "tricks", key), DECL.field(key).default):
                chk.warn((*path, "tricks", key), f"'{key}' has no effect: this "
                         "tricks step has no 'abstain'", key=True)
    for family in (dummy, combos):
        family.check(chk, (*path, "tricks"), body)


HOME: Home = Home(DECL, parts=(declarations.DECLARATION, announcements.ANNOUNCEMENT), grammar=GRAMMAR, builds={"tricks": build}, write=write,
            describe=describe, check=check, compile="spelbok.engine.tricks:compile_tricks",
            compile_check=partial(tricks_compile.compile_check, decl=DECL), code_parts=("start", "play", "next"))
