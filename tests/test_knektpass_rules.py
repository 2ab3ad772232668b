"""Scenario tests for Knektpass, from the rules texts (seeds 000/001), on stacked decks."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.cards import card_id, names
from spelbok.errors import IllegalActionError


def stack(hands: dict[int, list[str]], turn_up: str, game: spelbok.Game, dealer: int = 0,
          packets: tuple[int, ...] = (2, 3), talon_top: list[str] | None = None) -> list[str]:
    """A deck (top first) that deals ``hands`` in the given packets from the dealer's left."""
    n = game.players
    order = [(dealer + i) % n for i in range(1, n + 1)]
    deck: list[str] = []
    taken = {p: 0 for p in order}
    for k in packets:
        for p in order:
            deck.extend(hands[p][taken[p]:taken[p] + k])
            taken[p] += k
    deck.append(turn_up)
    deck.extend(talon_top or [])
    used = set(deck)
    deck.extend(c for c in game.deck if c not in used)
    return deck


def legal(state: spelbok.State) -> list[str]:
    return sorted(str(a) for a in state.legal_actions())


@pytest.fixture(scope="module")
def g2() -> spelbok.Game:
    return spelbok.load("knektpass", players=2)


def start(game: spelbok.Game, hands: dict[int, list[str]], turn_up: str, **kw: object) -> spelbok.State:
    return game.new_state(seed=1, deck=stack(hands, turn_up, game, **kw), dealer=0)  # type: ignore[arg-type]


HANDS = {1: ["JD", "AS", "KS", "6C", "7C"], 0: ["JC", "AH", "9S", "8D", "6D"]}


def to_tricks(state: spelbok.State, announce: tuple[str, ...] = ("play", "play")) -> None:
    state.apply("swap")
    for word in announce:
        state.apply(word)
    while state.legal_actions() and str(state.legal_actions()[0]).startswith("exchange"):
        state.apply("exchange")


def test_pack_depends_on_player_count() -> None:
    assert len(spelbok.load("knektpass", players=2).deck) == 36
    assert len(spelbok.load("knektpass", players=3).deck) == 36
    assert len(spelbok.load("knektpass", players=4).deck) == 52
    assert "2C" not in spelbok.load("knektpass", players=3).deck


def test_deal_in_packets_of_two_then_three_from_dealers_left(g2: spelbok.Game) -> None:
    s = start(g2, HANDS, "7H")
    assert sorted(names(s.hands[0])) == sorted(HANDS[0])
    assert sorted(names(s.hands[1])) == sorted(HANDS[1])
    assert s.trump_letter() == "H"
    assert [c for c in s.view(1)["turn_up"]] == ["7H"]
    assert len(s.stock) == 36 - 11


def test_dealer_may_swap_with_turn_up_first(g2: spelbok.Game) -> None:
    s = start(g2, HANDS, "7H")
    assert s.current_player == 0
    assert legal(s) == sorted(["swap"] + [f"swap {c}" for c in ["JC", "AH", "9S", "8D", "6D"]])
    s.apply("swap 6d")
    assert "7H" in names(s.hands[0]) and "6D" not in names(s.hands[0])
    # the taken turn-up is public knowledge; the discard is not
    v1 = s.view(1)
    assert v1["known_cards"][0] == ["7H"]
    assert "6D" not in str(v1)
    assert s.view(0)["own_discards"] == ["6D"]


def test_announce_from_forehand_then_exchange_in_turn(g2: spelbok.Game) -> None:
    s = start(g2, HANDS, "7H")
    s.apply("swap")
    assert s.current_player == 1 and legal(s) == ["pass", "play"]
    s.apply("play")
    assert s.current_player == 0
    s.apply("play")
    assert s.current_player == 1
    assert "exchange" in legal(s) and "exchange 6C 7C" in legal(s)
    s.apply("exchange 6C 7C")
    assert s.var("exchanged")[1] == 2
    assert len(s.stock) == 25 - 2
    assert s.current_player == 0


def test_top_trumps_rank_and_heading(g2: spelbok.Game) -> None:
    s = start(g2, HANDS, "7H")
    to_tricks(s)
    assert s.current_player == 1  # forehand leads
    s.apply("AS")
    assert legal(s) == ["9S"]  # must follow; cannot head, so any spade
    s.apply("9S")
    assert s.won == [0, 1]
    s.apply("JD")  # a jack leads trumps
    assert legal(s) == ["JC"]  # must follow trumps AND head: only JC beats JD (AH does not)
    with pytest.raises(IllegalActionError, match="head"):
        s.apply("AH")
    s.apply("JC")
    assert s.won == [1, 1]


def test_void_player_must_trump_by_default_and_any_card_in_the_any_reading() -> None:
    hands = {1: ["AS", "KS", "QS", "6C", "7C"], 0: ["JC", "AH", "8D", "6D", "9C"]}
    for options, expect in (({}, ["AH", "JC"]), ({"void_rule": "any"}, ["6D", "8D", "9C", "AH", "JC"])):
        game = spelbok.load("knektpass", players=2, options=options)
        s = start(game, hands, "7H")
        to_tricks(s)
        s.apply("AS")
        assert legal(s) == sorted(expect), options


def test_all_pass_redeals_with_the_same_dealer(g2: spelbok.Game) -> None:
    s = start(g2, HANDS, "7H")
    s.apply("swap")
    s.apply("pass")
    s.apply("pass")
    assert s.hand_number == 1 and s.dealer == 0 and s.hands_played == 1
    assert s.current_player == 0  # the dealer again decides on the new turn-up


def test_sole_player_deducts_five_and_the_hand_ends() -> None:
    game = spelbok.load("knektpass", players=3)
    hands = {1: ["JD", "AS", "KS", "6C", "7C"], 2: ["JC", "AH", "9S", "8D", "6D"],
             0: ["JH", "AC", "KC", "QC", "10C"]}
    s = game.new_state(seed=2, deck=stack(hands, "7H", game), dealer=0)
    s.apply("swap")
    s.apply("pass")  # seat 1
    s.apply("play")  # seat 2
    s.apply("pass")  # dealer
    assert s.scores == [12, 12, 7]
    assert s.hand_number == 2 and s.dealer == 1


def play_out(s: spelbok.State) -> None:
    while s.hand_number == 1 and not s.is_terminal:
        s.apply(s.legal_actions()[0])


@pytest.mark.parametrize(
    "exchange, expect",
    [
        # seat 1 keeps everything: 1 trick taken, 0 exchanged -> -1
        ("exchange", [12 - 4, 12 - 1]),
        # seat 1 exchanges two cards and takes only the one trick -> +5
        ("exchange 6C 7C", [12 - 4, 12 + 5]),
    ],
)
def test_scoring_tricks_against_cards_exchanged(g2: spelbok.Game, exchange: str, expect: list[int]) -> None:
    # dealer (seat 0) holds four top trumps; seat 1 can only win with AS.
    hands = {1: ["AS", "9S", "8S", "6C", "7C"], 0: ["JC", "JS", "JH", "JD", "6S"]}
    s = start(g2, hands, "7H", talon_top=["6H", "8H"])
    s.apply("swap")
    s.apply("play")
    s.apply("play")
    s.apply(exchange)
    while s.current_player is not None and str(s.legal_actions()[0]).startswith("exchange"):
        s.apply("exchange")
    assert s.current_player == 1
    s.apply("AS")
    s.apply("6S")
    play_out(s)
    assert s.scores == expect


def test_failing_by_two_tricks_costs_ten(g2: spelbok.Game) -> None:
    hands = {1: ["6S", "9S", "8S", "6C", "7C"], 0: ["JC", "JS", "JH", "JD", "AS"]}
    s = start(g2, hands, "7H", talon_top=["7S", "8C"])
    s.apply("swap")
    s.apply("play")
    s.apply("play")
    s.apply("exchange 6C 7C")  # draws 7S 8C: still no trick possible
    while s.current_player is not None and str(s.legal_actions()[0]).startswith("exchange"):
        s.apply("exchange")
    play_out(s)
    assert s.scores == [12 - 5, 12 + 10]


def test_reaching_zero_wins() -> None:
    game = spelbok.load("knektpass", players=2)
    s = game.new_state(seed=5)
    rows = s.game.program.pvar_names
    s.pv_rows[rows.index("score")] = [1, 9]
    play_guard = 0
    while not s.is_terminal and play_guard < 2000:
        acts = s.legal_actions()
        pick = next((a for a in acts if str(a) == "play"), acts[0])
        s.apply(pick)
        play_guard += 1
    assert s.is_terminal
    assert min(s.scores) <= 0
    # all who reached 0 share the win (zero_tie: share)
    assert s.winners == [p for p in range(2) if s.scores[p] <= 0]


@pytest.mark.parametrize("zero_tie", ["share", "lowest"])
def test_several_at_zero_and_the_hand_bound(zero_tie: str) -> None:
    game = spelbok.load("knektpass", players=3, options={"zero_tie": zero_tie}, max_hands=1)
    # seats 0 and 1 reach 0 in the same deal
    s = game.new_state(position={"phase": "after tricks", "score": [1, 1, 12],
                                 "exchanged": [0, 0, 0], "tricks": [3, 1, 1]})
    assert s.scores == [-2, 0, 11]
    assert s.winners == ([0, 1] if zero_tie == "share" else [0])
    # stopped by the hand bound with nobody at 0: the lowest score wins either way
    s = game.new_state(position={"phase": "after tricks", "score": [5, 6, 7],
                                 "exchanged": [0, 0, 0], "tricks": [1, 2, 2]})
    assert s.is_terminal and s.scores == [4, 4, 5] and s.winners == [0, 1]


def test_jack_card_ids_are_consistent() -> None:
    assert card_id("J♣") == card_id("jc")


def test_lowest_cut_deals_first_and_ties_cut_again() -> None:
    game = spelbok.load("knektpass", players=4)
    order = game.program.cut_power
    ties = 0
    for seed in range(60):
        log = game.new_state(seed=seed, record=True).log
        cuts = [e for e in log if e["event"] == "cut"]
        first = next(e for e in log if e["event"] == "first_dealer")
        last = {p: card_id(c) for p, c in cuts[-1]["cards"]}
        low = min(order[c] for c in last.values())
        assert [p for p, c in last.items() if order[c] == low] == [first["dealer"]]
        ties += len(cuts) > 1
        if len(cuts) > 1:  # only the tied players cut again
            prev = {p: card_id(c) for p, c in cuts[-2]["cards"]}
            low_prev = min(order[c] for c in prev.values())
            assert sorted(last) == sorted(p for p, c in prev.items() if order[c] == low_prev)
    assert ties > 0  # the seeds above include re-cuts
