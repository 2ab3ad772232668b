"""spelbok against hand-written Python: the same games, the same random legal choices.

    python bench/reference.py              # both games, 5 interleaved rounds
    python bench/reference.py --rounds 9 --seconds 2
    SPELBOK_PURE=1 python bench/reference.py   # the engine's Python sources

Each game is written here a second time the way one would write it by hand for
speed: a tight loop over ints (card = suit * 13 + rank, hands as bitmasks), the
trump tables precomputed, every player choosing uniformly among the legal
moves, whole matches at the default readings of the shipped spec.  A round
times one fixed workload of each (the same matches, by seed), spelbok through
its public API (``legal_actions`` / ``apply``), then through its batched
playouts (``Game.playouts``: the same random legal choices, inside the engine),
and the reference, one after the other; the ratios are spelbok's decisions/s
over the reference's, best and median over the rounds.  A decision is every move a player makes, forced ones
included, on both sides.

The references follow the specs' rules (specs/knektpass.yaml and
specs/knockout-whist.yaml), not the engine's code: where a rules detail does
not change the amount of work (who cuts, which of two tied seats chooses) they
pick whatever is simplest.  They are a yardstick, not a second implementation
to compare transcripts with.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import spelbok

from bench import playouts  # bench/ is the script's folder, so on sys.path

ROOT = Path(__file__).resolve().parent.parent
JACK, TEN = 9, 8  # rank indexes: 2..A = 0..12


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _above(mask: int, power: list[int], target: int) -> int:
    out = 0
    while mask:
        low = mask & -mask
        if power[low.bit_length() - 1] > target:
            out |= low
        mask ^= low
    return out


# ---------------------------------------------------------------- Knektpass, 4 players


def _knekt_tables() -> list[tuple[list[int], list[int], list[int], int]]:
    """Per trump suit: effective suit, power, suit masks and trump mask for the 52 cards.
    The four jacks are the top trumps (C S H D) and belong to the trump suit."""
    out = []
    for t in range(4):
        suit = [c // 13 for c in range(52)]
        power = [(c % 13) + 1 for c in range(52)]
        for c in range(52):
            if c // 13 == t:
                power[c] += 100
        for i, s in enumerate(range(4)):
            j = s * 13 + JACK
            suit[j] = t
            power[j] = 200 + 4 - i
        masks = [0, 0, 0, 0]
        for c in range(52):
            masks[suit[c]] |= 1 << c
        out.append((suit, power, masks, masks[t]))
    return out


KNEKT_TABLES = _knekt_tables()


def _subsets(mask: int, most: int) -> list[int]:
    """Every subset of ``mask`` with at most ``most`` cards (the exchange moves)."""
    cards = _bits(mask)
    out = [0]
    for c in cards:
        bit = 1 << c
        out += [s | bit for s in out if s.bit_count() < most]
    return out


def knektpass_match(rng: random.Random, n: int = 4, max_hands: int = 400) -> int:
    """One whole match; returns the number of decisions."""
    decisions = 0
    score = [12] * n
    dealer = rng.randrange(n)
    choice = rng.choice
    for _hand in range(max_hands):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [0] * n
        for i in range(n):
            for c in deck[5 * i: 5 * i + 5]:
                hands[(dealer + 1 + i) % n] |= 1 << c
        turn = deck[5 * n]
        stock = deck[5 * n + 1:]
        suit, power, masks, trump_mask = KNEKT_TABLES[turn // 13]
        # the dealer may swap a card for the turn-up
        swap = choice(_subsets(hands[dealer], 1))
        decisions += 1
        if swap:
            hands[dealer] ^= swap | 1 << turn
        order = [(dealer + 1 + i) % n for i in range(n)]
        plays = [False] * n
        for p in order:
            plays[p] = choice((True, False))
            decisions += 1
        players = [p for p in order if plays[p]]
        if not players:
            continue  # all pass: the same dealer deals again
        if len(players) == 1:
            score[players[0]] -= 5
            dealer = (dealer + 1) % n
            continue
        exchanged = [0] * n
        for _round in range(3):
            if not stock:
                break
            for p in players:
                if not stock:
                    break
                give = choice(_subsets(hands[p], len(stock)))
                decisions += 1
                k = give.bit_count()
                if k:
                    hands[p] ^= give
                    for c in stock[-k:]:
                        hands[p] |= 1 << c
                    del stock[-k:]
                    exchanged[p] += k
        won = [0] * n
        leader = players[0]
        seats = players
        for _trick in range(5):
            i = seats.index(leader)
            turn_order = seats[i:] + seats[:i]
            led = -1
            best_key = best_led = 0
            best_seat = -1
            trumped = False
            for p in turn_order:
                hand = hands[p]
                if led < 0:
                    legal = hand
                else:
                    same = hand & masks[led]
                    if same:
                        target = best_led if trumped else best_key
                        legal = same if trumped else (_above(same, power, target) or same)
                    else:
                        legal = _above(hand & trump_mask, power, best_key) or hand
                c = choice(_bits(legal))
                decisions += 1
                hands[p] = hand ^ (1 << c)
                s = suit[c]
                if led < 0:
                    led = s
                if s == led or trump_mask >> c & 1:
                    key = power[c]
                    if key > best_key:
                        best_key, best_seat = key, p
                        trumped = s != led
                    if s == led and key > best_led:
                        best_led = key
            won[best_seat] += 1
            leader = best_seat
        for p in players:
            need, t = exchanged[p], won[p]
            score[p] += -t if t >= need else 5 * (need - t)
        dealer = (dealer + 1) % n
        if min(score) <= 0:
            break
    return decisions


# ---------------------------------------------------------- Knock-out Whist, 4 players

WHIST_TABLES = [
    ([(c % 13) + (100 if c // 13 == t else 0) + 1 for c in range(52)],
     [((1 << 13) - 1) << (13 * s) for s in range(4)])
    for t in range(4)
]


def knockout_whist_match(rng: random.Random, n: int = 4, max_hands: int = 10) -> int:
    """One whole match (7 cards, then one fewer each hand; a dog's life); decisions."""
    decisions = 0
    out = [False] * n
    dog = [False] * n
    last = [0] * n
    dog_lives, dog_hand = 1, 0
    dealer = rng.randrange(n)
    choice = rng.choice
    for hand_no in range(1, max_hands + 1):
        seats = [(dealer + 1 + i) % n for i in range(n)]
        seats = [p for p in seats if not out[p]]
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [0] * n
        pos = 0
        size = 8 - hand_no
        for p in seats:
            k = 1 if dog[p] else size
            for c in deck[pos: pos + k]:
                hands[p] |= 1 << c
            pos += k
        if hand_no == 1:
            trump = deck[pos] // 13
        else:
            trump = choice(range(4))  # the seat with most tricks last hand names it
            decisions += 1
        power, masks = WHIST_TABLES[trump]
        won = [0] * n
        leader = seats[0]
        tricks = 0
        while True:
            i = seats.index(leader)
            turn_order = [p for p in seats[i:] + seats[:i] if hands[p]]
            if not turn_order:
                break
            left = max(hands[p].bit_count() for p in turn_order)
            led = -1
            best_key = 0
            best_seat = -1
            for j, p in enumerate(turn_order):
                hand = hands[p]
                legal = _bits(hand if led < 0 else (hand & masks[led]) or hand)
                if dog[p] and hand.bit_count() < left and (led >= 0 or j < len(turn_order) - 1):
                    legal.append(-1)  # the dog may knock
                c = choice(legal)
                decisions += 1
                if c < 0:
                    continue
                hands[p] = hand ^ (1 << c)
                s = c // 13
                if led < 0:
                    led = s
                if s in (led, trump):
                    key = power[c]
                    if key > best_key:
                        best_key, best_seat = key, p
            if best_seat < 0:
                leader = seats[(seats.index(turn_order[0]) + 1) % len(seats)]
                continue
            won[best_seat] += 1
            tricks += 1
            leader = best_seat
        for p in seats:
            if dog[p]:
                out[p] = won[p] == 0
                dog[p] = False
        sweep = any(won[p] == tricks for p in seats)
        blanks = sum(1 for p in seats if not out[p] and won[p] == 0)
        for p in seats:
            if not out[p] and won[p] == 0:
                d = (hand_no < 7 and not sweep
                     and (False if dog_hand == hand_no else dog_lives > 0 and blanks >= 1))
                dog[p], out[p] = d, not d
                if d:
                    dog_lives -= 1
                    dog_hand = hand_no
        for p in seats:
            if not out[p]:
                last[p] = won[p]
        if sum(1 for p in range(n) if not out[p]) <= 1:
            break
        dealer = (dealer + 1) % n
        while out[dealer]:
            dealer = (dealer + 1) % n
    return decisions


# ------------------------------------------------------------------------- the timing


def time_reference(match: Callable[[random.Random], int], matches: int) -> tuple[int, float]:
    rng = random.Random(1)
    decisions = 0
    c0 = time.process_time()
    for _ in range(matches):
        decisions += match(rng)
    return decisions, time.process_time() - c0


def time_spelbok(game: spelbok.Game, matches: int) -> tuple[int, float]:
    """Decisions and CPU seconds of ``matches`` random matches through the public API
    (bench.py's workload: seeds 0, 1, 2…, seeded choices)."""
    _, decisions, seconds = playouts(game, 0, False, matches=matches)
    return decisions, seconds


def time_batched(game: spelbok.Game, matches: int) -> tuple[int, float]:
    """Decisions and CPU seconds of ``matches`` random matches by ``Game.playouts``."""
    c0 = time.process_time()
    out = game.playouts(matches, seed=0)
    return out.total_decisions, time.process_time() - c0


def calibrate(run: Callable[[int], tuple[int, float]], seconds: float) -> int:
    """How many matches fill about ``seconds`` of CPU time."""
    n = 8
    while True:
        _, dt = run(n)
        if dt >= seconds / 4 or n > 1_000_000:
            return max(1, int(n * seconds / max(dt, 1e-9)))
        n *= 4


CASES = {
    "knektpass-4": ("knektpass", 4, knektpass_match),
    "knockout-whist-4": (str(ROOT / "specs" / "knockout-whist.yaml"), 4, knockout_whist_match),
}


def measure(name: str, rounds: int, seconds: float) -> tuple[float, ...]:
    """Best and median decisions/s of spelbok (public API), of its batched playouts and
    of the reference, interleaved rounds."""
    spec, players, match = CASES[name]
    game = spelbok.load(spec, players=players)

    def eng(m: int) -> tuple[int, float]:
        return time_spelbok(game, m)

    def ref(m: int) -> tuple[int, float]:
        return time_reference(lambda r: match(r, players), m)

    def bat(m: int) -> tuple[int, float]:
        return time_batched(game, m)

    m_eng, m_bat, m_ref = calibrate(eng, seconds), calibrate(bat, seconds), calibrate(ref, seconds)
    e_rates, b_rates, r_rates = [], [], []
    for _ in range(rounds):
        d, dt = eng(m_eng)
        e_rates.append(d / dt)
        d, dt = bat(m_bat)
        b_rates.append(d / dt)
        d, dt = ref(m_ref)
        r_rates.append(d / dt)
    return (max(e_rates), statistics.median(e_rates), max(b_rates), statistics.median(b_rates),
            max(r_rates), statistics.median(r_rates))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.5, help="CPU seconds per timed pass")
    ap.add_argument("--only", choices=sorted(CASES))
    args = ap.parse_args(argv)
    hot = "compiled (mypyc)" if spelbok.COMPILED else "pure Python"
    print(f"python {sys.version.split()[0]}, spelbok hot path {hot}; {args.rounds} interleaved "
          f"rounds of {args.seconds:.1f} s; decisions/s, best (median)")
    for name in [args.only] if args.only else list(CASES):
        eb, em, bb, bm, rb, rm = measure(name, args.rounds, args.seconds)
        print(f"{name:<18} spelbok {eb / 1000:7.1f} k ({em / 1000:6.1f} k)   "
              f"hand-written {rb / 1000:7.1f} k ({rm / 1000:6.1f} k)   "
              f"ratio {eb / rb:5.2f} ({em / rm:4.2f})   "
              f"batched {bb / 1000:7.1f} k ({bm / 1000:6.1f} k), "
              f"ratio {bb / rb:5.2f} ({bm / rm:4.2f})")


if __name__ == "__main__":
    main()
