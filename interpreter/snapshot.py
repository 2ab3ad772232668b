"""Complete JSON-serialisable snapshots of a state, and back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import parse_action
from .cards import CARD_NAMES, cards_in, parse_card
from .tricks import TrickFlags

if TYPE_CHECKING:
    from .game import Game
    from .state import State

_INTS = ("seed", "rng_n", "trick_pos", "led", "best_key", "best_seat",
         "best_led", "trick_no", "trump", "participants", "dealer", "hand_number",
         "hands_played", "pc", "count", "cand", "last_winner", "trick_stop")
_BOOLS = ("best_trumped", "broken", "limit_reached", "trick_scored")


def _names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_in(mask)]


def _mask(names: list[str]) -> int:
    m = 0
    for n in names:
        c = parse_card(n)
        assert c is not None
        m |= 1 << c
    return m


def to_dict(st: State) -> dict[str, Any]:
    st.settle()  # the stock in its shuffled order (the lazy shuffle changes nothing else)
    d: dict[str, Any] = {"game": st.game.name, "players": st.n, "options": dict(st.game.options)}
    for k in _INTS:
        d[k] = getattr(st, k)
    for k in _BOOLS:
        d[k] = bool(getattr(st, k))
    d["terminal"] = st.is_terminal
    d["current"] = st.current
    d["choice"] = st.choice
    d["hands"] = [_names(m) for m in st.hands]
    d["stock"] = [CARD_NAMES[c] for c in st.stock]
    d["turn_up"] = [CARD_NAMES[c] for c in st.turn_up]
    d["discards"] = _names(st.discards)
    d["widow"] = _names(st.widow)
    d["discarded"] = [_names(m) for m in st.discarded]
    d["known"] = [_names(m) for m in st.known]
    d["voids"] = list(st.voids)
    d["won"] = list(st.won)
    d["trick"] = [[p, CARD_NAMES[c]] for p, c in st.trick]
    d["trick_order"] = list(st.trick_order)
    d["tricks_history"] = [[lead, [[p, CARD_NAMES[c]] for p, c in cards], w]
                           for lead, cards, w in st.history_tricks]
    d["public"] = [[p, name, x if isinstance(x, int) else str(x)] for p, name, x in st.public]
    d["pv_rows"] = [list(r) for r in st.pv_rows]
    d["gv"] = list(st.gv)
    d["out"] = list(st.out)
    d["queue"] = list(st.queue)
    d["counters"] = list(st.counters)
    d["winners"] = list(st.winner_seats)
    d["tf"] = {k: getattr(st.tf, k) for k in TrickFlags.__dataclass_fields__} if hasattr(st, "tf") else None
    d["actions"] = [str(a) for a in st.actions]
    d["start"] = dict(st.start)
    return d


def from_dict(game: Game, d: dict[str, Any]) -> State:
    from .state import State

    st = State.__new__(State)
    st.game = game
    st.prog = game.program
    st.n = d["players"]
    if st.n != game.players or d.get("game") != game.name:
        from .errors import SpecError

        raise SpecError(f"snapshot is of {d.get('game')} with {st.n} players, not {game!r}")
    for k in _INTS:
        setattr(st, k, int(d[k]))
    for k in _BOOLS:
        setattr(st, k, bool(d[k]))
    st.is_terminal = bool(d["terminal"])
    st.current = d["current"]
    st.choice = d["choice"]
    st.hands = [_mask(h) for h in d["hands"]]
    st.stock = [parse_card(c) for c in d["stock"]]  # type: ignore[misc]
    st.turn_up = [parse_card(c) for c in d["turn_up"]]  # type: ignore[misc]
    st.discards = _mask(d["discards"])
    st.widow = _mask(d.get("widow", []))
    st.discarded = [_mask(h) for h in d["discarded"]]
    st.known = [_mask(h) for h in d["known"]]
    st.voids = list(d["voids"])
    st.won = list(d["won"])
    st.trick = [(p, parse_card(c)) for p, c in d["trick"]]  # type: ignore[misc]
    st.trick_order = list(d["trick_order"])
    st.history_tricks = [(lead, tuple((p, parse_card(c)) for p, c in cards), w)
                         for lead, cards, w in d["tricks_history"]]
    st.public = [(p, name, x if isinstance(x, int) else parse_action(x))
                 for p, name, x in d.get("public", [])]
    st.pv_rows = [list(r) for r in d["pv_rows"]]
    st.gv = list(d["gv"])
    st.out = list(d["out"])
    st.queue = list(d["queue"])
    st.counters = list(d["counters"])
    st.winner_seats = list(d["winners"])
    st.tf = TrickFlags(**d["tf"]) if d.get("tf") else TrickFlags()
    st.tables = game.program.tables[st.trump]
    st.start = dict(d["start"])
    st.stacked = None
    st.shuf = None
    st.settled = 0
    st.rec = None
    st.legal_cache = None
    hist: tuple[Any, ...] | None = None
    for text in d["actions"]:
        hist = (hist, parse_action(text))
    st.hist = hist
    # exchange actions keep their verb: re-read them against the same notation
    return st
