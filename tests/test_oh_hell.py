"""Scenario tests for Oh Hell (specs/oh-hell.yaml), on stacked decks and positions.

Seats are numbered clockwise; with ``dealer=0`` seat 1 is on the dealer's left,
bids first and leads first. Hand 1 is stacked (cards are dealt one at a time
from the dealer's left, then the next card is turned for trumps); tests that
need a later hand start from a ``position``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.cards import card_id, names
from spelbok.errors import IllegalActionError

SPEC = Path(__file__).resolve().parent.parent / "specs" / "oh-hell.yaml"
DSL = SPEC.with_suffix(".spel")
READINGS = SPEC.parent / "readings" / "oh-hell.yaml"


# -- helpers ------------------------------------------------------------------------------------


def load(players: int = 4, max_hands: int | None = None, **options: Any) -> spelbok.Game:
    return spelbok.load(SPEC, players=players, options=options or None, max_hands=max_hands)


def stack(game: spelbok.Game, hands: dict[int, str], turn_up: str | None, dealer: int = 0) -> list[str]:
    """A deck (top first) that deals ``hands`` one card at a time from the dealer's left."""
    n = game.players
    order = [(dealer + i) % n for i in range(1, n + 1)]
    cards = {p: hands.get(p, "").split() for p in order}
    deck: list[str] = []
    for r in range(max(len(c) for c in cards.values())):
        for p in order:
            if r < len(cards[p]):
                deck.append(cards[p][r])
    if turn_up is not None:
        deck.append(turn_up)
    used = set(deck)
    assert len(used) == len(deck), "a card is dealt twice"
    deck.extend(c for c in game.deck if c not in used)
    return deck


def start(game: spelbok.Game, hands: dict[int, str], turn_up: str | None, dealer: int = 0,
          seed: int = 1) -> spelbok.State:
    return game.new_state(seed=seed, deck=stack(game, hands, turn_up, dealer), dealer=dealer)


def legal(state: spelbok.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def bids(state: spelbok.State) -> list[int]:
    return state.view(0)["vars"]["bid"]


def sizes(state: spelbok.State) -> list[int]:
    return [h.bit_count() for h in state.hands]


def lowest(state: spelbok.State) -> str:
    """A fixed, simple policy: the lowest bid, or the lowest-ranked legal card."""
    acts = state.legal_actions()
    if state.decision_name == "bid":
        return str(acts[0])
    return str(min(acts, key=lambda a: (card_id(str(a)) % 13, card_id(str(a)) // 13)))


def hand_sizes_of_a_match(game: spelbok.Game, seed: int = 1) -> list[int]:
    """Play a whole match with :func:`lowest`; the hand size of each hand, in order."""
    st = game.new_state(seed=seed, dealer=0)
    seen: list[int] = []
    while not st.is_terminal:
        if st.hand_number > len(seen):
            seen.append(sizes(st)[0])
        st.apply(lowest(st))
    return seen


FOUR = {  # ten cards each for four players, seat 0 dealing
    1: "AS KS QS JS 10S AH KH QH JH 10H",
    2: "9S 8S 7S 6S 5S 9H 8H 7H 6H 5H",
    3: "AD KD QD JD 10D AC KC QC JC 10C",
    0: "9D 8D 7D 6D 5D 9C 8C 7C 6C 5C",
}


# ============================================================================ the spec itself


def test_yaml_and_dsl_twins_have_the_same_model() -> None:
    from spelbok.lang.loader import read_spec

    assert read_spec(SPEC).tree == read_spec(DSL).tree


def test_spec_is_valid() -> None:
    from spelbok.validation import validate

    assert validate(SPEC) == []
    assert validate(DSL) == []


def test_three_to_seven_players_with_a_full_pack() -> None:
    for n in range(3, 8):
        assert len(load(n).deck) == 52
    for n in (2, 8):
        with pytest.raises(spelbok.SpecError):
            load(n)


def test_every_rule_cites_a_source() -> None:
    from spelbok.lang.loader import read_spec

    tree = read_spec(SPEC).tree
    assert all(step.get("source") for step in tree["hand"])
    assert all(opt.get("source") and opt.get("about") for opt in tree["options"].values())
    for key in ("players", "dealer", "end", "ranking"):
        assert tree[key].get("source"), key


# ============================================================================ deal and trumps


def test_first_deal_is_ten_cards_each_dealt_singly_and_the_next_card_is_trumps() -> None:
    st = start(load(4), FOUR, "2H")
    assert sizes(st) == [10, 10, 10, 10]
    assert names(st.hands[1]) == sorted(FOUR[1].split(), key=card_id)
    v = st.view(1)
    assert v["turn_up"] == ["2H"] and v["trump"] == "H" and v["talon"] == 11
    assert st.current_player == 1 and st.decision_name == "bid"


@pytest.mark.parametrize("players, cards", [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7)])
def test_the_first_hand_size_follows_the_number_of_players(players: int, cards: int) -> None:
    st = load(players).new_state(seed=players, dealer=0)
    assert sizes(st) == [cards] * players
    assert len(st.stock) == 52 - cards * players - 1
    assert st.view(0)["trump"] in ("C", "S", "H", "D")


def test_hand_sizes_go_down_to_one_and_back_up() -> None:
    assert hand_sizes_of_a_match(load(4)) == [*range(10, 0, -1), *range(2, 11)]
    assert hand_sizes_of_a_match(load(7)) == [*range(7, 0, -1), *range(2, 8)]


@pytest.mark.parametrize("schedule, expected", [
    ("down", list(range(10, 0, -1))),
    ("up", list(range(1, 11))),
    ("up_down", [*range(1, 11), *range(9, 0, -1)]),
])
def test_option_schedule(schedule: str, expected: list[int]) -> None:
    assert hand_sizes_of_a_match(load(3, schedule=schedule)) == expected


def test_the_deal_passes_to_the_left() -> None:
    st = load(4).new_state(position={"phase": "after tricks", "hand_number": 1,
                                     "tricks": [3, 2, 3, 2], "bid": [3, 2, 3, 1]})
    assert st.hand_number == 2 and st.dealer == 1
    assert sizes(st) == [9, 9, 9, 9]
    assert st.current_player == 2  # the new dealer's left bids first


def test_option_full_pack_four_players_play_thirteen_cards_without_trumps() -> None:
    st = load(4, largest_hand="full").new_state(seed=5, dealer=0)
    assert sizes(st) == [13] * 4
    assert st.view(0)["trump"] in (None, "none")
    assert st.view(0)["turn_up"] == []


def test_option_dealer_card_shows_the_dealers_last_card_for_trumps() -> None:
    game = load(4, largest_hand="full", no_card_left="dealer_card")
    deck = [c for c in game.deck if c != "QH"] + ["QH"]  # the 52nd card: the dealer's last
    st = game.new_state(seed=1, deck=deck, dealer=0)
    assert sizes(st) == [13] * 4
    assert "QH" in names(st.hands[0])
    v = st.view(2)
    assert v["trump"] == "H" and v["turn_up"] == [] and v["talon"] == 0
    assert v["known_cards"][0] == ["QH"]  # everyone has seen it
    for seed in range(5):  # and a determinized world keeps it in the dealer's hand
        world = st.determinize(2, random.Random(seed))
        assert "QH" in names(world.hands[0])
        assert names(world.hands[2]) == names(st.hands[2])


def test_dealer_card_only_matters_when_the_pack_runs_out() -> None:
    st = load(4, no_card_left="dealer_card").new_state(seed=2, dealer=0)
    assert sizes(st) == [10] * 4 and len(st.view(0)["turn_up"]) == 1


# ============================================================================ bidding


def test_each_bids_once_from_the_dealers_left_anything_up_to_the_cards_held() -> None:
    st = start(load(4), FOUR, "2H")
    assert legal(st) == [f"bid {k}" for k in range(11)]
    with pytest.raises(IllegalActionError):
        st.apply("bid 11")
    for seat, b in zip((1, 2, 3), ("bid 4", "bid 0", "bid 3"), strict=True):
        assert st.current_player == seat
        st.apply(b)
    assert st.current_player == 0 and bids(st) == [0, 4, 0, 3]


def test_the_dealer_may_not_make_the_bids_add_up_to_the_tricks() -> None:
    st = start(load(4), FOUR, "2H")
    for b in ("bid 4", "bid 0", "bid 3"):
        st.apply(b)
    assert "bid 3" not in legal(st)
    assert legal(st) == ["bid 0", "bid 1", "bid 2", *[f"bid {k}" for k in range(4, 11)]]
    with pytest.raises(IllegalActionError):
        st.apply("bid 3")
    st.apply("bid 2")
    assert st.decision_name == "play" and st.current_player == 1


def test_the_dealer_is_free_when_the_others_already_bid_too_much() -> None:
    st = start(load(4), FOUR, "2H")
    for b in ("bid 5", "bid 3", "bid 4"):
        st.apply(b)
    assert legal(st) == [f"bid {k}" for k in range(11)]


def test_in_a_one_card_deal_the_hook_can_leave_a_single_bid() -> None:
    pos = {"phase": "bid", "hand_number": 10, "hands": {0: "AS", 1: "AH", 2: "AD", 3: "AC"}}
    st = load(4).new_state(position=pos)
    for _ in range(3):
        st.apply("bid 0")
    assert legal(st) == ["bid 0"]
    free = load(4, hook="never").new_state(position=pos)
    for _ in range(3):
        free.apply("bid 0")
    assert legal(free) == ["bid 0", "bid 1"]


def test_option_hook_not_last_frees_the_dealer_in_the_last_deal_only() -> None:
    def dealer_choices(hand_number: int, hook: str) -> list[str]:
        n = 10 if hand_number == 19 else 9
        ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5"][:n]
        hands = {s: " ".join(r + suit for r in ranks) for s, suit in enumerate("SHDC")}
        st = load(4, hook=hook).new_state(
            position={"phase": "bid", "hand_number": hand_number, "hands": hands})
        for b in ("bid 4", "bid 2", "bid 1"):
            st.apply(b)
        return legal(st)

    assert "bid 3" in dealer_choices(19, "not_last")
    assert "bid 3" not in dealer_choices(19, "always")
    assert "bid 2" not in dealer_choices(18, "not_last")


# ============================================================================ play


def test_forehand_leads_after_the_bidding_and_players_follow_suit() -> None:
    st = start(load(4), FOUR, "2H")
    for b in ("bid 4", "bid 0", "bid 3", "bid 2"):
        st.apply(b)
    assert st.current_player == 1
    st.apply("AS")
    assert sorted(legal(st)) == sorted(["9S", "8S", "7S", "6S", "5S"])
    with pytest.raises(IllegalActionError):
        st.apply("9H")


def test_a_void_player_may_trump_or_discard_and_the_trump_wins() -> None:
    st = start(load(4), FOUR, "2H")
    for b in ("bid 4", "bid 0", "bid 3", "bid 2"):
        st.apply(b)
    st.apply("AS")
    st.apply("9S")
    assert sorted(legal(st)) == sorted(FOUR[3].split())  # seat 3 holds no spade: anything goes
    st.apply("AD")
    st.apply("9D")
    assert st.won == [0, 1, 0, 0] and st.current_player == 1  # no trump played: the ace of the suit led wins
    st.apply("10H")  # a trump led from the first
    assert sorted(legal(st)) == sorted(["9H", "8H", "7H", "6H", "5H"])
    st.apply("5H")
    st.apply("10D")
    st.apply("5C")
    assert st.won == [0, 2, 0, 0]


def test_a_low_trump_beats_the_ace_of_the_suit_led() -> None:
    pos = {"trump": "H", "leader": 1, "hand_number": 8,
           "hands": {0: "3H 3C 4D", 1: "AS 5C 5D", 2: "2H 9D 6C", 3: "3S 7D 8C"}}
    st = load(4).new_state(position=pos)
    for c in ("AS", "2H", "3S", "3H"):
        st.apply(c)
    assert st.won == [1, 0, 0, 0] and st.current_player == 0


# ============================================================================ scoring and the end


def after_tricks(tricks: list[int], bid: list[int], **options: Any) -> list[int]:
    st = load(4, **options).new_state(
        position={"phase": "after tricks", "hand_number": 6, "tricks": tricks, "bid": bid})
    return st.scores


def test_scoring_exact_ten_plus_the_bid_or_nothing() -> None:
    assert after_tricks([2, 0, 3, 0], [2, 0, 1, 1]) == [12, 10, 0, 0]


def test_option_scoring_basic_and_penalty() -> None:
    assert after_tricks([2, 0, 3, 0], [2, 0, 1, 1], scoring="basic") == [12, 10, 3, 0]
    assert after_tricks([2, 1, 0, 2], [2, 0, 3, 0], scoring="penalty") == [12, 0, -3, 0]


def test_option_scoring_basic_five_a_point_a_trick_and_five_for_an_exact_bid() -> None:
    assert after_tricks([2, 0, 3, 0], [2, 0, 1, 1], scoring="basic_five") == [7, 5, 3, 0]


def test_a_whole_one_card_deal_from_a_stacked_deck() -> None:
    game = load(4, schedule="up")
    st = start(game, {1: "AS", 2: "2H", 3: "KS", 0: "QS"}, "3H")
    assert st.view(0)["trump"] == "H" and sizes(st) == [1, 1, 1, 1]
    for b in ("bid 1", "bid 1", "bid 0"):
        st.apply(b)
    assert legal(st) == ["bid 0", "bid 1"]  # the bids already exceed the one trick
    st.apply("bid 0")
    for c in ("AS", "2H", "KS", "QS"):
        st.apply(c)
    assert st.scores == [10, 0, 11, 10]
    assert st.hand_number == 2 and st.dealer == 1 and sizes(st) == [2, 2, 2, 2]


def test_the_match_ends_after_the_last_deal_and_the_highest_total_wins() -> None:
    st = load(4).new_state(position={"phase": "after tricks", "hand_number": 19,
                                     "tricks": [4, 3, 2, 1], "bid": [4, 2, 2, 0],
                                     "score": [50, 61, 40, 61]})
    assert st.is_terminal
    assert st.scores == [64, 61, 52, 61] and st.winners == [0]


def test_a_tie_for_the_highest_total_is_shared() -> None:
    st = load(4).new_state(position={"phase": "after tricks", "hand_number": 19,
                                     "tricks": [4, 3, 2, 1], "bid": [3, 3, 2, 0],
                                     "score": [80, 67, 68, 60]})
    assert st.is_terminal and st.winners == [0, 1, 2]


def test_the_match_is_not_over_before_the_last_deal() -> None:
    st = load(4).new_state(position={"phase": "after tricks", "hand_number": 18,
                                     "tricks": [4, 3, 2, 0], "bid": [4, 2, 2, 0]})
    assert not st.is_terminal and st.hand_number == 19 and sizes(st) == [10] * 4


# ============================================================================ views, bots, tools


def test_a_view_hides_other_hands_but_shows_the_bids() -> None:
    st = start(load(4), FOUR, "2H")
    st.apply("bid 4")
    v = st.view(2)
    assert sorted(v["hand"]) == sorted(FOUR[2].split())
    assert v["hand_sizes"] == [10, 10, 10, 10]
    assert v["vars"]["bid"] == [0, 4, 0, 0]
    assert "AS" not in str({k: val for k, val in v.items() if k != "legal_actions"})


def test_determinize_keeps_what_the_seat_knows() -> None:
    st = start(load(4), FOUR, "2H")
    for b in ("bid 4", "bid 0", "bid 3", "bid 2"):
        st.apply(b)
    st.apply("AS")
    st.apply("9S")
    st.apply("AD")  # seat 3 shows it has no spade
    world = st.determinize(2, random.Random(7))
    assert names(world.hands[2]) == names(st.hands[2])
    assert sizes(world) == sizes(st)
    assert not any(c.endswith("S") for c in names(world.hands[3]))
    assert world.view(2)["turn_up"] == ["2H"]


def test_bots_play_whole_matches() -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    final = play_match(load(3), [make_bot("greedy", i) for i in range(3)], seed=4)
    assert final.is_terminal and final.hand_number == 19 and not final.limit_reached
    assert final.winners and all(final.scores[w] == max(final.scores) for w in final.winners)

    short = load(4, max_hands=3, schedule="up")
    bots = [make_bot("ismcts:20", 1), make_bot("greedy", 2), make_bot("random", 3), make_bot("greedy", 4)]
    final = play_match(short, bots, seed=5)
    assert final.is_terminal and final.hand_number == 3


def test_describe_explains_the_bids_and_the_hook() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    result = CliRunner().invoke(cli, ["describe", str(SPEC)])
    assert result.exit_code == 0, result.output
    text = result.output.lower()
    assert "oh hell" in text and "hook" in text and "bid" in text
    assert "pagat" in text


def test_the_rule_readings_pass() -> None:
    from spelbok.analysis.readings import run_reading

    report = run_reading(READINGS)
    assert report.ok, report.format()
    assert report.passed >= 12
