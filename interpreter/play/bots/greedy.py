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

from ...engine.actions import CARD, CARDS, NUMBER, SUIT, Action
from ...engine.auction import PASS, T_CHOSEN, T_KEEP, Contract, bid_action
from ...engine.dummy import hand_seat
from ...engine.observe import Observation
from ...engine.order import NO_TRUMP
from ...engine.play_sets import PlaySets
from .budget import DEFAULT_BOT_TIME, Budget
from .heuristics import (
    decision_kind,
    exchange_candidates,
    forced_tricks,
    play_candidates,
    suit_choice,
    sure_tricks,
    trick_card,
    trump_index,
    unseen_mask,
)
from .profile import game_profile
from .rollout import option_stats, quiet_bids, thin_quiet

#: Most options of one decision that are played out: a long run of numbers (an
#: auction's 63 bids) keeps the lowest, the highest and evenly spaced ones between.
MAX_OPTIONS = 16

#: Most bids of one trump in an auction for points that are played out (the
#: lowest, the highest and evenly spaced ones between; see :func:`rollout.thin_quiet`).
QUIET_BIDS = 3

#: How many tricks short of a contract's aim the hand's quick count may be (a talon,
#: a partner's surprise) for the greedy bot to bid it.
BID_SLACK = 2

#: Most rollouts one decision plays (options x worlds): with many options, each
#: is played out in fewer worlds (never fewer than MIN_SAMPLES).
MAX_ROLLOUTS = 96
MIN_SAMPLES = 4


def thin_options(options: list[Action], cap: int = MAX_OPTIONS) -> list[Action]:
    """At most ``cap`` of ``options`` when numbers make them many (every word is kept).

    >>> from spelbok.engine.actions import NUMBER, WORD
    >>> bids = [Action(WORD, "pass")] + [Action(NUMBER, "bid", v) for v in range(18, 82)]
    >>> [str(a) for a in thin_options(bids, 5)]
    ['pass', 'bid 18', 'bid 39', 'bid 60', 'bid 81']
    """
    if len(options) <= cap:
        return options
    numbers = sorted((a for a in options if a.kind == NUMBER), key=lambda a: (a.verb, a.value))
    room = cap - (len(options) - len(numbers))
    if room < 2:
        return options  # words alone are too many: the time budget bounds the search
    keep = {numbers[round(i * (len(numbers) - 1) / (room - 1))] for i in range(room)}
    return [a for a in options if a.kind != NUMBER or a in keep]


def trick_bid(obs: Observation, hand: int, options: list[Action]) -> Action | None:
    """The bid of an auction of trick contracts: the lowest the hand can hope to make.

    When every contract of the game is one for a number of tricks (its
    ``aim``) or a negative one (no trick to take), the bot bids the lowest contract
    whose aim the hand's quick count of tricks under its trump reaches, less
    :data:`BID_SLACK` (:func:`sure_tricks`; the best suit when the declarer
    names it; a fair share of the tricks for each partner), or a negative
    contract when :func:`forced_tricks` finds no card the hand must win
    with; else it passes.  Rollouts judge such bids badly: each of many bids
    is played out in a few worlds, the others' bids in them are random, and
    the luckiest of many overbids wins (a game of many trick contracts never ended).
    None when the game has contracts for points, or the decision offers words
    besides the bids and ``pass`` (double, hold): rollouts decide it.
    """
    prog = obs.game.program
    if not prog.contracts or PASS not in options:
        return None
    if any(c.points or (c.aim <= 0 and not c.negative) for c in prog.contracts):
        return None  # some contract is for points (or for nothing the count can weigh)
    by_action = {bid_action(c.name): c for c in prog.contracts}
    bids = [(a, by_action.get(a)) for a in options if a != PASS]
    if not bids or any(c is None for _, c in bids):
        return None  # words besides the bids (double, hold): the rollouts weigh them
    tables = prog.tables_in((obs.view.get("vars") or {}).get("mode"))
    live = unseen_mask(obs.view, prog.deck_mask, prog.pack)
    sides = prog.sides
    mates = sum(1 for s in sides if s == sides[obs.seat]) - 1 if sides else 0
    share = mates * hand.bit_count() / max(1, obs.game.players)
    est: dict[int, float] = {}

    def fits(c: Contract) -> bool:
        if c.negative:
            t = c.trump if c.trump >= 0 or c.trump == NO_TRUMP else NO_TRUMP
            return forced_tricks(hand, tables[t], live) == 0
        if c.trump not in est:
            suits = range(len(tables)) if c.trump in (T_CHOSEN, T_KEEP) else (c.trump,)
            est[c.trump] = max(sure_tricks(hand, tables[t], live) for t in suits)
        return est[c.trump] + share + BID_SLACK >= c.aim

    return next((a for a, c in bids if c is not None and fits(c)), PASS)


class GreedyBot:
    """Rules of thumb for cards and suits; short rollouts for words and exchanges.

    ``samples`` is the number of determinized worlds each word or exchange
    option is played out in (fewer when the options are many: at most
    :data:`MAX_ROLLOUTS` rollouts a decision); ``bot_time`` the seconds a decision
    may take (see :mod:`spelbok.play.bots.budget`; None: no limit).
    """

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 12,
                 bot_time: float | None = DEFAULT_BOT_TIME) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = Budget(bot_time)

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal
        if isinstance(legal, PlaySets):  # many plays at once: a short list, unlisted
            view = obs.view
            legal = play_candidates(legal, obs.game.program.tables_in(
                (view.get("vars") or {}).get("mode"))[trump_index(view, obs.game.program.pack)],
                game_profile(obs.game).want_tricks)
        if len(legal) == 1:
            return legal[0]
        self.budget.start()
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
            # the hand the card comes from: the seat's own, or a dummy's it plays
            seat = hand_seat(world)
            return trick_card(world, obs.seat if seat is None else seat, legal, live, want)
        if kind == SUIT:
            tables_now = obs.game.program.tables_in((view.get("vars") or {}).get("mode"))
            return suit_choice(hand, legal, tables_now, want)
        options = legal
        quiet: frozenset[Action] = frozenset()
        if kind == CARDS:
            tables = obs.game.program.tables_in((view.get("vars") or {}).get("mode"))[
                trump_index(view, pack)]
            options = exchange_candidates(hand, legal, tables, want, limit=0)
        else:
            bid = trick_bid(obs, hand, list(options))
            if bid is not None:
                return bid
            quiet = quiet_bids(obs, list(options))
            if quiet:  # played out in the same worlds, bids differ only in their scoring
                options = thin_quiet(obs, list(options), QUIET_BIDS)
            options = thin_options(list(options))
        if len(options) == 1:
            return options[0]
        samples = max(min(self.samples, MIN_SAMPLES), min(self.samples, MAX_ROLLOUTS // len(options)))
        stats = option_stats(obs, options, self.rng, samples, prof, budget=self.budget,
                             quiet=quiet)
        # cautious: the best mean less one standard error (risky options pay for their spread);
        # not for the bids of an auction for points: a throw-in (pass) has no spread,
        # and every bid, worth it or not, lost to it (nearly every deal thrown in)
        err = 0.0 if quiet else 1.0
        best = max(range(len(options)), key=lambda i: (stats[i][0] - err * stats[i][1], -i))
        return options[best]

