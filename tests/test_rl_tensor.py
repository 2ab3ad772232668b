"""The compiled writer of the game-AI interfaces (rl/compiled/tensor.py): the legal cards of a
trick read from its mask are the engine's own legal list, and a card listed legal is
played without a second check to the same state."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

import spelbok  # noqa: E402
from spelbok.engine.actions import CARD  # noqa: E402
from spelbok.engine.tricks import playable  # noqa: E402
from spelbok.rl.encoding import Encoding, Match  # noqa: E402

# plain trick plays, an 'allow', knocking, a declared pack, declarations, a pass of cards
NAMES = ["oh-hell", "hearts", "knockout-whist", "briscola", "tute", "schnapsen", "belote",
         "knektpass"]


@pytest.mark.parametrize("name", NAMES)
def test_the_mask_of_a_trick_is_its_legal_list(name: str) -> None:
    game = spelbok.load(name, players=spelbok.load(name).tree["players"]["min"], max_hands=2)
    enc = Encoding(game)
    rng = random.Random(3)
    masked = 0
    for seed in range(3):
        m = Match(enc, game.new_state(seed=seed))
        st = m.st
        while not st.is_terminal:
            got = playable(st.prog.code[st.pc], st)
            acts = st.legal_actions()
            if got >= 0:  # cards and nothing else: the same cards, by id
                masked += 1
                assert all(a[0] == CARD for a in acts)
                assert got == sum(1 << a[2] for a in acts)
            numbers = sorted(enc.card_index[a[2]] if a[0] == CARD else enc.index[a]
                             for a in acts) if st.pc not in enc.pick_pcs else None
            legal = m.legal()
            if numbers is not None:
                assert legal == numbers
            i = rng.choice(legal)
            twin = m.clone()
            m.apply(i)  # a listed card: run_action, no second check
            a = enc.actions[i]
            if a is not None:
                twin.st.apply(a)  # the checked way
                assert twin.st == st
    # a spec with declarations or announcements always asks the engine (a card
    # may carry a word, or a word stand beside the cards: Tute's cantes)
    assert (masked > 0) == (name not in ("schnapsen", "belote", "tute"))


def test_a_card_listed_for_another_state_is_checked_again() -> None:
    game = spelbok.load("oh-hell", players=4)
    enc = Encoding(game)
    m = Match(enc, game.new_state(seed=2))
    while m.st.decision_name != "play":
        m.apply(m.legal()[0])
    listed = m.legal()  # the cards of the seat to play
    m.st.apply(m.st.legal_actions()[0])  # the state moves on behind the Match's back
    now = Match(enc, m.st.clone()).legal()
    stale = [i for i in listed if i not in now]
    assert stale
    with pytest.raises(spelbok.errors.IllegalActionError):
        m.apply(stale[0])  # checked by the engine, not trusted from the old list


def test_an_action_beyond_the_numbered_ones_is_a_clear_error() -> None:
    from spelbok.engine.actions import NUMBER
    from spelbok.errors import SpelbokError

    game = spelbok.load("oh-hell", players=4, max_hands=2)
    enc = Encoding(game)
    m = Match(enc, game.new_state(seed=1))
    assert m.st.decision_name == "bid"
    # as if the range read from the spec had not offered a bid of 0
    for a in [a for a in enc.layout.index if a[0] == NUMBER and a[2] == 0]:
        del enc.layout.index[a]
    with pytest.raises(SpelbokError, match="outside"):
        m.legal()


def test_count_is_bit_count() -> None:
    """The compiled card count (bits of a native word) agrees with int.bit_count, across
    the word's edge too."""
    from spelbok.rl.compiled.tensor import count

    rng = random.Random(3)
    values = [0, 1, (1 << 62) - 1, 1 << 62, (1 << 63) - 1, 1 << 63, (1 << 200) | 5]
    values += [rng.getrandbits(rng.choice((8, 52, 61, 62, 64, 120))) for _ in range(500)]
    for v in values:
        assert count(v) == v.bit_count(), v
