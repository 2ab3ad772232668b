"""Plays of several cards at once (``tricks.combos``) and a trump rank that follows a
variable (``ranking.trump_rank``): the run-time part of
:mod:`spelbok.lang.constructs.combos`.

**The trump rank.**  :func:`level_tables` turns the order tables of each trump into
those of a trump rank: every card of that rank is a trump and belongs to the trump
suit, below the top trumps and above the rest of the trump suit; the trump suit's own
card of the rank (power :data:`LEVEL_SAME`) above the others, which are equal among
themselves (:data:`LEVEL_OTHER`: of equal cards the first played keeps the trick, the
one winner rule of :mod:`spelbok.engine.trick`).  The rank leaves its suits' order, so
the cards either side of it are next to each other (:func:`ordinals`).  The program
picks the tables of the rank its formula names (``Program.tables_of``).

**Plays of several cards.**  A *kind* is ``single`` (one card), ``pair`` (two copies of
one card) or ``tractor`` (two or more pairs of one effective suit whose powers are next
to each other in that suit's order: :func:`ordinals`).  :class:`ComboPlay` lets the
leader play any kind the step lists; a single led plays as any trick does
(:class:`~spelbok.engine.trick_play.TrickPlay`).  With ``throw`` listed he may lead any
cards of one effective suit: split into components
(:func:`~spelbok.engine.play_sets.components`), each must be one no other hand could
beat (:func:`~spelbok.engine.play_sets.failing`), else he plays the smallest beatable
component alone and ``failed_throws`` counts it.  To a lead of ``n`` cards each
player plays ``n`` cards (:func:`~spelbok.engine.play_sets.follow_templates`): as many
of the suit led as he holds up to ``n``; when he holds more, a pair to a pair if he
holds one, to a tractor a tractor as long if he holds one, else as many pairs as he
can; any cards of the suit, then any cards.  The plays are kept as templates
(:class:`~spelbok.engine.play_sets.PlaySets`), listed only when asked.  A play wins
(:func:`~spelbok.engine.play_sets.shape_key`) only when it splits into the lead's
components, in the suit led or wholly in trumps: its key is its first component's top
card's (:func:`~spelbok.engine.trick.key_of`) and :func:`~spelbok.engine.trick.beats`
decides; of equal plays the first keeps the trick, or as ``ranking.equal_best`` says
(:func:`~spelbok.engine.trick_play.equal_card`).

**Actions.**  A single is the card's own action (``7H``); a play of several cards is one
action of kind ``CARDS`` whose word names its kind (``pair 7H 7H``, ``tractor 7H 7H 8H
8H``, a throw ``throw 8H AH``; a follow of no kind: ``play 7H 9S``).  The engine reads a
play by its cards, not its word (:meth:`ComboPlay.check`).  The game-AI action space
numbers a multi-card play as card picks ended by ``stop`` (docs/rl.md): bounded by the
deck's size, the legal picks computed from the templates
(:meth:`~spelbok.engine.play_sets.PlaySets.next_picks`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..cards import NO_TRUMP, Pack, cards_in
from .actions import CARD, CARDS, Action, card_actions
from .order import TrumpTables
from .play_sets import (
    PAIR,
    TRACTOR,
    PlaySets,
    below_copies,
    components,
    failing,
    fit_top,
    follow_templates,
    pairs_of,
    shape_key,
    shape_of,
    tractors_of,
)
from .trick import beats
from .trick_play import TrickPlayEach, equal_card

if TYPE_CHECKING:
    from .state import State

#: The kinds of play, in the order a spec lists them (``tricks.combos``).
KINDS: Final = ("single", "pair", "tractor", "throw")
THROW: Final = 3
#: The power of the trump suit's card of the trump rank, and of the rank's other cards
#: (top trumps are 200 and up, the trump suit's other cards 100 and up).
LEVEL_SAME: Final = 199
LEVEL_OTHER: Final = 198


def level_tables(base: tuple[TrumpTables, ...], pack: Pack, deck_mask: int,
                 rank: int) -> tuple[TrumpTables, ...]:
    """The tables of each trump of ``base`` with every card of the rank ``rank`` (its
    index in the pack) a trump of the trump suit (no trump: of no suit, every one equal),
    below the top trumps.

    >>> from spelbok.engine.order import build_tables
    >>> from spelbok.cards import FRENCH, parse_card
    >>> base = build_tables((1 << 52) - 1, "A K Q J 10 9 8 7 6 5 4 3 2".split(), [], False)
    >>> t = level_tables(base, FRENCH, (1 << 52) - 1, FRENCH.rank_index["2"])[2]  # hearts
    >>> p = t.power
    >>> p[parse_card("2H")] > p[parse_card("2S")] == p[parse_card("2C")] > p[parse_card("AH")]
    True
    >>> t.suit[parse_card("2S")], t.trump[parse_card("2S")]
    (2, True)
    """
    nsuits = len(pack.letters)
    out = []
    for t, tb in enumerate(base):
        trump_suit = t if t < nsuits else NO_TRUMP
        suit = list(tb.suit)
        trump = list(tb.trump)
        power = list(tb.power)
        masks = list(tb.suit_mask)
        trump_mask = tb.trump_mask
        for c in range(pack.size):
            if pack.rank[c] != rank or not (deck_mask >> c) & 1 or (tb.top_mask >> c) & 1:
                continue
            bit = 1 << c
            if not masks[suit[c]] & bit:
                continue  # a card of no suit (ranking.losing_cards): it stays one
            masks[suit[c]] &= ~bit
            masks[trump_suit] |= bit
            suit[c] = trump_suit
            trump[c] = True
            trump_mask |= bit
            power[c] = LEVEL_SAME if trump_suit != NO_TRUMP and pack.suit[c] == t else LEVEL_OTHER
        out.append(TrumpTables(tuple(suit), tuple(trump), tuple(power), tuple(masks),
                               trump_mask, tb.top_mask, tb.equal, tb.equal_only))
    return tuple(out)


def ordinals(t: TrumpTables) -> list[int]:
    """Each card's place in its effective suit's order: 0 for its lowest power, one more
    for each higher power the suit's cards have (cards of equal power share a place; a
    rank that left the suit leaves no gap)."""
    out = [0] * len(t.power)
    for m in t.suit_mask:
        powers = sorted({t.power[c] for c in cards_in(m)})
        place = {pw: i for i, pw in enumerate(powers)}
        for c in cards_in(m):
            out[c] = place[t.power[c]]
    return out


def classify(t: TrumpTables, pack: Pack, order: list[int], mask: int) -> tuple[int, int, int]:
    """``(kind, pairs, top)`` of the play ``mask``: its kind (-1: none, or several
    components: a throw), its number of pairs, and its highest card (the pair's or the
    tractor's top).  Every card of a kind is of one effective suit."""
    cards = list(cards_in(mask))
    s = t.suit[cards[0]]
    for c in cards:
        if t.suit[c] != s:
            return -1, 0, cards[0]
    comps = components(t, pack, order, mask)
    if len(comps) != 1:
        return -1, 0, cards[0]
    kind, pairs, top, _ = comps[0]
    return kind, pairs, top


def follow_sets(t: TrumpTables, pack: Pack, order: list[int], hand: int,
                lead: tuple[int, int, int], led: int, n: int) -> list[int]:
    """Every set of ``n`` cards ``hand`` may play to a lead of kind ``lead`` in the suit
    ``led`` (see the module's doc), copies of a card counted once: listed from the
    templates of :func:`~spelbok.engine.play_sets.follow_templates`."""
    comp = (lead[0], lead[1], lead[2], 0)
    sets = PlaySets(follow_templates(t, pack, order, hand, [comp], led, n), hand,
                    below_copies(pack, hand), int, pack)
    return sets.masks()


class ComboPlay(TrickPlayEach):
    """Trick play with plays of several cards (``tricks.combos``; see the module's doc).
    ``kinds``: the kinds a leader may play (numbers of :data:`KINDS`)."""

    def __init__(self, kinds: tuple[int, ...], refused: str) -> None:
        super().__init__(None, "knock", None, refused)
        self.kinds = kinds
        self.throws = THROW in kinds
        self.orders: dict[int, tuple[TrumpTables, list[int]]] = {}

    def order_of(self, t: TrumpTables) -> list[int]:
        """The :func:`ordinals` of the tables ``t`` (made once per tables)."""
        got = self.orders.get(id(t))
        if got is None or got[0] is not t:
            got = self.orders[id(t)] = (t, ordinals(t))
        return got[1]

    def _pack(self, st: State) -> Pack:
        return st.prog.pack

    def lead_cards(self, st: State) -> int:
        """The cards of the trick's lead."""
        tr = st.trick
        first = tr.cards[0][0]
        m = 0
        for p, c in tr.cards:
            if p != first:
                break
            m |= 1 << c
        return m

    def lead_of(self, st: State) -> tuple[tuple[int, int, int], int]:
        """The kind of the trick's lead (:func:`classify`) and its number of cards."""
        m = self.lead_cards(st)
        return classify(st.tables, self._pack(st), self.order_of(st.tables), m), m.bit_count()

    def _sets(self, st: State, seat: int) -> PlaySets | None:
        """The plays ``seat`` may make; None: one card, as in any trick."""
        tr = st.trick
        hand = st.hands[seat]
        pack = self._pack(st)
        t = st.tables
        order = self.order_of(t)
        if tr.led < 0 or not tr.cards:
            if not self.throws:
                return None
            # a throw: any cards of one effective suit (each a single, or a throw tried)
            temps = [(0, hand & m, 1, (hand & m).bit_count()) for m in t.suit_mask if hand & m]
            return PlaySets(temps, hand, below_copies(pack, hand),
                            lambda x: self._make(t, pack, order, x, True), pack)
        lead = self.lead_cards(st)
        n = lead.bit_count()
        if n == 1:
            return None
        comps = components(t, pack, order, lead)
        return PlaySets(follow_templates(t, pack, order, hand, comps, tr.led, n), hand,
                        below_copies(pack, hand),
                        lambda x: self._make(t, pack, order, x, False), pack)

    def _leads(self, st: State, seat: int) -> list[int]:
        """The multi-card plays ``seat`` may lead (without throws)."""
        hand = st.hands[seat]
        pack = self._pack(st)
        out: list[int] = []
        if PAIR in self.kinds:
            out += pairs_of(pack, hand)
        if TRACTOR in self.kinds:
            out += tractors_of(st.tables, pack, self.order_of(st.tables), hand)
        return out

    def _make(self, t: TrumpTables, pack: Pack, order: list[int], m: int,
              leading: bool) -> Action:
        """The action of the play ``m``: its card, or its cards with its kind's word."""
        if m.bit_count() == 1:
            return card_actions(pack)[m.bit_length() - 1]
        kind = classify(t, pack, order, m)[0]
        word = KINDS[kind] if kind > 0 else "throw" if leading else "play"
        return Action(CARDS, word, m, None if pack.french else pack)

    def _action(self, st: State, m: int) -> Action:
        return self._make(st.tables, self._pack(st), self.order_of(st.tables), m,
                          not st.trick.cards)

    def legal(self, st: State) -> list[Action]:
        seat = st.current
        assert seat is not None
        sets = self._sets(st, seat)
        if sets is None:
            out = list(TrickPlayEach.legal(self, st))
            if st.trick.led < 0 and not st.trick.cards:
                out += [self._action(st, m) for m in self._leads(st, seat)]
            return out
        return sets

    def _played(self, st: State, seat: int, a: Action) -> int:
        """The cards of the hand an action plays (0: not a play of cards held)."""
        hand = st.hands[seat]
        pack = self._pack(st)
        if a.kind == CARD:
            m = 1 << pack.held_copy(hand, a.value)
        elif a.kind == CARDS:
            m = pack.held_copies(hand, a.value)
        else:
            return 0
        return m if m & hand == m else 0

    def check(self, st: State, a: Action) -> str | None:
        seat = st.current
        assert seat is not None
        m = self._played(st, seat, a)
        if not m:
            return f"{a} is not in your hand" if a.kind in (CARD, CARDS) else "play cards from your hand"
        sets = self._sets(st, seat)
        leading = st.trick.led < 0 and not st.trick.cards
        if sets is None:
            if m.bit_count() == 1:
                return TrickPlayEach.check(self, st, card_actions(self._pack(st))[m.bit_length() - 1])
            if st.trick.cards:
                return "play one card: a single was led"
            if m in self._leads(st, seat):
                return None
            return "lead one card or a play of a kind: " + ", ".join(KINDS[k] for k in self.kinds)
        if sets.fits(m):
            return None
        if leading:
            return "a throw is of cards of one suit (or all trumps)"
        return _why(st, m, self.lead_cards(st).bit_count())

    def apply(self, st: State, seat: int, a: Action) -> bool:
        m = self._played(st, seat, a)
        leading = st.trick.led < 0 and not st.trick.cards
        if m.bit_count() == 1 and (leading or self._sets(st, seat) is None):
            return TrickPlayEach.apply(self, st, seat, card_actions(self._pack(st))[m.bit_length() - 1])
        t = st.tables
        pack = self._pack(st)
        order = self.order_of(t)
        if leading:
            comps = components(t, pack, order, m)
            if len(comps) > 1:  # a throw: each component must be one nobody could beat
                others = [h for p, h in enumerate(st.hands) if p != seat]
                bad = failing(t, pack, order, comps, others)
                if bad is not None:
                    failed = st.failed_throws[:]  # replaced, never changed in place
                    failed[seat] += 1
                    st.failed_throws = failed
                    if st.rec is not None:
                        st.event("throw_failed", seat=seat,
                                 cards=[pack.names[c] for c in cards_in(m)],
                                 played=[pack.names[c] for c in cards_in(bad[3])])
                    st.known[seat] |= m & ~bad[3]  # the cards kept were shown to all
                    m = bad[3]
                    if m.bit_count() == 1:
                        return TrickPlayEach.apply(self, st, seat, card_actions(pack)[m.bit_length() - 1])
        st.hands[seat] &= ~m
        if st.known[seat]:
            st.known[seat] &= ~m
        tr = st.trick
        if tr.shared:
            tr = tr.own(st)
        trumps = st.tf.first_trick_trumps or st.trick_no > 0
        if tr.led < 0:  # the lead: its suit is led, and it holds the trick
            lead = m
            tr.led = t.suit[next(iter(cards_in(m)))]
        else:
            lead = self.lead_cards(st)
            if (m & t.suit_mask[tr.led]).bit_count() < m.bit_count():
                st.voids[seat] |= 1 << tr.led  # he played every card of the suit he held
        shape = shape_of(components(t, pack, order, lead))
        key = shape_key(t, pack, order, shape, tr.led, m, trumps)
        if beats(key, tr.best_key):
            tr.best_key = key
            tr.best_seat = seat
            tr.best_trumped = not m & t.suit_mask[tr.led]  # won by trumps on another suit
        elif t.equal and key == tr.best_key:  # ranking.equal_best: as for one card
            top = fit_top(t, pack, order, shape, m)
            equal_card(st, tr, seat, not m & t.suit_mask[tr.led], top)
        for c in cards_in(m):
            tr.cards.append((seat, c))
        pos = tr.pos = tr.pos + 1
        if pos < len(tr.order):
            st.current = tr.order[pos]
            return True
        return self._finish(st)


def _why(st: State, m: int, n: int) -> str:
    """Why a follow of the cards ``m`` to a lead of ``n`` cards is refused: the part of
    the rule it breaks (how many cards, following suit, then the pairs and tractors)."""
    hand = st.hands[st.current] if st.current is not None else 0
    if m.bit_count() != min(n, hand.bit_count()):
        return f"play {n} cards, as many as were led"
    led = st.trick.led
    suit = st.tables.suit_mask[led] if 0 <= led < len(st.tables.suit_mask) else 0
    need = min(n, (hand & suit).bit_count())
    if (m & suit).bit_count() < need:
        return (f"follow suit: play {need} cards of the suit led (you hold "
                f"{(hand & suit).bit_count()}), then any others")
    return ("follow the lead's kinds: a pair to a pair and a tractor to a tractor when "
            "you hold one in the suit led, else as many pairs as you can")


__all__ = ["KINDS", "ComboPlay", "classify", "follow_sets", "level_tables", "ordinals"]
