"""The ``decide`` step: a player's decision (words, a suit, a number, an exchange), with its
parts ``word_option`` and ``exchange``.

>>> HOME.name, HOME.compile, [c.name for c in HOME.parts]
('decide', 'spelbok.engine.decide:compile_decide', ['word_option', 'exchange'])
>>> [w.name for w in CHOOSE_KINDS]
['words', 'suit', 'exchange', 'number']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import SUITS
from ...errors import FormulaError
from ...formula import parse_formula
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field, Word, words_of
from ..dsl_nodes import is_node
from .home import UNSET, Home
from .shared import (
    WHO_WORDS,
    describe_levels,
    describe_who,
    read_allow_else,
    read_then,
    read_who,
    read_zone,
    write_allow,
    write_who,
    write_zone,
)

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["CHOOSE_KINDS", "EXCHANGE", "HOME", "WORD_OPTION"]

Path = tuple[Any, ...]

#: What a decision chooses: the first kind is a list of words (``choose: [..]``).
CHOOSE_KINDS: tuple[Word, ...] = (
    Word("words", "one of a list of words (a word with `when` only while it holds)"),
    Word("suit", "a suit, among `suits`", uses=("suits",)),
    Word("exchange", "cards to discard, as many drawn (see `exchange`)", uses=("exchange",)),
    Word("number", "a number from `min` to `max`", uses=("min", "max")),
)

WORD_OPTION: Construct = Construct("word_option", "part", "a word of a decision, offered on a condition", (
    Field("word", "token", "the word", required=True),
    Field("when", "formula", "offered only while this holds for the decider", default="true"),
), x_name="in a word option")

EXCHANGE: Construct = Construct("exchange", "part", "how an exchange decision discards and draws", (
    Field("draw_from", "word", "where replacements come from", default="stock",
          words=words_of(("stock", "the stock (talon)"), ("turn_up", "the turn-up zone"),
                         ("none", "nowhere: discard only"))),
    Field("max", "formula", "most cards discarded", default="cards"),
    Field("min", "formula", "fewest cards discarded", default="0"),
    Field("show", "formula", "a condition on each `card` given away: those meeting it are "
          "shown to all (they lie face up where they go)", default="false"),
    Field("give_to", "word", "where the cards given away go", default="discards",
          words=words_of(("discards", "the discard pile, hidden"),
                         ("turn_up", "the turn-up, face up (a swap with the turn-up)"),
                         ("hand", "nowhere: they stay in the hand, a choice of cards to "
                          "show (with `show`, known to all until played)"))),
    SOURCE,
))

DECL: Construct = Construct("decide", "step", "a player's decision",
                 value=Field("decide", "name", "the decision's name (its verb in notation)",
                             required=True), fields=(
    Field("who", "who", "who decides", default="each", words=WHO_WORDS),
    Field("where", "formula", "per-player condition, read for each seat (its own `hand`...): "
          "each skips those failing it, a single decider is the first in turn passing it", default="true"),
    Field("choose", "choose", "what is chosen", required=True, words=CHOOSE_KINDS),
    Field("suits", "suits", "the suits offered (choose: suit)", default=list(SUITS)),
    Field("exchange", "exchange", "the exchange (choose: exchange)",
          default=Derived("the exchange's defaults")),
    Field("then", "assignments", "assignments, evaluated for the decider", default={}),
    Field("min", "formula", "the lowest number (choose: number)", default="0"),
    Field("max", "formula", "the highest number (choose: number)", default="0"),
    Field("allow", "allow", "condition on each option (`choice`; in an exchange on each "
          "`card` given), or levels tried in order", default="true", omitted=True,
          schema_doc="Condition on each option (`choice`); options failing it are not "
                     "offered. A list of levels ({if, reason}) is tried in order: the "
                     "first that admits an option decides. In an exchange it is a "
                     "condition on each card given away (`card`): a card no level admits "
                     "is never given, one only a later level admits only once every card "
                     "an earlier level admits is given too."),
    Field("see_partners", "condition", "read for each decider as the decision starts: "
          "where it holds, he and his partners (his team) are shown each other's hands, "
          "each seat alone (e.g. a side deciding together, each seeing the other's cards)",
          default=False, omitted=True),
    Field("reason", "text", "the message for an option `allow` refuses",
          schema_doc="The message for an option that 'allow' refuses (default: the "
                     "options offered)."),
))

GRAMMAR = r"""
decide: who "decides" word ":" choice _end _decide_details?
_decide_details: _INDENT (then_line | decide_allow | decide_allow_else | decide_see | _attr)+ _DEDENT
// decide.see_partners: the decider and his partners see each other's hands
decide_see: "seeing" "the" "hands" "of" "the" "partners" ("if" formula)? _NL
decide_allow: "allowed" "when" formula ("," "otherwise" TEXT)? _NL
// the next level of an ordered 'allow': tried when the ones before admit no option
decide_allow_else: "else" "allowed" "when" formula ("," "otherwise" TEXT)? _NL
choice: "a" "suit" ("among" suit+)?                          -> choose_suit
      | "a" "number" "from" formula "to" formula             -> choose_number
      | "exchange" "with" zone bound*                        -> choose_exchange
      | word_option (("," | "or") word_option)*              -> choose_words
word_option: word ("(" "only" "when" formula ")")?
bound: "," "at" "most" formula                              -> bound_max
     | "," "at" "least" formula                             -> bound_min
     | "," "given" "to" zone                                -> bound_give
     | "," "shown" "when" formula                           -> bound_show
"""

# ------------------------------------------------------------------------------ the DSL


def _read_choice(b: _Builder, choice: Any, step: dict[str, Any], path: Path) -> None:
    """The choice of a decision: a suit, a number, an exchange or words."""
    b.mark((*path, "choose"), choice)
    if choice.data == "choose_suit":
        step["choose"] = "suit"
        if choice.children:
            step["suits"] = [b.suit(s) for s in choice.children]
            b.mark_items((*path, "suits"), choice.children)
    elif choice.data == "choose_number":
        step["choose"] = "number"
        for key, f in zip(("min", "max"), choice.children, strict=True):
            step[key] = b.formula(f, key)
            b.mark((*path, key), f)
    elif choice.data == "choose_exchange":
        step["choose"] = "exchange"
        zone = choice.children[0]
        exch: dict[str, Any] = {}
        step["exchange"] = exch
        b.mark((*path, "exchange"), zone)
        exch["draw_from"] = read_zone(b, zone)
        b.mark((*path, "exchange", "draw_from"), zone)
        for bound in choice.children[1:]:
            f = bound.children[0]
            if bound.data == "bound_give":
                b.put(exch, (*path, "exchange", "give_to"), read_zone(b, f), f,
                      "where the exchange's cards go")
                continue
            if bound.data == "bound_show":
                b.put(exch, (*path, "exchange", "show"), b.formula(f, "show"), f,
                      "the exchange's shown cards")
                continue
            key = "max" if bound.data == "bound_max" else "min"
            b.put(exch, (*path, "exchange", key), b.formula(f, key), f,
                  f"the exchange's {'most' if key == 'max' else 'least'} number of cards")
    else:
        words: list[Any] = []
        step["choose"] = words
        for i, w in enumerate(choice.children):
            word, *cond = w.children
            b.mark((*path, "choose", i), w)
            if cond:
                words.append({"word": b.word(word), "when": b.formula(cond[0])})
                b.mark((*path, "choose", i, "word"), word)
                b.mark((*path, "choose", i, "when"), cond[0])
            else:
                words.append(b.word(word))


def build(b: _Builder, st: Any, step: dict[str, Any], path: Path) -> None:
    """Reads ``WHO decides NAME: CHOICE`` and its lines."""
    who, name, choice = st.children[:3]
    step["decide"] = b.word(name)
    b.mark((*path, "decide"), name)
    read_who(b, who, step, path, "who", "where")
    _read_choice(b, choice, step, path)
    for c in st.children[3:]:
        if is_node(c, "then_line"):
            read_then(b, c, step, path)
        elif is_node(c, "decide_allow"):
            f = c.children[0]
            b.put(step, (*path, "allow"), b.formula(f), f,
                  "the condition on the choices ('allowed when')")
            for tok in c.children[1:]:  # ', otherwise "…"': the reason for a refused option
                b.put(step, (*path, "reason"), b.string(tok), tok,
                      "the reason for a refused option")
        elif is_node(c, "decide_allow_else"):
            read_allow_else(b, step, path, c, "allowed when")
        elif is_node(c, "decide_see"):
            value: Any = b.formula(c.children[0]) if c.children else True
            b.put(step, (*path, "see_partners"), value, c, "who sees the partners' hands")
    b.attrs(st, step, path)


def _word_option(option: Any) -> str:
    """A word of a decision, with ``(only when …)`` when it is offered on a condition."""
    if isinstance(option, Mapping):
        t.check(option, t.keys(WORD_OPTION), "in a word option")
        text = t.word(option.get("word", ""), ("a", "exchange"))
        when = t.formula(option.get("when", "true"))
        return text if when == "true" else f"{text} (only when {when})"
    return t.word(option, ("a", "exchange"))


def _choice(step: Mapping[str, Any]) -> str:
    """The choice as the DSL writes it (after ``decides NAME:``)."""
    choose = step.get("choose")
    if choose == "suit":
        choice = "a suit"
        suits = step.get("suits")
        if suits is not None and [str(s).upper() for s in suits] != list(SUITS):
            choice += " among " + t.suits(suits)
    elif choose == "exchange":
        exch = step.get("exchange") or {}
        t.check(exch, t.keys(EXCHANGE), "in 'exchange'")
        choice = "exchange with " + write_zone(exch.get("draw_from", "stock"))
        if "max" in exch and t.formula(exch["max"]) != "cards":
            choice += f", at most {t.formula(exch['max'])}"
        if "min" in exch and t.formula(exch["min"]) != "0":
            choice += f", at least {t.formula(exch['min'])}"
        if exch.get("give_to", "discards") != "discards":
            choice += ", given to " + write_zone(exch["give_to"])
        if "show" in exch and t.formula(exch["show"]) != "false":
            choice += f", shown when {t.formula(exch['show'])}"
    elif choose == "number":
        choice = (f"a number from {t.formula(step.get('min', '0'))} "
                  f"to {t.formula(step.get('max', '0'))}")
    elif isinstance(choose, list) and choose:
        words = [_word_option(w) for w in choose]
        choice = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    else:
        raise ValueError(f"to_dsl: cannot write the choice {choose!r} of decide '{step['decide']}'")
    return choice


def write(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``WHO decides NAME: CHOICE`` and its lines (allow, then, the exchange's source)."""
    t.check(step, t.keys(DECL), "in a decide step")
    choose = step.get("choose")
    choice = _choice(step)
    suits = step.get("suits")
    if choose != "suit" and suits is not None:
        raise ValueError("to_dsl: 'suits' only goes with 'choose: suit'")
    if choose != "exchange" and step.get("exchange"):
        raise ValueError("to_dsl: 'exchange' only goes with 'choose: exchange'")
    if choose != "number" and ("min" in step or "max" in step):
        raise ValueError("to_dsl: 'min' and 'max' only go with 'choose: number'")
    who = write_who(step.get("who", "each"), step.get("where"), True)
    out.add(indent, f"{who} decides {t.word(step['decide'])}: {choice}")
    write_allow(out, indent + 1, step, "allowed when", "else allowed when")
    see = step.get("see_partners", False)
    if see not in (False, "false"):
        out.add(indent + 1, "seeing the hands of the partners"
                + ("" if see in (True, "true") else f" if {t.formula(see)}"))
    then = step.get("then") or {}
    t.assignments(out, indent + 1, "then ", then, "then ")
    out.attrs(indent + 1, step, "exchange")


# ------------------------------------------------------------------------------ prose


def _exchange_text(name: str, whom: str, ex: Mapping[str, Any]) -> str:
    source = "the turn-up" if ex.get("draw_from") == "turn_up" else "the stock"
    most = str(ex.get("max", "cards"))
    least = str(ex.get("min", "0"))
    limit = (f"up to {most} card" + ("" if most == "1" else "s")) if most.isdigit() else \
        f"up to `{most}` cards"
    if least not in ("0", ""):
        limit += f" (at least `{least}`)" if not least.isdigit() else f" (at least {least})"
    example = f"{name} 7H{'' if most == '1' else ' 9S'}"
    extra = ""
    if ex.get("give_to") == "turn_up":
        extra += " The cards given go face up to the turn-up."
    if ex.get("give_to") == "hand":
        return _show_text(name, whom, ex, limit, example)
    if ex.get("show") not in (None, False, "false"):
        extra += f" The cards given where {p.formula(ex['show'])} are shown to all."
    if ex.get("draw_from") == "none":  # discard only: nothing is drawn
        exact = least == most and least.isdigit()
        count = (f"exactly {least} card" + ("" if least == "1" else "s")) if exact else limit
        return (f"Decision '{name}': {whom} discards {count}, drawing nothing. "
                f"Write: {example}" + ("." if least not in ("0", "") else
                                       f", or {name} alone to keep every card.") + extra)
    return (f"Decision '{name}': {whom} may exchange with {source}: discard {limit}, "
            f"never more than {source} holds, and draw as many from it. Write: "
            f"{example}, or {name} alone to keep every card." + extra)


def _show_text(name: str, whom: str, ex: Mapping[str, Any], limit: str, example: str) -> str:
    """A choice of cards to show (``give_to: hand``): they stay in the hand."""
    least, most = str(ex.get("min", "0")), str(ex.get("max", "cards"))
    count = ((f"exactly {least} card" + ("" if least == "1" else "s")) if least.isdigit()
             else f"exactly `{least}` cards") if least == most else limit
    show = ex.get("show")
    which = "" if show in (True, "true") else f" (those where {p.formula(show)})"
    return (f"Decision '{name}': {whom} chooses {count} of the hand to show: they stay "
            f"in the hand, shown to every player{which} until played. Write: {example}"
            + ("." if least not in ("0", "") else f", or {name} alone to show none."))


def describe(ctx: _Ctx, step: Mapping[str, Any], number: str,
             sub: int) -> tuple[str, list[str], list[str]]:
    """The decision: who chooses what, the choices allowed, what it sets."""
    name = str(step.get("decide"))
    who = step.get("who", "each")
    whom = describe_who(who, step.get("where"), who != "each")
    choose = step.get("choose")
    body: list[str] = []
    if isinstance(choose, list):
        words = [str(w["word"]) if isinstance(w, Mapping) else str(w) for w in choose]
        text = f"Decision '{name}': {whom} chooses {p.or_(words)} (write: {', '.join(words)})."
        for w in choose:
            if isinstance(w, Mapping):
                body += p.wrap(f"'{w['word']}' is offered only when {p.formula(w.get('when'))}.",
                               sub + 2, first=" " * sub + "- ")
    elif choose == "number":
        lo, hi = str(step.get("min", "0")), str(step.get("max", "0"))
        text = (f"Decision '{name}': {whom} names a number from {p.formula(lo)} to "
                f"{p.formula(hi)} (write: {name} 2).")
    elif choose == "suit":
        suits = step.get("suits") or ["C", "S", "H", "D"]
        text = (f"Decision '{name}': {whom} names a suit, "
                f"{p.or_([p.SYMBOLS.get(s, s) for s in suits])} (write: {name} H).")
    else:
        ex = step.get("exchange") or {}
        text = _exchange_text(name, whom, ex)
        body += p.cite(ex, sub)
    allow = step.get("allow")
    if choose == "exchange" and allow not in (None, "true", True):
        levels = allow if isinstance(allow, list) else [{"if": allow}]
        given = "shown" if (step.get("exchange") or {}).get("give_to") == "hand" \
            else "given away"
        body += p.wrap(f"A card may be {given} only if " + describe_levels(levels, "card")
                       + (" (a card a later condition admits only once every card an earlier "
                          f"one admits is {given.split()[0]} too)" if len(levels) > 1 else "")
                       + ".",
                       sub + 2, first=" " * sub + "- ")
    elif isinstance(allow, list):
        body += p.wrap("Only the choices that meet the first of these conditions met by some "
                       "choice are allowed: " + describe_levels(allow, "choice") + ".", sub + 2,
                       first=" " * sub + "- ")
    elif allow not in (None, "true", True):
        reason = f' (a choice it refuses is answered "{step["reason"]}")' \
            if step.get("reason") else ""
        body += p.wrap(f"Only choices where {p.formula(allow)} are allowed{reason}.", sub + 2,
                       first=" " * sub + "- ")
    see = step.get("see_partners", False)
    if see not in (False, "false"):
        when = "" if see in (True, "true") else f" where {p.formula(see)}"
        body += p.wrap(f"Before deciding, the decider{when} and his partners are shown each "
                       "other's hands (the other side sees nothing).", sub + 2,
                       first=" " * sub + "- ")
    for var, formula in (step.get("then") or {}).items():
        body += p.assign(var, formula, sub, head="Then ")
    return text, body, []


# ------------------------------------------------------------------------------ checks


def check(chk: _Checker, path: Path, step: dict[str, Any]) -> None:
    """Words once each; the keys of one choice only with it; what may offer nothing."""
    choose = step["choose"]
    if isinstance(choose, list):
        words = [w["word"] if isinstance(w, dict) else w for w in choose]
        chk.no_repeats(words, (*path, "choose"), "word")
    if "exchange" in step:
        if choose != "exchange":
            chk.err((*path, "exchange"), "'exchange' is only used with 'choose: exchange'",
                    key=True)
        else:
            chk.enum((*path, "exchange", "draw_from"), step["exchange"]["draw_from"],
                     "exchange.draw_from")
            if "give_to" in step["exchange"]:
                chk.enum((*path, "exchange", "give_to"), step["exchange"]["give_to"],
                         "exchange.give_to")
    if ("min" in step or "max" in step) and choose != "number":
        key = "max" if "max" in step else "min"
        chk.err((*path, key), "'min' and 'max' are only used with 'choose: number'", key=True)
    if "suits" in step:
        if choose != "suit":
            chk.err((*path, "suits"), "'suits' is only used with 'choose: suit'", key=True)
        else:
            chk.no_repeats(step["suits"], (*path, "suits"), "suit")
    _words_may_all_be_off(chk, path, step)
    ex = step.get("exchange") or {}
    if choose == "exchange" and ex.get("give_to") == "turn_up" \
            and ex.get("draw_from", "stock") != "turn_up":
        chk.err((*path, "exchange", "give_to"), "'give_to: turn_up' swaps cards with the "
                "turn-up: it goes with 'draw_from: turn_up'", key=True)
    if choose == "exchange" and ex.get("give_to") == "hand":
        if ex.get("draw_from", "stock") != "none":
            chk.err((*path, "exchange", "give_to"), "'give_to: hand' keeps the chosen cards "
                    "in the hand, so nothing is drawn for them: it goes with "
                    "'draw_from: none'", key=True)
        elif ex.get("show", False) in (False, "false"):
            chk.err((*path, "exchange", "give_to"), "'give_to: hand' keeps the chosen cards "
                    "to show them: give it a 'show' (e.g. show: true)", key=True)


def _words_may_all_be_off(chk: _Checker, path: Path, step: dict[str, Any]) -> None:
    """A word list in which every word has a 'when' may offer nothing at all (then
    every word is offered, which is seldom what the rules mean), unless two of the
    conditions plainly exclude each other."""
    choose = step["choose"]
    if not isinstance(choose, list) or not choose:
        return
    nodes = []
    for w in choose:
        cond = w.get("when", True) if isinstance(w, dict) else True
        if cond is True or cond == "true":
            return
        if not isinstance(cond, str):
            continue  # false: never offered
        try:
            nodes.append(parse_formula(cond))
        except FormulaError:
            return  # the compiler reports it
    if any(chk.complementary(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1:]):
        return
    chk.warn((*path, "choose"), f"every word of '{step['decide']}' has a 'when': when none "
             "holds, every word is offered, whatever its 'when' (give one word no "
             "'when' to say which stands then)")


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Who decides, what each answer sets, what ``allow`` refuses, and what is offered."""
    who = step.get("who", "each")
    where = step.get("where")
    choose = step.get("choose")
    single = who != "each"
    c.selector(who, where if single else None, path)
    if not single and where is not None:
        c.formula(where, (*path, "where"), True)
    c.assigns(step.get("then", {}), (*path, "then"), True)
    see = step.get("see_partners", False)
    if see not in (False, "false"):
        c.formula(see, (*path, "see_partners"), True)
    reason = step.get("reason")
    if not c.allow_levels(step.get("allow"), reason, (*path, "allow")) and reason is not None:
        c.error((*path, "reason"), "'reason' explains an option that 'allow' refuses, "
                "but this step has no 'allow'")
    if isinstance(choose, list):
        for i, w in enumerate(choose):
            cond = w.get("when", True) if isinstance(w, dict) else True
            if cond not in (True, "true"):
                c.formula(cond, (*path, "choose", i, "when"), True)
    elif choose == "suit":
        for i, suit in enumerate(step.get("suits") or []):
            if str(suit).upper() not in c.pack.suit_index:
                c.error((*path, "suits", i), f"'{suit}' is not a suit of the pack (its suits: "
                        + ", ".join(c.pack.letters) + ")")
    elif choose == "number":
        lo = c.number(step.get("min", "0"), (*path, "min"), True)
        hi = c.number(step.get("max", "0"), (*path, "max"), True)
        if lo is not UNSET and hi is not UNSET and max(lo, 0) > hi:
            c.error((*path, "max"), f"the decision offers no number: 'max' ({hi}) is "
                    f"below 'min' ({lo})")
    elif choose == "exchange":
        ex = step.get("exchange", {})
        c.constant(ex.get("draw_from", "stock"), (*path, "exchange", "draw_from"),
                   ("stock", "turn_up", "none"))
        for key in ("max", "min"):
            if key in ex:
                c.number(ex[key], (*path, "exchange", key), True)
        c.constant(ex.get("give_to", "discards"), (*path, "exchange", "give_to"),
                   ("discards", "turn_up", "hand"))
        if ex.get("show", False) not in (False, "false"):
            c.formula(ex["show"], (*path, "exchange", "show"), True)
    elif choose != "suit":
        c.error((*path, "choose"), "choose a word list, 'suit', 'number' or 'exchange'")


HOME: Home = Home(DECL, parts=(WORD_OPTION, EXCHANGE), grammar=GRAMMAR, builds={"decide": build},
            write=write, describe=describe, check=check, compile_check=compile_check,
            compile="spelbok.engine.decide:compile_decide",
            code_parts=("start", "decide"))
