"""``spelbok audit``: what each reading of a spec implies, swept over many bot matches.

A thin command over :mod:`spelbok.analysis.audit` (the sweep, measures and tests)
and :mod:`spelbok.analysis.audit_report` (``index.html`` and the plots).  User
errors are raised as :class:`spelbok.SpelbokError` (exit 1 via
``spelbok.cli.main``), bad options as click usage errors (exit 2).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import click
from spelbok.analysis.audit import BACKENDS, DESIGNS, MAX_CELLS, Audit, plan_audit, run_audit
from spelbok.analysis.simulate import MAX_GAMES
from spelbok.errors import SpelbokError

from .main import oserror_text
from .options import (
    allow_path_option,
    bot_time_option,
    bots_list_option,
    jobs_option,
    max_hands_option,
    parse_bots,
    players_list_option,
    progress_option,
    seed_option,
    spec_argument,
)
from .simulate import _jobs, _progress


def parse_sweep(values: Sequence[str]) -> dict[str, list[str]]:
    """``--options NAME=V1,V2`` pairs as {name: [values]} (text; the spec converts them).

    >>> parse_sweep(["void_rule=any,trump", "floor_zero=true"])
    {'void_rule': ['any', 'trump'], 'floor_zero': ['true']}
    """
    out: dict[str, list[str]] = {}
    for item in values:
        name, eq, rest = item.partition("=")
        got = [v.strip() for v in rest.split(",") if v.strip()]
        if not eq or not name.strip() or not got:
            raise click.BadParameter(f"'{item}': write name=value1,value2, e.g. "
                                     f"void_rule=any,trump", param_hint="'--options'")
        out.setdefault(name.strip(), []).extend(got)
    return out


def _sweep_callback(ctx: click.Context, param: click.Parameter, value: Any) -> dict[str, list[str]]:
    return parse_sweep(value or ())


def _skill_callback(ctx: click.Context, param: click.Parameter,
                    value: str) -> tuple[str, str] | None:
    if value.strip().lower() == "none":
        return None
    names = parse_bots(value)
    if len(names) != 2:
        raise click.BadParameter("name two bots, the stronger first (e.g. greedy,random), "
                                 "or none", param_hint="'--skill'")
    return names[0], names[1]


def format_audit(a: Audit, out: str, files: Sequence[str]) -> str:
    """The lines printed after an audit: what was written and the marked differences."""
    d = a.to_dict()
    labels = {r["id"]: r["label"] for r in d["readings"]}
    games = {s["index"]: s["game"] for s in d["specs"]}
    lineups = {lu["id"]: lu["label"] for lu in d["lineups"]}
    lines = [f"{len(a.readings)} readings, {len(a.cells)} cells, {a.games} matches each, "
             f"seed {a.seed}; {d['tests']['count']} tests ({d['tests']['correction']})"]
    marked = []
    for c in d["cells"]:
        for m in c["measures"]:
            if m["mark"]:
                who = (f"{games[c['spec']]}: " if len(games) > 1 else "") + labels[c["reading"]]
                marked.append(f"  {who}, {c['players']} players, {lineups[c['lineup']]}: "
                              f"{m['label']} {m['value']:.3g}{m['mark']}")
    if marked:
        lines.append(f"differences from the baseline (adjusted p < 0.05): {len(marked)}")
        lines.extend(marked[:20])
        if len(marked) > 20:
            lines.append(f"  ... and {len(marked) - 20} more (see index.html)")
    else:
        lines.append("no difference from the baseline at adjusted p < 0.05")
    lines.append("wrote " + ", ".join(os.path.join(out, f) for f in files))
    return "\n".join(lines)


@click.command("audit")
@spec_argument(nargs=-1)
@click.option("--options", "sweep", multiple=True, metavar="NAME=V1,V2", callback=_sweep_callback,
              help="Sweep these values of an option (repeatable; default: every option "
                   "of the spec, every value).")
@click.option("--design", type=click.Choice(DESIGNS), default="auto", show_default=True,
              help="product: every combination of the values swept; single: the default "
                   f"reading and each value changed alone; auto: product when it is at most "
                   f"{MAX_CELLS} cells, else single (and says so).")
@players_list_option
@bots_list_option(default="random")
@click.option("--skill", default="greedy,random", show_default=True, metavar="STRONG,WEAK",
              callback=_skill_callback,
              help="Add a line-up of one stronger bot against weaker ones (skill against "
                   "luck), or none.")
@click.option("--games", "-g", type=click.IntRange(min=1, max=MAX_GAMES), default=200,
              show_default=True, metavar="N", help="Matches to play in each cell.")
@seed_option(default=0, shown=True)
@jobs_option(default=0)
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
              help="local: processes on this machine; ray: a Ray cluster (the ray extra: pip install '.[ray]').")
@click.option("--ray-address", default=None, metavar="ADDR",
              help="The Ray cluster to join (default: start a local Ray).")
@click.option("--out", "-O", "out", default="audit", show_default=True, metavar="DIR",
              type=click.Path(file_okay=False), help="Folder for index.html, audit.json and "
                                                     "the plots.")
@click.option("--plots/--no-plots", default=True,
              help="Draw PNG plots (needs matplotlib: pip install '.[plot]').")
@max_hands_option
@bot_time_option
@progress_option
@allow_path_option
def audit_cmd(spec: tuple[str, ...], sweep: dict[str, list[str]], design: str,
              players: list[int] | None, bots: list[list[str]] | None,
              skill: tuple[str, str] | None, games: int, seed: int, jobs: int, backend: str,
              ray_address: str | None, out: str, plots: bool, max_hands: int | None,
              bot_time: float | None, progress: bool | None,
              allow_paths: tuple[str, ...]) -> None:
    """Audit the readings of SPEC (or of several specs side by side).

    Sweeps every combination of the options swept x player counts x bot line-ups,
    plays --games matches in each cell and writes DIR/audit.json and a
    self-contained DIR/index.html with 95 % intervals, plots, and the differences
    from the default reading marked (Benjamini-Hochberg adjusted). The same seed
    gives the same audit.json with any --jobs and either backend.
    """
    from spelbok.analysis.audit_report import write_report

    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise SpelbokError(f"cannot write to {out}: {oserror_text(e)}") from None
    # the plan first: a bad option fails before any match, and the bar knows the total
    plan = plan_audit(list(spec), games, players=players, lineups=bots or [["random"]],
                      options=sweep or None, design=design, skill=skill, seed=seed,
                      max_hands=max_hands, allow_paths=allow_paths, bot_time=bot_time)
    if plan.note:
        click.echo(f"note: {plan.note}", err=True)
    with _progress(plan.matches, "auditing", progress) as bar:
        result = run_audit(plan, jobs=_jobs(jobs), backend=backend, ray_address=ray_address,
                           progress=bar)
    data = result.to_dict()
    try:
        result.write_json(os.path.join(out, "audit.json"))
        files = ["audit.json", *write_report(data, out, plots=plots)]
    except OSError as e:
        raise SpelbokError(f"cannot write to {out}: {oserror_text(e)}") from None
    click.echo(format_audit(result, out, files))
    if plan.note:  # again, after the results: the reader may not scroll back
        click.echo(f"note: {plan.note}", err=True)
    cuts = sum(r.match.bot_time_cuts for c in result.cells for r in c.records)
    if cuts:
        click.echo(f"warning: {cuts} bot decisions stopped searching at the time budget "
                   "(--bot-time): these results depend on the machine's speed", err=True)
