"""The names a formula may read in every game, with their static types, and a resolver
for type checks alone.

:data:`BUILTIN_TYPES` is the one table of each built-in name's kind (``player``: one
value per seat, ``global``: one per state, ``const``: fixed when the game loads) and
type: the engine's resolver (:class:`spelbok.engine.resolver.Resolver`) gives each the
getter that reads it in play, and :class:`TypeResolver` gives none, for the checks
that only need to know what a formula's value is (validation's checks of every
formula, :mod:`spelbok.lang.compile_checks`, and its promise checks: nothing is
evaluated, so no game is compiled).  Given the deck's cards as a mask, it refuses a
card literal outside them, as the engine's resolver does.

>>> r = TypeResolver(4, {"target": 21}, {"score": 0}, {"round": 1}, {"score": int})
>>> from spelbok.formula import compile_formula
>>> compile_formula("score + target > tricks", r, per_player=True).type
'bool'
>>> r.resolve("hand").type, r.resolve("seats").value
('cards', 4)
>>> small = TypeResolver(4, {}, {}, {}, deck_mask=0b1)
>>> compile_formula("holds('2C')", small, per_player=True).type
'bool'
>>> compile_formula("holds('AS')", small, per_player=True)
Traceback (most recent call last):
...
spelbok.errors.FormulaError: <spec>:1:7: the card AS is not in this game's deck
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import FRENCH, Pack
from .names import CardContext, NameInfo

#: Each built-in name's kind and static type (a Python class, ``"card"``, ``"cards"``, or
#: None: of several types), in the order the resolvers list them.
BUILTIN_TYPES: dict[str, tuple[str, Any]] = {
    "seat": ("player", int),
    "out": ("player", bool),
    "sits_out": ("player", bool),
    "tricks": ("player", int),
    "cards": ("player", int),
    "is_dealer": ("player", bool),
    "order": ("player", int),
    "hand_number": ("global", int),
    "trump": ("global", str),
    "tricks_played": ("global", int),
    "talon": ("global", int),
    "turn_up": ("global", int),
    "seats": ("const", int),
    "dealer": ("global", int),
    "choice": ("global", None),
    "count": ("global", int),
    "card_suit": ("global", str),
    "card_rank": ("global", str),
    "card_is_trump": ("global", bool),
    "led_suit": ("global", str),
    "trumps_broken": ("global", bool),
    "trick_number": ("global", int),
    "turn_up_suit": ("global", str),
    "turn_up_rank": ("global", str),
    "last_winner": ("global", int),
    "tied_by": ("global", int),
    "tied_tricks": ("global", int),
    "hand": ("player", "cards"),
    "discarded": ("player", "cards"),
    "meld_points": ("player", int),
    "failed_throws": ("player", int),
    "melds_made": ("player", int),
    "trick": ("global", "cards"),
    "led_card": ("global", "card"),
    "winning_card": ("global", "card"),
    "turn_up_cards": ("global", "cards"),
    "widow": ("global", "cards"),
    "card": ("global", "card"),
    "pattern": ("global", str),
    "stock_closed": ("global", bool),
    "mode": ("global", str),
    "pattern_seat": ("global", int),
    "team": ("player", int),
    "partner": ("player", int),
    "team_tricks": ("player", int),
    "tricks_won": ("player", "cards"),
    "team_tricks_won": ("player", "cards"),
    "card_points": ("player", int),
    "team_card_points": ("player", int),
    "played": ("global", "cards"),
    "contract": ("global", str),
    "contract_level": ("global", int),
    "contract_aim": ("global", int),
    "contract_points": ("global", int),
    "contract_negative": ("global", bool),
    "declarer_seat": ("global", int),
    "doubled": ("global", int),
    "called_card": ("global", "card"),
    "is_declarer": ("player", bool),
    "declarer_team": ("player", bool),
    "bid_of": ("player", str),
}


def value_type(v: Any) -> type:
    """The type of a literal value (an option's or a variable's initial value).

    >>> value_type(True), value_type(3), value_type("H")
    (<class 'bool'>, <class 'int'>, <class 'str'>)
    """
    return bool if isinstance(v, bool) else int if isinstance(v, int) else str


def _nothing(*_: Any) -> None:
    """The getter of a name a type check never reads."""
    return None


class TypeResolver:
    """The names of one game's formulas (options, variables, built-ins), with their kinds
    and types and no getters: for type checks, never for play (see the module doc)."""

    def __init__(self, n: int, options: dict[str, Any], pvars: dict[str, int],
                 gvars: dict[str, int], var_types: dict[str, type] | None = None,
                 pack: Pack = FRENCH, deck_mask: int | None = None) -> None:
        self.nseats = n
        self.table: dict[str, NameInfo] = {}
        for name, value in options.items():
            self.table[name] = NameInfo("const", value, value_type(value))
        types = var_types or {}
        for name in pvars:
            self.table[name] = NameInfo("player", _nothing, types.get(name))
        for name in gvars:
            self.table[name] = NameInfo("global", _nothing, types.get(name), direct=_nothing)
        for name, (kind, type_) in BUILTIN_TYPES.items():
            self.table[name] = (NameInfo(kind, n, type_) if kind == "const" else
                                NameInfo(kind, _nothing, type_,
                                         direct=_nothing if kind == "global" else None))
        # card literals must be among the deck's cards (by default, the whole pack's)
        mask = (1 << len(pack.names)) - 1 if deck_mask is None else deck_mask
        self.cards: CardContext | None = CardContext(_nothing, mask, pack=pack)

    def resolve(self, name: str) -> NameInfo | None:
        return self.table.get(name)

    def names(self) -> Iterable[str]:
        return self.table.keys()
