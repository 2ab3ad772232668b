"""The trick: the trick in progress, its options, which cards a player may play, who
wins, and why a card is refused.

* :class:`Trick` the trick in progress, as one value (``State.trick``): its cards with
  their seats, the seats to play, the led suit, the running winner and its seat, a
  declaration's demand; shared by clones until one of them writes it (:meth:`Trick.own`);
* :class:`TrickFlags` the options of one ``tricks`` step;
* :func:`legal_cards` and :func:`refusal` what a player may play, and why not;
* the one winner rule: :func:`key_of` (a card's key: the trick goes to its highest),
  :func:`beats` (of equal keys the first played keeps the trick), :func:`down_key` (a
  face-down card's key), :func:`trick_winner` (the whole rule over a trick's cards: who
  is winning, with what, and the led suit) and :func:`taker` (who takes a closed trick);
  :func:`card_key` is the key of a card in the state's current trick.

The trick play keeps the running winner in the trick (``best_seat``, ``best_key``, ...),
updated card by card with :func:`key_of` and :func:`beats` inlined on the hot path
(:meth:`TrickPlay.apply <spelbok.engine.trick_play.TrickPlay.apply>`; a face-down card
through :func:`down_key` in ``CardPlay``): the property test ``tests/test_trick_value.py``
pins it to :func:`trick_winner` (:meth:`Trick.running`) after every card of random
matches of every shipped spec.

The instructions that play the tricks of a hand read these rules:
:mod:`spelbok.engine.trick_play` (:class:`TrickPlay`, with knocking),
:mod:`spelbok.engine.card_play` (the card-play mechanics a spec declares) and
:mod:`spelbok.engine.tricks` (the ``tricks`` step's compile step).

Everything here reads the per-trump tables of :mod:`spelbok.engine.order`, so the
same code serves permanent trumps, relative trumps and plain suit games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from ..cards import cards_in
from ..frozen import Frozen
from .order import NO_TRUMP, TrumpTables

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, slots=True)
class TrickFlags(Frozen):
    """The trick options of one ``tricks`` step, evaluated when it starts."""

    follow: bool = True
    head: bool = False
    head_after_trump: bool = False
    void_trump: bool = False
    void_beat: bool = False
    lead_broken: bool = False
    broken_any: bool = False  # any trump played breaks trumps, not only one played to another suit
    first_trick_trumps: bool = True
    abstain_lead: bool = True
    abstain_with_suit: bool = True
    overtrump: bool = False


def _above(mask: int, power: tuple[int, ...], target: int) -> int:
    """The cards of ``mask`` whose power exceeds ``target``."""
    out = 0
    m = mask
    while m:
        low = m & -m
        if power[low.bit_length() - 1] > target:
            out |= low
        m ^= low
    return out


def legal_cards(st: State, seat: int) -> int:
    """Mask of the cards ``seat`` may play to the current trick (before ``allow``)."""
    hand = st.hands[seat]
    t = st.tables
    f = st.tf
    trumps_count = f.first_trick_trumps or st.trick_no > 0
    tr = st.trick
    led = tr.led
    if led < 0:
        if not trumps_count or (f.lead_broken and not st.broken):
            plain = hand & ~t.trump_mask
            if plain:
                return plain
        return hand
    same = hand & t.suit_mask[led]
    if f.follow and same:
        if not f.head:
            if f.overtrump and same & t.trump_mask:  # a trump lead: follow with a higher trump
                return _above(same, t.power, tr.best_key) or same
            return same
        if tr.best_trumped:
            if not f.head_after_trump:
                return same
            target = tr.best_led
        else:
            target = tr.best_key
        beat = _above(same, t.power, target)
        return beat or same
    if not trumps_count:
        plain = hand & ~t.trump_mask
        return plain or hand
    if f.overtrump and tr.best_trumped:
        hand = _overtrump(st, hand)
    if f.void_trump or f.void_beat:
        trumps = hand & t.trump_mask
        if trumps:
            if f.void_beat:
                beat = _above(trumps, t.power, tr.best_key)
                if beat:
                    return beat
            if f.void_trump:
                return trumps
    return hand


def _duty_voids(st: State, c: int) -> int:
    """The suits ``c``, played by a hand without the suit led, shows it lacks by the duties
    of such a hand (:func:`legal_cards`): a trump to a first trick without trumps, the
    plain suits (it held nothing else); any other card under ``void_trump``, or under
    ``void_beat`` while every trump beats the trick, the suits made only of trumps (it
    held no trump).  Read before the card counts in the trick."""
    t = st.tables
    f = st.tf
    if not (f.first_trick_trumps or st.trick_no > 0):
        if not t.trump[c]:
            return 0
        out = 0
        for s in range(len(t.suit_mask)):
            m = t.suit_mask[s]
            if m and not m & t.trump_mask:
                out |= 1 << s
        return out
    if t.trump[c] or not (f.void_trump or _above(t.trump_mask, t.power, st.trick.best_key) == t.trump_mask):
        return 0
    out = 0
    for s in range(len(t.suit_mask)):
        m = t.suit_mask[s]
        if m and m & t.trump_mask == m:
            out |= 1 << s
    return out


def played_cards(st: State) -> int:
    """The cards played to tricks this hand (the trick in progress included; face-down
    ones too: mask them with ``st.hidden`` for what the table saw)."""
    played = 0
    for _lead, cards, _w in st.history_tricks:
        for _p, c in cards:
            played |= 1 << c
    return played | st.trick.mask()


def _overtrump(st: State, hand: int) -> int:
    """``hand`` without its trumps below the trick's best trump, when it holds a higher one
    (the ``overtrump`` rule: a trump played to a trumped trick must beat it if it can)."""
    t = st.tables
    trumps = hand & t.trump_mask
    higher = _above(trumps, t.power, st.trick.best_key)
    return hand & ~(trumps & ~higher) if higher else hand


def refusal(st: State, seat: int, card: int) -> str:
    """Why the trick options refuse ``card`` (in the hand, not in :func:`legal_cards`).

    Each reason mirrors the branch of :func:`legal_cards` that left the card out.
    """
    hand = st.hands[seat]
    t = st.tables
    f = st.tf
    first = not (f.first_trick_trumps or st.trick_no > 0)
    tr = st.trick
    led = tr.led
    if led < 0:  # only trumps are ever kept from the lead
        if first:
            return "no trump may be led to the first trick by a player holding another card"
        return "trumps may not be led until they are broken"
    if f.follow and hand & t.suit_mask[led]:
        if t.suit[card] != led:
            pack = st.prog.pack
            if led < len(pack.letters):
                return f"you must follow suit ({pack.letter(led)})"
            # led past the pack's suits: top trumps under no trump suit, or cards of no suit
            if any(t.trump[c] for c in cards_in(t.suit_mask[led])):
                return "you must follow suit (the top trumps led)"
            return "you must follow suit (the cards of no suit led)"
        if f.overtrump and not f.head and t.trump[card]:
            return "you must overtrump (play a trump higher than the trick's best)"
        return "you must head the trick (play a higher card of the suit)"
    if first:
        return "no trump may be played to the first trick by a player holding another card"
    if f.overtrump and tr.best_trumped and t.trump[card] and _overtrump(st, hand) != hand:
        return "you must overtrump (play a trump higher than the trick's best)"
    beats = f.void_beat and _above(hand & t.trump_mask, t.power, tr.best_key) != 0
    return "you must play a trump" + (" that beats the trick" if beats else "")


def trumps_count(st: State) -> bool:
    """Whether trumps win the current trick (not in a first trick where they may not be
    played: there a forced trump counts as a plain card)."""
    return st.tf.first_trick_trumps or st.trick_no > 0


def key_of(tables: TrumpTables, card: int, led: int, trumps: bool) -> int:
    """How strongly ``card`` bids for a trick whose led suit is ``led`` (0: it cannot win
    it): the one winner rule.  The highest key wins (:func:`beats`).

    A trump's key is its power (100+, top trumps 200+) when ``trumps`` win this trick; a
    card of the led suit its power; any other card 0 (cards of no suit, losing cards:
    power 0, see ``order.strip_cards``).

    >>> from spelbok.engine.order import build_tables
    >>> from spelbok.cards import parse_card
    >>> t = build_tables((1 << 52) - 1, "A K Q J 10 9 8 7 6 5 4 3 2".split(), [], False)[0]
    >>> c2, ah, kh = parse_card("2C"), parse_card("AH"), parse_card("KH")
    >>> key_of(t, c2, 2, True) > key_of(t, ah, 2, True) > key_of(t, kh, 2, True)
    True
    >>> key_of(t, ah, 0, True), key_of(t, c2, 2, False)
    (0, 0)
    """
    if tables.trump[card] and trumps:
        return tables.power[card]
    if tables.suit[card] == led:
        return tables.power[card]
    return 0


def beats(key: int, best: int) -> bool:
    """Whether a card of key ``key`` takes the trick from the best so far (key ``best``):
    only a higher key does, so of equal cards (copies) the first played keeps it.

    >>> beats(12, 11), beats(11, 11)
    (True, False)
    """
    return key > best


#: The rules for a card as strong as the trick's best so far (``ranking.equal_best``,
#: :attr:`TrumpTables.equal <spelbok.engine.order.TrumpTables.equal>`): the first played
#: keeps the trick, the later one takes it, or the trick is tied between sides.
EQUAL_FIRST: Final = 0
EQUAL_LAST: Final = 1
EQUAL_TIE: Final = 2
#: Their words, by number.
EQUAL_RULES: Final = ("first", "last", "tie")


def equal_best(rule: int, seat: int, best_seat: int, tie: int,
               sides: Sequence[int] = (), card: int = 0, only: int = 0) -> tuple[int, int]:
    """The running winner and the seat that tied the trick (-1: not tied) after ``seat``
    plays a card whose key equals the best so far, held by ``best_seat`` (``tie``: the
    seat that tied it so far).  Under :data:`EQUAL_LAST` the later card takes the trick;
    under :data:`EQUAL_TIE` it ties the trick when it is of another side than the
    holder's (``sides``: each seat's side; none: each seat its own), or the trick is tied
    already: the holder stays the running winner and ``seat`` is the one that tied it (a
    tied trick is won by nobody, and its leader leads again: ``TrickPlay._finish``); a
    partner's equal card leaves the trick to the first (as under :data:`EQUAL_FIRST`).
    With ``only`` (a mask of cards, ``ranking.equal_best_cards``) the rule holds for
    those cards alone: of two other equal cards (``card`` the later) the first keeps it.

    >>> equal_best(EQUAL_LAST, 2, 0, -1), equal_best(EQUAL_FIRST, 2, 0, -1)
    ((2, -1), (0, -1))
    >>> equal_best(EQUAL_LAST, 2, 0, -1, (), 5, 1 << 5), equal_best(EQUAL_LAST, 2, 0, -1, (), 6, 1 << 5)
    ((2, -1), (0, -1))
    >>> equal_best(EQUAL_TIE, 1, 0, -1, (0, 1, 0, 1)), equal_best(EQUAL_TIE, 2, 0, -1, (0, 1, 0, 1))
    ((0, 1), (0, -1))
    """
    if only and not (only >> card) & 1:
        return best_seat, tie
    if rule == EQUAL_LAST:
        return seat, -1
    if rule == EQUAL_TIE and (tie >= 0 or not sides or sides[seat] != sides[best_seat]):
        return best_seat, seat
    return best_seat, tie


#: The key of a card played face down as a trump: the lowest trump (every trump's power
#: is 100 or more, see :mod:`spelbok.engine.order`).
DOWN_KEY: Final = 100


def down_key(trump: int, trumps: bool, down_trump: bool) -> int:
    """The key of a card played face down: the lowest trump (:data:`DOWN_KEY`) when the
    spec plays it as one (``down_trump``), there is a trump and trumps win this trick;
    otherwise 0 (a card of no suit: it names no led suit and never wins).

    >>> down_key(0, True, True), down_key(NO_TRUMP, True, True), down_key(0, True, False)
    (100, 0, 0)
    """
    return DOWN_KEY if down_trump and trump != NO_TRUMP and trumps else 0


class Running(NamedTuple):
    """The state of a trick's contest after some of its cards: the suit led (-1: none
    yet), the seat winning it so far (-1: no card can win yet) and its key, the best key
    of a card of the led suit that is not a trump (``head_after_trump``), and whether the
    winning card is a trump played to another suit; ``tie``: the seat whose card tied the
    trick (:func:`equal_best`; -1: not tied)."""

    led: int
    seat: int
    key: int
    led_best: int
    trumped: bool
    tie: int = -1


def trick_winner(tables: TrumpTables, pairs: Sequence[tuple[int, int]],
                 trumps: bool, trump: int = NO_TRUMP, down: int = 0, down_trump: bool = True,
                 losing: int = 0, plain: int = 0, sides: Sequence[int] = ()) -> Running:
    """The winner rule over the ``(seat, card)`` ``pairs`` of a trick, in play order:
    who is winning it and with what key (:class:`Running`), under the trump ``tables``
    (trump ``trump``; ``trumps``: trumps win this trick, see :func:`trumps_count`).

    The cards of ``down`` were played face down (:func:`down_key`: one played as a trump
    names the trump as the led suit); those of ``losing`` are cards of no suit that never
    win (``ranking.losing_cards``, kept cards among them): they name no led suit; those
    of ``plain`` were played before a trump named during the trick (``tricks.new_trump:
    later``): they count as no trump, a card of the suit led by its power.  The
    first card that names a suit names the led suit; a card takes the lead when it
    :func:`beats` the best so far, and one of equal key follows the tables' rule for
    equal cards (:func:`equal_best`, ``sides``: each seat's side).  Who takes the whole
    trick is :func:`taker`.

    >>> from spelbok.engine.order import build_tables
    >>> from spelbok.cards import parse_card
    >>> t = build_tables((1 << 52) - 1, "A K Q J 10 9 8 7 6 5 4 3 2".split(), [], False)[0]
    >>> trick = [(0, parse_card("KH")), (1, parse_card("AH")), (2, parse_card("2C"))]
    >>> trick_winner(t, trick[:2], True)
    Running(led=2, seat=1, key=13, led_best=13, trumped=False, tie=-1)
    >>> trick_winner(t, trick, True).seat, trick_winner(t, trick, True).trumped
    (2, True)
    >>> trick_winner(t, trick, True, trump=0, down=1 << parse_card("KH")).led
    0
    """
    led = -1
    seat = -1
    key = 0
    led_best = 0
    trumped = False
    tie = -1
    for p, c in pairs:
        if (down >> c) & 1:
            k = down_key(trump, trumps, down_trump)
            if not k:
                continue  # of no suit: names no suit, never wins
            if led < 0:
                led = trump
            if beats(k, key):
                seat, key, trumped, tie = p, k, led != trump, -1
            elif tables.equal and k == key:
                best, tie = equal_best(tables.equal, p, seat, tie, sides, c, tables.equal_only)
                if best != seat:
                    seat, trumped = best, led != trump
            continue
        if (losing >> c) & 1:
            continue
        suit = tables.suit[c]
        if led < 0:
            led = suit
        k = key_of(tables, c, led, trumps and not (plain >> c) & 1)
        if beats(k, key):
            seat, key, trumped, tie = p, k, suit != led, -1
        elif tables.equal and k == key and k:
            best, tie = equal_best(tables.equal, p, seat, tie, sides, c, tables.equal_only)
            if best != seat:
                seat, trumped = best, suit != led
        if suit == led and not tables.trump[c] and tables.power[c] > led_best:
            led_best = tables.power[c]
    return Running(led, seat, key, led_best, trumped, tie)


def taker(pairs: Sequence[tuple[int, int]], seat: int) -> int:
    """Who takes a closed trick whose winner is ``seat`` (:func:`trick_winner`): that
    seat, or, when no card could win (only cards of no suit), the first card's player;
    -1 for a trick without cards (everyone knocked).

    >>> taker([(2, 5), (0, 9)], 0), taker([(2, 5), (0, 9)], -1), taker([], -1)
    (0, 2, -1)
    """
    if seat >= 0:
        return seat
    return pairs[0][0] if pairs else -1


def card_key(st: State, card: int) -> int:
    """How strongly ``card`` bids for the current trick (0: it cannot win): :func:`key_of`
    under the state's trump tables, led suit and first-trick rule (the bots and the
    formulas' ``power`` read it)."""
    return key_of(st.tables, card, st.trick.led, st.tf.first_trick_trumps or st.trick_no > 0)


class Trick:
    """The trick in progress, one value (``State.trick``): its ``cards`` (``(seat, card)``
    in play order; face down or up: :meth:`down`), the seats to play in turn (``order``)
    and how many have played or knocked (``pos``), the led suit (``led``, -1: none yet),
    the running winner (``best_seat``, -1: none yet, with ``best_key``, ``best_led`` and
    ``best_trumped``: :class:`Running`) and a declaration's demand on the next player
    (``demand``, the declaration's index + 1, 0: none; ``bound``, the seat it binds, -2: every later seat).
    ``ask`` is the window of announcements made out of turn before the next card
    (:class:`~spelbok.engine.any_turn.AnyTurnPlay`): the index of the seat asked among
    the others, -1 once it is closed.
    A card as strong as the best ties the trick under ``ranking.equal_best: tie``: ``tie``
    is the seat that tied it and ``tie_key`` the key it tied at; a higher card later
    leaves them as they are, as the hot path saves the write: the trick is tied while
    ``tie_key`` is the best key (:meth:`tied`).

    The fields are declared in the state's table (:data:`spelbok.engine.fields.FIELDS`,
    owner ``trick``), which snapshots, equality and pickles read.  ``State.clone`` shares
    the trick (``shared``); whoever writes it first takes a copy of its own
    (:meth:`own`), so a clone costs no copy of the trick's lists.

    >>> t = Trick([2, 0, 1])
    >>> t.cards.append((2, 5)); t.pos = 1
    >>> t.to_play(), t.mask() == 1 << 5, t.taker()
    (0, True, 2)
    """

    __slots__ = ("cards", "order", "pos", "led", "best_key", "best_seat", "best_led",
                 "best_trumped", "demand", "bound", "plain", "ask", "tie", "tie_key", "shared")

    cards: list[tuple[int, int]]
    order: list[int]
    pos: int
    led: int
    best_key: int
    best_seat: int
    best_led: int
    best_trumped: bool
    demand: int
    bound: int
    plain: int  # cards played before a trump named during the trick (tricks.new_trump)
    ask: int
    tie: int
    tie_key: int
    shared: bool  # held by more than one state (a clone's): copy before writing

    def __init__(self, order: list[int] | None = None) -> None:
        self.cards = []
        self.order = [] if order is None else order
        self.pos = 0
        self.led = -1
        self.best_key = 0
        self.best_seat = -1
        self.best_led = 0
        self.best_trumped = False
        self.demand = 0
        self.bound = -1
        self.plain = 0
        self.ask = 0
        self.tie = -1
        self.tie_key = 0
        self.shared = False

    def copy(self) -> Trick:
        """A copy of its own (the lists copied)."""
        c = Trick(self.order[:])
        c.cards = self.cards[:]
        c.pos = self.pos
        c.led = self.led
        c.best_key = self.best_key
        c.best_seat = self.best_seat
        c.best_led = self.best_led
        c.best_trumped = self.best_trumped
        c.demand = self.demand
        c.bound = self.bound
        c.plain = self.plain
        c.ask = self.ask
        c.tie = self.tie
        c.tie_key = self.tie_key
        return c

    def own(self, st: State) -> Trick:
        """The trick ``st`` may write: this one, or, when a clone shares it, a copy that
        ``st`` now holds.  Every writer calls it first (``tr = st.trick; if tr.shared:
        tr = tr.own(st)``)."""
        if not self.shared:
            return self
        c = self.copy()
        st.trick = c
        return c

    def values(self) -> tuple[object, ...]:
        """The trick's fields, for equality (in their order in ``__slots__``)."""
        return (self.cards, self.order, self.pos, self.led, self.best_key, self.best_seat,
                self.best_led, self.best_trumped, self.demand, self.bound, self.plain,
                self.ask, self.tie, self.tie_key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trick):
            return NotImplemented
        return self.values() == other.values()

    def __hash__(self) -> int:  # mutable: equal by content, so no hash
        raise TypeError("unhashable type: 'Trick'")

    def __repr__(self) -> str:
        return f"Trick(cards={self.cards}, led={self.led}, best_seat={self.best_seat})"

    def __reduce__(self) -> tuple[object, ...]:
        return (_trick_from, self.values())

    def mask(self) -> int:
        """The trick's cards, as a mask."""
        m = 0
        for _p, c in self.cards:
            m |= 1 << c
        return m

    def down(self, hidden: int) -> int:
        """The trick's cards played face down and not shown yet (``hidden``: the state's
        face-down cards, ``State.hidden``), as a mask."""
        return self.mask() & hidden

    def to_play(self) -> int:
        """The seat whose turn it is in the trick (-1: every seat has played)."""
        return self.order[self.pos] if self.pos < len(self.order) else -1

    def running(self, tables: TrumpTables, trumps: bool, trump: int = NO_TRUMP,
                down: int = 0, down_trump: bool = True, losing: int = 0,
                sides: Sequence[int] = ()) -> Running:
        """The winner rule (:func:`trick_winner`) over the trick's cards: what the
        running fields (``led``, ``best_seat``, ..., :meth:`tied`) must hold."""
        return trick_winner(tables, self.cards, trumps, trump, down, down_trump, losing,
                            self.plain, sides)

    def taker(self) -> int:
        """Who takes the trick as it stands (:func:`taker`)."""
        return taker(self.cards, self.best_seat)

    def tied(self) -> int:
        """The seat whose card ties the trick as it stands (-1: it is not tied)."""
        return self.tie if self.tie >= 0 and self.tie_key == self.best_key else -1


def _trick_from(cards: list[tuple[int, int]], order: list[int], pos: int, led: int,
                best_key: int, best_seat: int, best_led: int, best_trumped: bool,
                demand: int, bound: int, plain: int = 0, ask: int = 0, tie: int = -1,
                tie_key: int = 0) -> Trick:
    """A pickled :class:`Trick` (:meth:`Trick.__reduce__`)."""
    t = Trick(order)
    t.cards = cards
    t.pos, t.led, t.best_key, t.best_seat = pos, led, best_key, best_seat
    t.best_led, t.best_trumped, t.demand, t.bound = best_led, best_trumped, demand, bound
    t.plain = plain
    t.ask = ask
    t.tie, t.tie_key = tie, tie_key
    return t


def renamed_trump(st: State, whole: bool, down_trump: bool, losing: int) -> None:
    """A trump named while a trick is in progress (an assignment to ``trump``): with
    ``whole`` the trick's cards count under it; else (``tricks.new_trump: later``) the
    cards already played count as no trump's (``Trick.plain``).  The running winner is
    worked out again by the one rule (:func:`trick_winner`)."""
    tr = st.trick.own(st)
    if not whole:
        tr.plain |= tr.mask()
    run = trick_winner(st.tables, tr.cards, trumps_count(st), st.trump, tr.down(st.hidden),
                       down_trump, losing, tr.plain, st.prog.sides)
    tr.led, tr.best_seat, tr.best_key, tr.best_led, tr.best_trumped = run[:5]
    tr.tie, tr.tie_key = run.tie, run.key if run.tie >= 0 else 0
