"""What a seat can see (``view``) and re-dealing what it cannot (``determinize``).

Visibility of zones: a hand is seen by its owner; the talon (stock) and the
discard pile are hidden (a player sees only their own discards); the turn-up,
the trick in progress and finished tricks are public (a card played face down only
to its owner, until shown); declared variables are public (announcements, scores,
exchange counts), but for the spec's hidden ones (engine/hidden.py).  A card taken from the turn-up stays publicly known to be in the
taker's hand.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..cards import CARD_NAMES, cards_in
from ..errors import ArgumentError, SpelbokError
from ..limits import seat_arg
from .auction import A_CALLED, A_DECLARER
from .hidden import hidden_masks, resample
from .play_sets import PlaySets, listed

if TYPE_CHECKING:
    from .order import TrumpTables
    from .state import State


def _names(mask: int, names: tuple[str, ...] = CARD_NAMES) -> list[str]:
    return [names[c] for c in cards_in(mask)]


def _public_decision(p: int, name: str, x: Any, seat: int) -> list[Any]:
    """A decision of this hand as ``seat`` saw it: exchanged cards only by number."""
    if isinstance(x, int):  # an exchange of x cards: what they were is hidden from others
        return [p, name, f"{x} card{'s' if x != 1 else ''}"]
    return [p, name, str(x)]


#: How a view shows a card another seat played face down and has not shown.
FACE_DOWN = "?"


def _seen(st: State, seat: int, p: int, c: int) -> str:
    """The card ``p`` played, as ``seat`` sees it: its name, or FACE_DOWN while hidden."""
    if st.hidden and p != seat and (st.hidden >> c) & 1:
        return FACE_DOWN
    return st.prog.pack.names[c]


def public_vars(st: State, seat: int | None = None) -> dict[str, Any]:
    """The variables by name; given a ``seat``, a hidden value it may not see is None."""
    prog = st.game.program
    out: dict[str, Any] = {}
    for name, row in zip(prog.pvar_names, st.pv_rows, strict=True):
        out[name] = list(row)
    if seat is not None and prog.secrets:
        for name, m in zip(prog.pvar_names, hidden_masks(st, seat), strict=True):
            for p in range(st.n):
                if m >> p & 1:
                    out[name][p] = None
    for name, value in zip(prog.gvar_names, st.gv, strict=True):
        out[name] = value
    return out


#: The entries of a view that every seat sees alike, which State.var reads by name too;
#: the rest of a view is the seat's own (a test checks every key is one or the other).
SHARED = ("players", "hand_number", "dealer", "trump", "hand_sizes", "turn_up", "talon",
          "widow", "discards", "shown", "led", "tricks", "voids", "out", "sitting_out", "scores",
          "current_player", "decision", "terminal", "winners")
OWN = ("seat", "hand", "known_cards", "own_discards", "trick", "tricks_played", "decisions",
       "vars", "auction", "legal_actions", "legal_count", "legal_cards")

#: A seat's view lists its legal actions up to this many plays of several cards; beyond
#: it says how many there are (``legal_count``) and which cards they use (``legal_cards``).
LISTED_PLAYS = 200


def view(st: State, seat: int) -> dict[str, Any]:
    seat_arg(seat, st.n)
    pack = st.prog.pack
    names = pack.names
    peeked = st.peeked[seat]  # cards of other hands this seat alone was shown
    hidden_known = [_names((st.known[p] | peeked) & st.hands[p] if peeked else st.known[p],
                           names) if p != seat else [] for p in range(st.n)]
    v: dict[str, Any] = {
        "seat": seat,
        "players": st.n,
        "hand_number": st.hand_number,
        "dealer": st.dealer,
        "trump": pack.letters[st.trump] if st.trump < len(pack.letters) else None,
        "hand": pack.names_of(st.hands[seat]),
        "hand_sizes": [m.bit_count() for m in st.hands],
        "known_cards": hidden_known,
        "turn_up": [names[c] for c in st.turn_up],
        "talon": len(st.stock),
        "widow": st.widow.bit_count(),
        "discards": st.discards.bit_count(),
        "own_discards": _names(st.discarded[seat], names),
        # cards an exchange gave away face up ('show'), while they lie aside
        "shown": _names(st.shown & (st.discards | st.widow), names),
        "trick": [[p, _seen(st, seat, p, c)] for p, c in st.trick.cards],
        "led": pack.letter(st.trick.led) if st.trick.led >= 0 else None,
        "tricks_played": [[lead, [[p, _seen(st, seat, p, c)] for p, c in cards], w]
                          for lead, cards, w in st.history_tricks],
        "tricks": list(st.won),
        "decisions": [_public_decision(p, name, x, seat) for p, name, x in st.public],
        "voids": [[pack.letters[s] for s in range(len(pack.letters)) if (st.voids[p] >> s) & 1]
                  for p in range(st.n)],
        "out": list(st.out),
        "vars": public_vars(st, seat),
        "scores": st.scores,
        "current_player": st.current,
        "decision": st.decision_name,
        "terminal": st.is_terminal,
        "winners": list(st.winner_seats),
    }
    if st.off is not st.out:  # sit_out: the seats sitting this hand out (not out of the match)
        v["sitting_out"] = [o and not x for o, x in zip(st.off, st.out, strict=True)]
    if st.auction:  # the hand's auction: the called card's holder stays hidden (auction.py)
        from .auction import auction_view

        v["auction"] = auction_view(st, seat, st.prog.contracts)
    if st.current == seat:
        legal = st.legal_actions()
        shown = listed(legal, LISTED_PLAYS)
        if shown is not None:
            v["legal_actions"] = [str(a) for a in shown]
        else:  # plays of several cards, too many to list: how many, and the cards they use
            assert isinstance(legal, PlaySets)
            v["legal_count"] = legal.total()
            v["legal_cards"] = pack.names_of(legal.first_picks())
    return v


def voids_under(voids: list[int], old: TrumpTables, new: TrumpTables) -> list[int]:
    """Each seat's voids (bits of effective suits under the ``old`` trump's tables) as
    voids under ``new``'s: a suit stays void when every card of it is one the seat was
    shown to lack (a top trump may change suit with the trump: it is not assumed)."""
    out = []
    for v in voids:
        lacking = 0
        for s in range(len(old.suit_mask)):
            if (v >> s) & 1:
                lacking |= old.suit_mask[s]
        w = 0
        for s in range(len(new.suit_mask)):
            m = new.suit_mask[s]
            if m and m & lacking == m:
                w |= 1 << s
        out.append(w)
    return out


def constraints(st: State, seat: int) -> tuple[int, list[int], list[int]]:
    """What a sample for ``seat`` keeps: the cards hidden from it (a mask), how many of
    them each other hand holds (``need``), and the cards each hand may not be dealt
    (``forbidden``: the suits it has shown to lack, under the current trump, and a card
    its holder called and so lacks).  The real deal always meets them."""
    n = st.n
    pool = 0
    need: list[int] = [0] * n
    for p in range(n):
        if p == seat:
            continue
        free = st.hands[p] & ~(st.known[p] | st.peeked[seat])
        pool |= free
        need[p] = free.bit_count()
    pool |= st.discards & ~st.discarded[seat]
    pool |= st.widow
    pool &= ~st.shown  # shown to all where they lie (an exchange's 'show')
    for p in range(n):  # cards other seats have passed, not yet received: hidden
        if p != seat:
            pool |= st.passing[p]
    for c_ in st.stock:
        pool |= 1 << c_
    pool |= _face_down_of_others(st, seat)
    suit_mask = st.tables.suit_mask
    forbidden = [0] * n
    for p in range(n):
        v = st.voids[p]
        if p != seat and v:
            m = 0
            for s in range(len(suit_mask)):  # the suits, then the cards of no suit
                if (v >> s) & 1:
                    m |= suit_mask[s]
            forbidden[p] = m
    auction = st.auction
    if auction and auction[A_CALLED] >= 0 and not st.prog.calls_own:
        # the declarer called a card not in his hand: a sample must not deal it to him
        declarer = auction[A_DECLARER]
        if 0 <= declarer < n and declarer != seat:
            forbidden[declarer] |= 1 << auction[A_CALLED]
    return pool, need, forbidden


#: Random greedy deals tried before the exact search (:func:`_deal_exact`).  Nearly every
#: sample is found at the first; a deal missed this often is tight, and searched.
GREEDY_TRIES = 8


def _deal(cards: list[int], need: list[int], forbidden: list[int],
          rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """``cards`` dealt at random: ``need[p]`` to each hand ``p``, none of ``forbidden[p]``;
    the hands, and the cards left over (in random order).  Never relaxes a constraint."""
    n = len(need)
    pool = 0
    for card in cards:
        pool |= 1 << card
    hands: list[list[int]] = [[] for _ in range(n)]
    rng.shuffle(cards)
    if not any(need[p] and forbidden[p] & pool for p in range(n)):
        i = 0  # nothing constrains the deal: one shuffle is a uniform sample
        for p in range(n):
            hands[p] = cards[i:i + need[p]]
            i += need[p]
        return hands, cards[i:]
    order = sorted((p for p in range(n) if need[p]), key=lambda p: -forbidden[p].bit_count())
    for attempt in range(GREEDY_TRIES):
        if attempt:
            rng.shuffle(cards)
        remaining = cards
        ok = True
        for p in order:
            bad = forbidden[p]
            picked: list[int] = []
            rest: list[int] = []
            k = need[p]
            for card in remaining:
                if len(picked) < k and not (bad >> card) & 1:
                    picked.append(card)
                else:
                    rest.append(card)
            if len(picked) < k:
                ok = False
                break
            hands[p] = picked
            remaining = rest
        if ok:
            return hands, remaining
    return _deal_exact(cards, need, forbidden, rng)


def _deal_exact(cards: list[int], need: list[int], forbidden: list[int],
                rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """:func:`_deal` by an exact search: the cards, in random order, each go to a random
    place (a constrained hand, or anywhere else, weighted by the room left) that leaves
    the rest dealable.  Dealable is Hall's condition for this b-matching: every set S
    of constrained hands needs no more cards than there are cards some hand of S may
    hold.  Raises when no deal exists (a state whose voids contradict its hands)."""
    n = len(need)
    pool = 0
    for card in cards:
        pool |= 1 << card
    seats = [p for p in range(n) if need[p] and forbidden[p] & pool]
    k = len(seats)
    full = 1 << k
    allowed = [0] * full  # per set S of constrained hands: the cards one of them may hold
    for s in range(1, full):
        low = s & -s
        allowed[s] = allowed[s ^ low] | (pool & ~forbidden[seats[low.bit_length() - 1]])
    left = [need[p] for p in seats]
    anywhere = len(cards) - sum(left)  # the unconstrained hands, the stock, the discards…
    if not _dealable(pool, left, allowed):
        raise SpelbokError(
            "no deal of the hidden cards keeps every void and called card: the state "
            "contradicts itself (a hand is marked void in a suit it holds?)")
    dealt = [0] * k
    elsewhere: list[int] = []
    rem = pool
    for card in cards:
        rem ^= 1 << card
        places = [i for i in range(k) if left[i] and not (forbidden[seats[i]] >> card) & 1]
        if anywhere:
            places.append(-1)
        while True:
            total = 0
            for i in places:
                total += left[i] if i >= 0 else anywhere
            r = rng.randrange(total)
            j = 0
            for j in range(len(places)):
                i = places[j]
                r -= left[i] if i >= 0 else anywhere
                if r < 0:
                    break
            i = places[j]
            if i >= 0:
                left[i] -= 1
            if len(places) == 1 or _dealable(rem, left, allowed):
                break
            if i >= 0:  # this place would leave the rest undealable: another one
                left[i] += 1
            del places[j]
        if i >= 0:
            dealt[i] |= 1 << card
        else:
            anywhere -= 1
            elsewhere.append(card)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(k):
        hands[seats[i]] = list(cards_in(dealt[i]))
    at = 0
    for p in range(n):  # the unconstrained hands take theirs from the rest, in random order
        if need[p] and not hands[p]:
            hands[p] = elsewhere[at:at + need[p]]
            at += need[p]
    return hands, elsewhere[at:]


def _dealable(rem: int, left: list[int], allowed: list[int]) -> bool:
    """Hall's condition: each set of constrained hands can be filled from ``rem``."""
    k = len(left)
    sums = [0] * (1 << k)
    for s in range(1, 1 << k):
        low = s & -s
        total = sums[s ^ low] + left[low.bit_length() - 1]
        sums[s] = total
        if total > (rem & allowed[s]).bit_count():
            return False
    return True


def determinize(st: State, seat: int, rng: random.Random) -> State:
    """A clone in which every card hidden from ``seat`` is re-dealt at random.

    Hidden places: other players' hands (less their publicly known cards),
    the stock, the widow, the discards but the seat's own (cards of no seat's too: moved from
    the stock or the turn-up) and the cards others played face down
    that are not shown yet.  Sizes stay; suits a player has
    shown to lack (under the current trump) are never dealt to him, nor a card he
    called: see :func:`constraints`.  A few random greedy deals are tried, then an
    exact search (:func:`_deal_exact`): no constraint is ever dropped.
    """
    seat_arg(seat, st.n)
    if not isinstance(rng, random.Random):
        raise ArgumentError(f"rng must be a random.Random, not {type(rng).__name__}")
    c = st.clone()
    c.legal_cache = None  # hands change below
    # future shuffles of the sample must not follow the real match's seed,
    # or a search would see the real cards of later deals
    c.seed = rng.getrandbits(63)
    c.rng_n = 0
    n = st.n
    pool, need, forbidden = constraints(st, seat)
    hands, remaining = _deal(list(cards_in(pool)), need, forbidden, rng)
    for p in range(n):
        if p != seat:
            m = st.known[p] | (st.hands[p] & st.peeked[seat])
            for card in hands[p]:
                m |= 1 << card
            c.hands[p] = m
    down = _face_down_of_others(st, seat)
    if down:  # the cards others played face down, unseen: re-dealt like the rest
        remaining = _redeal_face_down(c, seat, down, remaining)
    # the rest fill the stock (same size, random order), the widow and the hidden discards
    k = len(st.stock)
    c.stock = remaining[:k]
    c.shuf = None
    c.settled = 0
    shown = st.shown
    w = (st.widow & ~shown).bit_count()
    c.widow = st.widow & shown
    for card in remaining[k:k + w]:
        c.widow |= 1 << card
    disc = remaining[k + w:]
    if any(st.passing):  # others' passed cards, re-dealt (the seat's own stay as they are)
        passing = st.passing[:]
        for p in range(n):
            if p != seat and passing[p]:
                size = passing[p].bit_count()
                passing[p] = sum(1 << card for card in disc[:size])
                disc = disc[size:]
        c.passing = passing
    new_discards = st.discarded[seat]
    for p in range(n):
        if p == seat:
            continue
        size = (st.discarded[p] & ~st.discarded[seat] & ~shown).bit_count()
        m = st.discarded[p] & shown
        for card in disc[:size]:
            m |= 1 << card
        disc = disc[size:]
        c.discarded[p] = m
        new_discards |= m
    for card in disc:  # the rest: discards of no seat's (from the stock, the widow, the
        new_discards |= 1 << card  # turn-up), hidden as the whole pile is
    new_discards |= st.discards & shown
    c.discards = new_discards
    if st.prog.secrets:  # the others' hidden values, guessed from their new cards
        resample(c, st, seat)
    return c


def _face_down_of_others(st: State, seat: int) -> int:
    """The cards other seats played face down that ``seat`` has not seen (a mask)."""
    if not st.hidden:
        return 0
    m = 0
    for _lead, cards, _w in [*st.history_tricks, (0, tuple(st.trick.cards), 0)]:
        for p, c in cards:
            if p != seat and (st.hidden >> c) & 1:
                m |= 1 << c
    return m


def _redeal_face_down(c: State, seat: int, down: int, remaining: list[int]) -> list[int]:
    """Give each unseen face-down card of ``c``'s tricks one of ``remaining`` (drawn at
    random already); the rest of ``remaining`` is returned."""
    k = 0
    hidden = c.hidden & ~down
    tricks = [*[list(cards) for _lead, cards, _w in c.history_tricks],
              c.trick.own(c).cards]  # the trick's own: changed in place
    for pairs in tricks:
        for i, (p, card) in enumerate(pairs):
            if p != seat and (down >> card) & 1:
                pairs[i] = (p, remaining[k])
                hidden |= 1 << remaining[k]
                k += 1
    c.history_tricks = [(lead, tuple(tricks[i]), w)
                        for i, (lead, _cards, w) in enumerate(c.history_tricks)]
    c.hidden = hidden
    return remaining[k:]


class Observation:
    """Everything a bot may use to decide: the seat's view, the legal actions,
    the rules, and sampling of hidden cards consistent with the view.

    The real state is kept private: a bot reads :attr:`view` and calls
    :meth:`sample`, which re-deals every card the seat cannot see.
    """

    __slots__ = ("seat", "game", "legal", "_state", "_view")

    def __init__(self, state: State, seat: int) -> None:
        self.seat = seat
        self.game = state.game
        self.legal = state.legal_actions() if state.current_player == seat else []
        self._state = state
        self._view: dict[str, Any] | None = None

    @property
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = view(self._state, self.seat)
        return self._view

    def sample(self, rng: random.Random) -> State:
        """A full state consistent with what this seat has seen (hidden cards re-dealt)."""
        return determinize(self._state, self.seat, rng)


def observe(state: State, seat: int | None = None) -> Observation:
    """The observation of ``seat`` (default: the player to act)."""
    if seat is None:
        seat = state.current_player
        if seat is None:
            raise ValueError("the match is over: nobody to observe for")
    return Observation(state, seat)
