"""Structural semantic checks on a loaded spec (no formula compilation).

The meaning checks of formulas are in :mod:`.meaning`, the deck-size check in
:mod:`.deck_size`; this module runs them all.

:func:`structural_checks` looks at the canonical tree of a
:class:`~spelbok.lang.model.SpecDoc` and returns every located problem the schema
cannot express: player ranges, deck coverage, repeated ranks, top trumps
missing from the deck, a deck too small for the deal, option defaults, name
clashes, enum-or-option fields, flow that can never run or never end, trick
names read outside a trick and comparisons with values a name never takes.
:func:`structural_warnings` lists what is legal but probably not meant.
Formula names and types, and each step's parameters at each player count, are
checked by :mod:`.compile_checks` (which ``validate`` runs after these), not here.

>>> from spelbok.lang.loader import read_spec
>>> structural_checks(read_spec("example"))
[]
>>> doc = read_spec("g.yaml", text='''spelbok: 1
... name: Tiny
... players: {min: 2, max: 6}
... deck: [{ranks: [A, K, Q, J]}]
... hand: [{deal: {size: 5}}, {tricks: {}}]
... end: {when: "true", winners: "true"}
... ''')
>>> for e in structural_checks(doc): print(e)
g.yaml:5:22: the deck is too small: 6 players × 5 cards = 30 cards, but the deck for 2-6 players has 16 cards
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ..cards import Pack
from ..errors import SpecError, SpecErrors, SpecWarning, did_you_mean
from ..limits import short_repr
from . import vocabulary as _v
from .constructs import SECTION_HOMES, STEP_HOMES, entry_size
from .deck_size import (
    _MAX_MOMENTS,
    _At,
    _DeckEvent,
    _DeckFormula,
    _hand_events,
    _option_combos,
    _shown_value,
    _Sitters,
    hand_cards,
    turned_up,
)
from .meaning import (
    _RESERVED,
    BUILTIN_NAMES,
    FUNCTION_NAMES,
    KEYWORDS,
    _complementary,
    _Meaning,
)
from .model import DEFAULT_MAX_HANDS, SpecDoc
from .vocabulary import step_kind as _step_kind
from .yamlio import key_path

__all__ = [
    "BUILTIN_NAMES",
    "hand_cards",
    "FUNCTION_NAMES",
    "KEYWORDS",
    "ENUMS",
    "check_structure",
    "structural_checks",
    "structural_warnings",
    "structural_diagnosis",
]

#: Enum literals of the enum-or-option fields (each may instead name an option): every
#: declared key with words but ``choose``, as ``construct.key`` (two by their key alone).
_SHORT = {"who_map.ties": "ties", "ranking.top_trumps_follow": "top_trumps_follow"}
ENUMS: dict[str, tuple[str, ...]] = {
    _SHORT.get(f"{c.name}.{f.name}", f"{c.name}.{f.name}"): tuple(w.name for w in f.words)
    for c in _v.CONSTRUCTS for f in (*(c.body or ()), *c.own_fields())
    if f.words and f.type != "choose"
}
#: The checks of each step kind (its home's ``check``), after those of its words.
_STEP_CHECKS: dict[str, Callable[..., None]] = {
    h.name: h.check for h in STEP_HOMES if h.check is not None}
#: How a step that may end the hand tells that it always does (its home's ``ends_hand``).
_STEP_ENDS: dict[str, Callable[..., bool]] = {
    h.name: h.ends_hand for h in STEP_HOMES if h.ends_hand is not None}
_SOURCE_ID = re.compile(r"([a-z][a-z0-9_]*):\s")

Path = tuple[Any, ...]


def _span(a: int, b: int) -> str:
    return f"{a}" if a == b else f"{a}-{b}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _walk(steps: list[dict[str, Any]], path: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    return _v.walk_steps(steps, path)


def _kind(step: dict[str, Any]) -> str:
    return (_step_kind(step) or "")


def _terminates(steps: list[dict[str, Any]]) -> bool:
    """True when the list always ends the hand (end_hand / redeal) before finishing."""
    return any(_step_terminates(s) for s in steps)


def _step_terminates(step: dict[str, Any]) -> bool:
    """True when the step, once it runs, always ends the hand (its home says how)."""
    if step.get("when") != "true":
        return False
    ends = _STEP_ENDS.get(_kind(step))
    return ends is not None and ends(step, _terminates)


class _Checker:
    """The checks' toolkit, a section's checks' first argument: the spec (``doc``,
    ``tree``, ``options``, the declared pack ``cards``), the reports (``err``, ``warn``)
    and the checks several constructs share (``enum``, ``no_repeats``...)."""

    #: The names a spec may not give an option or a variable.
    RESERVED = _RESERVED
    span = staticmethod(_span)
    walk = staticmethod(_walk)
    kind = staticmethod(_kind)
    #: Whether two conditions plainly exclude each other (for a home's checks).
    complementary = staticmethod(_complementary)

    def __init__(self, doc: SpecDoc) -> None:
        self.doc = doc
        self.tree = doc.tree
        self.errors: list[SpecError] = []
        self.warnings: list[SpecError] = []
        self.options: dict[str, Any] = self.tree.get("options", {})
        self.cards: Pack | None = None  # the declared pack, once checked (None: the French 52)

    def err(self, path: Path, message: str, hint: str | None = None, *, key: bool = False) -> None:
        self.errors.append(self.doc.error(path, message, hint, key=key))

    def run(self) -> list[SpecError]:
        for home in SECTION_HOMES:  # each section's checks (a pack's before its cards')
            if home.check is not None:
                home.check(self, self.tree)
        self.deck_size()
        self.sources()
        self.meaning()
        if not self.errors:  # validate's promise (lang/promise.py): on a sound tree only
            from .promise import check_promise

            check_promise(self)
        return self.errors

    # ----------------------------------------------------------------- players & deck

    def no_repeats(self, items: list[Any], path: Path, what: str) -> None:
        seen: set[Any] = set()
        for j, item in enumerate(items):
            if item in seen:
                self.err((*path, j), f"the {what} '{item}' is listed twice")
            seen.add(item)

    def deck_size(self) -> None:
        """Each deal fits in the deck, with the widows and turn-ups of the hand (see
        :class:`_DeckEvent`): at every player count, largest first, and for every
        hand the match can reach when a size or condition reads ``hand_number``."""
        options = self.options
        events = [_DeckEvent(path, step, conds, options)
                  for path, step, conds in _hand_events(self.tree["hand"], (), [])]
        deals = [e for e in events if e.size is not None]
        if not deals:
            return
        end = self.tree["end"]
        stop = _DeckFormula.make(end["when"], options)
        names: set[str] = set().union(*(e.names for e in events))
        sitters = _Sitters(self.tree, options)  # seats sitting a hand out: dealt nothing
        read = names | (stop.names if stop else set()) | sitters.names
        # every hand up to the bound, or to the first one end.when ends
        bound = int(end.get("max_hands", DEFAULT_MAX_HANDS)) if "hand_number" in names else 1
        lo, hi = self.tree["players"]["min"], self.tree["players"]["max"]
        counts = []
        for entry in self.tree["deck"]:
            top = min(entry["players"][1], hi)
            # more seats need more cards, unless a formula reads `seats`
            low = (max(entry["players"][0], lo)
                   if "seats" in names or sitters.text is not None else top)
            counts += [(entry, n) for n in range(top, low - 1, -1)]
        # an entry that is a reading of the deck (its `when`) holds only where it holds
        whens = {id(e): _DeckFormula.make(e["when"], options) for e in self.tree["deck"]
                 if e.get("when") not in (None, True, "true")}
        for w in whens.values():
            read |= w.names if w else set()
        combos = _option_combos(options, read, max(1, _MAX_MOMENTS // max(1, len(counts) * bound)))
        bound = max(1, min(bound, _MAX_MOMENTS // max(1, len(counts) * len(combos))))
        failed: set[Path] = set()
        for entry, n in counts:
            a, b = entry["players"]
            cards = entry_size(entry, self.cards)
            when = whens.get(id(entry))
            for opts in combos:
                if when is not None and when.value(_At(n, 1, opts)) is False:
                    continue  # another entry is the deck under these options
                for hand in range(1, bound + 1):
                    at = _At(n, hand, opts)
                    # past the first hand, a match whose end this check cannot work out may
                    # stop before a hand that would not fit: a doubt, not an error (play
                    # stops with a located error if such a hand comes)
                    certain = hand == 1 or stop is not None
                    self._deals_fit(events, at, cards, _span(a, b), failed, certain,
                                    sitters.count(at))
                    if len(failed) == len(deals):
                        return
                    if stop is not None and stop.value(at) is True:
                        break  # the match ends after this hand

    def _deals_fit(self, events: list[_DeckEvent], at: _At, cards: int, span: str,
                   failed: set[Path], certain: bool = True, sitting: int = 0) -> None:
        happens = [e.happens(at) for e in events]  # None: cannot be told here
        for i, d in enumerate(events):
            if d.size is None or d.path in failed or happens[i] is False:
                continue
            # what is dealt and turned up until this deal, and turned up after it
            counted = [e for j, e in enumerate(events)
                       if (happens[j] and (j < i or e.turn_up)) or e is d]
            size = sum(e.cards(at) for e in counted)
            widow = sum(e.widow_cards(at) for e in counted)
            turn_ups = turned_up(events, happens, i, at)
            dealt = at.seats - sitting  # (a seat sitting the hand out is dealt nothing)
            need = dealt * size + widow + turn_ups
            if need <= cards:
                continue
            failed.add(d.path)
            extra = f" + a widow of {widow}" if widow else ""
            extra += f" + {_plural(turn_ups, 'turn-up')}" if turn_ups else ""
            names: set[str] = set().union(*(e.names for e in counted))
            where = f" in hand {at.hand_number}" if "hand_number" in names else ""
            opts = ", ".join(f"{k} = {_shown_value(v)}" for k, v in at.opts.items() if k in names)
            (self.err if certain else self.warn)(
                (*d.path, "deal", "size"),
                f"the deck is too small{where}: {dealt} players × {size} cards{extra} = "
                f"{need} cards, but the deck for {span} players has {cards} cards"
                + (f" (with the option {opts})" if opts else "")
                + ("" if certain else " -- if the match lasts that long"),
            )

    # ----------------------------------------------------------------- names

    def enum(self, path: Path, value: Any, field: str) -> None:
        allowed = ENUMS[field]
        if field == "dealer.first" and isinstance(value, int):
            return
        if value in allowed:
            return
        label = field.rpartition(".")[2]
        words = " or ".join(", ".join(allowed).rsplit(", ", 1))
        if value in self.options:
            bad = [
                v
                for v in self.options[value]["values"]
                if v not in allowed and not (field == "dealer.first" and type(v) is int)
            ]
            if bad:
                self.err(
                    path,
                    f"the option '{value}' can be {short_repr(bad[0])}, which is not a valid {label} "
                    f"(expected {words})",
                )
            return
        self.err(
            path,
            f"unknown {label} '{value}': expected {words}, or the name of an option",
            hint=did_you_mean(str(value), [*allowed, *self.options]),
        )

    def who(self, path: Path, value: Any, field: str) -> None:
        if isinstance(value, dict):
            self.enum((*path, "ties"), value["ties"], "ties")
        else:
            self.enum(path, value, field)

    # ----------------------------------------------------------------- flow

    def steps(self) -> None:
        """The checks of each step of the hand (and of the lists of steps)."""
        hand = self.tree["hand"]
        self.step_list(hand, ("hand",))
        for path, step in _walk(hand, ("hand",)):
            self.step(path, step)

    def step_list(self, steps: list[dict[str, Any]], path: Path) -> None:
        for i, step in enumerate(steps):
            if _step_terminates(step) and i + 1 < len(steps):
                what = _kind(step)
                self.err(
                    (*path, i + 1),
                    f"this step can never run: the '{what}' step before it always ends the hand",
                )
                break
        for i, step in enumerate(steps):  # the lists of steps a step holds (vocabulary's)
            for inner, node in _v.inner_steps(step, _kind(step)):
                if isinstance(node, list) and node:
                    self.step_list(node, (*path, i, *inner))

    def step(self, path: Path, step: dict[str, Any]) -> None:
        kind = _kind(step)
        if step["when"].strip() == "false":
            self.err((*path, "when"), "this step can never run: its 'when' is false")
        if kind:  # every key of the step with words (or a player choice) holds one
            c = _v.step(kind)
            parts: tuple[tuple[Path, dict[str, Any], tuple[_v.Field, ...]], ...] = (
                ((*path, kind), step[kind] if c.body is not None else {}, c.body or ()),
                (path, step, c.fields))
            for base, node, fields in parts:
                for f in fields:
                    if f.words and f.type in ("word", "who") and f.name in node:
                        check = self.who if f.type == "who" else self.enum
                        check((*base, f.name), node[f.name], f"{kind}.{f.name}")
        own = _STEP_CHECKS.get(kind)
        if own is not None:
            own(self, path, step)


    def warn(self, path: Path, message: str, hint: str | None = None, *, key: bool = False) -> None:
        file, line, col = self.doc.locate(path, key=key)
        self.warnings.append(SpecWarning(message, file, line, col, hint))

    def against_base(self) -> None:
        """A variant's changed formulas that drop an option its base's read (a warning at
        the changed key: :mod:`.option_reads`), and its changes that disable a rule
        elsewhere (:mod:`.fixed_conditions`)."""
        from .describe import _read_base
        from .option_reads import dropped_options

        try:
            base = _read_base(self.doc.parents[0])
        except SpecError:
            return  # the base loaded once already; its errors were reported then
        for dropped in dropped_options(base.tree, self.tree):
            self.warn(dropped.path, dropped.note)
        from .fixed_conditions import variant_disabled_rules

        for rule in variant_disabled_rules(base, self.doc):  # a rule elsewhere disabled
            self.warn(rule.cause, rule.note)

    def written(self, path: Path, default: Any = _v.ABSENT) -> bool:
        """True when the spec's author wrote the key at ``path`` (not a default filled in),
        and, given the key's ``default``, wrote another value: a default written out (as
        ``spelbok convert`` writes every default) says nothing the spec does not say."""
        if path not in self.doc.positions and key_path(path) not in self.doc.positions:
            return False
        if default is _v.ABSENT:
            return True
        node: Any = self.tree
        for k in path:
            node = node.get(k, _v.ABSENT) if isinstance(node, dict) else (
                node[k] if isinstance(node, list) and isinstance(k, int) and k < len(node)
                else _v.ABSENT)
        return node != default

    def meaning(self) -> None:
        """Formulas that cannot mean what they say (a step's keys that have no effect are
        its home's checks)."""
        _Meaning(self).run()

    def sources(self) -> None:
        ids = self.tree.get("sources") or {}
        if not ids:
            return
        for path, text in _source_fields(self.tree, ()):
            m = _SOURCE_ID.match(text)
            if m and m.group(1) not in ids:
                self.err(
                    path,
                    f"unknown source id '{m.group(1)}' (declared in 'sources': "
                    + ", ".join(ids)
                    + ")",
                    hint=did_you_mean(m.group(1), list(ids)),
                )


def _source_fields(node: Any, path: Path) -> Iterator[tuple[Path, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "source" and isinstance(v, str):
                yield (*path, k), v
            elif isinstance(v, dict) and (
                k in ("sources", "then", "set") or path == ("variables",)
            ):
                continue  # maps keyed by the author: a key named 'source' is a name
            else:
                yield from _source_fields(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _source_fields(v, (*path, i))


# ----------------------------------------------------------------- formulas' meaning
# Traps the compiler cannot see, found in the formulas' syntax trees: a name read where it
# has no value, a comparison with a value the name never takes, a condition evaluated less
# often than it reads.

def structural_checks(doc: SpecDoc) -> list[SpecError]:
    """Every structural problem of ``doc``, located, in a stable order (see module doc)."""
    return _diagnosis(doc, against_base=False)[0]


def structural_warnings(doc: SpecDoc) -> list[SpecError]:
    """Doubts about ``doc`` (each a :class:`~spelbok.errors.SpecWarning`): legal, but
    probably not meant.  ``validate`` reports them; loading a spec does not look."""
    return structural_diagnosis(doc)[1]


def structural_diagnosis(doc: SpecDoc) -> tuple[list[SpecError], list[SpecError]]:
    """The errors and the warnings of ``doc`` from one run of the checks, each sorted (a
    variant's warnings include the options its changed formulas no longer read)."""
    return _diagnosis(doc, against_base=True)


def _diagnosis(doc: SpecDoc, *, against_base: bool) -> tuple[list[SpecError], list[SpecError]]:
    checker = _Checker(doc)
    errors = checker.run()
    if against_base and not errors and doc.parents:  # reads the base again: not on load
        checker.against_base()
    warnings = checker.warnings

    def order(e: SpecError) -> tuple[str, int, int]:
        return (e.path or "", e.line or 0, e.col or 0)

    return sorted(errors, key=order), sorted(warnings, key=order)


def check_structure(doc: SpecDoc) -> SpecDoc:
    """Raise :class:`SpecErrors` when :func:`structural_checks` finds anything; else return ``doc``.

    >>> from spelbok.lang.loader import read_spec
    >>> check_structure(read_spec("example")).tree["name"]
    'Example'
    """
    errors = structural_checks(doc)
    if errors:
        raise SpecErrors(errors)
    return doc
