"""What a name in a formula means: the resolver protocol and the static types."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, TypeAlias

if TYPE_CHECKING:  # lark is imported lazily: importing this module must stay cheap
    pass

Value: TypeAlias = int | bool | str
"""A runtime value (``bool`` is kept apart from ``int`` by the type check)."""
TypeName: TypeAlias = Literal["int", "bool", "str", "card", "cards", "any"]
"""A static type; ``"any"`` means unknown (the checks are permissive then).  A ``card``
is an int 0..51 (see :mod:`spelbok.cards`; -1: no card), ``cards`` a set of cards as an
int bitmask (bit ``c`` is card ``c``)."""
Fn: TypeAlias = Callable[[Any, int], Any]
"""A compiled formula: ``fn(state, seat) -> value``."""

# -------------------------------------------------------------------- resolver


class NameInfo(NamedTuple):
    """What a name means, as answered by :meth:`Resolver.resolve`.

    ``NameInfo(kind, getter_or_value, type)``:

    - ``kind="const"``: ``value`` is the value itself (int/bool/str), e.g. an option;
      formulas using only constants fold at compile time.
    - ``kind="global"``: ``value`` is a getter ``g(state) -> value`` (hand/match
      variables, ``trump``, ``talon``...).
    - ``kind="player"``: ``value`` is a getter ``g(state, seat) -> value`` (per-player
      variables, ``tricks``, ``out``...).  Getters must not raise and must be pure.

    - ``kind="table"``: ``value`` is a :class:`~spelbok.formula.tables.ValueTable`, read
      as a function of its keys: ``game_base(game)``.

    ``type`` is ``"int"``, ``"bool"``, ``"str"`` (or the Python class) or
    ``"any"``/None when unknown; it drives the static type check.  For constants it
    may be left out and is taken from the value.

    Two optional fields let formulas run with fewer calls; both must agree with
    ``value``:

    - ``direct`` (``"global"``): the same getter taking ``(state, seat)``;
    - ``column`` (``"player"``): where every seat's value lies, as
      ``(attribute, row)``: the list ``state.<attribute>`` (``row`` None) or
      ``state.<attribute>[row]``, one item per seat.  Aggregates then read the
      list at once (``max(score)`` is one call of the built-in ``max``).
    """

    kind: str  # "const" | "global" | "player" | "table"
    value: Any
    type: Any = None
    direct: Any = None
    column: tuple[str, int | None] | None = None


class CardContext(NamedTuple):
    """What the card functions (``highest``, ``suit_of``...) read from a game, given by a
    resolver's optional ``cards`` attribute: ``tables(state)`` gives the current trump's
    tables (``suit``, ``trump``, ``power`` per card, ``suit_mask``, ``trump_mask``: see
    :mod:`spelbok.engine.order`), ``deck_mask`` the cards of the deck (card literals
    must be among them).  ``points(state, card)`` and ``set_points(state, mask)`` give the
    card points of a card and of a set under the current trump (None: the game declares
    none, and they are 0); ``power(state, card)`` a card's power in the current trick;
    ``pack`` the game's :class:`spelbok.cards.Pack` (None: the French 52)."""

    tables: Callable[[Any], Any]
    deck_mask: int
    points: Callable[[Any, int], int] | None = None
    set_points: Callable[[Any, int], int] | None = None
    power: Callable[[Any, int], int] | None = None
    pack: Any = None


class Resolver(Protocol):
    """Tells the compiler what names mean.  The engine implements it per loaded game.

    - ``nseats``: number of seats, fixed when the game is loaded; aggregates iterate
      ``for q in range(nseats)``.
    - ``resolve(name)``: a :class:`NameInfo`, or None when the name is unknown.
    - ``names()``: every known name (for "did you mean" hints only).

    A resolver may also have a ``cards`` attribute, a :class:`CardContext`: without
    it, the card functions are refused.

    :class:`DictResolver` is a ready-made implementation over a mapping.
    """

    @property
    def nseats(self) -> int: ...

    def resolve(self, name: str) -> NameInfo | None: ...

    def names(self) -> Iterable[str]: ...


class DictResolver:
    """A :class:`Resolver` over a mapping ``name -> NameInfo`` (plain int/bool/str
    values are taken as constants), with an optional :class:`CardContext`.  Handy in
    tests, tools and examples.

    >>> r = DictResolver(3, {"limit": 5, "score": NameInfo("player", lambda st, q: st[q], int)})
    >>> evaluate("sum(score) - limit", r, [1, 2, 3])
    1
    """

    def __init__(self, nseats: int, infos: Mapping[str, NameInfo | Value],
                 cards: CardContext | None = None) -> None:
        self.nseats = nseats
        self.cards = cards  # what the card functions read (None: they are refused)
        self._infos = {
            k: v if isinstance(v, NameInfo) else NameInfo("const", v) for k, v in infos.items()
        }

    def resolve(self, name: str) -> NameInfo | None:
        return self._infos.get(name)

    def names(self) -> Iterable[str]:
        return self._infos.keys()


def _norm_type(t: Any, value: Any = None, kind: str = "") -> TypeName:
    if t is None or t == "any" or t is Any:
        if kind == "const":
            t = type(value)
        else:
            return "any"
    if t in ("bool", bool):
        return "bool"
    if t in ("int", int):
        return "int"
    if t in ("str", str):
        return "str"
    if t in ("card", "cards"):
        return t
    return "any"
