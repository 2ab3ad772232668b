"""The greedy bot: quick rules of thumb that read the game's rules.

* **Cards** (and the abstain word, such as *knock*): from the trick in the
  view and the rank tables of the trump in force: win the trick as cheaply as
  possible when it can be won with a card nobody still to play can beat (or
  when playing last), otherwise shed the lowest card; lead a top card when
  holding one, else a low one.  When the game's profile says tricks hurt
  (see :mod:`spelbok.play.bots.profile`), the aims flip.
* **Suits**: the suit that makes the hand strongest as trump.
* **Words** (play/pass, bids, …) and **exchanges**: each option (for
  exchanges: keep all, or give away the k weakest cards, for each k) is played
  out to the end of the hand in a few determinized worlds with the same quick
  rules; the option with the best mean reward less one standard error wins
  (a cautious choice: risky options pay for their spread).

>>> import spelbok
>>> from spelbok.engine.observe import observe
>>> state = spelbok.load("example", players=3).new_state(seed=2)
>>> bot = GreedyBot(seed=1)
>>> bot.choose(observe(state)) in state.legal_actions()
True
"""

from __future__ import annotations

import random

from ...engine.actions import CARD, CARDS, SUIT, Action
from ...engine.observe import Observation
from .heuristics import (
    decision_kind,
    exchange_candidates,
    suit_choice,
    trick_card,
    trump_index,
    unseen_mask,
)
from .profile import game_profile
from .rollout import option_stats


class GreedyBot:
    """Rules of thumb for cards and suits; short rollouts for words and exchanges.

    ``samples`` is the number of determinized worlds each word or exchange
    option is played out in.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 12) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        prof = game_profile(obs.game)
        want = prof.want_tricks
        kind = decision_kind(legal)
        view = obs.view
        hand = 0
        pack = obs.game.program.pack
        taken: set[int] = set()
        for name in view["hand"]:
            c = pack.take_card(name, taken)
            if c is not None:
                hand |= 1 << c
        if kind == CARD:
            world = obs.sample(self.rng)  # public trick facts (order, options); own hand
            live = unseen_mask(view, obs.game.program.deck_mask, pack)
            return trick_card(world, obs.seat, legal, live, want)
        if kind == SUIT:
            return suit_choice(hand, legal, obs.game.program.tables, want)
        options = legal
        if kind == CARDS:
            tables = obs.game.program.tables[trump_index(view, pack)]
            options = exchange_candidates(hand, legal, tables, want, limit=0)
        if len(options) == 1:
            return options[0]
        stats = option_stats(obs, options, self.rng, self.samples, prof)
        # cautious: the best mean less one standard error (risky options pay for their spread)
        best = max(range(len(options)), key=lambda i: (stats[i][0] - stats[i][1], -i))
        return options[best]

