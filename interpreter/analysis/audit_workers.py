"""Playing an audit's units of work (a chunk of a cell's matches): here, over processes
on this machine, or on a Ray cluster."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import SpelbokError
from .audit_measures import AuditRecord, match_facts
from .audit_sweep import Lineup
from .simulate import run_match

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State

Progress = Callable[[int], None]


#: one unit of work: (cell id, spec ref, players, options, max_hands, allow_paths,
#: line-up, run seed, bot time, match indexes)
Task = tuple[int, str | os.PathLike[str], int, dict[str, Any], int | None, tuple[str, ...], Lineup, int, float | None,
             list[int]]

_GAMES: dict[tuple[str | os.PathLike[str], str], Game] = {}


def _game(ref: str | os.PathLike[str], players: int, options: dict[str, Any],
          max_hands: int | None, allow_paths: tuple[str, ...]) -> Game:
    from ..engine.game import load

    # a SpecText is its own key (by its text): two texts of one name are two games
    key = (ref, json.dumps([players, sorted((k, repr(v)) for k, v in options.items()),
                            max_hands]))
    g = _GAMES.get(key)
    if g is None:
        if len(_GAMES) > 64:  # a worker keeps the games of the cells it runs, within bounds
            _GAMES.clear()
        g = _GAMES[key] = load(ref, players=players, options=options, max_hands=max_hands,
                               allow_paths=allow_paths)
    return g


def run_task(task: Task) -> tuple[int, list[AuditRecord]]:
    """Play one chunk of a cell's matches (in whatever process runs it)."""
    cell, ref, players, options, max_hands, allow_paths, lineup, seed, bot_time, indexes = task
    game = _game(ref, players, options, max_hands, allow_paths)
    out = []
    for i in indexes:
        facts: dict[str, Any] = {}

        def observe(st: State, facts: dict[str, Any] = facts) -> None:
            facts.update(match_facts(st))

        rec = run_match(game, lineup.seats(players, i), seed, i, observe=observe, bot_time=bot_time)
        strong = i % players if lineup.strong is not None else -1
        out.append(AuditRecord(rec, strong_seat=strong, **facts))
    return cell, out


def _init_worker() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(tasks: Sequence[Task], jobs: int, progress: Progress | None) -> list[
        tuple[int, list[AuditRecord]]]:
    """Run the tasks here (``jobs`` <= 1) or over ``jobs`` processes."""
    if jobs <= 1 or len(tasks) <= 1:
        out = []
        for t in tasks:
            out.append(run_task(t))
            if progress is not None:
                progress(len(t[-1]))
        return out
    import concurrent.futures as cf
    import multiprocessing as mp

    # fork: the workers start with the modules imported (spawn imports them again)
    ctx = mp.get_context("fork" if sys.platform == "linux" else "spawn")
    done = []
    pool = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init_worker)
    try:
        futures = [pool.submit(run_task, t) for t in tasks]
        for f in cf.as_completed(futures):
            got = f.result()
            done.append(got)
            if progress is not None:
                progress(len(got[1]))
    finally:
        # on an error or Ctrl-C, the chunks not started are dropped, not waited for
        pool.shutdown(wait=True, cancel_futures=True)
    return done


def run_ray(tasks: Sequence[Task], address: str | None, progress: Progress | None) -> list[
        tuple[int, list[AuditRecord]]]:
    """Run the tasks on a Ray cluster (``address``), or a local Ray when None."""
    try:
        import ray
    except ImportError:
        raise SpelbokError("the ray backend needs Ray: pip install 'spelbok[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
        started = True
    try:
        remote = ray.remote(run_task)
        pending = [remote.remote(t) for t in tasks]
        done = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                got = ray.get(ref)
                done.append(got)
                if progress is not None:
                    progress(len(got[1]))
        return done
    finally:
        if started:
            ray.shutdown()
