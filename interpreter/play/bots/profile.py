"""What a game rewards, learnt from the rules by a few random playouts.

Bots must work for any spec without knowing the game's name, so they need a
generic notion of "a good hand".  :func:`game_profile` plays a handful of
seeded random hands and measures three things:

* ``direction``: whether winners end with *higher* (+1) or *lower* (-1)
  ``end.score`` values than losers (0 when the scores do not tell);
* ``scale``: the typical (median) size of a seat's score change *in the
  winning direction* in one hand (failures can be far larger);
* ``trick_sign``: whether, among the players who took part in a hand's
  tricks, taking more tricks goes with better hands (+1, most games) or
  worse ones (-1, e.g. a misère reading); never -1 in a game with
  contracts for points, where the tricks carry the points.

When the scores do not follow the tricks taken in random play, each trick
adds one to a seat's hand value (``trick_weight``), except in a game with
contracts for points (random bids hide the points there: a trick worth a whole
``scale`` made the rollouts of an auction buy every contract, failing them).

:func:`hand_rewards` turns the end of a hand into a reward in [0, 1] per seat:
1 / 0 (shared on ties) when the match is over, else a squashed *relative*
value: the seat's score change in the winning direction (in units of
``scale``), minus a large penalty for being eliminated in the hand (plus the
tricks taken, signed, when the scores never move within a hand), compared
with the mean of the other seats still in.

>>> import spelbok
>>> p = game_profile(spelbok.load("example", players=2))
>>> p.direction, p.trick_sign
(-1, 1)
"""

from __future__ import annotations

import math
import random
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...engine.play_sets import PlaySets

if TYPE_CHECKING:
    from ...engine.game import Game
    from ...engine.state import State

ELIMINATION_PENALTY = 6.0
SPREAD = 3.0
TRICKS_IN_SCORE = 0.3


@dataclass(frozen=True)
class GameProfile:
    """Reward shape of one game (see the module doc)."""

    direction: int
    scale: float
    trick_sign: int
    scores_move: bool
    trick_weight: float = 0.0
    draw_from: dict[str, str] = field(default_factory=dict)

    @property
    def want_tricks(self) -> bool:
        """True unless taking tricks was seen to hurt."""
        return self.trick_sign >= 0


_CACHE: weakref.WeakKeyDictionary[Game, GameProfile] = weakref.WeakKeyDictionary()


def game_profile(game: Game) -> GameProfile:
    """The (cached) reward profile of ``game``; deterministic for a given game.

    >>> import spelbok
    >>> game_profile(spelbok.load("example", players=3)).draw_from["swap"]
    'turn_up'
    """
    prof = _CACHE.get(game)
    if prof is None:
        prof = _measure(game)
        _CACHE[game] = prof
    return prof


def _sign(x: float, tol: float) -> int:
    return 0 if abs(x) <= tol else (1 if x > 0 else -1)


def _corr(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    if n < 3:
        return 0.0
    mx = sum(xs) / n
    my = sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return 0.0
    return sxy / math.sqrt(sxx * syy)


def _measure(game: Game, matches: int = 24, hands: int = 12) -> GameProfile:
    prog = game.program
    draw_from = prog.exchange_draws()
    rng = random.Random(20240611)
    n = game.players
    records: list[tuple[int, int, bool]] = []  # (tricks, score change, eliminated)
    trick_records: list[tuple[int, int, bool]] = []  # the same, for players who played tricks
    win_scores: list[float] = []
    lose_scores: list[float] = []
    for m in range(matches):
        st = game.new_state(seed=7919 * (m + 1))
        for _ in range(hands):
            if st.is_terminal:
                break
            before = st.scores
            out_before = st.out[:]
            won = st.won  # these lists keep the hand's counts after the hand ends
            tricks_seen = st.history_tricks
            hp = st.hands_played
            while not st.is_terminal and st.hands_played == hp:
                legal = st.legal_actions()
                # a lazy set of plays (thousands in a long hand) picks without listing
                st.apply(legal.pick(rng) if isinstance(legal, PlaySets) else rng.choice(legal))
            after = st.scores
            in_tricks = {p for _lead, cards, _w in tricks_seen for p, _c in cards}
            for p in range(n):
                if not out_before[p]:
                    rec = (won[p], after[p] - before[p], st.out[p])
                    records.append(rec)
                    if p in in_tricks:
                        trick_records.append(rec)
        if st.is_terminal:
            winners = st.winner_seats
        else:
            winners = [p for p in range(n) if prog.winners_fn(st, p)]
        if 0 < len(winners) < n:
            sc = st.scores
            win_scores.extend(sc[p] for p in winners)
            lose_scores.extend(sc[p] for p in range(n) if p not in winners)
    changes = [d for _, d, _ in records if d]
    scores_move = bool(changes)
    direction = 0
    if win_scores and lose_scores:
        diff = sum(win_scores) / len(win_scores) - sum(lose_scores) / len(lose_scores)
        direction = _sign(diff, 1e-9)
    good = sorted(abs(d) for d in changes if d * direction > 0) or sorted(abs(d) for d in changes)
    scale = max(1.0, float(good[len(good) // 2])) if good else 1.0
    values = [direction * d / scale - (ELIMINATION_PENALTY if out else 0.0)
              for _, d, out in trick_records]
    tricks = [float(t) for t, _, _ in trick_records]
    trick_sign = _sign(_corr(tricks, values), 0.05)
    kept = [(float(t), float(direction * d)) for t, d, out in trick_records if not out]
    in_score = abs(_corr([t for t, _ in kept], [d for _, d in kept])) if kept else 0.0
    trick_weight = 0.0 if in_score > TRICKS_IN_SCORE else float(trick_sign)
    if any(c.points for c in prog.contracts):
        # contracts for points: the points in the tricks make the score, whatever
        # random bids (failed contracts, thrown-in deals) hide of it; tricks count
        # for nothing by themselves, and taking them never hurts by itself
        trick_weight = 0.0
        trick_sign = max(trick_sign, 0)
    return GameProfile(direction, scale, trick_sign, scores_move, trick_weight, draw_from)


def hand_rewards(
    prof: GameProfile,
    before: list[int],
    out_before: list[bool],
    st: State,
    won: list[int],
) -> list[float]:
    """Reward in [0, 1] for every seat after a hand (or the match) has ended.

    ``before`` and ``out_before`` are the scores and eliminations when the
    hand (or the search) started, ``won`` the hand's trick counts.
    """
    n = st.n
    if st.is_terminal:
        w = st.winner_seats
        share = 1.0 / len(w) if w else 0.0
        return [share if p in w else 0.0 for p in range(n)]
    after = st.scores
    d = prof.direction
    inv = 1.0 / prof.scale
    trick_w = prof.trick_weight
    out = st.out
    values = []
    for p in range(n):
        v = d * (after[p] - before[p]) * inv
        if out[p] and not out_before[p]:
            v -= ELIMINATION_PENALTY
        if trick_w:
            v += trick_w * won[p]
        values.append(v)
    live = [p for p in range(n) if not out_before[p]]
    total = sum(values[p] for p in live)
    k = len(live)
    rewards = []
    for p in range(n):
        if k > 1 and not out_before[p]:
            rel = values[p] - (total - values[p]) / (k - 1)
        else:
            rel = values[p]
        rewards.append(0.5 + 0.5 * math.tanh(rel / SPREAD))
    return rewards
