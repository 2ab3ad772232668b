"""Bot strength: does ismcts beat greedy and random, and greedy beat random?

Run by hand (not in CI); it takes minutes::

    python bench/strength.py                        # every setting and pairing
    python bench/strength.py --games 200 --jobs 4   # more matches, more processes
    python bench/strength.py --only knektpass-2 --pairs ismcts-greedy

Settings: 2-player Knektpass (matches cut at ``--max-hands`` hands, 20 by
default, the winner then being whoever has the lowest score, as the spec's
``end.winners`` says: full matches between two careful bots can run to
hundreds of hands), and 4-player Knock-out Whist (whole matches: at most
seven hands).  In each match the two bots hold alternate seats (A B or
A B A B) and swap seats from one match to the next.  A match counts for A
when every winner is an A seat, for B when every winner is a B seat, else it
is a tie.  The p-value is a two-sided exact sign test on the decided
matches; a pairing passes when A wins more and p < 0.01.

Every match is seeded by (``--seed``, match index), so a run repeats exactly
whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from dataclasses import dataclass
from typing import Any

SETTINGS = {
    "knektpass-2": ("knektpass", 2),
    "knockout-whist-4": ("knockout-whist", 4),
}
PAIRS = [("ismcts", "random"), ("ismcts", "greedy"), ("greedy", "random")]
# matches per pairing unless --games says otherwise: between two sound players
# much is luck (ismcts takes about 60 % of the Knektpass matches and 56 % of
# the Knock-out Whist ones from greedy), so those pairings need more matches
DEFAULT_GAMES = {("knockout-whist-4", "ismcts", "greedy"): 1000,
                 ("knektpass-2", "ismcts", "greedy"): 300}
DEFAULT_GAMES_OTHERWISE = 100


@dataclass
class Result:
    a_wins: int = 0
    b_wins: int = 0
    ties: int = 0
    hands: int = 0
    seconds: float = 0.0


_GAMES: dict[tuple[str, int, int | None], Any] = {}


def _game(spec: str, players: int, max_hands: int | None) -> Any:
    import spelbok

    key = (spec, players, max_hands)
    if key not in _GAMES:
        _GAMES[key] = spelbok.load(spec, players=players, max_hands=max_hands)
    return _GAMES[key]


def play_one(job: tuple[str, int, int | None, str, str, int, int]) -> tuple[str, int, float]:
    """One match: returns ("a" | "b" | "tie", hands played, seconds)."""
    from spelbok.play.bots import make_bot
    from spelbok.play.match import bot_seed, match_seed, play_match

    spec, players, max_hands, a, b, seed, index = job
    game = _game(spec, players, max_hands)
    names = [a if (seat + index) % 2 == 0 else b for seat in range(players)]
    # no time budget: a strength figure must not depend on the machine's speed
    bots = [make_bot(n, bot_seed(seed, index, s), bot_time=None) for s, n in enumerate(names)]
    t = time.perf_counter()
    final = play_match(game, bots, match_seed(seed, index))
    took = time.perf_counter() - t
    sides = {names[w] == a for w in final.winners}
    outcome = "a" if sides == {True} else "b" if sides == {False} else "tie"
    return outcome, final.hands_played, took


def run_pairing(spec: str, players: int, max_hands: int | None, a: str, b: str,
                games: int, seed: int, pool: mp.pool.Pool | None) -> Result:
    jobs = [(spec, players, max_hands, a, b, seed, i) for i in range(games)]
    res = Result()
    results = pool.imap_unordered(play_one, jobs) if pool else map(play_one, jobs)
    for outcome, hands, took in results:
        if outcome == "a":
            res.a_wins += 1
        elif outcome == "b":
            res.b_wins += 1
        else:
            res.ties += 1
        res.hands += hands
        res.seconds += took
    return res


def main(argv: list[str] | None = None) -> int:
    from spelbok.analysis.simulate import binomial_sign_p, wilson

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None,
                    help="matches per pairing (default 100; ismcts vs greedy: 300 in "
                         "Knektpass, 1000 in Knock-out Whist)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=mp.cpu_count())
    ap.add_argument("--max-hands", type=int, default=20,
                    help="hand limit for Knektpass matches (default 20)")
    ap.add_argument("--ismcts", default="ismcts", help="the ismcts bot name, e.g. ismcts:400")
    ap.add_argument("--only", choices=sorted(SETTINGS), action="append")
    ap.add_argument("--pairs", action="append",
                    help="pairings to run, e.g. ismcts-greedy (default: all three)")
    args = ap.parse_args(argv)

    pairs = [tuple(p.split("-", 1)) for p in args.pairs] if args.pairs else PAIRS
    pairs = [(args.ismcts if a == "ismcts" else a, args.ismcts if b == "ismcts" else b)
             for a, b in pairs]
    settings = args.only or list(SETTINGS)
    print(f"spelbok bot strength: seed {args.seed}, {args.jobs} processes, "
          f"Knektpass matches cut at {args.max_hands} hands")
    print(f"{'setting':<18} {'A vs B':<20} {'A':>5} {'B':>5} {'tie':>4} "
          f"{'A share':>8} {'95% CI':>15} {'p (sign)':>10} {'hands':>6} {'s/match':>8}")
    ok = True
    ctx = mp.get_context("spawn")
    with ctx.Pool(args.jobs) if args.jobs > 1 else _NoPool() as pool:
        for name in settings:
            spec, players = SETTINGS[name]
            limit = args.max_hands if spec == "knektpass" else None
            for a, b in pairs:
                games = args.games or DEFAULT_GAMES.get(
                    (name, a.split(":")[0], b.split(":")[0]), DEFAULT_GAMES_OTHERWISE)
                r = run_pairing(spec, players, limit, a, b, games, args.seed,
                                pool if args.jobs > 1 else None)
                decided = r.a_wins + r.b_wins
                p = binomial_sign_p(r.a_wins, r.b_wins)
                lo, hi = wilson(r.a_wins, decided)
                share = r.a_wins / decided if decided else 0.0
                passed = r.a_wins > r.b_wins and p < 0.01
                ok &= passed
                print(f"{name:<18} {a + ' vs ' + b:<20} {r.a_wins:>5} {r.b_wins:>5} "
                      f"{r.ties:>4} {share:>8.1%} {f'[{lo:.1%}, {hi:.1%}]':>15} {p:>10.2g} "
                      f"{r.hands / games:>6.1f} {r.seconds / games:>8.2f}"
                      f"  {'ok' if passed else 'NOT SIGNIFICANT'}", flush=True)
    return 0 if ok else 1


class _NoPool:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


if __name__ == "__main__":
    sys.exit(main())
