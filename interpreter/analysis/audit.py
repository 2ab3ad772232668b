"""Reading audit: what each reading of a spec's rules implies, over many bot matches.

An audit sweeps *cells*: every spec given × every reading (a combination of
option values) × every player count × every bot line-up, and plays ``games``
matches in each with :func:`spelbok.analysis.simulate.run_match`.  Each cell gets
the measures of :func:`~spelbok.analysis.sim_report.build_measures` and those of
:mod:`~spelbok.analysis.audit_measures`, with 95 % intervals, and each measure is
tested against the same measure of the cell's *baseline*: the default reading of
its spec at the same player count and line-up (and, for the default reading of
a second spec, the first spec's).  The p-values of the whole audit are adjusted
together with the Benjamini–Hochberg procedure (the false discovery rate: an
audit screens hundreds of measures, and a family-wise correction such as Holm's
would hide nearly every real difference at a few hundred matches per cell).

Readings: ``design="product"`` takes every combination of the values swept
(those named in ``options``, else every option of the spec); ``design="single"``
takes each value of each option changed alone.  Both take the default reading,
first: it is the baseline.  ``design="auto"`` (the command's default) is the
product when its cells fit in :data:`MAX_CELLS`, else the single design, and
says so in :attr:`Plan.note` (nine two-valued options are 512 readings already).

Seeds: cell ``c`` of an audit seeded ``S`` plays its matches with the run seed
:func:`cell_seed` ``(S, key)``, a hash of ``S`` and the cell's key (spec,
reading, players, line-up), so the matches of a cell do not depend on which
other cells are swept, nor on the order in which the workers finish: the same
seed gives the same ``audit.json`` with any ``jobs`` and either backend.

Backends: ``"local"`` spreads chunks of matches over processes
(:mod:`concurrent.futures`); ``"ray"`` sends the same chunks to a Ray cluster
(``ray_address``, or a local Ray when None; needs ``spelbok[ray]``).

What is swept (readings, line-ups, cells, seeds) is :mod:`~spelbok.analysis.audit_sweep`;
running the units of work, :mod:`~spelbok.analysis.audit_workers`.

>>> a = audit(["example"], games=2, players=[2], options={"void_rule": ["any"]}, seed=1,
...           skill=None)
>>> [c.label for c in a.readings], a.to_dict()["schema"]
(['default', 'void_rule=any'], 'spelbok.audit')
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import SpecError, SpelbokError, did_you_mean
from ..play.bots.budget import DEFAULT_BOT_TIME
from .audit_measures import audit_measures
from .audit_sweep import (
    DESIGNS,
    MAX_CELLS,
    Cell,
    Lineup,
    Reading,
    _text,
    cell_seed,
    option_value,
    product_size,
    readings_of,
)
from .audit_workers import Progress, Task, run_local, run_ray, run_task
from .sim_report import Summary
from .simulate import MAX_GAMES
from .stats import stars

#: The version of the ``audit.json`` form (``audit.schema.json`` beside this file).
AUDIT_VERSION = 1
#: Most matches an audit plays in all (and MAX_CELLS, most cells it sweeps).
MAX_MATCHES = 1_000_000
#: Matches in one unit of work sent to a worker.
CHUNK = 10
CORRECTION = "benjamini-hochberg"
BACKENDS = ("local", "ray")


# -- the audit ------------------------------------------------------------------------


@dataclass
class Audit:
    """The result of :func:`audit`: the sweep, each cell's measures and tests."""

    specs: list[dict[str, Any]]
    readings: list[Reading]
    lineups: list[Lineup]
    cells: list[Cell]
    seed: int
    games: int
    max_hands: int | None
    design: str

    def to_dict(self) -> dict[str, Any]:
        """The documented JSON form (``schema`` ``spelbok.audit``, see audit.schema.json)."""
        tests = sum(len(c.tests) for c in self.cells)
        return {
            "schema": "spelbok.audit",
            "version": AUDIT_VERSION,
            "seed": self.seed,
            "games": self.games,
            "max_hands": self.max_hands,
            "design": self.design,
            "tests": {"rate": "two-proportion z-test", "mean": "Welch t-test",
                      "correction": CORRECTION, "count": tests,
                      "marks": {"**": "adjusted p < 0.01", "*": "adjusted p < 0.05"}},
            "specs": self.specs,
            "readings": [{"id": r.id, "spec": r.spec, "label": r.label,
                          "options": r.options, "default": r.default} for r in self.readings],
            "lineups": [{"id": i, "label": lu.label, "bots": list(lu.bots), "strong": lu.strong}
                        for i, lu in enumerate(self.lineups)],
            "cells": [self._cell(c) for c in self.cells],
        }

    def _cell(self, c: Cell) -> dict[str, Any]:
        ms = []
        for m in c.measures:
            d = m.to_dict()
            p, q = c.tests.get(m.key, (None, None))
            d.update(p=p, q=q, mark=stars(q) if q is not None else "")
            ms.append(d)
        return {"id": c.id, "spec": c.spec, "reading": c.reading, "players": c.players,
                "lineup": c.lineup, "seed": c.seed, "games": len(c.records),
                "baseline": c.baseline, "measures": ms}

    def write_json(self, path: str | os.PathLike[str]) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=1, sort_keys=False)
            f.write("\n")


def load_schema() -> dict[str, Any]:
    """The JSON Schema of ``audit.json`` (``audit.schema.json``, shipped with the package).

    >>> load_schema()["properties"]["version"]["const"] == AUDIT_VERSION
    True
    """
    from importlib import resources

    text = resources.files("spelbok.analysis").joinpath("audit.schema.json").read_text(
        encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def benjamini_hochberg(ps: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values), in the order given.

    >>> [round(q, 3) for q in benjamini_hochberg([0.01, 0.04, 0.03, 0.5])]
    [0.04, 0.053, 0.053, 0.5]
    """
    n = len(ps)
    order = sorted(range(n), key=lambda i: ps[i])
    out = [1.0] * n
    low = 1.0
    for rank in range(n, 0, -1):
        i = order[rank - 1]
        low = min(low, ps[i] * n / rank)
        out[i] = min(1.0, low)
    return out


@dataclass
class Plan:
    """An audit before it runs: the cells and the units of work (see :func:`plan_audit`)."""

    specs: list[dict[str, Any]]
    readings: list[Reading]
    lineups: list[Lineup]
    cells: list[Cell]
    tasks: list[Task]
    seed: int
    games: int
    max_hands: int | None
    design: str
    #: why the design differs from the one asked for (``auto`` over the cap), else None
    note: str | None = None
    #: seconds a bot may take per decision (None: no limit)
    bot_time: float | None = DEFAULT_BOT_TIME

    @property
    def matches(self) -> int:
        return len(self.cells) * self.games


def plan_audit(
    specs: Sequence[str | os.PathLike[str]],
    games: int,
    players: Sequence[int] | None = None,
    lineups: Sequence[Sequence[str]] = (("random",),),
    options: dict[str, Sequence[Any]] | None = None,
    design: str = "product",
    skill: tuple[str, str] | None = ("greedy", "random"),
    seed: int = 0,
    max_hands: int | None = None,
    allow_paths: Sequence[str | os.PathLike[str]] = (),
    bot_time: float | None = DEFAULT_BOT_TIME,
) -> Plan:
    """The cells of an audit of ``specs`` (see :func:`audit`), before any match is played."""
    from ..play.bots import parse_bots
    from .simulate import _spec_ref

    if games < 1:
        raise SpelbokError("--games must be at least 1")
    if games > MAX_GAMES:
        raise SpelbokError(f"--games can be at most {MAX_GAMES}")
    if not specs:
        raise SpelbokError("name at least one spec")
    allowed = tuple(os.fspath(p) for p in allow_paths)
    ups = [Lineup(tuple(parse_bots(list(b)))) for b in lineups]
    if skill is not None:
        strong, weak = parse_bots([skill[0]])[0], parse_bots([skill[1]])[0]
        ups.append(Lineup((weak,), strong=strong))
    if not ups:
        raise SpelbokError("no bot line-up given")
    refs = [_spec_ref(s) for s in specs]
    if design not in DESIGNS:
        raise SpelbokError(f"unknown design '{design}' (one of {', '.join(DESIGNS)})")
    spec_info, counts, known, trees = _load_specs(specs, refs, players, options, max_hands,
                                                  allowed)
    note = None
    if design == "auto":
        size = sum(product_size(t, sw) * len(counts[i]) for i, (t, sw) in enumerate(trees)) * len(ups)
        design = "product" if size <= MAX_CELLS else "single"
        if size > MAX_CELLS:
            note = (f"every combination of the options would be {size} cells, more than "
                    f"{MAX_CELLS}: each option is changed alone from the defaults instead "
                    "(--design single); name options with --options to sweep their combinations")
    readings: list[Reading] = []
    for i, (tree, sweep) in enumerate(trees):
        readings.extend(readings_of(tree, i, sweep, design, start=len(readings)))
    for name in options or {}:
        if name not in known:
            raise SpecError(f"no spec audited has an option '{name}'",
                            hint=did_you_mean(name, known) or None)
    cells = _cells(readings, counts, ups, spec_info, seed)
    if len(cells) > MAX_CELLS:
        raise SpelbokError(f"{len(cells)} cells to sweep, more than {MAX_CELLS}: name fewer "
                           f"options with --options, or use --design single")
    if len(cells) * games > MAX_MATCHES:
        raise SpelbokError(f"{len(cells) * games} matches, more than {MAX_MATCHES}")
    _baselines(cells, readings)
    tasks: list[Task] = []
    for c in cells:
        opts = dict(readings[c.reading].options)
        for at in range(0, games, CHUNK):
            tasks.append((c.id, refs[c.spec], c.players, opts, max_hands, allowed, ups[c.lineup],
                          c.seed, bot_time, list(range(at, min(games, at + CHUNK)))))
    return Plan(spec_info, readings, ups, cells, tasks, seed, games, max_hands, design, note,
                bot_time)


Trees = list[tuple[dict[str, Any], dict[str, Sequence[Any]] | None]]


def _load_specs(specs: Sequence[str | os.PathLike[str]], refs: Sequence[str | os.PathLike[str]],
                players: Sequence[int] | None, options: dict[str, Sequence[Any]] | None,
                max_hands: int | None, allowed: tuple[str, ...],
                ) -> tuple[list[dict[str, Any]], dict[int, list[int]], set[str], Trees]:
    """Each spec audited: its description in ``audit.json``, its player counts (checked
    against the spec), the options it declares, and its tree with the options it sweeps."""
    from ..engine.game import load

    spec_info: list[dict[str, Any]] = []
    counts: dict[int, list[int]] = {}
    known: set[str] = set()
    trees: Trees = []
    for i, ref in enumerate(refs):
        game = load(ref, players=None, max_hands=max_hands, allow_paths=allowed)
        tree = game.tree
        lo, hi = tree["players"]["min"], tree["players"]["max"]
        ns = list(dict.fromkeys(players or [lo]))
        for n in ns:
            if not lo <= n <= hi:
                raise SpecError(f"{game.name} is for {lo} to {hi} players, not {n}")
        counts[i] = ns
        declared = tree.get("options") or {}
        known.update(declared)
        sweep = None
        if options:
            # with several specs, each sweeps the options it has
            sweep = ({k: v for k, v in options.items() if k in declared}
                     if len(specs) > 1 else dict(options))
        text = os.fspath(specs[i])
        spec_info.append({"index": i, "spec": text if "\n" not in text else "<text>",
                          "game": game.name, "defaults": dict(game.options)})
        trees.append((tree, sweep))
    return spec_info, counts, known, trees


def _cells(readings: Sequence[Reading], counts: dict[int, list[int]], ups: Sequence[Lineup],
           spec_info: Sequence[dict[str, Any]], seed: int) -> list[Cell]:
    """Every cell: each reading at each of its spec's player counts with each line-up."""
    cells: list[Cell] = []
    for r in readings:
        for n in counts[r.spec]:
            for li, lu in enumerate(ups):
                key = json.dumps([spec_info[r.spec]["spec"], sorted(
                    (k, _text(v)) for k, v in r.options.items()), n, lu.label])
                cells.append(Cell(len(cells), r.spec, r.id, n, li, key, cell_seed(seed, key)))
    return cells


def run_audit(plan: Plan, jobs: int = 1, backend: str = "local", ray_address: str | None = None,
              progress: Progress | None = None) -> Audit:
    """Play the plan's matches (``jobs`` processes, or on Ray) and measure and test them."""
    if backend not in BACKENDS:
        raise SpelbokError(f"unknown backend '{backend}' (one of {', '.join(BACKENDS)})")
    if backend == "ray":
        results = run_ray(plan.tasks, ray_address, progress)
    else:
        results = run_local(plan.tasks, min(jobs, len(plan.tasks)), progress)
    cells = plan.cells
    for c in cells:
        c.records = []
    for cid, recs in results:
        cells[cid].records.extend(recs)
    for c in cells:
        c.records.sort(key=lambda a: a.match.index)
        lu = plan.lineups[c.lineup]
        info = plan.specs[c.spec]
        summary = Summary(spec=info["spec"], game_name=info["game"], players=c.players,
                          options=dict(plan.readings[c.reading].options),
                          max_hands=plan.max_hands, seed=c.seed, games=plan.games,
                          bots=lu.seats(c.players, 0) if lu.strong is None
                          else [lu.label] * c.players,
                          matches=[a.match for a in c.records])
        ms = summary.measures
        if lu.strong is not None:  # the seats change hands: wins by seat and bot say nothing
            ms = [m for m in ms if not m.key.startswith(("wins.bot.", "wins.seat."))]
        c.measures = ms + audit_measures(c.records, c.players)
    _test(cells)
    return Audit(plan.specs, plan.readings, plan.lineups, cells, plan.seed, plan.games,
                 plan.max_hands, plan.design)


def audit(
    specs: Sequence[str | os.PathLike[str]],
    games: int,
    players: Sequence[int] | None = None,
    lineups: Sequence[Sequence[str]] = (("random",),),
    options: dict[str, Sequence[Any]] | None = None,
    design: str = "product",
    skill: tuple[str, str] | None = ("greedy", "random"),
    seed: int = 0,
    jobs: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    max_hands: int | None = None,
    progress: Progress | None = None,
    allow_paths: Sequence[str | os.PathLike[str]] = (),
    bot_time: float | None = DEFAULT_BOT_TIME,
) -> Audit:
    """Sweep ``specs`` × readings × ``players`` × line-ups (see the module doc).

    ``options`` maps option names to the values to sweep (text or values; None:
    every option of each spec, every value); ``skill`` (stronger, weaker) adds a
    line-up that measures skill against luck; ``progress(k)`` is told as k more
    matches finish.  Raises SpelbokError (SpecError for a bad spec or option).
    """
    plan = plan_audit(specs, games, players, lineups, options, design, skill, seed, max_hands,
                      allow_paths, bot_time)
    return run_audit(plan, jobs, backend, ray_address, progress)


def _baselines(cells: Sequence[Cell], readings: Sequence[Reading]) -> None:
    """Each cell's baseline: its spec's default reading (or first reading) at the same
    players and line-up; for that one, the first spec's."""
    first: dict[int, int] = {}
    for r in readings:
        if r.spec not in first or (r.default and not readings[first[r.spec]].default):
            first[r.spec] = r.id
    where = {(c.spec, c.reading, c.players, c.lineup): c.id for c in cells}
    for c in cells:
        base = first[c.spec]
        if c.reading != base:
            c.baseline = where.get((c.spec, base, c.players, c.lineup))
        elif c.spec != 0:
            c.baseline = where.get((0, first[0], c.players, c.lineup))


def _test(cells: Sequence[Cell]) -> None:
    """Test every measure against the baseline's, and adjust all the p-values together."""
    found: list[tuple[Cell, str, float]] = []
    for c in cells:
        if c.baseline is None:
            continue
        base = {m.key: m for m in cells[c.baseline].measures}
        for m in c.measures:
            b = base.get(m.key)
            if b is not None and b.kind == m.kind:
                found.append((c, m.key, m.p_value(b)))
    qs = benjamini_hochberg([p for _, _, p in found])
    for (c, key, p), q in zip(found, qs):
        c.tests[key] = (p, q)


__all__ = ["AUDIT_VERSION", "Audit", "Cell", "Lineup", "Plan", "Reading", "audit",
           "benjamini_hochberg", "cell_seed", "load_schema", "option_value", "plan_audit", "readings_of",
           "run_audit", "run_task",
           # in audit_sweep.py and audit_workers.py, still read from here
           "DESIGNS", "MAX_CELLS", "Progress", "Task", "product_size", "run_local", "run_ray"]
