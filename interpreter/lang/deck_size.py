"""The deck-size check: does every hand the match can reach fit the pack?

Counts the cards each hand deals (widows, turn-ups, deals under ``when`` and
inside ``if``/``else``), evaluating sizes that read options, ``seats`` and
``hand_number`` over the hands the match can reach."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import FormulaError, SpelbokError
from ..formula import (
    DictResolver,
    NameInfo,
    compile_formula,
    formula_names,
)

Path = tuple[Any, ...]

_MAX_COMBOS = 64
#: Most moments (player count, options, hand number) it evaluates: a bound on load time.
_MAX_MOMENTS = 10_000


class _At:
    """A moment the deck-size check evaluates formulas at."""

    def __init__(self, seats: int, hand_number: int, opts: dict[str, Any]) -> None:
        self.seats = seats
        self.hand_number = hand_number
        self.opts = opts


class _DeckFormula:
    """A formula of numbers, options, ``seats`` and ``hand_number`` only."""

    def __init__(self, fn: Any, names: set[str]) -> None:
        self.fn = fn
        self.names = names

    @staticmethod
    def make(text: Any, options: dict[str, Any]) -> _DeckFormula | None:
        """None when the formula reads anything else (or does not compile: the
        compiler reports that)."""
        try:
            names = formula_names(str(text))
        except FormulaError:
            return None
        if not names <= set(options) | {"seats", "hand_number"}:
            return None
        infos: dict[str, NameInfo] = {
            "seats": NameInfo("global", lambda at: at.seats, int),
            "hand_number": NameInfo("global", lambda at: at.hand_number, int),
        }
        for name in names & set(options):
            infos[name] = NameInfo("global", lambda at, k=name: at.opts[k],
                                   type(options[name]["default"]))
        try:
            fn = compile_formula(str(text), DictResolver(1, infos), per_player=False).fn
        except FormulaError:
            return None
        return _DeckFormula(fn, names)

    def value(self, at: _At) -> Any:
        """The value at ``at``; None when it cannot be worked out (a formula error
        is the compiler's to report)."""
        try:
            return self.fn(at, 0)
        except (SpelbokError, ArithmeticError, ValueError):
            return None


class _Sitters:
    """How many seats sit a hand out (the ``sit_out`` section): the fewest over the
    dealer's seats, so that the check counts the most seats dealt to; none when there is
    no such section, or its condition reads anything but numbers, options, ``seats``,
    ``seat``, ``dealer`` and ``hand_number`` (then every seat is counted)."""

    def __init__(self, tree: Mapping[str, Any], options: dict[str, Any]) -> None:
        sec = tree.get("sit_out") or {}
        self.text = str(sec["when"]) if sec.get("when") is not None else None
        self.options = options
        self.names: set[str] = set()
        if self.text is not None:
            try:
                self.names = formula_names(self.text)
            except FormulaError:
                self.text = None
        if not self.names <= set(options) | {"seats", "hand_number", "seat", "dealer"}:
            self.text = None
        self.names &= set(options)
        self._fns: dict[int, Any] = {}

    def _fn(self, seats: int) -> Any:
        if seats not in self._fns:
            infos: dict[str, NameInfo] = {
                "seats": NameInfo("global", lambda x: x[0].seats, int),
                "hand_number": NameInfo("global", lambda x: x[0].hand_number, int),
                "dealer": NameInfo("global", lambda x: x[1], int),
                "seat": NameInfo("player", lambda x, q: q, int),
            }
            for name in self.names:
                infos[name] = NameInfo("global", lambda x, k=name: x[0].opts[k],
                                       type(self.options[name]["default"]))
            try:
                fn = compile_formula(str(self.text), DictResolver(seats, infos),
                                     per_player=True).fn
            except FormulaError:
                fn = None
            self._fns[seats] = fn
        return self._fns[seats]

    def count(self, at: _At, most: bool = False) -> int:
        """The seats sitting a hand out at ``at``: the fewest over the dealer's seats (the
        most with ``most``)."""
        fn = None if self.text is None else self._fn(at.seats)
        if fn is None:
            return 0
        try:
            counts = [sum(1 for q in range(at.seats) if fn((at, d), q)) for d in range(at.seats)]
        except (SpelbokError, ArithmeticError, ValueError):
            return 0
        return max(counts) if most else min(counts)


def seats_dealt(tree: Mapping[str, Any], seats: int, most_sitting: bool = False) -> int:
    """The seats a hand deals to under the spec's default options: all but those sitting
    it out (``sit_out``; the fewest of them, or the most with ``most_sitting``).

    >>> from spelbok.lang.loader import read_spec
    >>> seats_dealt(read_spec("example").tree, 3)
    3
    """
    options = tree.get("options", {})
    at = _At(seats, 1, {k: o["default"] for k, o in options.items()})
    return seats - _Sitters(tree, options).count(at, most_sitting)


class _DeckEvent:
    """A deal or turn-up of the hand, for the deck-size check.

    A deal's cards count when its size (and widow) can be told: a formula of
    numbers, options, ``seats`` and ``hand_number``; so can a deal's or turn-up's
    conditions (its ``when``, the ``if`` around it).  A deal under a condition that
    cannot be told is checked as if it were dealt, but not counted for the others
    (nor is such a turn-up); deals to some seats only (``to``) are not counted, nor
    steps inside ``repeat`` or ``after_each``."""

    def __init__(self, path: Path, step: dict[str, Any], conds: list[tuple[str, bool]],
                 options: dict[str, Any]) -> None:
        self.path = path
        self.turn_up = "turn_up" in step
        # a move of turned-up cards back to the stock: they are no new cards for later deals
        self.returns = "move" in step
        self.count: _DeckFormula | None = None  # how many it returns (None: all, or unknown)
        if self.returns and step["move"].get("count", "all") != "all":
            self.count = _DeckFormula.make(step["move"]["count"], options)
        if step.get("when", "true") != "true":
            conds = [*conds, (step["when"], True)]
        self.conds = [(_DeckFormula.make(c, options), want) for c, want in conds]
        self.size: _DeckFormula | None = None
        self.widow: _DeckFormula | None = None
        if "deal" in step and step["deal"]["to"].strip() in ("not out", "true"):
            self.size = _DeckFormula.make(step["deal"]["size"], options)
            if step["deal"].get("widow") is not None:
                self.widow = _DeckFormula.make(step["deal"]["widow"], options)
        self.names: set[str] = set().union(
            *(f.names for f in (self.size, self.widow, self.count, *(c for c, _ in self.conds))
              if f is not None))

    def happens(self, at: _At) -> bool | None:
        unknown = False
        for cond, want in self.conds:
            value = None if cond is None else cond.value(at)
            if value is None:
                unknown = True
            elif bool(value) != want:
                return False
        return None if unknown else True

    def cards(self, at: _At) -> int:
        return _count(self.size, at)

    def widow_cards(self, at: _At) -> int:
        return _count(self.widow, at)

    def returned(self, at: _At) -> int:
        """How many turned-up cards a return puts back (all when it cannot be told: play
        stops with a located error if a deal then finds the stock short)."""
        value = None if self.count is None else self.count.value(at)
        return value if isinstance(value, int) and not isinstance(value, bool) else 1 << 30


def turned_up(events: list[_DeckEvent], happens: list[bool | None], i: int, at: _At) -> int:
    """The turn-ups that take a card from the stock as far as deal ``i`` goes: those still
    turned up when it deals, and the most turned up at once after it (a card moved back
    from the turn-up to the stock is the same card, not one more)."""
    out = 0
    for part in (range(i), range(i + 1, len(events))):
        level = peak = 0
        for j in part:
            e = events[j]
            if e.turn_up and happens[j]:
                level += 1
            elif e.returns and happens[j] is not False:
                level = max(0, level - e.returned(at))
            peak = max(peak, level)
        out += level if part.start == 0 else peak
    return out


def _count(f: _DeckFormula | None, at: _At) -> int:
    value = None if f is None else f.value(at)
    return max(0, value) if isinstance(value, int) and not isinstance(value, bool) else 0


def _counted(step: dict[str, Any]) -> bool:
    """A deal, a turn-up from the stock (a card turned from a hand, ``turn_up: {from:
    dealer}``, takes none), or a move of turned-up cards back to the stock."""
    if "deal" in step:
        return True
    if "turn_up" in step:
        return bool((step["turn_up"] or {}).get("from", "stock") == "stock")
    move = step.get("move") or {}
    return "move" in step and move.get("from") == "turn_up" and move.get("to") == "stock"


def _hand_events(steps: list[dict[str, Any]], path: Path, conds: list[tuple[str, bool]]
                 ) -> Iterator[tuple[Path, dict[str, Any], list[tuple[str, bool]]]]:
    """The deals and turn-ups of a list of steps, with the ``if`` conditions around them."""
    for i, step in enumerate(steps):
        here = (*path, i) if path else ("hand", i)
        if _counted(step):
            yield here, step, conds
        elif "if" in step:
            outer = [*conds, (step["when"], True)] if step.get("when", "true") != "true" else conds
            yield from _hand_events(step["then"], (*here, "then"), [*outer, (step["if"], True)])
            yield from _hand_events(step["else"], (*here, "else"), [*outer, (step["if"], False)])


def _shown_value(value: Any) -> str:
    """An option value as a spec writes it."""
    return str(value).lower() if isinstance(value, bool) else repr(value)


def hand_cards(tree: Mapping[str, Any], seats: int, hand_number: int = 1
               ) -> tuple[int, int, int] | None:
    """The cards a hand takes from the pack under the spec's default options:
    ``(dealt to each seat, dealt to the widow, turned up)``, or None when a deal's
    size or condition cannot be told before play (see :class:`_DeckEvent`).

    >>> from spelbok.lang.loader import read_spec
    >>> hand_cards(read_spec("example").tree, 3)
    (5, 0, 1)
    """
    options = tree.get("options", {})
    at = _At(seats, hand_number, {k: o["default"] for k, o in options.items()})
    each = widow = ups = 0
    dealt = False
    for path, step, conds in _hand_events(tree.get("hand", []), (), []):
        e = _DeckEvent(path, step, conds, options)
        happens = e.happens(at)
        if e.turn_up:
            ups += happens is True
        elif e.returns:
            ups = ups if happens is False else max(0, ups - e.returned(at))
        elif happens is None or (happens and e.size is None):
            return None
        elif happens:
            dealt = True
            each += e.cards(at)
            widow += e.widow_cards(at)
    return (each, widow, ups) if dealt else None


def _option_combos(options: dict[str, Any], names: set[str], limit: int) -> list[dict[str, Any]]:
    """Every combination of the values of the options in ``names``, or only their
    defaults when there are more than ``limit`` (or :data:`_MAX_COMBOS`)."""
    used = [k for k in options if k in names]
    combos: list[dict[str, Any]] = [{}]
    for k in used:
        combos = [{**c, k: v} for c in combos for v in options[k]["values"]]
        if len(combos) > min(limit, _MAX_COMBOS):
            return [{k: options[k]["default"] for k in used}]
    return combos

