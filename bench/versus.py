"""Two installs of spelbok side by side: the same fixed workload, interleaved.

    python bench/versus.py OLD_PYTHON NEW_PYTHON [--rounds 9]

Each python is an interpreter with a spelbok installed (e.g. a venv built from
the previous commit and one from this one). Every round runs, in a fresh child
process of each (alternately, so that drift of the machine's speed hits both
alike), the same seeded random playouts through the public API, and reads the
child's CPU time. Prints the best and the median decisions/s of each side and
their ratios (new / old), and the median ratio of the paired runs of a round. Run by hand, not in CI: this machine's speed moves by
up to ±40 % from minute to minute, which single runs of bench.py cannot hide.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess

CASES = (("knektpass", 2, 30), ("knektpass", 4, 15), ("knockout-whist", 4, 200),
         ("knockout-whist", 7, 150))

CHILD = """
import random, sys, time, spelbok
spec, players, matches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = spelbok.load(spec, players=players)
rng = random.Random(1)
decisions = 0
c0 = time.process_time()
for seed in range(matches):
    state = game.new_state(seed=seed)
    legal, apply, choice = state.legal_actions, state.apply, rng.choice
    while not state.is_terminal:
        apply(choice(legal()))
        decisions += 1
print(decisions, time.process_time() - c0, spelbok.COMPILED)
"""


def run(python: str, spec: str, players: int, matches: int) -> tuple[int, float, str]:
    out = subprocess.run([python, "-c", CHILD, spec, str(players), str(matches)],
                         capture_output=True, text=True, check=True, cwd="/").stdout.split()
    return int(out[0]), float(out[1]), out[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--only", default="", help="run only the cases whose spec name contains this")
    args = ap.parse_args()
    for spec, players, matches in CASES:
        if args.only not in spec:
            continue
        rates: dict[str, list[float]] = {"old": [], "new": []}
        checks: dict[str, int] = {}
        for _ in range(args.rounds):
            for side in ("old", "new"):
                n, secs, compiled = run(getattr(args, side), spec, players, matches)
                checks[side] = n
                rates[side].append(n / secs)
        same = "same decisions" if checks["old"] == checks["new"] else "DIFFERENT decisions"
        # each round's two runs are adjacent: their ratio cancels most of the drift
        paired = statistics.median(n / o for o, n in zip(rates["old"], rates["new"]))
        best = {k: max(v) for k, v in rates.items()}
        med = {k: statistics.median(v) for k, v in rates.items()}
        print(f"{spec} {players}p ({matches} matches, {same}, compiled={compiled}): "
              f"old {best['old'] / 1e3:.1f} k/s (median {med['old'] / 1e3:.1f}), "
              f"new {best['new'] / 1e3:.1f} k/s (median {med['new'] / 1e3:.1f}); "
              f"new/old best {best['new'] / best['old']:.3f}, median {med['new'] / med['old']:.3f}, "
              f"median of paired rounds {paired:.3f}")


if __name__ == "__main__":
    main()
