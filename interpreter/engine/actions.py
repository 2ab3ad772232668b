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

from typing import Any, Final

from ..cards import CARD_NAMES, FRENCH, SUITS, Pack, card_symbol, cards_in, parse_card
from ..errors import InvalidActionError

# action kinds (Final: the compiler writes them in as numbers, no look-up by name)
CARD: Final = 0
WORD: Final = 1
SUIT: Final = 2
CARDS: Final = 3
NUMBER: Final = 4

#: The word that lets a decision go by: an auction's pass, a show or an announcement
#: not made.
PASS_WORD: Final = "pass"


def is_pass(a: Any) -> bool:
    """Whether the action is the word ``pass``.

    >>> is_pass(Action(WORD, "pass")), is_pass(Action(WORD, "play"))
    (True, False)
    """
    return bool(a.kind == WORD and a.verb == PASS_WORD)


def ascii_number(text: str, digits: int = 4) -> int | None:
    """``text`` as a number when it is 1..``digits`` ASCII digits, else None.

    Notation is read in ASCII only: ``str.isdigit()`` also accepts ``²`` (which ``int()``
    refuses) and ``int()`` reads Arabic-Indic and fullwidth digits, which no notation writes.

    >>> ascii_number("12"), ascii_number("²"), ascii_number("١"), ascii_number("12345")
    (12, None, None, None)
    """
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


class Action(tuple):
    """One player action: an immutable ``(kind, verb, value)`` tuple; ``str()`` is its notation.

    Equal actions have equal notation.  An exchange of no cards is the bare
    word (``exchange``), so text and action always map one to one.  An action of a
    game with a declared pack (not the French 52) holds that :class:`Pack` as a fourth
    item, which names its cards and suits.
    """

    __slots__ = ()

    def __new__(cls, kind: int, verb: str = "", value: int = 0, pack: Pack | None = None) -> Action:
        if kind == CARDS and value == 0:
            kind = WORD
        if pack is None or kind in (WORD, NUMBER):
            return tuple.__new__(cls, (kind, verb, value))
        return tuple.__new__(cls, (kind, verb, value, pack))

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
            return CARD_NAMES[self[2]] if len(self) == 3 else self[3].names[self[2]]
        return self._render()

    @property
    def pack(self) -> Pack:
        """The pack that names the action's cards and suits."""
        return FRENCH if len(self) == 3 else self[3]

    def _render(self, symbols: bool = False) -> str:
        kind, verb, value = self[0], self[1], self[2]
        if len(self) == 4:
            pack: Pack = self[3]
            if kind == CARD:
                return pack.symbol_names[value] if symbols else pack.names[value]
            if kind == SUIT:
                return f"{verb} {pack.letters[value]}"
            names = [pack.symbol_names[c] if symbols else pack.names[c]
                     for c in _display_order(value, pack)]
            return " ".join([verb, *names])
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

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)


def _display_order(mask: int, pack: Pack = FRENCH) -> list[int]:
    # suits in the pack's order, low rank first within a suit (then cards of no suit)
    if pack is FRENCH:
        return sorted(cards_in(mask), key=lambda c: (c // 13, c % 13))
    return sorted(cards_in(mask), key=lambda c: (pack.suit[c] % 99, pack.rank[c], c))


CARD_ACTIONS = tuple(Action(CARD, "", c) for c in range(52))
_PACK_ACTIONS: dict[Pack, tuple[Action, ...]] = {}


def card_actions(pack: Pack) -> tuple[Action, ...]:
    """The card actions of a pack, by card id (made once per pack)."""
    if pack.french:
        return CARD_ACTIONS
    got = _PACK_ACTIONS.get(pack)
    if got is None:
        got = _PACK_ACTIONS[pack] = tuple(Action(CARD, "", c, pack) for c in range(pack.size))
    return got


def parse_action(text: str, pack: Pack | None = None) -> Action:
    """Read notation into an Action (no legality check); cards and suits are named by
    ``pack`` (absent: the French 52; a card with copies reads as its first copy).

    Raises InvalidActionError for text that is not notation at all.

    >>> parse_action("j♣"), parse_action("Pass"), parse_action("trump h")
    (Action('JC'), Action('pass'), Action('trump H'))
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is written as text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise InvalidActionError("empty action")
    if pack is not None and not pack.french:
        return _parse_in(pack, text, words)
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
    if len(words) == 2 and (k := ascii_number(words[1])) is not None:
        return Action(NUMBER, verb, k)
    mask = 0
    for w in words[1:]:
        c = parse_card(w)
        if c is None:
            raise InvalidActionError(f"{w!r} in {text!r} is not a card (write cards like 10H, JC, A♠)")
        if (mask >> c) & 1:
            raise InvalidActionError(f"{w!r} is named twice in {text!r}")
        mask |= 1 << c
    return Action(CARDS, verb, mask)


def pack_card_list(pack: Pack, mask: int) -> list[Action]:
    """The card actions of ``mask`` in a declared pack: one per card name (copies held
    play as one, the lowest id held: see :meth:`Pack.one_per_face`)."""
    actions = card_actions(pack)
    return [actions[c] for c in cards_in(pack.one_per_face(mask))]


def _parse_in(pack: Pack, text: str, words: list[str]) -> Action:
    """:func:`parse_action` for a declared pack."""
    if len(words) == 1:
        c = pack.parse_card(words[0])
        if c is not None:
            return card_actions(pack)[c]
        word = words[0].lower()
        if not word.replace("_", "").replace("-", "").isalnum():
            raise InvalidActionError(f"{text!r} is not an action (expected a card like "
                                     f"{pack.names[-1]}, or a word)")
        return Action(WORD, word)
    verb = words[0].lower()
    if not verb.replace("_", "").replace("-", "").isalpha():
        raise InvalidActionError(f"{text!r} is not an action")
    if len(words) == 2 and len(words[1]) == 1 and words[1].upper() in pack.suit_index:
        return Action(SUIT, verb, pack.suit_index[words[1].upper()], pack)
    if len(words) == 2 and (k := ascii_number(words[1])) is not None:
        return Action(NUMBER, verb, k)
    mask = 0
    for w in words[1:]:
        c = pack.parse_card(w)
        if c is None:
            raise InvalidActionError(f"{w!r} in {text!r} is not a card of this pack")
        c = next((x for x in pack.copies_of(c) if not (mask >> x) & 1), c)  # named again
        if (mask >> c) & 1:
            raise InvalidActionError(f"{w!r} is named too often in {text!r}")
        mask |= 1 << c
    return Action(CARDS, verb, mask, pack)
