"""Train a small agent on Knektpass through the PettingZoo environment, then show that it
beats random play, with a significance test.

    pip install '.[rl]'    # from the checkout
    python examples/train_knektpass.py                 # a few CPU minutes
    python examples/train_knektpass.py --episodes 2000 --games 500   # a quick look

The agent is a linear softmax policy over the observation vector, restricted to the legal
actions by the mask, trained by REINFORCE (with a running-mean baseline) against random
opponents, one hand a match (``max_hands=1``: the lowest score after the hand wins, +1;
the others get -1).  Then it plays ``--games`` matches against random opponents, in a
seat that turns with the seed, and a random player plays the same matches in its place;
a one-sided two-proportion z-test says whether the agent wins more often.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
from spelbok.rl.pettingzoo import env


def features(obs: np.ndarray) -> np.ndarray:
    """The observation squashed into -1..1 (scores and counts are large numbers)."""
    x = obs / (1.0 + np.abs(obs))
    return np.append(x, 1.0)  # a bias


class Policy:
    """A linear softmax over the legal actions."""

    def __init__(self, n_features: int, n_actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((n_actions, n_features))
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ x
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        p = self.probs(x, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))


def play(e, seed: int, seat: int, policy: Policy | None, rng: random.Random,
         trace: list[tuple[np.ndarray, np.ndarray, int]] | None = None,
         greedy: bool = False) -> float:
    """One match; ``policy`` (None: random) plays ``seat``, random plays the others.
    Returns the seat's reward."""
    e.reset(seed=seed)
    me = e.possible_agents[seat]
    total = 0.0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if agent == me:
            total += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        if agent == me and policy is not None:
            x = features(obs["observation"])
            a = policy.act(x, mask, greedy)
            if trace is not None:
                trace.append((x, mask, a))
        else:
            a = rng.choice(np.flatnonzero(mask).tolist())
        e.step(a)
    return total


def train(e, policy: Policy, episodes: int, lr: float, rng: random.Random) -> None:
    baseline = 0.0
    t0 = time.time()
    wins = 0
    for ep in range(episodes):
        seat = ep % e.game.players
        trace: list[tuple[np.ndarray, np.ndarray, int]] = []
        g = play(e, 1_000_000 + ep, seat, policy, rng, trace)
        wins += g > 0
        advantage = g - baseline
        baseline += 0.01 * (g - baseline)
        for x, mask, a in trace:
            p = policy.probs(x, mask)
            grad = -p
            grad[a] += 1.0
            policy.w += lr * advantage * np.outer(grad, x)
        if (ep + 1) % 1000 == 0:
            print(f"  episode {ep + 1}: won {wins / 1000:.1%} of the last 1000 "
                  f"({time.time() - t0:.0f} s)")
            wins = 0


def z_test(wins_a: int, wins_b: int, n: int) -> tuple[float, float]:
    """One-sided two-proportion z-test that A wins more often than B: (z, p-value)."""
    pa, pb = wins_a / n, wins_b / n
    pooled = (wins_a + wins_b) / (2 * n)
    se = math.sqrt(pooled * (1 - pooled) * 2 / n) or 1e-12
    z = (pa - pb) / se
    return z, 0.5 * math.erfc(z / math.sqrt(2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--episodes", type=int, default=10000, help="training matches")
    ap.add_argument("--games", type=int, default=2000, help="evaluation matches")
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    e = env("knektpass", players=args.players, max_hands=1)
    e.reset(seed=0)
    obs, *_ = e.last()
    n_features = len(obs["observation"]) + 1
    policy = Policy(n_features, int(e.action_space(e.agent_selection).n),
                    np.random.default_rng(args.seed))
    rng = random.Random(args.seed)
    print(f"training on Knektpass, {args.players} players, one hand a match, "
          f"{args.episodes} matches against random")
    train(e, policy, args.episodes, args.lr, rng)
    agent = baseline = 0
    for k in range(args.games):
        seat = k % args.players
        agent += play(e, k, seat, policy, random.Random(k), greedy=True) > 0
        baseline += play(e, k, seat, None, random.Random(k)) > 0
    z, p = z_test(agent, baseline, args.games)
    print(f"against random, over {args.games} matches: the agent wins {agent / args.games:.1%}, "
          f"a random player in its seat {baseline / args.games:.1%}")
    print(f"one-sided two-proportion z-test: z = {z:.2f}, p = {p:.2g}"
          + (" (significant at 1%)" if p < 0.01 else ""))


if __name__ == "__main__":
    main()
