"""Information-set Monte Carlo tree search (single observer).

One tree for the deciding seat, searched over many determinizations: each
iteration re-deals the cards the seat cannot see (:meth:`Observation.sample`,
with future shuffles re-seeded too), walks the tree choosing among the
actions *available in that world* by UCB1 with availability counts
(Cowling, Powley & Whitehouse 2012), expands one new action, plays the rest
of the **hand** with the greedy rollout policy
(:func:`~spelbok.play.bots.heuristics.policy_action`), and backs up the
end-of-hand reward of :func:`~spelbok.play.bots.profile.hand_rewards` of each
node's mover.

With three or more players, the other players' moves are not searched but
drawn from the same rollout policy (an opponent model; a "paranoid" search of
every opponent's move spreads a small budget too thin), so the tree holds
the decider's own decisions; in two-player games both sides are searched.

Exchanges are grouped: another player's exchange is known only by its size,
so the tree keys it as "k cards" and the world picks the k weakest cards of
that player's sampled hand; the decider's own exchanges are taken whole when
there are at most a dozen, else grouped the same way.

>>> import spelbok
>>> from spelbok.engine.observe import observe
>>> state = spelbok.load("example", players=2).new_state(seed=4)
>>> bot = ISMCTSBot(iterations=50, seed=1)
>>> bot.choose(observe(state)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any

from ...engine.actions import CARDS, Action
from ...engine.play_sets import PlaySets
from ...engine.playouts import legal as legal_of
from ...engine.playouts import step
from .budget import DEFAULT_BOT_TIME, Budget
from .heuristics import decision_kind, exchange_candidates, play_candidates, policy_action
from .profile import game_profile, hand_rewards
from .rollout import sample_world

if TYPE_CHECKING:
    from ...engine.observe import Observation
    from ...engine.state import State

DEFAULT_ITERATIONS = 200
ROOT_EXCHANGE_LIMIT = 12


class _Node:
    __slots__ = ("seat", "visits", "total", "avail", "children")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[Any, _Node] = {}


class ISMCTSBot:
    """Single-observer ISMCTS with ``iterations`` determinized playouts per decision.

    ``exploration`` is the UCB1 constant (rewards lie in [0, 1]); ``epsilon``
    the share of random moves in rollouts.  ``model_opponents``: True makes the
    other players follow the rollout policy inside the tree as well (an
    opponent model: only the decider's own moves are searched), False searches
    their moves too; the default (None) models them in games of three or more
    players and searches them in two-player games.
    """

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        seed: int = 0,
        exploration: float = 1.0,
        epsilon: float = 0.1,
        model_opponents: bool | None = None,
        bot_time: float | None = DEFAULT_BOT_TIME,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.iterations = iterations
        #: the time a decision may take: the search stops there (at least one iteration)
        self.budget = Budget(bot_time)
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.epsilon = epsilon
        self.model_opponents = model_opponents
        self.name = "ismcts" if iterations == DEFAULT_ITERATIONS else f"ismcts:{iterations}"
        #: (mean reward in [0, 1], playouts) of the last choice's move, for hints
        self.last_estimate: tuple[float, int] | None = None

    # -- search --------------------------------------------------------------------------

    def _moves(self, s: State, seat: int, legal: list[Action], at_root: bool,
               want: bool) -> list[tuple[Any, Action]]:
        if isinstance(legal, PlaySets):  # many plays at once: the few a bot considers
            return [(a, a) for a in play_candidates(legal, s.tables, want)]
        if len(legal) == 1 or decision_kind(legal) != CARDS:
            return [(a, a) for a in legal]
        limit = ROOT_EXCHANGE_LIMIT if at_root else 0
        cands = exchange_candidates(s.hands[seat], legal, s.tables, want, limit=limit)
        if at_root and len(cands) == len(legal):
            return [(a, a) for a in cands]
        return [((a.verb, a.value.bit_count()), a) for a in cands]

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal
        if not isinstance(legal, PlaySets) and len(legal) == 1:
            return legal[0]
        rng = self.rng
        prof = game_profile(obs.game)
        want = prof.want_tricks
        root_seat = obs.seat
        root = _Node(root_seat)
        c = self.exploration
        eps = self.epsilon
        model = self.model_opponents if self.model_opponents is not None else obs.game.players > 2
        log = math.log
        sqrt = math.sqrt
        before: list[int] | None = None
        out_before: list[bool] = []
        root_moves: dict[Any, Action] = {}
        budget = self.budget
        budget.start()
        end = budget.deadline()
        clock = time.monotonic
        for i in range(self.iterations):
            if i and clock() >= end:
                budget.cuts += 1
                break
            s = sample_world(obs, rng)
            if before is None:
                before = s.scores
                out_before = s.out[:]
                root_moves = dict(self._moves(s, root_seat, legal_of(s), True, want))
            won = s.won
            hp = s.hands_played
            node = root
            path: list[_Node] = []
            at_root = True
            while not s.is_terminal and s.hands_played == hp:
                seat = s.current
                assert seat is not None
                legal_now = legal_of(s)  # the state's own list, and step() skips the checks:
                # every action here comes from it (the engine's work, not the API's)
                if model and seat != root_seat:
                    step(s, policy_action(s, legal_now, rng, want, eps))
                    continue
                moves = self._moves(s, seat, legal_now, at_root, want)
                at_root = False
                children = node.children
                untried = []
                best: _Node | None = None
                best_a: Action | None = None
                best_u = -1.0
                for key, a in moves:
                    ch = children.get(key)
                    if ch is None:
                        untried.append((key, a))
                        continue
                    ch.avail += 1
                    if not untried:
                        u = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                        if u > best_u:
                            best_u, best, best_a = u, ch, a
                if untried:
                    key, a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                    ch = _Node(seat)
                    children[key] = ch
                    step(s, a)
                    path.append(ch)
                    break
                assert best is not None and best_a is not None
                step(s, best_a)
                path.append(best)
                node = best
            while not s.is_terminal and s.hands_played == hp:
                step(s, policy_action(s, legal_of(s), rng, want, eps))
            rewards = hand_rewards(prof, before, out_before, s, won)
            for ch in path:
                ch.visits += 1
                ch.total += rewards[ch.seat]
        return self._pick(root, root_moves, legal)

    def _pick(self, root: _Node, root_moves: dict[Any, Action], legal: list[Action]) -> Action:
        """The root's most visited move (ties: the higher total); its estimate is kept."""
        pick, best_child = max(root.children.items(),
                               key=lambda kv: (kv[1].visits, kv[1].total))
        self.last_estimate = (best_child.total / max(1, best_child.visits), best_child.visits)
        got = root_moves.get(pick)
        return got if got is not None else legal[0]
