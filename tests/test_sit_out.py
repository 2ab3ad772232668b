"""``sit_out``: seats that stay in the match but sit a hand out (lang/constructs/sit_out.py,
the engine's per-hand mask ``State.off``).  The toy spec tests/specs/sit_out.yaml is a game
for three played by three or four: with four the dealer sits each hand out."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.errors import SpelbokError

SPEC = str(Path(__file__).resolve().parent / "specs" / "sit_out.yaml")


def _state(players: int = 4, seed: int = 1) -> Any:
    return spelbok.load(SPEC, players=players).new_state(seed=seed, record=True)


def _play_out(st: Any, seed: int) -> list[tuple[int, int, str]]:
    """Random play to the end: (hand number, seat, action) of every move."""
    rng = random.Random(seed)
    moves = []
    while not st.is_terminal:
        p = st.current_player
        a = rng.choice(st.legal_actions())
        moves.append((st.hand_number, p, str(a)))
        st.apply(a)
    return moves


def test_the_dealer_of_four_is_dealt_nothing_the_others_their_cards() -> None:
    st = _state()
    assert st.dealer == 0
    assert [h.bit_count() for h in st.hands] == [0, 6, 6, 6]
    assert st.off == [True, False, False, False] and st.out == [False] * 4
    assert st.view(2)["sitting_out"] == [True, False, False, False]
    assert len(st.stock) == 24 - 18  # his six cards stay in the stock


def test_with_three_nobody_sits_out() -> None:
    st = _state(players=3)
    assert [h.bit_count() for h in st.hands] == [6, 6, 6]
    assert st.off == [False] * 3 and st.view(0)["sitting_out"] == [False] * 3


def test_the_sitter_never_has_a_turn_in_auction_decision_or_play() -> None:
    for seed in range(6):
        st = _state(seed=seed)
        for hand, seat, _ in _play_out(st, seed):
            assert seat != (hand - 1) % 4, (seed, hand, seat)  # the dealer of that hand


def test_the_auction_starts_at_forehand_and_ends_when_the_players_pass() -> None:
    st = _state()
    assert st.current_player == 1  # forehand: the dealer's left
    seen = []
    for _ in range(3):  # three passes: an all-pass (a wait for the sitter would hang here)
        seen.append(st.current_player)
        st.apply(next(a for a in st.legal_actions() if str(a) == "pass"))
    assert seen == [1, 2, 3]
    assert st.decision_name == "call"
    assert st.current_player == 1
    assert st.var("score") == [0, -1, -1, -1]  # all-pass: the players lose one, not the sitter


def test_decisions_in_turn_and_tricks_go_round_the_three_players() -> None:
    st = _state(seed=2)
    rng = random.Random(2)
    order = []
    while st.hand_number == 1 and not st.is_terminal:
        if st.decision_name == "call":
            order.append(st.current_player)
        st.apply(rng.choice(st.legal_actions()))
    assert order == [1, 2, 3]
    tricks = [e for e in st.log if e["event"] == "trick"]
    assert len(tricks) == 6
    for e in tricks:
        assert sorted(p for p, _ in e["cards"]) == [1, 2, 3]
    first = tricks[0]["cards"]
    assert first[0][0] == 1  # forehand leads


def test_the_sitter_scores_and_the_next_hand_has_the_next_sitter() -> None:
    st = _state(seed=3)
    rng = random.Random(3)
    sitters = {1: [0]}
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
        if not st.is_terminal:
            sitters[st.hand_number] = [p for p in range(4) if st.off[p]]
    assert sitters == {1: [0], 2: [1], 3: [2], 4: [3]}  # the dealer rotates over every seat
    assert st.var("sat") == [1, 1, 1, 1]  # each sat one hand out, and scored it
    events = [e for e in st.log if e["event"] == "sitting_out"]
    assert [e["seats"] for e in events] == [[0], [1], [2], [3]]
    assert len(st.scores) == 4 and len(st.winners) >= 1


def test_the_sitter_sees_no_hand_of_the_others() -> None:
    st = _state(seed=4)
    v = st.view(0)
    assert v["hand"] == [] and v["sitting_out"] == [True, False, False, False]
    assert all(k == [] for k in v["known_cards"])
    assert "legal_actions" not in v
    text = json.dumps(v)
    for p in (1, 2, 3):
        for card in st.view(p)["hand"]:
            assert f'"{card}"' not in text
    assert v["out"] == [False] * 4  # he is not out of the match


def test_snapshot_pickle_and_clone_keep_the_mask() -> None:
    import pickle

    st = _state(seed=5)
    st.apply(st.legal_actions()[0])
    again = spelbok.load(SPEC, players=4).restore(st.to_dict())
    assert again.off == st.off and again == st
    back = pickle.loads(pickle.dumps(st))
    assert back.off == st.off and back.off is not back.out
    c = st.clone()
    assert c.off == st.off and c.off is not st.off


def test_a_spec_without_sit_out_reads_the_out_list_itself() -> None:
    st = spelbok.load("knockout-whist", players=4).new_state(seed=1)
    assert st.off is st.out  # one list: nothing more to keep up on the hot path
    c = st.clone()
    assert c.off is c.out
    assert "sitting_out" not in st.view(0)


def test_eliminated_seats_are_off_too() -> None:
    game = spelbok.load(SPEC, players=4)
    st = game.new_state(seed=1)
    st.out[2] = True
    st.prog.seat_hand(st)
    assert st.off == [True, False, True, False]
    assert st.view(0)["sitting_out"] == [True, False, False, False]
    assert st.view(0)["out"] == [False, False, True, False]


def test_the_dsl_says_it_and_the_twin_is_the_same_model() -> None:
    from spelbok.lang.describe import describe
    from spelbok.lang.dsl import parse_dsl
    from spelbok.lang.dslwrite import to_dsl
    from spelbok.lang.model import normalize

    game = spelbok.load(SPEC)
    text = to_dsl(game.tree)
    assert "a player sits a hand out if seats == 4 and seat == dealer" in text
    again = normalize(parse_dsl(text, "x.spel")[0])
    assert again == game.tree
    assert "sits a hand out where" in describe(SPEC, players=4)


def _text() -> str:
    return Path(SPEC).read_text(encoding="utf-8")


def test_when_cannot_read_what_it_decides() -> None:
    with pytest.raises(SpelbokError, match="sits_out"):
        spelbok.load(_text().replace('when: "seats == 4 and seat == dealer"',
                                      'when: "sits_out"'), players=4)


def test_the_deck_check_counts_only_the_seats_dealt_to() -> None:
    eight = _text().replace("size: 6", "size: 8")  # 3 x 8 = 24 fits, 4 x 8 would not
    spelbok.load(eight, players=4)
    without = eight.replace("sit_out:", "sitting:").replace('  when: "seats', '  x: "s')
    without = "\n".join(line for line in without.splitlines()
                        if not line.startswith(("sitting:", '  x: "s', '  source: "r: with')))
    with pytest.raises(SpelbokError, match="too small"):
        spelbok.load(without, players=4)


def test_a_position_where_the_sitter_holds_cards_is_refused() -> None:
    game = spelbok.load(SPEC, players=4)
    with pytest.raises(SpelbokError, match="sitting this hand out"):
        game.new_state(position={"dealer": 0, "hands": {0: "AS", 1: "KS", 2: "QS", 3: "JS"}})
    st = game.new_state(position={"dealer": 0, "hands": {1: "KS", 2: "QS", 3: "JS"}})
    assert st.off == [True, False, False, False]


def test_the_rl_adapters_play_it() -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from spelbok.rl.pettingzoo import env

    api_test(env(SPEC, players=4, max_hands=2), num_cycles=20)
    pyspiel = pytest.importorskip("pyspiel")
    from spelbok.rl.openspiel import register

    short = register(SPEC)
    g = pyspiel.load_game(short, {"players": 4, "max_hands": 2})
    pyspiel.random_sim_test(g, num_sims=2, serialize=True, verbose=False)


def test_the_transcript_says_who_sits_out() -> None:
    from spelbok.view.narrator import transcript

    st = _state(seed=6)
    _play_out(st, 6)
    lines = transcript(st.log, ["P0", "P1", "P2", "P3"])
    said = [line.strip() for line in lines if "sits this hand out" in line]
    assert said == ["P0 sits this hand out", "P1 sits this hand out", "P2 sits this hand out",
                    "P3 sits this hand out"]
