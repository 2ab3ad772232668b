"""Throughput of random playouts through the public API (run by hand, not in CI).

    python bench/bench.py            # all cases, ~1 minute
    python bench/bench.py --quick    # fewer matches
    python bench/bench.py --profile knektpass-4   # where the time goes, by function
    SPELBOK_PURE=1 python bench/bench.py          # the same, on the Python sources

It measures whichever copy of the hot path is installed (the first line says
which): the mypyc-compiled one that `pip install` builds, or the sources.

Prints, per case: spec load time, matches/s, decisions/s (every action a
player takes, forced ones included; CPU time of this process; the best of
five passes over one fixed workload, with the median beside it) and peak
memory (tracemalloc, measured in a separate shorter run), then the
cost of clone() and determinize() on a mid-hand state, and the wall time of
`import spelbok` and `spelbok validate` in fresh processes.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import spelbok

ROOT = Path(__file__).resolve().parent.parent
KO = ROOT / "specs" / "knockout-whist.yaml"


REPEATS = 5  # each case plays one fixed workload this many times and keeps the best


def playouts(game: spelbok.Game, seconds: float, single_deal: bool,
             matches: int | None = None) -> tuple[int, int, float]:
    """Random playouts of seeds 0, 1, 2…: for ``seconds`` of CPU time, or exactly
    ``matches`` matches (the same actions every time: the choices are seeded too).
    Returns (matches, decisions, CPU seconds)."""
    rng = random.Random(1)
    done = decisions = 0
    c0 = time.process_time()
    while (done < matches) if matches is not None else (time.process_time() - c0 < seconds):
        state = game.new_state(seed=done)
        legal = state.legal_actions
        apply = state.apply
        choice = rng.choice
        while not state.is_terminal:
            apply(choice(legal()))
            decisions += 1
            if single_deal and state.hands_played:
                break
        done += 1
    return done, decisions, time.process_time() - c0


def case(label: str, spec: str | Path, players: int, seconds: float, single_deal: bool = False,
         max_hands: int | None = None) -> None:
    t0 = time.perf_counter()
    game = spelbok.load(spec, players=players, max_hands=max_hands)
    load_ms = (time.perf_counter() - t0) * 1000
    # the workload: as many matches as fill one slice; then the same matches again,
    # keeping the fastest pass (as timeit does: other load only ever slows a pass)
    m, d, dt = playouts(game, seconds / REPEATS, single_deal)
    times = [dt] + [playouts(game, 0, single_deal, matches=m)[2] for _ in range(REPEATS - 1)]
    best, median = min(times), sorted(times)[len(times) // 2]
    # memory in a separate, shorter run: tracemalloc slows Python down several times
    tracemalloc.start()
    playouts(game, min(1.0, seconds / 4), single_deal)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{label:<36} load {load_ms:6.1f} ms {m / best:9.1f} matches/s "
          f"{d / best / 1000:6.1f} k decisions/s (median {d / median / 1000:5.1f} k) "
          f"peak {peak / 1e6:5.2f} MB")


def mid_hand(game: spelbok.Game) -> spelbok.State:
    rng = random.Random(3)
    s = game.new_state(seed=3)
    while not (s.trick.cards and s.current_player is not None):
        s.apply(rng.choice(s.legal_actions()))
    return s


def micro(game: spelbok.Game, label: str) -> None:
    s = mid_hand(game)
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        s.clone()
    clone_us = (time.perf_counter() - t0) / n * 1e6
    rng = random.Random(0)
    seat = s.current_player or 0
    t0 = time.perf_counter()
    for _ in range(2000):
        s.determinize(seat, rng)
    det_us = (time.perf_counter() - t0) / 2000 * 1e6
    print(f"{label:<38} clone() {clone_us:6.2f} µs   determinize() {det_us:7.1f} µs")


def wall(cmd: list[str], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


PROFILES = {
    "knektpass-2": ("knektpass", 2), "knektpass-4": ("knektpass", 4),
    "knockout-whist-4": (KO, 4), "knockout-whist-7": (KO, 7),
}


def profile(name: str, seconds: float, top: int = 25) -> None:
    """cProfile over random whole matches: the functions that cost most (own time),
    and how many Python calls a decision makes."""
    import cProfile
    import pstats

    spec, players = PROFILES[name]
    game = spelbok.load(spec, players=players)
    prof = cProfile.Profile()
    prof.enable()
    _, decisions, _ = playouts(game, seconds, single_deal=False)
    prof.disable()
    stats = pstats.Stats(prof)
    calls = sum(v[1] for v in stats.stats.values())  # type: ignore[attr-defined]
    print(f"{name}: {decisions} decisions, {calls / decisions:.1f} calls per decision "
          "(cProfile slows everything down; compare shares, not times)")
    stats.sort_stats("tottime").print_stats(top)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--profile", choices=sorted(PROFILES),
                    help="instead of the benchmark, profile one case with cProfile")
    args = ap.parse_args()
    secs = 1.5 if args.quick else 5.0
    if args.profile:
        profile(args.profile, secs)
        return
    hot = "compiled (mypyc)" if spelbok.COMPILED else "pure Python (no compiled build, or SPELBOK_PURE)"
    print(f"python {sys.version.split()[0]}, hot path {hot}, {secs:.1f} s per case, "
          "uniform random legal actions")
    case("Knektpass 2p, single deals", "knektpass", 2, secs, single_deal=True)
    case("Knektpass 2p, whole matches", "knektpass", 2, secs)
    case("Knektpass 4p, single deals", "knektpass", 4, secs, single_deal=True)
    case("Knektpass 4p, whole matches", "knektpass", 4, secs)
    if KO.exists():
        case("Knock-out Whist 4p, whole matches", KO, 4, secs)
        case("Knock-out Whist 7p, whole matches", KO, 7, secs)
    micro(spelbok.load("knektpass", players=4), "Knektpass 4p mid-hand")
    if KO.exists():
        micro(spelbok.load(KO, players=4), "Knock-out Whist 4p mid-hand")
    imp = wall([sys.executable, "-c", "import spelbok"])
    print(f"import spelbok                          {imp:.3f} s wall (best of 5, includes interpreter start)")
    base = wall([sys.executable, "-c", "pass"])
    print(f"python -c pass                          {base:.3f} s wall (interpreter start alone)")
    val = wall([sys.executable, "-m", "spelbok.cli.main", "validate", str(ROOT / "specs" / "knektpass.yaml")], 3)
    print(f"spelbok validate specs/knektpass.yaml   {val:.3f} s wall (best of 3)")


if __name__ == "__main__":
    main()
