"""The person's turn in ``spelbok play``: the menu and the prompt, reading and
understanding an answer (a number, notation, the menu's own words), and the table's
commands (show, undo, hint, rules, score, log, help, quit)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click
from spelbok.engine.actions import CARD as _CARD
from spelbok.engine.actions import CARDS as _CARDS
from spelbok.engine.actions import SUIT as _SUIT
from spelbok.engine.actions import WORD as _WORD
from spelbok.engine.play_sets import PlaySets, as_played
from spelbok.engine.play_sets import listed as plays_listed
from spelbok.errors import ActionError, InvalidActionError
from spelbok.play.seatlog import _seat_narrator, action_words, deed, exchange_verb, receiver
from spelbok.play.suggest import suggestions
from spelbok.view.panel import panel as _panel
from spelbok.view.text import (
    PLAIN,
    Style,
    _visible_len,
    cards_in_text,
    scores_line,
    sort_hand,
    wrap_items,
    wrap_words,
)

if TYPE_CHECKING:
    from spelbok.engine.actions import Action
    from spelbok.engine.game import Game
    from spelbok.engine.state import State

_MENU_LIMIT = 10  # exchanges with more choices than this are typed, not picked from a menu
_HINT_PLAYOUTS = 300  # the ISMCTS hint's budget: a second or so

#: What ``help`` says at the table.
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
COMMANDS = ("show", "undo", "hint", "rules", "score", "log", "help", "quit")


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
    if isinstance(legal, PlaySets):
        return "your play"  # several cards at once, too many to list (tricks.combos)
    kinds = {a.kind for a in legal}
    if kinds <= {_CARD, _WORD} and _CARD in kinds:
        return "your card"
    from spelbok.engine.combos import ComboPlay

    if isinstance(state.game.program.code[state.pc], ComboPlay):
        return "your play"  # one card or several at once (a pair: tricks.combos)
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


def _menu(legal: Sequence[Action], game: Game, trump: str | None,
          mode: str | None = None) -> list[Action]:
    """The actions offered by number: cards in the order the hand is shown."""
    card_actions = [a for a in legal if a.kind == _CARD]
    if card_actions:
        order = [c for group in sort_hand([str(a) for a in card_actions], game, trump, mode)
                 for c in group]
        by_name = {str(a): a for a in card_actions}
        rest = [a for a in legal if a.kind != _CARD]
        return [by_name[c] for c in order if c in by_name] + rest
    exchanges = [a for a in legal if a.kind == _CARDS]
    if len(exchanges) > _MENU_LIMIT:
        return [a for a in legal if a.kind != _CARDS or not a.cards]
    return list(legal)


def _exchange_verb(legal: Sequence[Action], state: State) -> str | None:
    """The verb of the cards given away at this decision (see
    :func:`spelbok.play.seatlog.exchange_verb`)."""
    return exchange_verb(legal, state)


_action_text = action_words


def _plays_lines(state: State, menu: Sequence[Action], legal: PlaySets,
                 style: Style) -> list[str]:
    """The prompt of a play of several cards with too many to list: the suggestions by
    number, then how to write any other play (the engine checks it)."""
    name = style.paint(_decision_name(state, legal), bold=True)
    items = [f"{i} {_action_text(a, style, None)}" for i, a in enumerate(menu, 1)]
    lines = wrap_items(f"{name}: ", items, sep="  ", indent=4, width=style.width) \
        if items else []
    example = str(menu[0]).split()[1:] if menu else []
    eg = f", e.g. play {' '.join(example).lower()}" if example else ""
    say = (f"the cards of your play ({legal.total():,} are legal){eg}, or one card "
           "by its name")
    if items:
        return lines + wrap_words(f"    or write {say}", style.width, 6)
    return wrap_words(f"{name}: write {say}", style.width, 4)


def _prompt_lines(state: State, menu: Sequence[Action], legal: Sequence[Action],
                  style: Style, names: Sequence[str] | None = None) -> list[str]:
    if isinstance(legal, PlaySets):
        return _plays_lines(state, menu, legal, style)
    name = _decision_name(state, legal)
    xverb = _exchange_verb(legal, state)
    items = [f"{i} {_action_text(a, style, xverb)}" for i, a in enumerate(menu, 1)]
    lines = wrap_items(f"{style.paint(name, bold=True)}: ", items, sep="  ", indent=4,
                       width=style.width)
    exchanges = [a for a in legal if a.kind == _CARDS]
    if exchanges and len(menu) < len(legal):
        most = max(len(a.cards) for a in exchanges)
        least = min(len(a.cards) for a in exchanges)
        if any(a.kind == _WORD and a.verb == exchanges[0].verb for a in legal):
            least = 0  # the verb alone keeps every card
        verb = exchanges[0].verb
        v = state.view(state.current_player or 0)
        flat = [c for g in sort_hand(v["hand"], state.game, v.get("trump"),
                                     (v.get("vars") or {}).get("mode")) for c in g]
        k = least if least == most else min(2, most)
        cards_text = " ".join(flat[-k:]).lower()  # the lowest cards, as an example
        how_many = (f"the {_plural(most, 'card')}" if least == most
                    else f"the cards (up to {most})" if not least
                    else f"the cards ({least} to {most})")
        to = receiver(state, names)
        say = f"{how_many} to give away{to}, e.g. {verb} {cards_text} or just {cards_text}"
        if menu:
            lines += wrap_words(f"    or write {say}", style.width, 6)
        else:  # nothing to pick: the question is the whole prompt
            lines = wrap_words(f"{style.paint(name, bold=True)}: write {say}", style.width, 4)
    return lines


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


def _menu_words(menu: Sequence[Action], legal: Sequence[Action], state: State,
                style: Style | None) -> dict[str, Action]:
    """Each menu entry by the words the menu shows it with (with the table's symbols,
    and with letters), as :func:`_said` writes them."""
    from dataclasses import replace

    xverb = _exchange_verb(legal, state)
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
    shown = _menu_words(menu, legal, state, style).get(_said(word))
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
    xverb = _exchange_verb(legal, state)
    if xverb and low in ("keep", "keep all", "none", "0"):
        return state.parse_action(xverb)
    if xverb and low.split()[:1] == ["give"] and xverb != "give":  # the menu's word for it
        word = xverb + word[len("give"):]
        low = word.lower()
    if isinstance(legal, PlaySets) or _combo_turn(state):
        # cards of a play: 'play 9c 9c', or the cards alone; the engine's words for it
        try:
            a = state.parse_action(word)
        except InvalidActionError:
            if low.split()[0] == "play":
                raise
            a = state.parse_action(f"play {word}")
        return _as_listed(legal, a)
    try:
        return state.parse_action(word)
    except ActionError:
        if not xverb or low.split()[0] == xverb:
            raise
        # the cards alone, at an exchange: "7h 9s" means "exchange 7H 9S"
        return state.parse_action(f"{xverb} {word}")


def _combo_turn(state: State) -> bool:
    """Whether the decision is a play of one card or several (``tricks.combos``)."""
    from spelbok.engine.combos import ComboPlay

    return isinstance(state.game.program.code[state.pc], ComboPlay)


def _as_listed(legal: Sequence[Action], a: Action) -> Action:
    """The play ``a`` (``play 9C 9C``) as the engine writes it (``pair 9C 9C``)."""
    if isinstance(legal, PlaySets):
        return as_played(legal, a)
    if a.kind == _CARDS:
        for b in legal:
            if b.kind == _CARDS and b.value == a.value:
                return b
    return a


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


def _hint(state: State, human: int, style: Style, names: Sequence[str] = ()) -> list[str]:
    """What the greedy and the ISMCTS bots would do (cards given, to whom), and ISMCTS's
    estimate."""
    from spelbok.engine.observe import observe
    from spelbok.play.bots import make_bot

    legal = state.legal_actions()
    xverb = _exchange_verb(legal, state)
    to = receiver(state, names) if xverb else ""
    lines = []
    greedy = make_bot("greedy", seed=state.hand_number).choose(observe(state, human))
    lines.append(f"  The greedy bot would {_deed(greedy, style, xverb, to)}.")
    search = make_bot(f"ismcts:{_HINT_PLAYOUTS}", seed=state.hand_number)
    pick = search.choose(observe(state, human))
    estimate = getattr(search, "last_estimate", None)
    text = f"  The ISMCTS bot would {_deed(pick, style, xverb, to)}"
    if estimate is not None:
        mean, visits = estimate
        text += (f", expecting {mean:.0%} of the hand's best outcome "
                 f"({visits} of {_HINT_PLAYOUTS} playouts)")
    lines.append(text + ".")
    return lines


_deed = deed


def _rules(state: State) -> list[str]:
    from spelbok.lang.describe import describe_step

    origin = state.game.program.origin(state.pc)
    text = describe_step(state.game.doc, origin.path, state.game.players) if origin else ""
    return ["  " + line for line in text.splitlines()] or ["  (no rules text for this step)"]


def _ask(state: State, human: int, names: Sequence[str], style: Style,
         history: Sequence[str] = ()) -> Action | str | None:
    """Show the table, ask until the answer is a legal action, ``"undo"``, or None to
    abandon."""
    legal = state.legal_actions()
    v = state.view(human)
    few = plays_listed(legal, _MENU_LIMIT)  # plays of several cards: listed when few
    if few is None:  # too many to list: a few suggested, any other written
        menu = suggestions(state, legal)
    else:
        legal = few
        menu = _menu(legal, state.game, v.get("trump"), (v.get("vars") or {}).get("mode"))
    _line_editing([str(a) for a in (menu if few is None else legal)] + list(COMMANDS))

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
        named = {str(a).lower() for a in (menu if few is None else legal)}
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
                say(_hint(state, human, style, names))
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


def _symbols(text: str, style: Style) -> str:
    """``text`` with its cards (``10S``) and suits (``suit H``) shown as everywhere else
    in the terminal (``10♠``, ``suit ♥``)."""
    return cards_in_text(text, style)


def _echo(text: str, style: Style) -> None:
    """Print ``text``, each line wrapped to the style's width when longer."""
    for line in text.split("\n"):
        if _visible_len(line) <= style.width:
            click.echo(line, color=style.color)
            continue
        lead = len(line) - len(line.lstrip(" "))
        for part in wrap_words(line, style.width, lead + 4 if lead < 20 else 6):
            click.echo(part, color=style.color)


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"
