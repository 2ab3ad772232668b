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
Formula names and types are checked by the game compiler, not here.

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

from ..cards import FRENCH, MAX_SUITS, Pack, pack_of, parse_card, rank_of, suit_of
from ..cards import RANKS as _RANKS
from ..cards import SUITS as _SUITS
from ..engine.order import NO_TRUMP, resolve_top_trump
from ..errors import SpecError, SpecErrors, SpecWarning, did_you_mean
from ..limits import MAX_CARDS, MAX_PLAYERS, short_repr
from . import vocabulary as _v
from .constructs import STEP_HOMES
from .deck_size import (
    _MAX_MOMENTS,
    _At,
    _DeckEvent,
    _DeckFormula,
    _hand_events,
    _option_combos,
    _shown_value,
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
        self.players()
        self.pack_()
        self.deck()
        self.ranking()
        self.points()
        self.deck_size()
        self.options_()
        self.variables()
        self.dealer()
        self.melds()
        self.steps()
        self.end()
        self.sources()
        self.meaning()
        if not self.errors:  # validate's promise (lang/promise.py): on a sound tree only
            from .promise import check_promise

            check_promise(self)
        return self.errors

    # ----------------------------------------------------------------- players & deck

    def players(self) -> None:
        p = self.tree["players"]
        lo, hi = p["min"], p["max"]
        if lo < 2:
            self.err(("players", "min"), f"a game needs at least 2 players (min is {lo})")
        if hi > MAX_PLAYERS:
            self.err(("players", "max"),
                     f"spelbok supports at most {MAX_PLAYERS} players (max is {hi})")
        if lo > hi:
            self.err(("players",), f"players.min ({lo}) is greater than players.max ({hi})")

    def pack_(self) -> None:
        """A declared pack: letters, ranks and extra names each once, extra cards of its
        suits and ranks, at most MAX_CARDS cards; the deck entries name its suits and ranks."""
        section = self.tree.get("pack")
        if section is None:
            return
        errors = len(self.errors)
        suits, ranks = section["suits"], section["ranks"]
        letters = [s["letter"] for s in suits]
        if len(suits) > MAX_SUITS:
            self.err(("pack", "suits"), f"a pack has at most {MAX_SUITS} suits, not {len(suits)}")
        for i, letter in enumerate(letters):
            if len(letter) != 1 or letter.isdigit() or letter in "@_ ":
                self.err(("pack", "suits", i, "letter"),
                         f"a suit letter is one character, not a digit: {letter!r}")
        self.no_repeats(letters, ("pack", "suits"), "suit letter")
        self.no_repeats([str(r) for r in ranks], ("pack", "ranks"), "rank")
        for j, r in enumerate(ranks):
            if not str(r) or any(ch.isspace() or ch in "@" for ch in str(r)):
                self.err(("pack", "ranks", j), f"a rank is a short text without spaces: {r!r}")
        names = [r + x for r in ranks for x in letters]
        for j, e in enumerate(section["extra"]):
            at = ("pack", "extra", j)
            if e["name"].upper() in names:
                self.err((*at, "name"), f"the extra card '{e['name']}' has the name of a card "
                         "of the suits")
            if e["suit"] != "none" and e["suit"] not in letters:
                self.err((*at, "suit"), f"'{e['suit']}' is not a suit of the pack",
                         did_you_mean(e["suit"], letters))
            if e["rank"] != "none" and str(e["rank"]) not in ranks:
                self.err((*at, "rank"), f"'{e['rank']}' is not a rank of the pack",
                         did_you_mean(str(e["rank"]), [str(r) for r in ranks]))
        self.no_repeats([e["name"].upper() for e in section["extra"]], ("pack", "extra"),
                        "extra card")
        total = (len(letters) * len(ranks) + len(section["extra"])) * section["copies"]
        if total > MAX_CARDS:
            self.err(("pack",), f"the pack has {total} cards, but spelbok supports at most "
                     f"{MAX_CARDS}")
        for i, entry in enumerate(self.tree["deck"]):
            for j, r in enumerate(entry["ranks"]):
                if r not in ranks:
                    self.err(("deck", i, "ranks", j), f"the rank '{r}' is not in the pack",
                             did_you_mean(r, [str(x) for x in ranks]))
            for j, x in enumerate(entry["suits"]):
                if x not in letters:
                    self.err(("deck", i, "suits", j), f"the suit '{x}' is not in the pack",
                             did_you_mean(x, letters))
        ranking = self.tree["ranking"]
        for field in ("ranks", "cut_ranks"):
            for j, r in enumerate(ranking[field]):
                if r not in ranks:
                    self.err(("ranking", field, j), f"the rank '{r}' is not in the pack",
                             did_you_mean(r, [str(x) for x in ranks]))
        if len(self.errors) == errors:
            self.cards = pack_of(section)

    def deck(self) -> None:
        lo, hi = self.tree["players"]["min"], self.tree["players"]["max"]
        deck = self.tree["deck"]
        if lo > hi:
            return
        cover: dict[int, list[int]] = {}
        for i, entry in enumerate(deck):
            a, b = entry["players"]
            at = ("deck", i, "players")
            if a > b:
                self.err(at, f"the player range [{a}, {b}] is reversed (write [{b}, {a}])")
                a, b = b, a
            if a < lo or b > hi:
                self.err(
                    at,
                    f"the deck entry for {_span(a, b)} players goes outside "
                    f"players.min..players.max ({_span(lo, hi)})",
                )
            for n in range(max(a, lo), min(b, hi) + 1):
                cover.setdefault(n, []).append(i)
            self.no_repeats(entry["ranks"], ("deck", i, "ranks"), "rank")
            self.no_repeats(entry["suits"], ("deck", i, "suits"), "suit")
        reported: set[tuple[int, int]] = set()
        for n in range(lo, hi + 1):
            entries = cover.get(n, [])
            for j in entries[1:]:
                pair = (entries[0], j)
                if pair not in reported:
                    reported.add(pair)
                    self.err(
                        ("deck", j, "players"),
                        f"deck entries overlap: {n} players is covered by entries "
                        f"{entries[0] + 1} and {j + 1}",
                    )
        gaps = [n for n in range(lo, hi + 1) if n not in cover]
        if gaps and lo <= hi:
            runs: list[list[int]] = []
            for n in gaps:
                if runs and runs[-1][1] == n - 1:
                    runs[-1][1] = n
                else:
                    runs.append([n, n])
            text = ", ".join(_span(a, b) for a, b in runs)
            self.err(("deck",), f"no deck entry for {text} players")

    def no_repeats(self, items: list[Any], path: Path, what: str) -> None:
        seen: set[Any] = set()
        for j, item in enumerate(items):
            if item in seen:
                self.err((*path, j), f"the {what} '{item}' is listed twice")
            seen.add(item)

    def ranking(self) -> None:
        ranking = self.tree["ranking"]
        self.no_repeats(ranking["ranks"], ("ranking", "ranks"), "rank")
        self.no_repeats(ranking["cut_ranks"], ("ranking", "cut_ranks"), "rank")
        self.top_trump_repeats(ranking["top_trumps"])
        for field in ("ranks", "cut_ranks"):
            if field == "cut_ranks" and ranking["cut_ranks"] == ranking["ranks"]:
                continue  # same order: any problem was reported for ranks
            order = set(ranking[field])
            missing: set[str] = set()
            for i, entry in enumerate(self.tree["deck"]):
                for j, rank in enumerate(entry["ranks"]):
                    if rank not in order and rank not in missing:
                        missing.add(rank)
                        self.err(
                            ("deck", i, "ranks", j),
                            f"the rank '{rank}' is in the deck but not in ranking.{field}",
                        )
        for j, name in enumerate(ranking["top_trumps"]):
            for entry in self.tree["deck"]:
                a, b = entry["players"]
                where = f"{_span(a, b)} players"
                if "@" in name:
                    rank = name.partition("@")[0]
                    if rank not in entry["ranks"]:
                        self.err(
                            ("ranking", "top_trumps", j),
                            f"the top trump '{name}' names the rank {rank}, which is not in "
                            f"the deck for {where}",
                        )
                        break
                    continue
                pack = self.cards
                card = parse_card(name) if pack is None else pack.parse_card(name)
                if card is None:
                    continue
                if pack is None:
                    rank, suit = _RANKS[rank_of(card)], _SUITS[suit_of(card)]
                elif card >= pack.copies * len(pack.letters) * len(pack.ranks):
                    continue  # an extra card (of a suit or not): always in the deck
                else:
                    rank, suit = pack.ranks[pack.rank[card]], pack.letters[pack.suit[card]]
                if rank not in entry["ranks"] or suit not in entry["suits"]:
                    self.err(
                        ("ranking", "top_trumps", j),
                        f"the top trump '{name}' is not in the deck for {where}",
                    )
                    break
        self.enum(
            ("ranking", "top_trumps_follow"),
            ranking["top_trumps_follow"],
            "top_trumps_follow",
        )
        self.special_cards(ranking)

    def top_trump_repeats(self, tops: list[str]) -> None:
        """A card has one place among the top trumps: two entries naming it under every
        trump of the decks (``JC`` twice, ``t21`` and ``T21``) are an error naming both
        places.  Entries that meet under some trumps only (``AH`` and ``A@trump`` when
        hearts are trumps) are not: the card then takes the first, higher place."""
        if self.tree.get("pack") and self.cards is None:
            return  # a bad pack is reported already
        pack = self.cards or FRENCH
        trumps = sorted({pack.suit_index[x] for e in self.tree["deck"] for x in e["suits"]
                         if x in pack.suit_index})
        # each entry's card under every trump, looked up once (a pairwise comparison was
        # quadratic: 5 000 entries took minutes)
        first: dict[tuple[int, ...], int] = {}
        for j, name in enumerate(tops):
            resolved = [resolve_top_trump(name, t, pack) for t in trumps or [NO_TRUMP]]
            if any(c is None for c in resolved):
                continue
            key = tuple(c for c in resolved if c is not None)
            i = first.setdefault(key, j)
            if i == j:
                continue
            file, line, col = self.doc.locate(("ranking", "top_trumps", i))
            where = ":".join(str(x) for x in (file, line, col) if x is not None)
            card = pack.names[key[0]]
            first_name = f"'{tops[i]}', " if tops[i] != name else ""
            self.err(("ranking", "top_trumps", j),
                     f"the top trump '{name}'" + (f" ({card})" if card != name and "@" not in name else "")
                     + f" is listed already as entry {i + 1} ({first_name}at {where}): a card "
                     "has one place among the top trumps")

    def special_cards(self, ranking: dict[str, Any]) -> None:
        """``free_cards``, ``losing_cards`` and ``kept_cards`` name cards of every deck, once
        each: the spec's pack's cards (rank then suit, or an extra card's name)."""
        if self.tree.get("pack") and self.cards is None:
            return  # a bad pack is reported already
        pack = self.cards or FRENCH
        extras = pack.copies * len(pack.letters) * len(pack.ranks)  # the first extra's id
        for key in ("free_cards", "losing_cards", "kept_cards"):
            names = ranking.get(key) or []
            self.no_repeats(names, ("ranking", key), "card")
            for j, name in enumerate(names):
                card = pack.parse_card(str(name))
                if card is None:
                    self.err(("ranking", key, j),
                             f"'{name}' is not a card" + ("" if pack.french else " of the pack"),
                             did_you_mean(str(name).upper(), sorted(set(pack.names))))
                    continue
                if card >= extras:
                    continue  # an extra card: every deck holds it
                rank, suit = pack.ranks[pack.rank[card]], pack.letters[pack.suit[card]]
                for entry in self.tree["deck"]:
                    if rank not in entry["ranks"] or suit not in entry["suits"]:
                        a, b = entry["players"]
                        self.err(("ranking", key, j), f"the card '{name}' of {key} is not in "
                                 f"the deck for {_span(a, b)} players")
                        break

    def points(self) -> None:
        """Card points name ranks of the deck and cards of the deck, in the spec's pack."""
        points = self.tree.get("points")
        if not isinstance(points, dict) or (self.tree.get("pack") and self.cards is None):
            return  # a bad pack is reported already
        pack = self.cards or FRENCH
        ranks = {str(r) for e in self.tree["deck"] for r in e["ranks"]}
        # the deck's cards by first-copy id: the grid cards of its entries, and the extras
        cards = {pack.parse_card(f"{r}{s}") for e in self.tree["deck"] for r in e["ranks"]
                 for s in e["suits"]} | {pack.parse_card(x[0]) for x in pack.extras}
        rank_words = "2..10, J, Q, K, A" if pack.french else " ".join(pack.ranks)
        for field in ("ranks", "trumps"):
            for key in points.get(field) or {}:
                at = ("points", field, key)
                if pack.normalize_rank(key) is None:
                    self.err(at, f"'{key}' in points.{field} is not a rank ({rank_words})",
                             did_you_mean(key.upper(), sorted(ranks)), key=True)
                elif pack.normalize_rank(key) not in ranks:
                    self.err(at, f"points.{field} gives points to the rank {key}, which is not "
                             "in the deck", did_you_mean(key, sorted(ranks)), key=True)
        example = "e.g. QS, 10H" if pack.french else f"e.g. {pack.names[len(pack.ranks) - 1]}"
        for key in points.get("cards") or {}:
            at = ("points", "cards", key)
            if pack.parse_card(key) is None:
                self.err(at, f"'{key}' in points.cards is not a card (write rank then suit, "
                         f"{example})", key=True)
            elif pack.parse_card(key) not in cards:
                self.err(at, f"points.cards gives points to {key}, which is not in the deck",
                         key=True)

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
        read = names | (stop.names if stop else set())
        # every hand up to the bound, or to the first one end.when ends
        bound = int(end.get("max_hands", DEFAULT_MAX_HANDS)) if "hand_number" in names else 1
        lo, hi = self.tree["players"]["min"], self.tree["players"]["max"]
        counts = []
        for entry in self.tree["deck"]:
            top = min(entry["players"][1], hi)
            # more seats need more cards, unless a formula reads `seats`
            low = max(entry["players"][0], lo) if "seats" in names else top
            counts += [(entry, n) for n in range(top, low - 1, -1)]
        combos = _option_combos(options, read, max(1, _MAX_MOMENTS // max(1, len(counts) * bound)))
        bound = max(1, min(bound, _MAX_MOMENTS // max(1, len(counts) * len(combos))))
        failed: set[Path] = set()
        for entry, n in counts:
            a, b = entry["players"]
            cards = len(entry["ranks"]) * len(entry["suits"])
            if self.cards is not None:  # copies of the pack, and its extra cards
                cards = cards * self.cards.copies + len(self.cards.extras) * self.cards.copies
            for opts in combos:
                for hand in range(1, bound + 1):
                    at = _At(n, hand, opts)
                    # past the first hand, a match whose end this check cannot work out may
                    # stop before a hand that would not fit: a doubt, not an error (play
                    # stops with a located error if such a hand comes)
                    certain = hand == 1 or stop is not None
                    self._deals_fit(events, at, cards, _span(a, b), failed, certain)
                    if len(failed) == len(deals):
                        return
                    if stop is not None and stop.value(at) is True:
                        break  # the match ends after this hand

    def _deals_fit(self, events: list[_DeckEvent], at: _At, cards: int, span: str,
                   failed: set[Path], certain: bool = True) -> None:
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
            need = at.seats * size + widow + turn_ups
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
                f"the deck is too small{where}: {at.seats} players × {size} cards{extra} = "
                f"{need} cards, but the deck for {span} players has {cards} cards"
                + (f" (with the option {opts})" if opts else "")
                + ("" if certain else " -- if the match lasts that long"),
            )

    # ----------------------------------------------------------------- names

    def options_(self) -> None:
        for name, opt in self.options.items():
            if name in _RESERVED:
                self.err(
                    ("options", name),
                    f"the option name '{name}' clashes with a builtin name of the formula language",
                    key=True,
                )
            values = opt["values"]
            self.no_repeats(values, ("options", name, "values"), "value")
            default = opt["default"]
            if not any(type(v) is type(default) and v == default for v in values):
                shown = ", ".join(str(v) for v in values)
                self.err(
                    ("options", name, "default"),
                    f"the default {short_repr(default)} of option '{name}' is not one of its values ({shown})",
                    hint=did_you_mean(str(default), [str(v) for v in values]),
                )

    def variables(self) -> None:
        seen: dict[str, str] = {}
        for scope, names in self.tree["variables"].items():
            if not isinstance(names, dict):
                continue
            for name in names:
                at = ("variables", scope, name)
                if name in _RESERVED:
                    self.err(
                        at,
                        f"the variable '{name}' clashes with a builtin name of the formula language",
                        key=True,
                    )
                elif name in self.options:
                    self.err(
                        at, f"the variable '{name}' clashes with the option '{name}'", key=True
                    )
                elif name in seen:
                    self.err(
                        at,
                        f"the variable '{name}' is declared both in '{seen[name]}' and in '{scope}'",
                        key=True,
                    )
                seen.setdefault(name, scope)

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

    def dealer(self) -> None:
        dealer = self.tree["dealer"]
        first = dealer["first"]
        self.enum(("dealer", "first"), first, "dealer.first")
        lo = self.tree["players"]["min"]
        if isinstance(first, int) and not 0 <= first < lo:
            self.err(
                ("dealer", "first"),
                f"seat {first} does not exist with {lo} players (seats are 0..{lo - 1})",
            )
        self.enum(("dealer", "rotate"), dealer["rotate"], "dealer.rotate")

    # ----------------------------------------------------------------- flow

    def steps(self) -> None:
        hand = self.tree["hand"]
        kinds = {_kind(step) for _, step in _walk(hand, ("hand",))}
        if "tricks" not in kinds and "end_hand" not in kinds:
            self.err(
                ("hand",),
                "the hand has no 'tricks' step and no 'end_hand': the cards are never played",
            )
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
            kind = _kind(step)
            for inner in _v.step_lists(kind) if kind else ():
                node: Any = step
                for key in inner:
                    node = node.get(key) if isinstance(node, dict) else None
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

    def melds(self) -> None:
        """Each meld: ranks or a run (not both), that some deck of the spec can make."""
        for name, m in (self.tree.get("melds") or {}).items():
            at = ("melds", name)
            self.enum((*at, "spread"), m["spread"], "meld.spread")
            ranks, run = m["ranks"], m.get("run", 0)
            if bool(ranks) == bool(run):
                self.err(at, f"the meld '{name}' needs either 'ranks' or 'run'"
                         + (", not both" if ranks else ""), key=True)
                continue
            self.no_repeats(ranks, (*at, "ranks"), "rank")
            decks = [set(map(str, e["ranks"])) for e in self.tree["deck"]]
            missing = [r for r in ranks if not any(str(r) in d for d in decks)]
            if missing:
                self.err((*at, "ranks", ranks.index(missing[0])),
                         f"the meld '{name}' can never be made: no deck has the rank "
                         f"{missing[0]}")
            if run and not any(run <= len(d) for d in decks):
                self.err((*at, "run"), f"the meld '{name}' can never be made: no deck has "
                         f"{run} ranks")
        for path, step in _walk(self.tree["hand"], ("hand",)):
            if _kind(step) == "declare_melds" and not self.tree.get("melds"):
                self.err((*path, "declare_melds"), "there are no melds to declare: the spec "
                         "has no 'melds' table", key=True)

    def end(self) -> None:
        end = self.tree["end"]
        if end["when"].strip() == "false" and "max_hands" not in end:
            self.err(
                ("end", "when"),
                "the match can never end: end.when is false and there is no max_hands",
                f"only the safety bound would stop it, after {DEFAULT_MAX_HANDS} hands",
            )

    def warn(self, path: Path, message: str, hint: str | None = None, *, key: bool = False) -> None:
        file, line, col = self.doc.locate(path, key=key)
        self.warnings.append(SpecWarning(message, file, line, col, hint))

    def written(self, path: Path) -> bool:
        """True when the spec's author wrote the key at ``path`` (not a default filled in)."""
        return path in self.doc.positions or key_path(path) in self.doc.positions

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
    return structural_diagnosis(doc)[0]


def structural_warnings(doc: SpecDoc) -> list[SpecError]:
    """Doubts about ``doc`` (each a :class:`~spelbok.errors.SpecWarning`): legal, but
    probably not meant.  ``validate`` reports them; loading a spec does not look."""
    return structural_diagnosis(doc)[1]


def structural_diagnosis(doc: SpecDoc) -> tuple[list[SpecError], list[SpecError]]:
    """The errors and the warnings of ``doc`` from one run of the checks, each sorted."""
    checker = _Checker(doc)
    errors = checker.run()
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
