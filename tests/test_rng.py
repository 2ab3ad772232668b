"""Seeded shuffles: uniform, reproducible, and the same whether done at once or lazily."""

from __future__ import annotations

import random
from collections import Counter

import spelbok
from hypothesis import given
from hypothesis import strategies as st
from spelbok.engine.rng import below, settle, shuffle, words


def test_every_order_of_a_small_pack_is_about_equally_likely() -> None:
    counts = Counter()
    for seed in range(24000):
        cards = [0, 1, 2, 3]
        shuffle(cards, seed, 1)
        counts[tuple(cards)] += 1
    assert len(counts) == 24
    assert all(850 < c < 1150 for c in counts.values())  # 1000 expected, sd about 31


def test_the_same_seed_and_event_give_the_same_shuffle() -> None:
    a, b, c = list(range(52)), list(range(52)), list(range(52))
    shuffle(a, 5, 2)
    shuffle(b, 5, 2)
    shuffle(c, 5, 3)
    assert a == b and a != c and sorted(a) == list(range(52))


@given(st.integers(0, 2**40), st.lists(st.integers(0, 52), max_size=6))
def test_settling_in_pieces_gives_the_whole_shuffle(seed: int, cuts: list[int]) -> None:
    whole = list(range(52))
    shuffle(whole, seed, 1)
    w = words(seed, 1, 52)
    lazy = list(range(52))
    done = 52
    for cut in sorted(cuts, reverse=True):
        if cut < done:
            settle(lazy, w, done, cut)
            done = cut
    settle(lazy, w, done, 0)
    assert lazy == whole


def test_below_stays_in_range_and_covers_it() -> None:
    seen = {below(3, i, 5) for i in range(200)}
    assert seen == {0, 1, 2, 3, 4}


def test_a_state_deals_from_the_shuffle_it_would_have_made_at_once() -> None:
    game = spelbok.load("example", players=3)
    s = game.new_state(seed=11)
    dealt = sum(h.bit_count() for h in s.hands) + len(s.turn_up)
    assert s.settled > 0  # most of the pack is still unshuffled
    s.settle()
    assert s.settled == 0
    # the whole stock, plus what was dealt, is exactly the pack
    cards = set(s.stock) | {c for h in s.hands for c in range(52) if (h >> c) & 1} | set(s.turn_up)
    assert cards == set(game.program.deck) and len(s.stock) + dealt == len(game.program.deck)


def test_settling_is_invisible_to_equality_clones_and_play() -> None:
    game = spelbok.load("knektpass", players=4)
    a = game.new_state(seed=4)
    b = a.clone()
    b.settle()
    assert a == b
    rng1, rng2 = random.Random(9), random.Random(9)
    while not a.is_terminal and a.hands_played < 3:
        a.apply(rng1.choice(a.legal_actions()))
        b.apply(rng2.choice(b.legal_actions()))
        assert a.hands == b.hands and a.current_player == b.current_player
    assert a.log == b.log


def test_a_snapshot_keeps_the_stock_order_of_the_lazy_shuffle() -> None:
    game = spelbok.load("knektpass", players=2)
    s = game.new_state(seed=8)
    back = game.restore(s.to_dict())
    t = s.clone()
    t.settle()
    assert back.settled_stock() == t.stock and back == s


def test_dealing_while_shuffling_gives_the_same_hands_as_shuffling_first() -> None:
    for spec, players in (("knektpass", 4), ("knockout-whist", 5), ("example", 3), ("rams", 3)):
        game = spelbok.load(spec, players=players)
        prog = game.program
        for seed in range(20):
            lazy = game.new_state(seed=seed)
            prog.start_hand(lazy)
            eager = lazy.clone()
            eager.settle()  # the whole order fixed: the deal takes the top cards as they lie
            assert eager.settled == 0 and lazy.settled == len(lazy.stock)
            prog.advance(lazy)
            prog.advance(eager)
            assert lazy.hands == eager.hands and lazy.widow == eager.widow
            assert lazy.turn_up == eager.turn_up
            lazy.settle()
            assert lazy.stock == eager.stock
