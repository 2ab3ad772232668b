"""Simulation scaling and memory (run by hand, not in CI; a few minutes).

    python bench/scaling.py            # 4 000 matches for the timing, 10 000 for memory
    python bench/scaling.py --quick    # 800 and 2 000

Runs ``spelbok simulate knektpass --players 4 --bots random --max-hands 20``
in fresh processes: with ``--jobs 1`` and ``--jobs 2``, three times each
(the best wall time of each, the speed-up, and whether all the JSON results
are identical), then once more with
the larger number of matches to report the peak resident memory of the
process and its workers (``ru_maxrss`` of the children).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

BASE = [sys.executable, "-m", "spelbok.cli.main", "simulate", "knektpass", "--players", "4",
        "--bots", "random", "--seed", "1", "--max-hands", "20", "--json", "--no-progress"]


def run(games: int, jobs: int) -> tuple[float, dict[str, object]]:
    t0 = time.perf_counter()
    out = subprocess.run([*BASE, "--games", str(games), "--jobs", str(jobs)],
                         check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    games, big = (800, 2000) if args.quick else (4000, 10000)
    # each setting three times, alternating, keeping the fastest (other load only slows a run)
    runs1, runs2 = [], []
    for _ in range(3):
        runs1.append(run(games, 1))
        runs2.append(run(games, 2))
    t1, t2 = min(t for t, _ in runs1), min(t for t, _ in runs2)
    same = all(r == runs1[0][1] for _, r in runs1 + runs2)
    print(f"{games} matches: --jobs 1 {t1:.1f} s, --jobs 2 {t2:.1f} s, best of 3 "
          f"({t1 / t2:.2f}x), results identical: {same}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t3, _ = run(big, 1)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    note = "" if peak > before else " (no higher than the earlier runs)"
    print(f"{big} matches, --jobs 1: {t3:.1f} s, peak resident memory {peak / 1024:.0f} MB{note}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
