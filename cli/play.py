"""``spelbok play`` (a human against bots, or bots alone) and ``spelbok replay``.

The person's turn is :mod:`.prompt`, what that seat is told :mod:`spelbok.play.seatlog`; the match's
log is the library's (:mod:`spelbok.play.matchlog`), the text a seat sees too
(:mod:`spelbok.view`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click
from spelbok.engine.forced import plays_itself
from spelbok.engine.history import choices
from spelbok.errors import SpelbokError
from spelbok.play import matchlog
from spelbok.play.matchlog import LOG_FORMAT as LOG_FORMAT
from spelbok.play.matchlog import parse_log as parse_log
from spelbok.play.matchlog import read_log as read_log
from spelbok.play.matchlog import replay_log as replay_log
from spelbok.play.matchlog import seat_seed
from spelbok.play.seatlog import PlayerWords as PlayerWords
from spelbok.play.seatlog import SeatLog, final_standing
from spelbok.play.seatlog import score_name as score_name
from spelbok.view.narrator import transcript
from spelbok.view.panel import panel as _panel  # noqa: F401 - the old name (tests)
from spelbok.view.text import Style, card, player_names, wrap_words

from .main import check_output_file
from .options import (
    allow_path_option,
    bot_time_option,
    bots_option,
    force_option,
    max_hands_option,
    no_color_option,
    option_option,
    players_option,
    seed_option,
)

# the person's turn and what the seat is told: these names stay importable from here
from .prompt import _CARD, _ask, _echo, _plural
from .prompt import _deed as _deed
from .prompt import _interpret as _interpret
from .prompt import _menu as _menu
from .prompt import _prompt_lines as _prompt_lines
from .prompt import _symbols as _symbols

if TYPE_CHECKING:
    from spelbok.engine.game import Game
    from spelbok.engine.state import State

#: ``spelbok play`` with no SPEC: a shipped game and player count whose seeded matches
#: show play in most hands (at two players Knektpass often ends at the announcement).
FIRST_GAME, FIRST_PLAYERS = "knektpass", 3
#: An all-bot transcript says at its top that nothing is hidden in it.
AUTO_NOTE = "(bots at every seat: this transcript shows every card, hidden ones too)"


def default_bots() -> list[str]:
    """``greedy`` when the installed bots have it, else ``random``."""
    try:
        from spelbok.play.bots import BOT_NAMES
    except ImportError:
        return ["random"]
    return ["greedy"] if "greedy" in BOT_NAMES else ["random"]


def _start_scores(game: Game, seed: int) -> list[Any]:
    try:
        return list(game.new_state(seed=seed).scores)
    except Exception:
        return []


def _header(game: Game, seed: int, options: dict[str, str]) -> str:
    parts = [game.name, f"{game.players} players", f"seed {seed}"]
    if options:
        parts.append("options " + ", ".join(f"{k}={v}" for k, v in options.items()))
    return " · ".join(parts)


@click.command("play")
@click.argument("spec", required=False, metavar="[SPEC]")
@players_option()
@click.option("--seat", "-k", type=int, default=0, show_default=True, metavar="K",
              help="Your seat (0 is the first).")
@bots_option()
@bot_time_option
@seed_option()
@option_option
@click.option("--auto", is_flag=True,
              help="Bots take every seat; print a transcript of the whole match.")
@click.option("--log", "log_file", default=None, metavar="FILE",
              help="Save the match (spec, seed, actions, events) as JSON for 'spelbok replay'.")
@max_hands_option
@click.option("--verbose", "-v", is_flag=True,
              help="With --auto: also the dealt hands, exchanged cards and variable changes.")
@click.option("--resume", "resume", default=None, metavar="LOG",
              help="Continue the match saved in LOG (by --log or an interrupted play); SPEC "
                   "may be left out, and LOG is written again as the match goes on.")
@force_option
@click.option("--plain", is_flag=True,
              help="Plain text: no colour and no symbols (for screen readers and logs).")
@click.option("--width", type=click.IntRange(30, 400), default=None, metavar="COLUMNS",
              help="Wrap lines to COLUMNS.  [default: the terminal's width]")
@no_color_option
@allow_path_option
def play_cmd(
    spec: str | None, players: int | None, seat: int, bots: list[str] | None, seed: int | None,
    options: dict[str, str], auto: bool, log_file: str | None, max_hands: int | None,
    verbose: bool, resume: str | None, force: bool, plain: bool, width: int | None,
    no_color: bool, allow_paths: tuple[str, ...], bot_time: float | None,
) -> None:
    """Play SPEC in the terminal: you take seat K, bots the others.

    Without SPEC, a first game: Knektpass for three ('spelbok list' shows
    the others).

    Before each of your decisions you see the hand number, the dealer, the
    trump, your hand sorted by suit, the trick so far and the scores; answer
    with a menu number or in notation (JC, 10h, pass, exchange 7h 9s).  With
    --auto, bots play every seat and the whole match is printed as a
    transcript.  The same seed always gives the same match.
    """
    if log_file:
        check_output_file(log_file, "'--log'")
        if os.path.exists(log_file) and not force and log_file != resume:
            raise click.BadParameter(f"'{log_file}' already exists; add --force to overwrite it",
                                     param_hint="'--log'")
    if resume is not None:
        if auto:
            raise click.UsageError("--resume continues a match with a person at it; "
                                   "leave out --auto")
        m = _resumed(resume, spec, allow_paths, bot_time,
                     Style.for_stream(None, no_color=no_color, plain=plain))
        if m is None:
            return
        log_file = log_file or resume
    else:
        m = _new_match(spec, players, None if auto else seat, bots, seed, options, max_hands,
                       allow_paths, bot_time)
    game, state = m.game, m.state
    style = Style.for_stream(None, no_color=no_color, plain=plain, width=width).for_game(game)
    start_scores = _start_scores(game, m.seed)
    record = matchlog.match_record(m.spec, game.players, m.options, m.seed, m.max_hands,
                                   {p: b.name for p, b in m.bots.items()}, m.human)
    if auto:
        _auto(m, style, verbose, start_scores)
        if log_file:
            write_log(log_file, record, state)
        return
    try:
        finished = _interactive(game, state, m.human, m.bots, style, m.seed, m.options,
                                start_scores, resumed=resume is not None)
    except KeyboardInterrupt:
        # never lose a match: save it, and say how to go on
        path = log_file or _free_log_name(m.spec, m.seed)
        click.echo("")
        write_log(path, record, state)
        _echo(f"Interrupted in hand {state.hand_number}: the match is saved; "
              f"continue it with 'spelbok play --resume {path}'.", style)
        raise click.exceptions.Exit(130) from None  # an interrupt's exit status
    if log_file:
        write_log(log_file, record, state)
    if not finished:
        click.echo(f"Match abandoned in hand {state.hand_number} (seed {m.seed}).")


@dataclass
class _Table:
    """A match about to be played in the terminal: what its log records, and its state."""

    game: Game
    state: State
    spec: str
    seed: int
    options: dict[str, str]
    max_hands: int | None
    human: int | None  # the person's seat (None: bots at every seat)
    bots: dict[int, Any]  # the bot at each other seat


def _new_match(spec: str | None, players: int | None, human: int | None,
               bots: list[str] | None, seed: int | None, options: dict[str, str],
               max_hands: int | None, allow_paths: tuple[str, ...],
               bot_time: float | None) -> _Table:
    """A new match (no SPEC: the first game), the person at ``human``, the bots
    ``bots`` in turn at the other seats."""
    import spelbok
    from spelbok.play.bots import make_bot

    if spec is None:
        spec, players = FIRST_GAME, players or FIRST_PLAYERS
        click.echo(first_game_note(spec, players))
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    game = spelbok.load(spec, players=players, options=options or None,
                        max_hands=max_hands, allow_paths=allow_paths)
    n = game.players
    if human is not None and not 0 <= human < n:
        raise click.BadParameter(f"there are {n} seats: choose 0 to {n - 1}",
                                 param_hint="'--seat'")
    names = bots or default_bots()
    seat_bots = {}
    for i, p in enumerate(p for p in range(n) if p != human):
        seat_bots[p] = make_bot(names[i % len(names)], seed=seat_seed(seed, p), bot_time=bot_time)
    return _Table(game, game.new_state(seed=seed), spec, seed, options, max_hands, human,
                  seat_bots)


def _resumed(resume: str, spec: str | None, allow_paths: tuple[str, ...],
             bot_time: float | None, style: Style) -> _Table | None:
    """The match saved in the log ``resume``, replayed (None: it is over already)."""
    from spelbok.play.bots import make_bot

    data = read_log(resume)
    game, state = replay_log(data, resume, spec, allow_paths, style)
    seed, n = int(data["seed"]), game.players
    human = data.get("human")
    if not isinstance(human, int) or not 0 <= human < n:
        raise SpelbokError(f"{resume}: bots played every seat of this match; there is "
                           "nothing to resume")
    logged: dict[str, Any] = data["bots"] if isinstance(data.get("bots"), dict) else {}
    seat_bots = {p: make_bot(str(logged.get(str(p), default_bots()[0])),
                             seed=seat_seed(seed, p), bot_time=bot_time)
                 for p in range(n) if p != human}
    if state.is_terminal:
        click.echo(f"{resume}: this match is over already")
        return None
    options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
    max_hands = data["max_hands"] if isinstance(data.get("max_hands"), int) else None
    return _Table(game, state, str(data["spec"]), seed, options, max_hands, human, seat_bots)


def _auto(m: _Table, style: Style, verbose: bool, start_scores: list[Any]) -> None:
    """Bots play the whole match; its transcript."""
    _run_bots(m.state, m.bots)
    n = m.game.players
    click.echo(_header(m.game, m.seed, m.options))
    click.echo(" · ".join(f"P{p} {m.bots[p].name}" for p in range(n)) + " " + AUTO_NOTE)
    click.echo("")
    for line in transcript(m.state.log, n, style=style, verbose=verbose,
                           start_scores=start_scores):
        click.echo(line, color=style.color)


def first_game_note(spec: str, players: int) -> str:
    """The line ``spelbok play`` without SPEC prints: what it started, how to choose."""
    from spelbok.lang.loader import shipped_spec_names

    games = [n for n in shipped_spec_names() if "/" not in n]
    return (f"No game named, so a first game: {spec} for {players} players. "
            f"'spelbok list' shows all {len(games)} shipped games; "
            "'spelbok play GAME' starts another (e.g. 'spelbok play hearts').")


def _free_log_name(spec: str, seed: int) -> str:
    """A new file for an interrupted match's log, in spelbok's state folder
    (``$XDG_STATE_HOME/spelbok``, else ``~/.local/state/spelbok``): never in the
    current folder, and never a file that exists."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "state")
    folder = os.path.join(base, "spelbok")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        folder = "."
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-"
                   for ch in os.path.splitext(os.path.basename(spec))[0])[:40] or "match"
    name = os.path.join(folder, f"{stem}-{seed}.json")
    k = 2
    while os.path.lexists(name):
        name = os.path.join(folder, f"{stem}-{seed}-{k}.json")
        k += 1
    return name


def _run_bots(state: State, seat_bots: dict[int, Any], until: int | None = None) -> None:
    """Let bots play until the match ends or seat ``until`` must decide."""
    from spelbok.engine.observe import observe

    while not state.is_terminal:
        p = state.current_player
        if p is None or p == until:
            return
        state.apply(seat_bots[p].choose(observe(state, p)))


def _interactive(
    game: Game, state: State, human: int | None, seat_bots: dict[int, Any], style: Style,
    seed: int, options: dict[str, str], start_scores: list[Any], resumed: bool = False,
) -> bool:
    """Play with a human at ``human``; True when the match ended, False if abandoned."""
    assert human is not None
    names = player_names(game.players, human)
    _echo(_header(game, seed, options), style)
    others = ", ".join(f"{names[p]} {b.name}" for p, b in sorted(seat_bots.items()))
    _echo(f"You are seat {human}, against {others}. Answer with a menu number or in "
          "notation; 'help' explains, 'undo' takes back, 'quit' stops.", style)
    shown = 0
    # the action counts at which the human was asked (undo goes back to the last one)
    asked: list[int] = []
    if resumed:
        _echo(f"Resumed after {len(state.actions)} actions, in hand {state.hand_number}.",
              style)
        asked = choices(state, human)
        shown = len(state.log)
    tell = SeatLog(game, names, human, style, start_scores, shown)

    def catch_up() -> None:
        for line in tell.lines(state):
            _echo(line, style)

    while not state.is_terminal:
        _run_bots(state, seat_bots, until=human)
        catch_up()
        if state.is_terminal:
            break
        legal = state.legal_actions()
        if plays_itself(legal):  # a forced card; a lone pass (a card dealt not to show)
            if legal[0].kind == _CARD:
                _echo(f"  you play {card(str(legal[0]), style)}, your only legal card", style)
            state.apply(legal[0])
            continue
        action = _ask(state, human, names, style)
        if action is None:
            return False
        if action == "undo":
            if not asked:
                _echo("  nothing to undo: this is your first decision", style)
                continue
            back = state.undo(len(state.actions) - asked.pop())
            mine = _symbols(str(back[0]), style)  # as the table writes its cards
            _echo(f"  taken back: your {mine}"
                  + (f" and {_plural(len(back) - 1, 'move')} after it" if len(back) > 1
                     else ""), style)
            tell = SeatLog(game, names, human, style, start_scores, len(state.log))
            continue
        assert not isinstance(action, str)
        asked.append(len(state.actions))
        state.apply(action)
    catch_up()  # the last trick and the match's end, when the human's card ended it
    for line in final_table(state, names, style, human):
        _echo(line, style)
    return True


def final_table(state: State, names: Sequence[str], style: Style,
                human: int | None = None) -> list[str]:
    """The end of a match as a table: each seat's final score, the winners marked, the
    rule that made them winners (the spec's own citation, as ``describe`` gives it) and,
    for the person at ``human``, whether they won."""
    end = final_standing(state)
    winners, scores, order = end["winners"], end["scores"], end["order"]
    rule = "─" if style.symbols else "-"
    lines = ["", style.paint(f"{rule * 2} final table " + rule * 30, bold=True)]
    width = max((len(names[p]) for p in order), default=2)
    digits = max((len(str(scores[p])) for p in order), default=1)
    for p in order:
        mark = ("★ winner" if style.symbols else "* winner") if p in winners else ""
        row = f"  {names[p]:<{width}}  {str(scores[p]):>{digits}}  {mark}".rstrip()
        lines.append(style.paint(row, bold=True) if p in winners else row)
    if end["why"]:
        lines += wrap_words("  why: " + end["why"], style.width, 7)
    if human is not None:
        if human in winners:
            verdict = "You win!" if len(winners) == 1 else "You share the win!"
            lines.append(style.paint(verdict, bold=True, fg="green"))
        else:
            who = " and ".join(names[p] for p in winners) or "nobody"
            lines.append(f"You lose: {who} {'wins' if len(winners) == 1 else 'win'}.")
    return lines


def write_log(path: str, record: dict[str, Any], state: State) -> None:
    """Save a match as JSON (:func:`spelbok.play.matchlog.write_log`) and say where."""
    matchlog.write_log(path, record, state)
    click.echo(f"log written to {path}", err=True)


@click.command("replay")
@click.argument("log_file", metavar="FILE")
@click.option("--spec", "spec_override", default=None, metavar="SPEC",
              help="Use SPEC instead of the spec named in the log (e.g. after moving it).")
@click.option("--verbose", "-v", is_flag=True,
              help="Also the dealt hands, exchanged cards and variable changes.")
@no_color_option
@allow_path_option
def replay_cmd(log_file: str, spec_override: str | None, verbose: bool, no_color: bool,
               allow_paths: tuple[str, ...]) -> None:
    """Replay a match saved with 'spelbok play --log FILE'.

    The match is re-created from the spec, players, options, seed and actions
    in the log; spelbok checks that it gives exactly the logged events and
    prints the transcript.  Exits with 1 when the log cannot be read or the
    replay differs.
    """
    data = read_log(log_file)
    style = Style.for_stream(None, no_color=no_color)
    game, state = replay_log(data, log_file, spec_override, allow_paths, style)
    style = style.for_game(game)
    options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
    human = data.get("human")
    names = player_names(game.players)
    click.echo(_header(game, data["seed"], options))
    if isinstance(human, int) and 0 <= human < game.players:
        click.echo(f"P{human} was played by a person")
    click.echo("")
    for line in transcript(state.log, names, style=style, verbose=verbose,
                           start_scores=_start_scores(game, data["seed"])):
        click.echo(line, color=style.color)
    if not state.is_terminal:
        click.echo(f"\n(the match was abandoned in hand {state.hand_number})")
    click.echo(f"replay ok: {len(data['actions'])} actions, {len(data['events'])} events "
               "match the log", err=True)
