"""Throughput of the PettingZoo environment beside the raw API (run by hand, not in CI).

    python bench/bench_rl.py            # every case, ~2 minutes
    python bench/bench_rl.py --quick    # fewer matches and passes
    python bench/bench_rl.py --only oh-hell-4,bridge-4   # some cases
    python bench/bench_rl.py --profile oh-hell-4   # where an env step spends its time
    python bench/bench_rl.py --parts oh-hell-4     # µs of each part of a step

Needs the extra ``rl``.  Per case (spec and player count), random play of the same
matches (seeds 0, 1, 2...) three ways, CPU time, five passes (a raw pass and the env
passes in turn):

- ``raw``: ``state.legal_actions()`` and ``state.apply()``, decisions/s (as bench.py),
  the best pass;
- ``env``: the PettingZoo loop (``agent_iter``, ``last()``, a random legal action from
  the observation's mask, ``step``), env steps/s; an exchange or a pass of cards is
  one step per card given and a stop, so a match has more env steps than decisions.  ``dec/s``
  beside it counts the engine decisions those steps made (both the best pass).  The
  agent reads the mask with ``rng.choice(mask.nonzero()[0])``;
- ``ratio``: raw decisions/s over env steps/s, the median over the passes of the ratio
  within each pass (a shared machine's rates move ±30 % between runs; a pass's raw and
  env runs are seconds apart); the target is at most 2;
- ``flat``: the same ratio when the agent reads the mask with the slower common idiom
  ``rng.choice(np.flatnonzero(mask).tolist())`` (2-3 µs more a step, in numpy);
- ``vec``: the same ratio through the batched environment (``spelbok.rl.vector``,
  ``--vector`` matches a call, 64 by default, 0 to leave it out), as many env steps as
  the raw run's decisions; the agent picks a random legal action of every row at once
  (``(mask + 0.5 * rng.random(mask.shape)).argmax(axis=1)``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import spelbok
from spelbok.rl.encoding import Encoding, Match
from spelbok.rl.pettingzoo import env
from spelbok.rl.vector import VectorEnv

from bench import playouts  # bench/ is the script's folder, so on sys.path

CASES = [("knektpass", 3), ("knektpass", 5), ("euchre", 4), ("oh-hell", 4), ("rams", 3),
         ("knockout-whist", 4), ("hearts", 4), ("spades", 4), ("bridge", 4), ("belote", 4),
         ("schnapsen", 2), ("briscola", 2), ("tute", 2)]


def raw(game: spelbok.Game, matches: int) -> tuple[int, float]:
    """Decisions and CPU seconds of ``matches`` random matches through the public API
    (bench.py's workload: seeds 0, 1, 2…, seeded choices)."""
    _, decisions, seconds = playouts(game, 0, False, matches=matches)
    return decisions, seconds


def through_env(spec: str, players: int, max_hands: int | None, matches: int,
                flat: bool = False) -> tuple[int, int, float]:
    e = env(spec, players=players, max_hands=max_hands)
    rng = random.Random(1)
    steps = decisions = 0
    c0 = time.process_time()
    for seed in range(matches):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            if flat:
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            else:
                e.step(rng.choice(obs["action_mask"].nonzero()[0]))
            steps += 1
        assert e.match is not None
        decisions += len(e.match.st.actions)
    return steps, decisions, time.process_time() - c0


def through_vector(spec: str, players: int, max_hands: int | None, steps: int,
                   num_envs: int) -> tuple[int, float]:
    """Env steps and CPU seconds of at least ``steps`` steps of random play through the
    batched environment, ``num_envs`` matches a call."""
    v = VectorEnv(spec, num_envs=num_envs, players=players, max_hands=max_hands, seed=0)
    rng = np.random.default_rng(1)
    done = 0
    c0 = time.process_time()
    _obs, mask, _seat = v.reset()
    while done < steps:
        _obs, mask, _seat, _r, _te, _tr = v.step(
            (mask + 0.5 * rng.random(mask.shape)).argmax(axis=1))
        done += num_envs
    return done, time.process_time() - c0


def parts(spec: str, players: int, max_hands: int | None, matches: int) -> None:
    """Print the CPU µs of each part of an env step, over the states of random matches:
    the engine's legal actions, their numbers, the mask and the observation vector."""
    game = spelbok.load(spec, players=players, max_hands=max_hands)
    enc = Encoding(game)
    rng = random.Random(1)
    states: list[Match] = []
    for seed in range(matches):
        m = Match(enc, game.new_state(seed=seed))
        while not m.st.is_terminal:
            states.append(m.clone())
            m.apply(rng.choice(m.legal()))
    work: list[tuple[str, Callable[[Match], object]]] = [
        ("state.legal_actions", lambda m: m.st.legal_actions()),
        ("Match.legal", lambda m: m.legal()),
        ("Encoding.mask", lambda m: enc.mask([0, 1, 2, 3, 4, 5])),
        ("Match.observation", lambda m: m.observation(m.st.current or 0)),
    ]
    for label, fn in work:
        best = float("inf")
        for _ in range(7):
            c0 = time.process_time()
            for m in states:
                fn(m)
            best = min(best, time.process_time() - c0)
        print(f"{label:20} {best / len(states) * 1e6:7.2f} µs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer matches")
    ap.add_argument("--passes", type=int, default=None,
                    help="passes per case, for the median ratio (default 5; --quick 3)")
    ap.add_argument("--max-hands", type=int, default=20,
                    help="hands per match (the spec's bound when 0)")
    ap.add_argument("--vector", type=int, default=64, metavar="N",
                    help="matches a call of the batched environment (0: leave it out)")
    ap.add_argument("--only", metavar="SPEC-N,...", help="these cases only (e.g. bridge-4)")
    ap.add_argument("--profile", metavar="SPEC-N", help="cProfile the env loop of one case")
    ap.add_argument("--parts", metavar="SPEC-N", help="time each part of a step of one case")
    args = ap.parse_args()
    matches = 5 if args.quick else 20
    if args.passes is None:
        args.passes = 3 if args.quick else 5
    max_hands = args.max_hands or None
    if args.parts:
        spec, _, n = args.parts.rpartition("-")
        parts(spec, int(n), max_hands, matches)
        return
    if args.profile:
        import cProfile
        import pstats

        spec, _, n = args.profile.rpartition("-")
        through_env(spec, int(n), max_hands, 1)  # load and warm up outside the profile
        prof = cProfile.Profile()
        prof.runcall(through_env, spec, int(n), max_hands, matches)
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
        return
    print(f"spelbok {'compiled' if spelbok.COMPILED else 'pure Python'}; {matches} matches of "
          f"at most {max_hands or 'the spec´s'} hands, CPU time, median ratio of "
          f"{args.passes} passes")
    print(f"{'case':18} {'raw dec/s':>10} {'env steps/s':>12} {'env dec/s':>10} {'ratio':>6} "
          f"{'flat':>6} {'vec':>6}")
    cases = CASES
    if args.only:
        wanted = args.only.split(",")
        cases = [(spec, n) for spec, n in CASES if f"{spec}-{n}" in wanted]
        if len(cases) != len(wanted):
            ap.error(f"--only: the cases are {', '.join(f'{s}-{n}' for s, n in CASES)}")
    ratios: list[float] = []
    vecs: list[float] = []
    for spec, n in cases:
        game = spelbok.load(spec, players=n, max_hands=max_hands)
        # raw and env runs taken in turn, so that a busy moment of a shared machine
        # weighs on both alike: each pass's ratio is of runs a few seconds apart, and the
        # median pass is reported (the rates are each the best pass's)
        raws, runs, ratio, flat, vec = [], [], [], [], []
        for _ in range(args.passes):
            raws.append(raw(game, matches))
            runs.append(through_env(spec, n, max_hands, matches))
            s, _, t = through_env(spec, n, max_hands, matches, flat=True)
            d, rt = raws[-1]
            ratio.append((d / rt) / (runs[-1][0] / runs[-1][2]))
            flat.append((d / rt) / (s / t))
            if args.vector:
                vs, vt = through_vector(spec, n, max_hands, d, args.vector)
                vec.append((d / rt) / (vs / vt))
        best_raw = max(d / t for d, t in raws)
        best_steps = max(s / t for s, _, t in runs)
        best_dec = max(d / t for _, d, t in runs)
        r, f = statistics.median(ratio), statistics.median(flat)
        ratios.append(r)
        if vec:
            vecs.append(statistics.median(vec))
        print(f"{spec + '-' + str(n):18} {best_raw:10.0f} {best_steps:12.0f} {best_dec:10.0f} "
              f"{r:6.2f} {f:6.2f} {statistics.median(vec) if vec else float('nan'):6.2f}")
    for label, got in (("ratio", ratios), ("vec", vecs)):
        if got:
            got.sort()
            print(f"{label}: median {got[len(got) // 2]:.2f}, range {got[0]:.2f}-{got[-1]:.2f}")


if __name__ == "__main__":
    main()
