"""Match events (``state.log``) as readable lines: the :class:`Narrator` of a seat or of a
whole match, and :func:`transcript`.

>>> transcript([{"event": "hand", "number": 1, "dealer": 0},
...             {"event": "turn_up", "card": "9H", "trump": "H"},
...             {"event": "trick", "number": 1, "cards": [[1, "AH"], [0, "9H"]], "winner": 1},
...             {"event": "end_hand", "tricks": [0, 1], "scores": [12, 11], "out": [False, False]},
...             {"event": "match_end", "winners": [1], "scores": [12, 11]}], ["P0", "P1"])
... # doctest: +NORMALIZE_WHITESPACE
['Hand 1 · dealer P0 · turn-up 9♥, trump ♥',
 '  trick 1: P1 A♥ · P0 9♥ → P1',
 '  tricks P0 0 · P1 1 | scores P0 12 · P1 11',
 '',
 'Match over after 1 hand. Winner: P1 · final scores P0 12 · P1 11']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .text import (
    PLAIN,
    SUITS,
    Style,
    _name,
    card,
    cards,
    hand_line,
    player_names,
    scores_line,
    suit,
    trick_line,
    wrap_items,
    wrap_words,
)

__all__ = ["Narrator", "transcript"]


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def _fmt_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_fmt_value(v) for v in value) + "]"
    return str(value)


def _fixed(line: str) -> Callable[[Any, Mapping[str, Any]], list[str]]:
    """A renderer of an event told by one fixed line."""
    return lambda self, e: [line]


# the zones of a move step, as a transcript names them
_ZONES = {"widow": "the widow", "stock": "the stock", "turn_up": "the turn-up",
          "discards": "the discard pile", "laid_aside": "the cards laid aside"}


@dataclass
class Narrator:
    """Turns match events (``state.log``) into readable lines, one event at a time.

    ``viewer`` tells whose eyes to use: ``None`` sees everything (a
    transcript), a seat sees only what the rules show it (live play): its own
    hand, passes, exchanges and face-down cards, and what is shown to all.  Each
    kind of event the engine records (:data:`spelbok.engine.events.EVENTS`) has a
    renderer here (``_ev_<kind>``); a seat never sees an event's fields printed raw.
    ``verbose`` adds the dealt hands, exchanged cards and variable changes.
    Consecutive decisions of one kind share a line (a new line per round).
    An unknown event is shown by its kind (to a seat) or generically (in a
    transcript); no event makes it fail.

    >>> n = Narrator(["P0", "P1"])
    >>> n.feed({"event": "decision", "seat": 0, "decision": "announce", "action": "play"})
    []
    >>> n.feed({"event": "decision", "seat": 1, "decision": "announce", "action": "pass"})
    []
    >>> n.feed({"event": "dance", "seat": 1}) + n.flush()
    ['  announce: P0 play · P1 pass', '  dance: seat=1']
    >>> you = Narrator(["you", "P1", "P2"], viewer=0)
    >>> you.feed({"event": "pass", "seat": 1, "to": 2, "cards": ["QC", "AS"]}) + you.flush()
    ['  pass: P1 2 cards → P2']
    """

    names: Sequence[str]
    style: Style = PLAIN
    viewer: int | None = None
    verbose: bool = False
    start_scores: Sequence[Any] | None = None
    explainer: Any = None  # a spelbok.play.explain.Explainer: why tricks and scores went so
    _index: int = field(default=0, init=False)
    _group: tuple[str, str] | None = field(default=None, init=False)
    _items: list[str] = field(default_factory=list, init=False)
    _seen: set[Any] = field(default_factory=set, init=False)
    _header: list[str] | None = field(default=None, init=False)
    _scores: list[Any] | None = field(default=None, init=False)
    _turned: set[str] = field(default_factory=set, init=False)
    _knocks: list[Any] = field(default_factory=list, init=False)
    _cut: str | None = field(default=None, init=False)
    _last_hand: Any = field(default=None, init=False)
    _hands: int = field(default=0, init=False)
    _out: set[int] = field(default_factory=set, init=False)
    _any: bool = field(default=False, init=False)
    _dealt: list[str] = field(default_factory=list, init=False)
    _named: tuple[Any, str] | None = field(default=None, init=False)
    _flags: dict[tuple[Any, Any], Any] = field(default_factory=dict, init=False)
    _totals: dict[Any, tuple[list[str], list[str]]] = field(default_factory=dict, init=False)
    _down: list[tuple[Any, str]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self._scores = list(self.start_scores) if self.start_scores is not None else None

    # -- helpers ------------------------------------------------------------------

    def who(self, seat: Any) -> str:
        return _name(self.names, seat)

    @property
    def _arrow(self) -> str:
        return " →" if self.style.symbols else " ->"

    def verb(self, seat: Any, third_person: str) -> str:
        """``keeps`` for a player, ``keep`` for ``you``."""
        you = {"is": "are", "has": "have"}.get(third_person, third_person.removesuffix("s"))
        return you if self.who(seat) == "you" else third_person

    def _cards(self, names: Iterable[str]) -> str:
        return cards(names, self.style)

    def _flush_group(self) -> list[str]:
        out: list[str] = []
        if self._totals:
            self._items = [self._total_item(seat, *t) for seat, t in self._totals.items()]
            self._totals = {}
        if self._group is not None and self._items:
            out = wrap_items(f"  {self._group[1]}: ", self._items, width=self.style.width)
        self._group = None
        self._items = []
        self._seen = set()
        return out

    def _flush_header(self) -> list[str]:
        out = [" · ".join(self._header)] if self._header is not None else []
        self._header = None
        out += self._dealt
        self._dealt = []
        return out

    def flush(self) -> list[str]:
        """Lines still held back (a pending header, a line of decisions, a cut)."""
        out = self._flush_header() + self._flush_group()
        if self._cut is not None:
            out.append(self._cut)
            self._cut = None
        return out

    def _grouped(self, kind: str, label: str, seat: Any, item: str) -> list[str]:
        out: list[str] = []
        key = (kind, label)
        if self._group != key or seat in self._seen:
            out = self._flush_group()
            self._group = key
        self._items.append(item)
        self._seen.add(seat)
        return out

    # -- events ---------------------------------------------------------------------

    def feed(self, event: Mapping[str, Any]) -> list[str]:
        """The lines completed by ``event`` (some lines wait for the next event)."""
        kind = str(event.get("event", "?")) if isinstance(event, Mapping) else "?"
        index = self._index
        self._index += 1
        handler = getattr(self, "_ev_" + kind, None)
        grouped = kind in ("decision", "exchange", "pass", "draw")
        pre: list[str] = []
        if kind not in ("deal", "turn_up"):
            pre += self._flush_header()
        if not grouped:
            pre += self._flush_group()
        if kind not in ("cut", "first_dealer") and self._cut is not None:
            pre.append(self._cut)
            self._cut = None
        try:
            if handler is None or not isinstance(event, Mapping):
                lines = pre + self._generic(event)
            else:
                lines = pre + list(handler(event))
        except Exception:  # never fail on an odd event: show it as it is (to a seat: its kind)
            lines = pre + self._generic(event)
        if self.explainer is not None and isinstance(event, Mapping):
            lines = self._explained(index, kind, event, pre, lines)
        if lines:
            self._any = True
        return lines

    def _explained(self, index: int, kind: str, event: Mapping[str, Any], pre: list[str],
                   lines: list[str]) -> list[str]:
        """``lines`` with the explainer's why: a set's line replaced by its explanation,
        the others followed by theirs."""
        try:
            who = self.who(event["seat"]) if "seat" in event else ""
            why = self.explainer.explain(index, event, who)
        except Exception:  # an explanation never stops a match
            why = None
        if not why:
            return lines
        if kind == "set":
            return pre + wrap_words("  " + why, self.style.width, 6)
        return lines + wrap_words("    " + why, self.style.width, 6)

    def _generic(self, event: Any) -> list[str]:
        if self.viewer is not None:  # a seat: never an event's fields, which may hold cards
            kind = event.get("event") if isinstance(event, Mapping) else None
            return [f"  ({kind})" if isinstance(kind, str) and kind.isidentifier() else "  (?)"]
        if not isinstance(event, Mapping):
            return [f"  {event!r}"]
        kind = event.get("event", "event")
        rest = ", ".join(f"{k}={_fmt_value(v)}" for k, v in event.items() if k != "event")
        return [f"  {kind}: {rest}" if rest else f"  {kind}"]

    def _ev_cut(self, e: Mapping[str, Any]) -> list[str]:
        out = [self._cut] if self._cut is not None else []
        drawn = [f"{self.who(p)} {card(c, self.style)}" for p, c in e["cards"]]
        self._cut = "Cut for the deal: " + " · ".join(drawn)
        return out

    def _ev_first_dealer(self, e: Mapping[str, Any]) -> list[str]:
        how = {"random": " (chosen at random)", "cut_low": " (lowest card)",
               "cut_high": " (highest card)"}.get(str(e.get("how")), "")
        text = f"first dealer: {self.who(e['dealer'])}{how}"
        if self._cut is not None:
            text = f"{self._cut}{self._arrow} {text}"
            self._cut = None
        return [text]

    def _ev_hand(self, e: Mapping[str, Any]) -> list[str]:
        number = e.get("number")
        again = number is not None and number == self._last_hand
        self._last_hand = number
        self._turned = set()
        self._knocks = []
        self._down = []
        title = f"Hand {number}" + (" (dealt again)" if again else "")
        self._header = [self.style.paint(title, bold=True), f"dealer {self.who(e['dealer'])}"]
        return [""] if self._any else []

    def _ev_deal(self, e: Mapping[str, Any]) -> list[str]:
        hands = e.get("hands") or []
        if self.viewer is not None or not self.verbose:
            return []  # live play shows the player's hand with each decision
        items = [f"{self.who(p)} {self._cards(h)}" for p, h in enumerate(hands) if h]
        lines = wrap_items("  dealt: ", items, width=self.style.width) if items else []
        if self._header is not None:
            self._dealt += lines
            return []
        return lines

    def _ev_turn_up(self, e: Mapping[str, Any]) -> list[str]:
        c = str(e["card"])
        self._turned.add(c)
        trump = e.get("trump")
        text = f"turn-up {card(c, self.style)}"
        if trump and trump != "none":
            text += f", trump {suit(str(trump), self.style)}"
        if self._header is not None:
            self._header.append(text)
            return []
        return [f"  {text}"]

    def _ev_decision(self, e: Mapping[str, Any]) -> list[str]:
        action = str(e.get("action", ""))
        words = action.split()
        if len(words) == 2 and words[1].upper() in SUITS:  # a suit named
            self._named = (e.get("seat"), words[1].upper())
            shown = f"{self.verb(e.get('seat'), 'names')} {suit(words[1], self.style)}"
        else:
            shown = " ".join(card(w, self.style) for w in words)
        if e.get("shown"):  # an announcement that shows cards of the hand to all
            shown += " showing " + " ".join(card(str(c), self.style) for c in e["shown"])
        if e.get("to_play") is not None:  # an announcement made out of turn
            return [f"  {self.who(e['seat'])} {self.verb(e['seat'], 'announces')} {shown} "
                    "(out of turn)"]
        return self._grouped("decision", str(e.get("decision", "decision")), e.get("seat"),
                             f"{self.who(e['seat'])} {shown}")

    def _total_item(self, seat: Any, gave: list[str], got: list[str]) -> str:
        public = [c for c in got if c in self._turned]
        if not gave:
            return f"{self.who(seat)} {self.verb(seat, 'keeps')}"
        if public and len(public) == len(got):
            return (f"{self.who(seat)} {self.verb(seat, 'takes')} {self._cards(public)} "
                    f"for {self._cards(gave)}")
        return f"{self.who(seat)} {_plural(len(gave), 'card')}"

    def _ev_exchange(self, e: Mapping[str, Any]) -> list[str]:
        seat = e["seat"]
        if e.get("to") == "hand":  # cards chosen to show: they stay in the hand
            item = f"{self.who(seat)} {self.verb(seat, 'shows')} {self._cards(e['shown'])}"
            return self._grouped("exchange", str(e.get("decision", "exchange")), seat, item)
        gave = list(e.get("gave") or [])
        got = list(e.get("got") or [])
        if self.viewer is None and not self.verbose:
            # a transcript: each player's cards exchanged over all rounds of the decision
            key = ("exchange", str(e.get("decision", "exchange")))
            out = self._flush_group() if self._group != key else []
            self._group = key
            before = self._totals.get(seat, ([], []))
            self._totals[seat] = (before[0] + gave, before[1] + got)
            return out
        public = [c for c in got if c in self._turned]
        if not gave:
            item = f"{self.who(seat)} {self.verb(seat, 'keeps')}"
        elif self.verbose or (self.viewer is not None and seat == self.viewer):
            item = f"{self.who(seat)} {self._cards(gave)}{self._arrow} {self._cards(got)}"
        elif public and len(public) == len(got):
            item = f"{self.who(seat)} {self.verb(seat, 'takes')} {self._cards(public)}"
            if self.viewer is None:
                item += f" for {self._cards(gave)}"
        else:
            item = f"{self.who(seat)} {_plural(len(gave), 'card')}"
        shown = list(e.get("shown") or [])
        if e.get("to") == "turn_up":  # given face up to the turn-up: seen by all
            shown = gave
        if shown and not (self.verbose or seat == self.viewer):  # shown to all: say which
            item += f", showing {self._cards(shown)}"
        return self._grouped("exchange", str(e.get("decision", "exchange")), seat, item)

    def _ev_set(self, e: Mapping[str, Any]) -> list[str]:
        who = f"{self.who(e['seat'])} " if "seat" in e else ""
        var, value = e.get("var"), e.get("value")
        if self.verbose:
            return [f"  {who}{var} = {_fmt_value(value)}"]
        # briefly: only yes/no marks that change (a dog's life, say); never 'out',
        # which has its own event, nor numbers, which the scores line shows
        key = (e.get("seat"), var)
        before = self._flags.get(key, False)
        self._flags[key] = value
        if var == "out" or not isinstance(value, bool) or value == before:
            return []
        return [f"  {who.strip()}: {var} is now {_fmt_value(value)}" if who
                else f"  {var} is now {_fmt_value(value)}"]

    def _ev_move(self, e: Mapping[str, Any]) -> list[str]:
        seat = e.get("seat", -1)
        player = isinstance(seat, int) and seat >= 0
        shown = list(e.get("shown") or [])
        k = int(e.get("cards", len(shown)))
        what = self._cards(shown) if shown else _plural(k, "card")
        whose = ("your hand" if self.who(seat) == "you" else "their hand") if player else "a hand"
        src, dst = (whose if z == "hand" else _ZONES.get(str(z), str(z))
                    for z in (e.get("source"), e.get("target")))
        place = {"shuffled": ", shuffled in", "top": ", on top",
                 "bottom": ", at the bottom"}.get(str(e.get("position")), "")
        if not player:
            return [f"  {what} {'goes' if k == 1 else 'go'} from {src} to {dst}{place}"]
        if e.get("target") == "hand":
            verb = "draws" if e.get("source") == "stock" else "takes"
            return [f"  {self.who(seat)} {self.verb(seat, verb)} {what} from {src}"]
        if e.get("source") == "hand" and e.get("target") == "discards":
            return [f"  {self.who(seat)} {self.verb(seat, 'discards')} {what}"]
        return [f"  {self.who(seat)} {self.verb(seat, 'moves')} {what} from {src} to {dst}{place}"]

    def _ev_contract(self, e: Mapping[str, Any]) -> list[str]:
        """An auction's outcome: the declarer, the contract, its doubling and trump."""
        d = e.get("declarer")
        doubled = {1: " doubled", 2: " redoubled"}.get(e.get("doubled") or 0, "")
        trump = f", trump {suit(str(e['trump']), self.style)}" if "trump" in e else ""
        return [f"  contract: {self.who(d)} {self.verb(d, 'plays')} {e.get('contract')}"
                f"{doubled}{trump}"]

    _ev_redeal = _fixed("  no play: the cards are dealt again")
    _ev_all_passed = _fixed("  every player passes")
    _ev_end_hand_early = _fixed("  the hand ends early")
    _ev_tricks_ended = _fixed("  the tricks end here; the trick in progress is abandoned")

    def _ev_knock(self, e: Mapping[str, Any]) -> list[str]:
        self._knocks.append(e["seat"])
        return []

    def _ev_trick(self, e: Mapping[str, Any]) -> list[str]:
        played = [[p, c] for p, c in e["cards"]]
        down, self._down = self._down, []
        for i, (p, c) in enumerate(played):  # another seat's face-down card stays unseen
            if (p, str(c)) in down:
                down.remove((p, str(c)))
                played[i] = [p, "?"]
        text = f"  trick {e.get('number', '?')}: " + trick_line(played, self.names, self.style, e.get("winner"))
        if self._knocks:
            text += f" ({', '.join(self.who(p) for p in self._knocks)} knocked)"
            self._knocks = []
        return [text]

    def _ev_trump(self, e: Mapping[str, Any]) -> list[str]:
        by = e.get("chosen_by")
        named, self._named = self._named, None
        if named is not None and named == (by, str(e.get("trump")).upper()):
            return []  # the decision just said it
        shown = suit(str(e.get("trump")), self.style)
        if by is None:  # set by a step of the hand, not named by a player
            return [f"  trump is now {shown}"]
        return [f"  {self.who(by)} {self.verb(by, 'names')} trump {shown}"]

    def _ev_mode(self, e: Mapping[str, Any]) -> list[str]:
        """A mode put in force (the spec's ``modes``): the cards rank by it from now."""
        mode = str(e.get("mode"))
        return ["  the cards rank as written again" if mode == "none"
                else f"  the cards rank as in mode {mode} for the rest of the hand"]

    def _ev_declare(self, e: Mapping[str, Any]) -> list[str]:
        """A declaration attached to a card play (``tricks.declare``)."""
        seat = e.get("seat")
        return [f"  {self.who(seat)} {self.verb(seat, 'declares')} {e.get('word')} with "
                f"{card(str(e.get('card')), self.style)}"]

    def _ev_face_down(self, e: Mapping[str, Any]) -> list[str]:
        """A card played face down (``tricks.face_down``): the log and its player see it,
        the others not (in a seat's log it stays ``?``, also in its trick's line)."""
        seat = e.get("seat")
        if self.viewer is not None and seat != self.viewer:
            self._down.append((seat, str(e.get("card"))))
            return [f"  {self.who(seat)} {self.verb(seat, 'plays')} a card face down"]
        return [f"  {self.who(seat)} {self.verb(seat, 'plays')} {card(str(e.get('card')), self.style)} face down"]

    def _ev_blind(self, e: Mapping[str, Any]) -> list[str]:  # a card played for its player (tricks.blind)
        return [f"  {self.who(e.get('seat'))} {self.verb(e.get('seat'), 'plays')} {card(str(e.get('card')), self.style)} blind"]

    def _ev_throw_failed(self, e: Mapping[str, Any]) -> list[str]:  # tricks.combos: throw
        seat, shown, played = e.get("seat"), e.get("cards") or [], e.get("played") or []
        return [f"  {self.who(seat)} {self.verb(seat, 'shows')} a throw, {self._cards(shown)}: "
                f"another hand could beat it, so {self._cards(played)} is played"]

    def _sees(self, seat: Any) -> bool:
        """Whether this narrator may show ``seat``'s hidden cards (a transcript, or its own)."""
        return self.viewer is None or seat == self.viewer

    def _ev_pass_start(self, e: Mapping[str, Any]) -> list[str]:
        return [f"  cards are passed: {e.get('direction')}"]

    def _ev_pass(self, e: Mapping[str, Any]) -> list[str]:
        """A seat's pass: its cards to itself (and in a transcript), else their number."""
        seat = e.get("seat")
        given = [str(c) for c in e.get("cards") or []]
        what = self._cards(given) if self._sees(seat) else _plural(len(given), "card")
        return self._grouped("pass", "pass", seat,
                             f"{self.who(seat)} {what}{self._arrow} {self.who(e.get('to'))}")

    def _ev_passed(self, e: Mapping[str, Any]) -> list[str]:
        """The cards received: a seat sees its own; a transcript has shown every pass."""
        got = list(e.get("received") or [])
        if self.viewer is None:
            if not self.verbose:
                return []
            items = [f"{self.who(p)} {self._cards(h)}" for p, h in enumerate(got) if h]
            return wrap_items("  received: ", items, width=self.style.width) if items else []
        mine = got[self.viewer] if 0 <= self.viewer < len(got) else []
        if not mine:
            return []
        return [f"  {self.who(self.viewer)} {self.verb(self.viewer, 'receives')} "
                f"{self._cards(mine)}"]

    def _ev_draw(self, e: Mapping[str, Any]) -> list[str]:
        """A card drawn face down from the stock: who drew (which card, the hand shows)."""
        seat = e.get("seat")
        return self._grouped("draw", "draw from the stock", seat, self.who(seat))

    def _ev_melds(self, e: Mapping[str, Any]) -> list[str]:
        """Melds declared: their names and points, and the cards shown to all (a meld
        worth nothing only shows cards, as a hand laid open)."""
        seat = e.get("seat")
        shown = [str(c) for c in e.get("cards") or []]
        points = e.get("points")
        counts: dict[str, int] = {}
        for name in e.get("melds") or []:
            counts[str(name)] = counts.get(str(name), 0) + 1
        times = "×" if self.style.symbols else "x"
        named = ", ".join(n if k == 1 else f"{n} {times}{k}" for n, k in counts.items())
        if shown and not points:
            return self._shows(seat, shown)
        text = f"  {self.who(seat)} {self.verb(seat, 'declares')} {named}"
        if points:
            text += f" for {points}"
        if e.get("beaten"):
            text += " (beaten: worth nothing)"
        if shown:
            text += f": {self._cards(shown)}"
        return wrap_words(text, self.style.width, 6)

    def _ev_melds_beaten(self, e: Mapping[str, Any]) -> list[str]:
        """Melds declared earlier, compared: another side's better meld beats them."""
        seat = e.get("seat")
        return [f"  {self.who(seat)} {self.verb(seat, 'scores')} nothing for melds (beaten)"]

    def _ev_melds_shown(self, e: Mapping[str, Any]) -> list[str]:
        """The cards of melds declared earlier, shown to all now."""
        seat = e.get("seat")
        whose = "your" if self.who(seat) == "you" else "their"
        return self._shows(seat, e.get("cards") or [], f"{whose} melds: ")

    def _ev_dummy(self, e: Mapping[str, Any]) -> list[str]:
        """The dummy's hand laid face up after the opening lead."""
        return self._shows(e.get("seat"), e.get("cards") or [])

    def _shows(self, seat: Any, cards: Iterable[Any], what: str = "") -> list[str]:
        """``seat`` shows ``cards`` to all (``what``: what they are, "their melds: ")."""
        shown = [str(c) for c in cards]
        return wrap_items(f"  {self.who(seat)} {self.verb(seat, 'shows')} {what}",
                          hand_line(shown, style=self.style).split(" "), sep=" ",
                          width=self.style.width, indent=6)

    def _ev_pattern(self, e: Mapping[str, Any]) -> list[str]:
        seat = e.get("seat")
        if not isinstance(seat, int) or seat < 0:
            return [f"  no hand pattern: {e.get('pattern')}"]
        return [f"  {self.who(seat)} {self.verb(seat, 'has')} the best hand pattern: "
                f"{e.get('pattern')}"]

    def _ev_stock_closed(self, e: Mapping[str, Any]) -> list[str]:
        what = "closes" if e.get("closed") else "opens"
        if "by" in e:
            return [f"  {self.who(e['by'])} {self.verb(e['by'], what)} the stock"]
        return [f"  the stock is {'closed' if e.get('closed') else 'open'}"]

    def _ev_position(self, e: Mapping[str, Any]) -> list[str]:
        return [f"  the match starts at a position: {e.get('phase')}"]

    def _ev_cut_tie(self, e: Mapping[str, Any]) -> list[str]:
        among = ", ".join(self.who(p) for p in e.get("among", []))
        return [f"  tie between {among}: the cut picks {self.who(e.get('chosen'))}"]

    def _ev_eliminated(self, e: Mapping[str, Any]) -> list[str]:
        self._out.add(seat := e["seat"])
        return [f"  {self.style.paint(self.who(seat), bold=True)} {self.verb(seat, 'is')} "
                "out of the match"]

    def _ev_sitting_out(self, e: Mapping[str, Any]) -> list[str]:  # the spec's sit_out
        return [f"  {self.who(p)} {self.verb(p, 'sits')} this hand out" for p in e["seats"]]

    def _ev_end_hand(self, e: Mapping[str, Any]) -> list[str]:
        self._hands += 1
        scores = list(e.get("scores") or [])
        out = list(e.get("out") or [])
        won = list(e.get("tricks") or [])
        parts = []
        if any(won):
            tricks = " · ".join(f"{self.who(p)} {t}" for p, t in enumerate(won)
                                if not (p < len(out) and out[p]) or t)
            parts.append(f"tricks {tricks}")
        before = self._scores if self._scores is not None and len(self._scores) == len(scores) else None
        parts.append("scores " + scores_line(scores, self.names, out, before, self.style))
        self._scores = scores
        return ["  " + " | ".join(parts)]

    def _ev_match_end(self, e: Mapping[str, Any]) -> list[str]:
        winners = list(e.get("winners") or [])
        scores = list(e.get("scores") or [])
        who = " and ".join(self.who(p) for p in winners) or "nobody"
        label = "Winners" if len(winners) > 1 else "Winner"
        text = (f"Match over after {_plural(self._hands, 'hand')}. "
                f"{label}: {self.style.paint(who, bold=True)}")
        if scores:
            text += " · final scores " + " · ".join(
                f"{self.who(p)} {s}" for p, s in enumerate(scores))
        lines = ["", text]
        if e.get("limit_reached"):
            lines.append("(the match was stopped at the spec's limit on the number of hands)")
        return lines


def transcript(events: Iterable[Mapping[str, Any]], players: int | Sequence[str], *,
               style: Style = PLAIN, verbose: bool = False, viewer: int | None = None,
               start_scores: Sequence[Any] | None = None) -> list[str]:
    """A readable transcript of a match from its events (``state.log``).

    ``players`` is the number of seats (named ``P0``, ``P1``, ...) or their
    names.  One line per trick, a line for each round of decisions, the
    scores after each hand (with the change when ``start_scores`` or an
    earlier hand tells it) and the winner at the end.

    >>> import spelbok
    >>> state = spelbok.load("example", players=2).new_state(seed=1)
    >>> while not state.is_terminal:
    ...     state.apply(state.legal_actions()[0])
    >>> lines = transcript(state.log, 2)
    >>> lines[0].startswith("Cut for the deal:"), lines[-1].startswith("Match over")
    (True, True)
    """
    names = player_names(players) if isinstance(players, int) else list(players)
    narrator = Narrator(names, style=style, verbose=verbose, viewer=viewer,
                        start_scores=start_scores)
    out: list[str] = []
    for event in events:
        out += narrator.feed(event)
    out += narrator.flush()
    return out
