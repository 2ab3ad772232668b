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

#: a bound on the card planes kept (their bytes, by set of cards): past it, start again
MAX_PLANES = 1 << 16


class Layout:
    """The tables of one game's encoding, as plain typed values (made once per game by
    :class:`spelbok.rl.encoding.Encoding`, which documents each)."""

    def __init__(self, name: str, n: int, num_actions: int, cards: list[int],
                 card_index: dict[int, int], index: dict[Any, int], pick_pcs: set[int],
                 pick_base: int, stop: int, flags: tuple[bool, bool, bool, bool],
                 chunks: list[tuple[int, int, list[bytes]]], plane_bytes: dict[int, bytes],
                 hot: dict[int, list[list[float]]], contracts: int, decisions: int,
                 pc_decision: dict[int, int], word_code: dict[str, float],
                 word_rows: set[int], word_globals: bool, tail_size: int) -> None:
        self.name = name
        self.n = n
        self.num_actions = num_actions
        self.cards = cards
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
        self.plane_bytes = plane_bytes
        self.zero_plane: bytes = plane_bytes[0]
        self.hot5: list[list[float]] = hot[5]
        self.hot_n: list[list[float]] = hot[n]
        self.hot_d: list[list[float]] = hot[decisions]
        self.hot_k: list[list[float]] = hot[contracts + 1]
        self.contracts = contracts
        self.decisions = decisions
        self.pc_decision = pc_decision
        self.word_code = word_code
        self.word_rows = word_rows
        self.word_globals = word_globals
        self.tail = struct.Struct(f"<{tail_size}f")

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
        """The set of cards ``m`` as C float32 values in pack order (and kept)."""
        got = b"".join([lut[(m >> src) & width] for src, width, lut in self.chunks])
        cache = self.plane_bytes
        if len(cache) >= MAX_PLANES:
            cache.clear()
            cache[0] = self.zero_plane
        cache[m] = got
        return got

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
        # each plane as C float32 values in pack order: the bytes of a set of cards are
        # worked out once (from tables of chunks) and kept
        cache = self.plane_bytes
        parts: list[bytes] = []
        for m in masks:
            got = cache.get(m)
            parts.append(got if got is not None else self.plane(m))
        # the rest, in the observer's order (seat 0 the observer): a value per seat is
        # read from seat (seat + j) % n, a one-hot seat as its distance from the observer
        hot5 = self.hot5
        hot_n = self.hot_n
        trump = st.trump
        led = st.led
        flat: list[Any] = []
        flat += hot5[trump if 0 <= trump < 4 else 4]
        flat += hot5[led if 0 <= led < 4 else 4]
        hands = st.hands
        for j in range(seat, n):
            flat.append(hands[j].bit_count())
        for j in range(seat):
            flat.append(hands[j].bit_count())
        won = st.won
        flat += won[seat:]
        flat += won[:seat]
        out = st.out
        flat += out[seat:]
        flat += out[:seat]
        flat += hot_n[(st.dealer - seat) % n]
        current = st.current
        flat += hot_n[n if current is None else (current - seat) % n]
        if self.face_down:  # which cards of the trick lie face down (not what they are)
            down = [0] * n
            hidden = st.hidden
            for p, c in st.trick:
                down[(p - seat) % n] = (hidden >> c) & 1
            flat += down
        if self.auction:  # the contract so far, its declarer, doubling, each seat's calls
            k = self.contracts
            if auction:
                d = auction[A_DECLARER]
                passed = auction[A_PASSED]
                contract = auction[A_CONTRACT]
                flat += self.hot_k[contract if contract >= 0 else k]
                flat += hot_n[n if d < 0 else (d - seat) % n]
                flat.append(auction[A_DOUBLED])
                for j in range(n):
                    flat.append(auction[A_BIDS + (seat + j) % n] + 1)
                for j in range(n):
                    flat.append((passed >> ((seat + j) % n)) & 1)
            else:
                flat += self.hot_k[k]
                flat += hot_n[n]
                flat += [0] * (1 + 2 * n)
        words = self.word_rows
        for i, row in enumerate(st.pv_rows):
            if words and i in words:  # a variable holding words: coded as numbers
                for j in range(n):
                    flat.append(self.value(row[(seat + j) % n]))
            else:
                flat += row[seat:]
                flat += row[:seat]
        if self.word_globals:
            for v in st.gv:
                flat.append(self.value(v))
        else:
            flat += st.gv
        flat.append(len(st.stock))
        flat.append(st.widow.bit_count())
        flat.append(st.hand_number)
        d = self.decisions
        flat += self.hot_d[d if current is None else self.pc_decision.get(st.pc, 0)]
        try:
            parts.append(self.tail.pack(*flat))
        except struct.error:  # a word in a variable declared with a number: coded
            parts.append(self.tail.pack(*[self.value(v) for v in flat]))
        buf = bytearray()
        return buf.join(parts)

    def value(self, v: object) -> float:
        """A variable's value as a number: a word by its code (-1: not a word of the spec)."""
        if isinstance(v, (bool, int, float)):
            return float(v)
        if isinstance(v, str):
            return self.word_code.get(v, -1.0)
        return 0.0


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
