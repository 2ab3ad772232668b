"""A card laid aside face down, seen by its owner only, and taken back into his hand
face up at a later turn (``move`` from ``laid_aside``, ``face_up``): the concealed
trump of the Indian point-trick games, written with general constructs.

Each test fails without its construct: the zone ``laid_aside`` (the seat's own cards
laid away, not the whole discard pile), ``face_up`` (every seat then knows the card
is in that hand), and their checks in ``validate``.
"""

from __future__ import annotations

import random

import pytest
import spelbok
from spelbok.errors import SpecError
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl

from tests.minispec import mini

# seat 0 lays one card aside; seat 1 lays one aside too; seat 0 takes his back face up
ASIDE = mini(
    "  - deal: {size: 5}\n"
    "  - decide: aside\n"
    "    who: each\n"
    "    choose: exchange\n"
    "    exchange: {draw_from: none, min: 1, max: 1}\n"
    "  - move: {from: laid_aside, to: hand, face_up: true}\n"
    "    for: \"seat == 0\"\n"
    "  - tricks: {}\n")


def _laid(st: spelbok.State) -> dict[int, str]:
    """Each seat lays aside its first card; which card each laid."""
    laid = {}
    while st.decision_name == "aside":
        seat = st.current
        action = next(a for a in st.legal_actions() if len(str(a).split()) == 2)
        laid[seat] = str(action).split()[1]
        st.apply(action)
    return laid


def test_a_laid_aside_card_is_seen_by_its_owner_alone_until_taken_back_face_up() -> None:
    game = spelbok.load(ASIDE, players=2)
    st = game.new_state(seed=4)
    first = st.current
    action = next(a for a in st.legal_actions() if len(str(a).split()) == 2)
    card = str(action).split()[1]
    st.apply(action)
    other = 1 - first
    assert card in st.view(first)["own_discards"]
    assert card not in str(st.view(other)["hand"]) and st.view(other)["discards"] == 1
    laid = {first: card, **_laid(st)}
    # seat 0 has his card back, known to seat 1; seat 1's stays aside, his alone
    assert laid[0] in st.view(0)["hand"] and laid[0] in st.view(1)["known_cards"][0]
    assert st.view(1)["own_discards"] == [laid[1]] and st.view(0)["own_discards"] == []
    assert st.view(0)["discards"] == 1
    for k in range(5):  # a bot of seat 1 keeps seat 0's card in seat 0's hand
        sample = st.determinize(1, random.Random(k))
        assert laid[0] in sample.view(0)["hand"]
        assert sample.view(1)["own_discards"] == [laid[1]]


def test_without_face_up_the_card_goes_back_unseen() -> None:
    game = spelbok.load(ASIDE.replace(", face_up: true", ""), players=2)
    st = game.new_state(seed=4)
    laid = _laid(st)
    assert laid[0] in st.view(0)["hand"] and laid[0] not in st.view(1)["known_cards"][0]


def test_the_transcript_says_the_card_is_taken_back_and_names_it() -> None:
    game = spelbok.load(ASIDE, players=2)
    st = game.new_state(seed=4, record=True)
    laid = _laid(st)
    moves = [e for e in st.log if e["event"] == "move"]
    assert moves and moves[-1]["source"] == "laid_aside" and moves[-1]["shown"] == [laid[0]]


def test_a_move_of_laid_aside_cards_needs_whose() -> None:
    with pytest.raises(SpecError, match="laid-aside"):
        spelbok.load(ASIDE.replace('    for: "seat == 0"\n', ""), players=2)


def test_face_up_is_a_condition() -> None:
    with pytest.raises(SpecError):
        spelbok.load(ASIDE.replace("face_up: true", "face_up: sideways"), players=2)


def test_the_dsl_says_it_and_reads_it_back() -> None:
    tree = spelbok.load(ASIDE, players=2).tree
    text = to_dsl(tree)
    assert "from zone laid_aside to the hand of each player where seat == 0, face up" in text
    back = parse_dsl(text, "mini.spel")[0]["hand"][2]
    assert back["move"] == tree["hand"][2]["move"] and back["for"] == "seat == 0"
