"""General constructs beyond the seed games: drawing after each trick, phases,
moves between zones, a widow, numeric bids with constraints, conditional
words, partnerships."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
from spelbok.cards import names
from spelbok.conformance import check_game
from spelbok.validate import validate

HERE = Path(__file__).resolve().parent / "specs"
DRAW = HERE / "draw_after_trick.yaml"
BIDS = HERE / "bids_and_teams.yaml"


@pytest.mark.parametrize("path", [DRAW, BIDS], ids=lambda p: p.stem)
def test_specs_validate_and_conform(path: Path) -> None:
    assert validate(path) == []
    tree = spelbok.load(path).tree
    for n in range(tree["players"]["min"], tree["players"]["max"] + 1):
        rep = check_game(spelbok.load(path, players=n), matches=40, seed=n)
        assert rep.ok, rep.failures


def test_winner_takes_the_turn_up_and_loser_draws_blind() -> None:
    g = spelbok.load(DRAW, players=2)
    s = g.new_state(seed=3)
    [up] = s.view(0)["turn_up"]
    assert s.trump_letter() == up[-1]
    talon = len(s.stock)
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    w = s.last_winner
    assert up in names(s.hands[w])
    assert s.view(1 - w)["known_cards"][w] == [up]  # both saw who took it
    assert [h.bit_count() for h in s.hands] == [13, 13]
    assert len(s.stock) == talon - 2  # one drawn blind, one turned up
    assert s.trump_letter() == up[-1]  # later turn-ups do not change trump
    assert s.won == [0, 0]  # phase one tricks do not count


def test_phase_two_scores_and_is_led_by_the_last_winner() -> None:
    g = spelbok.load(DRAW, players=2)
    s = g.new_state(seed=5)
    rng = random.Random(2)
    while s.trick_no < 13:
        s.apply(rng.choice(s.legal_actions()))
    assert s.stock == [] and s.turn_up == []
    assert s.current_player == s.last_winner
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    assert sum(s.scores) == 13 and s.trick_no == 26


def test_determinize_keeps_the_card_taken_from_the_turn_up() -> None:
    g = spelbok.load(DRAW, players=2)
    s = g.new_state(seed=3)
    [up] = s.view(0)["turn_up"]
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    w = s.last_winner
    other = 1 - w
    for i in range(10):
        d = s.determinize(other, random.Random(i))
        assert up in names(d.hands[w])


def test_conditional_words_and_bids_with_a_constraint_on_the_last_bidder() -> None:
    g = spelbok.load(BIDS, players=4)
    s = g.new_state(seed=3)
    assert s.widow.bit_count() == 2
    assert sorted(str(a) for a in s.legal_actions()) == ["general", "pass", "play"]
    s.apply("general")
    assert [str(a) for a in s.legal_actions()] == ["play"]  # nobody may pass after a general
    for _ in range(3):
        s.apply("play")
    assert s.decision_name == "bid"
    assert [str(a) for a in s.legal_actions()] == ["bid 0", "bid 1", "bid 2", "bid 3"]
    s.apply("bid 1")
    s.apply("bid 0")
    s.apply("bid 0")
    # the last bid may not make the total equal the number of tricks (3)
    assert [str(a) for a in s.legal_actions()] == ["bid 0", "bid 1", "bid 3"]
    with pytest.raises(spelbok.IllegalActionError, match="bid 0, bid 1 or bid 3"):
        s.apply("bid 2")
    s.apply("bid 3")
    assert s.widow == 0 and s.discards.bit_count() == 2  # the widow was moved away


def test_partners_share_their_tricks() -> None:
    g = spelbok.load(BIDS, players=4)
    s = g.new_state(seed=8, record=True)
    rng = random.Random(1)
    while s.hand_number == 1:
        s.apply(rng.choice(s.legal_actions()))
    log = s.log
    tricks = next(e["tricks"] for e in log if e["event"] == "end_hand")
    bids = {e["seat"]: int(e["action"].split()[1]) for e in log
            if e["event"] == "decision" and e["decision"] == "bid"}
    partner = {0: 2, 2: 0, 1: 3, 3: 1}
    for p in range(4):
        bonus = 10 + bids[p] if tricks[p] == bids[p] else 0
        assert s.scores[p] == bonus + tricks[p] + tricks[partner[p]]


def test_teams_must_cover_every_seat_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BIDS.read_text().replace("teams: [[0, 2], [1, 3]]", "teams: [[0, 2], [1]]"))
    (err,) = validate(bad)
    assert "teams must share out seats 0 to 3" in err.message and err.line == 5
