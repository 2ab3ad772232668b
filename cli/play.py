"""``spelbok play`` (a human against bots, or bots alone) and ``spelbok replay``."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click
from spelbok.errors import ActionError, InvalidActionError, SpelbokError
from spelbok.limits import MAX_FILE_BYTES, load_json

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

if TYPE_CHECKING:
    from spelbok.cli.render import Style
    from spelbok.engine.actions import Action
    from spelbok.engine.game import Game
    from spelbok.engine.state import State

LOG_FORMAT = 1
_CARD, _WORD, _SUIT, _CARDS = 0, 1, 2, 3  # Action kinds (see spelbok.engine.actions)
_MENU_LIMIT = 10  # exchanges with more choices than this are typed, not picked from a menu
_HINT_PLAYOUTS = 300  # the ISMCTS hint's budget: a second or so
#: ``spelbok play`` with no SPEC: a shipped game and player count whose seeded matches
#: show play in most hands (at two players Knektpass often ends at the announcement).
FIRST_GAME, FIRST_PLAYERS = "knektpass", 3

HELP = """\
How to answer:
  a menu number        picks that choice (1, 2, ...)
  a card               10h, JC, j♣, 7S (rank then suit; case does not matter)
  a word               play, pass, knock, ... as listed
  the menu's words     give 9s, GIVE 9♠: as the menu shows them, in any case, with a
                       suit's letter or its symbol
  an exchange          exchange 7h 9s (or give 7h 9s) gives away those cards; the cards
                       alone (7h 9s) work too; 'keep' (or the word alone) keeps every card
  show                 shows the table again
  undo                 takes back your last decision (and the bots' moves since)
  hint                 what the greedy and ISMCTS bots would do here, and their estimate
  rules                the rules of the step being played (as 'spelbok describe' says them)
  score                the scores and the tricks so far
  log                  what happened so far in this hand
  help                 shows this text
  quit                 abandons the match (Ctrl-C too: the match is saved to its log)"""
#: An all-bot transcript says at its top that nothing is hidden in it.
AUTO_NOTE = "(bots at every seat: this transcript shows every card, hidden ones too)"
COMMANDS = ("show", "undo", "hint", "rules", "score", "log", "help", "quit")


def default_bots() -> list[str]:
    """``greedy`` when the installed bots have it, else ``random``."""
    try:
        from spelbok.play.bots import BOT_NAMES
    except ImportError:
        return ["random"]
    return ["greedy"] if "greedy" in BOT_NAMES else ["random"]


def bot_seed(seed: int, seat: int) -> int:
    """Each bot's own seed, derived from the match seed and its seat."""
    return seed * 1000 + seat


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


# ----------------------------------------------------------------------------- play


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
    import spelbok
    from spelbok.cli.render import Style
    from spelbok.play.bots import make_bot

    if log_file:
        check_output_file(log_file, "'--log'")
        if os.path.exists(log_file) and not force and log_file != resume:
            raise click.BadParameter(f"'{log_file}' already exists; add --force to overwrite it",
                                     param_hint="'--log'")
    if resume is not None:
        if auto:
            raise click.UsageError("--resume continues a match with a person at it; "
                                   "leave out --auto")
        data = read_log(resume)
        game, state = replay_log(data, resume, spec, allow_paths)
        spec, seed, n = str(data["spec"]), int(data["seed"]), game.players
        options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
        max_hands = data["max_hands"] if isinstance(data.get("max_hands"), int) else None
        human = data.get("human")
        if not isinstance(human, int) or not 0 <= human < n:
            raise SpelbokError(f"{resume}: bots played every seat of this match; there is "
                               "nothing to resume")
        logged: dict[str, Any] = data["bots"] if isinstance(data.get("bots"), dict) else {}
        seat_bots = {p: make_bot(str(logged.get(str(p), default_bots()[0])),
                                 seed=bot_seed(seed, p), bot_time=bot_time)
                     for p in range(n) if p != human}
        log_file = log_file or resume
        if state.is_terminal:
            click.echo(f"{resume}: this match is over already")
            return
    else:
        if spec is None:
            spec, players = FIRST_GAME, players or FIRST_PLAYERS
            click.echo(first_game_note(spec, players))
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        game = spelbok.load(spec, players=players, options=options or None,
                            max_hands=max_hands, allow_paths=allow_paths)
        n = game.players
        if not auto and not 0 <= seat < n:
            raise click.BadParameter(f"there are {n} seats: choose 0 to {n - 1}",
                                     param_hint="'--seat'")
        names = bots or default_bots()
        human = None if auto else seat
        seat_bots = {}
        for i, p in enumerate(p for p in range(n) if p != human):
            seat_bots[p] = make_bot(names[i % len(names)], seed=bot_seed(seed, p), bot_time=bot_time)
        state = game.new_state(seed=seed)
    style = Style.for_stream(None, no_color=no_color, plain=plain, width=width).for_game(game)
    start_scores = _start_scores(game, seed)
    from spelbok.engine.rng import SHUFFLE

    record = {"spec": spec, "players": n, "options": dict(options), "seed": seed,
              "shuffle": SHUFFLE, "max_hands": max_hands,
              "bots": {str(p): b.name for p, b in seat_bots.items()},
              "human": human}
    if auto:
        _run_bots(state, seat_bots)
        from spelbok.cli.render import transcript

        click.echo(_header(game, seed, options))
        click.echo(" · ".join(f"P{p} {seat_bots[p].name}" for p in range(n)) + " " + AUTO_NOTE)
        click.echo("")
        for line in transcript(state.log, n, style=style, verbose=verbose,
                               start_scores=start_scores):
            click.echo(line, color=style.color)
        if log_file:
            write_log(log_file, record, state)
        return
    try:
        finished = _interactive(game, state, human, seat_bots, style, seed, options,
                                start_scores, resumed=resume is not None)
    except KeyboardInterrupt:
        # never lose a match: save it, and say how to go on
        path = log_file or _free_log_name(spec, seed)
        click.echo("")
        write_log(path, record, state)
        _echo(f"Interrupted in hand {state.hand_number}: the match is saved; "
              f"continue it with 'spelbok play --resume {path}'.", style)
        raise click.exceptions.Exit(130) from None  # an interrupt's exit status
    if log_file:
        write_log(log_file, record, state)
    if not finished:
        click.echo(f"Match abandoned in hand {state.hand_number} (seed {seed}).")


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


# ----------------------------------------------------------------------------- the human


def _round(state: State) -> str:
    """' (round 2 of 3)' when the decision is in a repeated step, else ''."""
    from spelbok.engine.flow import RepeatTest

    prog = state.game.program
    here = prog.origin(state.pc)
    if here is None:
        return ""
    for pc, instr in enumerate(prog.code):
        o = prog.origin(pc)
        if isinstance(instr, RepeatTest) and o is not None and \
                here.path[:len(o.path)] == o.path and here.path != o.path:
            done = state.counters[instr.slot]
            times = instr.fixed_times
            return f" (round {done} of {times})" if times else f" (round {done})"
    return ""


def _decision_name(state: State, legal: Sequence[Action]) -> str:
    return _plain_decision_name(state, legal) + _round(state)


def _plain_decision_name(state: State, legal: Sequence[Action]) -> str:
    kinds = {a.kind for a in legal}
    if kinds <= {_CARD, _WORD} and _CARD in kinds:
        return "your card"
    verbs = {a.verb for a in legal if a.kind in (_SUIT, _CARDS)}
    if len(verbs) == 1:
        return verbs.pop()
    try:  # the decision's name from the running step, when the engine tells it
        name = state.game.program.code[state.pc].name
        if isinstance(name, str) and name:
            return name
    except Exception:
        pass
    return "your choice"


def _menu(legal: Sequence[Action], game: Game, trump: str | None) -> list[Action]:
    """The actions offered by number: cards in the order the hand is shown."""
    from spelbok.cli.render import sort_hand

    card_actions = [a for a in legal if a.kind == _CARD]
    if card_actions:
        order = [c for group in sort_hand([str(a) for a in card_actions], game, trump)
                 for c in group]
        by_name = {str(a): a for a in card_actions}
        rest = [a for a in legal if a.kind != _CARD]
        return [by_name[c] for c in order if c in by_name] + rest
    exchanges = [a for a in legal if a.kind == _CARDS]
    if len(exchanges) > _MENU_LIMIT:
        return [a for a in legal if a.kind != _CARDS or not a.cards]
    return list(legal)


def _exchange_verb(legal: Sequence[Action]) -> str | None:
    return next((a.verb for a in legal if a.kind == _CARDS), None)


def _action_text(a: Action, style: Style, exchange_verb: str | None = None) -> str:
    from spelbok.cli.render import card, cards, suit

    if a.kind == _CARD:
        return card(str(a), style)
    if a.kind == _SUIT:
        return f"{a.verb} {suit(str(a).split()[-1], style)}"
    if a.kind == _CARDS:
        return f"give {cards(str(a).split()[1:], style)}"
    if a.kind == _WORD and a.verb == exchange_verb:
        return "keep all"
    return _spoken(str(a))


def _panel(state: State, human: int, names: Sequence[str], style: Style) -> list[str]:
    from spelbok.cli.render import card, hand_line, scores_line, suit, trick_line

    v = state.view(human)
    trump = v.get("trump")
    head = [f"hand {v['hand_number']}", f"dealer {names[v['dealer']]}"]
    if trump:
        t = f"trump {suit(trump, style)}"
        if v.get("turn_up"):
            t += f" (turn-up {' '.join(card(c, style) for c in v['turn_up'])})"
        head.append(t)
    elif v.get("turn_up"):
        head.append(f"turn-up {' '.join(card(c, style) for c in v['turn_up'])}")
    if v.get("talon"):
        head.append(f"talon {v['talon']}")
    from spelbok.cli.render import wrap_items

    rule = "─" if style.symbols else "-"
    heads = wrap_items(rule * 2 + " ", head, width=style.width - 4, indent=3)
    last = heads[-1] + " "
    heads[-1] = last + rule * max(3, min(70, style.width - 2) - len(last))
    lines = [""] + [style.paint(h, bold=True) for h in heads]
    hand = hand_line(v["hand"], state.game, trump, style)
    lines += wrap_items("  your hand  ", hand.split(" "), sep=" ", width=style.width,
                        indent=13)
    for p, known in enumerate(v.get("known_cards") or []):
        if known and p != human:  # cards another seat has shown to all (a dummy, melds)
            shown = hand_line(known, state.game, trump, style)
            lines += wrap_items(f"  {names[p]} shows ".ljust(13), shown.split(" "), sep=" ",
                                width=style.width, indent=13)
    legal = state.legal_actions()
    card_turn = any(a.kind == _CARD for a in legal)
    if v.get("trick") or card_turn:
        shown = trick_line(v["trick"], names, style) if v.get("trick") else "(you lead)"
        lines += wrap_items("  trick      ", shown.split(" · "), width=style.width, indent=13)
    if card_turn or any(v.get("tricks") or []):
        won = " · ".join(f"{names[p]} {t}" for p, t in enumerate(v.get("tricks") or [])
                         if not v["out"][p])
        lines += wrap_items("  tricks     ", won.split(" · "), width=style.width, indent=13)
    scores = scores_line(v["scores"], names, v["out"], style=style)
    lines += wrap_items("  scores     ", scores.split(" · "), width=style.width, indent=13)
    return lines


def _prompt_lines(state: State, menu: Sequence[Action], legal: Sequence[Action],
                  style: Style, names: Sequence[str] | None = None) -> list[str]:
    name = _decision_name(state, legal)
    xverb = _exchange_verb(legal)
    items = [f"{i} {_action_text(a, style, xverb)}" for i, a in enumerate(menu, 1)]
    from spelbok.cli.render import wrap_items

    lines = wrap_items(f"{style.paint(name, bold=True)}: ", items, sep="  ", indent=4,
                       width=style.width)
    exchanges = [a for a in legal if a.kind == _CARDS]
    if exchanges and len(menu) < len(legal):
        most = max(len(a.cards) for a in exchanges)
        least = min(len(a.cards) for a in exchanges)
        if any(a.kind == _WORD and a.verb == exchanges[0].verb for a in legal):
            least = 0  # the verb alone keeps every card
        verb = exchanges[0].verb
        from spelbok.cli.render import sort_hand

        v = state.view(state.current_player or 0)
        flat = [c for g in sort_hand(v["hand"], state.game, v.get("trump")) for c in g]
        k = least if least == most else min(2, most)
        cards_text = " ".join(flat[-k:]).lower()  # the lowest cards, as an example
        from spelbok.cli.render import wrap_words

        how_many = (f"the {_plural(most, 'card')}" if least == most
                    else f"the cards (up to {most})" if not least
                    else f"the cards ({least} to {most})")
        to = _receiver(state, names)
        say = f"{how_many} to give away{to}, e.g. {verb} {cards_text} or just {cards_text}"
        if menu:
            lines += wrap_words(f"    or write {say}", style.width, 6)
        else:  # nothing to pick: the question is the whole prompt
            lines = wrap_words(f"{style.paint(name, bold=True)}: write {say}", style.width, 4)
    return lines


def _receiver(state: State, names: Sequence[str] | None) -> str:
    """' to P1' when the decision gives cards to a seat the step names (a pass), else ''."""
    to = getattr(state.game.program.code[state.pc], "_to", None)
    seat = state.current_player
    if to is None or seat is None or not names:
        return ""
    try:
        return f" to {names[to(state, seat)]}"
    except Exception:  # an odd step: say nothing rather than a wrong seat
        return ""


def _read(prompt: str) -> str | None:
    click.echo(prompt, nl=False)
    try:
        return input()
    except EOFError:
        click.echo("")
        return None


#: the suit symbols a person may type for the French suits' letters
_SYMBOL_LETTERS = str.maketrans({"♣": "c", "♠": "s", "♥": "h", "♦": "d",
                                 "♧": "c", "♤": "s", "♡": "h", "♢": "d"})


def _said(text: str) -> str:
    """``text`` as a person's answer is compared with the menu: without colour, in lower
    case, with French suit symbols as letters and single spaces (``GIVE 9♠`` -> ``give 9s``)."""
    import re

    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    return " ".join(text.lower().translate(_SYMBOL_LETTERS).replace("_", " ").split())


def _menu_words(menu: Sequence[Action], legal: Sequence[Action],
                style: Style | None) -> dict[str, Action]:
    """Each menu entry by the words the menu shows it with (with the table's symbols,
    and with letters), as :func:`_said` writes them."""
    from dataclasses import replace

    from spelbok.cli.render import PLAIN

    xverb = _exchange_verb(legal)
    words: dict[str, Action] = {}
    for a in menu:
        for st in (style or PLAIN, PLAIN):
            for shown in (_action_text(a, st, xverb),
                          _action_text(a, replace(st, symbols=False, color=False), xverb)):
                words.setdefault(_said(shown), a)
    return words


def _interpret(text: str, state: State, menu: Sequence[Action],
               legal: Sequence[Action], style: Style | None = None) -> Action:
    """The action the player means by ``text``; ActionError with the reason if none.
    The menu's own wording is understood in any case, with or without suit symbols
    (``give 9s`` where the menu shows ``give 9♠``)."""
    word = text.strip()
    low = word.lower()
    shown = _menu_words(menu, legal, style).get(_said(word))
    if shown is not None:
        return shown
    if low.isascii() and low.isdigit():  # ASCII only: '²' is a digit to isdigit, not to int
        k = int(low)
        if 1 <= k <= len(menu):
            return menu[k - 1]
        if not menu:
            raise InvalidActionError(f"there is no choice {k}: write the cards or words")
        raise InvalidActionError(f"there is no choice {k}: pick 1 to {len(menu)}"
                                 if len(menu) > 1 else f"there is no choice {k}: only 1")
    if any(ch.isnumeric() and not ch.isascii() for ch in word):  # '²', '٣', '½': no number
        raise InvalidActionError(f"{word!r} is not a legal move here: write numbers in the "
                                 "digits 0-9 (see 'help')")
    xverb = _exchange_verb(legal)
    if xverb and low in ("keep", "keep all", "none", "0"):
        return state.parse_action(xverb)
    if xverb and low.split()[:1] == ["give"] and xverb != "give":  # the menu's word for it
        word = xverb + word[len("give"):]
        low = word.lower()
    try:
        return state.parse_action(word)
    except ActionError:
        if not xverb or low.split()[0] == xverb:
            raise
        # the cards alone, at an exchange: "7h 9s" means "exchange 7H 9S"
        return state.parse_action(f"{xverb} {word}")


def _completer(words: Sequence[str]) -> Any:
    def complete(text: str, k: int) -> str | None:
        hits = [w for w in words if w.lower().startswith(text.lower())]
        return hits[k] if k < len(hits) else None

    return complete


def _line_editing(words: Sequence[str]) -> None:
    """Tab completion of ``words`` and line editing (arrow keys, history), when the
    terminal has readline."""
    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input
        return
    readline.set_completer(_completer(words))
    readline.parse_and_bind("tab: complete")


def _hint(state: State, human: int, style: Style) -> list[str]:
    """What the greedy and the ISMCTS bots would do, and ISMCTS's estimate."""
    from spelbok.engine.observe import observe
    from spelbok.play.bots import make_bot

    legal = state.legal_actions()
    xverb = _exchange_verb(legal)
    lines = []
    greedy = make_bot("greedy", seed=state.hand_number).choose(observe(state, human))
    lines.append(f"  The greedy bot would {_deed(greedy, style, xverb)}.")
    search = make_bot(f"ismcts:{_HINT_PLAYOUTS}", seed=state.hand_number)
    pick = search.choose(observe(state, human))
    estimate = getattr(search, "last_estimate", None)
    text = f"  The ISMCTS bot would {_deed(pick, style, xverb)}"
    if estimate is not None:
        mean, visits = estimate
        text += (f", expecting {mean:.0%} of the hand's best outcome "
                 f"({visits} of {_HINT_PLAYOUTS} playouts)")
    lines.append(text + ".")
    return lines


def _deed(a: Action, style: Style, exchange_verb: str | None) -> str:
    """What choosing ``a`` does, as the end of a sentence: 'play 9♣', 'give 6♥ 7♥',
    'keep all', 'say pass'."""
    text = _action_text(a, style, exchange_verb)
    if a.kind == _CARD:
        return f"play {text}"
    if a.kind == _CARDS or text == "keep all":
        return text
    return f"say {text}"  # a word or a suit, as the menu shows it


def _rules(state: State) -> list[str]:
    from spelbok.lang.describe import describe_step

    origin = state.game.program.origin(state.pc)
    text = describe_step(state.game.doc, origin.path, state.game.players) if origin else ""
    return ["  " + line for line in text.splitlines()] or ["  (no rules text for this step)"]


def _ask(state: State, human: int, names: Sequence[str], style: Style,
         history: Sequence[str] = ()) -> Action | str | None:
    """Show the table, ask until the answer is a legal action, ``"undo"``, or None to
    abandon."""
    from spelbok.cli.render import scores_line

    legal = state.legal_actions()
    v = state.view(human)
    menu = _menu(legal, state.game, v.get("trump"))
    _line_editing([str(a) for a in legal] + list(COMMANDS))

    def show() -> None:
        for line in _panel(state, human, names, style) + \
                _prompt_lines(state, menu, legal, style, names):
            _echo(line, style)

    def say(lines: Sequence[str]) -> None:
        for line in lines:
            _echo(line, style)

    show()
    while True:
        text = _read("> ")
        if text is None:
            return None
        low = text.strip().lower()
        if not low:
            continue
        named = {str(a).lower() for a in legal}
        if low not in named:
            if low in ("quit", "exit", "q"):
                return None
            if low in ("help", "?", "h"):
                _echo(HELP, style)
                continue
            if low in ("show", "table"):
                show()
                continue
            if low in ("undo", "u", "back"):
                return "undo"
            if low == "hint":
                say(_hint(state, human, style))
                continue
            if low in ("rules", "rule"):
                say(_rules(state))
                continue
            if low in ("score", "scores"):
                say(["  scores  " + scores_line(v["scores"], names, v["out"], style=style),
                     "  tricks  " + " · ".join(f"{names[p]} {t}" for p, t in
                                               enumerate(v.get("tricks") or []))])
                continue
            if low == "log":
                events = state.log
                begin = max((i for i, e in enumerate(events) if e.get("event") == "hand"),
                            default=0)
                told = _seat_narrator(names, style, human)
                say([line for e in events[begin:] for line in told.feed(e)] + told.flush()
                    or ["  (nothing yet)"])
                continue
        try:
            return _interpret(text, state, menu, legal, style)
        except ActionError as exc:
            mark = "✗" if style.symbols else "x"
            _echo(f"  {style.paint(mark, fg='red')} {_symbols(str(exc), style)}", style)


def _spoken(name: str) -> str:
    """A spec's name as words (``three_spades`` -> ``three spades``)."""
    return name.replace("_", " ")


def score_name(game: Game) -> str | None:
    """The variable the match reports as each player's score (``end: score``), when it is
    one variable; None when the score is a formula."""
    end = game.tree.get("end") or {}
    name = end.get("score", "score")
    return name if isinstance(name, str) and name.isidentifier() else None


class PlayerWords:
    """A :class:`~spelbok.play.explain.SeatExplainer`'s words as a person at the table
    reads them: the spec's labels and citations, never its variable names.  A change of
    the score the match reports is said with its step's label and source (what
    ``describe`` cites); the spec's other counts (``need``, ``change``, ...) are its own
    working names, and their effect is in the score, so they are not told (``play --auto
    --verbose`` shows them)."""

    def __init__(self, why: Any, score: str | None) -> None:
        self.why = why
        self.score = score

    def explain(self, index: int, event: Any, who: str = "") -> str | None:
        if event.get("event") in ("end_hand_early", "redeal", "eliminated", "melds"):
            return self._rule(index)
        if event.get("event") != "set":
            return self.why.explain(index, event, who)
        from spelbok.play.explain import explain_set

        ex = self.why.explainer
        note = ex.note(index)
        if event.get("var") != self.score or note is None or note.pc < 0 or \
                note.before == event.get("value"):
            return None
        step = ex.step(note.pc)
        # said as the scores line says it: 'score', whatever the spec calls it
        return explain_set({**event, "var": "score"}, note.before,
                           label=_spoken(str(step.get("label") or "")),
                           source=str(step.get("source") or ""), who=who)


    def _rule(self, index: int) -> str | None:
        """The step that made event ``index``, by its label, the label of the ``if`` step
        holding it (not its condition, which is a formula) and the source."""
        ex = self.why.explainer
        note = ex.note(index)
        if note is None or note.pc < 0:
            return None
        step = ex.step(note.pc)
        origin = ex.game.program.origin(note.pc)
        node: Any = ex.game.tree
        under: dict[str, Any] = {}
        for key in origin.path[:-1] if origin is not None else ():
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                break
            if isinstance(node, dict) and "if" in node:
                under = node
        parts = [f"[{_spoken(str(step['label']))}]"] if step.get("label") else []
        if under.get("label"):
            parts.append(f"under '{_spoken(str(under['label']))}'")
        source = step.get("source") or under.get("source")
        if source:
            parts.append(f"({source})")
        return " ".join(parts) or None


def _seat_narrator(names: Sequence[str], style: Style, human: int,
                   start_scores: Sequence[Any] | None = None, explainer: Any = None) -> Any:
    """A :class:`~spelbok.cli.render.Narrator` for a person at seat ``human``: contracts and
    bids as words, and no line for a spec's working variables (see :class:`PlayerWords`)."""
    from spelbok.cli.render import Narrator

    class PlayerNarrator(Narrator):
        def _ev_set(self, e: Any) -> list[str]:
            return []  # the score's change is on the scores line (and explained)

        def _ev_decision(self, e: Any) -> list[str]:
            return super()._ev_decision({**e, "action": _spoken(str(e.get("action", "")))})

        def _ev_contract(self, e: Any) -> list[str]:
            return super()._ev_contract({**e, "contract": _spoken(str(e.get("contract")))})

    return PlayerNarrator(names, style=style, viewer=human, start_scores=start_scores,
                          explainer=explainer)


class SeatLog:
    """What a person at seat ``human`` is told of a match's events as they come: the
    narrator with that seat's eyes (:class:`~spelbok.cli.render.Narrator`, ``viewer``)
    and the explanations that seat may read (:class:`~spelbok.play.explain.SeatExplainer`),
    in the spec's words (:class:`PlayerWords`).
    ``shown``: the events told already (a resumed match, or after an undo)."""

    def __init__(self, game: Game, names: Sequence[str], human: int, style: Style,
                 start_scores: Sequence[Any] | None = None, shown: int = 0) -> None:
        from spelbok.cli.render import card, suit
        from spelbok.play.explain import Explainer, SeatExplainer

        self.explainer = Explainer(game, card=lambda c: card(c, style),
                                   suit=lambda t: suit(t, style))
        self.why = SeatExplainer(self.explainer, human, [])
        self.narrator = _seat_narrator(names, style, human, start_scores,
                                       PlayerWords(self.why, score_name(game)))
        self.narrator._index = shown
        self.shown = shown

    def sync(self, state: State) -> list[dict[str, Any]]:
        """The match's events, with the explainer caught up on them."""
        events = state.log
        self.explainer.sync(state, events)
        self.why.log = events
        return events

    def lines(self, state: State) -> list[str]:
        """The lines for the events since the last call (every line complete)."""
        events = self.sync(state)
        out: list[str] = []
        for event in events[self.shown:]:
            out += self.narrator.feed(event)
        self.shown = len(events)
        return out + self.narrator.flush()


def _interactive(
    game: Game, state: State, human: int | None, seat_bots: dict[int, Any], style: Style,
    seed: int, options: dict[str, str], start_scores: list[Any], resumed: bool = False,
) -> bool:
    """Play with a human at ``human``; True when the match ended, False if abandoned."""
    from spelbok.cli.render import card, player_names

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
        asked = [i for i, h in enumerate(state.history) if h.seat == human]
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
        if len(legal) == 1 and legal[0].kind == _CARD:  # a forced card plays itself
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
            mine = str(back[0])
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
    from spelbok.cli.render import wrap_words
    from spelbok.lang.describe import _cite

    winners = list(state.winners)
    scores = list(state.scores)
    rule = "─" if style.symbols else "-"
    lines = ["", style.paint(f"{rule * 2} final table " + rule * 30, bold=True)]
    order = winners + [p for p in range(len(scores)) if p not in winners]
    width = max((len(names[p]) for p in order), default=2)
    digits = max((len(str(scores[p])) for p in order), default=1)
    for p in order:
        mark = ("★ winner" if style.symbols else "* winner") if p in winners else ""
        row = f"  {names[p]:<{width}}  {str(scores[p]):>{digits}}  {mark}".rstrip()
        lines.append(style.paint(row, bold=True) if p in winners else row)
    end = state.game.tree.get("end") or {}
    why = [line.strip() for line in _cite(end, 0)]
    if why:
        lines += wrap_words("  why: " + " ".join(why), style.width, 7)
    if human is not None:
        if human in winners:
            verdict = "You win!" if len(winners) == 1 else "You share the win!"
            lines.append(style.paint(verdict, bold=True, fg="green"))
        else:
            who = " and ".join(names[p] for p in winners) or "nobody"
            lines.append(f"You lose: {who} {'wins' if len(winners) == 1 else 'win'}.")
    return lines


def _symbols(text: str, style: Style) -> str:
    """``text`` with its cards (``10S``) and suits (``suit H``) shown as everywhere else
    in the terminal (``10♠``, ``suit ♥``)."""
    import re

    from spelbok.cli.render import card, suit

    text = re.sub(r"\b(?:10|[2-9JQKA])[CSHD]\b", lambda m: card(m.group(0), style), text)
    return re.sub(r"\b(suit|trump|trumps) (\(?)([CSHD])\b",  # 'follow suit (S)' too
                  lambda m: f"{m.group(1)} {m.group(2)}{suit(m.group(3), style)}", text)


def _echo(text: str, style: Style) -> None:
    """Print ``text``, each line wrapped to the style's width when longer."""
    from spelbok.cli.render import _visible_len, wrap_words

    for line in text.split("\n"):
        if _visible_len(line) <= style.width:
            click.echo(line, color=style.color)
            continue
        lead = len(line) - len(line.lstrip(" "))
        for part in wrap_words(line, style.width, lead + 4 if lead < 20 else 6):
            click.echo(part, color=style.color)


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


# ----------------------------------------------------------------------------- logs


def write_log(path: str, record: dict[str, Any], state: State) -> None:
    """Save a match as JSON: enough to replay it, plus its events and result."""
    data = {
        "spelbok_log": LOG_FORMAT,
        **record,
        "spec": _spec_for_log(str(record.get("spec", "")), path),
        "actions": [str(a) for a in state.actions],
        "events": state.log,
        "winners": state.winners,
        "scores": state.scores,
        "finished": state.is_terminal,
    }
    head = {k: v for k, v in data.items() if k != "events"}
    parts = ["{"]
    for k, v in head.items():
        parts.append(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    parts.append(' "events": [')
    events = data["events"]
    for i, e in enumerate(events):
        parts.append("  " + json.dumps(e, ensure_ascii=False) + ("," if i < len(events) - 1 else ""))
    parts.append(" ]")
    parts.append("}")
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(parts) + "\n")
    except OSError as exc:
        raise SpelbokError(f"cannot write the log {path}: {exc.strerror or exc}") from None
    click.echo(f"log written to {path}", err=True)


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], path: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise SpelbokError(f"{path}: not a valid spelbok log: '{key}' is missing or malformed")
    return value


def read_log(path: str) -> dict[str, Any]:
    """Read and check a log written by ``play --log`` (SpelbokError if it is not one)."""
    from spelbok.lang.loader import read_file_bytes

    # a regular file of bounded size only (never a FIFO or device)
    raw = read_file_bytes(path, path, what="log file", limit=MAX_FILE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpelbokError(f"{path}: not a spelbok log (not UTF-8 text at byte "
                           f"{exc.start})") from None
    return parse_log(text, path)


def parse_log(text: str, path: str) -> dict[str, Any]:
    """Check the text of a log written by ``play --log`` (SpelbokError if it is not one);
    ``path`` names it in the messages."""
    try:
        data = load_json(text, "log", path)  # nesting is bounded before the parser recurses
    except json.JSONDecodeError as exc:
        raise SpelbokError(f"{path}:{exc.lineno}:{exc.colno}: not a spelbok log "
                           f"(invalid JSON: {exc.msg})") from None
    if not isinstance(data, dict) or data.get("spelbok_log") != LOG_FORMAT:
        raise SpelbokError(f"{path}: not a spelbok log (no \"spelbok_log\": {LOG_FORMAT})")
    _need(data, "spec", str, path)
    _need(data, "players", int, path)
    _need(data, "seed", int, path)
    actions = _need(data, "actions", list, path)
    if not all(isinstance(a, str) for a in actions):
        raise SpelbokError(f"{path}: not a valid spelbok log: 'actions' must be notation texts")
    _need(data, "events", list, path)
    if data.get("options") is not None and not isinstance(data["options"], dict):
        raise SpelbokError(f"{path}: not a valid spelbok log: 'options' must be a map")
    return data


def _spec_for_log(spec: str, log_path: str) -> str:
    """The spec as the log names it: a file relative to the log's folder when it is in
    it (a log may name only such a file, or a shipped spec, see :func:`_log_spec`)."""
    if not os.path.isfile(spec):
        return spec
    full = os.path.abspath(spec)
    rel = os.path.relpath(full, os.path.dirname(os.path.abspath(log_path)))
    return full if rel.startswith("..") else rel


def _log_spec(data: dict[str, Any], path: str, override: str | None,
              allow_paths: Sequence[str] = ()) -> str:
    if override:
        return override  # the user's own choice, on the command line
    # the log is untrusted: its spec is a shipped spec or a file in the log's folder
    from spelbok.lang.loader import referenced_spec

    folder = os.path.dirname(os.path.abspath(path))
    return referenced_spec(str(data["spec"]), folder, allow_paths, (path, None, None))


def _first_difference(a: list[Any], b: list[Any]) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def replay_log(data: dict[str, Any], path: str, spec_override: str | None = None,
               allow_paths: Sequence[str] = ()) -> tuple[Game, State]:
    """Re-create a logged match and check that it gives the logged events.

    The log's spec must be a shipped spec or a file in the log's folder (or below,
    or in one of ``allow_paths``); ``spec_override`` replaces it.
    """
    import spelbok

    spec = _log_spec(data, path, spec_override, allow_paths)
    max_hands = data.get("max_hands")
    game = spelbok.load(spec, players=data["players"], options=data.get("options") or None,
                        max_hands=max_hands if isinstance(max_hands, int) else None,
                        allow_paths=allow_paths)
    from spelbok.engine.rng import SHUFFLE

    made_with = data.get("shuffle")
    if made_with != SHUFFLE:
        raise SpelbokError(
            f"{path}: the log was made by a spelbok that shuffles differently "
            f"({made_with or 'an older shuffle'}; this one: {SHUFFLE}), so its seed "
            "deals other cards here and the match cannot be replayed")
    state = game.new_state(seed=data["seed"])
    for i, text in enumerate(data["actions"], 1):
        try:
            state.apply(text)
        except ActionError as exc:
            raise SpelbokError(f"{path}: action {i} ({text!r}) cannot be replayed: {exc}") from None
    events = json.loads(json.dumps(state.log))
    recorded = data["events"]
    if events != recorded:
        i = _first_difference(events, recorded)
        want = json.dumps(recorded[i], ensure_ascii=False) if i < len(recorded) else "(no event)"
        got = json.dumps(events[i], ensure_ascii=False) if i < len(events) else "(no event)"
        raise SpelbokError(
            f"{path}: the replay differs from the log at event {i + 1}: the log has {want}, "
            f"the replay gives {got} (was the spec or spelbok changed?)")
    for key, value in (("winners", state.winners), ("scores", state.scores)):
        if key in data and data[key] != json.loads(json.dumps(value)):
            raise SpelbokError(f"{path}: the replay gives {key} {value}, the log has {data[key]}")
    return game, state


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
    from spelbok.cli.render import Style, player_names, transcript

    data = read_log(log_file)
    game, state = replay_log(data, log_file, spec_override, allow_paths)
    style = Style.for_stream(None, no_color=no_color).for_game(game)
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

