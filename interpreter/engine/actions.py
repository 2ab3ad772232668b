"""Actions: immutable values with a notation.

An action is what a player does at a decision: play a card (``JC``), say a
word (``play``, ``pass``, ``knock``), name a suit (``trump H``) or exchange
cards (``exchange 7H 9S``; plain ``exchange`` keeps every card).  Notation is
kept apart from the rules: :func:`parse_action` only reads text, and the state
decides whether the action is legal.

>>> a = parse_action("exchange 9s 7h")
>>> str(a), a == parse_action("exchange 7H 9S")
('exchange 9S 7H', True)
"""

from __future__ import annotations

from ..cards import CARD_NAMES, SUITS, card_symbol, cards_in, parse_card
from ..errors import InvalidActionError

CARD, WORD, SUIT, CARDS, NUMBER = 0, 1, 2, 3, 4


class Action(tuple):
    """One player action: an immutable ``(kind, verb, value)`` tuple; ``str()`` is its notation.

    Equal actions have equal notation.  An exchange of no cards is the bare
    word (``exchange``), so text and action always map one to one.
    """

    __slots__ = ()

    def __new__(cls, kind: int, verb: str = "", value: int = 0) -> Action:
        if kind == CARDS and value == 0:
            kind = WORD
        return tuple.__new__(cls, (kind, verb, value))

    @property
    def kind(self) -> int:
        return self[0]

    @property
    def verb(self) -> str:
        return self[1]

    @property
    def value(self) -> int:
        return self[2]

    @property
    def card(self) -> int | None:
        """The card played, for a card action."""
        return self[2] if self[0] == CARD else None

    @property
    def cards(self) -> list[int]:
        """The cards given away, for an exchange action (ascending ids)."""
        return list(cards_in(self[2])) if self[0] == CARDS else []

    def __str__(self) -> str:
        if self[0] == CARD:
            return CARD_NAMES[self[2]]
        return self._render()

    def _render(self, symbols: bool = False) -> str:
        kind, verb, value = self
        if kind == CARD:
            return card_symbol(value) if symbols else CARD_NAMES[value]
        if kind == WORD:
            return verb
        if kind == SUIT:
            return f"{verb} {SUITS[value]}"
        if kind == NUMBER:
            return f"{verb} {value}"
        names = [card_symbol(c) if symbols else CARD_NAMES[c] for c in _display_order(value)]
        return " ".join([verb, *names])

    def pretty(self) -> str:
        """Notation with suit symbols (``J♣``)."""
        return self._render(symbols=True)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __getnewargs__(self) -> tuple[int, str, int]:
        return (self[0], self[1], self[2])


def _display_order(mask: int) -> list[int]:
    # suits in C S H D order, low rank first within a suit
    return sorted(cards_in(mask), key=lambda c: (c // 13, c % 13))


CARD_ACTIONS = tuple(Action(CARD, "", c) for c in range(52))


def parse_action(text: str) -> Action:
    """Read notation into an Action (no legality check).

    Raises InvalidActionError for text that is not notation at all.

    >>> parse_action("j♣"), parse_action("Pass"), parse_action("trump h")
    (Action('JC'), Action('pass'), Action('trump H'))
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is written as text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise InvalidActionError("empty action")
    if len(words) == 1:
        c = parse_card(words[0])
        if c is not None:
            return CARD_ACTIONS[c]
        word = words[0].lower()
        if not word.replace("_", "").replace("-", "").isalnum():
            raise InvalidActionError(f"{text!r} is not an action (expected a card like JC, or a word)")
        return Action(WORD, word)
    verb = words[0].lower()
    if not verb.replace("_", "").replace("-", "").isalpha():
        raise InvalidActionError(f"{text!r} is not an action")
    if len(words) == 2 and len(words[1]) == 1 and words[1].upper() in "CSHD♣♠♥♦":
        from ..cards import SUIT_INDEX

        return Action(SUIT, verb, SUIT_INDEX[words[1].upper()])
    if len(words) == 2 and words[1].isdigit() and len(words[1]) <= 4:
        return Action(NUMBER, verb, int(words[1]))
    mask = 0
    for w in words[1:]:
        c = parse_card(w)
        if c is None:
            raise InvalidActionError(f"{w!r} in {text!r} is not a card (write cards like 10H, JC, A♠)")
        if (mask >> c) & 1:
            raise InvalidActionError(f"{w!r} is named twice in {text!r}")
        mask |= 1 << c
    return Action(CARDS, verb, mask)
