"""The match loop around the compiled hand: start a hand, run its steps, end it.

:class:`Program` is built once per loaded game by :mod:`spelbok.engine.compiler`;
it owns the instruction list and the match-level rules (dealer, end of match).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..cards import FRENCH, Pack
from ..lang.constructs import STEP_HOMES
from ..lang.vocabulary import DEFAULT_MAX_HANDS
from .fields import MATCH_RESETS
from .order import NO_TRUMP, TrumpTables
from .rng import words
from .trick import Trick, TrickFlags

if TYPE_CHECKING:
    from .state import State
    from .steps import Instr

Fn = Callable[[Any, int], Any]
_NO_FLAGS = TrickFlags()  # frozen: one instance serves every hand until its tricks start

#: The instructions a step of each kind compiles to, named by their part in the step, in
#: order (the instructions of the steps nested in it come in between): each step kind's
#: home declares them (``Home.code_parts``).  A kind not listed compiles to one
#: instruction, part ``run``; a ``when`` guard is part ``when``.  Notes on some parts:
#: tricks' ``next`` only with ``after_each``, if's ``skip`` (over the ``else``) only with
#: an ``else``, auction's ``redeal`` only without ``all_pass``.
STEP_PARTS: dict[str, tuple[str, ...]] = {h.name: h.code_parts for h in STEP_HOMES
                                          if h.code_parts}


@dataclass(frozen=True)
class Origin:
    """The spec step one instruction comes from (see :meth:`Program.listing`).

    ``path`` is the step's path in the spec tree (``("hand", 3, "tricks", "after_each",
    0)``), ``kind`` its step kind, ``part`` the instruction's part in it (see
    ``STEP_PARTS``), ``label`` its label and ``name`` a decision's name ("" when none);
    ``first`` is the step's first instruction after its guard, ``end`` the one after it.
    """

    path: tuple[Any, ...]
    kind: str
    part: str = "run"
    label: str = ""
    name: str = ""
    first: int = 0
    end: int = 0

    def __str__(self) -> str:
        where = ".".join(map(str, self.path))
        named = f" {self.name}" if self.name else ""
        label = f" [{self.label}]" if self.label else ""
        return f"{where} {self.kind}{named}{label}"


@dataclass(frozen=True)
class Phase:
    """Where a match stands, or where a position starts: ``str()`` reads it.

    ``kind`` is ``trick`` (trick play), ``after tricks`` (a position just after a tricks
    step), ``over``, ``end of hand``, or the kind of the step the program is at
    (``decide``, ``deal``...); ``name`` a decision's name, else the step's label;
    ``trick`` the number of the trick being played (in trick play) or just played (at a
    step run after each trick), else 0; ``path`` the step's path in the spec tree;
    ``pc`` the instruction.

    >>> import spelbok
    >>> st = spelbok.load("example", players=3).new_state(seed=1)
    >>> str(st.phase), st.phase.kind, st.phase.path
    ('decide swap', 'decide', ('hand', 2))
    """

    kind: str
    name: str = ""
    trick: int = 0
    path: tuple[Any, ...] = ()
    pc: int = -1

    def __str__(self) -> str:
        text = self.kind + (f" {self.name}" if self.name else "")
        if self.kind == "trick":
            return f"{text} {self.trick}"
        return f"{text} (after trick {self.trick})" if self.trick else text


@dataclass
class Program:
    """Compiled rules of one game at one player count."""

    n: int
    deck: list[int]
    deck_mask: int
    tables: tuple[TrumpTables, ...]
    code: list[Instr] = field(default_factory=list)
    n_counters: int = 0
    player_init: list[Any] = field(default_factory=list)  # initial values of per-player vars
    player_hand_rows: list[int] = field(default_factory=list)  # rows reset each hand
    global_init: list[Any] = field(default_factory=list)
    pvar_names: list[str] = field(default_factory=list)  # per-player rows, in pv_rows order
    gvar_names: list[str] = field(default_factory=list)  # hand/match slots, in gv order
    options: dict[str, Any] = field(default_factory=dict)
    global_hand_slots: list[int] = field(default_factory=list)
    first_dealer: str | int = "random"
    cut_power: tuple[int, ...] = ()
    pack: Pack = FRENCH  # the cards: names, suits, ranks (the spec's `pack:`)
    rotate: int = 1
    turn: int = 1  # the play direction: 1 to the left (seat + 1), -1 to the right
    skip_out: bool = True
    stays: Fn | None = None  # dealer.stays: the same dealer deals the next hand while it holds
    next_seat: Fn | None = None  # dealer.next: the seat that deals the next hand (else: rotate)
    sit_fn: Fn | None = None  # sit_out.when: a seat sits this hand out (lang/constructs/sit_out.py)
    end_when: Fn = lambda st, p: False
    winners_fn: Fn = lambda st, p: False
    score_fn: Fn = lambda st, p: 0
    max_hands: int = DEFAULT_MAX_HANDS  # the compiler sets end.max_hands or this bound
    rot: tuple[tuple[int, ...], ...] = ()  # rot[s]: every seat in turn from s
    nxt: tuple[int, ...] = ()  # nxt[s]: the seat whose turn comes after s's
    sides: tuple[int, ...] = ()  # each seat's team (its own seat without teams): ties read it
    # the tree path of each hand step -> its first instruction, after its `when` guard
    # (positions start there; play never reads it)
    step_pcs: dict[tuple[Any, ...], int] = field(default_factory=dict)
    # the step each instruction comes from, one per instruction (listing, phases, positions)
    origins: list[Origin] = field(default_factory=list)
    # card points per trump (engine/points.py): empty without a `points` section
    points: tuple[Any, ...] = ()
    last_trick_points: int = 0
    # every auction step's contracts, in one numbering (engine/auction.py)
    contracts: tuple[Any, ...] = ()
    # the modes (lang/constructs/modes.py): their names (0: 'none', the ranking itself),
    # each one's tables and card points per trump, and the hand slot of `st.gv` holding
    # the mode in force (-1: a spec without modes, which reads `tables` and `points` only)
    modes: tuple[str, ...] = ()
    mode_tables: tuple[tuple[TrumpTables, ...], ...] = ()
    mode_points: tuple[tuple[Any, ...], ...] = ()
    mode_slot: int = -1
    # the hidden variables (engine/hidden.py): empty without a `hidden` section
    secrets: tuple[Any, ...] = ()
    # a trump named during a trick (tricks.new_trump): (whole_trick, face-down cards as
    # trumps, losing cards), for engine.trick.renamed_trump
    new_trump: tuple[bool, bool, int] = (False, True, 0)
    # an auction lets the declarer call a card he holds (call: rank_order): a sample may
    # deal the called card to him (engine/observe.py)
    calls_own: bool = False
    # a trump rank that follows a formula (ranking.trump_rank, engine/combos.py): the
    # formula, and the tables of each trump under each rank it may name (by its name)
    level_fn: Any = None
    level_sets: dict[str, tuple[TrumpTables, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.set_turn(self.turn)

    def set_turn(self, turn: int) -> None:
        """Turn to the left (1: seat s, then s + 1) or to the right (-1: s, then s - 1):
        the seat tables every turn order reads (built once, so either costs the same)."""
        n = self.n
        self.turn = turn
        self.rot = tuple(tuple((s + turn * i) % n for i in range(n)) for s in range(n))
        self.nxt = tuple(r[1 % n] for r in self.rot)

    def __deepcopy__(self, memo: dict[int, Any]) -> Program:
        """A new Program over the same compiled steps and tables, which never change
        (a compiled step cannot be rebuilt field by field; see setup.py)."""
        return replace(self)

    # -- reading the program (never on the hot path) ---------------------------------

    def origin(self, pc: int) -> Origin | None:
        """The step instruction ``pc`` comes from (None past the last: the end of the hand)."""
        return self.origins[pc] if 0 <= pc < len(self.origins) else None

    def step_origin(self, path: tuple[Any, ...]) -> Origin:
        """The Origin of the step at ``path`` (its first instruction's); KeyError if none."""
        return self.origins[self.step_pcs[path]]

    def part_pc(self, path: tuple[Any, ...], part: str) -> int:
        """The instruction of the step at ``path`` that is its ``part`` (see STEP_PARTS),
        or -1 when it has none."""
        o = self.step_origin(path)
        for pc in range(o.first, o.end):
            if self.origins[pc].path == path and self.origins[pc].part == part:
                return pc
        return -1

    def enclosing(self, path: tuple[Any, ...], kind: str) -> Origin | None:
        """The innermost step of ``kind`` that holds the step at ``path`` (not itself)."""
        for i in range(len(path) - 1, 0, -1):
            pc = self.step_pcs.get(path[:i])
            if pc is not None and self.origins[pc].kind == kind:
                return self.origins[pc]
        return None

    def starts(self, kind: str) -> list[Origin]:
        """The Origin of every step of ``kind``, in program order."""
        return [o for pc, o in enumerate(self.origins) if o.kind == kind and pc == o.first]

    def exchange_draws(self) -> dict[str, str]:
        """Each exchange decision's draw pile (``stock``, ``turn_up`` or ``none``, as
        compiled: it may be an option), by the decision's name (the bots read it).

        >>> import spelbok
        >>> spelbok.load("example", players=3).program.exchange_draws()
        {'swap': 'turn_up', 'exchange': 'stock'}
        """
        out: dict[str, str] = {}
        for o in self.starts("decide"):
            ins = self.code[self.part_pc(o.path, "decide")]
            if getattr(ins, "kind", "") == "exchange":
                out[o.name] = str(getattr(ins, "draw_from", "stock"))
        return out

    def phase(self, st: State) -> Phase:
        """Where ``st`` stands (see :attr:`State.phase`)."""
        if st.is_terminal:
            return Phase("over", pc=st.pc)
        o = self.origin(st.pc)
        if o is None:
            return Phase("end of hand", pc=st.pc)
        if o.kind == "tricks":
            return Phase("trick", o.label, st.trick_no + 1, o.path, st.pc)
        between = self.enclosing(o.path, "tricks") is not None  # in a tricks step's after_each
        return Phase(o.kind, o.name or o.label, st.trick_no if between else 0, o.path, st.pc)

    def listing(self) -> str:
        """The program, one instruction a line: pc, instruction, part, step, jumps.

        >>> import spelbok
        >>> print(spelbok.load("example", players=3).program.listing())  # doctest: +ELLIPSIS
          0  Deal          run     hand.0 deal [deal]
          1  TurnUp        run     hand.1 turn_up [turn-up]
          2  DecideStart   start   hand.2 decide swap [swap]
          3  Exchange      decide  hand.2 decide swap [swap]
        ...
          6  JumpUnless    test    hand.4 if [too few play]  -> 8
        ...
         11  TrickPlay     play    hand.6 tricks [tricks]  -> 12
         12  SetVars       run     hand.7 set [score]
         13  (end of hand)
        """
        lines = []
        for pc, ins in enumerate(self.code):
            o = self.origin(pc)
            # where it may go instead of the next: a jump's target, after a trick step's end
            jumps = [str(getattr(ins, k)) for k in ("target", "end", "play_at")
                     if isinstance(getattr(ins, k, None), int)]
            line = f"{pc:3}  {type(ins).__name__:13} {o.part if o else '?':7} {o or '?'}"
            lines.append(line + (f"  -> {', '.join(jumps)}" if jumps else ""))
        lines.append(f"{len(self.code):3}  (end of hand)")
        return "\n".join(lines)

    # -- the loop ------------------------------------------------------------------

    def advance(self, st: State) -> None:
        """Run steps until a player must decide or the match ends."""
        code = self.code
        end = len(code)
        while not st.is_terminal:
            pc = st.pc
            if pc >= end:
                self.end_hand(st)
                continue
            if not code[pc].run(st):
                return

    def start_match(self, st: State, dealer: int | None) -> None:
        st.pv_rows = [[v] * st.n for v in self.player_init]
        st.gv = list(self.global_init)
        for name, shape, fresh in MATCH_RESETS:  # the table's per-match fields
            setattr(st, name, fresh if shape == 0 else [fresh] * st.n if shape == 1 else [])
        if dealer is None:
            dealer = self.choose_first_dealer(st)
        st.dealer = dealer
        self.start_hand(st)

    def choose_first_dealer(self, st: State) -> int:
        first = self.first_dealer
        if isinstance(first, int):
            return first % st.n
        if first == "random":
            d = st.random_below(st.n)
            st.event("first_dealer", dealer=d, how="random")
            return d
        # cut: everyone draws a card; lowest (or highest) deals, ties cut again
        power = self.cut_power
        sign = 1 if first == "cut_low" else -1
        contenders = list(range(st.n))
        while True:
            cards = self.deck[:]
            st.shuffle(cards)
            drawn = {p: cards[i] for i, p in enumerate(contenders)}
            best = min(sign * power[c] for c in drawn.values())
            st.event("cut", cards=[[p, self.pack.names[c]] for p, c in drawn.items()])
            contenders = [p for p, c in drawn.items() if sign * power[c] == best]
            if len(contenders) == 1:
                st.event("first_dealer", dealer=contenders[0], how=str(first))
                return contenders[0]

    def start_hand(self, st: State) -> None:
        n = st.n
        for row in self.player_hand_rows:
            st.pv_rows[row] = [self.player_init[row]] * n
        for slot in self.global_hand_slots:
            st.gv[slot] = self.global_init[slot]
        # the table's per-hand fields (state.FIELDS), written out: setting them by name
        # from the table cost 5 % of decisions/s on short hands (README, "what was tried");
        # tests/test_state_table.py pins these lines to the table
        st.hands = [0] * n
        st.won = [0] * n
        st.won_cards = [0] * n
        st.played = 0
        st.last_trick = -1
        st.tied_by = -1
        st.discards = 0
        st.widow = 0
        st.hidden = 0
        st.shown = 0
        st.last_winner = -1
        st.trick_stop = 1 << 30
        st.trick_scored = True
        st.discarded = [0] * n
        st.known = [0] * n
        st.peeked = [0] * n
        st.voids = [0] * n
        st.passing = [0] * n
        st.pattern = "none"
        st.pattern_seat = -1
        st.meld_points = [0] * n
        st.failed_throws = [0] * n
        st.meld_picks = [-1] * n
        st.meld_cards = [0] * n
        st.meld_keys = [0] * n
        st.stock_closed = False
        st.turn_up = []
        st.dealt_last = -1
        st.trick = Trick()  # the trick's fields (owner trick in the table), fresh
        st.trick_no = 0
        st.broken = False
        st.participants = 0
        st.queue = []
        st.auction = []
        st.counters = [0] * self.n_counters
        st.history_tricks = []
        st.public = []
        st.choice = ""
        st.count = 0
        st.tf = _NO_FLAGS
        st.trump = NO_TRUMP
        st.tables = (self.tables if self.level_fn is None else self.level_of(st))[NO_TRUMP]
        if st.stacked is not None:
            st.stock = list(reversed(st.stacked))
            st.stacked = None
            st.shuf = None
            st.settled = 0
        else:
            # shuffled lazily: only as deep as cards are dealt (see State.settle)
            st.stock = self.deck[:]
            st.rng_n += 1
            st.shuf = words(st.seed, st.rng_n, len(st.stock))
            st.settled = len(st.stock)
        st.pc = 0
        if st.rec is not None:
            st.event("hand", number=st.hand_number, dealer=st.dealer)
        if self.sit_fn is None:
            st.off = st.out  # one list: nothing more to keep (see seat_hand)
        else:
            self.seat_hand(st)

    def seat_hand(self, st: State) -> None:
        """Sets ``st.off``, the seats that take no part in the hand: those out of the
        match, and those ``sit_out`` seats out of it (its condition read as the hand
        starts, its dealer known).  Without ``sit_out`` it is ``st.out`` itself."""
        fn = self.sit_fn
        if fn is None:
            st.off = st.out
            return
        out = st.out
        st.off = off = [out[p] or bool(fn(st, p)) for p in range(st.n)]
        if st.rec is not None and off != out:
            st.event("sitting_out", seats=[p for p in range(st.n) if off[p] and not out[p]])

    def set_trump(self, st: State, suit: int) -> None:
        old = st.trump
        st.trump = suit  # first: a trump rank's formula may read the new trump
        tables = self.tables_of(st)
        if suit != old and any(st.voids):  # voids are suits of the old tables
            from .observe import voids_under

            st.voids = voids_under(st.voids, st.tables, tables[suit])
        st.tables = tables[suit]

    # -- modes (lang/constructs/modes.py) ------------------------------------------------

    def mode_index(self, st: State) -> int:
        """The number of the mode in force (0: none, the ranking itself)."""
        return self.modes.index(st.gv[self.mode_slot]) if self.mode_slot >= 0 else 0

    def tables_of(self, st: State) -> tuple[TrumpTables, ...]:
        """The card order tables of each trump in the mode in force (or under the trump
        rank in force)."""
        if self.level_fn is not None:
            return self.level_of(st)
        return self.tables if self.mode_slot < 0 else self.mode_tables[self.mode_index(st)]

    def level_of(self, st: State) -> tuple[TrumpTables, ...]:
        """The tables of each trump under the trump rank ``ranking.trump_rank`` names now
        (a name that is no rank of the pack: the ranking's own tables)."""
        got = self.level_sets.get(str(self.level_fn(st, 0)).upper())
        return self.tables if got is None else got

    def tables_in(self, mode: Any) -> tuple[TrumpTables, ...]:
        """The tables of each trump in the mode named ``mode`` (an unknown name, or None:
        the ranking's), for the readers of a view (its ``vars``' mode)."""
        if self.mode_slot < 0 or mode not in self.modes:
            return self.tables
        return self.mode_tables[self.modes.index(mode)]

    def points_of(self, st: State) -> tuple[Any, ...]:
        """The card points of each trump in the mode in force (empty: no card points)."""
        return self.points if self.mode_slot < 0 else self.mode_points[self.mode_index(st)]

    def set_mode(self, st: State, name: str) -> None:
        """Puts the mode ``name`` in force: its tables, under the trump in force."""
        if name not in self.modes:
            from ..errors import SpelbokError

            raise SpelbokError(f"unknown mode {name!r}: the modes are "
                               f"{', '.join(self.modes)}")
        tables = self.mode_tables[self.modes.index(name)]
        if any(st.voids):  # voids are suits of the old tables
            from .observe import voids_under

            st.voids = voids_under(st.voids, st.tables, tables[st.trump])
        st.gv[self.mode_slot] = name
        st.tables = tables[st.trump]

    def next_dealer(self, st: State) -> int:
        if self.rotate == 0:
            return st.dealer
        d = st.dealer
        for _ in range(st.n):
            d = (d + self.rotate) % st.n
            if not (self.skip_out and st.out[d]):
                return d
        return d

    def named_dealer(self, st: State) -> int:
        """The seat ``dealer.next`` names to deal the next hand; a value that is no seat
        still in the match leaves the deal to pass as ``rotate`` says."""
        fn = self.next_seat
        assert fn is not None
        seat = fn(st, 0)
        if type(seat) is int and 0 <= seat < st.n and not (self.skip_out and st.out[seat]):
            return seat
        return self.next_dealer(st)

    def end_hand(self, st: State) -> None:
        st.hands_played += 1
        if st.rec is not None:
            st.event("end_hand", tricks=list(st.won), scores=st.scores, out=list(st.out))
        if self.end_when(st, 0):
            self.finish(st, limit=False)
            return
        if st.hands_played >= self.max_hands:
            self.finish(st, limit=True)
            return
        stays = self.stays
        if stays is None or not stays(st, 0):
            st.dealer = self.next_dealer(st) if self.next_seat is None else self.named_dealer(st)
        st.hand_number += 1
        self.start_hand(st)

    def redeal(self, st: State, next_dealer: bool) -> None:
        st.hands_played += 1
        if st.hands_played >= self.max_hands:
            self.finish(st, limit=True)
            return
        if next_dealer:
            st.dealer = self.next_dealer(st)
        self.start_hand(st)

    def finish(self, st: State, limit: bool) -> None:
        st.is_terminal = True
        st.current = None
        st.limit_reached = limit
        st.winner_seats = [p for p in range(st.n) if self.winners_fn(st, p)]
        st.event("match_end", winners=list(st.winner_seats), scores=st.scores, limit_reached=limit)

