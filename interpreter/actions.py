"""Actions: immutable values with a notation.

An action is what a player does at a decision: play a card (``JC``), say a
word (``play``, ``pass``, ``knock``), name a suit (``trump H``) or exchange
cards (``exchange 7H 9S``; plain ``exchange`` keeps every card).  Notation is
kept apart from the rules: :func:`parse_action` only reads text, and the state
decides whether the action is legal.

>>> a = parse_action("exchange 9s 7h")
>>> str(a), a == parse_action("exchange 7H 9S")
('exchange 7H 9S', True)
"""

from __future__ import annotations

from .cards import CARD_NAMES, SUITS, card_symbol, cards_in, parse_card
from .errors import InvalidActionError

CARD, WORD, SUIT, CARDS = 0, 1, 2, 3


class Action:
    """One player action.  Compare and hash by value; ``str()`` is its notation."""

    __slots__ = ("kind", "verb", "value", "_text")

    kind: int
    verb: str
    value: int
    _text: str | None

    def __init__(self, kind: int, verb: str = "", value: int = 0) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "verb", verb)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "_text", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    @property
    def card(self) -> int | None:
        """The card played, for a card action."""
        return self.value if self.kind == CARD else None

    @property
    def cards(self) -> list[int]:
        """The cards given away, for an exchange action (ascending ids)."""
        return list(cards_in(self.value)) if self.kind == CARDS else []

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._render()
            object.__setattr__(self, "_text", text)
        return text

    def _render(self, symbols: bool = False) -> str:
        if self.kind == CARD:
            return card_symbol(self.value) if symbols else CARD_NAMES[self.value]
        if self.kind == WORD:
            return self.verb
        if self.kind == SUIT:
            return f"{self.verb} {SUITS[self.value]}"
        names = [card_symbol(c) if symbols else CARD_NAMES[c] for c in _display_order(self.value)]
        return " ".join([self.verb, *names])

    def pretty(self) -> str:
        """Notation with suit symbols (``J♣``)."""
        return self._render(symbols=True)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        # Equal when the notation is: ``exchange`` read from text (a word) is the
        # same action as an exchange of no cards.
        if self is other:
            return True
        if not isinstance(other, Action):
            return NotImplemented
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __reduce__(self) -> tuple[type[Action], tuple[int, str, int]]:
        return (Action, (self.kind, self.verb, self.value))


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
        from .cards import SUIT_INDEX

        return Action(SUIT, verb, SUIT_INDEX[words[1].upper()])
    mask = 0
    for w in words[1:]:
        c = parse_card(w)
        if c is None:
            raise InvalidActionError(f"{w!r} in {text!r} is not a card (write cards like 10H, JC, A♠)")
        if (mask >> c) & 1:
            raise InvalidActionError(f"{w!r} is named twice in {text!r}")
        mask |= 1 << c
    return Action(CARDS, verb, mask)
