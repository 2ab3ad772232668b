"""OpenSpiel's IS-MCTS bot plays a whole Knektpass match against spelbok's random or
greedy players, through the OpenSpiel game that ``spelbok.rl.openspiel`` registers.

    pip install '.[rl]'    # from the checkout
    python examples/openspiel_ismcts_knektpass.py                     # a few seconds
    python examples/openspiel_ismcts_knektpass.py --opponents greedy --simulations 100
    python examples/openspiel_ismcts_knektpass.py --simulations 2 --max-hands 1   # a look

The bot is ``open_spiel.python.algorithms.ismcts.ISMCTSBot``: it re-deals the cards it
cannot see (``resample_from_infostate``) at every simulation and keeps one search tree
per information state.  Its evaluator plays random rollouts, as OpenSpiel's
``RandomRolloutEvaluator`` does, but to the end of the *hand*, not of the match: in
Knektpass random players rarely bring a score down to 0, so a random match runs to the
spec's bound of 400 hands (about 7500 decisions a rollout, seconds each).  A rollout that
ends the hand is valued by each seat's change of score against the others' (lower is
better in Knektpass: the sign and size come from spelbok's game profile), squashed into
-1..1; one that ends the match by its returns (+1 a winner, -1 the others).

The match starts at OpenSpiel's chance nodes (the seed of every deal, drawn as four
hexadecimal digits) and ends with the final scores, the winners and the time taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
import pyspiel
import spelbok
from open_spiel.python.algorithms import ismcts, mcts
from spelbok.engine.observe import observe
from spelbok.play.bots import make_bot
from spelbok.play.bots.profile import game_profile
from spelbok.rl.openspiel import register


class HandRollouts(mcts.Evaluator):
    """Random rollouts to the end of the hand (or the match), valued per seat."""

    def __init__(self, game: spelbok.Game, n_rollouts: int,
                 random_state: np.random.RandomState) -> None:
        profile = game_profile(game)
        self.direction = profile.direction or 1  # +1: a higher score is better
        self.scale = profile.scale  # a typical score change of a hand
        self.n_rollouts = n_rollouts
        self.rng = random_state

    def evaluate(self, state: Any) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            m = state.match.clone()  # the spelbok match under the OpenSpiel state
            st = m.st
            hand, before = st.hands_played, np.array(st.scores, float)
            while not st.is_terminal and st.hands_played == hand:
                legal = m.legal()
                m.apply(legal[self.rng.randint(len(legal))])
            if st.is_terminal:
                total += m.win_returns()
            else:
                change = self.direction * (np.array(st.scores, float) - before)
                total += np.tanh((change - change.mean()) / self.scale)
        return total / self.n_rollouts

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def numbers_of(state: Any, action: spelbok.Action) -> list[int]:
    """The OpenSpiel action numbers of an engine action: an exchange or a pass is its
    cards picked one by one, then ``stop``; anything else is one number."""
    m = state.match
    enc = m.enc
    if m.st.pc in enc.pick_pcs:
        cards = [c for c in enc.cards if action.value >> c & 1]
        return [enc.pick_base + enc.card_index[c] for c in cards] + [enc.stop]
    return [enc.index[action]]


def play_match(players: int = 3, simulations: int = 30, opponents: str = "random",
               seed: int = 0, max_hands: int = 0, seat: int = 0,
               out: Any = sys.stdout) -> dict[str, Any]:
    """One match: the IS-MCTS bot in ``seat``, ``opponents`` in the others."""
    short = register("knektpass")
    game = pyspiel.load_game(short, {"players": players, "max_hands": max_hands})
    rng = np.random.RandomState(seed)
    engine_game = spelbok.load("knektpass", players=players,
                               max_hands=max_hands or None)
    bot = ismcts.ISMCTSBot(game, HandRollouts(engine_game, 1, rng), uct_c=2.0,
                           max_simulations=simulations, random_state=rng)
    # the re-deals from one seeded sampler (the bot's own is seeded by the system at each
    # call), so that a seed replays the same match
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda s, player: s.resample_from_infostate(player, sampler))
    others = {p: make_bot(opponents, seed=seed + p) for p in range(players) if p != seat}
    queued: list[int] = []  # the rest of an opponent's exchange, picked one by one
    decisions = 0
    start = time.perf_counter()
    state = game.new_initial_state()
    hand = 0
    while not state.is_terminal():
        if state.is_chance_node():  # the seed's digits, as OpenSpiel samples chance
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        st = state.match.st
        if st.hands_played != hand:
            hand = st.hands_played
            print(f"after hand {hand}: scores {st.scores}", file=out)
        player = state.current_player()
        if player == seat:
            action = bot.step(state)
            decisions += 1
        else:
            if not queued:
                queued = numbers_of(state, others[player].choose(observe(st)))
            action = queued.pop(0)
        state.apply_action(action)
    seconds = time.perf_counter() - start
    outcome = state.match.st.outcome
    assert outcome is not None
    names = ["IS-MCTS" if p == seat else opponents for p in range(players)]
    print(f"final scores {outcome['scores']} after {outcome['hands']} hands"
          f"{' (the bound on hands)' if outcome['limit_reached'] else ''}; "
          f"winners: {', '.join(f'seat {p} ({names[p]})' for p in outcome['winners'])}",
          file=out)
    print(f"returns {state.returns()}; {decisions} IS-MCTS decisions of {simulations} "
          f"simulations in {seconds:.1f} s", file=out)
    return {"returns": state.returns(), "seconds": seconds, "decisions": decisions,
            **outcome}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--simulations", type=int, default=30,
                    help="IS-MCTS simulations a decision (default 30)")
    ap.add_argument("--opponents", choices=["random", "greedy"], default="random")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-hands", type=int, default=0,
                    help="end the match after this many hands (0: the spec's own end)")
    ap.add_argument("--seat", type=int, default=0, help="the IS-MCTS bot's seat")
    a = ap.parse_args(argv)
    play_match(a.players, a.simulations, a.opponents, a.seed, a.max_hands, a.seat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
