"""Cards, hands, tricks and scores as text: what the terminal, the web page's log and the
game-AI interfaces' ``render`` show a seat.

Everything here returns plain strings (colour, when asked for, as ANSI codes
made by :func:`click.style`), so the caller decides where text goes.

>>> card("10H"), cards(["JC", "AS"])
('10♥', 'J♣ A♠')
>>> card("QD", Style(symbols=False))
'QD'
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import IO, Any

__all__ = [
    "PLAIN",
    "Style",
    "card",
    "cards",
    "cards_in_text",
    "hand_line",
    "player_names",
    "scores_line",
    "sort_hand",
    "suit",
    "trick_line",
    "wrap_items",
    "wrap_words",
]

SUITS = "CSHD"
SYMBOLS = "♣♠♥♦"
_RED = "HD"
#: Display order of suits: colours alternate (♠ ♥ ♣ ♦); a trump suit comes first.
_DISPLAY = "SHCD"
_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_WIDTH = 100


@dataclass(frozen=True)
class Style:
    """How to draw: suit symbols or letters, and whether to colour red suits.

    >>> Style().color, Style().symbols
    (False, True)
    >>> Style.for_stream(None).color
    False
    """

    color: bool = False
    symbols: bool = True
    pack: Any = None  # a game's declared Pack (its letters, symbols, colours); None: French
    width: int = _WIDTH  # the columns lines are wrapped to

    @classmethod
    def for_stream(cls, stream: IO[str] | None = None, *, no_color: bool = False,
                   plain: bool = False, width: int | None = None) -> Style:
        """The style a stream supports: colour only on a terminal and without ``NO_COLOR``;
        symbols unless the stream's encoding cannot write them; ``plain`` neither (for
        screen readers and logs).  ``width``: the terminal's width on a terminal, else
        100 columns (so that a transcript in a file does not depend on a window).
        """
        stream = sys.stdout if stream is None else stream
        tty = bool(getattr(stream, "isatty", lambda: False)())
        if width is None:
            import shutil

            width = shutil.get_terminal_size((_WIDTH, 24)).columns if tty else _WIDTH
        width = max(30, min(int(width), 400))
        if plain:
            return cls(color=False, symbols=False, width=width)
        color = (
            not no_color
            and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb"
            and bool(getattr(stream, "isatty", lambda: False)())
        )
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            SYMBOLS.encode(encoding)
            symbols = True
        except (LookupError, UnicodeEncodeError):
            symbols = False
        return cls(color=color, symbols=symbols, width=width)

    def for_game(self, game: Any) -> Style:
        """This style for a game's cards: its declared pack, if it has one."""
        pack = getattr(getattr(game, "program", None), "pack", None)
        if pack is None or pack.french:
            return self
        from dataclasses import replace

        return replace(self, pack=pack)

    def paint(self, text: str, **styles: Any) -> str:
        """``text`` styled with :func:`click.style` when colour is on, else unchanged."""
        if not self.color:
            return text
        import click

        return click.style(text, **styles)


PLAIN = Style()


def suit(letter: str, style: Style = PLAIN) -> str:
    """A suit letter as its symbol (``H`` -> ``♥``); other text unchanged.

    >>> suit("H"), suit("none"), suit("S", Style(symbols=False))
    ('♥', 'none', 'S')
    """
    text = str(letter)
    if style.pack is not None:
        return _pack_suit(style.pack, text, style)
    if len(text) != 1 or text.upper() not in SUITS:
        return text
    s = text.upper()
    shown = SYMBOLS[SUITS.index(s)] if style.symbols else s
    return style.paint(shown, fg="red") if s in _RED else shown


def card(name: str, style: Style = PLAIN) -> str:
    """A card in notation (``10H``, ``J♣``) as shown in the terminal.

    >>> card("10H"), card("jc"), card("not a card")
    ('10♥', 'J♣', 'not a card')
    """
    text = str(name).strip()
    if style.pack is not None:
        return _pack_card(style.pack, text, style)
    if len(text) < 2:
        return text
    rank = text[:-1].upper()
    s = text[-1].upper()
    if s in SYMBOLS:
        s = SUITS[SYMBOLS.index(s)]
    if rank == "T":
        rank = "10"
    if s not in SUITS or rank not in _RANKS:
        return text
    shown = rank + (SYMBOLS[SUITS.index(s)] if style.symbols else s)
    return style.paint(shown, fg="red") if s in _RED else shown


#: cards of the French pack in a message (``10S``) and suits named by letter (``suit H``)
_FRENCH_CARD_IN_TEXT = re.compile(r"\b(?:10|[2-9JQKA])[CSHD]\b")
_FRENCH_SUIT_IN_TEXT = re.compile(r"\b(suit|trump|trumps) (\(?)([CSHD])\b")
#: the same in a declared pack: any short upper-case word its notation reads as a card
_PACK_CARD_IN_TEXT = re.compile(r"\b[0-9A-Z]{2,3}\b")
_PACK_SUIT_IN_TEXT = re.compile(r"\b(suit|trump|trumps) (\(?)([A-Z])\b")


def cards_in_text(text: str, style: Style = PLAIN) -> str:
    """``text`` (an error, a hint) with the cards it writes in notation (``10S``) and the
    suits it names by letter (``suit H``) shown as the table shows them, so that a message
    and the table agree.

    >>> cards_in_text("9C is not allowed: you must follow suit (S)")
    '9♣ is not allowed: you must follow suit (♠)'
    >>> cards_in_text("9C is not allowed", Style(symbols=False))
    '9C is not allowed'
    """
    pack = style.pack
    if pack is None:
        text = _FRENCH_CARD_IN_TEXT.sub(lambda m: card(m.group(0), style), text)
        suit_in_text = _FRENCH_SUIT_IN_TEXT
    else:
        text = _PACK_CARD_IN_TEXT.sub(
            lambda m: m.group(0) if pack.parse_card(m.group(0)) is None
            else card(m.group(0), style), text)
        suit_in_text = _PACK_SUIT_IN_TEXT
    return suit_in_text.sub(lambda m: f"{m.group(1)} {m.group(2)}{suit(m.group(3), style)}", text)


#: How a declared colour paints (click colour names); black is not painted.
_PAINT = {"red": "red", "green": "green", "blue": "blue", "yellow": "yellow",
          "orange": "bright_red", "purple": "magenta", "grey": "bright_black"}


def _paint(pack: Any, s: int, shown: str, style: Style) -> str:
    from ..cards import COLOURS

    fg = _PAINT.get(COLOURS[pack.colours[s]]) if 0 <= s < len(pack.colours) else None
    return style.paint(shown, fg=fg) if fg else shown


def _pack_suit(pack: Any, text: str, style: Style) -> str:
    """:func:`suit` in a declared pack."""
    s = pack.suit_index.get(text.upper())
    if s is None or len(text) != 1:
        return text
    return _paint(pack, s, pack.symbols[s] if style.symbols else pack.letters[s], style)


def _pack_card(pack: Any, text: str, style: Style) -> str:
    """:func:`card` in a declared pack (its symbols and colours)."""
    c = pack.parse_card(text)
    if c is None:
        return text
    return _paint(pack, pack.suit[c], pack.symbol_names[c] if style.symbols else pack.names[c],
                  style)


def cards(names: Iterable[str], style: Style = PLAIN, sep: str = " ") -> str:
    """Several cards, separated by spaces.

    >>> cards(["7S", "KD"])
    '7♠ K♦'
    """
    return sep.join(card(c, style) for c in names)


def _card_id(name: str) -> int | None:
    text = str(name).strip().upper()
    if len(text) < 2 or text[-1] not in SUITS or text[:-1] not in _RANKS:
        return None
    return SUITS.index(text[-1]) * 13 + _RANKS.index(text[:-1])


def _tables(game: Any, trump: str | None, mode: str | None = None) -> Any:
    """The game's order tables under ``trump`` in ``mode`` (a view's ``vars``' mode: the
    spec's ``modes``; None, or a spec without modes: its ranking)."""
    pack = getattr(getattr(game, "program", None), "pack", None)
    if pack is not None and not pack.french:
        index = pack.suit_index.get(str(trump).upper(), 4) if trump else 4
        return game.program.tables_in(mode)[index]
    index = SUITS.index(trump) if trump in tuple(SUITS) else 4
    try:
        return game.program.tables_in(mode)[index]
    except (AttributeError, IndexError, TypeError):
        return None


def sort_hand(names: Iterable[str], game: Any = None, trump: str | None = None,
              mode: str | None = None) -> list[list[str]]:
    """A hand grouped by (effective) suit, the trump suit first, each group high to low.

    With a loaded ``game`` the game's own ranking decides (in ``mode``, when its spec
    has modes): permanent trumps join the trump suit and rank above it.  Without one, the natural order
    (A high) and printed suits are used.

    >>> import spelbok
    >>> game = spelbok.load("example", players=2)
    >>> sort_hand(["7H", "JC", "AS", "JD", "9H", "KS"], game, "H")
    [['JC', '9H', '7H'], ['JD'], ['AS', 'KS']]
    >>> sort_hand(["7H", "AS", "KS", "2C"])
    [['AS', 'KS'], ['7H'], ['2C']]
    """
    tables = _tables(game, trump, mode) if game is not None else None
    pack = getattr(getattr(game, "program", None), "pack", None)
    if pack is not None and not pack.french:
        return _sort_in_pack(pack, names, tables, trump)
    groups: dict[int, list[tuple[int, str]]] = {}
    odd: list[str] = []
    for name in names:
        c = _card_id(name)
        if c is None:
            odd.append(str(name))
            continue
        if tables is not None:
            s, power = tables.suit[c], tables.power[c]
        else:
            s, power = c // 13, c % 13
        groups.setdefault(s, []).append((power, name))
    order = _DISPLAY
    if trump in tuple(SUITS):
        i = order.index(trump)
        order = order[i:] + order[:i]
    out = [
        [n for _p, n in sorted(groups[SUITS.index(s)], key=lambda x: -x[0])]
        for s in order
        if SUITS.index(s) in groups
    ]
    if 4 in groups:  # with no trump, the top trumps: of no suit (as in a declared pack)
        out.append([n for _p, n in sorted(groups[4], key=lambda x: -x[0])])
    if odd:
        out.append(odd)
    return out


def _sort_in_pack(pack: Any, names: Iterable[str], tables: Any, trump: str | None) -> list[list[str]]:
    """:func:`sort_hand` in a declared pack: its suits in order (the trump first), then
    the cards of no suit."""
    groups: dict[int, list[tuple[int, str]]] = {}
    odd: list[str] = []
    taken: set[int] = set()
    for name in names:
        c = pack.take_card(str(name), taken)
        if c is None:
            odd.append(str(name))
            continue
        s = tables.suit[c] if tables is not None else max(pack.suit[c], len(pack.letters))
        power = tables.power[c] if tables is not None else pack.rank[c]
        groups.setdefault(s, []).append((power, name))
    first = pack.suit_index.get(str(trump).upper(), -1) if trump else -1
    order = sorted(groups, key=lambda s: (s != first, s))
    out = [[n for _p, n in sorted(groups[s], key=lambda x: -x[0])] for s in order]
    if odd:
        out.append(odd)
    return out


def hand_line(
    names: Iterable[str], game: Any = None, trump: str | None = None, style: Style = PLAIN,
    mode: str | None = None,
) -> str:
    """A hand sorted by suit, suits separated by a bar.

    >>> hand_line(["7H", "AS", "9H", "KS"], trump="H")
    '9♥ 7♥ │ A♠ K♠'
    """
    bar = " │ " if style.symbols else " | "
    groups = sort_hand(names, game, trump, mode)
    return bar.join(cards(g, style) for g in groups) if groups else "(no cards)"


def player_names(n: int, human: int | None = None) -> list[str]:
    """Names for the seats: ``P0``, ``P1``, ... and ``you`` for a human seat.

    >>> player_names(3, human=1)
    ['P0', 'you', 'P2']
    """
    return ["you" if i == human else f"P{i}" for i in range(n)]


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"P{seat}"


def trick_line(
    trick: Iterable[Sequence[Any]], names: Sequence[str], style: Style = PLAIN,
    winner: int | None = None,
) -> str:
    """The cards of a trick in play order (``[[seat, card], ...]``), and its winner.

    >>> trick_line([[1, "AS"], [0, "7S"]], ["you", "P1"], winner=1)
    'P1 A♠ · you 7♠ → P1'

    A seat's cards played at once (a pair: ``tricks.combos``) read as one play:

    >>> trick_line([[1, "7H"], [1, "7H"], [0, "AS"], [0, "8S"]], ["you", "P1"])
    'P1 7♥ 7♥ · you A♠ 8♠'

    A winner of -1 is a tied trick (``ranking.equal_best: tie``): nobody won it.

    >>> trick_line([[1, "3S"], [0, "3H"]], ["you", "P1"], winner=-1)
    'P1 3♠ · you 3♥ → the trick is tied'
    """
    parts: list[str] = []
    last = None
    for p, c in trick:
        if p == last and parts:  # the same seat again: cards of one play
            parts[-1] += f" {card(c, style)}"
        else:
            parts.append(f"{_name(names, p)} {card(c, style)}")
        last = p
    text = " · ".join(parts) if parts else "(no cards)"
    if winner is not None and winner < 0:
        text += (" → " if style.symbols else " -> ") + "the trick is tied"
    elif winner is not None:
        arrow = " → " if style.symbols else " -> "
        text += f"{arrow}{style.paint(_name(names, winner), bold=True)}"
    return text


def scores_line(
    scores: Sequence[Any], names: Sequence[str], out: Sequence[bool] | None = None,
    before: Sequence[Any] | None = None, style: Style = PLAIN,
) -> str:
    """Each seat's score, the change since ``before`` and who is out.

    >>> scores_line([7, 17, 12], ["P0", "P1", "P2"], out=[False, True, False], before=[9, 12, 12])
    'P0 7 (−2) · P1 17 (+5, out) · P2 12'
    """
    parts = []
    for p, score in enumerate(scores):
        notes = []
        if before is not None and p < len(before):
            try:
                delta = int(score) - int(before[p])
            except (TypeError, ValueError):
                delta = 0
            if delta:
                minus = "−" if style.symbols else "-"
                notes.append(f"+{delta}" if delta > 0 else f"{minus}{-delta}")
        if out is not None and p < len(out) and out[p]:
            notes.append("out")
        text = f"{_name(names, p)} {score}"
        if notes:
            text += f" ({', '.join(notes)})"
        parts.append(text)
    return " · ".join(parts)


def _visible_len(text: str) -> int:
    import re

    return len(re.sub(r"\x1b\[[0-9;]*m", "", text))


def wrap_items(
    head: str, items: Sequence[str], sep: str = " · ", width: int = _WIDTH, indent: int = 4
) -> list[str]:
    """``head`` followed by ``items``, wrapped between items to ``width`` columns.

    >>> wrap_items("dealt: ", ["a" * 10, "b" * 10, "c" * 10], width=30)
    ['dealt: aaaaaaaaaa · bbbbbbbbbb', '    cccccccccc']
    """
    lines: list[str] = []
    line = head
    fresh = True
    for item in items:
        piece = item if fresh else sep + item
        if not fresh and _visible_len(line) + _visible_len(piece) > width:
            lines.append(line)
            line = " " * indent + item
        else:
            line += piece
        fresh = False
    lines.append(line)
    return lines


def wrap_words(text: str, width: int = _WIDTH, indent: int = 4) -> list[str]:
    """``text`` wrapped between words to ``width`` columns, later lines indented.

    >>> wrap_words("  a bb ccc dddd", 9, 4)
    ['  a bb', '    ccc', '    dddd']
    """
    lead = len(text) - len(text.lstrip(" "))
    lines: list[str] = []
    line = text[:lead]
    for word in text.split():
        if _visible_len(line) + len(word) + (0 if line.strip() == "" else 1) > width \
                and line.strip():
            lines.append(line)
            line = " " * indent
        line += word if line.strip() == "" else " " + word
    lines.append(line)
    return lines
