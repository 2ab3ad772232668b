"""The Python API of a match: actions, clone, snapshots, views, determinize, logs."""

from __future__ import annotations

import json
import random

import pytest
import spelbok
from hypothesis import given, settings
from hypothesis import strategies as st
from spelbok.analysis.conformance import check_cards, check_game, check_view
from spelbok.cards import cards_in, names
from spelbok.engine.actions import parse_action
from spelbok.errors import IllegalActionError, InvalidActionError


@pytest.fixture(scope="module")
def g4() -> spelbok.Game:
    return spelbok.load("knektpass", players=4)


def advance(state: spelbok.State, k: int, seed: int = 0) -> spelbok.State:
    rng = random.Random(seed)
    for _ in range(k):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def mid_trick(game: spelbok.Game, seed: int = 0) -> spelbok.State:
    """A state in the middle of a trick (some cards already played)."""
    for s in range(seed, seed + 200):
        state = game.new_state(seed=s)
        rng = random.Random(s)
        for _ in range(400):
            if state.is_terminal:
                break
            if state.trick.cards and state.current_player is not None:
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no mid-trick state found")


def test_same_seed_same_match(g4: spelbok.Game) -> None:
    a = advance(g4.new_state(seed=11), 300, seed=3)
    b = advance(g4.new_state(seed=11), 300, seed=3)
    assert a == b and a.log == b.log
    c = advance(g4.new_state(seed=12), 300, seed=3)
    assert a.log != c.log


def test_clone_is_independent(g4: spelbok.Game) -> None:
    s = mid_trick(g4)
    c = s.clone()
    assert c == s
    c.apply(c.legal_actions()[0])
    assert c != s
    assert check_cards(s) is None and check_cards(c) is None


def test_snapshot_round_trip_is_json_and_equal(g4: spelbok.Game) -> None:
    s = mid_trick(g4, seed=5)
    d = json.loads(json.dumps(s.to_dict()))
    r = g4.restore(d)
    assert r == s
    a = s.legal_actions()[0]
    r.apply(a)
    s.apply(a)
    assert r == s


def test_notation_errors_say_why(g4: spelbok.Game) -> None:
    s = mid_trick(g4, seed=2)
    with pytest.raises(InvalidActionError):
        s.apply("not a card!")
    hand = set(names(s.hands[s.current_player]))
    foreign = next(c for c in g4.deck if c not in hand)
    with pytest.raises(IllegalActionError, match="not in your hand"):
        s.apply(foreign)
    assert parse_action("10h") == parse_action("10H") == parse_action("10♥")


def test_every_legal_action_round_trips_through_notation(g4: spelbok.Game) -> None:
    s = g4.new_state(seed=4)
    for _ in range(200):
        if s.is_terminal:
            break
        acts = s.legal_actions()
        assert len({str(a) for a in acts}) == len(acts)
        for a in acts:
            assert s.parse_action(str(a)) == a
            assert s.parse_action(a.pretty()) == a
        s.apply(acts[-1])


def test_views_hide_other_hands_talon_and_discards(g4: spelbok.Game) -> None:
    s = advance(g4.new_state(seed=8), 40, seed=1)
    for seat in range(4):
        assert check_view(s, seat) is None
        v = s.view(seat)
        assert v["hand"] == names(s.hands[seat])
        json.dumps(v)


def test_determinize_keeps_what_the_seat_knows(g4: spelbok.Game) -> None:
    s = mid_trick(g4, seed=9)
    seat = s.current_player
    assert seat is not None
    rng = random.Random(0)
    for _ in range(20):
        d = s.determinize(seat, rng)
        assert d.hands[seat] == s.hands[seat]
        assert [h.bit_count() for h in d.hands] == [h.bit_count() for h in s.hands]
        assert len(d.stock) == len(s.stock)
        assert d.trick.cards == s.trick.cards and d.turn_up == s.turn_up
        assert check_cards(d) is None
        assert d.view(seat) == s.view(seat)
        for p in range(4):
            assert d.known[p] & d.hands[p] == s.known[p]
            for suit in range(4):
                if (s.voids[p] >> suit) & 1:
                    assert not d.hands[p] & s.tables.suit_mask[suit]
        # the determinized state is playable
        d.apply(d.legal_actions()[0])


def test_determinize_actually_reshuffles_hidden_cards(g4: spelbok.Game) -> None:
    s = g4.new_state(seed=3)
    seen = {tuple(s.determinize(0, random.Random(i)).hands[1:]) for i in range(10)}
    assert len(seen) > 1


def test_log_is_json_and_replay_gives_the_same_state(g4: spelbok.Game) -> None:
    s = advance(g4.new_state(seed=21), 500, seed=2)
    log = s.log
    json.dumps(log)
    kinds = {e["event"] for e in log}
    assert {"hand", "deal", "turn_up", "trick"} <= kinds
    replay = g4.new_state(seed=21)
    for a in s.actions:
        replay.apply(str(a))
    assert replay == s


def test_terminal_state_has_outcome() -> None:
    game = spelbok.load("knektpass", players=2, max_hands=5)
    s = advance(game.new_state(seed=1), 100_000)
    assert s.is_terminal and s.current_player is None and s.legal_actions() == []
    assert s.outcome is not None and s.winners
    with pytest.raises(IllegalActionError, match="over"):
        s.apply("play")


def test_unknown_option_and_bad_player_count_are_spec_errors() -> None:
    with pytest.raises(spelbok.SpecError, match="did you mean"):
        spelbok.load("knektpass", players=2, options={"void_rul": "any"})
    with pytest.raises(spelbok.SpecError, match="cannot be"):
        spelbok.load("knektpass", players=2, options={"void_rule": "sometimes"})
    with pytest.raises(spelbok.SpecError, match="2 to 10 players"):
        spelbok.load("knektpass", players=11)


def test_stacked_deck_must_be_the_whole_pack(g4: spelbok.Game) -> None:
    with pytest.raises(spelbok.SpecError, match="every card"):
        g4.new_state(deck=["AS", "KS"])
    with pytest.raises(spelbok.SpecError, match="not a card"):
        g4.new_state(deck=["XX"] * 52)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10))
def test_property_random_playouts_conform(seed: int, players: int) -> None:
    game = spelbok.load("knektpass", players=players, max_hands=4)
    rep = check_game(game, matches=1, seed=seed, deep_every=5)
    assert rep.ok, rep.failures


def test_masks_and_card_lists_agree() -> None:
    assert list(cards_in(0b1011)) == [0, 1, 3]


def test_views_list_public_decisions_but_not_exchanged_cards() -> None:
    game = spelbok.load("knektpass", players=3)
    s = game.new_state(seed=2)
    for a in ["swap", "play", "play", "pass"]:
        s.apply(a)
    mover = s.current_player
    give = next(a for a in s.legal_actions() if len(a.cards) == 2)
    s.apply(give)
    for seat in range(3):
        decisions = s.view(seat)["decisions"]
        assert [d[1] for d in decisions] == ["swap", "announce", "announce", "announce", "exchange"]
        assert decisions[-1] == [mover, "exchange", "2 cards"]
        if seat != mover:
            assert not any(name in json.dumps(s.view(seat)) for name in names(give.value))
    assert s.view(mover)["own_discards"] == names(give.value)


def test_clone_copies_every_list_a_move_can_change() -> None:
    import random as _random

    from spelbok.engine.fields import _COPIED, _FIELDS

    game = spelbok.load("knockout-whist", players=4)
    s = game.new_state(seed=3, record=True)
    rng = _random.Random(3)
    while not (s.trick.cards and s.current_player is not None):
        s.apply(rng.choice(s.legal_actions()))
    c = s.clone()
    for name in _FIELDS:
        value = getattr(s, name, None)
        assert getattr(c, name, None) == value, name  # clone() forgets no field
        # passing, meld_points, meld_picks, meld_cards, meld_keys, won_cards, peeked,
        # failed_throws: a move replaces them, never changes them in place, so clones share them
        if isinstance(value, list) and name not in ("legal_cache", "stacked", "passing",
                                                    "meld_points", "meld_picks",
                                                    "meld_cards", "meld_keys",
                                                    "won_cards", "peeked",
                                                    "failed_throws"):
            assert name in _COPIED, name
            assert getattr(c, name) is not value, name
    assert all(a is not b for a, b in zip(c.pv_rows, s.pv_rows, strict=True))
    c.apply(c.legal_actions()[0])
    assert c != s and s == s.clone()


def test_card_action_lists_follow_the_mask_card_by_card() -> None:
    import random as _random

    from spelbok.engine.actions import CARD_ACTIONS
    from spelbok.engine.trick_play import _CARD_LISTS, _card_list

    rng = _random.Random(1)
    for _ in range(500):
        m = rng.getrandbits(52) & rng.getrandbits(52)
        _CARD_LISTS.clear()
        first = _card_list(m)
        assert first == [CARD_ACTIONS[c] for c in range(52) if (m >> c) & 1]
        assert _CARD_LISTS[m] is first  # remembered
