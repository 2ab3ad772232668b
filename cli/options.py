"""The options several commands share, each declared once.

A shared option has the same flags, type, metavar and help text in every
command (``tests/test_cli.py`` checks it); what a command may choose is its
default, which click shows after the help (``[default: ...]``).  Option values
are checked here, so a bad one is a usage error (exit 2) in every command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click
from spelbok.errors import SpelbokError

F = TypeVar("F", bound=Callable[..., Any])


def parse_options(values: Sequence[str]) -> dict[str, str]:
    """``--option name=value`` pairs as a dict (the values stay text; the game
    converts them to the option's declared values).

    >>> parse_options(["void_rule=any", "floor_zero = true"])
    {'void_rule': 'any', 'floor_zero': 'true'}
    """
    out: dict[str, str] = {}
    for item in values:
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise click.BadParameter(f"'{item}': write name=value, e.g. void_rule=any",
                                     param_hint="'--option'")
        out[name.strip()] = value.strip()
    return out


def parse_bots(text: str) -> list[str]:
    """A comma-separated list of bot names.

    >>> parse_bots("random, greedy")
    ['random', 'greedy']
    """
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise click.BadParameter("name at least one bot, e.g. random", param_hint="'--bots'")
    return names


def _options_callback(ctx: click.Context, param: click.Parameter, value: Any) -> dict[str, str]:
    return parse_options(value or ())


def _bots_callback(ctx: click.Context, param: click.Parameter, value: Any) -> list[str] | None:
    if value is None:
        return None
    names = parse_bots(value)
    try:  # an unknown bot is a usage error (exit 2), in every command
        from spelbok.play.bots import make_bot
    except ImportError:  # pragma: no cover - the bots are always shipped
        return names
    for name in names:
        try:
            make_bot(name)
        except SpelbokError as exc:
            raise click.BadParameter(str(exc), param_hint="'--bots'") from None
    return names


def _allow_callback(ctx: click.Context, param: click.Parameter, value: Any) -> tuple[str, ...]:
    return tuple(value or ())


def spec_argument(nargs: int = 1) -> Callable[[F], F]:
    """The SPEC argument: a file or a shipped spec name."""
    return click.argument("spec", nargs=nargs, required=True, metavar="SPEC" + ("..." if nargs != 1 else ""))


def players_option(shown: str = "the spec's minimum") -> Callable[[F], F]:
    """``--players N``; ``shown`` says what the command does without it."""
    return click.option("--players", "-n", type=click.IntRange(min=1), default=None, metavar="N",
                        show_default=shown, help="Number of players.")


def seed_option(default: int | None = None,
                shown: str | bool = "a random one, printed") -> Callable[[F], F]:
    """``--seed S``: ``default`` None draws a seed (the command prints it)."""
    return click.option("--seed", "-s", type=int, default=default, metavar="S",
                        show_default=shown,
                        help="Seed of every shuffle, cut and bot: the same seed, the same "
                             "matches.")


def bots_option(default: str | None = None,
                shown: str | bool = "greedy, or random without greedy") -> Callable[[F], F]:
    """``--bots LIST``: ``default`` None leaves the choice to the command."""
    return click.option("--bots", "-b", default=default, metavar="LIST", callback=_bots_callback,
                        show_default=shown,
                        help="Comma-separated bots, repeated over the seats as needed: random, "
                             "greedy, ismcts, ismcts:N.")


def _bot_time_callback(ctx: click.Context, param: click.Parameter, value: Any) -> float | None:
    from spelbok.play.bots.budget import MAX_BOT_TIME

    if value is None or value == 0:
        return None
    if not 0 < value <= MAX_BOT_TIME:  # NaN too
        raise click.BadParameter(f"give seconds from 0 (no limit) to {MAX_BOT_TIME:g}",
                                 param_hint="'--bot-time'")
    return float(value)


def bot_time_option(f: F) -> F:
    """``--bot-time SECONDS``: a bot's budget per decision (the command gets None for 0)."""
    from spelbok.play.bots.budget import DEFAULT_BOT_TIME

    return click.option("--bot-time", "bot_time", type=float, default=DEFAULT_BOT_TIME,
                        show_default=True, metavar="SECONDS", callback=_bot_time_callback,
                        help="Most seconds a bot may think about one decision (0: no limit); "
                             "a search cut short is reported, its results depend on the "
                             "machine's speed.")(f)


def option_option(f: F) -> F:
    """``--option NAME=VALUE`` (repeatable): the command gets a dict."""
    return click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                        callback=_options_callback,
                        help="Choose a reading: set a spec option (repeatable).")(f)


def max_hands_option(f: F) -> F:
    """``--max-hands N``: the engine's hand limit for each match."""
    return click.option("--max-hands", type=click.IntRange(min=1), default=None, metavar="N",
                        help="Stop each match after N hands at most (redeals count); the "
                             "spec's rule then names the winners.")(f)


def json_option(f: F) -> F:
    """``--json``: the command gets ``as_json``."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print the results as JSON (the forms are documented in "
                             "docs/bots.md and docs/readings.md).")(f)


def allow_path_option(f: F) -> F:
    """``--allow-path DIR``: a folder that specs and reading files may name files in.

    Without it, ``extends:``, a reading file's ``spec:`` and a log's spec may
    name only a shipped spec or a file in the naming file's own folder (or below).
    """
    return click.option("--allow-path", "allow_paths", multiple=True, metavar="DIR",
                        type=click.Path(file_okay=False), callback=_allow_callback,
                        help="Let specs, reading files and logs name files in DIR too "
                             "(repeatable; by default only their own folder and shipped specs).")(f)


def force_option(f: F) -> F:
    """``--force``: the commands that write files never overwrite one without it."""
    return click.option("--force", "-f", is_flag=True, default=False,
                        help="Overwrite the output file (-o, --log, --plot) if it exists.")(f)


def no_color_option(f: F) -> F:
    """``--no-color``."""
    return click.option("--no-color", is_flag=True, default=False,
                        help="Never colour the output (also: the NO_COLOR variable).")(f)


#: Options whose name means something else in each command that has it, so they
#: are declared by each command (the test of shared options leaves them out).
PER_COMMAND = frozenset({"--verbose", "--spec"})


def parse_counts(text: str) -> list[int]:
    """Player counts as ``2,3,4`` or ``2-4`` (or both: ``2,4-6``).

    >>> parse_counts("2-4"), parse_counts("2, 5")
    ([2, 3, 4], [2, 5])
    """
    out: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        lo, dash, hi = part.partition("-")
        try:
            a, b = (int(lo), int(hi)) if dash else (int(part), int(part))
        except ValueError:
            raise click.BadParameter(f"'{part}': write counts as 2,3,4 or 2-4",
                                     param_hint="'--players'") from None
        if not 1 <= a <= b or b - a > 100:
            raise click.BadParameter(f"'{part}': not a range of player counts",
                                     param_hint="'--players'")
        out.extend(range(a, b + 1))
    return list(dict.fromkeys(out))


def _counts_callback(ctx: click.Context, param: click.Parameter, value: Any) -> list[int] | None:
    return None if value is None else parse_counts(value)


def _lineups_callback(ctx: click.Context, param: click.Parameter,
                      value: Any) -> list[list[str]] | None:
    return [_bots_callback(ctx, param, v) or [] for v in value] if value else None


def players_list_option(f: F) -> F:
    """``--players LIST`` of a sweep: counts as ``2,3,4`` or ``2-4``."""
    return click.option("--players", "-n", default=None, metavar="LIST",
                        callback=_counts_callback, show_default="the spec's minimum",
                        help="Player counts to sweep: 2,3,4 or 2-4.")(f)


def bots_list_option(default: str = "random") -> Callable[[F], F]:
    """``--bots LIST`` of a sweep (repeatable: one line-up each)."""
    return click.option("--bots", "-b", multiple=True, metavar="LIST",
                        callback=_lineups_callback, show_default=default,
                        help="A bot line-up, comma-separated and repeated over the seats; "
                             "repeat the option to sweep several line-ups.")


def jobs_option(default: int = 1) -> Callable[[F], F]:
    """``--jobs J``: processes to use; the results are the same with any number."""
    return click.option("--jobs", "-j", type=click.IntRange(min=0), default=default,
                        show_default=True, metavar="J",
                        help="Processes to use (0, or more than the CPUs: one per "
                             "CPU); same results as 1.")


def progress_option(f: F) -> F:
    """``--progress/--no-progress``: None leaves it to whether stderr is a terminal."""
    return click.option("--progress/--no-progress", default=None,
                        help="Progress bar on stderr (default: when stderr is a terminal).")(f)


#: A sweep (``spelbok audit``) takes lists where the other commands take one value
#: (``--players 2-4``, ``--bots`` repeated) and counts ``--games`` per cell:
#: (command, option) pairs whose form is declared for the sweep.
SWEEP_FORMS = frozenset({("audit", "--players"), ("audit", "--bots"), ("audit", "--games")})
