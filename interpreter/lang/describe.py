"""The rules of a spec in readable prose, with the source citations.

:func:`describe` walks the canonical model (see :mod:`spelbok.lang.model`) and
writes one section per part of the game: players, cards and ranking, the
options (readings) with their defaults and reasons, dealing, each step of a
hand in plain words, and the end of the match.  Formulas are shown as written,
between backticks.  A spec that extends another also gets a section listing
what it changes against its base.

>>> from spelbok.lang.loader import read_spec
>>> text = describe(read_spec("example"))
>>> text.splitlines()[0]
'Example'
>>> "J♣" in text and "[doc: the jack of clubs" in text
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .constructs import PROSE_ORDER, STEP_HOMES
from .model import TRUMPS_BROKEN_BY
from .prose import SYMBOLS as _SYMBOLS
from .prose import assign as _assign
from .prose import cite as _cite
from .prose import formula as _f
from .prose import or_ as _or
from .prose import wrap as _wrap
from .vocabulary import PER_TRICK_NAMES, TRICK_DUTIES
from .vocabulary import step_kind as _step_kind
from .vocabulary import words as _words

__all__ = ["describe", "spec_changes"]



# ------------------------------------------------------------------------- helpers


def _card(name: str, pack: Any = None) -> str:
    """A card of the spec in prose: its suit as a symbol (a declared pack's own)."""
    text = str(name)
    if "@" in text:
        rank, _, rel = text.partition("@")
        if rel == "trump":
            return f"the {rank} of trumps"
        if rel == "trump_colour":
            return f"the {rank} of the other suit of the trump's colour"
        return text
    if pack is not None:
        c = pack.parse_card(text)
        return pack.symbol_names[c] if c is not None else text
    if len(text) >= 2 and text[-1] in _SYMBOLS:
        return text[:-1] + _SYMBOLS[text[-1]]
    return text


def _suits(suits: Iterable[str]) -> str:
    return " ".join(_SYMBOLS.get(s, s) for s in suits)


def _range(lo: int, hi: int) -> str:
    if lo == hi:
        return f"{lo}"
    if hi == lo + 1:
        return f"{lo} or {hi}"
    return f"{lo} to {hi}"


class _Ctx:
    """What the prose needs besides the node at hand: option defaults, player count."""

    def __init__(self, tree: Mapping[str, Any], players: int | None) -> None:
        self.tree = tree
        self.players = players
        self.options = {k: v.get("default") for k, v in (tree.get("options") or {}).items()}

    def default_of(self, text: Any) -> Any:
        """The value of a formula over options only, with the default options; else None."""
        if isinstance(text, bool | int):
            return text
        try:
            from ..formula import DictResolver, compile_formula

            seats = self.players or int(self.tree.get("players", {}).get("min", 2))
            compiled = compile_formula(str(text), DictResolver(seats, self.options),
                                       per_player=False)
        except Exception:
            return None
        return compiled.value if compiled.constant else None

    def option_note(self, text: Any) -> str:
        """`` (with the default options: yes)`` for a condition that reads options only."""
        value = self.default_of(text)
        if isinstance(value, bool):
            return f" (with the default options: {'yes' if value else 'no'})"
        return ""

    def enum(self, value: Any, known: Iterable[Any]) -> tuple[Any, str]:
        """A field that is a fixed word or a formula over options: (value, note)."""
        if value in tuple(known):
            return value, ""
        default = self.default_of(value)
        name = str(value)
        if name in self.options:
            return default, f" (as option {name} says; by default {default})"
        return default, f" (given by {_f(value)}; by default {default})"

    def step_lines(self, step: Mapping[str, Any], number: str, indent: int) -> list[str]:
        """The lines of ``step``, numbered ``number`` (a step holding steps describes them)."""
        return _step_lines(step, number, indent, self)

    def suit_name(self, letter: Any) -> str:
        """A suit letter as its name (``spades``), in the spec's declared pack if any."""
        return _suit_name(letter, _declared_pack(self.tree))


# ------------------------------------------------------------------------- sections


def _title(text: str) -> list[str]:
    return ["", text, "-" * len(text)]


def _suit_name(letter: Any, pack: Any = None) -> str:
    """A suit letter as its name (``spades``), in the declared pack if any."""
    from ..cards import FRENCH

    p = pack or FRENCH
    text = str(letter).upper()
    return p.suit_names[p.suit_index[text]] if text in p.suit_index else str(letter)


def _declared_pack(tree: Mapping[str, Any]) -> Any:
    """The spec's declared Pack, or None (the French pack, or a pack section in error)."""
    section = tree.get("pack")
    if not isinstance(section, Mapping):
        return None
    from ..cards import pack_of

    try:
        return pack_of(dict(section))
    except (KeyError, ValueError, TypeError, IndexError):
        return None  # not checked: say nothing of it


def _stock_rules(t: Mapping[str, Any]) -> list[str]:
    """The sentence of a tricks step's stock key (``draw``)."""
    rules = []
    draw = t.get("draw", "none")
    if draw == "winner_first":
        rules.append("After each trick the winner, then each other player in turn, draws a "
                     "card from the stock, while it lasts and is not closed.")
    elif draw != "none":
        rules.append(f"After each trick players draw from the stock as {_f(draw)} says.")
    return rules


# ------------------------------------------------------------------------- steps


def _who(who: Any, where: Any, single: bool) -> str:
    cond = where not in (None, "true", True)
    if isinstance(who, Mapping):
        ties = "cut for it" if who.get("ties", "forehand") == "cut" else \
            "the first of them from forehand"
        text = f"the player with the highest {_f(who.get('most'))}"
        if cond:
            text += f" among those where {_f(where)}"
        return text + f" (on a tie, {ties})"
    if who == "each":
        text = "each player in turn from forehand"
        return text + (f", among those where {_f(where)}," if cond else "")
    base = {"dealer": "the dealer", "forehand": "forehand",
            "last_winner": "the winner of the last trick"}.get(str(who), _f(who))
    if cond and single:
        start = "the dealer" if who == "dealer" else "forehand"
        return f"the first player from {start} (round to the left) where {_f(where)}"
    return base


def _step_decide(step: Mapping[str, Any], number: str, sub: int,
                 ctx: _Ctx) -> tuple[str, list[str], list[str]]:
    body: list[str] = []
    text, body = _decide(step, sub, ctx)
    citation: list[str] = []
    return text, body, citation


def _step_tricks(step: Mapping[str, Any], number: str, sub: int,
                 ctx: _Ctx) -> tuple[str, list[str], list[str]]:
    body: list[str] = []
    text, body = _tricks(step["tricks"], sub, ctx)
    citation = _cite(step["tricks"], sub)
    return text, body, citation


def _cond_text(value: Any, on: str, off: str) -> str:
    """A condition's sentence: ``on`` when true, ``off`` when false, else ``on`` when ..."""
    if value in (True, "true"):
        return on
    if value in (False, "false"):
        return off
    return f"{on[:-1]} when {_f(value)}."


def _step_auction(step: Mapping[str, Any], number: str, sub: int,
                  ctx: _Ctx) -> tuple[str, list[str], list[str]]:
    body: list[str] = []
    a = step["auction"]
    first = str(a.get("first", "(dealer + 1) % seats"))
    who = ("the player left of the dealer" if first == "(dealer + 1) % seats"
           else f"seat {_f(first)}")
    text = (f"An auction, starting with {who}: each in turn bids a contract above the highest "
            "so far, or passes. The contracts, low to high:")
    trumps = {"none": "no trump", "chosen": "the declarer names trump",
              "keep": "trump unchanged"}
    pack = _declared_pack(ctx.tree)
    for c in a.get("contracts", []):
        aim = c.get("aim")
        goal = "take no trick" if aim == "none" else f"take {aim} trick{'s' if aim != 1 else ''}"
        trump = trumps.get(str(c.get("trump")), f"{_suit_name(c.get('trump'), pack)} trump")
        body += _wrap(f"- {c.get('name')} (level {c.get('level')}): {goal}; {trump}.", sub)
        body += _cite(c, sub + 2)
    rules = [_cond_text(a.get("pass_final", True), "A player who passes may not bid again.",
                        "A player who passed may bid again; the auction ends when all but "
                        "the highest bidder pass in a row."),
             _cond_text(a.get("double", False), "An opponent of the highest bidder may double.",
                        ""),
             _cond_text(a.get("redouble", False), "The doubled bidder's side may redouble.",
                        ""),
             "The highest bidder is the declarer."]
    partner = a.get("partner", "none")
    if partner == "called_card":
        ranks = " or ".join(str(r) for r in a.get("called_ranks", ["A"]))
        rules.append(f"The declarer calls a card of rank {ranks} they do not hold; its holder "
                     "is the declarer's partner, unknown to the others until the card is "
                     "played.")
    elif partner == "teams":
        rules.append("The declarer's team mates play with them.")
    else:
        rules.append("The declarer plays alone against the others.")
    for r in rules:
        if r:
            body += _wrap(r, sub)
    after = a.get("all_pass") or []
    if after:
        body.append(" " * sub + "If every player passes:")
        for i, s in enumerate(after, 1):
            body += _step_lines(s, f"{number}.{i}", sub, ctx)
    else:
        body += _wrap("If every player passes, the same dealer deals again.", sub)
    return text, body, _cite(a, sub)
def _unhomed(f: Callable[[Mapping[str, Any], str, int, _Ctx], tuple[str, list[str], list[str]]]
             ) -> Callable[[_Ctx, Mapping[str, Any], str, int], tuple[str, list[str], list[str]]]:
    return lambda ctx, step, number, sub: f(step, number, sub, ctx)


#: The text of each step kind (its home's ``describe``): its sentence, the lines under it
#: and its citation.
_STEP_TEXT: dict[str, Callable[[_Ctx, Mapping[str, Any], str, int],
                               tuple[str, list[str], list[str]]]] = {
    **{h.name: h.describe for h in STEP_HOMES if h.describe is not None},
    # the steps without a home yet
    **{kind: _unhomed(f) for kind, f in {
           "decide": _step_decide,
           "tricks": _step_tricks,
           "auction": _step_auction,
       }.items()},
}


def _step_lines(step: Mapping[str, Any], number: str, indent: int, ctx: _Ctx) -> list[str]:
    kind = _step_kind(step)
    first = " " * indent + f"{number}. "
    sub = indent + len(number) + 2
    prefix = ""
    if step.get("label"):
        prefix += f"({step['label']}) "
    if step.get("when") not in (None, "true", True):
        prefix += f"Only when {_f(step['when'])}{ctx.option_note(step['when'])}: "
    if kind is not None:
        text, body, citation = _STEP_TEXT[kind](ctx, step, number, sub)
    else:
        text, body, citation = "(a step spelbok does not know)", [], []
    lines = _wrap(prefix + text, sub, first=first) if (prefix + text) else [first.rstrip()]
    lines[1:] = [" " * sub + line.lstrip() for line in lines[1:]]
    return lines + body + citation + _cite(step, sub)


def _decide(step: Mapping[str, Any], sub: int, ctx: _Ctx) -> tuple[str, list[str]]:
    name = str(step.get("decide"))
    who = step.get("who", "each")
    single = who != "each"
    whom = _who(who, step.get("where"), single)
    choose = step.get("choose")
    body: list[str] = []
    if isinstance(choose, list):
        words = [str(w["word"]) if isinstance(w, Mapping) else str(w) for w in choose]
        text = f"Decision '{name}': {whom} chooses {_or(words)} (write: {', '.join(words)})."
        for w in choose:
            if isinstance(w, Mapping):
                body += _wrap(f"'{w['word']}' is offered only when {_f(w.get('when'))}.", sub + 2,
                              first=" " * sub + "- ")
    elif choose == "number":
        lo, hi = str(step.get("min", "0")), str(step.get("max", "0"))
        text = (f"Decision '{name}': {whom} names a number from {_f(lo)} to {_f(hi)} "
                f"(write: {name} 2).")
    elif choose == "suit":
        suits = step.get("suits") or ["C", "S", "H", "D"]
        text = (f"Decision '{name}': {whom} names a suit, {_or([_SYMBOLS.get(s, s) for s in suits])} "
                f"(write: {name} H).")
    else:
        ex = step.get("exchange") or {}
        source = "the turn-up" if ex.get("draw_from") == "turn_up" else "the stock"
        most = str(ex.get("max", "cards"))
        least = str(ex.get("min", "0"))
        limit = (f"up to {most} card" + ("" if most == "1" else "s")) if most.isdigit() else \
            f"up to `{most}` cards"
        if least not in ("0", ""):
            limit += f" (at least `{least}`)" if not least.isdigit() else f" (at least {least})"
        example = f"{name} 7H{'' if most == '1' else ' 9S'}"
        if ex.get("draw_from") == "none":  # discard only: nothing is drawn
            exact = least == most and least.isdigit()
            count = (f"exactly {least} card" + ("" if least == "1" else "s")) if exact else limit
            text = (f"Decision '{name}': {whom} discards {count}, drawing nothing. "
                    f"Write: {example}" + ("." if least not in ("0", "") else
                                           f", or {name} alone to keep every card."))
        else:
            text = (f"Decision '{name}': {whom} may exchange with {source}: discard {limit}, "
                    f"never more than {source} holds, and draw as many from it. Write: "
                    f"{example}, or {name} alone to keep every card.")
        body += _cite(ex, sub)
    allow = step.get("allow")
    if isinstance(allow, list):
        body += _wrap("Only the choices that meet the first of these conditions met by some "
                      "choice are allowed: " + _levels(allow, "choice") + ".", sub + 2,
                      first=" " * sub + "- ")
    elif allow not in (None, "true", True):
        reason = f' (a choice it refuses is answered "{step["reason"]}")' \
            if step.get("reason") else ""
        body += _wrap(f"Only choices where {_f(allow)} are allowed{reason}.", sub + 2,
                      first=" " * sub + "- ")
    for var, formula in (step.get("then") or {}).items():
        body += _assign(var, formula, sub, head="Then ")
    return text, body


def _levels(levels: list[Any], what: str) -> str:
    """The levels of an ordered ``allow``, as prose: each tried when those before admit
    no candidate."""
    parts = []
    for i, level in enumerate(levels):
        cond = level.get("if", "true") if isinstance(level, Mapping) else "true"
        why = level.get("reason") if isinstance(level, Mapping) else None
        parts.append(("" if i == 0 else "else ") + _f(cond)
                     + (f' (a {what} refused is answered "{why}")' if why else ""))
    return "; ".join(parts)


def _per_trick(value: Any) -> str:
    """`` (worked out as each trick starts)`` for a trick rule that reads a per-trick name."""
    from ..errors import FormulaError
    from ..formula import formula_names  # only for this note

    try:
        names = formula_names(str(value))
    except FormulaError:  # a formula the checks report: no note
        return ""
    return " (worked out as each trick starts)" if names & set(PER_TRICK_NAMES) else ""


#: What describe says of each trick rule when on / off (declared in the vocabulary).
_TRICK_RULES: tuple[tuple[str, str, str], ...] = tuple(
    (f.name, *f.prose) for f in TRICK_DUTIES)


def _tricks(t: Mapping[str, Any], sub: int, ctx: _Ctx) -> tuple[str, list[str]]:
    players = t.get("players", "not out")
    among = "the players still in" if players == "not out" else f"the players where {_f(players)}"
    leader = _who(t.get("leader", "forehand"), t.get("leader_where"), True)
    count = str(t.get("count", "all"))
    how_many = ("until their hands are empty" if count == "all" else
                f"for {count} tricks" if count.isdigit() else f"for {_f(count)} tricks")
    text = (f"Play tricks among {among} {how_many}. {leader[0].upper()}"
            f"{leader[1:]} leads the first trick; the winner of each trick leads the next.")
    rules: list[str] = []
    if t.get("scored", True) is False:
        rules.append("These tricks do not count towards the tricks a player takes.")
    elif t.get("scored", True) is not True:
        rules.append(f"These tricks count only when {_f(t['scored'])}.")
    for key, yes, no in _TRICK_RULES:
        value = t.get(key)
        if value is True:
            rules.append(yes)
        elif value is False:
            if no:
                rules.append(no)
        elif value is not None:
            rules.append(f"When {_f(value)}{ctx.option_note(value)}{_per_trick(value)}: "
                         f"{yes[0].lower()}{yes[1:]}")
    lead, note = ctx.enum(t.get("lead_trumps", "any"), ("any", "broken"))
    breaks = {"ruff": "a trump has been played to a trick of another suit",
              "any": "any trump has been played, even one led by a player holding nothing else"}
    by, by_note = ctx.enum(t.get("trumps_broken_by", TRUMPS_BROKEN_BY[0]), TRUMPS_BROKEN_BY)
    until = breaks.get(by, breaks["ruff"]) + (' ("broken")' if lead == "broken" else "")
    if by_note:  # an option chooses what breaks trumps: say what the other value does
        other = next(v for v in TRUMPS_BROKEN_BY if v != by)
        until += f"{by_note[:-1]}; with '{other}', until {breaks[other]})"
    if lead == "broken":
        rules.append(f"Trumps may not be led until {until}, unless the leader holds only "
                     f"trumps{note}.")
    elif note:
        rules.append(f"Trumps may be led at any time{note}; with 'broken', not until {until}.")
    ftt = t.get("first_trick_trumps", True)
    rule = ("no trump may be played to the first trick of a hand unless a player has nothing "
            "else; such a trump counts as a plain card")
    if ftt is False:
        rules.append(rule[0].upper() + rule[1:] + ".")
    elif ftt is not True:
        value = ctx.default_of(ftt)
        note = {True: " (with the default options it is true: trumps may be played)",
                False: " (with the default options it is false)"}.get(value, "") \
            if isinstance(value, bool) else ""
        rules.append(f"When {_f(ftt)} is false, {rule}{note}.")
    trump_from, from_note = ctx.enum(t.get("trump_from", "none"), _words("tricks", "trump_from"))
    if trump_from == "first_lead" or from_note:
        by = t.get("trump_by", "true")
        whose = "" if by in ("true", True) else f" by a player where {_f(by)}"
        rules.append(f"While no trump is set, the first card led{whose} names trump: its suit "
                     f"becomes trump at once, for that trick and the rest of the hand{from_note}.")
    down = t.get("face_down", "false")
    if down not in ("false", False):
        who = "A player" if down in ("true", True) else f"A player where {_f(down)}"
        down_as, as_note = ctx.enum(t.get("face_down_as", "lowest_trump"),
                                    _words("tricks", "face_down_as"))
        counts = ("the lowest trump (of no suit while there is no trump)"
                  if down_as == "lowest_trump" else "a card of no suit, which never wins")
        shown = t.get("face_down_shown", True)
        seen = ("the others see it when the trick ends" if shown is True else
                "it stays hidden from the others" if shown is False else
                f"the others see it when the trick ends if {_f(shown)}")
        rules.append(f"{who} may play a card face down (write: "
                     f"{t.get('face_down_word', 'down')} 7H); it counts as {counts}{as_note}, "
                     f"and {seen}.")
    for d in t.get("declare") or []:
        word, when = d.get("word", ""), d.get("when", "true")
        card = "any card" if when in ("true", True) else f"a card where {_f(when)}"
        said = f"A player may declare {word} with {card} he plays (write: {word} 7H)"
        then = d.get("then") or {}
        if then:
            said += "; it sets " + ", ".join(f"{k} = {_f(v)}" for k, v in then.items())
        binds = d.get("binds", "true")
        if binds not in ("true", True):
            said += (f"; the next player to the trick must then play a card where {_f(binds)}"
                     " if he can")
            if d.get("reason"):
                said += f' (else "{d["reason"]}")'
        rules.append(said + ".")
    abstain = t.get("abstain", "false")
    if abstain not in ("false", False):
        word = t.get("abstain_word", "knock")
        who = "A player" if abstain in ("true", True) else f"A player where {_f(abstain)}"
        extra = []
        if t.get("abstain_lead", True) is False:
            extra.append("not when due to lead")
        if t.get("abstain_with_suit", True) is False:
            extra.append("not while holding the suit led")
        rules.append(f"{who} may {word} (sit the trick out, write: {word}) instead of playing, "
                     "as long as they hold fewer cards than tricks remain"
                     + (f" ({'; '.join(extra)})" if extra else "") + ".")
    allow = t.get("allow", "true")
    if isinstance(allow, list):
        rules.append("Each card played must also satisfy the first of these conditions that "
                     "some card the player may play meets (when none does, any card may be "
                     "played): " + _levels(allow, "card") + ".")
    elif allow not in ("true", True):
        reason = f'; a card it refuses is answered "{t["reason"]}"' if t.get("reason") else ""
        rules.append(f"Each card played must also satisfy {_f(allow)} (when no card does, any "
                     f"card may be played){reason}.")
    rules += _stock_rules(t)
    body: list[str] = []
    for rule in rules:
        body += _wrap(rule, sub + 2, first=" " * sub + "- ")
    after = t.get("after_each") or []
    if after:
        body.append(" " * sub + "After each trick (last_winner is its winner):")
        for i, s in enumerate(after, 1):
            body += _step_lines(s, f"{i}", sub + 2, ctx)
    return text, body


# ------------------------------------------------------------------------- changes


def _path_text(path: Sequence[Any]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(the whole spec)"


def _short(value: Any, limit: int = 70) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def spec_changes(base: Any, variant: Any, path: tuple[Any, ...] = ()) -> list[tuple[str, str]]:
    """The keys that differ between two canonical trees: ``(path, "old → new")``.

    >>> spec_changes({"a": 1, "b": {"c": [1, 2]}}, {"a": 1, "b": {"c": [1, 3]}, "d": True})
    [('b.c[1]', '2 → 3'), ('d', '(new) true')]
    """
    if isinstance(base, Mapping) and isinstance(variant, Mapping):
        out: list[tuple[str, str]] = []
        for key in [*base, *(k for k in variant if k not in base)]:
            sub = (*path, key)
            if key not in variant:
                out.append((_path_text(sub), f"{_short(base[key])} → (removed)"))
            elif key not in base:
                out.append((_path_text(sub), f"(new) {_short(variant[key])}"))
            else:
                out += spec_changes(base[key], variant[key], sub)
        return out
    if isinstance(base, list) and isinstance(variant, list):
        import difflib

        out = []
        keys_a = [json.dumps(x, sort_keys=True) for x in base]
        keys_b = [json.dumps(x, sort_keys=True) for x in variant]
        matcher = difflib.SequenceMatcher(a=keys_a, b=keys_b, autojunk=False)
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal":
                continue
            pairs = min(a1 - a0, b1 - b0) if op == "replace" else 0
            for k in range(pairs):
                out += spec_changes(base[a0 + k], variant[b0 + k], (*path, b0 + k))
            for i in range(a0 + pairs, a1):
                out.append((_path_text((*path, i)), f"{_short(base[i])} → (removed)"))
            for i in range(b0 + pairs, b1):
                out.append((_path_text((*path, i)), f"(new) {_short(variant[i])}"))
        return out
    if base == variant and type(base) is type(variant):
        return []
    return [(_path_text(path), f"{_short(base)} → {_short(variant)}")]


def _read_base(name: str) -> Any:
    from .loader import read_spec

    if not os.path.exists(name) and name.startswith("spelbok.specs/"):
        name = name[len("spelbok.specs/"):]
    return read_spec(name)


def _section_changes(doc: Any) -> list[str]:
    parents = tuple(getattr(doc, "parents", ()) or ())
    if not parents:
        return []
    base_name = parents[0]
    lines = _title(f"Changes against {os.path.basename(base_name)}")
    try:
        base = _read_base(base_name)
    except Exception as exc:  # the base loaded once already; report rather than fail
        return lines + _wrap(f"(cannot read the base spec {base_name}: {exc})")
    changes = [(p, c) for p, c in spec_changes(base.tree, doc.tree) if p not in ("name", "about")]
    name_change = base.tree.get("name") != doc.tree.get("name")
    shown = os.path.normpath(base_name)
    if os.path.isabs(shown):
        try:
            rel = os.path.relpath(shown)
            shown = shown if rel.startswith("..") else rel
        except ValueError:
            pass
    lines += _wrap(f"This spec extends {shown}"
                   + (f" ({base.tree.get('name')})" if name_change else "") + ".")
    if not changes:
        return lines + _wrap("It changes no rule.")
    for path, change in changes:
        lines += _wrap(f"{path}: {change}", 4, first="  - ")
    return lines


# ------------------------------------------------------------------------- entry point


class _Kit(_Ctx):
    """describe's context for a section's prose, its first argument: the context
    (``tree``, ``players``, ``enum``, ``option_note``...), with the helpers of the prose
    that live here (:mod:`spelbok.lang.prose` has the others)."""

    card = staticmethod(_card)
    suits = staticmethod(_suits)
    span = staticmethod(_range)
    title = staticmethod(_title)
    declared_pack = staticmethod(_declared_pack)

    def __init__(self, tree: Mapping[str, Any], players: int | None, doc: Any = None) -> None:
        super().__init__(tree, players)
        self.doc = doc

    def changes(self) -> list[str]:
        """The section of what a variant changes against its base (none for a base)."""
        return _section_changes(self.doc)


def describe(doc: Any, players: int | None = None) -> str:
    """The rules of a loaded spec (a :class:`~spelbok.lang.model.SpecDoc`, or a path or
    shipped name to read) as readable text.

    ``players`` narrows the cards to that player count and adds how the pack
    divides between hands, turn-up and stock.

    >>> text = describe("example", players=3)
    >>> "With 3 players: 5 cards each (15 in all), 1 turned up, 16 left in the stock" in text
    True
    >>> "Changes against" in text
    False
    """
    if not hasattr(doc, "tree"):
        from .loader import read_spec

        doc = read_spec(doc)
    tree = doc.tree
    if players is not None:
        lo, hi = tree["players"]["min"], tree["players"]["max"]
        if not lo <= players <= hi:
            from ..errors import SpecError

            raise SpecError(f"{tree.get('name', 'this game')} is for {_range(lo, hi)} players, "
                            f"not {players}")
    kit = _Kit(tree, players, doc)
    lines: list[str] = []
    for home in PROSE_ORDER:  # each section's prose, in describe's order
        if home.describe is not None:
            lines += home.describe(kit, tree)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def describe_step(doc: Any, path: Sequence[Any], players: int | None = None) -> str:
    """The rules of the hand's step holding ``path`` (a step's path in the spec tree, as
    :class:`~spelbok.engine.program.Origin` gives it), numbered as :func:`describe` does;
    "" when ``path`` is not in the hand.

    >>> describe_step("example", ("hand", 0)).splitlines()[0]
    '1. (deal) Shuffle and deal 5 cards to each player still in, in packets of 2 then 3,'
    """
    if not hasattr(doc, "tree"):
        from .loader import read_spec

        doc = read_spec(doc)
    steps = doc.tree.get("hand") or []
    if len(path) < 2 or path[0] != "hand" or not isinstance(path[1], int) \
            or not 0 <= path[1] < len(steps):
        return ""
    return "\n".join(_step_lines(steps[path[1]], str(path[1] + 1), 0, _Ctx(doc.tree, players)))
