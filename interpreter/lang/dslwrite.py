"""Print a spec tree as DSL text (the inverse of :func:`spelbok.lang.dsl.parse_dsl`).

:func:`to_dsl` writes a canonical tree (from :func:`spelbok.lang.model.normalize`)
as DSL text such that parsing it back and normalizing gives the same tree:
every field, ``source`` citation, ``about`` text, option and step detail is
kept; fields that hold their default value are left out.  Formulas are
printed exactly as stored.  A raw (not yet normalized) tree prints too.

>>> text = to_dsl({"spelbok": 1, "name": "Mini", "players": {"min": 2, "max": 4},
...     "deck": [{"players": [2, 4], "ranks": ["A", "K", "Q"]}],
...     "hand": [{"deal": {"size": "3"}}, {"tricks": {"follow": True}}],
...     "end": {"when": "hand_number >= 3", "winners": "tricks == max(tricks)"}})
>>> print(text)
spelbok 1
game "Mini"
<BLANKLINE>
players 2 to 4
<BLANKLINE>
deck for 2 to 4 players: A K Q
<BLANKLINE>
each hand:
    deal 3 cards
    play tricks
        must follow suit
<BLANKLINE>
the match ends when hand_number >= 3
    the winners are the players where tricks == max(tricks)
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .constructs import DSL_ORDER, STEP_HOMES
from .dsl_text import WIDTH as _WIDTH
from .dsl_text import Out, UnwritableError
from .dsl_text import check as _check
from .dsl_text import cond as _cond
from .dsl_text import formula as _f
from .dsl_text import keys as _text_keys
from .dsl_text import quote as _quote
from .dsl_text import source as _source
from .dsl_text import suits as _suits
from .dsl_text import text as _text
from .dsl_text import value as _value
from .dsl_text import word as _word
from .model import TRUMPS_BROKEN_BY
from .vocabulary import TRICK_DUTIES, TRICK_RULES, construct
from .vocabulary import step_kind as _step_kind

__all__ = ["UnwritableError", "to_dsl"]

_ALL_SUITS = ["C", "S", "H", "D"]
_ZONES = {"stock": "the stock", "turn_up": "the turn-up", "widow": "the widow", "hand": "the hand",
          "discards": "the discards"}


class _Out(Out):
    def steps(self, indent: int, steps: list[Any]) -> None:
        _steps(self, indent, steps)

    def attrs(self, indent: int, step: Mapping[str, Any], part: str | None = None) -> None:
        _attrs(self, indent, step, part)


def _keys(name: str, body: bool = False) -> tuple[str, ...]:
    """The keys the vocabulary declares for construct ``name`` (a step: its kind key and
    its own keys; ``body``: the keys of the map under its kind key)."""
    return _text_keys(construct(name), body)


# ---------------------------------------------------------------------------- the game


def to_dsl(tree: Mapping[str, Any]) -> str:
    """DSL text for a (canonical) spec tree; ``parse_dsl`` reads it back.

    Raises ValueError for a key the DSL has no words for (never loses one silently).

    >>> print(to_dsl({"spelbok": 1, "name": "Tiny", "players": {"min": 3, "max": 3},
    ...     "options": {"bonus": {"values": [5, 10], "default": 5, "about": "Points."}},
    ...     "deck": [{"ranks": ["A", "K"], "suits": ["C", "H"]}],
    ...     "hand": [{"set": {"score": "score + bonus"}, "for": "true", "when": "hand_number > 1"}],
    ...     "end": {"when": "true", "winners": "true"}}).split("each hand:")[1])
    <BLANKLINE>
        for each player, set score = score + bonus
            only when hand_number > 1
    <BLANKLINE>
    the match ends when true
        the winners are the players where true
    <BLANKLINE>
    """
    _check(tree, _keys("spec"), "at the top level")
    out = _Out()
    for home in DSL_ORDER:  # each section's writer, in the DSL's order
        if home.write is not None:
            home.write(out, tree)
    out.blank()
    return "\n".join(out.lines)


# ---------------------------------------------------------------------------- steps


def _steps(out: _Out, indent: int, steps: list[Any]) -> None:
    for step in steps:
        kind = _step_kind(step)
        if kind is None:
            raise ValueError(f"to_dsl: a step has no kind: {sorted(step)}")
        _STEP_WRITERS[kind](out, indent, step)


def _attrs(out: _Out, indent: int, step: Mapping[str, Any], part: str | None = None) -> None:
    """The lines every step may have: the source of its part, when, label, source."""
    if part is not None:
        body = step.get(part.replace("-", "_"))
        if isinstance(body, Mapping) and isinstance(body.get("source"), str):
            _text(out, indent, f"source of the {part}", body["source"])
    when = step.get("when")
    if when is not None and _f(when) != "true":
        out.add(indent, f"only when {_f(when)}")
    if step.get("label") is not None:
        out.add(indent, f"label {_quote(str(step['label']))}")
    _source(out, indent, step)


def _zone(zone: Any) -> str:
    return _ZONES.get(str(zone), f"zone {_word(zone)}")


def _single_who(who: Any, more: bool) -> str:
    """One player; ``more``: words follow (a comma then closes the ties phrase)."""
    if isinstance(who, Mapping):
        _check(who, _keys("who_map"), "in a 'most' player choice")
        text = f"the player with the most {_f(who.get('most', '0'))}"
        ties = who.get("ties")
        if ties is not None and str(ties) != "forehand":
            text += f", ties broken by {_word(ties)}" + ("," if more else "")
        return text
    if who == "dealer":
        return "the dealer"
    if who == "forehand":
        return "forehand"
    if who == "last_winner":
        return "the last winner"
    return _quote(str(who))


def _who(who: Any, where: Any, more: bool) -> str:
    cond = None if where is None or _f(where) == "true" else _f(where)
    if who == "each":
        return "each player" + (f" where {cond}" if cond else "")
    if cond:
        return f"the first player from {_single_who(who, True)} where {cond}"
    return _single_who(who, more)


def _step_decide(out: _Out, indent: int, step: Mapping[str, Any]) -> None:
    _check(step, _keys("decide"), "in a decide step")
    choose = step.get("choose")
    if choose == "suit":
        choice = "a suit"
        suits = step.get("suits")
        if suits is not None and [str(s).upper() for s in suits] != _ALL_SUITS:
            choice += " among " + _suits(suits)
    elif choose == "exchange":
        exch = step.get("exchange") or {}
        _check(exch, _keys("exchange"), "in 'exchange'")
        choice = "exchange with " + _zone(exch.get("draw_from", "stock"))
        if "max" in exch and _f(exch["max"]) != "cards":
            choice += f", at most {_f(exch['max'])}"
        if "min" in exch and _f(exch["min"]) != "0":
            choice += f", at least {_f(exch['min'])}"
    elif choose == "number":
        choice = f"a number from {_f(step.get('min', '0'))} to {_f(step.get('max', '0'))}"
    elif isinstance(choose, list) and choose:
        words = [_word_option(w) for w in choose]
        choice = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    else:
        raise ValueError(f"to_dsl: cannot write the choice {choose!r} of decide '{step['decide']}'")
    suits = step.get("suits")
    if choose != "suit" and suits is not None:
        raise ValueError("to_dsl: 'suits' only goes with 'choose: suit'")
    if choose != "exchange" and step.get("exchange"):
        raise ValueError("to_dsl: 'exchange' only goes with 'choose: exchange'")
    if choose != "number" and ("min" in step or "max" in step):
        raise ValueError("to_dsl: 'min' and 'max' only go with 'choose: number'")
    who = _who(step.get("who", "each"), step.get("where"), True)
    out.add(indent, f"{who} decides {_word(step['decide'])}: {choice}")
    _allow(out, indent + 1, step, "allowed when", "else allowed when")
    then = step.get("then") or {}
    _assignments(out, indent + 1, "then ", then, "then ")
    _attrs(out, indent + 1, step, "exchange")


def _allow(out: _Out, indent: int, owner: Mapping[str, Any], first: str, more: str) -> None:
    """The lines of an ``allow`` (and its ``reason``): one condition, or its levels in order,
    each with ``, otherwise "reason"`` when it gives one."""
    allow = owner.get("allow")
    reason = owner.get("reason")
    if isinstance(allow, list):
        if reason is not None:
            raise ValueError("to_dsl: with 'allow' levels, each level gives its own 'reason'")
        for i, level in enumerate(allow):
            _check(level, _keys("allow_level"), "in an allow level")
            _allow_line(out, indent, more if i else first, level.get("if", "true"),
                        level.get("reason"))
    elif (allow is not None and _cond(allow) is not True) or reason is not None:
        _allow_line(out, indent, first, allow if allow is not None else "true", reason)


def _allow_line(out: _Out, indent: int, head: str, cond: Any, reason: Any) -> None:
    out.add(indent, f"{head} {_f(cond)}"
            + (f", otherwise {_quote(str(reason))}" if reason is not None else ""))


def _word_option(option: Any) -> str:
    """A word of a decision, with ``(only when …)`` when it is offered on a condition."""
    if isinstance(option, Mapping):
        _check(option, _keys("word_option"), "in a word option")
        text = _word(option.get("word", ""), ("a", "exchange"))
        when = _f(option.get("when", "true"))
        return text if when == "true" else f"{text} (only when {when})"
    return _word(option, ("a", "exchange"))


def _assignments(out: _Out, indent: int, head: str, values: Mapping[str, Any],
                 each_head: str) -> None:
    """``head a = x, b = y`` on one line when it fits, else one line per assignment."""
    if not values:
        return
    parts = [f"{_word(k)} = {_f(v)}" for k, v in values.items()]
    line = head + ", ".join(parts)
    if len("    " * indent + line) <= _WIDTH or len(parts) == 1:
        out.add(indent, line)
        return
    for part in parts:
        out.add(indent, each_head + part)


#: The DSL lines of the trick rules, on / off (declared with their defaults in the vocabulary).
_FLAGS: tuple[tuple[str, str, str], ...] = tuple((f.name, *f.phrase) for f in TRICK_DUTIES)


def _flag(out: _Out, indent: int, value: Any, yes: str, no: str) -> None:
    cond = _cond(value)
    out.add(indent, yes if cond is True else no if cond is False else f"{yes} if {cond}")


def _step_tricks(out: _Out, indent: int, step: Mapping[str, Any]) -> None:
    _check(step, _keys("tricks"), "in a tricks step")
    t = step["tricks"] or {}
    _check(t, _keys("tricks", body=True), "in 'tricks'")
    count = t.get("count", "all")
    count = None if count == "all" else _f(count)
    # a count starting with the name 'tricks' would read as the keyword: it goes on a line
    count_line = count is not None and re.match(r"tricks?\b", count) is not None
    line = "play tricks"
    if count is not None and not count_line:
        line = f"play {count} trick" + ("" if count == "1" else "s")
    if "players" in t and _f(t["players"]) != "not out":
        line += f" among players where {_f(t['players'])}"
    leader = t.get("leader", "forehand")
    where = t.get("leader_where")
    if leader != "forehand" or (where is not None and _f(where) != "true"):
        line += f", led by {_who(leader, where, False)}"
    out.add(indent, line)
    ind = indent + 1
    for key, yes, no in _FLAGS:
        default = TRICK_RULES[key]
        if key == "follow" or (key in t and _cond(t[key]) != default):
            _flag(out, ind, t.get(key, default), yes, no)
    lead = t.get("lead_trumps")
    if lead is not None and lead != "any":
        out.add(ind, "trumps may not be led until broken" if lead == "broken"
                else f"leading trumps: {_word(lead)}")
    broken = t.get("trumps_broken_by", TRUMPS_BROKEN_BY[0])
    if broken != TRUMPS_BROKEN_BY[0]:
        out.add(ind, "trumps are broken by any trump played" if broken == "any"
                else f"trumps are broken by: {_word(broken)}")
    if "first_trick_trumps" in t and _cond(t["first_trick_trumps"]) is not True:
        _flag(out, ind, t["first_trick_trumps"], "trumps may be played in the first trick",
              "no trumps in the first trick unless forced")
    trump_from = t.get("trump_from", "none")
    if trump_from != "none" or "trump_by" in t:
        by = _f(t.get("trump_by", "true"))
        out.add(ind, ("the first card led names trump" if trump_from == "first_lead"
                      else f"trump is named by: {_word(trump_from)}")
                + ("" if by == "true" else f", when led by a player where {by}"))
    down = _f(t.get("face_down", "false"))
    down_word = t.get("face_down_word", "down")
    if down != "false" or down_word != "down":
        out.add(ind, "cards may be played face down"
                + ("" if down_word == "down" else f", written {_word(down_word, ('if',))}")
                + ("" if down == "true" else f" if {down}"))
    down_as = t.get("face_down_as", "lowest_trump")
    if down_as != "lowest_trump":
        out.add(ind, "a face-down card counts as " + (
            "no suit" if down_as == "no_suit" else f": {_word(down_as)}"))
    if "face_down_shown" in t and _cond(t["face_down_shown"]) is not True:
        _flag(out, ind, t["face_down_shown"], "a face-down card is shown when its trick ends",
              "a face-down card stays hidden")
    for d in t.get("declare") or []:
        _check(d, _keys("declaration"), "in a declaration")
        when = _f(d.get("when", "true"))
        out.add(ind, f"declare {_word(d.get('word', ''), ('with',))}"
                + ("" if when == "true" else f" with a card where {when}"))
        _assignments(out, ind + 1, "then ", d.get("then") or {}, "then ")
        binds = _f(d.get("binds", "true"))
        reason = d.get("reason")
        if binds != "true" or reason is not None:
            out.add(ind + 1, f"the next player must play a card where {binds}"
                    + (f", otherwise {_quote(str(reason))}" if reason is not None else ""))
        _source(out, ind + 1, d)
    verb = _word(t.get("abstain_word", "knock"), ("not",))
    abstain = _f(t.get("abstain", "false"))
    if abstain != "false" or str(t.get("abstain_word", "knock")) != "knock":
        out.add(ind, f"a player may {verb}" + ("" if abstain == "true" else f" if {abstain}"))
    for key, phrase in (("abstain_lead", "when due to lead"),
                        ("abstain_with_suit", "while holding the led suit")):
        if key in t and _cond(t[key]) is not True:
            _flag(out, ind, t[key], f"a player may {verb} {phrase}",
                  f"a player may not {verb} {phrase}")
    _allow(out, ind, t, "a card may be played only if", "else only if")
    if count_line:
        out.add(ind, f"play {count} tricks")
    if "scored" in t and _cond(t["scored"]) is not True:
        _flag(out, ind, t["scored"], "these tricks count", "these tricks do not count")
    draw = t.get("draw", "none")
    if draw != "none":
        out.add(ind, "draw from the stock after each trick, the winner first"
                if draw == "winner_first" else f"draw from the stock after each trick: {_word(draw)}")
    _attrs(out, ind, step, "tricks")
    after = list(t.get("after_each") or [])
    if after:
        out.add(ind, "after each trick:")
        _steps(out, ind + 1, after)


def _step_auction(out: _Out, indent: int, step: Mapping[str, Any]) -> None:
    """``hold an auction``, its contracts (``contract misere at level 7, aiming at no
    trick, trump none``) and its rules, each on a line of its own."""
    _check(step, _keys("auction"), "in an auction step")
    a = step["auction"] or {}
    _check(a, _keys("auction", body=True), "in 'auction'")
    out.add(indent, "hold an auction")
    ind = indent + 1
    for c in a.get("contracts") or []:
        _check(c, _keys("contract"), "in a contract")
        level = c.get("level", 0)
        name = str(c.get("name", level))
        line = "contract"
        if name != str(level):
            line += " " + (name if name.isascii() and name.isdigit() else _word(name, ("at",)))
        line += f" at level {level}"
        aim = c.get("aim", level)
        if aim == "none":
            line += ", aiming at no trick"
        elif type(aim) is not int or aim < 0:  # not a valid aim (the checks say so): as given
            line += f", aiming at: {_value(aim)}"
        elif aim != level:
            line += f", aiming at {aim} trick" + ("" if aim == 1 else "s")
        if c.get("trump", "keep") != "keep":
            line += f", trump {_word(c['trump'])}"
        if isinstance(c.get("source"), str):
            line += f" — source {_quote(c['source'])}"
        out.add(ind, line)
    first = a.get("first")
    if first is not None and _f(first) != "(dealer + 1) % seats":
        out.add(ind, f"the first bidder is {_f(first)}")
    for key, yes, no, default in (
            ("pass_final", "passes are final", "passes are not final", True),
            ("double", "bids may be doubled", "bids may not be doubled", False),
            ("redouble", "doubles may be redoubled", "doubles may not be redoubled", False)):
        if key in a and _cond(a[key]) != default:
            _flag(out, ind, a[key], yes, no)
    partner = a.get("partner", "none")
    if partner == "called_card":
        ranks = " ".join(str(r) for r in a.get("called_ranks", ["A"]))
        out.add(ind, f"the declarer calls a partner by a card of rank {ranks}")
    elif partner == "teams":
        out.add(ind, "the declarer plays with the team")
    elif partner != "none":
        out.add(ind, f"the partner of the declarer: {_word(partner)}")
    _attrs(out, ind, step, "auction")
    after = list(a.get("all_pass") or [])
    if after:
        out.add(ind, "if all pass:")
        _steps(out, ind + 1, after)


#: The writer of each step kind (its home's ``write``).
_STEP_WRITERS: dict[str, Callable[[_Out, int, Mapping[str, Any]], None]] = {
    **{h.name: h.write for h in STEP_HOMES if h.write is not None},
    # the steps without a home yet
    "decide": _step_decide,
    "tricks": _step_tricks, "auction": _step_auction,
}
