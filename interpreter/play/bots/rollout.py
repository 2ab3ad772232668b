"""Rollouts to the end of a hand, and option evaluation from an observation.

>>> import random, spelbok
>>> from spelbok.engine.observe import observe
>>> from spelbok.play.bots.profile import game_profile
>>> game = spelbok.load("example", players=2)
>>> st = game.new_state(seed=5)
>>> obs = observe(st)
>>> values = evaluate_options(obs, obs.legal, random.Random(1), 4, game_profile(game))
>>> len(values) == len(obs.legal) and all(0.0 <= v <= 1.0 for v in values)
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...engine.auction import PASS, bid_action
from .heuristics import policy_action
from .profile import GameProfile, hand_rewards

if TYPE_CHECKING:
    from ...engine.actions import Action
    from ...engine.observe import Observation
    from ...engine.state import State
    from .budget import Budget

_SEED_BITS = 62


def sample_world(obs: Observation, rng: random.Random) -> State:
    """A determinized state for ``obs`` whose *future* shuffles are re-seeded too,
    so that nothing about later deals of the real match leaks into a search."""
    s = obs.sample(rng)
    s.seed = rng.getrandbits(_SEED_BITS)
    return s


def play_out_hand(
    st: State,
    rng: random.Random,
    want: bool,
    first: Action | None = None,
    epsilon: float = 0.0,
    quiet: frozenset[Action] = frozenset(),
) -> list[int]:
    """Apply ``first`` (if given), then play ``st`` with :func:`policy_action`
    until its hand (or the match) ends; returns the hand's trick counts.

    ``quiet``: bids (see :func:`quiet_bids`) at which every seat passes when it
    may, so that ``first`` stands (the contract a bid would buy) rather than
    random raises over it."""
    won = st.won  # the engine rebinds st.won at the next hand: this list keeps the counts
    hp = st.hands_played
    if first is not None:
        st.apply(first)
    while not st.is_terminal and st.hands_played == hp:
        legal = st.legal_actions()
        if quiet and PASS in legal and any(a in quiet for a in legal):
            st.apply(PASS)
            continue
        st.apply(policy_action(st, legal, rng, want, epsilon))
    if quiet and not st.is_terminal and not any(won):
        # thrown in (everybody passed): the next deal is the position the pass
        # leads to, played out with the ordinary rollouts (a throw-in is not a
        # neutral outcome near the end of a match: the bots passed forever there)
        won = st.won
        hp = st.hands_played
        while not st.is_terminal and st.hands_played == hp:
            st.apply(policy_action(st, st.legal_actions(), rng, want, epsilon))
    return won


def quiet_bids(obs: Observation, options: list[Action]) -> frozenset[Action]:
    """The bids of an auction for points whose rollouts end the auction at once.

    When ``options`` are ``pass`` and bids of contracts some of which aim at
    points (``contracts`` with ``points``), each option is played out as the
    contract it buys: after it every seat passes (a ``pass`` then leaves the
    auction as it stands, a throw-in when nobody bid).  With random bids
    after it instead, a bid is mostly overbid by a random bid that fails,
    and the top bid, which nobody can raise, looked best (the greedy bots bid
    the top of an auction and seldom made it).  Played out in the same worlds,
    a higher bid of the same play then weighs only its scoring.  Empty
    otherwise (the rollouts bid at random)."""
    prog = obs.game.program
    if not prog.contracts or PASS not in options:
        return frozenset()
    if not any(c.points for c in prog.contracts):
        return frozenset()
    bids = frozenset(bid_action(c.name) for c in prog.contracts)
    if not any(a in bids for a in options):
        return frozenset()
    return bids


def thin_quiet(obs: Observation, options: list[Action], keep: int) -> list[Action]:
    """At most ``keep`` bids of each kind among ``options`` (bids of :func:`quiet_bids`).

    Played out in the same worlds with the others passing, bids of one trump (and
    one aim: points, tricks, none) lead to the same play and differ only in their
    scoring: of each such run the lowest, the highest and evenly spaced ones between
    are kept, every other option (``pass``, doubles) too."""
    prog = obs.game.program
    by_action = {bid_action(c.name): c for c in prog.contracts}
    runs: dict[tuple[int, bool, bool], list[Action]] = {}
    for a in options:
        c = by_action.get(a)
        if c is not None:
            runs.setdefault((c.trump, c.points > 0, c.negative), []).append(a)
    kept: set[Action] = set()
    for run in runs.values():
        run.sort(key=lambda a: by_action[a].level)
        n = len(run)
        if n <= keep:
            kept.update(run)
        else:
            kept.update(run[round(i * (n - 1) / (keep - 1))] for i in range(keep))
    return [a for a in options if a not in by_action or a in kept]


def evaluate_options(
    obs: Observation,
    options: list[Action],
    rng: random.Random,
    samples: int,
    prof: GameProfile,
    epsilon: float = 0.0,
) -> list[float]:
    """Mean end-of-hand reward of each option for ``obs.seat`` over ``samples``
    determinizations (the same worlds and rollout seeds for every option)."""
    return [m for m, _ in option_stats(obs, options, rng, samples, prof, epsilon)]


def option_stats(
    obs: Observation,
    options: list[Action],
    rng: random.Random,
    samples: int,
    prof: GameProfile,
    epsilon: float = 0.0,
    budget: Budget | None = None,
    quiet: frozenset[Action] = frozenset(),
) -> list[tuple[float, float]]:
    """(mean, standard error) of each option's end-of-hand reward, as in
    :func:`evaluate_options`; when ``budget`` is spent after a round (every
    option played out in one more world), the rounds so far decide
    (``quiet``: see :func:`play_out_hand`)."""
    seat = obs.seat
    k = len(options)
    sums = [0.0] * k
    squares = [0.0] * k
    want = prof.want_tricks
    done = 0
    for _ in range(samples):
        if done and budget is not None and budget.spent():
            budget.cuts += 1
            break
        done += 1
        base = sample_world(obs, rng)
        before = base.scores
        out_before = base.out[:]
        rseed = rng.getrandbits(32)
        for j, a in enumerate(options):
            s = base.clone()
            won = play_out_hand(s, random.Random(rseed), want, first=a, epsilon=epsilon,
                               quiet=quiet)
            r = hand_rewards(prof, before, out_before, s, won)[seat]
            sums[j] += r
            squares[j] += r * r
    n = max(1, done)
    out = []
    for j in range(k):
        mean = sums[j] / n
        var = max(0.0, squares[j] / n - mean * mean) * n / max(1, n - 1)
        out.append((mean, (var / n) ** 0.5))
    return out
