"""Contract Bridge (specs/bridge.yaml): the dummy, the side score (shared checks: test_shelf.py)."""

from __future__ import annotations

from pathlib import Path

import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "bridge.yaml"


def test_the_dummy_is_shown_after_the_opening_lead_and_played_by_the_declarer() -> None:
    game = spelbok.load(SPEC, players=4)
    state = game.new_state(seed=1)
    dealer = state.dealer
    for call in ("one_club", "pass", "pass", "pass"):
        state.apply(call)
    declarer, dummy, leader = dealer, (dealer + 2) % 4, (dealer + 1) % 4
    assert state.current_player == leader
    assert state.view(leader)["known_cards"][dummy] == []  # not before the opening lead
    lead = state.legal_actions()[0]
    state.apply(lead)
    held = state.view(dummy)["hand"]
    for seat in range(4):  # every seat sees the dummy's hand once the lead is made
        if seat != dummy:
            assert state.view(seat)["known_cards"][dummy] == held
    # the dummy's turn: the declarer acts, with the dummy's cards under its duties
    assert state.current_player == declarer
    legal = [str(a) for a in state.legal_actions()]
    assert legal and set(legal) <= set(held)
    suit = str(lead)[-1]
    if any(c.endswith(suit) for c in held):
        assert all(c.endswith(suit) for c in legal)
    mine = state.view(declarer)["hand"][0]
    assert not state.is_legal(mine)  # the declarer's own card is not the dummy's
    # a whole hand: the dummy's seat is never asked to act while tricks are played
    while state.hand_number == 1 and not state.is_terminal:
        assert state.current_player != dummy
        state.apply(state.legal_actions()[0])


def test_both_partners_keep_the_side_score() -> None:
    game = spelbok.load(SPEC, players=4, options={"scoring": "duplicate", "boards": 4})
    state = game.new_state(seed=5)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    score = state.var("score")
    assert score[0] == score[2] and score[1] == score[3]
