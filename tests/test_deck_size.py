"""The deck-size check counts widows, conditional deals and sizes that change from
hand to hand; ``describe`` counts the pack the same way.  (The located errors
themselves are fixtures in tests/bad_specs/deck_too_small*.yaml.)"""

from __future__ import annotations

import spelbok
from spelbok.lang.checks import hand_cards, structural_checks
from spelbok.lang.describe import describe
from spelbok.lang.loader import read_spec


def _spec(hand: str, end: str = "hand_number >= 3", players: tuple[int, int] = (4, 4)) -> str:
    lo, hi = players
    return f"""spelbok: 1
name: Mini
players: {{min: {lo}, max: {hi}}}
deck:
  - players: [{lo}, {hi}]
    ranks: [A, K, Q, J, 10, 9, 8, 7]
hand:
{hand}
  - tricks: {{}}
end: {{when: "{end}", winners: "tricks == max(tricks)"}}
"""


def _errors(text: str) -> list[str]:
    return [str(e) for e in structural_checks(read_spec("mini.yaml", text=text))]


def test_a_deal_that_fits_exactly_passes() -> None:
    # 4 x 7 + a widow of 3 + 1 turn-up = 32
    assert _errors(_spec("  - deal: {size: 7, widow: 3}\n  - turn_up: {trump: true}")) == []


def test_the_hands_end_when_reaches_bound_the_sizes() -> None:
    # 4 x 8 = 32 in hand 5, the last one
    assert _errors(_spec('  - deal: {size: "hand_number + 3"}', end="hand_number >= 5")) == []
    assert len(_errors(_spec('  - deal: {size: "hand_number + 3"}', end="hand_number >= 6"))) == 1


def test_max_hands_bounds_the_sizes() -> None:
    text = _spec('  - deal: {size: "hand_number + 3"}', end="false").replace(
        'winners: "tricks', 'max_hands: 5, winners: "tricks')
    assert _errors(text) == []


def test_a_size_that_cannot_be_told_before_play_is_not_checked() -> None:
    assert _errors(_spec('  - deal: {size: "if is_dealer then 20 else 5"}')) == []


def test_seats_in_a_size_is_checked_at_every_player_count() -> None:
    # 4 seats: 4 x 5 = 20; 3 seats: 3 x 11 = 33 > 32
    errors = _errors(_spec('  - deal: {size: "if seats == 3 then 11 else 5"}', players=(2, 4)))
    assert len(errors) == 1 and "3 players × 11 cards = 33 cards" in errors[0]


def test_alternative_turn_ups_count_once() -> None:
    # German Whist turns up one card, whichever way the option goes
    tree = spelbok.load("german-whist").tree
    assert hand_cards(tree, 2) == (13, 0, 1)


def test_describe_counts_the_widow() -> None:
    text = describe("rams", players=3)
    assert "5 cards each (15 in all), 5 to the widow, 1 turned up, 11 left" in " ".join(
        text.split())
    text = describe("german-whist", players=2)
    assert "13 cards each (26 in all), 1 turned up, 25 left in the stock" in text


def test_describe_counts_the_copies_and_extra_cards_of_a_declared_pack() -> None:
    # two copies of 24 cards; 56 cards of four suits and 22 extra cards (the trumps, the excuse)
    assert "12 cards each (48 in all), 0 left in the stock" in describe("pinochle", players=4)
    assert "18 cards each (72 in all), 6 to the widow, 0 left" in " ".join(
        describe("french-tarot", players=4).split())


def test_a_deal_the_check_cannot_size_ends_the_match_never_short() -> None:
    # the size reads a variable, so only play can tell: 4 x 9 > 32 ends the match there, cut
    # short as by its bound on hands (validate's promise: never an error in play)
    text = _spec('  - deal: {size: big}').replace(
        "hand:\n", "variables:\n  match: {big: 9}\nhand:\n", 1)
    state = spelbok.load(text, players=4).new_state(seed=1)  # the first deal is made here
    assert state.is_terminal and state.limit_reached
    assert not any(state.hands), "a deal of 36 cards from 32 went on with short hands"


def test_a_hand_the_match_may_never_reach_is_a_warning() -> None:
    from spelbok.lang.checks import structural_warnings

    # end.when reads a variable: the check cannot tell whether hand 9 (4 x 9 > 32) comes
    text = _spec('  - deal: {size: "hand_number"}', end="done >= 2").replace(
        "hand:\n", "variables:\n  match: {done: 0}\nhand:\n", 1)
    doc = read_spec("mini.yaml", text=text)
    assert structural_checks(doc) == []
    (warning,) = structural_warnings(doc)
    assert "too small in hand 9" in str(warning) and "if the match lasts that long" in str(warning)
