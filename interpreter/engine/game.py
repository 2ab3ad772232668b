"""A loaded game: a spec compiled for one player count and one set of options.

>>> import spelbok
>>> game = spelbok.load("example", players=3)
>>> game.name, game.players, len(game.deck)
('Example', 3, 32)
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import ArgumentError, SpecError, SpelbokError, kind_fault
from ..limits import MAX_CARDS, MAX_HANDS, MAX_SEED, seat_arg, short_repr
from .program import Program
from .state import State

if TYPE_CHECKING:
    from .playouts import Playouts

#: Most matches one call of :meth:`Game.playouts` plays (its results are kept per match).
MAX_PLAYOUTS = 10_000_000


class Game:
    """The rules of one game at one player count, ready to start matches."""

    def __init__(
        self,
        doc: Any,
        players: int,
        options: dict[str, Any] | None = None,
        max_hands: int | None = None,
    ) -> None:
        from .compiler import Compiler

        self.doc = doc
        self.tree: dict[str, Any] = doc.tree
        self.name: str = self.tree.get("name", "game")
        lo = self.tree["players"]["min"]
        hi = self.tree["players"]["max"]
        if type(players) is not int or not lo <= players <= hi:
            raise SpecError(f"{self.name} is for {lo} to {hi} players, not {short_repr(players, 40)}",
                            path=getattr(doc, "path", None))
        if options is not None and (not isinstance(options, dict)
                                    or not all(type(k) is str for k in options)):
            raise ArgumentError(f"options must be a map {{option: value}}, not {short_repr(options, 60)}")
        self.players = players
        self.option_overrides = dict(options or {})
        compiler = Compiler(self.tree, players, self.option_overrides, doc.locate)
        self.options = compiler.options
        self.program: Program = compiler.compile()
        # restore()'s last replay: (start, actions, state), see snapshot.from_dict
        self._replay_memo: tuple[dict[str, Any], list[str], State] | None = None
        self.max_hands_given = max_hands  # kept for pickling (see __reduce__)
        if max_hands is not None:
            if type(max_hands) is not int or not 1 <= max_hands <= MAX_HANDS:
                raise SpelbokError(f"max_hands must be a whole number from 1 to {MAX_HANDS}, "
                                   f"not {short_repr(max_hands, 40)}")
            # a tighter safety bound, e.g. for quick conformance runs
            self.program.max_hands = min(self.program.max_hands, max_hands)

    @property
    def deck(self) -> list[str]:
        """The cards of the pack at this player count."""
        return [self.program.pack.names[c] for c in self.program.deck]

    def __repr__(self) -> str:
        return f"<Game {self.name}, {self.players} players>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the checked spec, players, options and bound: the program (compiled
        closures, which pickle cannot carry) is compiled again on loading."""
        return (Game, (self.doc, self.players, self.option_overrides, self.max_hands_given))

    # -- matches ------------------------------------------------------------------------

    def new_state(
        self,
        seed: int = 0,
        deck: list[str] | None = None,
        dealer: int | None = None,
        position: dict[str, Any] | None = None,
        record: bool = False,
    ) -> State:
        """Start a match.

        ``seed`` drives every shuffle and cut; ``deck`` stacks the first deal
        (top card first, every card of the pack once); ``dealer`` fixes the
        first dealer; ``position`` starts from a described moment (see
        :mod:`spelbok.engine.position`); ``record`` keeps the event log as the match
        goes (otherwise ``state.log`` rebuilds it by replaying).
        """
        if type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED:
            raise ArgumentError(f"seed must be an integer of at most 64 bits, not {short_repr(seed, 40)}")
        if dealer is not None:
            seat_arg(dealer, self.players, "dealer")
        start: dict[str, Any] = {"seed": seed, "dealer": dealer}
        if deck is not None:
            if not isinstance(deck, (list, tuple)) or len(deck) > 2 * MAX_CARDS:
                raise ArgumentError("deck must be a list of the pack's cards, top card first")
            start["deck"] = self._check_deck(deck)
        if position is not None:
            start["position"] = position
        return self._start(start, record=record)

    def _check_deck(self, deck: list[str]) -> list[str]:
        ids = []
        pack = self.program.pack
        names = pack.names
        taken: set[int] = set()
        for text in deck:
            c = pack.take_card(text, taken) if type(text) is str and len(text) <= 8 else None
            if c is None:
                raise SpecError(f"{short_repr(text)} in the stacked deck is not a card")
            ids.append(c)
        if sorted(ids) != sorted(self.program.deck) or len(set(ids)) != len(ids):
            want = set(self.program.deck)
            extra = [names[c] for c in ids if c not in want]
            dup = sorted({names[c] for c in ids if ids.count(c) > 1})
            missing = [names[c] for c in self.program.deck if c not in ids]
            parts = []
            if extra:
                parts.append("not in this pack: " + " ".join(extra))
            if dup:
                parts.append("given twice: " + " ".join(dup))
            if missing:
                parts.append(f"missing {len(missing)} card(s): " + " ".join(missing[:8]))
            raise SpecError("the stacked deck must hold every card of the pack once; " + "; ".join(parts))
        return [names[c] for c in ids]

    def _start(self, start: dict[str, Any], record: bool) -> State:
        st = State.__new__(State)
        st.game = self
        st.prog = self.program
        st.n = self.players
        st.seed = start["seed"]
        st.rng_n = 0
        st.start = start
        st.hist = None
        st.is_terminal = False
        st.limit_reached = False
        st.winner_seats = []
        st.current = None
        st.cand = 0
        st.legal_cache = None
        st.shuf = None
        st.settled = 0
        st.rec = [] if record else None
        deck = start.get("deck")
        taken: set[int] = set()
        st.stacked = ([self.program.pack.take_card(c, taken) for c in deck]  # type: ignore[misc]
                      if deck else None)
        dealer = start.get("dealer")
        try:
            if start.get("position") is not None:
                from .position import start_from_position

                start_from_position(self, st, start["position"])
            else:
                self.program.start_match(st, dealer)
            self.program.advance(st)
        except (TypeError, ValueError) as e:
            if isinstance(e, SpelbokError):
                raise
            raise kind_fault(e) from e
        return st

    def playouts(self, n: int, seed: int = 0, policy: str = "random") -> Playouts:
        """Play ``n`` whole matches with uniformly random legal choices, inside the
        engine (no action lists where a card mask suffices, no checks per decision),
        and return their winners, scores, decisions and hands.

        Match ``i`` is ``new_state(seed=seed + i)``, and one ``random.Random(seed)``
        makes every choice in turn, as ``rng.choice(state.legal_actions())`` would:
        the same matches as that loop through the public API (see
        :mod:`spelbok.engine.playouts`).  ``policy``: only ``"random"`` so far.

        >>> import spelbok
        >>> out = spelbok.load("example", players=2).playouts(3, seed=5)
        >>> len(out.winners), all(out.decisions)
        (3, True)
        """
        from .playouts import POLICIES, playouts

        if type(n) is not int or not 0 <= n <= MAX_PLAYOUTS:
            raise ArgumentError(f"n must be a whole number from 0 to {MAX_PLAYOUTS}, "
                                f"not {short_repr(n, 40)}")
        if type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED - max(n - 1, 0):
            raise ArgumentError(f"seed must be an integer of at most 64 bits (with seed + n "
                                f"too), not {short_repr(seed, 40)}")
        if policy not in POLICIES:
            raise ArgumentError(f"unknown playout policy {short_repr(policy)}; "
                                f"choose {', '.join(POLICIES)}")
        return playouts(self, n, seed, policy)

    def restore(self, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict`."""
        from .snapshot import from_dict

        return from_dict(self, data)


def load(
    spec: str | os.PathLike[str],
    players: int | None = None,
    options: dict[str, Any] | None = None,
    max_hands: int | None = None,
    *,
    allow_paths: Iterable[str | os.PathLike[str]] = (),
) -> Game:
    """Load a spec (path, shipped name like ``"example"``, or spec text) and compile it.

    ``players`` defaults to the spec's minimum; ``options`` picks readings
    (``{"void_rule": "any"}``); ``max_hands`` tightens the spec's bound on
    match length; ``allow_paths`` are folders ``extends`` may reach besides the
    spec's own (see :func:`spelbok.lang.loader.read_spec`).  Raises SpecError on a bad spec.

    >>> load("example", players=4).deck[:3]
    ['7C', '8C', '9C']
    """
    from ..lang.checks import check_structure
    from ..lang.loader import read_spec

    if not isinstance(spec, (str, os.PathLike)):
        raise ArgumentError(f"spec must be a path, a shipped spec name or spec text, "
                            f"not {type(spec).__name__}")
    doc = check_structure(read_spec(spec, allow_paths=allow_paths))
    if players is None:
        players = int(doc.tree["players"]["min"])
    return Game(doc, players, options, max_hands=max_hands)
