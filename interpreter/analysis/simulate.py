"""Batch simulation of bot matches, summary measures, and comparison of specs.

:func:`simulate` plays N seeded matches (optionally in several processes:
match ``i`` of a run seeded ``S`` always uses :func:`~spelbok.play.match.match_seed`
``(S, i)`` and bot seeds :func:`~spelbok.play.match.bot_seed` ``(S, i, seat)``, so
the results do not depend on ``jobs``) and returns a :class:`Summary` of
measures computed from each match's event log:

* wins per seat and per bot, with Wilson 95 % intervals (a tie counts as a
  win for every tied seat);
* match length in hands (deals, redeals included) and decisions;
* per-hand rates: redeals, hands ended early (e.g. a sole player), hands in which
  an exchange drew the last card of the talon;
* per-hand means: eliminations, abstentions (knocks), tricks, ``set`` events
  per variable (and those setting a flag true);
* for each word or suit decision, the share of each choice; for each
  exchange, the share of exchanges that give cards away and the cards per hand;
* final scores per seat and overall, with a histogram.

:func:`compare` runs the same measures for several specs over the same seeds
and tests each difference from the first spec with a paired t-test on the shared
seeds (Holm-adjusted over the measures), with the difference's 95 % interval.

This module runs the matches; the report objects (:class:`Summary`,
:class:`Measure`, :class:`Comparison`) are in :mod:`spelbok.analysis.sim_report`,
the statistics in :mod:`spelbok.analysis.stats` (both re-exported here).

>>> s = simulate("example", games=4, players=2, bots=["greedy", "random"], seed=1)
>>> s.games, len(s.wins_by_seat())
(4, 2)
>>> s.to_dict()["schema"]
'spelbok.simulate'
"""

from __future__ import annotations

import gc
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import SpelbokError
from ..play.bots.budget import DEFAULT_BOT_TIME, Budget
from .sim_report import (
    SCHEMA_VERSION,
    Comparison,
    MatchRecord,
    Measure,
    Summary,
    bin_counts,
    histogram,
)
from .stats import binomial_sign_p, stars, two_proportion_p, welch_p, wilson

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game
    from ..engine.state import State

#: Most matches one run plays: every match's record is kept (for medians and
#: histograms), so this bounds the memory a run takes.
MAX_GAMES = 100_000

Progress = Callable[[int], None]


# -- one match ------------------------------------------------------------------------


def count_events(log: list[dict[str, Any]], counts: Counter[str]) -> None:
    """Add a match's event counts to ``counts`` (keys documented in docs/bots.md)."""
    for ev in log:
        kind = ev.get("event")
        if kind == "redeal":
            counts["redeal"] += 1
        elif kind == "end_hand_early":
            counts["end_hand_early"] += 1
        elif kind == "eliminated":
            counts["eliminated"] += 1
        elif kind == "knock":
            counts["knock"] += 1
        elif kind == "trick":
            counts["trick"] += 1
        elif kind == "decision":
            name = ev.get("decision", "?")
            counts[f"decision:{name}"] += 1
            counts[f"choice:{name}:{ev.get('action', '?')}"] += 1
        elif kind == "exchange":
            name = ev.get("decision", "?")
            k = len(ev.get("gave", []))
            counts[f"exchange:{name}"] += 1
            counts[f"exchange_cards:{name}"] += k
            if k:
                counts[f"exchange_some:{name}"] += 1
        elif kind == "set":
            var = ev.get("var", "?")
            counts[f"set:{var}"] += 1
            if ev.get("value") is True:
                counts[f"set_true:{var}"] += 1


def run_match(game: Game, bot_names: Sequence[str], seed: int, index: int,
              observe: Callable[[State], None] | None = None,
              bot_time: float | None = DEFAULT_BOT_TIME) -> MatchRecord:
    """Play match ``index`` of a run seeded ``seed`` and record its measures.

    ``observe(state)`` is shown the finished match (its log is recorded), for a
    caller that reads more from it (e.g. :mod:`spelbok.analysis.audit`);
    ``bot_time``: the seconds a bot may take per decision (None: no limit).
    """
    from ..engine.actions import CARDS
    from ..play.bots import make_bot
    from ..play.match import bot_seed, match_seed, play_match

    mseed = match_seed(seed, index)
    bots = [make_bot(name, bot_seed(seed, index, s), bot_time) for s, name in enumerate(bot_names)]
    exhausted = [0]

    def hook(st: State, seat: int, action: Action, stock_before: int, hands_before: int) -> None:
        if (stock_before and not st.stock and action.kind == CARDS
                and st.hands_played == hands_before):
            exhausted[0] += 1

    st = play_match(game, bots, mseed, record=True, on_step=hook)
    if observe is not None:
        observe(st)
    counts: Counter[str] = Counter()
    count_events(st.log, counts)
    counts["talon_exhausted"] = exhausted[0]
    scores = list(st.scores)
    # within the bound (State.scores holds them there), a score is exact as a float, so
    # the means and spreads are right
    return MatchRecord(
        index=index,
        seed=mseed,
        winners=list(st.winners),
        scores=scores,
        hands=st.hands_played,
        decisions=len(st.actions),
        limit_reached=bool(st.limit_reached),
        counts=dict(counts),
        bot_time_cuts=sum(budget.cuts for b in bots
                          if isinstance(budget := getattr(b, "budget", None), Budget)),
    )


# -- running ------------------------------------------------------------------------


def cycle_bots(bots: Sequence[str], players: int) -> list[str]:
    """The bot of each seat: the list in order, cycled when shorter.

    >>> cycle_bots(["greedy", "random"], 3)
    ['greedy', 'random', 'greedy']
    """
    if not bots:
        raise SpelbokError("no bots given")
    if len(bots) > players:
        raise SpelbokError(f"{len(bots)} bots for {players} seats")
    return [bots[i % len(bots)] for i in range(players)]


_WORKER: dict[str, Any] = {}


def _ignore_interrupt() -> None:
    # Ctrl-C reaches the whole process group: the parent alone reports it, once
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_init(spec: str | os.PathLike[str], players: int, options: dict[str, Any], max_hands: int | None,
                 allow_paths: tuple[str | os.PathLike[str], ...] = ()) -> None:
    from ..engine.game import load

    _ignore_interrupt()
    _WORKER["game"] = load(spec, players=players, options=options, max_hands=max_hands,
                           allow_paths=allow_paths)


def _worker_run(job: tuple[list[str], int, list[int], float | None]) -> list[MatchRecord]:
    bots, seed, indexes, bot_time = job
    game = _WORKER["game"]
    return [run_match(game, bots, seed, i, bot_time=bot_time) for i in indexes]


def _spec_ref(spec: str | os.PathLike[str]) -> str | os.PathLike[str]:
    """What a worker loads: a file's absolute path, a shipped name, spec text, or a
    :class:`~spelbok.lang.loader.SpecText` as it is (its name is no file)."""
    from ..lang.loader import SpecText

    if isinstance(spec, SpecText):
        return spec
    text = os.fspath(spec)
    if "\n" not in text and os.path.exists(text):
        return os.path.abspath(text)
    return text


def simulate(
    spec: str | os.PathLike[str],
    games: int,
    players: int | None = None,
    bots: Sequence[str] = ("random",),
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    max_hands: int | None = None,
    progress: Progress | None = None,
    allow_paths: Sequence[str | os.PathLike[str]] = (),
    bot_time: float | None = DEFAULT_BOT_TIME,
) -> Summary:
    """Play ``games`` matches of ``spec`` between ``bots`` (seat order, cycled) and summarise.

    ``jobs`` > 1 spreads the matches over processes with identical results.
    ``progress(k)`` is called as k more matches finish; ``allow_paths`` as for
    :func:`spelbok.load`; ``bot_time`` the seconds a bot may take per decision
    (None: no limit, see :mod:`spelbok.play.bots.budget`).  ``games`` is at most
    :data:`MAX_GAMES` and ``jobs`` at most the number of CPUs.  Raises SpelbokError
    (SpecError for a bad spec or option, unknown bots).

    >>> s = simulate("example", games=3, players=2, bots=["random"], seed=5)
    >>> [m.trials for m in s.wins_by_seat()]
    [3, 3]
    """
    from ..engine.game import load
    from ..play.bots import parse_bots

    if games < 1:
        raise SpelbokError("--games must be at least 1")
    if games > MAX_GAMES:
        raise SpelbokError(f"--games can be at most {MAX_GAMES}")
    ref = _spec_ref(spec)
    opts = dict(options or {})
    allowed = tuple(allow_paths)
    game = load(ref, players=players, options=opts, max_hands=max_hands, allow_paths=allowed)
    seats = cycle_bots(parse_bots(list(bots)), game.players)
    records: list[MatchRecord] = []
    if jobs <= 1 or games == 1:
        for i in range(games):
            records.append(run_match(game, seats, seed, i, bot_time=bot_time))
            if progress is not None:
                progress(1)
    else:
        records = _run_parallel(game, ref, seats, seed, games, jobs, opts, max_hands, allowed,
                                bot_time, progress)
    return Summary(
        spec=os.fspath(spec) if "\n" not in os.fspath(spec) else "<text>",
        game_name=game.name,
        players=game.players,
        options=dict(game.options),
        max_hands=max_hands,
        seed=seed,
        games=games,
        bots=seats,
        matches=records,
    )


def _run_parallel(game: Game, ref: str | os.PathLike[str], seats: list[str], seed: int, games: int, jobs: int,
                  opts: dict[str, Any], max_hands: int | None, allowed: tuple[Any, ...],
                  bot_time: float | None, progress: Progress | None) -> list[MatchRecord]:
    """The matches of :func:`simulate` over ``jobs`` processes, in match order."""
    import multiprocessing as mp

    records: list[MatchRecord] = []
    jobs = min(jobs, games, os.cpu_count() or 1)
    size = max(1, min(8, games // (jobs * 4)))
    chunks = (list(range(i, min(games, i + size))) for i in range(0, games, size))
    fork = sys.platform == "linux"
    ctx: Any
    init: Any
    initargs: tuple[Any, ...]
    if fork:
        # fork: the workers start with the game already loaded (spawning
        # means a fresh interpreter that imports and compiles it again)
        ctx = mp.get_context("fork")
        _WORKER["game"] = game
        init, initargs = _ignore_interrupt, ()
        gc.freeze()  # the collector must not touch (and so copy) the parent's pages
    else:
        ctx = mp.get_context("spawn")
        init, initargs = _worker_init, (ref, game.players, opts, max_hands, allowed)
    try:
        with ctx.Pool(jobs, initializer=init, initargs=initargs) as pool:
            for got in pool.imap_unordered(_worker_run, ((seats, seed, c, bot_time) for c in chunks)):
                records.extend(got)
                if progress is not None:
                    progress(len(got))
    finally:
        if fork:
            _WORKER.pop("game", None)
            gc.unfreeze()
    records.sort(key=lambda r: r.index)
    return records


def compare(
    specs: Sequence[str | os.PathLike[str]],
    games: int,
    players: int | None = None,
    bots: Sequence[str] = ("greedy",),
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    max_hands: int | None = None,
    progress: Progress | None = None,
    option_sets: Sequence[dict[str, Any]] | None = None,
    allow_paths: Sequence[str | os.PathLike[str]] = (),
    bot_time: float | None = DEFAULT_BOT_TIME,
) -> Comparison:
    """Simulate each spec over the same seeds and bots; see :class:`Comparison`.

    ``option_sets`` (one dict per spec) adds per-spec options on top of ``options``,
    so one spec can be compared with itself under another reading.

    >>> c = compare(["example", "example"], games=2, players=2,
    ...             option_sets=[{}, {"void_rule": "any"}])
    >>> len(c.summaries), c.rows()[0][4][0] is None
    (2, True)
    """
    if len(specs) < 2:
        raise SpelbokError("compare needs at least two specs")
    runs = []
    for i, spec in enumerate(specs):
        opts = dict(options or {})
        if option_sets is not None:
            opts.update(option_sets[i])
        runs.append(simulate(spec, games, players, bots, seed, jobs, opts, max_hands, progress,
                             allow_paths=allow_paths, bot_time=bot_time))
    return Comparison(runs)


__all__ = [
    "Comparison", "MatchRecord", "Measure", "SCHEMA_VERSION", "Summary", "bin_counts",
    "binomial_sign_p",
    "compare", "cycle_bots", "histogram", "run_match", "simulate", "stars", "two_proportion_p",
    "welch_p", "wilson",
]
