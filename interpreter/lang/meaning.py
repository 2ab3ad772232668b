"""Meaning checks: formulas that cannot mean what they say (trick-only names outside a
trick, impossible comparisons, a word compared with a number, ...)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..cards import RANKS as _RANKS
from ..cards import SUIT_INDEX
from ..cards import SUITS as _SUITS
from ..errors import FormulaError, SpecError, SpecWarning, did_you_mean
from ..formula import (
    FILTER_NAMES,
    Bool,
    Compare,
    Filter,
    Name,
    Node,
    Num,
    Str,
    Unary,
    iter_nodes,
    parse_formula,
    unparse,
)
from . import vocabulary as _v
from .vocabulary import step_kind as _step_kind
from .yamlio import locate_in_text

if TYPE_CHECKING:
    from .checks import _Checker

#: Names the formula language defines (state and context builtins).
BUILTIN_NAMES = frozenset(b.name for b in _v.BUILTINS)
#: Functions of the formula language.
FUNCTION_NAMES = frozenset(f.name for f in _v.FUNCTIONS)
#: Words of the formula language.
KEYWORDS = frozenset(w.name for w in _v.KEYWORDS)
_RESERVED = BUILTIN_NAMES | FUNCTION_NAMES | KEYWORDS

PER_TRICK_NAMES, TRICK_ONLY_NAMES = _v.PER_TRICK_NAMES, _v.TRICK_ONLY_NAMES
#: Per-trick names that read the cards of the trick: empty as a trick starts.
# the trick's own cards, none yet as a trick starts (a seat's hand, the cards played and
# won before hold theirs then: read inside any() or count(), they are no mistake)
_BEFORE_CARDS = {b.name for b in _v.BUILTINS
                 if b.per_trick and b.scope == "trick" and b.type in ("card", "cards")}
SUIT_NAMES, RANK_NAMES = _v.SUIT_NAMES, _v.RANK_NAMES

Path = tuple[Any, ...]


def _walk(steps: list[dict[str, Any]], path: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    return _v.walk_steps(steps, path)


def _kind(step: dict[str, Any]) -> str:
    return _step_kind(step) or ""


_SUIT_WORDS = {"club": "C", "clubs": "C", "spade": "S", "spades": "S", "heart": "H",
               "hearts": "H", "diamond": "D", "diamonds": "D", "no": "none", "no trump": "none",
               "notrump": "none", "notrumps": "none", "": "none"}
_RANK_WORDS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "knave": "J", "ten": "10",
               "nine": "9", "eight": "8", "seven": "7", "six": "6", "five": "5", "four": "4",
               "three": "3", "two": "2", "deuce": "2", "t": "10"}


def _suggest(value: str, allowed: list[str], words: dict[str, str] | None = None) -> str | None:
    """The allowed value meant by ``value``: same letters in another case, a name of it
    (``'Ace'`` for ``'A'``, ``'clubs'`` for ``'C'``), or else a close spelling."""
    low = value.strip().lower()
    for a in allowed:
        if a.lower() == low:
            return a
    if words and words.get(low) in allowed:
        return words[low]
    if len(low) == 1 and low.upper() in SUIT_INDEX and _SUITS[SUIT_INDEX[low.upper()]] in allowed:
        return _SUITS[SUIT_INDEX[low.upper()]]  # a suit symbol
    return did_you_mean(value, allowed)


def _suit_letter(suit: Any) -> str:
    """A suit as written in the spec (a letter or a symbol) as formulas read it."""
    i = SUIT_INDEX.get(str(suit).upper())
    return str(suit) if i is None else _SUITS[i]


def _literal(value: Any) -> Node:
    """The formula literal of an option value."""
    return Bool(value) if isinstance(value, bool) else Num(value) if isinstance(value, int) \
        else Str(str(value))


def _shown(values: list[str]) -> str:
    return ", ".join(f"'{v}'" for v in values)


def _complementary(a: Node, b: Node) -> bool:
    """True when ``b`` is plainly the negation of ``a`` (``x`` / ``not x``, ``==`` / ``!=``)."""
    if isinstance(a, Unary) and a.op == "not" and a.operand == b:
        return True
    if isinstance(b, Unary) and b.op == "not" and b.operand == a:
        return True
    return (isinstance(a, Compare) and isinstance(b, Compare) and {a.op, b.op} == {"==", "!="}
            and a.left == b.left and a.right == b.right)


# Where a formula sits, as far as these checks care.
_TRICK_ALLOW, _TRICK_ABSTAIN, _TRICK_FLAG, _DECIDE, _OTHER = (
    "allow", "abstain", "flag", "decide", "other")

#: One formula field: its path, its value (text, or a bool, int or None to skip), where it
#: sits and the step it belongs to.
_Field = tuple[Path, Any, str, dict[str, Any] | None]


def _formula_fields(tree: dict[str, Any]) -> Iterator[_Field]:
    """Every formula (or condition) of the spec that is written as text."""
    for path, step in _walk(tree["hand"], ("hand",)):
        yield from _step_fields(path, step)
    end = tree["end"]
    for key in ("when", "winners", "score"):
        yield ("end", key), end.get(key), _OTHER, None


#: The field types that hold a formula (or a condition) written as text.
_FORMULA_TYPES = frozenset(("formula", "condition", "count"))
#: Step kinds whose formulas read the step's own context (the choice, the trick).
_OWNED = ("decide", "tricks")


def _where(kind: str, f: _v.Field) -> str:
    if kind == "tricks" and f.rule:
        return _TRICK_FLAG
    if kind == "tricks" and f.name in (_TRICK_ALLOW, _TRICK_ABSTAIN, "face_down"):
        return f.name
    if kind == "tricks" and f.name == "takes_trick":  # reads each card of the trick
        return _TRICK_ALLOW
    if kind == "declare":
        return "declare"
    if kind == "announce":  # an announcement's formulas, read at the announcer's turn
        return "announce"
    if kind == "auction" and f.name == "call_allow":
        return "call_allow"
    if kind == "decide" and f.name in ("then", "allow"):
        return _DECIDE
    return _OTHER


def _fields_of(path: Path, node: Any, fields: Iterable[_v.Field], kind: str,
               owner: dict[str, Any] | None) -> Iterator[_Field]:
    """The formula fields among the declared ``fields`` of ``node`` (and of the maps
    they hold: a ``most`` player choice, word options, an exchange)."""
    for f in fields:
        value = node.get(f.name) if isinstance(node, dict) else None
        here = (*path, f.name)
        if f.type in _FORMULA_TYPES:
            yield here, value, _where(kind, f), owner
        elif f.type == "allow":  # one condition, or the conditions of its levels
            # an exchange's allow reads each card given away
            where = "exchange" if kind == "decide" and isinstance(node, dict) \
                and node.get("choose") == "exchange" else _where(kind, f)
            if isinstance(value, list):
                for i, level in enumerate(value):
                    cond = level.get("if") if isinstance(level, dict) else None
                    yield (*here, i, "if"), cond, where, owner
            else:
                yield here, value, where, owner
        elif f.type == "assignments":
            for name, expr in (value or {}).items():
                yield (*here, name), expr, _where(kind, f), owner
        elif f.type == "who" and isinstance(value, dict):
            yield from _fields_of(here, value, _v.construct("who_map").fields, kind, None)
        elif f.type == "choose" and isinstance(value, list):
            for i, w in enumerate(value):
                yield from _fields_of((*here, i), w, _v.construct("word_option").fields, kind,
                                      owner)
        elif f.type == "exchange":
            for p_, v_, w_, o_ in _fields_of(here, value or {}, _v.construct("exchange").fields,
                                             kind, owner):
                yield p_, v_, "exchange" if p_[-1] == "show" else w_, o_
        elif f.type == "list[announcement]" and isinstance(value, list):
            # an announcement's formulas read the player to play (its steps are steps)
            for i, d in enumerate(value):
                yield from _fields_of((*here, i), d, _v.construct("announcement").fields,
                                      "announce", owner)
        elif f.type == "list[declaration]" and isinstance(value, list):
            # a declaration's formulas read the card played with it: 'declare' names them
            for i, d in enumerate(value):
                yield from _fields_of((*here, i), d, _v.construct("declaration").fields,
                                      "declare", owner)
        elif f.type == "list[show]" and isinstance(value, list):
            # a show's formulas read the card shown, as a declaration's (deal.shows)
            for i, d in enumerate(value):
                yield from _fields_of((*here, i), d, _v.construct("show").fields,
                                      "declare", owner)


def _step_fields(path: Path, step: dict[str, Any]) -> Iterator[_Field]:
    """The formula fields of one step, as the vocabulary declares its keys."""
    yield from _fields_of(path, step, _v.STEP_COMMON, "", None)
    kind = _kind(step)
    if not kind:
        return
    c = _v.step(kind)
    owner = step if kind in _OWNED else None
    if c.body is not None:
        yield from _fields_of((*path, kind), step[kind], c.body, kind, owner)
    yield from _fields_of(path, step, (*((c.value,) if c.value else ()), *c.fields), kind, owner)


class _Meaning:
    """The checks of formulas' meaning, reporting through a :class:`_Checker`."""

    def __init__(self, checker: _Checker) -> None:
        self.c = checker
        tree = checker.tree
        self.deck_ranks = {str(r) for e in tree["deck"] for r in e["ranks"]}
        self.deck_suits = {_suit_letter(s) for e in tree["deck"] for s in e["suits"]}
        pack = tree.get("pack")  # a declared pack's texts (the deck names them as they are)
        self.ranks = [str(r) for r in pack["ranks"]] if pack else list(_RANKS)
        self.letters = [str(s["letter"]) for s in pack["suits"]] if pack else list(_SUITS)
        if pack:
            self.deck_suits = {str(s) for e in tree["deck"] for s in e["suits"]}
        self.decides = [step for _, step in _walk(tree["hand"], ("hand",)) if "decide" in step]
        self.reserved = _RESERVED
        #: variables whose initial value is text (compared by order with a number, they fail)
        self.text_vars = {name: v for scope in (tree.get("variables") or {}).values()
                          if isinstance(scope, dict) for name, v in scope.items()
                          if isinstance(v, str)}
        self.text = ""  # the formula being checked, for exact locations

    def report(self, path: Path, node: Node, message: str, hint: str | None = None,
               *, warn: bool = False) -> None:
        """A problem at ``node`` of the formula at ``path`` (located as the compiler does)."""
        file, line, col = locate_in_text(self.c.doc.locate, path, self.text, node.line,
                                         node.column)
        cls = SpecWarning if warn else SpecError
        (self.c.warnings if warn else self.c.errors).append(cls(message, file, line, col, hint))

    def run(self) -> None:
        for path, text, where, step in _formula_fields(self.c.tree):
            if not isinstance(text, str):
                continue
            try:
                node = parse_formula(text)
            except FormulaError:
                continue  # the compiler reports it
            self.text = text
            self.names(path, node, where, step)
            for n in iter_nodes(node):
                if isinstance(n, Compare) and n.op in ("<", "<=", ">", ">="):
                    self.order(path, n)
                if isinstance(n, Compare) and n.op in ("==", "!="):
                    if isinstance(n.left, Name) and isinstance(n.right, Str | Num | Bool):
                        self.compare(path, n.left.name, n.right, where, step)
                    elif isinstance(n.right, Name) and isinstance(n.left, Str | Num | Bool):
                        self.compare(path, n.right.name, n.left, where, step)

    def order(self, path: Path, n: Compare) -> None:
        """A variable that starts as text, compared by order with a number: the match would
        stop with a TypeError when it reads the variable before a step sets a number."""
        for side, other in ((n.left, n.right), (n.right, n.left)):
            if (isinstance(side, Name) and side.name in self.text_vars
                    and side.name not in self.c.options
                    and (isinstance(other, Num) or isinstance(other, Unary)
                         and isinstance(other.operand, Num))):
                self.report(path, side, f"'{side.name}' starts as text "
                            f"({self.text_vars[side.name]!r}) but is compared with a number "
                            "here: give it a number as its initial value")

    def names(self, path: Path, node: Node, where: str, step: dict[str, Any] | None) -> None:
        # a trick rule that reads a per-trick name is worked out as each trick starts (the
        # compiler's TrickPlayEach): then the cards of the trick are not played yet
        changing: set[str] = set()
        if where == _TRICK_FLAG and step is not None:
            changing = _BEFORE_CARDS
        # inside `cards where cond`, the card names read each card of the set: anywhere
        each_card = {id(m) for f in iter_nodes(node) if isinstance(f, Filter)
                     for m in iter_nodes(f.cond) if isinstance(m, Name) and m.name in FILTER_NAMES}
        for n in iter_nodes(node):
            if not isinstance(n, Name) or n.name in self.c.options and n.name not in self.reserved:
                continue
            fields = TRICK_ONLY_NAMES.get(n.name)
            if fields is not None and where not in fields and id(n) not in each_card:
                places = " and ".join(f"'{f}'" for f in fields if f != "exchange")
                also = " (and an exchange's 'allow' and 'show')" if "exchange" in fields else ""
                self.report(path, n, f"'{n.name}' has a value only while a trick is played, in "
                            f"the trick's {places}{also}: here it means nothing")
            elif n.name in changing:
                self.report(path, n, f"'{path[-1]}' is worked out as each trick starts, before "
                            f"a card is played, so '{n.name}' holds no card then (a rule on "
                            "the cards of the trick belongs in 'allow')", warn=True)

    def compare(self, path: Path, name: str, lit: Str | Num | Bool, where: str,
                step: dict[str, Any] | None) -> None:
        if name in self.c.options and name not in self.reserved:
            # values of another type: the compiler reports the comparison itself
            values = [v for v in self.c.options[name]["values"] if type(v) is type(lit.value)]
            if values and lit.value not in values:
                shown = ", ".join(unparse(_literal(v)) for v in values)
                self.report(path, lit, f"the option '{name}' is never {unparse(lit)} (its "
                            f"values: {shown})", _suggest(str(lit.value), [str(v) for v in values]),
                            warn=True)
            return
        if not isinstance(lit, Str):
            return
        if name in RANK_NAMES:
            allowed = self.ranks + (["none"] if RANK_NAMES[name] else [])
            self.card_part(path, lit, name, allowed, self.deck_ranks | {"none"}, "rank",
                           _RANK_WORDS)
        elif name in SUIT_NAMES:
            allowed = self.letters + (["none"] if SUIT_NAMES[name] else [])
            self.card_part(path, lit, name, allowed, self.deck_suits | {"none"}, "suit",
                           _SUIT_WORDS)
        elif name == "choice":
            self.choice(path, lit, step if where == _DECIDE else None)

    def card_part(self, path: Path, lit: Str, name: str, allowed: list[str], deck: set[str],
                  what: str, words: dict[str, str]) -> None:
        value = lit.value
        if value not in allowed:
            written = (f"suits are the letters {', '.join(self.letters)}" if what == "suit"
                       else f"ranks are written {', '.join(reversed(self.ranks))}")
            if "none" in allowed:
                written += " (or 'none')"
            self.report(path, lit, f"'{name}' is never '{value}': {written}",
                        _suggest(value, allowed, words))
        elif value not in deck:
            self.report(path, lit, f"'{name}' is never '{value}': no deck has that {what}",
                        warn=True)

    def choice(self, path: Path, lit: Str, step: dict[str, Any] | None) -> None:
        """``choice`` is the word, suit letter or number chosen in this decision (in its
        ``then`` and ``allow``), else in the last decision made."""
        steps = [step] if step is not None else self.decides
        values: list[str] = [] if step is not None else [""]  # before any decision, or after an exchange
        numbers = False
        for s in steps:
            choose = s["choose"]
            if isinstance(choose, list):
                values += [str(w["word"] if isinstance(w, dict) else w).lower() for w in choose]
            elif choose == "suit":
                values += [_suit_letter(x) for x in s.get("suits", _SUITS)]
            elif choose == "exchange":
                values.append("")
            else:
                numbers = True
        if lit.value in values:
            return
        if step is not None:
            decision = f"the decision '{step['decide']}'"
            shown = [v for v in values if v]
            if step["choose"] == "exchange":
                offers = "is an exchange: 'choice' is always '' (the cards given are 'count')"
            elif numbers:
                offers = "chooses a number"
            else:
                offers = f"offers {_shown(shown)}"
            self.report(path, lit, f"'choice' is never '{lit.value}': {decision} {offers}",
                        _suggest(lit.value, shown, _SUIT_WORDS))
        else:
            shown = sorted({v for v in values if v})
            offers = f"the decisions offer {_shown(shown)}" if shown else "no decision offers a word"
            if numbers:
                offers += " (and numbers)"
            self.report(path, lit, f"'choice' is never '{lit.value}': {offers}",
                        _suggest(lit.value, shown, _SUIT_WORDS))


# ----------------------------------------------------------------- the deck-size check

#: Most combinations of option values the deck-size check tries (beyond: the defaults).
