"""General constructs beyond the seed games: drawing after each trick, phases,
moves between zones, a widow, numeric bids with constraints, conditional
words, partnerships."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.cards import CARD_NAMES, names
from spelbok.cli.render import transcript
from spelbok.lang.dslwrite import to_dsl
from spelbok.validation import validate

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


# -- where cards moved to the stock go ----------------------------------------------------------

STOCK = """
spelbok: 1
name: Cards back to the stock
players: {min: 2, max: 2}
deck: [{players: [2, 2], ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]}]
options:
  place: {values: [shuffled, top, bottom], default: shuffled}
hand:
  - deal: {size: 3}
  - move: {from: hand, to: stock, count: 2, position: place}
    for: "seat == 1"
  - tricks: {}
end: {when: "hand_number >= 1", winners: "true"}
"""
# seat 1 (the dealer's left) is dealt 2C 3C 4C and gives back its two lowest cards, 2C 3C
DECK = ["2C", "2S", "3C", "3S", "4C", "4S"]


def stock_after_move(place: str | None, seed: int = 1) -> tuple[spelbok.State, list[str]]:
    """The state after the move, and its stock top card first."""
    game = spelbok.load(STOCK.replace("position: place", "") if place is None else STOCK,
                        players=2, options={"place": place} if place else None)
    deck = DECK + [c for c in game.deck if c not in DECK]  # the rest in pack order
    st = game.new_state(seed=seed, deck=deck, dealer=0)
    probe = st.clone()
    probe.settle()
    return st, [CARD_NAMES[c] for c in reversed(probe.stock)]


def test_cards_moved_to_the_top_or_the_bottom_of_the_stock() -> None:
    _, rest = stock_after_move("bottom")
    _, top = stock_after_move("top")
    assert len(top) == 48 and top[:3] == ["2C", "3C", "5C"]
    assert rest[-2:] == ["2C", "3C"] and rest[:46] == top[2:]


def test_cards_moved_to_the_stock_are_shuffled_in_by_default() -> None:
    st, shuffled = stock_after_move(None)
    _, top = stock_after_move("top")
    assert sorted(shuffled) == sorted(top) and shuffled != top
    assert stock_after_move("shuffled")[1] == shuffled  # the default, named
    assert stock_after_move(None, seed=2)[1] != shuffled  # the seed decides
    # replay is exact: taken lazily or settled first, restored or not, the same cards come up
    lazy, settled = st.clone(), st.clone()
    settled.settle()
    again = st.game.restore(st.to_dict())
    assert lazy.take(48) == settled.take(48) == again.take(48)
    assert [CARD_NAMES[c] for c in st.take(48)] == shuffled


def test_position_of_a_move_is_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(STOCK.replace("position: place", "position: middle"))
    (err,) = validate(bad)
    assert "unknown position 'middle'" in err.message and err.line == 10
    bad.write_text(STOCK.replace("to: stock", "to: widow"))
    (err,) = validate(bad)
    assert "'position' says where cards go in the stock" in err.message


# -- the reason given for a card that a trick's 'allow' refuses ----------------------------------

ALLOW = """
spelbok: 1
name: No ace in the first trick
players: {min: 2, max: 2}
deck: [{players: [2, 2], ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]}]
hand:
  - deal: {size: 3}
  - tricks: {allow: "card_rank != 'A' or trick_number > 1"}
end: {when: "hand_number >= 1", winners: "true"}
"""
RULE = "the rule `card_rank != 'A' or trick_number > 1` does not allow it"


def refusal(spec: str, position: dict[str, Any], card: str) -> str:
    st = spelbok.load(spec, players=2).new_state(seed=1, position=position)
    with pytest.raises(spelbok.IllegalActionError) as info:
        st.apply(card)
    return str(info.value)


def test_a_card_refused_by_allow_names_the_rule() -> None:
    lead = {"leader": 1, "hands": {0: "AH 3H 2C", 1: "AS KS 2H"}}
    assert refusal(ALLOW, lead, "AS") == f"AS is not allowed: {RULE}"
    follow = {"leader": 1, "hands": {0: "AH 3H 2C", 1: "KS 4S"}, "trick": ["2H"]}
    assert refusal(ALLOW, follow, "AH") == f"AH is not allowed: {RULE}"  # not "head the trick"
    # a refused trump is refused by the rule, not because "trumps may not be led"
    trumps = ALLOW.replace("card_rank != 'A'", "not card_is_trump")
    lead = {"trump": "S", "leader": 1, "hands": {0: "AH 3H 2C", 1: "AS KS 2H"}}
    assert "the rule `not card_is_trump or trick_number > 1`" in refusal(trumps, lead, "AS")


def test_a_reason_written_next_to_allow_is_the_message() -> None:
    spec = ALLOW.replace('> 1"}', '> 1", reason: "no ace may be played to the first trick"}')
    lead = {"leader": 1, "hands": {0: "AH 3H 2C", 1: "AS KS 2H"}}
    assert refusal(spec, lead, "AS") == "AS is not allowed: no ace may be played to the first trick"
    assert "otherwise \"no ace may be played" in to_dsl(spelbok.load(spec).tree)


def test_the_trick_options_give_their_own_reasons() -> None:
    follow = {"leader": 1, "hands": {0: "AH 3H 2C", 1: "KS 4S"}, "trick": ["2H"]}
    assert refusal(ALLOW, follow, "2C").endswith("you must follow suit (H)")


# -- the transcript of steps that set trump, move cards and set variables ------------------------

STEPS = """
spelbok: 1
name: Steps in the transcript
players: {min: 2, max: 2}
deck: [{players: [2, 2], ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]}]
variables:
  hand: {long: false}
hand:
  - deal: {size: 3, widow: 2}
  - set: {trump: "'H'", long: "true"}
  - move: {from: widow, to: stock, position: bottom}
  - move: {from: stock, to: hand, count: 1}
    for: "seat == 1"
  - move: {from: hand, to: discards, count: 1}
    for: "seat == 1"
  - tricks: {}
end: {when: "hand_number >= 1", winners: "true"}
"""


def test_the_transcript_tells_steps_as_sentences() -> None:
    st = spelbok.load(STEPS, players=2).new_state(seed=1, dealer=0)
    log = st.log
    assert {"event": "set", "var": "long", "value": True} in log  # a set without 'for' is logged
    lines = transcript(log, 2)
    assert "  trump is now ♥" in lines  # set by a step: no player named it
    assert not any("names" in line for line in lines)
    assert "  2 cards go from the widow to the stock, at the bottom" in lines
    assert "  P1 draws 1 card from the stock" in lines
    assert "  P1 discards 1 card" in lines
    assert "  long is now true" in lines
    assert not any("seat=" in line for line in lines)
