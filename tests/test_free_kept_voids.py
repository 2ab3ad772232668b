"""A free card of no suit (a kept card, such as the Excuse) held back hides no void: a
player who holds it and plays off the suit led shows he lacks that suit."""

from __future__ import annotations

import random

import spelbok


def test_a_free_card_of_no_suit_held_hides_no_void() -> None:
    game = spelbok.load("french-tarot", players=4)
    st = game.new_state(seed=1, position={
        "phase": "tricks",
        "hands": {3: "T21 T20", 2: "2D EX", 1: "3D 4D", 0: "5D 6D"}})
    trumps = st.tables.suit[st.prog.pack.parse_card("T21")]
    st.apply("T21")
    st.apply("2D")  # holding the Excuse, no trump: he lacks trumps, and all may know it
    assert (st.voids[2] >> trumps) & 1
    for k in range(6):  # so no sample deals him a trump
        sample = st.determinize(1, random.Random(k))
        assert not sample.hands[2] & st.tables.suit_mask[trumps]
