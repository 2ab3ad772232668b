"""``turn_up_rank``: a rule can read the rank of the turned-up card ("if the
turned-up card is an ace, the dealer ...")."""

from __future__ import annotations

import pytest
import spelbok
from minispec import END, HEAD
from spelbok.errors import SpecError

VARS = "variables:\n  hand: {ace_up: false}\n"


def _spec(cond: str) -> str:
    head = HEAD.replace("hand:\n", VARS + "hand:\n")
    steps = ("  - deal: {size: 5}\n  - turn_up: {trump: true}\n"
             f'  - set: {{ace_up: "{cond}"}}\n  - tricks: {{}}\n')
    return head + steps + END


def _after_turn_up(top: str) -> spelbok.State:
    game = spelbok.load(_spec("turn_up_rank == 'A'"), players=2)
    pack = [r + s for s in "CSHD" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]
    rest = [c for c in pack if c != top]
    deck = rest[:10] + [top] + rest[10:]  # top card first: 5 each, then the turn-up
    return game.new_state(seed=1, deck=deck, dealer=0)


@pytest.mark.parametrize(("top", "ace"), [("AH", True), ("10C", False), ("7S", False)])
def test_the_rank_of_the_turn_up_decides(top: str, ace: bool) -> None:
    state = _after_turn_up(top)
    assert state.var("ace_up") is ace


def test_none_before_a_turn_up_and_ranks_written_as_in_the_deck() -> None:
    game = spelbok.load(_spec("turn_up_rank == 'none'").replace(
        "  - turn_up: {trump: true}\n", ""), players=2)
    assert game.new_state(seed=1).var("ace_up") is True
    spelbok.load(_spec("turn_up_rank == '10'"), players=2)  # a real rank: no error


def test_a_rank_that_does_not_exist_is_a_located_error() -> None:
    with pytest.raises(SpecError) as e:
        spelbok.load(_spec("turn_up_rank == 'X'"), players=2)
    assert "'turn_up_rank' is never 'X'" in str(e.value)
    assert str(e.value).startswith("<spec>:12:")
