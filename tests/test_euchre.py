"""Scenario tests for Euchre (specs/euchre.yaml), on stacked decks and positions.

Seats are numbered clockwise; partners sit opposite (0 and 2 against 1 and 3).
With ``dealer=0`` seat 1 is the eldest hand (the dealer's left) and seat 2 the
dealer's partner. Deals are stacked so that the spec's own deal (five cards,
three then two, from the dealer's left) gives the hands wanted.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.cards import names
from spelbok.errors import IllegalActionError

SPEC = Path(__file__).resolve().parent.parent / "specs" / "euchre.yaml"
DSL = SPEC.with_suffix(".spel")
READINGS = SPEC.parent / "readings" / "euchre.yaml"

# The deal used by most tests: each seat holds one suit (a seat's jack is then a bower
# for its own colour).
HANDS = {
    1: "AS KS QS JS 10S",
    2: "AH KH QH JH 10H",
    3: "AD KD QD JD 10D",
    0: "AC KC QC JC 10C",
}


# -- helpers ------------------------------------------------------------------------------------


def load(**options: Any) -> spelbok.Game:
    return spelbok.load(SPEC, players=4, options=options or None)


def stack(hands: dict[int, str], turn_up: str, dealer: int = 0) -> list[str]:
    """A deck (top first) that deals ``hands`` in packets of 3 then 2 from the dealer's left."""
    order = [(dealer + i) % 4 for i in range(1, 5)]
    cards = {p: hands[p].split() for p in order}
    deck = [c for p in order for c in cards[p][:3]] + [c for p in order for c in cards[p][3:]]
    deck.append(turn_up)
    rest = [c for c in load().deck if c not in deck]
    assert len(set(deck)) == len(deck) == 21
    return deck + rest


def start(turn_up: str = "9H", hands: dict[int, str] | None = None, dealer: int = 0,
          seed: int = 1, **options: Any) -> spelbok.State:
    game = load(**options)
    return game.new_state(seed=seed, deck=stack(hands or HANDS, turn_up, dealer), dealer=dealer)


def legal(state: spelbok.State) -> list[str]:
    return sorted(str(a) for a in state.legal_actions())


def do(state: spelbok.State, *actions: str) -> None:
    for a in actions:
        state.apply(a)


def held(state: spelbok.State, seat: int) -> list[str]:
    return sorted(names(state.hands[seat]))


def var(state: spelbok.State, name: str) -> Any:
    return state.var(name)


def after_tricks(tricks: list[int], maker: int, alone: bool = False,
                 points: list[int] | None = None, **options: Any) -> spelbok.State:
    """The state just after the scoring of a hand with these tricks (trumps hearts)."""
    position: dict[str, Any] = {
        "phase": "after tricks", "trump": "H", "tricks": tricks,
        "vars": {"maker": maker, "made": 1, "alone": alone},
    }
    if points is not None:
        position["vars"]["points"] = points
    return load(**options).new_state(seed=1, position=position)


def trick(position: dict[str, Any], *cards: str) -> spelbok.State:
    """Play ``cards`` from a trick-play position (trumps hearts unless given).

    Hands hold two cards, so that the hand (and its trick count) goes on after one trick.
    """
    st = load().new_state(seed=1, position={"trump": "H", "vars": {"maker": 1, "made": 1},
                                            **position})
    do(st, *cards)
    return st


# ============================================================================ the spec itself


def test_yaml_and_dsl_twins_have_the_same_model() -> None:
    from spelbok.lang.loader import read_spec

    assert read_spec(SPEC).tree == read_spec(DSL).tree


def test_spec_is_valid() -> None:
    from spelbok.validation import validate

    assert validate(SPEC) == []
    assert validate(DSL) == []


def test_four_players_only_with_a_24_card_pack() -> None:
    game = load()
    assert len(game.deck) == 24
    assert sorted({c[:-1] for c in game.deck}) == sorted(["A", "K", "Q", "J", "10", "9"])
    for n in (3, 5):
        with pytest.raises(spelbok.SpecError):
            spelbok.load(SPEC, players=n)


# ============================================================================ deal and making trumps


def test_five_cards_each_in_packets_of_three_then_two_and_a_card_turned_up() -> None:
    deck = stack(HANDS, "9S")
    assert deck[:21] == ["AS", "KS", "QS", "AH", "KH", "QH", "AD", "KD", "QD", "AC", "KC", "QC",
                         "JS", "10S", "JH", "10H", "JD", "10D", "JC", "10C", "9S"]
    st = load().new_state(seed=1, deck=deck, dealer=0)
    assert held(st, 1) == sorted(HANDS[1].split())
    assert held(st, 0) == sorted(HANDS[0].split())
    assert names(1 << st.turn_up[0]) == ["9S"]
    assert len(st.stock) == 3
    assert st.trump_letter() == "none"  # the turned card only proposes a suit
    assert st.current_player == 1 and legal(st) == ["order", "pass"]


def test_ordering_up_makes_the_turned_suit_trumps_and_the_dealer_takes_the_card() -> None:
    st = start("9H")
    do(st, "pass")
    assert st.current_player == 2
    do(st, "order")  # the dealer's partner "assists"
    assert st.trump_letter() == "H"
    assert var(st, "maker") == 2
    # seat 3 is not asked: the dealer must now discard one of the five dealt cards
    assert st.current_player == 0 and st.decision_name == "pickup"
    assert legal(st) == sorted(f"pickup {c}" for c in HANDS[0].split())
    do(st, "pickup 10C")
    assert held(st, 0) == sorted(["AC", "KC", "QC", "JC", "9H"])
    assert st.turn_up == []
    # the taken card is public knowledge, the discard is not
    assert "9H" in st.view(1)["known_cards"][0]
    assert st.view(1)["discards"] == 1 and st.view(1)["own_discards"] == []
    assert st.view(0)["own_discards"] == ["10C"]


def test_the_dealer_may_order_up_last() -> None:
    st = start("9C")
    do(st, "pass", "pass", "pass")
    assert st.current_player == 0 and legal(st) == ["order", "pass"]
    do(st, "order", "pickup 10C")
    assert st.trump_letter() == "C" and var(st, "maker") == 0
    assert st.current_player == 0 and st.decision_name == "alone"


def test_second_round_names_another_suit_never_the_one_turned_down() -> None:
    st = start("9H")
    do(st, "pass", "pass", "pass", "pass")
    assert st.decision_name == "name" and st.current_player == 1
    assert st.trump_letter() == "none"
    do(st, "pass", "pass", "name")
    assert st.current_player == 3 and legal(st) == ["trump C", "trump D", "trump S"]
    with pytest.raises(IllegalActionError):
        st.apply("trump H")
    do(st, "trump D")
    assert st.trump_letter() == "D" and var(st, "made") == 2
    assert [h.bit_count() for h in st.hands] == [5, 5, 5, 5]  # nobody takes the turned card


def test_all_passing_twice_throws_the_hand_in_and_the_deal_moves_left() -> None:
    st = start("9H")
    do(st, *["pass"] * 8)
    assert st.hand_number == 1 and st.dealer == 1
    assert st.scores == [0, 0, 0, 0]
    assert st.current_player == 2 and st.decision_name == "order"


# ============================================================================ the bowers


def test_right_bower_beats_left_bower_beats_ace_of_trumps() -> None:
    hands = {1: "AH 9S", 2: "JD 9C", 3: "JH 10S", 0: "9H 10C"}
    st = trick({"leader": 1, "hands": hands}, "AH", "JD", "JH", "9H")
    assert st.won == [0, 0, 0, 1]
    hands = {1: "AH 9S", 2: "JD 9C", 3: "KH 10S", 0: "9H 10C"}
    st = trick({"leader": 1, "hands": hands}, "AH", "JD", "KH", "9H")
    assert st.won == [0, 0, 1, 0]


def test_the_left_bower_follows_trumps_and_not_its_printed_suit() -> None:
    st = trick({"leader": 1, "hands": {1: "9H AC", 2: "JD QD", 3: "KS 10C", 0: "AS 9S"}}, "9H")
    assert legal(st) == ["JD"]
    st = trick({"leader": 1, "hands": {1: "AD AC", 2: "JD 9C", 3: "KD 10C", 0: "QD 9S"}}, "AD")
    assert legal(st) == ["9C", "JD"]  # no diamond in hand: any card
    do(st, "JD", "KD", "QD")  # ... and the left bower trumps the diamond
    assert st.won == [0, 0, 1, 0]


def test_bowers_move_with_the_trump_suit() -> None:
    # clubs trumps: the jack of spades is the left bower and beats the ace of clubs
    hands = {1: "AC 9H", 2: "JS 9D", 3: "9C 10H", 0: "KC 10D"}
    st = trick({"trump": "C", "leader": 1, "hands": hands}, "AC", "JS", "9C", "KC")
    assert st.won == [0, 0, 1, 0]
    # hearts trumps: the jack of spades is a plain card between the queen and the ten
    hands = {1: "10S 9C", 2: "JS 10C", 3: "QS 9D", 0: "AD KD"}
    st = trick({"leader": 1, "hands": hands}, "10S", "JS", "QS", "AD")
    assert st.won == [0, 0, 0, 1]


# ============================================================================ going alone


def test_a_lone_maker_plays_without_the_partner() -> None:
    st = start("9D")
    do(st, "pass", "pass", "order", "pickup 10C")
    assert st.current_player == 3 and legal(st) == ["alone", "together"]
    do(st, "alone")
    # the partner (seat 1, the eldest hand) lays the cards down: the dealer's partner leads
    assert [h.bit_count() for h in st.hands] == [5, 0, 5, 5]
    assert st.current_player == 2 and st.decision_name == "play"
    view = st.view(2)
    assert view["hand_sizes"] == [5, 0, 5, 5] and view["vars"]["alone"] is True
    do(st, "AH", "AD", "AC")  # three cards make a trick
    assert st.won == [0, 0, 0, 1] and st.current_player == 3


def test_option_lone_lead_maker_left_the_lone_makers_left_leads() -> None:
    # seat 3 goes alone: its left (the dealer, seat 0) leads, not the dealer's partner
    st = start("9D", lone_lead="maker_left")
    do(st, "pass", "pass", "order", "pickup 10C", "alone")
    assert [h.bit_count() for h in st.hands] == [5, 0, 5, 5]
    assert st.current_player == 0 and st.decision_name == "play"
    # seat 1 goes alone from the dealer's left: seat 2 leads, not the lone maker
    hands = {1: "JS JC AS KS QS", 2: "AH KH QH JH 10H", 3: "AD KD QD JD 10D", 0: "AC KC QC 10C 9C"}
    for options, leader in (({}, 1), ({"lone_lead": "maker_left"}, 2)):
        st = start("9S", hands=hands, **options)
        do(st, "order", "pickup 9C", "alone")
        assert st.current_player == leader, options


def test_a_lone_march_scores_four_for_both_partners() -> None:
    # seat 1 holds every trump that matters with spades trumps and goes alone
    hands = {1: "JS JC AS KS QS", 2: "AH KH QH JH 10H", 3: "AD KD QD JD 10D", 0: "AC KC QC 10C 9C"}
    st = start("9S", hands=hands)
    do(st, "order", "pickup 9C", "alone")
    assert [h.bit_count() for h in st.hands] == [5, 5, 5, 0]
    assert st.current_player == 1
    for card in ("JS", "AH", "9S"):  # the dealer must follow trumps with the card taken
        do(st, card)
    while st.hand_number == 1:
        do(st, str(st.legal_actions()[0]))
    assert st.scores == [0, 4, 0, 4]


def test_a_whole_hand_with_partners_scores_the_side() -> None:
    # diamonds trumps made by seat 3: seats 1 and 3 take every trick between them
    hands = {1: "AS KS QS JS 10S", 2: "AH KH QH JH 10H", 3: "AD KD QD JD 10D", 0: "AC KC QC JC 10C"}
    st = start("9D", hands=hands)
    do(st, "pass", "pass", "order", "pickup 10C", "together")
    while st.hand_number == 1:
        do(st, str(st.legal_actions()[-1]))
    assert st.scores[1] == st.scores[3] and st.scores[0] == st.scores[2]
    assert st.scores in ([0, 1, 0, 1], [0, 2, 0, 2], [2, 0, 2, 0])


# ============================================================================ scoring and the end


@pytest.mark.parametrize(
    "tricks, maker, alone, change",
    [
        ([1, 2, 1, 1], 1, False, [0, 1, 0, 1]),  # three tricks: 1
        ([1, 2, 0, 2], 1, False, [0, 1, 0, 1]),  # four tricks: still 1
        ([0, 3, 0, 2], 1, False, [0, 2, 0, 2]),  # all five, a march: 2
        ([2, 1, 1, 1], 1, False, [2, 0, 2, 0]),  # euchred: 2 to the defenders
        ([0, 5, 0, 0], 1, True, [0, 4, 0, 4]),   # alone, all five: 4
        ([1, 4, 0, 0], 1, True, [0, 1, 0, 1]),   # alone, four: 1
        ([2, 2, 1, 0], 1, True, [2, 0, 2, 0]),   # alone and euchred: 2
    ],
)
def test_scoring_table(tricks: list[int], maker: int, alone: bool, change: list[int]) -> None:
    st = after_tricks(tricks, maker, alone)
    assert st.scores == change
    assert st.hand_number == 2 and st.dealer == 1


def test_the_first_side_to_ten_wins_together() -> None:
    st = after_tricks([2, 1, 1, 1], maker=0, points=[9, 8, 9, 8])
    assert st.is_terminal and st.winners == [0, 2] and st.scores == [10, 8, 10, 8]
    st = after_tricks([1, 2, 1, 1], maker=0, points=[9, 8, 9, 8])  # a euchre wins for 1 and 3
    assert st.is_terminal and st.winners == [1, 3]


# ============================================================================ options


def test_option_stick_the_dealer() -> None:
    st = start("9H", stick_dealer=True)
    do(st, *["pass"] * 7)
    assert st.current_player == 0 and legal(st) == ["name"]
    do(st, "name")
    assert legal(st) == ["trump C", "trump D", "trump S"]


def test_option_redeal_by_the_same_dealer() -> None:
    st = start("9H", redeal_dealer="same")
    do(st, *["pass"] * 8)
    assert st.dealer == 0 and st.current_player == 1


def test_option_the_dealer_may_bury_the_turned_card() -> None:
    st = start("9H", discard_turn_up=True)
    do(st, "pass", "order")
    assert "pickup" in legal(st) and len(legal(st)) == 6
    do(st, "pickup")
    assert held(st, 0) == sorted(HANDS[0].split())
    assert st.turn_up == [] and st.trump_letter() == "H"


def test_option_the_dealers_partner_who_orders_up_goes_alone() -> None:
    st = start("9H", partner_order_alone=True)
    do(st, "pass", "order", "pickup 10C")
    assert legal(st) == ["alone"]
    # ... but not when ordering up from another seat
    st = start("9H", partner_order_alone=True)
    do(st, "order", "pickup 10C")
    assert legal(st) == ["alone", "together"]


def test_option_lone_euchre_worth_four() -> None:
    assert after_tricks([2, 2, 1, 0], 1, True, lone_euchre=4).scores == [4, 0, 4, 0]
    assert after_tricks([2, 1, 1, 1], 1, False, lone_euchre=4).scores == [2, 0, 2, 0]


@pytest.mark.parametrize("target", [5, 7, 10, 11])
def test_option_game_points(target: int) -> None:
    reached = after_tricks([2, 1, 1, 1], maker=0, points=[target - 1] * 4, game_points=target)
    assert reached.is_terminal and reached.winners == [0, 2]
    nine = after_tricks([2, 1, 1, 1], maker=0, points=[8, 8, 8, 8], game_points=target)
    assert nine.scores == [9, 8, 9, 8]
    assert nine.is_terminal == (target <= 9)


# ============================================================================ hidden information


def test_views_and_determinize_hide_other_hands() -> None:
    st = start("9H")
    do(st, "pass", "order", "pickup 10C", "together")
    view = st.view(1)
    assert view["hand"] == names(st.hands[1]) and "hands" not in view
    rng = random.Random(5)
    for _ in range(5):
        d = st.determinize(1, rng)
        assert d.hands[1] == st.hands[1]
        assert "9H" in names(d.hands[0])  # the taken turn-up stays with the dealer
        assert [h.bit_count() for h in d.hands] == [5, 5, 5, 5]


# ============================================================================ bots, describe, readings


def test_bots_play_whole_matches() -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = load(game_points=5)
    bots = [make_bot("ismcts:20", 1), make_bot("random", 2), make_bot("greedy", 3),
            make_bot("random", 4)]
    final = play_match(game, bots, seed=3)
    assert final.is_terminal
    assert final.winners in ([0, 2], [1, 3])
    assert max(final.scores) >= 5
    full = play_match(load(), [make_bot("greedy", i) for i in range(4)], seed=7)
    assert full.is_terminal and full.winners in ([0, 2], [1, 3])
    s = full.scores
    assert s[0] == s[2] and s[1] == s[3] and max(s) >= 10


def test_describe_mentions_the_bowers_and_partnerships() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    result = CliRunner().invoke(cli, ["describe", str(SPEC)])
    assert result.exit_code == 0, result.output
    text = result.output.lower()
    assert "right bower" in text and "left bower" in text
    assert "partnership" in text and "alone" in text


def test_the_readings_file_passes() -> None:
    from spelbok.analysis.readings import run_reading

    report = run_reading(str(READINGS))
    assert report.ok, report.format()
    assert report.passed >= 12
