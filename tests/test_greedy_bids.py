"""The greedy bot's bids in auctions of trick contracts: the lowest contract the
hand's quick count of tricks can reach, else pass (rollouts overbid there)."""

from __future__ import annotations

import spelbok
from spelbok.cards import parse_card
from spelbok.engine.actions import WORD, Action
from spelbok.engine.auction import bid_action
from spelbok.engine.observe import observe
from spelbok.engine.order import NO_TRUMP
from spelbok.play.bots import GreedyBot
from spelbok.play.bots.greedy import BID_SLACK, trick_bid
from spelbok.play.bots.heuristics import forced_tricks, sure_tricks

PASS = Action(WORD, "pass")


def _mask(*names: str) -> int:
    m = 0
    for n in names:
        c = parse_card(n)
        assert c is not None
        m |= 1 << c
    return m


def _first_bid(name: str, seed: int) -> spelbok.engine.state.State:
    st = spelbok.load(name).new_state(seed=seed)
    while len(st.legal_actions()) == 1:
        st.apply(st.legal_actions()[0])
    return st


def test_sure_tricks_counts_top_cards_and_long_trumps() -> None:
    game = spelbok.load("preferans")
    prog = game.program
    tables = prog.tables_in(None)
    spades = tables[prog.pack.suit_index["S"]]
    no_trump = tables[NO_TRUMP]
    live = prog.deck_mask
    hand = _mask("AS", "KS", "QS", "JS", "10S", "AH", "KD")
    live &= ~hand
    assert sure_tricks(hand, spades, live) == 6  # five trumps from the top, the ace of hearts
    assert sure_tricks(_mask("KD", "QD"), no_trump, live | _mask("AD")) == 0
    # long trumps win once the live ones are outnumbered
    small = _mask("10S", "9S", "8S", "7S", "JS", "QS")
    assert sure_tricks(small, spades, prog.deck_mask & ~small) >= 2


def test_forced_tricks_finds_the_cards_a_misere_must_win_with() -> None:
    game = spelbok.load("preferans")
    prog = game.program
    no_trump = prog.tables_in(None)[NO_TRUMP]
    low = _mask("7S", "8S", "7H", "8H", "9H", "7D", "8D", "7C", "9C", "8C")
    assert forced_tricks(low, no_trump, prog.deck_mask & ~low) == 0
    high = (low & ~_mask("8C")) | _mask("AC")
    assert forced_tricks(high, no_trump, prog.deck_mask & ~high) >= 1


def test_trick_bid_is_the_lowest_reachable_contract_or_pass() -> None:
    game = spelbok.load("preferans")
    prog = game.program
    contracts = {bid_action(c.name): c for c in prog.contracts}
    seen = set()
    for seed in range(1, 25):
        st = _first_bid("preferans", seed)
        obs = observe(st)
        hand = 0
        for n in obs.view["hand"]:
            hand |= 1 << prog.pack.take_card(n, set())
        bid = trick_bid(obs, hand, list(obs.legal))
        assert bid is not None and bid in obs.legal
        seen.add(bid == PASS)
        if bid != PASS:
            c = contracts[bid]
            assert c.negative or c.aim >= 6
            # nothing lower was within reach
            lower = [a for a in obs.legal if a != PASS and obs.legal.index(a) < obs.legal.index(bid)]
            for a in lower:
                assert trick_bid(obs, hand, [PASS, a]) == PASS
        assert GreedyBot(seed=1).choose(obs) == bid  # the bot bids it, no rollouts
    assert seen == {True, False}  # some hands bid, some pass
    assert BID_SLACK >= 0


def test_trick_bid_leaves_auctions_for_points_to_the_rollouts() -> None:
    st = _first_bid("skat", 2)
    obs = observe(st)
    assert trick_bid(obs, 0, list(obs.legal)) is None
    # a game with contracts for points, even when only its capots (trick contracts) are left
    st = _first_bid("coinche", 2)
    obs = observe(st)
    capots = [a for a in obs.legal if a.verb.startswith("capot")]
    assert capots and trick_bid(obs, 0, [PASS, *capots]) is None


def test_greedy_bots_end_preferans_matches() -> None:
    # before, greedy bots overbid (mostly tens) and no pool ever closed
    game = spelbok.load("preferans")
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match
    final = play_match(game, [make_bot("greedy", s) for s in range(3)], seed=4)
    assert final.is_terminal and not final.limit_reached
