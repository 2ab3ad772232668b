"""The table a seat sees before its decision, as text lines: shown by ``spelbok play``
above its menu and by the game-AI interfaces' ``render``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.actions import CARD
from ..engine.dummy import hand_seat
from ..engine.play_sets import PlaySets
from .text import PLAIN, Style, card, hand_line, scores_line, suit, trick_line, wrap_items

if TYPE_CHECKING:
    from ..engine.state import State

__all__ = ["panel"]


def panel(state: State, human: int, names: Sequence[str], style: Style = PLAIN) -> list[str]:
    """The table as seat ``human`` sees it before a decision: the hand's number, dealer,
    trump and turn-up, its hand sorted by suit, the cards others have shown, the trick,
    the tricks won and the scores (what ``spelbok play`` prints above its menu).

    >>> import spelbok
    >>> state = spelbok.load("example", players=2).new_state(seed=1)
    >>> [line.split()[0] for line in panel(state, 0, ["you", "P1"])[1:]]
    ['──', 'your', 'scores']
    """
    v = state.view(human)
    trump = v.get("trump")
    mode = (v.get("vars") or {}).get("mode")  # the spec's modes: the order in force
    head = [f"hand {v['hand_number']}", f"dealer {names[v['dealer']]}"]
    if state.prog.turn < 0:  # the turn goes to the right (players.direction)
        head.append("turning right")
    if trump:
        t = f"trump {suit(trump, style)}"
        if v.get("turn_up"):
            t += f" (turn-up {' '.join(card(c, style) for c in v['turn_up'])})"
        head.append(t)
    elif v.get("turn_up"):
        head.append(f"turn-up {' '.join(card(c, style) for c in v['turn_up'])}")
    if v.get("talon"):
        head.append(f"talon {v['talon']}")
    if v.get("shown"):  # cards an exchange gave away face up, lying aside
        head.append(f"shown aside {' '.join(card(c, style) for c in v['shown'])}")
    rule = "─" if style.symbols else "-"
    heads = wrap_items(rule * 2 + " ", head, width=style.width - 4, indent=3)
    last = heads[-1] + " "
    heads[-1] = last + rule * max(3, min(70, style.width - 2) - len(last))
    lines = [""] + [style.paint(h, bold=True) for h in heads]
    hand = hand_line(v["hand"], state.game, trump, style, mode)
    lines += wrap_items("  your hand  ", hand.split(" "), sep=" ", width=style.width,
                        indent=13)
    lines += _aside(state, v, human, names, style)
    for p, known in enumerate(v.get("known_cards") or []):
        if known and p != human:  # cards another seat has shown to all (a dummy, melds)
            shown = hand_line(known, state.game, trump, style, mode)
            lines += wrap_items(f"  {names[p]} shows ".ljust(13), shown.split(" "), sep=" ",
                                width=style.width, indent=13)
    legal = state.legal_actions()
    # plays of several cards in a trick (a lazy list, never listed here) are a card turn
    card_turn = isinstance(legal, PlaySets) or any(a.kind == CARD for a in legal)
    held = hand_seat(state)
    if card_turn and held is not None and held != human:  # a dummy's turn: its hand plays
        lines.append(f"  you play {names[held]}'s card, from the hand {names[held]} shows")
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


def _aside(state: State, v: dict, human: int, names: Sequence[str], style: Style) -> list[str]:
    """The cards laid aside face down this hand: the seat's own, named (his alone), and
    how many each other seat has (a concealed trump, a discard)."""
    lines = []
    own = v.get("own_discards") or []
    if own:
        lines += wrap_items("  laid aside ", [*(card(c, style) for c in own), "(face down)"],
                            sep=" ", width=style.width, indent=13)
    others = [f"{names[p]} {k} card{'' if k == 1 else 's'}"
              for p, m in enumerate(state.discarded) if p != human and (k := m.bit_count())]
    if others:
        lines += wrap_items("  face down  ", others, width=style.width, indent=13)
    return lines
