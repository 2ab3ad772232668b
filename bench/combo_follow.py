"""The cost of following a long lead of several cards (``tricks.combos``), run by hand.

    SPELBOK_PURE=1 python bench/combo_follow.py

A player void in the suit led, 25 cards in hand, faces a tractor of four pairs (8
cards): every set of 8 of his cards is a legal follow.  Prints the time (best of 3)
of: the engine's check and apply of one follow (``State.apply``), the game-AI legal
numbers of the first pick and of the stop (picks then ``stop``), and listing every
follow (``len(state.legal_actions())``, what each of the others did before the
follows were kept as templates).  Run it on an older checkout to compare.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import spelbok

# the test spec of tests/specs/combos.yaml with a whole pack twice: 25 cards each
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SPEC = (Path(__file__).resolve().parent.parent / "tests" / "specs" / "combos.yaml").read_text(
    encoding="utf-8").replace("[2, 3, 4, 5, 6, 7, 8, A]", "[" + ", ".join(RANKS) + "]").replace(
    "[A, 8, 7, 6, 5, 4, 3, 2]", "[" + ", ".join(reversed(RANKS)) + "]").replace(
    "size: 16", "size: 25")


def _hands() -> dict[int, str]:
    """Seat 0 leads a tractor of clubs; seat 1 holds no club (nor a trump of the rank)."""
    deck = [r + s for s in "CDSH" for r in RANKS for _ in range(2)]
    one = [r + "D" for r in RANKS[1:]] + [r + "D" for r in RANKS[1:6]]
    one += [r + "S" for r in RANKS[1:9]]
    zero = [r + "C" for r in ["3", "4", "5", "6", "7", "8", "9", "10"] for _ in range(2)]
    zero += [r + "S" for r in ["4", "5", "6", "7", "8", "9", "10", "J", "Q"]]
    rest = list(deck)
    for c in one + zero:
        rest.remove(c)
    return {0: " ".join(zero), 1: " ".join(one), 2: " ".join(rest[:25]),
            3: " ".join(rest[25:50])}


HANDS = _hands()


def state() -> Any:
    game = spelbok.load(SPEC, players=4)
    st = game.new_state(seed=1, position={"trump": "H", "leader": 0, "hands": HANDS,
                                          "vars": {"level": 2}})
    st.apply("tractor 3C 3C 4C 4C 5C 5C 6C 6C")
    return st


def best(fn: Any, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    play = "play 3D 3D 4D 4D 5D 5D 6D 6D"
    from spelbok.rl.encoding import Encoding, Match

    enc = Encoding(state().game)

    def apply_one() -> None:
        st = states.pop()
        st.apply(play)

    def rl_picks() -> None:
        m = Match(enc, states.pop())
        m.legal()
        for name in play.split()[1:]:
            label = f"pick {name}"
            if m.enc.labels.index(label) in [i for i in m.legal()
                                             if m.enc.labels[i].startswith("pick")]:
                m.apply(m.enc.labels.index(label))
            else:
                m.apply(m.enc.labels.index(label + "#2"))
        assert m.enc.stop in m.legal()

    def list_all() -> None:
        print(f"    follows listed: {len(states.pop().legal_actions()):,}")

    states = [state() for _ in range(5)]
    print(f"check + apply one follow:               {best(apply_one) * 1000:9.1f} ms")
    print(f"game-AI picks (8 picks + stop, legal):  {best(rl_picks, 1) * 1000:9.1f} ms")
    print(f"listing every follow:                   {best(list_all, 1) * 1000:9.1f} ms")


if __name__ == "__main__":
    main()
