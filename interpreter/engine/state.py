"""A match in progress: the mutable state and its public API.

The state is plain data (ints, bitmasks, small lists) so that ``clone()`` is a
handful of list copies.  What happens next is decided by the compiled program
of the game (:mod:`spelbok.engine.steps`): ``pc`` points at the running step, and the
state waits at a decision until ``apply()`` supplies an action.

>>> import spelbok
>>> game = spelbok.load("example", players=2)
>>> state = game.new_state(seed=1)
>>> state.current_player is not None and len(state.legal_actions()) > 0
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..errors import (
    AmbiguousActionError,
    ArgumentError,
    IllegalActionError,
    InvalidActionError,
    SpelbokError,
    did_you_mean,
    kind_fault,
)
from ..limits import MAX_VALUE, held, seat_arg, short_repr
from .actions import Action, parse_action
from .fields import _COMPARED, _FIELDS, _PICKLED
from .resolve import held_action, resolve_action, well_formed
from .rng import below as _below
from .rng import settle as _settle
from .rng import shuffle as _shuffle
from .rng import words as _words
from .trick import Trick, TrickFlags

if TYPE_CHECKING:
    from .game import Game
    from .order import TrumpTables
    from .program import Phase, Program




class State:
    """One match of a game: whose turn it is, what they may do, and the result.

    Create it with :meth:`spelbok.Game.new_state`.
    """

    __slots__ = _FIELDS  # a compiled State (mypyc) has them as C fields instead

    game: Game
    n: int
    seed: int
    rng_n: int
    hands: list[int]
    stock: list[int]
    turn_up: list[int]
    dealt_last: int
    discards: int
    hidden: int
    shown: int
    discarded: list[int]
    won: list[int]
    won_cards: list[int]
    played: int
    last_trick: int
    tied_by: int  # who tied the last trick (-1: it was won), ranking.equal_best: tie
    failed_throws: list[int]  # each seat's failed throws this hand (tricks.combos: throw)
    trick: Trick  # the trick in progress (engine/trick.py), shared by clones until written
    trick_no: int
    broken: bool
    trump: int
    tables: TrumpTables
    tf: TrickFlags
    participants: int
    pv_rows: list[list[Any]]
    gv: list[Any]
    out: list[bool]
    off: list[bool]  # out, or sitting out this hand: no part in it (fields.py)
    dealer: int
    hand_number: int
    hands_played: int
    pc: int
    queue: list[int]
    auction: list[int]  # the hand's auction (engine/auction.py), empty before one
    counters: list[int]
    current: int | None
    choice: str | int
    count: int
    cand: int
    known: list[int]
    peeked: list[int]  # cards of other hands each seat was shown alone (decide see_partners)
    voids: list[int]
    passing: list[int]
    pattern: str
    pattern_seat: int
    meld_points: list[int]
    meld_picks: list[int]
    meld_cards: list[int]
    meld_keys: list[int]
    stock_closed: bool
    hist: tuple[Any, ...] | None
    is_terminal: bool  # True once the match is over (a plain attribute: read every decision)
    winner_seats: list[int]
    rec: list[dict[str, Any]] | None
    start: dict[str, Any]
    stacked: list[int] | None
    history_tricks: list[Any]
    limit_reached: bool
    legal_cache: Any  # the last legal list (a list, or a SubsetActions checked by its rule)
    prog: Program
    widow: int
    last_winner: int
    trick_stop: int
    trick_scored: bool
    public: list[tuple[int, str, Action | int]]
    shuf: Any  # the words of this hand's shuffle (an array), or None once the order is fixed
    settled: int  # stock[settled:] is in its final order; below it the shuffle is still to do

    # -- queries ---------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the match is over."""
        return self.current

    @property
    def scores(self) -> list[int]:
        """Each seat's score, as the spec's ``end.score`` formula defines it (held
        within ``±MAX_VALUE``, as every value a step stores is)."""
        f = self.game.program.score_fn
        scores = [f(self, p) for p in range(self.n)]
        return [v if type(v) is not int or -MAX_VALUE <= v <= MAX_VALUE else held(v)
                for v in scores]

    @property
    def winners(self) -> list[int]:
        """The winning seats once the match is over (empty before)."""
        return list(self.winner_seats)

    @property
    def outcome(self) -> dict[str, Any] | None:
        """A summary of the result, or None while the match runs."""
        if not self.is_terminal:
            return None
        return {
            "winners": list(self.winner_seats),
            "scores": self.scores,
            "hands": self.hands_played,
            "limit_reached": self.limit_reached,
        }

    def var(self, name: object) -> Any:
        """A declared variable's value: a list (one per seat) for a per-player
        variable, else the single value; or a built-in name that every seat's view
        shows alike (``trump``, ``dealer``, ``hand_number``...: ``observe.SHARED``), as
        the view shows it.  Raises ArgumentError (a ValueError) for an unknown name.

        >>> import spelbok
        >>> st = spelbok.load("example", players=2).new_state(seed=1)
        >>> st.var("score"), st.var("hand_number")
        ([10, 10], 1)
        """
        prog = self.prog
        if name in prog.pvar_names:
            return list(self.pv_rows[prog.pvar_names.index(name)])
        if name in prog.gvar_names:
            return self.gv[prog.gvar_names.index(name)]
        from .observe import SHARED, view

        if isinstance(name, str) and name in SHARED:
            shown = view(self, 0)
            if name in shown:  # some are shown only where the spec has them (sitting_out)
                return shown[name]
        known = [*prog.pvar_names, *prog.gvar_names, *SHARED]
        hint = did_you_mean(name, known) if isinstance(name, str) and len(name) < 60 else None
        raise ArgumentError(f"{self.game.name} declares no variable {short_repr(name)}"
                            + (f" (did you mean '{hint}'?)" if hint else ""))

    @property
    def decision_name(self) -> str | None:
        """The name of the pending decision (``announce``, ``exchange``…; ``play`` in a trick)."""
        if self.current is None:
            return None
        return getattr(self.prog.code[self.pc], "name", "play")

    @property
    def phase(self) -> Phase:
        """Where the match stands: ``str(state.phase)`` reads e.g. ``decide announce``,
        ``trick 3``, ``decide bid (after trick 2)`` or ``over`` (see
        :class:`spelbok.engine.program.Phase`).  Worked out from the program's step map
        when asked: play never pays for it."""
        return self.prog.phase(self)

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take (empty when terminal)."""
        if self.current is None:
            return []
        try:
            legal = self.prog.code[self.pc].legal(self)
        except (TypeError, ValueError) as e:
            if isinstance(e, SpelbokError):
                raise
            raise kind_fault(e) from e
        self.legal_cache = legal
        if type(legal) is list:
            return legal.copy()  # the state keeps its own: a caller may change the list
        return legal  # a lazy list of exchanges: apply() checks by its rule (allows)

    def is_legal(self, action: Action | str) -> bool:
        try:
            resolve_action(self, action)
        except (IllegalActionError, InvalidActionError, AmbiguousActionError):
            return False
        return True

    def parse_action(self, text: str) -> Action:
        """The legal action written as ``text``.

        Raises InvalidActionError (not notation), IllegalActionError (not allowed
        now, with the reason) or AmbiguousActionError.
        """
        return resolve_action(self, text)

    # -- moves -------------------------------------------------------------------

    def apply(self, action: object) -> None:
        """Play ``action`` (an Action or its notation) for the current player.

        Anything else is refused with an :class:`~spelbok.errors.InvalidActionError`
        (the parameter is typed ``object`` so that the compiled build checks it here too).

        >>> import spelbok
        >>> s = spelbok.load("example", players=2).new_state(seed=3)
        >>> a = s.legal_actions()[0]; s.apply(a)
        """
        cache = self.legal_cache
        if cache is not None and type(action) is Action and (
                action in cache if type(cache) is list else cache.allows(action)):
            a = action  # just listed by legal_actions(): no need to check again
        elif type(action) is Action and self._fast_ok(action):
            a = action
        else:
            a = resolve_action(self, action)
        self.run_action(a)

    def run_action(self, a: Action) -> None:
        """Apply ``a``, known legal here, with no check: recorded in the history, then the
        steps run on to the next decision (what :meth:`apply` does once it has checked)."""
        self.legal_cache = None
        seat = self.current
        assert seat is not None
        self.hist = (self.hist, a)
        try:
            if not self.prog.code[self.pc].apply(self, seat, a):
                self.current = None
                self.prog.advance(self)
        except (TypeError, ValueError) as e:
            if isinstance(e, SpelbokError):
                raise
            raise kind_fault(e) from e

    def _fast_ok(self, action: Any) -> bool:
        pack = self.prog.pack  # a copy not held is left to resolve_action (the copies held)
        if self.current is None or not well_formed(action, pack.size, pack.french) or (
                pack.copies > 1 and action[0] in (0, 3) and held_action(self, action)[2] != action[2]):
            return False
        return self.prog.code[self.pc].check(self, action) is None

    def apply_action(self, action: object) -> None:
        """OpenSpiel-style alias of :meth:`apply`."""
        self.apply(action)

    def clone(self) -> State:
        """An independent copy (cheap: lists of ints)."""
        c = State.__new__(State)  # no __init__: every field is set below
        c.game = self.game
        c.n = self.n
        c.seed = self.seed
        c.rng_n = self.rng_n
        c.discards = self.discards
        c.hidden = self.hidden
        c.shown = self.shown
        c.trick_no = self.trick_no
        c.broken = self.broken
        c.trump = self.trump
        c.tables = self.tables
        c.tf = self.tf
        c.participants = self.participants
        c.dealer = self.dealer
        c.hand_number = self.hand_number
        c.hands_played = self.hands_played
        c.pc = self.pc
        c.current = self.current
        c.choice = self.choice
        c.count = self.count
        c.cand = self.cand
        c.hist = self.hist
        c.is_terminal = self.is_terminal
        c.start = self.start
        c.stacked = self.stacked
        c.limit_reached = self.limit_reached
        c.legal_cache = self.legal_cache
        c.prog = self.prog
        c.widow = self.widow
        c.last_winner = self.last_winner
        c.trick_stop = self.trick_stop
        c.trick_scored = self.trick_scored
        c.shuf = self.shuf
        c.settled = self.settled
        c.dealt_last = self.dealt_last
        c.played = self.played
        c.won_cards = self.won_cards  # replaced, never changed in place (see FIELDS)
        c.last_trick = self.last_trick
        c.tied_by = self.tied_by
        c.failed_throws = self.failed_throws  # replaced, never changed in place
        c.passing = self.passing
        c.pattern = self.pattern
        c.pattern_seat = self.pattern_seat
        c.meld_points = self.meld_points
        c.meld_picks = self.meld_picks
        c.meld_cards = self.meld_cards
        c.meld_keys = self.meld_keys
        c.stock_closed = self.stock_closed
        t = c.trick = self.trick  # copied by the first to write it (Trick.own)
        t.shared = True
        c.hands = self.hands[:]
        c.stock = self.stock[:]
        c.turn_up = self.turn_up[:]
        c.discarded = self.discarded[:]
        c.won = self.won[:]
        c.pv_rows = list(map(list.copy, self.pv_rows))
        c.gv = self.gv[:]
        out = c.out = self.out[:]
        c.off = out if self.off is self.out else self.off[:]
        c.queue = self.queue[:]
        c.auction = self.auction[:]
        c.counters = self.counters[:]
        c.known = self.known[:]
        c.peeked = self.peeked
        c.voids = self.voids[:]
        c.winner_seats = self.winner_seats[:]
        c.history_tricks = self.history_tricks[:]
        c.public = self.public[:]
        c.rec = None if self.rec is None else self.rec[:]
        return c

    def __copy__(self) -> State:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """A clone: the game and its compiled program are immutable, so shared."""
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the game and the plain fields; the history goes as a flat list
        (nested pairs would recurse once per action) of ``(kind, verb, value)``: not the
        notation, which names a card's first copy where the match played another."""
        values = [getattr(self, name) for name in _PICKLED]
        actions = [(a[0], a[1], a[2]) for a in self.actions]
        return (unpickle_state, (self.game, values, actions))

    # -- history and logs -----------------------------------------------------------

    @property
    def history(self) -> list[Any]:
        """Every decision so far as ``(seat, action, decision, hand)`` entries (replayed:
        see :mod:`spelbok.engine.history`)."""
        from .history import history

        return history(self)

    def undo(self, k: object = 1) -> list[Action]:
        """Take back the last ``k`` actions and return them (replayed from the start:
        see :mod:`spelbok.engine.history`)."""
        from .history import undo

        return undo(self, k)

    @property
    def actions(self) -> list[Action]:
        """Every action applied since the start, in order."""
        out: list[Action] = []
        h = self.hist
        while h is not None:
            h, a = h
            out.append(a)
        out.reverse()
        return out

    @property
    def log(self) -> list[dict[str, Any]]:
        """JSON-serialisable events of the whole match (deals, decisions, tricks, scores).

        Rebuilt by replaying the match from its start, so that the hot path
        never pays for logging.
        """
        if self.rec is not None:
            return list(self.rec)
        replay = self.game._start(self.start, record=True)
        for a in self.actions:
            replay.apply(a)
        assert replay.rec is not None
        return list(replay.rec)

    def event(self, kind: str, **data: Any) -> None:
        if self.rec is not None:
            data["event"] = kind
            self.rec.append(data)

    def shuffle(self, cards: list[int]) -> None:
        """Shuffle ``cards`` in place: the next random event of the match."""
        self.rng_n += 1
        _shuffle(cards, self.seed, self.rng_n)

    def settle(self, k: int | None = None) -> None:
        """Put the top ``k`` cards of the stock (all when None) in their shuffled order.

        A hand's shuffle is done lazily, only as deep as cards are taken: the
        rest of the stock waits in pack order, and the swaps still to do give
        exactly the order a whole shuffle would.  Steps that take cards from
        the stock call this first; so must anything that reads its order.
        """
        lo = 0 if k is None else len(self.stock) - k
        if self.settled > lo:
            _settle(self.stock, self.shuf, self.settled, lo)
            self.settled = lo if lo > 0 else 0

    def take(self, k: int) -> list[int]:
        """Remove the top ``k`` cards of the stock (fewer if it runs out), top card first.

        With the stock not yet shuffled this deep, each Fisher-Yates swap brings
        up the next card (the same cards as settling first, see settle())."""
        stock = self.stock
        i = len(stock)
        k = min(k, i)
        if self.settled == i and self.shuf is not None:
            w = self.shuf
            out = []
            for _ in range(k):
                i -= 1
                j = w[i] % (i + 1)
                out.append(stock[j])
                stock[j] = stock[i]  # the card at i is never looked at again
            del stock[i:]
            self.settled = i
            return out
        self.settle(k)
        out = stock[i - k:]
        del stock[i - k:]
        out.reverse()  # the top card is the last of the list
        return out

    def add_to_stock(self, cards: list[int], where: str) -> None:
        """Put ``cards`` (top first) on top of the stock, under it, or (``shuffled``)
        shuffle them in: the whole stock is shuffled again, lazily like a new
        hand's, as the next random event of the match."""
        stock = self.stock
        if where == "top":
            stock.extend(reversed(cards))  # above the settled part: the lazy shuffle is unchanged
            return
        if not cards:
            return
        self.settle()  # the order so far is fixed before the stock grows underneath
        if where == "bottom":
            stock[:0] = cards[::-1]
            return
        stock.extend(cards)
        self.rng_n += 1
        self.shuf = _words(self.seed, self.rng_n, len(stock))
        self.settled = len(stock)

    def draw(self, k: int) -> int:
        """take(k), as a mask."""
        m = 0
        for c in self.take(k):
            m |= 1 << c
        return m

    def random_below(self, k: int) -> int:
        """A number in ``0..k-1``: the next random event of the match."""
        self.rng_n += 1
        return _below(self.seed, self.rng_n, k)

    # -- observation ---------------------------------------------------------------

    def view(self, seat: object) -> dict[str, Any]:
        """What ``seat`` can see, as JSON-serialisable data: no hidden card.

        Own hand and own discards; the turn-up, the trick in progress, the
        tricks of this hand and every public variable; sizes (not contents) of
        other hands, the talon and the discard pile.
        """
        from .observe import view

        return view(self, seat_arg(seat, self.n))

    def information_state(self, seat: object) -> str:
        """A string identifying what ``seat`` knows (OpenSpiel-style)."""
        import json

        return json.dumps(self.view(seat), sort_keys=True)

    def determinize(self, seat: object, rng: object = None) -> State:
        """A clone whose cards hidden from ``seat`` are re-dealt at random.

        Consistent with everything ``seat`` has seen: its own hand, public cards,
        cards known to be in a hand (a taken turn-up), hand and talon sizes, and
        suits a player has shown to lack.
        """
        from .observe import determinize

        checked = seat_arg(seat, self.n)
        if rng is None:
            rng = random.Random()
        if not isinstance(rng, random.Random):
            raise ArgumentError(f"rng must be a random.Random, not {type(rng).__name__}")
        return determinize(self, checked, rng)

    def resample_from_infostate(self, seat: object, rng: object = None) -> State:
        """OpenSpiel-style alias of :meth:`determinize`."""
        return self.determinize(seat, rng)

    # -- snapshots ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A complete JSON-serialisable snapshot; ``game.restore(d)`` rebuilds it."""
        from .snapshot import to_dict

        return to_dict(self)

    def settled_stock(self) -> list[int]:
        """A copy of the stock in its shuffled order (top card last), leaving the state as
        it is: its lazy shuffle is worked out on the copy."""
        stock = self.stock[:]
        if self.settled > 0:
            _settle(stock, self.shuf, self.settled, 0)
        return stock

    def _key(self) -> tuple[Any, ...]:
        # the same match whether or not its stock order was worked out yet; comparing
        # changes nothing (the order is worked out on a copy)
        return ((self.settled_stock(), self.trick.values())
                + tuple(getattr(self, name, None) for name in _COMPARED))

    def __eq__(self, other: object) -> bool:
        """Equal when every field of the match and the action history agree."""
        if not isinstance(other, State):
            return NotImplemented
        if self.game is not other.game and self.game.name != other.game.name:
            return False
        if self._key() != other._key():
            return False
        return self.hist is other.hist or self.actions == other.actions

    def __hash__(self) -> int:  # a mutable match: equality by content, so no hash
        raise TypeError(f"unhashable type: {type(self).__name__!r}")

    def __repr__(self) -> str:
        who = "over" if self.is_terminal else f"seat {self.current} to act"
        return f"<State {self.game.name} hand {self.hand_number}, {who}>"

    # -- helpers for steps -------------------------------------------------------------

    def order_from(self, seat: int) -> tuple[int, ...]:
        """All seats clockwise starting at ``seat``."""
        return self.prog.rot[seat]

    def forehand_order(self) -> list[int]:
        """Seats in this hand, from the dealer's left round to the dealer."""
        off, seats = self.off, self.prog.rot[self.prog.nxt[self.dealer]]
        return [s for s in seats if not off[s]] if True in off else list(seats)

    def trump_letter(self) -> str:
        return self.prog.pack.letter(self.trump)


# pickle: every field but the game's own objects, the caches and the history (rebuilt on loading)


def unpickle_state(game: Game, values: list[Any], actions: list[Any]) -> State:
    """The state pickled by ``State.__reduce__`` (trusted data: pickle runs code anyway)."""
    st = State.__new__(State)
    for name, value in zip(_PICKLED, values, strict=True):
        setattr(st, name, value)
    st.game = game
    st.prog = game.program
    st.tables = game.program.tables_of(st)[st.trump]
    st.legal_cache = None
    hist: tuple[Any, ...] | None = None
    pack = game.program.pack
    own = None if pack.french else pack
    for a in actions:  # (kind, verb, value); notation in a pickle made before
        hist = (hist, parse_action(a, pack) if isinstance(a, str) else Action(a[0], a[1], a[2], own))
    st.hist = hist
    return st
