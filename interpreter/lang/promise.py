"""``validate`` is a promise: a spec it accepts never stops ``play``, ``simulate``,
``verify`` or the game-AI adapters with an error.

The checks of compiling a game (:mod:`.compile_checks`) type every formula, but a
few names have no single type before play: ``choice`` is a word, a suit letter or a number depending on the
decision just made (``''`` before any), and an option may list values of several
kinds.  This pass compiles each formula that reads such a name once for every kind
the name can have at that place, so that ``choice + 1`` after a word decision is a
located error, not a crash in play.  It also bounds, before play, what play would
otherwise find too large or empty:

- a ``choose: number`` decision offers at most :data:`~spelbok.limits.MAX_CHOICES`
  numbers and never none; a ``max`` worked out in play must be bounded by the deck's
  size (the game-AI action space numbers ``0..cards`` for it), a ``min`` never above
  the ``max`` (see :mod:`spelbok.formula.bounds` for how a formula's range is found);
- a ``repeat`` worked out in play runs at most :data:`~spelbok.limits.MAX_REPEAT` rounds;
- an exchange never offers more than :data:`~spelbok.limits.MAX_EXCHANGES` card sets
  (its hand's subsets within ``max``), with the hand's size bounded by the deals and
  the moves into hands.

Where the engine treats a case as defined instead (a divisor worked out as 0 gives 0),
the formula language's documentation says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from math import comb
from typing import TYPE_CHECKING, Any

from ..cards import FRENCH, pack_of
from ..errors import FormulaError, SpecError
from ..formula import NameInfo, compile_formula, formula_names, parse_formula
from ..formula.bounds import Interval, bounds
from ..formula.name_table import TypeResolver
from ..formula.tables import table_names
from ..limits import MAX_CHOICES, MAX_EXCHANGES, MAX_REPEAT
from . import vocabulary as _v
from .constructs import entry_size
from .deck_size import hand_cards, seats_dealt
from .meaning import _DECIDE, _formula_fields
from .yamlio import locate_in_text

if TYPE_CHECKING:
    from .checks import _Checker

Path = tuple[Any, ...]

#: The integer builtins' ranges, from the deck's size ``c`` and the seats ``n`` (a name
#: not listed is unbounded; a test checks every int builtin is listed or meant to be).
INT_RANGES: dict[str, Any] = {
    "seat": lambda c, n: (0, n - 1),
    "tricks": lambda c, n: (0, c),
    "cards": lambda c, n: (0, c),
    "order": lambda c, n: (1, n),
    "team": lambda c, n: (0, n - 1),
    "partner": lambda c, n: (-1, n - 1),
    "team_tricks": lambda c, n: (0, c),
    "tricks_played": lambda c, n: (0, c),
    "tied_tricks": lambda c, n: (0, c),
    "failed_throws": lambda c, n: (0, c),
    "talon": lambda c, n: (0, c),
    "turn_up": lambda c, n: (0, c),
    "seats": lambda c, n: (n, n),
    "dealer": lambda c, n: (0, n - 1),
    "pattern_seat": lambda c, n: (-1, n - 1),
    "count": lambda c, n: (0, c),
    "trick_number": lambda c, n: (1, c + 1),
    "last_winner": lambda c, n: (-1, n - 1),
    "tied_by": lambda c, n: (-1, n - 1),
    "declarer_seat": lambda c, n: (-1, n - 1),
    "doubled": lambda c, n: (0, 2),
    "hand_number": lambda c, n: (1, None),
}
#: Integer builtins whose range the deck does not bound (points, levels of contracts).
UNBOUNDED_INTS = frozenset({"meld_points", "card_points", "team_card_points",
                            "contract_level", "contract_aim", "contract_points",
                            "melds_made"})

_ARTICLE = {"int": "a number", "str": "a word", "bool": "a condition (true or false)"}
#: Keys whose formula must give a whole number.
_NUMBER_KEYS = frozenset({"size", "widow", "min", "max", "count", "repeat", "by", "first",
                          "most", "rank", "points"})
#: Most combinations of kinds one formula is compiled for.
_MAX_VARIANTS = 16


def check_promise(checker: _Checker) -> None:
    """Every check of this module, reporting through ``checker`` (run after the others
    found nothing: the tree is then sound)."""
    _Promise(checker).run()


def _type_of(value: Any) -> str:
    return "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "str"



def player_counts_to_compile(tree: dict[str, Any]) -> list[int]:
    """The player counts whose compilation covers every deck entry."""
    lo, hi = int(tree["players"]["min"]), int(tree["players"]["max"])
    counts = {lo, hi}
    for entry in tree.get("deck", []):
        counts.add(int(entry["players"][0]))
    if tree.get("teams_when", True) is not True:  # teams by player count: each count
        counts.update(range(lo, hi + 1))
    return sorted(counts)

class _Promise:
    def __init__(self, checker: _Checker) -> None:
        self.c = checker
        self.tree = checker.tree
        self.options: dict[str, Any] = self.tree.get("options") or {}
        variables = self.tree.get("variables") or {}
        self.var_types = {name: _type_of(init) for scope in variables.values()
                          for name, init in scope.items()}
        self.decides = [(p, s) for p, s in _v.walk_steps(self.tree["hand"], ("hand",))
                        if "decide" in s]
        self.seen: set[str] = set()
        self.anywhere: list[str] | None = None  # choice's kinds outside a decision
        self.seen_paths: set[Path] = set()

    def run(self) -> None:
        self.formula_kinds()
        self.number_fields()
        for entry, n in self.counts():
            cards = self.deck_cards(entry)
            self.number_ranges(n, cards)
            self.exchanges(n, cards)
            self.repeats(n, cards)

    # ------------------------------------------------------------ kinds of formulas

    def counts(self) -> list[tuple[dict[str, Any], int]]:
        """(deck entry, player count) for the counts validate compiles."""
        out = []
        for n in player_counts_to_compile(self.tree):
            entry = next((e for e in self.tree["deck"]
                          if e["players"][0] <= n <= e["players"][1]), None)
            if entry is not None:
                out.append((entry, n))
        return out

    def deck_cards(self, entry: dict[str, Any]) -> int:
        return entry_size(entry, self.c.cards)

    def _resolver(self) -> Any:
        """The names' kinds and types (nothing is evaluated: no game is compiled)."""
        variables = self.tree.get("variables") or {}
        pvars: dict[str, int] = {}
        gvars: dict[str, int] = {}
        for scope in ("player", "hand_player"):
            for name in variables.get(scope, {}):
                pvars[name] = len(pvars)
        for scope in ("match", "hand"):
            for name in variables.get(scope, {}):
                gvars[name] = len(gvars)
        options = {k: o.get("default") for k, o in self.options.items()}
        pack = pack_of(self.tree.get("pack")) if self.tree.get("pack") else FRENCH
        types = {k: {"int": int, "str": str, "bool": bool}[t] for k, t in self.var_types.items()}
        resolver = TypeResolver(self.tree["players"]["max"], options, pvars, gvars, types, pack)
        resolver.table.update(table_names(self.tree.get("tables")))
        return resolver

    def choice_kinds(self, where: str, step: dict[str, Any] | None) -> list[str]:
        """The kinds ``choice`` can hold where a formula reads it: in a decision's ``then``
        and ``allow``, that decision's; elsewhere, any decision's (or '' before any)."""
        if where == _DECIDE and step is not None:
            return ["int" if step.get("choose") == "number" else "str"]
        if self.anywhere is None:
            numbers = any(s.get("choose") == "number" for _, s in self.decides)
            self.anywhere = ["int", "str"] if numbers else ["str"]
        return self.anywhere

    def formula_kinds(self) -> None:
        """Each formula reading a name of several kinds, compiled for each kind."""
        mixed = {name: sorted({_type_of(v) for v in opt.get("values") or [opt.get("default")]})
                 for name, opt in self.options.items()}
        mixed = {k: v for k, v in mixed.items() if len(v) > 1}
        watch = ("choice", *mixed)
        resolver = None
        for path, text, where, step in _formula_fields(self.tree):
            if not isinstance(text, str) or not any(w in text for w in watch):
                continue  # (a cheap test first: most formulas read neither)
            try:
                names = formula_names(text)
            except FormulaError:
                continue  # the compiler reports it
            kinds: dict[str, list[str]] = {}
            if "choice" in names and "choice" not in self.options:
                kinds["choice"] = self.choice_kinds(where, step)
            for name in names & set(mixed):
                kinds[name] = mixed[name]
            if not kinds:
                continue
            if resolver is None:
                resolver = self._resolver()
            try:  # as the compiler sees it: its own errors are its to report
                compile_formula(text, resolver, per_player=True)
            except FormulaError:
                continue
            self.variants(path, text, kinds, resolver, where == _DECIDE and step is not None)

    def number_fields(self) -> None:
        """A size, count or bound is a whole number (play would fail to use another
        kind; the compiler checks only the values fixed at load)."""
        resolver = None
        for path, text, _where, _step in _formula_fields(self.tree):
            if (not isinstance(text, str) or path[-1] not in _NUMBER_KEYS
                    or path[-2] in ("then", "set") or text.strip() == "all"):
                continue
            if resolver is None:
                resolver = self._resolver()
            try:
                got = compile_formula(text, resolver, per_player=True)
            except FormulaError:
                continue  # the compiler reports it
            if got.type not in ("int", "any") and not got.constant:  # (fixed: the compiler's)
                self.report(path, text, 1, 1, f"'{path[-1]}' must be a whole number, but this "
                            f"formula gives {_ARTICLE.get(got.type, 'a ' + got.type)}", None)

    def variants(self, path: Path, text: str, kinds: dict[str, list[str]], resolver: Any,
                 in_decision: bool = False) -> None:
        want = self.wanted(path)
        combos = list(product(*kinds.values()))[:_MAX_VARIANTS]
        for combo in combos:
            given = dict(zip(kinds, combo, strict=True))
            r = _Overlay(resolver, given, self.options)
            why = ", ".join(self.said(name, kind, in_decision) for name, kind in given.items())
            try:
                got = compile_formula(text, r, per_player=True, strict_eq=False)
            except FormulaError as e:
                self.report(path, text, e.line, e.col, f"{e.message} when {why}",
                            self.hint(given))
                return
            if want is not None and got.type not in (want, "any"):
                self.report(path, text, 1, 1, f"this formula gives {_ARTICLE.get(got.type, got.type)} "
                            f"when {why}, but {self.wants(path, want)}", self.hint(given))
                return

    def wanted(self, path: Path) -> str | None:
        """The kind the value at ``path`` must have (None: any)."""
        if len(path) >= 2 and path[-2] in ("then", "set") and path[-1] in self.var_types:
            return self.var_types[path[-1]]
        if path == ("end", "score") or path[-1] in _NUMBER_KEYS:
            return "int"
        return None

    def wants(self, path: Path, want: str) -> str:
        if len(path) >= 2 and path[-2] in ("then", "set") and path[-1] in self.var_types:
            return f"the variable '{path[-1]}' holds {_ARTICLE[want]}"
        return f"'{path[-1]}' must be {_ARTICLE[want]}"

    def said(self, name: str, kind: str, in_decision: bool = False) -> str:
        if name == "choice" and in_decision:
            return ("'choice' is a number (this decision chooses one)" if kind == "int"
                    else "'choice' is a word (this decision's word or suit letter; an "
                    "exchange's is '')")
        if name == "choice":
            return ("'choice' is a number (after a number decision)" if kind == "int"
                    else "'choice' is a word ('' before any decision)")
        return f"the option '{name}' is {_ARTICLE.get(kind, kind)}"

    @staticmethod
    def hint(given: dict[str, str]) -> str:
        if "choice" in given:
            return ("'choice' holds what the decision just made chose: read a number in the "
                    "'then' or 'allow' of a 'choose: number' decision (or keep it in a "
                    "variable there)")
        return "give the option values of one kind (all numbers, or all words)"

    def report(self, path: Path, text: str, line: int | None, col: int | None, message: str,
               hint: str | None) -> None:
        file, ln, cl = locate_in_text(self.c.doc.locate, path, text, line, col)
        self.add(SpecError(f"{message}; {hint}" if hint else message, file, ln, cl))

    def err(self, path: Path, message: str, hint: str) -> None:
        if path not in self.seen_paths:  # once a place, at the first player count found
            self.seen_paths.add(path)
            self.add(self.c.doc.error(path, f"{message}: {hint}"))

    def add(self, error: SpecError) -> None:
        """An error, once (the player counts checked may find it again)."""
        if str(error) not in self.seen:
            self.seen.add(str(error))
            self.c.errors.append(error)

    # ------------------------------------------------------------ ranges of numbers

    def ranges(self, cards: int, n: int) -> dict[str, Interval]:
        out: dict[str, Interval] = {k: f(cards, n) for k, f in INT_RANGES.items()}
        for name, opt in self.options.items():
            values = [v for v in opt.get("values") or [opt.get("default")]
                      if type(v) is int]
            if values and len(values) == len(opt.get("values") or [opt.get("default")]):
                out[name] = (min(values), max(values))
            else:
                out.pop(name, None)
        for name in self.var_types:  # a variable may hold anything its steps set
            out.pop(name, None)
        return out

    def interval(self, value: Any, cards: int, n: int) -> Interval | None:
        """The range of a number field (None: not a formula of numbers: reported elsewhere)."""
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value, value
        try:
            node = parse_formula(str(value))
        except FormulaError:
            return None
        return bounds(node, self.ranges(cards, n), n, cards)

    def number_ranges(self, n: int, cards: int) -> None:
        for path, step in self.decides:
            if step.get("choose") != "number":
                continue
            lo = self.interval(step.get("min", 0), cards, n)
            hi = self.interval(step.get("max", 0), cards, n)
            if lo is None or hi is None:
                continue
            name = step["decide"]
            fixed = hi[0] == hi[1] and hi[0] is not None
            low = 0 if lo[1] is not None and lo[1] <= 0 else lo[1]  # the engine starts at 0
            if fixed and low is not None and hi[1] is not None:
                count = hi[1] - max(lo[0] if lo[0] is not None else 0, 0) + 1
                if count > MAX_CHOICES:
                    self.err((*path, "max"), f"the '{name}' decision would offer {count:,} "
                               f"numbers, more than the {MAX_CHOICES:,} one decision may",
                               "give it a smaller 'max'")
                    continue
            elif hi[1] is None or hi[1] > cards:
                top = "has no bound" if hi[1] is None else f"can reach {hi[1]:,}"
                self.err((*path, "max"), f"the '{name}' decision's 'max' is worked out in "
                           f"play and {top}: with {n} players (a deck of {cards} cards) it "
                           f"must stay within 0..{cards}",
                           f"bound it (max: \"min({step.get('max')}, {cards})\") or give a "
                           "number")
                continue
            if lo[0] == lo[1] and fixed:
                continue  # both fixed: the compiler says whether the range is empty
            if low is None or hi[0] is None or hi[0] < low:
                self.err((*path, "max"), f"the '{name}' decision may offer no number: its "
                           f"'max' can be below its 'min' (with {n} players)",
                           f"make sure it cannot (max: \"max({step.get('max')}, "
                           f"{step.get('min', 0)})\")")

    def repeats(self, n: int, cards: int) -> None:
        """A repeat count worked out in play stays within MAX_REPEAT rounds."""
        for path, step in _v.walk_steps(self.tree["hand"], ("hand",)):
            if "repeat" not in step or isinstance(step["repeat"], bool):
                continue
            iv = self.interval(step["repeat"], cards, n)
            if iv is None or (iv[1] is not None and (iv[1] <= MAX_REPEAT or iv[0] == iv[1])):
                continue  # (fixed at load: the compiler bounds it)
            top = "has no bound" if iv[1] is None else f"can reach {iv[1]:,}"
            self.err((*path, "repeat"), f"this repeat's count {top} (with {n} players), but "
                     f"one repeat runs at most {MAX_REPEAT:,} rounds",
                     f"bound it (repeat: \"min({step['repeat']}, {MAX_REPEAT})\")")

    # ------------------------------------------------------------ exchanges

    def hand_bound(self, n: int, cards: int) -> tuple[int, int]:
        """(most cards a hand can hold, most cards the stock can hold) at ``n`` players."""
        dealt = hand_cards(self.tree, n)
        if dealt is None:
            return cards, cards
        each, widow, ups = dealt
        playing = seats_dealt(self.tree, n, most_sitting=True)  # those sitting out get none
        rest = max(0, cards - playing * each - widow - ups)
        hand = each
        for _path, step, looped in _moves(self.tree["hand"], ("hand",), False):
            if step["move"].get("to", "hand") != "hand":
                continue
            count = step["move"].get("count", "all")
            if looped or count == "all":
                k = cards - playing * each if not looped else cards
            else:
                iv = self.interval(count, cards, n)
                k = cards if iv is None or iv[1] is None else max(0, iv[1])
            hand += k
        return min(hand, cards), rest

    def exchanges(self, n: int, cards: int) -> None:
        for path, step in self.decides:
            if step.get("choose") != "exchange":
                continue
            ex = step.get("exchange") or {}
            hand, stock = self.hand_bound(n, cards)
            top = hand
            draw = ex.get("draw_from", "stock")
            if draw == "stock":
                top = min(top, stock)
            if "max" in ex:
                iv = self.interval(ex["max"], cards, n)
                if iv is not None and iv[1] is not None:
                    top = min(top, max(0, iv[1]))
            low = 0
            if "min" in ex:
                iv = self.interval(ex["min"], cards, n)
                low = max(0, iv[0]) if iv is not None and iv[0] is not None else 0
            low = min(low, top)
            total = sum(comb(hand, k) for k in range(low, top + 1))
            if total <= MAX_EXCHANGES:
                continue
            most = max((k for k in range(low, top + 1)
                        if sum(comb(hand, j) for j in range(low, k + 1)) <= MAX_EXCHANGES),
                       default=low)
            where = (*path, "exchange", "max") if "max" in ex else (*path, "choose")
            self.err(where, f"the exchange '{step['decide']}' may give away up to {top} of "
                       f"{hand} cards (with {n} players): {total:,} card sets, more than the "
                       f"{MAX_EXCHANGES:,} one decision may offer",
                       f"give it a 'max' of at most {most}")


def _moves(steps: list[dict[str, Any]], path: Path, looped: bool
           ) -> Iterator[tuple[Path, dict[str, Any], bool]]:
    """The ``move`` steps, with whether each may run many times a hand."""
    for i, step in enumerate(steps):
        here = (*path, i)
        if "move" in step:
            yield here, step, looped
        for key, again in (("then", False), ("else", False), ("steps", True)):
            if isinstance(step.get(key), list):
                yield from _moves(step[key], (*here, key), looped or again)
        if "tricks" in step and isinstance(step["tricks"].get("after_each"), list):
            yield from _moves(step["tricks"]["after_each"], (*here, "tricks", "after_each"),
                              True)


class _Overlay:
    """A resolver that gives some names one kind (the rest as ``base`` says)."""

    def __init__(self, base: Any, kinds: dict[str, str], options: dict[str, Any]) -> None:
        self.base = base
        self.nseats = base.nseats
        self.cards = base.cards
        self.kinds = kinds
        self.options = options

    def resolve(self, name: str) -> NameInfo | None:
        kind = self.kinds.get(name)
        if kind is None:
            return self.base.resolve(name)
        if name in self.options:  # an option: one of its values of that kind, as a constant
            value = next(v for v in self.options[name].get("values") or []
                         if _type_of(v) == kind)
            return NameInfo("const", value, {"int": int, "str": str, "bool": bool}[kind])
        return NameInfo("global", lambda st: None, kind)

    def names(self) -> Any:
        return self.base.names()
