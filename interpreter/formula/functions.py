"""The functions of the formula language, declared once: their names, forms and docs.

The parser's and the compiler's name sets (:data:`spelbok.formula.nodes.FUNCTIONS`,
``AGGREGATES``, ``CARD_FUNCTIONS``), the language's vocabulary
(:data:`spelbok.lang.vocabulary.FUNCTIONS`) and the reference's list all read this
table.  A function over cards is compiled by :mod:`spelbok.formula.card_functions`;
adding one is its line here and its case there.

>>> [f.name for f in FUNCTIONS if f.aggregate and f.scalar]
['max', 'min']
>>> sorted(f.name for f in FUNCTIONS if f.cards)[:3]
['cards_of', 'highest', 'holds']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FUNCTIONS", "Function"]


@dataclass(frozen=True)
class Function:
    """A function of the formula language: ``aggregate`` over all seats (one
    argument, read for each seat), ``scalar`` over its arguments, or both.

    ``arg`` names the aggregate's argument (``cond`` or ``expr``), ``params`` the
    scalar form's parameters, as the reference shows them.  ``cards``: a function over
    cards and card sets (compiled by :mod:`spelbok.formula.card_functions`)."""

    name: str
    aggregate: bool
    scalar: bool
    doc: str
    arg: str = "expr"
    params: str = "a, b, …"
    cards: bool = False


FUNCTIONS: tuple[Function, ...] = (
    Function("count", True, False, "how many seats meet the condition", arg="cond"),
    Function("any", True, False, "whether some seat meets the condition", arg="cond"),
    Function("all", True, False, "whether every seat meets the condition", arg="cond"),
    Function("sum", True, False, "the sum over all seats"),
    Function("max", True, True, "the largest over all seats, or of its arguments"),
    Function("min", True, True, "the smallest over all seats, or of its arguments"),
    Function("abs", False, True, "the absolute value", params="x"),
    Function("holds", False, True, "whether the seat's hand holds the card (`holds('AH')`: "
             "a card of the deck)", params="card", cards=True),
    Function("times_played", False, True, "how many cards the seat has played this hand that are "
             "the card (any copy) or match the pattern: `times_played('QC') > 0`, "
             "`times_played('A@trump')`", params="card", cards=True),
    Function("highest", False, True, "the card of the set that is highest in the trick order "
             "(trumps above the rest; -1, no card, for an empty set)", params="cards",
             cards=True),
    Function("lowest", False, True, "the card of the set that is lowest in the trick order",
             params="cards", cards=True),
    Function("trumps", False, True, "the trumps of a card set", params="cards", cards=True),
    Function("cards_of", False, True, "the cards of a card set in a suit (its effective "
             "suit, as a trick counts it)", params="cards, suit", cards=True),
    Function("rank_of", False, True, "a card's rank (`'10'`, `'A'`; `'none'` for no card)",
             params="card", cards=True),
    Function("suit_of", False, True, "a card's effective suit letter (`'none'` for no card)",
             params="card", cards=True),
    Function("is_trump", False, True, "whether a card is a trump", params="card", cards=True),
    Function("points_of", False, True, "the points of a card, or of a card set (the game's "
             "`points`; 0 without them)", params="card or cards", cards=True),
    Function("power", False, True, "a card's power in the current trick: 0 when it cannot "
             "win it (another suit, not a trump); a higher power beats a lower",
             params="card", cards=True),
    Function("seat_of", False, True, "the seat that played the card (any copy of it) to the "
             "trick in progress, in `after_each` to the trick just finished (-1 when none "
             "did): `seat_of(winning_card) == partner`", params="card", cards=True),
)
