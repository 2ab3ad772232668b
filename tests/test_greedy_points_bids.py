"""The greedy bot's bids in auctions for points (Rook's 70..120): each bid is
played out as the contract it buys, the other seats passing after it (see
``rollout.quiet_bids``).  Before, the rollouts' random raises made the top bid,
which nobody can raise, look best: greedy Rook bots bid 120 a fifth of the
time, made few contracts and no match reached 300."""

from __future__ import annotations

import random

import spelbok
from spelbok.engine.actions import NUMBER, WORD, Action
from spelbok.engine.observe import observe
from spelbok.play.bots import GreedyBot
from spelbok.play.bots.rollout import quiet_bids, sample_world

PASS = Action(WORD, "pass")


def _first_bid(name: str, seed: int, **kw: object) -> spelbok.engine.state.State:
    st = spelbok.load(name, **kw).new_state(seed=seed)  # type: ignore[arg-type]
    while len(st.legal_actions()) == 1:
        st.apply(st.legal_actions()[0])
    return st


def test_quiet_bids_only_in_auctions_for_points() -> None:
    obs = observe(_first_bid("rook", 1))
    quiet = quiet_bids(obs, list(obs.legal))
    assert Action(NUMBER, "bid", 70) in quiet and Action(NUMBER, "bid", 120) in quiet
    assert PASS not in quiet
    assert not quiet_bids(obs, [a for a in obs.legal if a != PASS])  # no pass: no auction
    for name in ("skat", "preferans"):  # contracts for game values, for tricks
        obs = observe(_first_bid(name, 2))
        assert not quiet_bids(obs, list(obs.legal))


def test_a_quiet_rollout_buys_the_contract_bid() -> None:
    st = _first_bid("rook", 4)
    obs = observe(st)
    quiet = quiet_bids(obs, list(obs.legal))
    world = sample_world(obs, random.Random(3))
    world.apply(Action(NUMBER, "bid", 85))
    # the rule of play_out_hand: every seat passes while it may
    while PASS in (legal := world.legal_actions()) and any(a in quiet for a in legal):
        world.apply(PASS)
    assert world.var("bid") == 85 and world.var("bidder") == obs.seat


def test_greedy_rook_passes_a_weak_hand_and_opens_a_strong_one_low() -> None:
    bot = GreedyBot(seed=1, bot_time=None)
    # seed 3 deals the opener 11G 12G 5Y 6G 7G 7Y 8B 8G 9B: no 14, no 13, no Rook
    weak = observe(_first_bid("rook", 3))
    assert bot.choose(weak) == PASS  # before: bid 85
    # seed 22: RK 14G 13G 10G 14Y 5R 8B 8G 9B, the Rook and a long green
    strong = observe(_first_bid("rook", 22))
    bid = bot.choose(strong)
    assert bid != PASS and bid.value <= 75  # before: bid 100


def test_thin_quiet_keeps_three_bids_of_each_trump() -> None:
    from spelbok.play.bots.rollout import thin_quiet
    obs = observe(_first_bid("rook", 1))
    kept = thin_quiet(obs, list(obs.legal), 3)
    assert [str(a) for a in kept] == ["pass", "bid 70", "bid 95", "bid 120"]
    obs = observe(_first_bid("coinche", 2))
    legal = list(obs.legal)
    kept = thin_quiet(obs, legal, 3)
    assert PASS in kept and len(kept) < len(legal)
    assert all(a in legal for a in kept)


def test_greedy_bots_end_rook_matches() -> None:
    # before, every greedy match was cut at the spec's 200 deals, scores far below zero
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match
    game = spelbok.load("rook", max_hands=40)
    final = play_match(game, [make_bot("greedy", s, bot_time=None) for s in range(4)], seed=1)
    assert final.is_terminal and not final.limit_reached
    assert max(final.scores) >= 300
