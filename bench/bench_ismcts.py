"""How fast the ``ismcts`` bot thinks: its moves per second, the engine decisions per
second inside its search, and the time a human waits for its move in ``spelbok play``.

    python bench/bench_ismcts.py                       # Knektpass 4 players, ismcts:200
    python bench/bench_ismcts.py --bot ismcts:500 --moves 40
    SPELBOK_PURE=1 python bench/bench_ismcts.py        # the engine's Python sources

Seat 0 is the search bot, the other seats play at random; over seeded matches, every
move seat 0 must think about (one legal action: no search, no wait) is timed as
``spelbok play`` makes it, ``bot.choose(observe(state, seat))``, in CPU time and wall
time (on a loaded machine the wall time is mostly waiting for a core).  The engine decisions are the actions applied inside the search (its tree walk
and rollouts), counted in a pass of their own from the histories of its sampled worlds.  The figures: moves per second (CPU time, the best of ``--rounds`` passes over the same
moves, and the median), the time of a move (CPU and wall: median, 90th percentile and
worst over all passes), engine decisions per second (CPU).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import spelbok
from spelbok.engine.observe import Observation, observe
from spelbok.engine.state import State
from spelbok.play.bots import ismcts, make_bot

ROOT = Path(__file__).resolve().parent.parent


def positions(game: spelbok.Game, moves: int, seed: int) -> list[State]:
    """States where seat 0 has a real choice, from random matches (seeds seed, seed+1…)."""
    rng = random.Random(seed)
    out: list[State] = []
    i = seed
    while len(out) < moves:
        st = game.new_state(seed=i)
        i += 1
        while not st.is_terminal and len(out) < moves:
            legal = st.legal_actions()
            if st.current == 0 and len(legal) > 1 and rng.random() < 0.5:
                out.append(st.clone())
            st.apply(rng.choice(legal))
    return out


def search_decisions(bot_name: str, states: list[State]) -> int:
    """The actions applied inside the searches of ``states`` (tree walk and rollouts): each
    sampled world's history beyond the real one's, summed.  A pass of its own, since
    reading the histories costs; the count is the same every pass (seeded worlds)."""
    worlds: list[tuple[State, int]] = []
    sample = ismcts.sample_world

    def kept(obs: Observation, rng: random.Random) -> State:
        s = sample(obs, rng)
        worlds.append((s, len(s.actions)))
        return s

    ismcts.sample_world = kept  # type: ignore[assignment]
    try:
        one_pass(bot_name, states)
    finally:
        ismcts.sample_world = sample
    return sum(len(s.actions) - k for s, k in worlds)


def one_pass(bot_name: str, states: list[State]) -> tuple[list[float], list[float]]:
    """Each move's CPU time and wall time."""
    cpu, wall = [], []
    for k, st in enumerate(states):
        bot = make_bot(bot_name, seed=k, bot_time=None)  # the whole search: its cost is measured
        c0, t0 = time.process_time(), time.perf_counter()
        bot.choose(observe(st, 0))
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    return cpu, wall


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"median {statistics.median(xs) * 1000:5.0f} ms, 90% {xs[int(0.9 * (len(xs) - 1))] * 1000:5.0f}"
            f" ms, worst {xs[-1] * 1000:5.0f} ms")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default="knektpass")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="ismcts:200")
    ap.add_argument("--moves", type=int, default=24, help="moves of seat 0 timed per pass")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    game = spelbok.load(args.spec, players=args.players)
    states = positions(game, args.moves, args.seed)
    engine_decisions = search_decisions(args.bot, states)
    totals, cpu, wall = [], [], []
    for _ in range(args.rounds):
        c, w = one_pass(args.bot, states)
        totals.append(sum(c))
        cpu += c
        wall += w
    hot = "compiled (mypyc)" if spelbok.COMPILED else "pure Python"
    best, median = min(totals), statistics.median(totals)
    print(f"python {sys.version.split()[0]}, spelbok hot path {hot}; {game.name} "
          f"{args.players} players, {args.bot} at seat 0, {args.moves} moves x {args.rounds} passes")
    print(f"moves/s (CPU) {args.moves / best:6.2f} best pass ({args.moves / median:5.2f} median)")
    print(f"a move's CPU time:  {_ms(cpu)}")
    print(f"a move's wall time: {_ms(wall)}  (what a human waits)")
    print(f"engine decisions in the search: {engine_decisions / args.moves:6.0f} a move, "
          f"{engine_decisions / best / 1000:6.1f} k/s best ({engine_decisions / median / 1000:5.1f} k)")


if __name__ == "__main__":
    main()
