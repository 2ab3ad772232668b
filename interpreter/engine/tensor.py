"""The observation tensor, the legal action numbers and the action mask of a match, for
the game-AI interfaces (:mod:`spelbok.rl.encoding` builds the tables and wraps what this
returns in numpy arrays).

It reads the compiled :class:`~spelbok.engine.state.State` directly, and is compiled
with it (``HOT`` in ``_native.py``): an environment step spends most of its time here.
No numpy: an observation is the bytes of float32 values (a ``bytearray``, so that the
array made from it is writable), a mask the bytes of int8 values, the legal actions a
list of ints.  What each field holds is documented in ``docs/rl.md``.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from ..errors import SpelbokError
from .actions import CARD, CARDS
from .auction import A_BIDS, A_CALLED, A_CONTRACT, A_DECLARER, A_DOUBLED, A_PASSED
from .subsets import SubsetActions
from .trick import playable

if TYPE_CHECKING:
    from .state import State

_F32 = struct.Struct("<f")
#: the float32 bytes of the whole numbers -SMALL_OFF..SMALL_TOP-1, the values an
#: observation mostly holds (a count, a score, a flag): one look-up, not a conversion
SMALL_OFF = 256
SMALL_TOP = 1024
SMALL: list[bytes] = [_F32.pack(float(k)) for k in range(-SMALL_OFF, SMALL_TOP)]


class Layout:
    """The tables of one game's encoding, as plain typed values (made once per game by
    :class:`spelbok.rl.encoding.Encoding`, which documents each)."""

    def __init__(self, name: str, n: int, num_actions: int, cards: list[int],
                 card_index: dict[int, int], index: dict[Any, int], pick_pcs: set[int],
                 pick_base: int, stop: int, flags: tuple[bool, bool, bool, bool],
                 chunks: list[tuple[int, int, list[bytes]]], card_count: int,
                 hot: dict[int, list[list[float]]], contracts: int, decisions: int,
                 pc_decision: dict[int, int], word_code: dict[str, float]) -> None:
        self.name = name
        self.n = n
        self.num_actions = num_actions
        self.cards = cards
        self.card_index = card_index
        # card id -> action number, by id (-1: not in the deck)
        top = max(cards, default=-1) + 1
        self.number: list[int] = [card_index.get(c, -1) for c in range(top)]
        # the play numbers of each chunk's subsets (the chunks are runs of the deck, in
        # deck order, which is the order of the play numbers)
        self.number_chunks: list[tuple[int, int, list[list[int]]]] = []
        at = 0
        for src, width, _lut in chunks:
            k = width.bit_length()
            self.number_chunks.append(
                (src, width, [[at + j for j in range(k) if (b >> j) & 1] for b in range(1 << k)]))
            at += k
        self.index = index
        self.pick_pcs = pick_pcs
        self.pick_base = pick_base
        self.stop = stop
        self.exchanges, self.passes, self.auction, self.face_down = flags
        self.chunks = chunks
        self.zero_plane = bytes(4 * card_count)
        # the one-hot rows as float32 bytes
        rows = {k: [b"".join([_F32.pack(x) for x in row]) for row in hot[k]] for k in hot}
        self.hot5: list[bytes] = rows[5]
        self.hot_n: list[bytes] = rows[n]
        self.hot_d: list[bytes] = rows[decisions]
        self.hot_k: list[bytes] = rows[contracts + 1]
        self.zeros_n = bytes(4 * n)
        self.contracts = contracts
        self.decisions = decisions
        self.pc_decision = pc_decision
        self.word_code = word_code

    # -- actions ---------------------------------------------------------------------

    def legal(self, st: State, pending: int) -> list[int]:
        """The legal action numbers of the player to act, ascending (empty once the match
        is over); ``pending`` the cards picked so far in an exchange."""
        if st.current is None:
            return []
        m = playable(st.prog.code[st.pc], st)
        if m >= 0:  # cards and nothing else: numbered from the mask, no actions made
            return self.card_numbers(m)
        acts = st.legal_actions()
        if self.exchanges and st.pc in self.pick_pcs:
            return self._exchange_legal(acts, pending)
        index = self.index
        number = self.number
        out: list[int] = []
        try:  # a card by its id (no hashing of a declared pack), the rest by the index
            for a in acts:
                out.append(number[a[2]] if a[0] == CARD else index[a])
        except KeyError as e:
            raise SpelbokError(f"{e.args[0]} is outside {self.name}'s action space (a "
                               f"number beyond the range read from the spec?)") from None
        out.sort()
        return out

    def card_numbers(self, m: int) -> list[int]:
        """The action numbers of playing the cards of ``m`` (of the deck), ascending."""
        out: list[int] = []
        for src, width, lut in self.number_chunks:
            part = (m >> src) & width
            if part:
                out += lut[part]
        return out

    def _exchange_legal(self, acts: list[Any], picked: int) -> list[int]:
        """The picks (and the stop) legal after the cards ``picked`` so far."""
        k = picked.bit_count()
        base = self.pick_base
        number = self.number
        out: list[int] = []
        if isinstance(acts, SubsetActions):  # by its bounds: no need to list the subsets
            ok = acts.lo <= k <= acts.hi
            if k < acts.hi:
                rest = acts.hand & ~picked
                while rest:
                    low = rest & -rest
                    out.append(base + number[low.bit_length() - 1])
                    rest ^= low
        else:
            masks: list[int] = [a[2] if a[0] == CARDS else 0 for a in acts]
            union = 0
            for m in masks:
                union |= m
            rest = union & ~picked
            while rest:
                low = rest & -rest
                need = picked | low
                for m in masks:
                    if m & need == need:
                        out.append(base + number[low.bit_length() - 1])
                        break
                rest ^= low
            ok = picked in masks
        out.sort()
        if ok:
            out.append(self.stop)
        return out

    def mask(self, legal: list[int]) -> bytearray:
        """The action numbers ``legal`` as 0/1 int8 bytes, one per action."""
        b = bytearray(self.num_actions)
        for i in legal:
            b[i] = 1
        return b

    # -- observation -----------------------------------------------------------------

    def plane(self, m: int) -> bytes:
        """The set of cards ``m`` as C float32 values in pack order."""
        return b"".join([lut[(m >> src) & width] for src, width, lut in self.chunks])

    def observation(self, st: State, seat: int, pending: int, played: int) -> bytearray:
        """The observation of ``seat``: the bytes of its float32 vector.  ``pending``:
        the cards picked so far in an exchange; ``played``: the cards played this hand."""
        n = st.n
        turn_up = 0
        for c in st.turn_up:
            turn_up |= 1 << c
        masks: list[int] = [st.hands[seat]]
        if self.exchanges:
            masks.append(pending if st.current == seat else 0)
        masks.append(st.discarded[seat])
        if self.passes:
            masks.append(st.passing[seat])
        unseen = _unseen_down(st, seat) if st.hidden else 0  # others' face-down cards
        masks.append(turn_up)
        masks.append(played & ~unseen)
        trick = [0] * n
        for p, c in st.trick:
            trick[(p - seat) % n] = (1 << c) & ~unseen
        masks += trick
        known = st.known
        for k in range(1, n):
            masks.append(known[(seat + k) % n])
        auction = st.auction
        if self.auction:
            masks.append(1 << auction[A_CALLED] if auction and auction[A_CALLED] >= 0 else 0)
        # each plane as C float32 values in pack order, a table's bytes per chunk of the
        # deck (a set kept by its bytes was slower: most of the sets seen are new)
        chunks = self.chunks
        parts: list[bytes] = []
        for m in masks:
            if m:
                for src, width, lut in chunks:
                    parts.append(lut[(m >> src) & width])
            else:
                parts.append(self.zero_plane)
        # the rest, in the observer's order (seat 0 the observer): a value per seat is
        # read from seat (seat + j) % n, a one-hot seat as its distance from the observer;
        # each value as its float32 bytes
        hot_n = self.hot_n
        small = SMALL
        trump = st.trump
        led = st.led
        parts.append(self.hot5[trump if 0 <= trump < 4 else 4])
        parts.append(self.hot5[led if 0 <= led < 4 else 4])
        hands = st.hands
        for j in range(n):
            parts.append(small[SMALL_OFF + _count(hands[(seat + j) % n])])
        won = st.won
        for j in range(n):
            parts.append(self.f32(won[(seat + j) % n]))
        out = st.out
        for j in range(n):
            parts.append(small[SMALL_OFF + 1] if out[(seat + j) % n] else small[SMALL_OFF])
        parts.append(hot_n[(st.dealer - seat) % n])
        current = st.current
        parts.append(hot_n[n if current is None else (current - seat) % n])
        if self.face_down:  # which cards of the trick lie face down (not what they are)
            down = [small[SMALL_OFF]] * n
            hidden = st.hidden
            for p, c in st.trick:
                down[(p - seat) % n] = small[SMALL_OFF + ((hidden >> c) & 1)]
            parts += down
        if self.auction:  # the contract so far, its declarer, doubling, each seat's calls
            k = self.contracts
            if auction:
                d = auction[A_DECLARER]
                passed = auction[A_PASSED]
                contract = auction[A_CONTRACT]
                parts.append(self.hot_k[contract if contract >= 0 else k])
                parts.append(hot_n[n if d < 0 else (d - seat) % n])
                parts.append(self.f32(auction[A_DOUBLED]))
                for j in range(n):
                    parts.append(self.f32(auction[A_BIDS + (seat + j) % n] + 1))
                for j in range(n):
                    parts.append(small[SMALL_OFF + ((passed >> ((seat + j) % n)) & 1)])
            else:
                parts.append(self.hot_k[k])
                parts.append(hot_n[n])
                parts.append(small[SMALL_OFF])
                parts.append(self.zeros_n)
                parts.append(self.zeros_n)
        for row in st.pv_rows:  # (a word is coded as a number: see value)
            for j in range(n):
                parts.append(self.f32(row[(seat + j) % n]))
        for v in st.gv:
            parts.append(self.f32(v))
        parts.append(self.f32(len(st.stock)))
        parts.append(self.f32(_count(st.widow)))
        parts.append(self.f32(st.hand_number))
        parts.append(self.hot_d[self.decisions if current is None
                                else self.pc_decision.get(st.pc, 0)])
        buf = bytearray()
        return buf.join(parts)

    def f32(self, v: object) -> bytes:
        """The float32 bytes of a value of the observation (a word: its code)."""
        if isinstance(v, int):  # (a bool too)
            k = int(v) + SMALL_OFF
            if 0 <= k < SMALL_OFF + SMALL_TOP:
                return SMALL[k]
            return _F32.pack(float(v))
        if isinstance(v, float):
            return _F32.pack(v)
        try:
            return _F32.pack(v)  # (what struct can convert)
        except struct.error:  # a word, or anything else: coded
            return _F32.pack(self.value(v))

    def value(self, v: object) -> float:
        """A variable's value as a number: a word by its code (-1: not a word of the spec)."""
        if isinstance(v, (bool, int, float)):
            return float(v)
        if isinstance(v, str):
            return self.word_code.get(v, -1.0)
        return 0.0


def _count(m: int) -> int:
    """The number of cards in ``m`` (int.bit_count is a method call for mypyc)."""
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


def played_cards(st: State) -> int:
    """The cards played to tricks this hand (the trick in progress included)."""
    played = 0
    for _lead, cards, _w in st.history_tricks:
        for _p, c in cards:
            played |= 1 << c
    for _p, c in st.trick:
        played |= 1 << c
    return played


def _unseen_down(st: State, seat: int) -> int:
    """The cards other seats played face down this hand that ``seat`` has not seen."""
    m = 0
    hidden = st.hidden
    for _lead, cards, _w in st.history_tricks:
        for p, c in cards:
            if p != seat and (hidden >> c) & 1:
                m |= 1 << c
    for p, c in st.trick:
        if p != seat and (hidden >> c) & 1:
            m |= 1 << c
    return m
