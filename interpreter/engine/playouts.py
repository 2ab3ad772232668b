"""Random playouts played inside the engine, for simulation and search.

:meth:`spelbok.Game.playouts` plays whole matches with uniformly random legal
choices and returns only what simulation and search read (winners, scores,
decisions, hands).  It plays exactly the matches of the public loop

    rng = random.Random(seed)
    for i in range(n):
        st = game.new_state(seed=seed + i)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))

(the same random numbers drawn in the same order, so the same actions), but
without its costs per decision: a card in a trick is drawn from the legal
mask, not from a list of actions, no list is copied for the caller, and the
action is applied unchecked (it was drawn from the legal ones).  The same
steps serve a search's rollouts: :func:`legal` (the list the state keeps, not
a copy), :func:`step` (apply an action just drawn from it) and
:func:`play_random` (random moves to the end of the hand or of the match).

>>> import spelbok
>>> out = spelbok.load("example", players=3).playouts(4, seed=1)
>>> len(out.winners), out.total_decisions == sum(out.decisions)
(4, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import CARD_ACTIONS, Action
from .trick import legal_cards
from .trick_play import TrickPlay, TrickPlayEach

if TYPE_CHECKING:
    from .game import Game
    from .state import State

#: The policies :meth:`Game.playouts` knows.
POLICIES = ("random",)


@dataclass
class Playouts:
    """The matches :meth:`spelbok.Game.playouts` played, one entry each, in seed order
    (match ``i`` was seeded ``seed + i``)."""

    seed: int
    winners: list[list[int]]
    scores: list[list[int]]
    decisions: list[int]  # every action a player took, forced ones included
    hands: list[int]
    limit_reached: list[bool]

    @property
    def total_decisions(self) -> int:
        """The decisions of every match."""
        return sum(self.decisions)

    def wins(self, players: int) -> list[int]:
        """How many matches each seat won (a tie counts for every tied seat)."""
        out = [0] * players
        for seats in self.winners:
            for p in seats:
                out[p] += 1
        return out


def below(getrandbits: Callable[[int], int], k: int) -> int:
    """A number in ``0..k-1`` drawn as ``random.Random.choice`` draws its index (the
    standard library's ``_randbelow``: ``k.bit_length()`` bits, again until below
    ``k``), so that a mask gives the card a list of the same cards would."""
    bits = k.bit_length()
    r = getrandbits(bits)
    while r >= k:
        r = getrandbits(bits)
    return r


def legal(st: State) -> list[Action]:
    """The legal actions of ``st``, as the state keeps them: not a copy, never to be
    changed (a lazy list of exchanges stays lazy).  Empty when the match is over."""
    if st.current is None:
        return []
    out = st.prog.code[st.pc].legal(st)
    st.legal_cache = out
    return out


def random_action(st: State, getrandbits: Callable[[int], int]) -> Action:
    """The action ``rng.choice(st.legal_actions())`` would pick (``getrandbits`` is
    ``rng.getrandbits``): a plain trick's card is drawn from the legal mask."""
    ins = st.prog.code[st.pc]
    if ((type(ins) is TrickPlay or type(ins) is TrickPlayEach)
            and ins.pack is None and ins.allow is None and ins.abstain is None):
        seat = st.current
        assert seat is not None
        m = legal_cards(st, seat)
        r = below(getrandbits, m.bit_count())
        while r:  # the r-th card of the mask, lowest first (the list's order)
            m &= m - 1
            r -= 1
        return CARD_ACTIONS[(m & -m).bit_length() - 1]
    # typed as a Sequence, so that compiled code indexes it through __getitem__: a lazy
    # list of exchanges (SubsetActions) holds subset numbers until an item is asked for
    options: Sequence[Action] = ins.legal(st)
    return options[below(getrandbits, len(options))]


def step(st: State, a: Action) -> None:
    """Apply ``a``, a legal action of ``st`` (drawn from :func:`legal` or
    :func:`random_action`), without checking it again; recorded in the history as
    ``apply`` records it.  Errors of the spec's formulas are raised as ``apply``
    raises them."""
    st.run_action(a)


def play_random(st: State, rng: random.Random, hand_only: bool = False) -> int:
    """Play ``st`` on with uniformly random legal choices to the end of the match (or,
    ``hand_only``, of the current hand); returns the decisions played."""
    getrandbits = rng.getrandbits
    hp = st.hands_played
    done = 0
    while not st.is_terminal and not (hand_only and st.hands_played != hp):
        step(st, random_action(st, getrandbits))
        done += 1
    return done


def playouts(game: Game, n: int, seed: int, policy: str) -> Playouts:
    """``n`` whole matches of ``game`` (see :meth:`spelbok.Game.playouts`); the
    arguments are checked there."""
    rng = random.Random(seed)
    winners: list[list[int]] = []
    scores: list[list[int]] = []
    decisions: list[int] = []
    hands: list[int] = []
    limits: list[bool] = []
    for i in range(n):
        st = game._start({"seed": seed + i, "dealer": None}, record=False)
        decisions.append(play_random(st, rng))
        winners.append(list(st.winner_seats))
        scores.append(st.scores)
        hands.append(st.hands_played)
        limits.append(st.limit_reached)
    return Playouts(seed, winners, scores, decisions, hands, limits)
