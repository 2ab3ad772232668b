"""Scenario tests for Knock-out Whist (seed 002), on stacked decks and positions.

Seats are numbered clockwise; with ``dealer=0`` seat 1 is forehand (the
dealer's left). Hand 1 is stacked; later hands are shuffled by the seed, so
tests that need exact later hands start from a ``position`` instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.cards import card_id, names
from spelbok.errors import IllegalActionError

SPEC = Path(__file__).resolve().parent.parent / "specs" / "knockout-whist.yaml"
DSL = SPEC.with_suffix(".spel")
VARIANTS = SPEC.parent / "variants"

SUIT_ORDER = "CSHD"


# -- helpers ------------------------------------------------------------------------------------


def load(players: int, **options: Any) -> spelbok.Game:
    return spelbok.load(SPEC, players=players, options=options or None)


def stack(game: spelbok.Game, hands: dict[int, str], turn_up: str, dealer: int = 0) -> list[str]:
    """A deck (top first) that deals ``hands`` one card at a time from the dealer's left."""
    n = game.players
    order = [(dealer + i) % n for i in range(1, n + 1)]
    cards = {p: hands.get(p, "").split() for p in order}
    deck: list[str] = []
    for r in range(max(len(c) for c in cards.values())):
        for p in order:
            if r < len(cards[p]):
                deck.append(cards[p][r])
    deck.append(turn_up)
    used = set(deck)
    assert len(used) == len(deck), "a card is dealt twice"
    deck.extend(c for c in game.deck if c not in used)
    return deck


def start(game: spelbok.Game, hands: dict[int, str], turn_up: str, seed: int = 1,
          dealer: int = 0) -> spelbok.State:
    return game.new_state(seed=seed, deck=stack(game, hands, turn_up, dealer), dealer=dealer)


def legal(state: spelbok.State) -> list[str]:
    return sorted(str(a) for a in state.legal_actions())


def var(state: spelbok.State, name: str) -> Any:
    """A declared variable: a list per seat, or one value."""
    return state.var(name)


def held(state: spelbok.State, seat: int) -> list[str]:
    return names(state.hands[seat])


def sizes(state: spelbok.State) -> list[int]:
    return [h.bit_count() for h in state.hands]


def lowest(state: spelbok.State) -> str:
    """The lowest-ranked legal card (a fixed, simple policy); knocks are never chosen."""
    cards = [a for a in state.legal_actions() if str(a) != "knock"]
    return str(min(cards, key=lambda a: (card_id(str(a)) % 13, card_id(str(a)) // 13)))


def finish_hand(state: spelbok.State, policy=lowest) -> None:
    """Play the rest of the current hand's tricks with ``policy``."""
    number = state.hand_number
    while not state.is_terminal and state.hand_number == number:
        acts = legal(state)
        if acts and acts[0].startswith("trump"):
            return  # the next hand's trump decision belongs to the next hand
        state.apply(policy(state))


def tricks_of_hand(state: spelbok.State, nth: int) -> list[int]:
    """Tricks per seat of the ``nth`` hand finished in this state (1 = the first)."""
    ends = [e for e in state.log if e["event"] == "end_hand"]
    return ends[nth - 1]["tricks"]


# -- a hand 1 whose outcome is fixed by the lowest-card policy ---------------------------------
# Trump hearts (turn-up 8H). Seat 1 (forehand) leads 2C, seat 2 wins it with AC,
# then leads spades, which seat 1 trumps; seat 1 wins the rest: tricks 1:6, 2:1, 0:0.

THREE = {
    1: "AH KH QH JH 10H 9H 2C",
    2: "AC 2S 3S 4S 5S 6S 7S",
    0: "2D 3D 4D 5D 6D 7D 8D",
}


# ============================================================================ the spec itself


def test_yaml_and_dsl_twins_have_the_same_model() -> None:
    from spelbok.lang.loader import read_spec

    assert read_spec(SPEC).tree == read_spec(DSL).tree


def test_spec_is_valid() -> None:
    from spelbok.validation import validate

    assert validate(SPEC) == []
    assert validate(DSL) == []


def test_two_to_seven_players_and_a_full_pack() -> None:
    for n in range(2, 8):
        assert len(load(n).deck) == 52
    for n in (1, 8):
        with pytest.raises(spelbok.SpecError):
            load(n)


# ============================================================================ deal and trumps


def test_first_hand_is_seven_cards_each_and_a_turn_up_for_trump() -> None:
    st = start(load(3), THREE, "8H")
    assert sizes(st) == [7, 7, 7]
    assert st.trump_letter() == "H"
    assert names(1 << card_id("8H")) == ["8H"]
    assert [names(1 << c) for c in st.turn_up] == [["8H"]]
    assert st.current_player == 1  # forehand leads the first trick, any card
    assert legal(st) == sorted(THREE[1].split())


def test_each_hand_has_one_card_fewer_and_the_deal_rotates_left() -> None:
    # 7 players: with random play, hand k deals 8 - k cards (1 to a dog), dealer moves left
    game = load(7)
    import random

    rng = random.Random(3)
    seen_sizes: dict[int, set[int]] = {}
    for seed in range(20):
        st = game.new_state(seed=seed, dealer=0)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        deals = [e for e in st.log if e["event"] == "deal"]
        hands = [e for e in st.log if e["event"] == "hand"]
        assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
        assert hands[0]["dealer"] == 0
        for k, deal in enumerate(deals, start=1):
            counts = [len(h) for h in deal["hands"] if h]
            assert max(counts) == 8 - k
            assert set(counts) <= {8 - k, 1}
            seen_sizes.setdefault(k, set()).update(counts)
        for prev, nxt in zip(hands, hands[1:]):
            # the deal passes left, skipping players who are out
            assert nxt["dealer"] != prev["dealer"]
    assert seen_sizes[1] == {7}
    assert {6, 5, 4} <= set().union(*(seen_sizes.get(k, set()) for k in (2, 3, 4)))


def test_scripted_match_hand_sizes_7_6_5_with_the_dog_on_one_card() -> None:
    st = start(load(3), THREE, "8H")
    finish_hand(st)
    assert tricks_of_hand(st, 1) == [0, 6, 1]
    assert st.hand_number == 2 and st.dealer == 1
    assert sizes(st) == [1, 6, 6]  # seat 0 took no trick: a dog's life, one card
    assert var(st, "dog") == [True, False, False]
    assert st.out == [False, False, False]


def test_most_tricks_names_trumps_in_later_hands() -> None:
    st = start(load(3), THREE, "8H")
    finish_hand(st)
    assert st.current_player == 1  # six tricks last hand
    assert legal(st) == ["trump C", "trump D", "trump H", "trump S"]
    with pytest.raises(IllegalActionError, match="name a suit"):
        st.apply(held(st, 1)[0])  # a card is no answer to the trump decision
    st.apply("trump S")
    assert st.trump_letter() == "S"
    assert not st.turn_up  # no turn-up after the first hand
    assert st.current_player == 2  # forehand (left of dealer 1) leads by default
    decisions = [e for e in st.log if e["event"] == "decision"]
    assert decisions[-1] == {"seat": 1, "decision": "trump", "action": "trump S",
                             "event": "decision"}


def test_a_tie_for_most_tricks_is_cut() -> None:
    # 4 players, hand 2 begins after seats 1 and 2 took 3 tricks each
    game = load(4)
    chosen = set()
    for seed in range(12):
        st = game.new_state(seed=seed, position={
            "hand_number": 1, "dealer": 0, "phase": "after tricks",
            "tricks": {0: 0, 1: 3, 2: 3, 3: 1}, "trump": "H"})
        assert st.hand_number == 2
        cut = [e for e in st.log if e["event"] == "cut_tie"]
        assert len(cut) == 1 and sorted(cut[0]["among"]) == [1, 2]
        assert st.current_player == cut[0]["chosen"]
        chosen.add(st.current_player)
    assert chosen == {1, 2}


# ============================================================================ tricks


def test_must_follow_suit_else_any_card() -> None:
    hands = {
        1: "AS 2S 3H 4H 5H 6H 7H",
        2: "KS 3S 2C 3C 4C 5C 6C",
        3: "2D 3D 4D 5D 6D 7D 8D",
        0: "AC KC QC JC 10C 9C 8C",
    }
    st = start(load(4), hands, "QH")
    st.apply("2S")
    assert legal(st) == ["3S", "KS"]  # seat 2 holds spades: must follow
    with pytest.raises(IllegalActionError, match="follow suit"):
        st.apply("2C")
    st.apply("3S")
    assert legal(st) == sorted(hands[3].split())  # void: any card
    st.apply("8D")
    assert legal(st) == sorted(hands[0].split())
    st.apply("AC")
    trick = [e for e in st.log if e["event"] == "trick"][0]
    assert trick["winner"] == 2  # highest spade; the off-suit ace and eight do not win


def test_highest_trump_wins_and_the_winner_leads() -> None:
    hands = {
        1: "AS 2S 3H 4H 5H 6H 7H",
        2: "KS 3S 2C 3C 4C 5C 6C",
        3: "2D 3D 4D 5D 6D 7D 8D",
        0: "AC KC QC JC 10C 9C 8C",
    }
    st = start(load(4), hands, "QD")  # diamonds trump
    for card in ("AS", "KS", "2D", "AC"):
        st.apply(card)
    assert [e for e in st.log if e["event"] == "trick"][0]["winner"] == 3
    assert st.current_player == 3  # the winner leads next
    for card in ("3D", "KC", "7H", "3S"):  # a trump led, nobody can follow: it wins
        st.apply(card)
    assert [e for e in st.log if e["event"] == "trick"][1]["winner"] == 3
    assert st.won == [0, 0, 0, 2]


# ============================================================================ elimination


def test_a_player_without_a_trick_is_out_once_the_dogs_life_is_gone() -> None:
    game = load(4)
    st = game.new_state(seed=2, position={
        "hand_number": 3, "dealer": 0, "phase": "after tricks", "trump": "S",
        "tricks": {0: 0, 1: 3, 2: 2, 3: 0}, "vars": {"dog_lives": 0, "dog_hand": 1}})
    assert st.out == [True, False, False, True]
    assert var(st, "dog") == [False] * 4
    assert [e["seat"] for e in st.log if e["event"] == "eliminated"] == [3, 0]
    assert not st.is_terminal
    assert st.dealer == 1 and sizes(st) == [0, 4, 4, 0]


def test_the_first_player_without_a_trick_gets_the_dogs_life() -> None:
    game = load(4)
    st = game.new_state(seed=2, position={
        "hand_number": 2, "dealer": 0, "phase": "after tricks", "trump": "S",
        "tricks": {0: 0, 1: 4, 2: 2, 3: 0}})
    # forehand is seat 1, so seat 3 comes before seat 0 in the order of play
    assert var(st, "dog") == [False, False, False, True]
    assert st.out == [True, False, False, False]
    assert var(st, "dog_lives") == 0 and var(st, "dog_hand") == 2
    assert sizes(st) == [0, 5, 5, 1]


# ============================================================================ the dog's life

# Hand 2, three players, dealer 1 (forehand 2); seat 0 is on a dog's life.
DOG_POS: dict[str, Any] = {
    "hand_number": 2, "dealer": 1, "trump": "S",
    "hands": {0: "AH", 1: "2C 3C 4C 5C 6C 7C", 2: "2H 3H 4H 5H 6H 7H"},
    "vars": {"dog": [True, False, False], "dog_lives": 0, "dog_hand": 1},
}


def dog_state(**options: Any) -> spelbok.State:
    return load(3, **options).new_state(seed=5, position=DOG_POS)


def test_the_dog_may_knock_at_any_trick_until_its_card_must_go() -> None:
    st = dog_state()
    assert st.current_player == 2
    st.apply("7H")
    assert st.current_player == 0
    assert legal(st) == ["AH", "knock"]
    for lead in ("7H", "6H", "5H", "4H", "3H"):
        if st.current_player == 2:
            st.apply(lead)
        assert st.current_player == 0
        assert "knock" in legal(st)
        st.apply("knock")
        st.apply(lowest(st))  # seat 1 discards a club; seat 2 wins
    # last trick: one card, one trick left, no knock
    st.apply("2H")
    assert legal(st) == ["AH"]
    with pytest.raises(IllegalActionError, match="knock"):
        st.apply("knock")
    assert [e["seat"] for e in st.log if e["event"] == "knock"] == [0] * 5


def test_a_dog_that_wins_a_trick_is_back_in_properly_next_hand() -> None:
    st = dog_state()
    st.apply("7H")
    st.apply("AH")  # the dog wins with the ace
    st.apply("2C")
    assert [e for e in st.log if e["event"] == "trick"][0]["winner"] == 0
    # the dog has no card left: the player on its left leads the next trick
    assert st.current_player == 1
    finish_hand(st)  # seat 1 leads clubs and wins every other trick
    assert tricks_of_hand(st, 1) == [1, 5, 0]
    assert st.hand_number == 3
    assert var(st, "dog") == [False, False, False]
    assert st.out == [False, False, True]  # seat 2 took none and the dog's life is spent
    # the next hand deals 8 - 3 = 5 cards to everyone still in, the old dog included
    assert sizes(st) == [5, 5, 0]
    assert st.dealer == 0  # the deal passes left from seat 1, skipping seat 2


def test_a_dog_that_waits_for_the_last_trick_may_still_win_it() -> None:
    st = dog_state()
    for lead in ("7H", "6H", "5H", "4H", "3H"):
        st.apply(lead)
        st.apply("knock")
        st.apply(lowest(st))
    st.apply("2H")
    st.apply("AH")  # forced now, and it wins the last trick
    st.apply("7C")
    assert tricks_of_hand(st, 1) == [1, 0, 5]
    assert st.out == [False, True, False]
    assert var(st, "dog") == [False, False, False]


def test_a_dog_whose_card_never_wins_is_knocked_out() -> None:
    pos = dict(DOG_POS, hands={0: "2D", 1: "2C 3C 4C 5C 6C 7C", 2: "2H 3H 4H 5H 6H 7H"})
    st = load(3).new_state(seed=5, position=pos)
    finish_hand(st)  # the lowest-card policy plays the dog's 2D at once; it cannot win
    assert tricks_of_hand(st, 1) == [0, 0, 6]
    assert st.out == [True, True, False]  # the dog failed; seat 1 took none, no life left
    assert st.is_terminal and st.winners == [2]


def test_the_dog_leads_or_knocks_when_due_to_lead() -> None:
    pos = dict(DOG_POS, dealer=2)  # forehand is now the dog, seat 0
    st = load(3).new_state(seed=5, position=pos)
    assert st.current_player == 0
    assert legal(st) == ["AH", "knock"]
    st.apply("knock")
    assert st.current_player == 1  # the lead passes to the left
    assert legal(st) == sorted(["2C", "3C", "4C", "5C", "6C", "7C"])


# ============================================================================ end of the match


def test_taking_every_trick_wins_the_match() -> None:
    hands = {1: "AH KH QH JH 10H 9H 8H", 2: "2C 3C 4C 5C 6C 7C 8C", 0: "2S 3S 4S 5S 6S 7S 8S"}
    st = start(load(3), hands, "2H")
    finish_hand(st)
    assert st.is_terminal
    assert st.won == [0, 7, 0]
    assert st.winners == [1]
    assert st.out == [True, False, True]  # no dog's life after a clean sweep (default)
    assert st.scores == [0, 1, 0]  # hands come through still in
    assert st.log[-1]["event"] == "match_end"


def test_the_last_player_left_wins_and_scores_count_hands_survived() -> None:
    # hand 4, three players, seat 0 is the dog and fails; seat 2 takes no trick
    game = load(3)
    st = game.new_state(seed=3, position={
        "hand_number": 4, "dealer": 0, "phase": "after tricks", "trump": "C",
        "tricks": {0: 0, 1: 4, 2: 0},
        "vars": {"dog": [True, False, False], "dog_lives": 0, "dog_hand": 3,
                 "survived": [3, 3, 3]}})
    assert st.is_terminal
    assert st.winners == [1]
    assert st.scores == [3, 4, 3]


def test_two_players_play_at_most_seven_hands() -> None:
    game = load(2)
    import random

    rng = random.Random(1)
    longest = 0
    for seed in range(60):
        st = game.new_state(seed=seed)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        assert not st.outcome["limit_reached"]
        assert len(st.winners) == 1
        longest = max(longest, st.hands_played)
    assert longest <= 7


# ============================================================================ options


def test_option_hand_leader_chooser_leads() -> None:
    st = start(load(3, hand_leader="chooser"), THREE, "8H")
    assert st.current_player == 1  # hand 1: forehand as always
    finish_hand(st)
    st.apply("trump S")
    assert st.current_player == 1  # the chooser, not forehand (seat 2)


def test_option_clean_sweep_dog_life() -> None:
    hands = {1: "AH KH QH JH 10H 9H 8H", 2: "2C 3C 4C 5C 6C 7C 8C", 0: "2S 3S 4S 5S 6S 7S 8S"}
    st = start(load(3, clean_sweep="dog_life"), hands, "2H")
    finish_hand(st)
    assert not st.is_terminal
    assert st.out == [True, False, False]
    assert var(st, "dog") == [False, False, True]  # seat 2 comes first after forehand
    assert sizes(st) == [0, 6, 1]


def test_option_the_dog_must_follow_suit() -> None:
    default = dog_state()
    default.apply("7H")
    assert legal(default) == ["AH", "knock"]
    st = dog_state(dog_knock_with_suit=False)
    st.apply("7H")
    assert legal(st) == ["AH"]  # a heart is led and the dog holds one
    st.apply("AH")
    st.apply("2C")
    # a club lead: the dog has no card now, nothing to decide
    assert st.current_player == 1


def test_option_the_dog_must_lead_when_due() -> None:
    pos = dict(DOG_POS, dealer=2)
    st = load(3, dog_knock_on_lead=False).new_state(seed=5, position=pos)
    assert st.current_player == 0
    assert legal(st) == ["AH"]


@pytest.mark.parametrize("rule, dogs, out, lives", [
    ("first", [False, False, False, True], [True, False, False, False], 0),
    ("all", [True, False, False, True], [False, False, False, False], 0),
    ("none", [False, False, False, False], [True, False, False, True], 1),
])
def test_option_dog_tie(rule: str, dogs: list[bool], out: list[bool], lives: int) -> None:
    st = load(4, dog_tie=rule).new_state(seed=2, position={
        "hand_number": 2, "dealer": 0, "phase": "after tricks", "trump": "S",
        "tricks": {0: 0, 1: 4, 2: 2, 3: 0}})
    assert var(st, "dog") == dogs
    assert st.out == out
    assert var(st, "dog_lives") == lives


def test_option_dog_tie_none_keeps_the_dogs_life_for_later() -> None:
    st = load(4, dog_tie="none").new_state(seed=2, position={
        "hand_number": 3, "dealer": 0, "phase": "after tricks", "trump": "S",
        "tricks": {1: 4, 2: 1, 3: 0}, "out": [0]})
    assert var(st, "dog") == [False, False, False, True]  # a single blank: the dog's life


def test_no_dogs_life_after_the_one_card_hand_and_with_dog_tie_all() -> None:
    # hand 7 has one trick: it is always a sweep, so the match ends there
    st = load(3, clean_sweep="dog_life").new_state(seed=2, position={
        "hand_number": 7, "dealer": 0, "phase": "after tricks", "trump": "S",
        "tricks": {0: 0, 1: 1, 2: 0}})
    assert st.is_terminal and st.winners == [1]


def test_option_lead_trumps_broken() -> None:
    hands = {
        1: "AH KH 2S 3S 4S 5S 6S",
        2: "7S 8S 9S 10S 2C 3C 4C",
        0: "2D 3D 4D 5D 6D 7D 8D",
    }
    free = start(load(3), hands, "2H")
    assert "AH" in legal(free)
    st = start(load(3, lead_trumps="broken"), hands, "2H")
    assert legal(st) == sorted(["2S", "3S", "4S", "5S", "6S"])
    with pytest.raises(IllegalActionError, match="trumps may not be led"):
        st.apply("AH")
    st.apply("2S")
    st.apply("7S")
    st.apply("2D")  # nobody trumped: still not broken
    assert st.current_player == 2
    st.apply("2C")  # seat 2 leads a club; seat 0 is void in clubs
    st.apply("3D")
    st.apply("KH")  # seat 1 trumps a club: trumps are broken
    assert st.current_player == 1
    assert "AH" in legal(st)


def test_option_no_trumps_in_the_first_trick() -> None:
    hands = {
        1: "2C 3C 4C 5C 6C 7C 8C",
        2: "AH 2S 3S 4S 5S 6S 7S",
        0: "KH QH JH 10H 9H 8H 7H",
    }
    st = start(load(3, first_trick_trumps=False), hands, "2H")
    st.apply("8C")
    assert legal(st) == sorted(["2S", "3S", "4S", "5S", "6S", "7S"])  # the trump ace is barred
    st.apply("7S")
    assert legal(st) == sorted(["KH", "QH", "JH", "10H", "9H", "8H", "7H"])  # nothing but trumps: forced
    st.apply("KH")
    trick = [e for e in st.log if e["event"] == "trick"][0]
    assert trick["winner"] == 1  # the forced trump counts as a plain card
    st.apply("7C")
    assert "AH" in legal(st)  # from the second trick on, trumps are free


def test_reading_out_players_keep_dealing() -> None:
    pos = {"hand_number": 2, "dealer": 0, "phase": "after tricks", "trump": "S",
           "tricks": {0: 2, 1: 0, 2: 2, 3: 2}, "vars": {"dog_lives": 0, "dog_hand": 1}}
    st = load(4).new_state(seed=4, position=pos)
    assert st.out == [False, True, False, False]
    assert st.dealer == 2  # seat 1 is out: the deal skips it
    variant = spelbok.load(VARIANTS / "knockout-whist-out-players-deal.yaml", players=4)
    st = variant.new_state(seed=4, position=pos)
    assert st.out == [False, True, False, False]
    assert st.dealer == 1  # the knocked-out player deals
    assert sizes(st) == [5, 0, 5, 5]
    assert st.current_player in (0, 2, 3)  # a three-way tie for most tricks is cut


# ============================================================================ variants


def test_variant_without_the_dog() -> None:
    st = spelbok.load(VARIANTS / "knockout-whist-no-dog.yaml", players=3).new_state(
        seed=1, deck=stack(load(3), THREE, "8H"), dealer=0)
    finish_hand(st)
    assert st.out == [True, False, False]
    assert var(st, "dog") == [False] * 3
    assert sizes(st) == [0, 6, 6]


def test_variant_misere() -> None:
    misere = spelbok.load(VARIANTS / "knockout-whist-misere.yaml", players=3)
    st = misere.new_state(seed=1, deck=stack(misere, THREE, "8H"), dealer=0)
    finish_hand(st)
    # tricks 0:0, 1:6, 2:1 -> seat 1 took two or more: the first knocked out, a dog's life
    assert st.out == [False, False, False]
    assert var(st, "dog") == [False, True, False]
    assert sizes(st) == [6, 1, 6]
    # everyone took two or more: those with the fewest stay
    st = misere.new_state(seed=1, position={
        "hand_number": 1, "dealer": 0, "phase": "after tricks", "trump": "S",
        "tricks": {0: 2, 1: 3, 2: 2}, "vars": {"dog_lives": 0}})
    assert st.out == [False, True, False]
    # a dog whose card takes a trick is out
    st = misere.new_state(seed=1, position={
        "hand_number": 2, "dealer": 0, "phase": "after tricks", "trump": "S",
        "tricks": {0: 1, 1: 5, 2: 0}, "vars": {"dog": [True, False, False], "dog_lives": 0}})
    assert st.out == [True, True, False]
    assert st.is_terminal and st.winners == [2]
    # after the one-card hand the players still in share the win
    st = misere.new_state(seed=1, position={
        "hand_number": 7, "dealer": 0, "phase": "after tricks", "trump": "S",
        "tricks": {0: 1, 1: 0, 2: 0}})
    assert st.is_terminal and st.winners == [0, 1, 2]


# -- what breaks trumps (variant knockout-whist-trumps-broken) ---------------------------------

BROKEN = VARIANTS / "knockout-whist-trumps-broken.yaml"
# seat 2 holds only trumps and leads one; nobody plays a trump to another suit
ALL_TRUMPS_LEAD = {"trump": "S", "dealer": 3, "leader": 2,
                   "hands": {0: "KS QS 4D", 1: "5S 2C 2H", 2: "2S 4S 6S", 3: "3S 2D 3C"}}


def test_a_trump_led_from_a_hand_of_trumps_does_not_break_trumps() -> None:
    st = spelbok.load(BROKEN, players=4).new_state(seed=1, position=ALL_TRUMPS_LEAD)
    for card in ("2S", "3S", "KS", "5S"):
        st.apply(card)
    assert st.current_player == 0 and not st.broken
    assert legal(st) == ["4D"]
    with pytest.raises(IllegalActionError, match="QS is not allowed: trumps may not be led until"):
        st.apply("QS")


def test_option_trumps_broken_by_any_counts_every_trump_played() -> None:
    game = spelbok.load(BROKEN, players=4, options={"trumps_broken_by": "any"})
    st = game.new_state(seed=1, position=ALL_TRUMPS_LEAD)
    st.apply("2S")  # the forced lead of a trump breaks them at once
    assert st.broken
    for card in ("3S", "KS", "5S"):
        st.apply(card)
    assert legal(st) == ["4D", "QS"]


def test_trumps_broken_by_is_offered_only_where_trumps_can_be_broken() -> None:
    assert "trumps_broken_by" not in load(3).options
    assert spelbok.load(BROKEN, players=3).options["trumps_broken_by"] == "ruff"
