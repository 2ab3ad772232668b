"""Cost of ``determinize()`` per call, over positions of random matches (run by hand).

    python bench/bench_determinize.py            # a few games, ~30 s
    python bench/bench_determinize.py --quick
    SPELBOK_PURE=1 python bench/bench_determinize.py

For each case it plays random matches, keeps the trick-play positions (all of them,
and apart those where a seat other than the player to act has shown a void), and
times ``state.determinize(player to act)`` over them: the mean µs per call, the
best of five passes.  It also counts the calls that needed the exact search (the
random greedy deals all missed): those are the tight positions, late in a hand
(from the sources only: a compiled build calls the search past the counter).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import spelbok
from spelbok.engine import observe
from spelbok.engine.tricks import TrickPlay

CASES = [("whist", 4), ("bridge", 4), ("hearts", 4), ("knektpass", 4), ("doppelkopf", 4),
         ("five-card-loo", 5), ("spoil-five", 10), ("skat", 3), ("euchre", 4)]


def positions(name: str, players: int, matches: int) -> list[Any]:
    game = spelbok.load(name, players=players, max_hands=3)
    rng = random.Random(1)
    out = []
    for m in range(matches):
        st = game.new_state(seed=m)
        steps = 0
        while not st.is_terminal and steps < 600:
            seat = st.current_player
            if seat is not None and isinstance(st.prog.code[st.pc], TrickPlay):
                out.append(st.clone())
            st.apply(rng.choice(st.legal_actions()))
            steps += 1
    return out


def timed(states: list[Any], repeat: int) -> float:
    """Mean µs per determinize() call: the best of five passes (CPU time)."""
    best = float("inf")
    for _ in range(5):
        rng = random.Random(0)
        t0 = time.process_time()
        for _ in range(repeat):
            for st in states:
                st.determinize(st.current_player, rng)
        best = min(best, (time.process_time() - t0) / (repeat * len(states)) * 1e6)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    matches, repeat = (3, 1) if args.quick else (8, 3)
    # counted by wrapping the search: a compiled build calls it directly, past the wrapper
    exact = None if spelbok.COMPILED else getattr(observe, "_deal_exact", None)
    calls = [0]
    if exact is not None:
        def counted(*a: Any) -> Any:
            calls[0] += 1
            return exact(*a)
        observe._deal_exact = counted  # type: ignore[attr-defined]
    print(f"spelbok from {spelbok.__file__}")
    print(f"{'case':<18} {'positions':>9} {'µs/call':>8} {'with voids':>10} {'µs/call':>8}"
          f" {'exact searches':>15}")
    for name, players in CASES:
        states = positions(name, players, matches)
        voids = [st for st in states
                 if any(v for p, v in enumerate(st.voids) if p != st.current_player)]
        calls[0] = 0
        all_us = timed(states, repeat)
        void_us = timed(voids, repeat) if voids else 0.0
        n_calls = 5 * repeat * (len(states) + len(voids))
        searched = f"{calls[0]}/{n_calls}" if exact is not None else "-"
        print(f"{name + ' ' + str(players):<18} {len(states):>9} {all_us:>8.1f} {len(voids):>10}"
              f" {void_us:>8.1f} {searched:>15}")


if __name__ == "__main__":
    main()
