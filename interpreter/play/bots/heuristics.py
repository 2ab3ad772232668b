"""Generic card-game heuristics that read the rules, never a game's name.

Everything here works on card bitmasks and the per-trump tables of
:mod:`spelbok.engine.order` (effective suit, trump flag, power), so the same code
plays permanent trumps, relative trumps and plain suit games.  The functions
take a :class:`~spelbok.engine.state.State` only for *public* facts (the trick so
far, its leader order, the trick options) and the deciding seat's own hand;
what the other players may hold is passed in as ``live``: the cards the
decider cannot rule out (from its view), or, inside a rollout of a
determinized world, the other hands of that world.

>>> import spelbok
>>> from spelbok.engine.observe import observe
>>> game = spelbok.load("example", players=2)
>>> st = game.new_state(seed=3)
>>> while not any(a.kind == 0 for a in st.legal_actions()):   # up to the first trick
...     st.apply(policy_action(st, st.legal_actions(), __import__("random").Random(1), True))
>>> policy_action(st, st.legal_actions(), __import__("random").Random(1), True) in st.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...cards import CARD_NAMES, FRENCH, Pack, cards_in, parse_card
from ...engine.actions import CARD, CARDS, NUMBER, SUIT, WORD, Action
from ...engine.dummy import hand_seat
from ...engine.observe import FACE_DOWN
from ...engine.order import NO_TRUMP, TrumpTables
from ...engine.play_sets import PlaySets
from ...engine.subsets import SubsetActions
from ...engine.trick import beats, card_key

if TYPE_CHECKING:
    from ...engine.state import State


BLIND_EXCHANGE_MAX = 2
"""At most this many cards are given away blind in one quick exchange."""


def keep_value(tables: TrumpTables, c: int, want: bool = True) -> int:
    """How much a card is worth keeping: trumps 100+, top trumps 200+, plain 1..13.

    With ``want=False`` (tricks hurt) the order is reversed: low cards are kept.
    """
    # the trump suit's cards lifted above the plain ones; top trumps keep their own power
    # (200+, or just under the trump suit when placed low: ranking.top_trumps_place)
    v = tables.power[c] + (100 if tables.trump[c] and tables.power[c] < 100
                           and not (tables.top_mask >> c) & 1 else 0)
    return v if want else -v


def unseen_mask(view: dict[str, Any], deck_mask: int, pack: Pack = FRENCH) -> int:
    """Cards a seat cannot place from its view: not in its hand, not played,
    not face up, not its own discards.  Cards known to be in another hand stay
    in (they are live against the seat).  (In a pack with copies, each name seen
    accounts for one more copy.)"""
    if not pack.french:
        taken: set[int] = set()
        names = [*view["hand"], *view["own_discards"], *view["turn_up"],
                 *(n for _s, n in view["trick"]),
                 *(n for _l, cards, _w in view["tricks_played"] for _s, n in cards)]
        for name in names:
            c = pack.take_card(name, taken)
            if c is not None:
                deck_mask &= ~(1 << c)
        return deck_mask
    m = deck_mask
    for name in view["hand"]:
        m &= ~(1 << _cid(name))
    for name in view["own_discards"]:
        m &= ~(1 << _cid(name))
    for name in view["turn_up"]:
        m &= ~(1 << _cid(name))
    for _seat, name in view["trick"]:
        if name != FACE_DOWN:  # a card played face down stays unplaced
            m &= ~(1 << _cid(name))
    for _lead, cards, _w in view["tricks_played"]:
        for _seat, name in cards:
            if name != FACE_DOWN:
                m &= ~(1 << _cid(name))
    return m


_IDS = {name: i for i, name in enumerate(CARD_NAMES)}


def _cid(name: str) -> int:
    c = _IDS.get(name)
    if c is None:
        c = parse_card(name)
        assert c is not None, name
    return c


def _higher_live(tables: TrumpTables, c: int, live: int) -> bool:
    """Whether a live card of ``c``'s effective suit (or a trump, for a trump) beats it."""
    p = tables.power[c]
    pool = live & (tables.trump_mask if tables.trump[c] else tables.suit_mask[tables.suit[c]])
    power = tables.power
    while pool:
        low = pool & -pool
        if power[low.bit_length() - 1] > p:
            return True
        pool ^= low
    return False


def _threat(st: State, live: int) -> int:
    """The highest key a live card could reach in the current trick."""
    best = 0
    m = live
    while m:
        low = m & -m
        k = card_key(st, low.bit_length() - 1)
        if k > best:
            best = k
        m ^= low
    return best


def trick_card(
    st: State, seat: int, legal: list[Action], live: int, want: bool, after: int | None = None
) -> Action:
    """A card (or the abstain word) for the trick in progress.

    Wanting tricks: win as cheaply as possible when it can be won (with a card
    nobody still to play can beat, if there is one), else shed the lowest
    card; lead a top card when holding one, else a low card.  Avoiding tricks:
    play the highest card that does not win, else the lowest.  ``after`` is the
    mask of cards held by players still to play to this trick (default: ``live``).
    """
    t = st.tables
    knock = None
    cards: list[int] = []
    by_card: dict[int, Action] = {}  # the legal action of each card (its pack names it)
    for a in legal:
        if a.kind == CARD:
            cards.append(a.value)
            by_card[a.value] = a
        elif knock is None:
            knock = a
    if not cards:
        return legal[0]
    power = t.power
    trump = t.trump
    tr = st.trick
    if tr.led < 0:  # leading
        if not want:
            if knock is not None:
                return knock
            return by_card[min(cards, key=lambda c: (power[c], trump[c]))]
        boss = [c for c in cards if not _higher_live(t, c, live)]
        if boss:
            hand = st.hands[seat]
            trumps_held = (hand & t.trump_mask).bit_count()
            boss_trumps = [c for c in boss if trump[c]]
            plain = [c for c in boss if not trump[c]]
            if boss_trumps and (trumps_held >= 2 or not plain):
                return by_card[max(boss_trumps, key=lambda c: power[c])]
            if plain:
                return by_card[max(plain, key=lambda c: power[c])]
        if knock is not None:
            return knock
        plain_cards = [c for c in cards if not trump[c]]
        pool = plain_cards or cards
        return by_card[min(pool, key=lambda c: power[c])]
    best = tr.best_key
    keyed = [(card_key(st, c), c) for c in cards]
    winners = [(k, c) for k, c in keyed if beats(k, best)]
    if want:
        if winners:
            rest = live if after is None else after
            if tr.pos + 1 >= len(tr.order) or not rest:
                return by_card[min(winners)[1]]
            threat = _threat(st, rest)
            safe = [(k, c) for k, c in winners if k > threat]
            if safe:
                return by_card[min(safe)[1]]
            if knock is not None:
                return knock
            return by_card[min(winners)[1]]
        if knock is not None:
            return knock
        return by_card[min(cards, key=lambda c: (trump[c], power[c]))]
    losers = [(k, c) for k, c in keyed if k <= best]
    if losers:
        return by_card[max(losers, key=lambda kc: (power[kc[1]], trump[kc[1]]))[1]]
    if knock is not None:
        return knock
    if tr.pos + 1 < len(tr.order):
        return by_card[min(winners)[1]]
    return by_card[max(winners)[1]]


def suit_strength(hand: int, tables: tuple[TrumpTables, ...], suit: int, want: bool = True) -> int:
    """Strength of ``hand`` if ``suit`` were trump: trumps weigh most, then their power."""
    t = tables[suit]
    score = 0
    for c in cards_in(hand & t.trump_mask):
        score += 20 + t.power[c] % 100
    for c in cards_in(hand & ~t.trump_mask):
        if t.power[c] >= 12:
            score += 4
    return score if want else -score


def suit_choice(hand: int, legal: list[Action], tables: tuple[TrumpTables, ...],
                want: bool = True) -> Action:
    """The suit action whose trump would make ``hand`` strongest (weakest when tricks hurt)."""
    return max(legal, key=lambda a: (suit_strength(hand, tables, a.value, want), -a.value))


def exchange_candidates(
    hand: int, legal: list[Action], tables: TrumpTables, want: bool, limit: int = 12
) -> list[Action]:
    """A short list of sensible exchanges: give away the k weakest cards, for each k.

    All legal exchanges when there are at most ``limit`` of them.
    """
    if len(legal) <= limit:
        return list(legal)
    sizes, find = _exchanges(legal)
    order = sorted(cards_in(hand), key=lambda c: (keep_value(tables, c, want), c))
    out = []
    for k in sizes:
        m = 0
        for c in order[:k]:
            m |= 1 << c
        a = find(m)
        if a is not None:
            out.append(a)
    return out or list(legal)


def _exchanges(legal: list[Action]) -> tuple[list[int], Callable[[int], Action | None]]:
    """The sizes an exchange decision offers, and its action giving away a card mask.

    A lazy :class:`SubsetActions` answers both from its rule: listing its
    subsets would cost millions of actions for a large hand (an ecart of 6 of 24).
    """
    if isinstance(legal, SubsetActions):
        subsets = legal
        n = subsets.hand.bit_count()

        def find_lazy(m: int) -> Action | None:
            a = Action(CARDS, subsets.verb, m)
            return a if subsets.allows(a) else None

        return list(range(max(subsets.lo, 0), min(subsets.hi, n) + 1)), find_lazy
    by_mask = {a.value: a for a in legal if a.kind in (CARDS, WORD)}
    return sorted({m.bit_count() for m in by_mask}), by_mask.get


def exchange_pick(
    hand: int, legal: list[Action], tables: TrumpTables, want: bool, incoming: int | None
) -> Action:
    """A quick exchange: swap the weakest card for a better face-up card
    (``incoming``), or, drawing blind, give away the weak non-trump cards
    (at most :data:`BLIND_EXCHANGE_MAX`)."""
    sizes, find = _exchanges(legal)
    order = sorted(cards_in(hand), key=lambda c: (keep_value(tables, c, want), c))
    if incoming is not None:
        k = 1 if order and keep_value(tables, incoming, want) > keep_value(tables, order[0], want) else 0
    else:
        k = 0
        for c in order:
            high = tables.trump[c] or tables.power[c] >= 11
            if high == want or k >= BLIND_EXCHANGE_MAX:
                break
            k += 1
    k = min(max(k, sizes[0]), sizes[-1])
    while k not in sizes:
        k -= 1
    m = 0
    for c in order[:k]:
        m |= 1 << c
    return find(m) or legal[0]


def sure_tricks(hand: int, tables: TrumpTables, live: int) -> int:
    """A quick count of the tricks ``hand`` should take with ``tables``' trump.

    In each effective suit the hand's cards from the highest: a card no live card
    of its suit beats wins, and so does a card of the trump suit (of any suit
    without trumps) once the live cards of its suit are outnumbered by the
    hand's higher ones; under a trump, at most two winners in a plain suit
    (later rounds are ruffed)."""
    power = tables.power
    trumps = tables.trump_mask
    groups: dict[int, list[int]] = {}
    for c in cards_in(hand):
        groups.setdefault(-1 if tables.trump[c] else tables.suit[c], []).append(c)
    has_trump = bool(trumps)
    total = 0
    for g, cards in groups.items():
        mask = trumps if g < 0 else tables.suit_mask[g] & ~trumps
        theirs = [power[c] for c in cards_in(live & mask)]
        long_suit = g < 0 or not has_trump
        won = 0
        for i, c in enumerate(sorted(cards, key=lambda c: -power[c])):
            higher = sum(1 for p in theirs if p > power[c])
            if higher == 0 or (long_suit and len(theirs) <= i):
                won += 1
        total += won if long_suit else min(won, 2)
    return total


def forced_tricks(hand: int, tables: TrumpTables, live: int) -> int:
    """A quick count of the tricks ``hand`` may be forced to take (a negative
    contract): in each effective suit, from the lowest, a card that fewer live
    cards of its suit beat than the hand's own cards of the suit up to it."""
    power = tables.power
    trumps = tables.trump_mask
    groups: dict[int, list[int]] = {}
    for c in cards_in(hand):
        groups.setdefault(-1 if tables.trump[c] else tables.suit[c], []).append(c)
    total = 0
    for g, cards in groups.items():
        mask = trumps if g < 0 else tables.suit_mask[g] & ~trumps
        theirs = [power[c] for c in cards_in(live & mask)]
        for i, c in enumerate(sorted(cards, key=lambda c: power[c])):
            if sum(1 for p in theirs if p > power[c]) <= i:
                total += 1
    return total


def trump_tables(st: State) -> tuple[TrumpTables, ...]:
    tables: tuple[TrumpTables, ...] = st.game.program.tables_of(st)  # in the mode in force
    return tables


def policy_action(st: State, legal: list[Action], rng: random.Random, want: bool,
                  epsilon: float = 0.0) -> Action:
    """A fast rollout move in a (determinized) state: perfect information inside
    that world is fine, it is the bot's own hypothesis.  Cards by
    :func:`trick_card`, suits by strength, exchanges by :func:`exchange_pick`,
    words at random (a run of numbers, such as bids, counting as one word)."""
    legal = play_candidates(legal, st.tables, want)
    if len(legal) == 1:
        return legal[0]
    if epsilon and rng.random() < epsilon:
        return rng.choice(legal)
    seat = st.current
    assert seat is not None
    kind = decision_kind(legal)
    if kind == CARD:
        held = hand_seat(st)  # a dummy's turn: the card comes from its hand
        if held is not None:
            seat = held
        hands = st.hands
        live = 0
        after = 0
        tr = st.trick
        for i, q in enumerate(tr.order):
            if q != seat:
                live |= hands[q]
                if i > tr.pos:
                    after |= hands[q]
        return trick_card(st, seat, legal, live, want, after)
    if kind == CARDS:
        ins = st.game.program.code[st.pc]
        incoming = None
        if getattr(ins, "draw_from", "stock") == "turn_up":
            incoming = st.turn_up[-1] if st.turn_up else None
        return exchange_pick(st.hands[seat], legal, st.tables, want, incoming)
    if kind == SUIT:
        return suit_choice(st.hands[seat], legal, trump_tables(st), want)
    words = [a for a in legal if a.kind != NUMBER]
    if words and len(words) < len(legal):
        # a run of numbers (bids 18..264 beside 'pass') is one choice among the words,
        # so that a random auction ends rather than climbing to the top bid
        pick = rng.randrange(len(words) + 1)
        if pick < len(words):
            return words[pick]
        return rng.choice([a for a in legal if a.kind == NUMBER])
    return rng.choice(legal)


def decision_kind(legal: list[Action]) -> int:
    """What is being decided: CARD (a trick, maybe with an abstain word), CARDS
    (an exchange, whose keep-all option is a bare word), SUIT or WORD."""
    if isinstance(legal, SubsetActions):  # without listing its subsets
        return CARDS
    kinds = 0
    for a in legal:
        kinds |= 1 << a.kind
    if kinds & (1 << CARD):
        return CARD
    if kinds & (1 << CARDS):
        words = {a.verb for a in legal if a.kind == WORD}
        if words and not words & {a.verb for a in legal if a.kind == CARDS}:
            return WORD  # cards shown under words of their own beside a word (pass): words
        return CARDS
    if kinds & (1 << SUIT):
        return SUIT
    return WORD


def trump_index(view: dict[str, Any], pack: Pack = FRENCH) -> int:
    tr = view.get("trump")
    return pack.suit_index.get(tr, NO_TRUMP) if tr else NO_TRUMP


__all__ = [
    "decision_kind", "exchange_candidates", "exchange_pick", "forced_tricks", "keep_value", "policy_action", "suit_choice",
    "suit_strength", "sure_tricks", "trick_card", "trump_index", "unseen_mask",
]


def play_candidates(legal: list[Action], tables: TrumpTables, want: bool) -> list[Action]:
    """A short list of the plays of a lazy :class:`PlaySets` (several cards at once, a
    lead of a suit's any cards), without listing them all (a long hand has thousands):
    every single card, and for each template and size the weakest and the strongest
    cards of its pool.  Any other list is returned as it is."""
    if not isinstance(legal, PlaySets):
        return legal
    out: list[Action] = []
    seen: set[int] = set()
    for base, pool, lo, hi in legal.templates:
        cards = list(cards_in(pool))
        weak = sorted(cards, key=lambda c: (keep_value(tables, c, want), c))
        strong = sorted(cards, key=lambda c: (-keep_value(tables, c, want), c))
        for r in sorted({lo, min(lo + 1, hi), hi}):
            picks = [[c] for c in weak] if r == 1 else [weak[:r], strong[:r]]
            for pick in picks:
                m = base
                for c in pick:
                    m |= 1 << c
                m = legal.closure(m)
                if m and m not in seen and legal.fits(m):
                    seen.add(m)
                    out.append(legal.make(m))
    return out or list(legal)
