"""The lazy list of legal exchanges behaves as the list it stands for."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
import spelbok
from spelbok.cards import parse_card
from spelbok.engine.actions import CARDS, WORD, Action, parse_action
from spelbok.engine.subsets import SubsetActions, subset_order


def hand_of(*names: str) -> int:
    m = 0
    for n in names:
        m |= 1 << parse_card(n)  # type: ignore[operator]
    return m


HAND = hand_of("7H", "9S", "KC", "AD", "10H")


def eager(verb: str, hand: int, lo: int, hi: int) -> list[Action]:
    """The same list, built the obvious way."""
    cards = [c for c in range(52) if (hand >> c) & 1]
    out = []
    for k in range(lo, hi + 1):
        for i in range(1 << len(cards)):
            if i.bit_count() == k:
                m = sum(1 << cards[j] for j in range(len(cards)) if (i >> j) & 1)
                out.append(Action(CARDS, verb, m))
    return out


@pytest.mark.parametrize(("lo", "hi"), [(0, 0), (0, 1), (0, 3), (1, 5), (2, 2), (0, 5)])
def test_items_length_and_order_match_an_eager_list(lo: int, hi: int) -> None:
    lazy = SubsetActions("exchange", HAND, lo, hi)
    want = eager("exchange", HAND, lo, hi)
    assert len(lazy) == len(want)
    assert [lazy[i] for i in range(len(want))] == want  # by index, unbuilt
    assert [lazy[-i] for i in range(1, len(want) + 1)] == want[::-1]
    assert not lazy.built
    assert list(lazy) == want and lazy.built


def test_index_out_of_range_raises_like_a_list() -> None:
    lazy = SubsetActions("exchange", HAND, 0, 1)
    with pytest.raises(IndexError):
        lazy[6]
    assert lazy[-6] == Action(WORD, "exchange")
    with pytest.raises(IndexError):
        lazy[-7]


def test_membership_follows_the_rule_without_building() -> None:
    lazy = SubsetActions("exchange", HAND, 1, 2)
    assert parse_action("exchange 7h 9s") in lazy
    assert parse_action("exchange 7h") in lazy
    assert parse_action("exchange") not in lazy  # at least one card
    assert parse_action("exchange 7h 9s kc") not in lazy  # too many
    assert parse_action("exchange 2c") not in lazy  # not in hand
    assert parse_action("swap 7h") not in lazy  # another decision
    assert "exchange 7H" not in lazy and parse_action("7H") not in lazy
    assert not lazy.built
    assert all(a in lazy for a in eager("exchange", HAND, 1, 2))


def test_comparisons_printing_and_copies_see_every_item() -> None:
    lazy = SubsetActions("exchange", HAND, 0, 1)
    want = eager("exchange", HAND, 0, 1)
    assert lazy == want and want == SubsetActions("exchange", HAND, 0, 1)
    assert SubsetActions("exchange", HAND, 0, 1) != want[:-1]
    assert repr(SubsetActions("exchange", HAND, 0, 1)) == repr(want)
    assert [Action(WORD, "x")] + SubsetActions("exchange", HAND, 0, 1) == [Action(WORD, "x"), *want]
    assert SubsetActions("exchange", HAND, 0, 1) + [] == want
    assert SubsetActions("exchange", HAND, 0, 1)[1:3] == want[1:3]
    assert sorted(SubsetActions("exchange", HAND, 0, 1)) == sorted(want)
    assert pickle.loads(pickle.dumps(SubsetActions("exchange", HAND, 0, 1))) == want
    assert copy.copy(SubsetActions("exchange", HAND, 0, 1)) == want
    assert SubsetActions("exchange", HAND, 0, 1).copy() == want
    assert SubsetActions("exchange", HAND, 0, 1).index(want[2]) == 2


def test_changing_it_builds_first_and_then_acts_as_a_list() -> None:
    lazy = SubsetActions("exchange", HAND, 0, 1)
    lazy.append(Action(WORD, "extra"))
    assert len(lazy) == 7 and lazy[-1] == Action(WORD, "extra") and lazy[0] == Action(WORD, "exchange")
    assert Action(WORD, "extra") in lazy
    del lazy[0]
    assert Action(WORD, "exchange") not in lazy and len(lazy) == 6
    lazy.clear()
    assert not lazy and len(lazy) == 0


def test_random_choice_reads_one_item() -> None:
    lazy = SubsetActions("exchange", HAND, 0, 3)
    picked = {random.Random(i).choice(lazy) for i in range(300)}
    assert picked <= set(eager("exchange", HAND, 0, 3)) and len(picked) > 10
    assert not lazy.built


def test_subset_order_is_by_size_then_index() -> None:
    assert subset_order(3, 0, 3) == [0, 1, 2, 4, 3, 5, 6, 7]


def test_a_caller_changing_the_legal_list_cannot_make_an_illegal_exchange_legal() -> None:
    game = spelbok.load("knektpass", players=2)
    s = game.new_state(seed=1)
    while s.decision_name != "exchange":
        s.apply(s.legal_actions()[0] if s.decision_name != "announce" else "play")
    legal = s.legal_actions()
    assert isinstance(legal, list) and len(legal) > 1
    junk = Action(CARDS, "exchange", 1 << next(c for c in range(52) if not (s.hands[s.current_player] >> c) & 1))
    legal.append(junk)
    with pytest.raises(spelbok.IllegalActionError):
        s.apply(junk)
    assert s.legal_actions() == [a for a in legal if a != junk]


def test_the_subset_order_lists_each_size_in_ascending_order() -> None:
    # bug (found with French Tarot, a discard of one card of thirty): the order scanned
    # all 2**n numbers, a billion for one card of thirty; it now lists only the subsets
    from spelbok.engine import subsets

    def scan(n: int, lo: int, hi: int) -> list[int]:
        return [i for k in range(lo, hi + 1) for i in range(1 << n) if i.bit_count() == k]

    for n in range(9):
        for lo in range(n + 2):
            for hi in range(lo, n + 2):
                subsets._ORDER.clear()
                assert subsets.subset_order(n, lo, hi) == scan(n, lo, hi), (n, lo, hi)
    assert len(subsets.subset_order(40, 1, 2)) == 40 + 40 * 39 // 2


def test_an_exchange_with_too_many_card_sets_is_a_clear_error() -> None:
    from spelbok.engine.subsets import subset_order
    from spelbok.errors import SpecError

    with pytest.raises(SpecError, match="give it a smaller 'max'"):
        subset_order(40, 0, 20)
