"""The observation tensor, the legal action numbers and the action mask of a match, for
the game-AI interfaces (:mod:`spelbok.rl.encoding` builds the tables and wraps what this
returns in numpy arrays).

It reads the compiled :class:`~spelbok.engine.state.State` directly, and is compiled
with it (``HOT`` in ``_native.py``): an environment step spends most of its time here.
No numpy: an observation is the bytes of float32 values (written by librt's
``BytesWriter``, which the compiler turns into direct stores), a mask the bytes of int8
values, the legal actions a list of ints.  What each field holds is documented in ``docs/rl.md``.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, Final

from librt.strings import BytesWriter, read_i64_le, write_f32_le
from mypy_extensions import i64

from ... import COMPILED
from ...engine.actions import CARD, CARDS, Action
from ...engine.auction import A_BIDS, A_CALLED, A_CONTRACT, A_DECLARER, A_DOUBLED, A_PASSED
from ...engine.card_play import playable
from ...engine.hidden import hidden_masks
from ...engine.play_sets import PlaySets
from ...engine.subsets import SubsetActions
from ...engine.trick import played_cards
from ...errors import IllegalActionError, SpelbokError
from ...frozen import mypyc_attr

if TYPE_CHECKING:
    from ...engine.state import State

NONE: Final = -1  # no place in a card plane (Layout.byte)
_NATIVE: Final = COMPILED  # this module runs compiled


def count(m: int) -> int:
    """The cards of ``m`` >= 0, as ``int.bit_count``.

    >>> count(0b1011), count(1 << 70 | 1)
    (3, 2)

    Compiled code calls ``bit_count`` by name (~450 instructions), so compiled, a set
    that fits a native word is counted in it (~20); the sources call ``bit_count``,
    which is faster there than any arithmetic.
    """
    if not _NATIVE or m >> 62:
        return m.bit_count()
    x: i64 = m
    x -= (x >> 1) & 0x5555555555555555
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


class Layout:
    """The tables of one game's encoding, as plain typed values (made once per game by
    :class:`spelbok.rl.encoding.Encoding`, which documents each)."""

    def __init__(self, name: str, n: int, num_actions: int, cards: list[int],
                 card_index: dict[int, int], index: dict[Any, int], pick_pcs: set[int],
                 pick_base: int, stop: int, flags: tuple[bool, bool, bool, bool],
                 planes: int, hot: dict[int, list[list[float]]], contracts: int,
                 decisions: int, pc_decision: dict[int, int], word_code: dict[str, float],
                 actions: list[Action | None], labels: list[str], named: Any,
                 play_words: set[str]) -> None:
        self.name = name
        self.actions = actions  # by number (None: a pick or the stop)
        self.labels = labels
        self.named = named  # the pack the engine's actions name (None: the French one)
        self.play_words = play_words  # words whose card goes to the trick
        self.n = n
        self.num_actions = num_actions
        self.cards = cards
        # card id -> action number, by id (-1: not in the deck); a card's play number is
        # also its place in a card plane (the deck's order)
        top = max(cards, default=-1) + 1
        self.number: list[int] = [card_index.get(c, -1) for c in range(top)]
        # card id -> the byte of its place in a card plane that float32 1.0 changes, as
        # 64-bit words read by a direct load (NONE: not in the deck); 1.0 is 00 00 80 3F,
        # little-endian, so bytes +2 and +3
        self.byte = b"".join(struct.pack("<q", 4 * i + 2 if i >= 0 else NONE)
                             for i in self.number)
        # seat -> the seats in the observer's order (itself first), so no modulo per value
        self.seats: list[list[int]] = [[(s + j) % n for j in range(n)] for s in range(n)]
        # the play numbers of each run of consecutive card ids, by the run's bits
        self.number_chunks: list[tuple[int, int, list[list[int]]]] = []
        at = start = 0
        for i in range(1, len(cards) + 1):
            if i == len(cards) or cards[i] != cards[i - 1] + 1 or i - start == 8:
                k = i - start
                self.number_chunks.append(
                    (cards[start], (1 << k) - 1,
                     [[at + j for j in range(k) if (b >> j) & 1] for b in range(1 << k)]))
                at += k
                start = i
        self.index = index
        self.pick_pcs = pick_pcs
        self.pick_base = pick_base
        self.stop = stop
        self.exchanges, self.passes, self.auction, self.face_down = flags
        self.plane_size = 4 * len(cards)  # bytes of one card plane
        self.zero_cards = bytes(self.plane_size * planes)
        self.zero_mask = bytes(num_actions)
        self.zero_calls = bytes(4 * (1 + 2 * n))  # doubled, bids, passed: before an auction

        def f32(rows: list[list[float]]) -> list[bytes]:
            return [struct.pack(f"<{len(r)}f", *r) for r in rows]

        # one-hot rows as float32 bytes: row i of k values has 1 at i (row k: all 0)
        self.hot5 = f32(hot[5])
        self.hot_n = f32(hot[n])
        self.hot_d = f32(hot[decisions])
        self.hot_k = f32(hot[contracts + 1])
        self.contracts = contracts
        self.decisions = decisions
        self.pc_decision = pc_decision
        self.word_code = word_code
        self.secret_rows: list[int] = []  # the hidden variables' rows (Encoding sets them)
        # the trick plays of several cards at once (tricks.combos), answered by picks
        # ended by the stop as an exchange is (Encoding sets them)
        self.combo_pcs: set[int] = set()

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
        k = count(picked)
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
        elif isinstance(acts, PlaySets):  # by its templates: no need to list the plays
            picks, ok = acts.next_picks(picked)
            while picks:
                low = picks & -picks
                out.append(base + number[low.bit_length() - 1])
                picks ^= low
        else:
            # (a card alone, in a play of several cards at once: a set of one)
            masks: list[int] = [a[2] if a[0] == CARDS else 1 << a[2] if a[0] == CARD else 0
                                for a in acts]
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

    def mask(self, legal: list[int] | tuple[int, ...]) -> bytes:
        """The action numbers ``legal`` as 0/1 int8 bytes, one per action."""
        w = BytesWriter()
        w.write(self.zero_mask)
        for i in legal:
            w[i] = 1
        return w.getvalue()

    # -- observation -----------------------------------------------------------------

    def _mark(self, w: BytesWriter, base: i64, m: int) -> None:
        """Write 1.0 at each card of ``m`` into the plane at byte ``base`` of ``w`` (which
        holds 0.0 there): a card's place is its play number; a card outside the deck is
        left out."""
        byte = self.byte
        top: i64 = len(self.number)
        while m:
            low = m & -m
            c: i64 = low.bit_length() - 1
            m ^= low
            if c < top:
                o = read_i64_le(byte, 8 * c)
                if o != NONE:
                    w[base + o] = 0x80
                    w[base + o + 1] = 0x3F

    def observation(self, st: State, seat: int, pending: int, played: int) -> bytes:
        """The observation of ``seat``: the bytes of its float32 vector.  ``pending``:
        the cards picked so far in an exchange; ``played``: the cards played this hand."""
        w = BytesWriter()
        self._card_planes(w, st, seat, pending, played)
        self._table(w, st, seat)
        return w.getvalue()

    def _card_planes(self, w: BytesWriter, st: State, seat: int, pending: int,
                     played: int) -> None:
        """The card planes of the observation: all 0.0, then 1.0 written at each card of
        each plane's set."""
        n = st.n
        seats = self.seats[seat]
        w.write(self.zero_cards)
        step: i64 = self.plane_size
        at: i64 = 0
        self._mark(w, at, st.hands[seat])
        at += step
        if self.exchanges:
            self._mark(w, at, pending if st.current == seat else 0)
            at += step
        self._mark(w, at, st.discarded[seat])
        at += step
        if self.passes:
            self._mark(w, at, st.passing[seat])
            at += step
        unseen = _unseen_down(st, seat) if st.hidden else 0  # others' face-down cards
        for c in st.turn_up:
            self._mark(w, at, 1 << c)
        at += step
        self._mark(w, at, played & ~unseen)
        at += step
        for p, c in st.trick.cards:
            self._mark(w, at + step * ((p - seat) % n), (1 << c) & ~unseen)
        at += step * n
        known = st.known
        for k in range(1, n):
            self._mark(w, at, known[seats[k]])
            at += step
        if self.auction:
            auction = st.auction
            if auction and auction[A_CALLED] >= 0:
                self._mark(w, at, 1 << auction[A_CALLED])

    def _table(self, w: BytesWriter, st: State, seat: int) -> None:
        """The rest of the observation, in the observer's order (seat 0 the observer): a
        value per seat is read from seat (seat + j) % n (seats), a one-hot seat as its
        distance from the observer."""
        n = st.n
        seats = self.seats[seat]
        trump = st.trump
        led = st.trick.led
        hot5 = self.hot5
        hot_n = self.hot_n
        w.write(hot5[trump if 0 <= trump < 4 else 4])
        w.write(hot5[led if 0 <= led < 4 else 4])
        hands = st.hands
        won = st.won
        out = st.off  # out of the match, or sitting this hand out (the same without sit_out)
        for s in seats:
            write_f32_le(w, float(count(hands[s])))
        for s in seats:
            write_f32_le(w, float(won[s]))
        for s in seats:
            write_f32_le(w, 1.0 if out[s] else 0.0)
        w.write(hot_n[(st.dealer - seat) % n])
        current = st.current
        w.write(hot_n[n if current is None else (current - seat) % n])
        if self.face_down:  # which cards of the trick lie face down (not what they are)
            down = [0.0] * n
            hidden = st.hidden
            for p, c in st.trick.cards:
                down[(p - seat) % n] = float((hidden >> c) & 1)
            for x in down:
                write_f32_le(w, x)
        if self.auction:
            self._auction(w, st, seat)
        if self.secret_rows:  # hidden variables: engine/hidden.py
            self._secret_vars(w, st, seat)
        else:
            for row in st.pv_rows:  # a word is coded as a number (value); most are ints
                for s in seats:
                    v = row[s]
                    write_f32_le(w, float(v) if isinstance(v, int) else self.value(v))
        for g in st.gv:
            write_f32_le(w, float(g) if isinstance(g, int) else self.value(g))
        write_f32_le(w, float(len(st.stock)))
        write_f32_le(w, float(count(st.widow)))
        write_f32_le(w, float(st.hand_number))
        d = self.decisions
        w.write(self.hot_d[d if current is None else self.pc_decision.get(st.pc, 0)])

    def _secret_vars(self, w: BytesWriter, st: State, seat: int) -> None:
        """The per-player values with the hidden ones ``seat`` may not see as 0, then a
        flag per seat of each hidden variable: 1 where ``seat`` sees the value."""
        seats = self.seats[seat]
        masks = hidden_masks(st, seat)
        for r, row in enumerate(st.pv_rows):
            m = masks[r]
            for s in seats:
                v = row[s]
                if m >> s & 1:
                    write_f32_le(w, 0.0)
                else:
                    write_f32_le(w, float(v) if isinstance(v, int) else self.value(v))
        for r in self.secret_rows:
            for s in seats:
                write_f32_le(w, 0.0 if masks[r] >> s & 1 else 1.0)

    def _auction(self, w: BytesWriter, st: State, seat: int) -> None:
        """The auction's fields: the contract so far, its declarer, doubling, each seat's
        calls."""
        n = st.n
        hot_n = self.hot_n
        k = self.contracts
        auction = st.auction
        if not auction:
            w.write(self.hot_k[k])
            w.write(hot_n[n])
            w.write(self.zero_calls)
            return
        seats = self.seats[seat]
        d = auction[A_DECLARER]
        passed = auction[A_PASSED]
        contract = auction[A_CONTRACT]
        w.write(self.hot_k[contract if contract >= 0 else k])
        w.write(hot_n[n if d < 0 else (d - seat) % n])
        write_f32_le(w, float(auction[A_DOUBLED]))
        for s in seats:
            write_f32_le(w, float(auction[A_BIDS + s] + 1))
        for s in seats:
            write_f32_le(w, float((passed >> s) & 1))

    def value(self, v: object) -> float:
        """A variable's value as a number: a word by its code (-1: not a word of the spec)."""
        if isinstance(v, int):  # (and bool)
            return float(v)
        if isinstance(v, float):
            return v
        if isinstance(v, str):
            return self.word_code.get(v, -1.0)
        return 0.0



@mypyc_attr(allow_interpreted_subclasses=True)
class Cursor:
    """An engine state driven through the fixed action space of a :class:`Layout`: it
    keeps the cards picked so far in an exchange (``pending``), the cards played this
    hand (``played``), and the legal numbers last listed (trusted only in the state they
    were listed in).  :class:`spelbok.rl.encoding.Match` adds the numpy views."""

    def __init__(self, layout: Layout, st: State) -> None:
        self.layout = layout
        self.st = st
        self.pending = 0
        self.played = played_cards(st)
        self.listed: tuple[int, ...] | None = None
        self.listed_at: object = None
        self.hand = st.hand_number
        self.scores_at: list[int] = st.scores

    # The methods are for Python callers; compiled callers (rl/compiled/aec.py) call the
    # functions below instead: a method of a class with interpreted subclasses, called
    # from compiled code, is looked up by name like any Python method.

    def legal(self) -> list[int]:
        """The legal action numbers, ascending (empty once the match is over)."""
        return cursor_legal(self)

    def apply(self, number: object) -> None:
        """Take action number ``number`` for the player to act.  Raises IllegalActionError."""
        cursor_apply(self, number)

    def hand_rewards(self) -> list[float] | None:
        """Each seat's change of score since the last hand ended, when a hand (or the
        match) has just ended; else None."""
        return cursor_hand_rewards(self)

    def win_returns(self) -> list[float]:
        """+1 for each winner and -1 for every other seat once the match is over, else 0."""
        return cursor_win_returns(self)

    def view(self, seat: int) -> tuple[bytes, bytes]:
        """The observation of ``seat`` and its action mask (all 0 unless ``seat`` is to
        act), as bytes of float32 and int8 values."""
        return cursor_view(self, seat)


def cursor_legal(c: Cursor) -> list[int]:
    """:meth:`Cursor.legal`."""
    st = c.st
    got = c.layout.legal(st, c.pending)
    c.listed = tuple(got)  # (a caller may change the list it is given)
    c.listed_at = st.hist
    return got


def _trusted(c: Cursor) -> tuple[int, ...] | None:
    """The legal numbers last listed, if the state has not moved on since."""
    listed = c.listed
    return listed if listed is not None and c.listed_at is c.st.hist else None


def cursor_apply(c: Cursor, number: object) -> None:
    """:meth:`Cursor.apply`."""
    lay = c.layout
    st = c.st
    i = number if isinstance(number, int) else int(number)  # type: ignore[call-overload]
    if not 0 <= i < lay.num_actions:
        raise IllegalActionError(f"action {i} is outside 0..{lay.num_actions - 1}")
    a = lay.actions[i]
    listed = _trusted(c)
    c.listed = None
    if a is None:  # a pick or the stop
        if i not in (listed if listed is not None else cursor_legal(c)):
            raise IllegalActionError(f"{lay.labels[i]} is not allowed now")
        if i != lay.stop:
            c.pending |= 1 << lay.cards[i - lay.pick_base]
            return
        a = Action(CARDS, st.decision_name or "", c.pending, lay.named)
        if st.pc in lay.combo_pcs:  # cards played to the trick (a throw that failed: fewer)
            seat = st.current
            picked = c.pending
            c.pending = 0
            hand = st.hand_number
            st.apply(a)
            if st.hand_number != hand:
                c.played = 0
            elif seat is not None:
                c.played |= picked & ~st.hands[seat]
            return
        c.pending = 0
    hand = st.hand_number
    if a[0] == CARD:
        if listed is not None and i in listed:
            st.run_action(a)  # a card just listed as legal: the engine's own, no check again
        else:
            st.apply(a)
        c.played |= 1 << a[2]
    else:
        st.apply(a)
        if a[0] == CARDS and a[1] in lay.play_words:
            c.played |= 1 << (a[2].bit_length() - 1)
    if st.hand_number != hand:
        c.played = 0


def cursor_hand_rewards(c: Cursor) -> list[float] | None:
    """:meth:`Cursor.hand_rewards`."""
    st = c.st
    if st.hand_number == c.hand and not st.is_terminal:
        return None
    c.hand = st.hand_number
    new = st.scores
    old = c.scores_at
    c.scores_at = new
    return [float(a - b) for a, b in zip(new, old, strict=True)]


def cursor_win_returns(c: Cursor) -> list[float]:
    """:meth:`Cursor.win_returns`."""
    st = c.st
    if not st.is_terminal:
        return [0.0] * st.n
    w = st.winner_seats
    return [1.0 if p in w else -1.0 for p in range(st.n)]


def cursor_view(c: Cursor, seat: int) -> tuple[bytes, bytes]:
    """:meth:`Cursor.view`."""
    lay = c.layout
    st = c.st
    obs = lay.observation(st, seat, c.pending, c.played)
    if st.current != seat:
        return obs, lay.zero_mask
    listed = _trusted(c)
    return obs, lay.mask(cursor_legal(c) if listed is None else listed)


def _unseen_down(st: State, seat: int) -> int:
    """The cards other seats played face down this hand that ``seat`` has not seen."""
    m = 0
    hidden = st.hidden
    for _lead, cards, _w in st.history_tricks:
        for p, c in cards:
            if p != seat and (hidden >> c) & 1:
                m |= 1 << c
    for p, c in st.trick.cards:
        if p != seat and (hidden >> c) & 1:
            m |= 1 << c
    return m
