"""``spelbok simulate`` and ``spelbok compare``: bot matches by the hundred.

Thin commands over :mod:`spelbok.analysis.simulate`; user errors are raised as
:class:`spelbok.SpelbokError` (exit 1, no traceback, via ``spelbok.cli.main``),
bad options as click usage errors (exit 2).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import click
from spelbok.analysis.simulate import (
    MAX_GAMES,
    Comparison,
    Measure,
    Summary,
    bin_counts,
    compare,
    histogram,
    simulate,
    stars,
)
from spelbok.errors import SpelbokError

from .main import check_output_file, raw_stream
from .options import (
    allow_path_option,
    bot_time_option,
    bots_option,
    force_option,
    jobs_option,
    json_option,
    max_hands_option,
    option_option,
    players_option,
    progress_option,
    seed_option,
    spec_argument,
)

F = TypeVar("F", bound=Callable[..., Any])

LEGEND = ("* p < 0.05, ** p < 0.01 against the first spec: paired t-tests on the shared "
          "seeds, p-values adjusted for the number of measures by Holm's method; "
          "Δ [low, high] is the difference from the first spec with its 95 % interval")


# -- options ----------------------------------------------------------------------------


def common_options(f: F, bots: str = "greedy") -> F:
    """The options simulate and compare share (``bots``: the default bots)."""
    decorators = [
        click.option("--games", "-g", type=click.IntRange(min=1, max=MAX_GAMES), default=100,
                     show_default=True, metavar="N",
                     help=f"Matches to play (per spec; at most {MAX_GAMES})."),
        players_option(),
        bots_option(default=bots, shown=True),
        bot_time_option,
        seed_option(default=0, shown=True),
        jobs_option(default=1),
        json_option,
        click.option("--plot", type=click.Path(dir_okay=False, writable=True), default=None,
                     metavar="FILE", help="Write charts to a PNG file (needs the plot extra: pip install '.[plot]')."),
        force_option,
        option_option,
        max_hands_option,
        progress_option,
        allow_path_option,
    ]
    for d in reversed(decorators):
        f = d(f)
    return f


def _jobs(jobs: int) -> int:
    cpus = os.cpu_count() or 1
    return cpus if jobs == 0 else min(jobs, cpus)


@contextmanager
def _progress(total: int, label: str, enabled: bool | None) -> Iterator[Callable[[int], None]]:
    show = sys.stderr.isatty() if enabled is None else enabled
    if not show:
        yield lambda k: None
        return
    # the real stream: the bar redraws its line with \r (its label is no input of ours)
    with click.progressbar(length=total, label=label, file=raw_stream(sys.stderr),
                           show_pos=True, show_eta=True) as bar:
        yield bar.update


# -- text reports ---------------------------------------------------------------------------


def _num(x: float) -> str:
    if float(x).is_integer() and abs(x) < 1e9:
        return str(int(x))
    return f"{x:.2f}" if abs(x) < 100 else f"{x:.1f}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _row(m: Measure) -> str:
    if m.kind == "rate":
        lo, hi = m.ci95
        frac = f"{m.successes}/{m.trials}"
        return f"{frac:>13} {_pct(m.value):>7}   [{_pct(lo)}, {_pct(hi)}]"
    return (f"{_num(m.mean):>8} {_num(m.median):>8} {_num(m.min):>8} {_num(m.max):>8}"
            f"   sd {_num(m.sd)}")


_HEADS = {"rate": f"{'count/of':>13} {'rate':>7}   95% CI (Wilson)",
          "mean": f"{'mean':>8} {'median':>8} {'min':>8} {'max':>8}"}


def _options_line(opts: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_fmt_opt(v)}" for k, v in opts.items()) or "(none)"


def _fmt_opt(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def format_summary(s: Summary) -> str:
    """The human-readable report of one simulation."""
    width = max([len(m.label) for m in s.measures] + [30]) + 2
    lines = [
        f"{s.game_name}: {s.players} players, {s.games} matches, seed {s.seed}"
        + (f", at most {s.max_hands} hands" if s.max_hands else ""),
        "bots by seat: " + ", ".join(f"{p} {b}" for p, b in enumerate(s.bots)),
        "options: " + _options_line(s.options),
        "",
    ]
    section = None
    kind = None
    titles = {"wins": "Wins (a tie counts for every tied seat)", "length": "Match length",
              "per hand": "Per hand", "decisions": "Decisions (share of each choice)",
              "exchanges": "Exchanges", "final scores": "Final scores"}
    for m in s.measures:
        if m.section != section or m.kind != kind:
            if m.section != section:
                if section is not None:
                    lines.append("")
                lines.append(f"{titles.get(m.section, m.section):<{width}}{_HEADS[m.kind]}")
            else:
                lines.append(f"{'':<{width}}{_HEADS[m.kind]}")
            section, kind = m.section, m.kind
        lines.append(f"  {m.label:<{width - 2}}{_row(m)}")
    hist = histogram(s.final_scores())
    if hist["counts"]:
        lines += ["", "Final score histogram (all seats)"]
        top = max(hist["counts"]) or 1
        edges = hist["edges"]
        integer = all(float(e).is_integer() for e in edges) and edges[1] - edges[0] == 1
        for i, c in enumerate(hist["counts"]):
            if not c and not integer:
                continue
            label = _num(edges[i]) if integer else f"{_num(edges[i])}..{_num(edges[i + 1])}"
            bar = "#" * round(40 * c / top)
            lines.append(f"  {label:>12} | {bar} {c}")
    return "\n".join(lines)


def _cell(m: Measure | None) -> str:
    if m is None:
        return "-"
    return _pct(m.value) if m.kind == "rate" else _num(m.mean)


def _diff(m: Measure | None, d: tuple[float, ...] | None) -> str:
    if m is None or d is None:
        return "-"
    if m.kind == "rate":  # in percentage points
        return f"{100 * d[0]:+.1f} [{100 * d[1]:+.1f}, {100 * d[2]:+.1f}]"
    return f"{d[0]:+.2f} [{d[1]:+.2f}, {d[2]:+.2f}]"


def format_comparison(c: Comparison, names: Sequence[str]) -> str:
    """The side-by-side report of a comparison, with significance marks."""
    first = c.summaries[0]
    letters = [chr(ord("A") + i) if i < 26 else f"S{i}" for i in range(len(c.summaries))]
    lines = [f"{first.players} players, {first.games} matches per spec, seed {first.seed}"
             + (f", at most {first.max_hands} hands" if first.max_hands else ""),
             "bots by seat: " + ", ".join(f"{p} {b}" for p, b in enumerate(first.bots))]
    varying = [k for k in first.options
               if any(s.options.get(k) != first.options[k] for s in c.summaries)]
    for letter, name, s in zip(letters, names, c.summaries, strict=True):
        opts = {k: s.options.get(k) for k in varying}
        extra = f"; {_options_line(opts)}" if opts else ""
        lines.append(f"  {letter} = {name} ({s.game_name}{extra})")
    lines.append("")
    rows = c.differences()
    width = max([len(r[2]) for r in rows] + [30]) + 4
    col = 12
    titles = {"wins": "Wins (rate)", "length": "Match length", "per hand": "Per hand",
              "decisions": "Decisions (share)", "exchanges": "Exchanges",
              "final scores": "Final scores (mean)"}
    dcol = 24
    header = f"{'':<{width}}" + "".join(
        f"{x:>{col}}   " + (f"{'Δ ' + x + ' [95 %]':>{dcol}} " if i else "")
        for i, x in enumerate(letters))
    lines.append(header.rstrip())
    section = None
    for _key, sec, label, ms, ds in rows:
        if sec != section:
            lines.append(titles.get(sec, sec))
            section = sec
        cells = []
        for i, (m, d) in enumerate(zip(ms, ds, strict=True)):
            mark = stars(d[3]) if d is not None else ""
            cells.append(f"{_cell(m):>{col}} {mark:<2}")
            if i:
                cells.append(f"{_diff(m, d):>{dcol}} ")
        lines.append(f"  {label:<{width - 2}}" + "".join(cells).rstrip())
    lines += ["", "Legend: rates in %, their differences in points, other rows are means; "
              + LEGEND + "."]
    return "\n".join(lines)


# -- plots -------------------------------------------------------------------------------


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise SpelbokError("--plot needs matplotlib, in the plot extra: pip install '.[plot]' "
                           "(from the checkout)") from e
    return plt


def plot_runs(summaries: Sequence[Summary], names: Sequence[str], path: str) -> None:
    """PNG charts: wins per seat (95 % CI), final score histograms, match lengths."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    ax = axes[0]
    k = len(summaries)
    width = 0.8 / k
    for i, (s, name) in enumerate(zip(summaries, names, strict=True)):
        ms = s.wins_by_seat()
        xs = [p + (i - (k - 1) / 2) * width for p in range(len(ms))]
        vals = [m.value for m in ms]
        err = [[m.value - m.ci95[0] for m in ms], [m.ci95[1] - m.value for m in ms]]
        ax.bar(xs, vals, width=width, yerr=err, capsize=3, label=name)
    seats = summaries[0].bots
    ax.set_xticks(range(len(seats)), [f"{p}\n{b}" for p, b in enumerate(seats)])
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title("Wins per seat")
    if k > 1:
        ax.legend(fontsize="small")
    for ax, title, get in ((axes[1], "Final scores (all seats)", lambda s: s.final_scores()),
                           (axes[2], "Hands per match",
                            lambda s: [float(r.hands) for r in s.matches])):
        # one set of bin edges for every run, so that the histograms can be compared
        edges = histogram([v for s in summaries for v in get(s)])["edges"]
        for s, name in zip(summaries, names, strict=True):
            counts = bin_counts(get(s), edges)
            if counts:
                ax.stairs(counts, edges, label=name, fill=k == 1, alpha=0.8)
        ax.set_title(title)
        ax.set_ylabel("count")
        if k > 1:
            ax.legend(fontsize="small")
    fig.tight_layout()
    try:
        fig.savefig(path, format="png", dpi=100)
    except OSError as e:
        raise SpelbokError(f"cannot write {path}: {e.strerror or e}") from e
    finally:
        plt.close(fig)


# -- commands -------------------------------------------------------------------------------


def _check_plot(plot: str | None, force: bool) -> None:
    if plot:
        check_output_file(plot, "'--plot'")
        if os.path.exists(plot) and not force:
            raise click.BadParameter(f"'{plot}' already exists; add --force to overwrite it",
                                     param_hint="'--plot'")
        _pyplot()  # fail before the run, not after


@click.command("simulate")
@spec_argument()
@common_options
def simulate_cmd(spec: str, games: int, players: int | None, bots: list[str], bot_time: float | None,
                 seed: int, jobs: int, as_json: bool, plot: str | None, force: bool,
                 options: dict[str, str], max_hands: int | None, progress: bool | None,
                 allow_paths: tuple[str, ...]) -> None:
    """Play many matches of SPEC between bots and report measures.

    Seats keep the order of --bots (cycled when shorter); wins are reported
    per seat and per bot with Wilson 95% intervals, then match length,
    per-hand rates read from the event log (redeals, sole players, the talon
    running dry, eliminations, ...), the share of each choice at each
    decision, and the final scores.  The default bots are greedy, which finish
    matches; a warning says when most matches were cut at max_hands, or when
    a bot's search was cut at --bot-time.

    \b
    Examples:
      spelbok simulate knektpass --games 500 --players 3 --bots greedy,random
      spelbok simulate knockout-whist -n 4 -b ismcts:100,greedy -g 50 --jobs 2 --json
    """
    _check_plot(plot, force)
    with _progress(games, "simulating", progress) as update:
        summary = simulate(spec, games, players, bots, seed, _jobs(jobs), options, max_hands,
                           progress=update, allow_paths=allow_paths, bot_time=bot_time)
    if as_json:
        click.echo(json.dumps(summary.to_dict(), indent=2))
    else:
        click.echo(format_summary(summary))
    for warning in summary.warnings():
        click.echo(f"warning: {warning}", err=True)
    if plot:
        plot_runs([summary], [spec], plot)
        if not as_json:
            click.echo(f"\ncharts written to {plot}")


@click.command("compare")
@click.argument("specs", nargs=-1, required=True, metavar="SPEC_A SPEC_B [SPEC...]")
@common_options
def compare_cmd(specs: tuple[str, ...], games: int, players: int | None, bots: list[str],
                bot_time: float | None, seed: int, jobs: int, as_json: bool, plot: str | None, force: bool,
                options: dict[str, str], max_hands: int | None, progress: bool | None,
                allow_paths: tuple[str, ...]) -> None:
    """Compare specs (or readings) side by side on the same seeds and bots.

    Each measure of 'simulate' is shown for every spec, with its difference
    from the first spec and the 95 % interval of that difference.  The specs
    play the same seeds, so the tests are paired on the matches (paired
    t-tests); a difference is marked * (p < 0.05) or ** (p < 0.01) after
    Holm's correction for the number of measures.  The default bots are
    greedy, which finish matches; a warning says when most matches were cut
    at max_hands, or when a bot's search was cut at --bot-time.

    \b
    Example:
      spelbok compare knektpass variants/knektpass-void-any --games 300 -n 3
    """
    if len(specs) < 2:
        raise click.UsageError("compare needs at least two specs")
    _check_plot(plot, force)
    with _progress(games * len(specs), "comparing", progress) as update:
        result = compare(list(specs), games, players, bots, seed, _jobs(jobs), options,
                         max_hands, progress=update, allow_paths=allow_paths, bot_time=bot_time)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        click.echo(format_comparison(result, specs))
    for warning in result.limit_warnings():
        click.echo(f"warning: {warning}", err=True)
    if plot:
        plot_runs(result.summaries, list(specs), plot)
        if not as_json:
            click.echo(f"\ncharts written to {plot}")
