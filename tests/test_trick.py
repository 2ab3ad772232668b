"""The trick's one home (engine.trick) and the exchange's own instruction (engine.exchange).

The property test plays random tricks of shipped specs (their trumps, permanent
trumps and bowers, led suits, first-trick rules) and checks that the winner is
the card with the highest key as order.py documents it, and that
:func:`~spelbok.engine.trick.card_key` (the rule the play and the bots use) gives
that key.
"""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spelbok.cards import CARD_NAMES, SUITS
from spelbok.engine.actions import parse_action
from spelbok.engine.decide import Decide
from spelbok.engine.exchange import Exchange
from spelbok.engine.order import NO_TRUMP
from spelbok.engine.steps import Decision
from spelbok.engine.trick import card_key
from spelbok.engine.tricks import TrickPlay

SPECS = [("knektpass", 3), ("euchre", 4), ("knockout-whist", 4), ("oh-hell", 5), ("rams", 3),
         ("german-whist", 2), ("variants/knektpass-jacks-printed", 3),
         ("variants/knockout-whist-no-trumps-first-trick", 3)]
GAMES: dict[str, spelbok.Game] = {}


def game(name: str, players: int) -> spelbok.Game:
    if name not in GAMES:
        GAMES[name] = spelbok.load(name, players=players)
    return GAMES[name]


@st.composite
def tricks(draw: Any) -> tuple[spelbok.Game, int, int, list[int], int]:
    """A spec, a trump (or none), a leader, one card per seat, and how many tricks came before."""
    g = game(*draw(st.sampled_from(SPECS)))
    trump = draw(st.integers(0, NO_TRUMP))
    leader = draw(st.integers(0, g.players - 1))
    cards = draw(st.lists(st.sampled_from(g.program.deck), min_size=g.players,
                          max_size=g.players, unique=True))
    return g, trump, leader, cards, draw(st.integers(0, 1))


def expected_key(tables: Any, card: int, led: int, trumps_count: bool) -> int:
    """The winner rule as order.py states it, written out independently."""
    if tables.trump[card] and trumps_count:
        return int(tables.power[card])
    return int(tables.power[card]) if tables.suit[card] == led else 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tricks())
def test_the_trick_goes_to_the_highest_key(case: tuple[spelbok.Game, int, int, list[int], int]) -> None:
    g, trump, leader, cards, before = case
    n = g.players
    seats = [(leader + i) % n for i in range(n)]  # one card each: every card is legal
    hands = {p: CARD_NAMES[c] for p, c in zip(seats, cards, strict=True)}
    s = g.new_state(record=True, position={
        "trump": "none" if trump == NO_TRUMP else SUITS[trump], "leader": leader,
        "hands": hands, "tricks_played": before})
    tables = g.program.tables[trump]
    assert s.tables is tables
    counts = s.tf.first_trick_trumps or before > 0
    led = tables.suit[cards[0]]
    for p, c in zip(seats, cards, strict=True):
        assert s.current_player == p
        if p != leader:  # (before the lead no suit is led)
            assert card_key(s, c) == expected_key(tables, c, led, counts)
        s.apply(CARD_NAMES[c])
    keys = [expected_key(tables, c, led, counts) for c in cards]
    trick = [e for e in s.log if e["event"] == "trick"][-1]
    assert trick["cards"] == [[p, CARD_NAMES[c]] for p, c in zip(seats, cards, strict=True)]
    assert trick["winner"] == seats[keys.index(max(keys))]


def test_the_exchange_is_its_own_instruction() -> None:
    code = game("knektpass", 3).program.code
    exchanges = [i for i in code if isinstance(i, Exchange)]
    assert "exchange" in [i.name for i in exchanges]
    assert not any(isinstance(i, Decide) for i in exchanges)
    assert all(isinstance(i, Decision) for i in exchanges)  # the queue walk and 'then' are shared
    assert not any(isinstance(i, Decide) and i.kind == "exchange" for i in code)
    assert sum(isinstance(i, TrickPlay) for i in code) == 1


@pytest.mark.parametrize(("spec", "players"), [("knektpass", 3), ("example", 3)])
def test_an_exchange_offers_and_checks_the_same_moves(spec: str, players: int) -> None:
    """Every listed exchange passes the check; one card more than the hand holds does not."""
    g = game(spec, players)
    s = g.new_state(seed=4)
    while not isinstance(g.program.code[s.pc], Exchange):
        s.apply(s.legal_actions()[0])
    ins = g.program.code[s.pc]
    assert isinstance(ins, Exchange)
    legal = s.legal_actions()
    assert legal and all(ins.check(s, a) is None for a in legal)
    seat = s.current_player
    assert seat is not None
    outside = next(c for c in g.program.deck if not (s.hands[seat] >> c) & 1)
    refused = ins.check(s, parse_action(f"{ins.name} {CARD_NAMES[outside]}"))
    assert refused is not None and "not in hand" in refused
