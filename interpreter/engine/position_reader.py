"""Reading the parts of a position (seats, cards, variables) and the error an impossible
position raises (see :mod:`spelbok.engine.position`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import SpecError
from ..limits import short_repr
from .actions import ascii_number

if TYPE_CHECKING:
    from .game import Game



#: Keys a position may use (besides the names of the spec's declared variables).
POSITION_KEYS = (
    "dealer", "trump", "hands", "turn_up", "talon", "leader", "trick", "tricks", "out",
    "hand_number", "vars", "phase", "step", "to_act", "round", "trumps_broken", "discarded",
    "widow", "tricks_played",
)

KeyPath = tuple[Any, ...]


class PositionError(SpecError):
    """An impossible or malformed position.

    ``key`` is the path of the offending entry inside the position map (e.g.
    ``("hands", "1")``).  Until a reading file locates it, ``str()`` reads
    ``position hands.1: message``.
    """

    # its public home, as tracebacks and the docs name it (spelbok.engine.position)
    __module__ = "spelbok.engine.position"

    def __init__(self, message: str, key: KeyPath = (), hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.key = tuple(key)

    @property
    def location(self) -> str:
        if self.path is None:
            return "position" + (" " + ".".join(str(k) for k in self.key) if self.key else "")
        return super().location


class _Reader:
    def __init__(self, game: Game, position: dict[str, Any]) -> None:
        self.game = game
        self.n = game.players
        self.pos = position
        self.pack = game.program.deck_mask
        self.card_pack = game.program.pack  # names the cards (copies: a name given again)
        self.taken: set[int] = set()
        self.placed: dict[int, str] = {}

    def seat(self, value: Any, key: KeyPath) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise PositionError(f"a seat is a number 0..{self.n - 1}, not {short_repr(value)}", key)
        s = value if isinstance(value, int) else ascii_number(value.strip(), 6)
        if s is None:  # ASCII digits only (int() would read '١' and refuse '²')
            raise PositionError(f"a seat is a number 0..{self.n - 1}, not {short_repr(value)}", key)
        if not 0 <= s < self.n:
            raise PositionError(
                f"there is no seat {s}: {self.game.name} is played here by {self.n} "
                f"players, seats 0..{self.n - 1}", key)
        return s

    def per_seat(self, value: Any, key: KeyPath, what: str) -> dict[int, tuple[Any, KeyPath]]:
        """``{seat: value}`` or a list with one value per seat."""
        out: dict[int, tuple[Any, KeyPath]] = {}
        if isinstance(value, list):
            if len(value) != self.n:
                raise PositionError(
                    f"{what}: a list needs one entry per seat ({self.n}), got {len(value)}; "
                    "or write a map {seat: ...}", key)
            for i, v in enumerate(value):
                out[i] = (v, (*key, i))
            return out
        if isinstance(value, dict):
            for k, v in value.items():
                out[self.seat(k, (*key, k))] = (v, (*key, k))
            return out
        raise PositionError(f"{what}: expected a map {{seat: ...}} or a list per seat", key)

    def cards(self, value: Any, key: KeyPath, zone: str) -> list[int]:
        """Cards written as ``"AS KH 10D"`` or a list; each placed once, in the pack."""
        if value is None:
            return []
        items: list[tuple[Any, KeyPath]]
        if isinstance(value, str):
            items = [(w, key) for w in value.replace(",", " ").split()]
        elif isinstance(value, list):
            items = [(w, (*key, i)) for i, w in enumerate(value)]
        else:
            raise PositionError(f"{zone}: write cards as 'AS KH 10D' or a list", key)
        out = []
        for text, where in items:
            c = self.card_pack.take_card(str(text), self.taken) if len(str(text)) <= 8 else None
            if c is None:
                raise PositionError(f"'{text}' is not a card (write cards like 10H, JC, A♠)", where)
            self.place(c, where, zone)
            out.append(c)
        return out

    def place(self, c: int, where: KeyPath, zone: str) -> None:
        if not (self.pack >> c) & 1:
            raise PositionError(
                f"{self.card_pack.names[c]} is not in the pack ({self.game.name} with {self.n} players "
                f"uses {self.pack.bit_count()} cards)", where)
        if c in self.placed:
            raise PositionError(
                f"{self.card_pack.names[c]} is in two places: {self.placed[c]} and {zone}", where)
        self.placed[c] = zone


def _coerce_var(name: str, value: Any, init: Any, key: KeyPath) -> Any:
    if isinstance(init, bool):
        if isinstance(value, bool):
            return value
        raise PositionError(f"'{name}' is true or false, not {short_repr(value)}", key)
    if isinstance(init, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise PositionError(f"'{name}' is a whole number, not {short_repr(value)}", key)
    if isinstance(value, str):
        return value
    raise PositionError(f"'{name}' is text, not {short_repr(value)}", key)


def _bare_flag(text: Any, game: Game) -> str | None:
    """The variable name when a condition is just a declared per-player flag."""
    name = str(text).strip()
    prog = game.program
    if name in prog.pvar_names and isinstance(prog.player_init[prog.pvar_names.index(name)], bool):
        return name
    return None


def _as_list(value: Any, key: KeyPath) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return [value]
    raise PositionError("expected a list of seats", key)
