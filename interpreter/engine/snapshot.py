"""Complete JSON-serialisable snapshots of a state, and back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cards import CARD_NAMES, FRENCH, Pack, cards_in
from ..errors import ActionError, SnapshotError, SpelbokError, did_you_mean
from ..lang.vocabulary import TRICK_RULES
from ..limits import MAX_CARDS, MAX_NOTATION, MAX_VALUE
from .actions import parse_action
from .fields import FIELDS, read
from .trick import TrickFlags

if TYPE_CHECKING:
    from .game import Game
    from .state import State

# the snapshot's fields, from the state's table (state.FIELDS), in the order it writes them
_WRITTEN = tuple(f for f in FIELDS if f.snapshot)
_INTS = tuple(f.snapshot for f in _WRITTEN if f.kind == "int")
_BOOLS = tuple(f.snapshot for f in _WRITTEN if f.kind == "bool")
_PER_SEAT = tuple(f.snapshot for f in _WRITTEN if f.kind in ("masks", "seats"))


def _names(mask: int, names: tuple[str, ...] = CARD_NAMES) -> list[str]:
    return [names[c] for c in cards_in(mask)]


def to_dict(st: State) -> dict[str, Any]:
    """A complete JSON-serialisable snapshot of ``st`` (see :func:`from_dict`)."""
    d: dict[str, Any] = {"game": st.game.name, "players": st.n, "options": dict(st.game.options)}
    for f in _WRITTEN:
        d[f.snapshot] = _WRITE[f.kind](st, read(st, f))
    return d


def _tricks(st: State, history: list[Any]) -> list[Any]:
    names = st.prog.pack.names
    return [[lead, [[p, names[c]] for p, c in cards], w] for lead, cards, w in history]


# how a snapshot writes a field of each kind (see state.StateField)
_WRITE: dict[str, Callable[[State, Any], Any]] = {
    "int": lambda st, v: v,
    "bool": lambda st, v: bool(v),
    "seat": lambda st, v: v,
    "value": lambda st, v: v,
    "mask": lambda st, m: _names(m, st.prog.pack.names),
    "masks": lambda st, ms: [_names(m, st.prog.pack.names) for m in ms],
    "cards": lambda st, cs: [st.prog.pack.names[c] for c in cs],
    # in its shuffled order (worked out on a copy: the state stays as it is)
    "stock": lambda st, cs: [st.prog.pack.names[c] for c in st.settled_stock()],
    "pairs": lambda st, t: [[p, st.prog.pack.names[c]] for p, c in t],
    "tricks": _tricks,
    "seats": lambda st, v: list(v),
    "list": lambda st, v: list(v),
    "rows": lambda st, rows: [list(r) for r in rows],
    "public": lambda st, pub: [[p, name, x if isinstance(x, int) else str(x)] for p, name, x in pub],
    "flags": lambda st, tf: None if tf is None else {
        k: getattr(tf, k) for k in TrickFlags.__dataclass_fields__},
    "history": lambda st, h: [str(a) for a in st.actions],
    "start": lambda st, v: dict(v),
}


_KEYS = ("game", "players", "options", *(f.snapshot for f in _WRITTEN))
# older snapshots may lack them
_OPTIONAL = ("widow", "public", "passing", "pattern", "pattern_seat", "meld_points",
             "meld_picks", "meld_cards", "meld_keys",
             "stock_closed", "auction", "shown", "trick_plain", "ask")
_START_KEYS = ("seed", "dealer", "deck", "position")


def _kind(x: Any) -> str:
    return "null" if x is None else type(x).__name__


def _short(x: Any, size: int = 20) -> str:
    """``x`` for a message: a scalar as text, cut short; a container by its kind (an
    untrusted one may be nested too deeply to print)."""
    if x is None or isinstance(x, (bool, str)) or type(x) is int and x.bit_length() < 1000:
        return str(x)[:size]
    return f"a {_kind(x)}" if not isinstance(x, int) else "a huge number"


def _what(x: Any) -> str:
    """``x`` described with its kind: ``str '3'``, ``a list``."""
    text = _short(x)
    return text if text.startswith("a ") and not isinstance(x, str) else f"{_kind(x)} {text!r}"


def _check_shape(game: Game, d: Any) -> dict[str, Any]:
    """The snapshot's own checks: keys, types, game, options, cards; SnapshotError when wrong."""
    if not isinstance(d, dict):
        raise SnapshotError(f"a snapshot is a dict made by State.to_dict(), not a {_kind(d)}")
    unknown = [k for k in d if k not in _KEYS]
    if unknown:
        k = _short(unknown[0], 40)
        raise SnapshotError(f"unknown key {k!r} in the snapshot", hint=did_you_mean(k, _KEYS))
    missing = [k for k in _KEYS if k not in d and k not in _OPTIONAL]
    if missing:
        raise SnapshotError(f"the snapshot lacks {', '.join(map(repr, missing[:5]))}")
    if d["game"] != game.name or type(d["players"]) is not int or d["players"] != game.players:
        raise SnapshotError(f"the snapshot is of '{_short(d['game'], 60)}' with "
                            f"{_short(d['players'])} players, not of {game!r}")
    options = d["options"]
    if not isinstance(options, dict):
        raise SnapshotError(f"'options' must be a map, not a {_kind(options)}")
    for k in options:
        if k not in game.options:
            raise SnapshotError(f"the snapshot names an unknown option '{_short(k, 40)}'",
                                hint=did_you_mean(_short(k, 40), list(game.options)))
    if options != game.options:
        given = ", ".join(f"{k}={_short(v)}" for k, v in options.items())
        mine = ", ".join(f"{k}={_short(v)}" for k, v in game.options.items())
        raise SnapshotError(f"the snapshot was made with options {given or 'none'}, this game "
                            f"has {mine or 'none'} (load it with those options)")
    for k in _INTS:
        if k not in d:  # an optional key (older snapshots)
            continue
        if type(d[k]) is not int or not -MAX_VALUE <= d[k] <= MAX_VALUE and k != "seed":
            raise SnapshotError(f"'{k}' must be an integer, not {_what(d[k])}")
    for k in _BOOLS:
        if k in d and type(d[k]) is not bool:
            raise SnapshotError(f"'{k}' must be true or false, not a {_kind(d[k])}")
    n = game.players
    for k in (*_PER_SEAT, "pv_rows"):
        if k in d and not isinstance(d[k], list):  # (an optional key may be absent)
            raise SnapshotError(f"'{k}' must be a list, not a {_kind(d[k])}")
    for k in _PER_SEAT:
        if k in d and len(d[k]) != n:
            raise SnapshotError(f"'{k}' must have one entry per seat ({n}), not {len(d[k])}")
    _check_cards(game, d)
    start = d["start"]
    if not isinstance(start, dict) or any(k not in _START_KEYS for k in start) \
            or type(start.get("seed")) is not int:
        raise SnapshotError("'start' must be a map with the seed (and dealer, deck or position)")
    deck = start.get("deck")
    if deck is not None:
        if not isinstance(deck, list) or len(deck) > 2 * MAX_CARDS \
                or not all(type(c) is str for c in deck):
            raise SnapshotError("the start's stacked 'deck' must be a list of card names")
        try:
            game._check_deck(deck)
        except SpelbokError as e:
            raise SnapshotError(f"the start's stacked deck: {e}") from None
    dealer = start.get("dealer")
    if dealer is not None and (type(dealer) is not int or not 0 <= dealer < n):
        raise SnapshotError(f"the first dealer must be a seat 0..{n - 1}, not {_short(dealer)}")
    actions = d["actions"]
    if not isinstance(actions, list) or not all(
            type(a) is str and len(a) <= MAX_NOTATION for a in actions):
        raise SnapshotError("'actions' must be a list of action notations")
    return d


def _card_list(value: Any, what: str, pack: Pack = FRENCH,
               taken: set[int] | None = None) -> list[int]:
    """The cards a snapshot lists (``taken``: the copies named so far, in a pack with copies)."""
    if not isinstance(value, list):
        raise SnapshotError(f"{what} must be a list of cards, not a {_kind(value)}")
    out = []
    taken = set() if taken is None else taken
    for name in value:
        c = pack.take_card(name, taken) if isinstance(name, str) and len(name) <= 8 else None
        if c is None:
            raise SnapshotError(f"'{_short(name)}' in {what} is not a card")
        out.append(c)
    return out


def _check_cards(game: Game, d: dict[str, Any]) -> None:
    """Every card of the pack in exactly one place (hands, stock, turn-up, tricks...)."""
    seen: dict[int, str] = {}
    places: list[tuple[str, Any]] = []
    for f in _WRITTEN:  # the zones (the tricks played are checked by the replay)
        value = d.get(f.snapshot, [])
        if not f.zone or f.kind == "tricks":
            continue
        if f.kind == "masks":
            places += [(f"{f.zone} {p}", h) for p, h in enumerate(value)]
        elif f.kind == "pairs":
            if not isinstance(value, list) or not all(isinstance(t, list) and len(t) == 2
                                                      for t in value):
                raise SnapshotError(f"'{f.snapshot}' must be a list of [seat, card] pairs")
            places.append((f.zone, [t[1] for t in value]))
        else:
            places.append((f.zone, value))
    deck = set(game.program.deck)
    pack = game.program.pack
    taken: set[int] = set()
    for where, cards in places:
        for c in _card_list(cards, where, pack, taken):
            if c not in deck:
                raise SnapshotError(f"{pack.names[c]} in {where} is not in this game's pack")
            if c in seen:
                raise SnapshotError(f"{pack.names[c]} is both in {seen[c]} and in {where}")
            seen[c] = where


def from_dict(game: Game, d: dict[str, Any]) -> State:
    """Rebuild the state a snapshot describes, checking it first (SnapshotError when wrong).

    After the checks of its shape, the match is replayed from its start (seed,
    dealer, stacked deck or position) with its actions, and the result must
    give the snapshot back: a snapshot that was changed by hand, or made by
    another version of the rules, is refused instead of giving a state that
    the rules could never reach.
    """
    _check_shape(game, d)
    start = dict(d["start"])
    if d.get("seed") != start["seed"]:
        # only determinize() gives a state a seed of its own
        raise SnapshotError("this is a snapshot of a determinized sample: its hidden cards "
                            "were re-dealt, not dealt by its start, so no replay can check "
                            "it (pickle the sample, or clone it, instead)")
    actions: list[str] = d["actions"]
    # the last replay is kept: snapshots of one match as it goes replay only what is new
    memo = game._replay_memo
    try:
        if memo is not None and memo[0] == start and memo[1] == actions[:len(memo[1])]:
            st, done = memo[2].clone(), len(memo[1])
        else:
            st, done = game._start(start, record=False), 0
        parsed: dict[str, Any] = {}
        for i in range(done, len(actions)):
            text = actions[i]
            try:
                a = parsed.get(text)
                if a is None:
                    a = parsed[text] = parse_action(text, game.program.pack)
                st.apply(a)
            except ActionError as e:
                raise SnapshotError(f"action {i + 1} of the snapshot ({text!r}) cannot be "
                                    f"replayed: {e}") from None
    except SnapshotError:
        raise
    except SpelbokError as e:
        raise SnapshotError(f"the snapshot's start cannot be replayed: {e}") from None
    game._replay_memo = (start, list(actions), st.clone())
    # what the last decision chose: legal_actions() may have reset it since, so it is not
    # replayed but taken from the snapshot, within what the rules could have set
    choice, count, cand = d["choice"], d["count"], d["cand"]
    if not (type(choice) is str and len(choice) <= MAX_NOTATION
            or type(choice) is int and -MAX_VALUE <= choice <= MAX_VALUE):
        raise SnapshotError(f"'choice' must be a word, a suit or a number, not a {_kind(choice)}")
    if not 0 <= count <= MAX_CARDS or not 0 <= cand < MAX_CARDS:
        raise SnapshotError(f"'count' ({count}) or 'cand' ({cand}) is out of range")
    st.choice, st.count, st.cand = choice, count, cand
    got = to_dict(st)
    for k in _KEYS:
        mine = d.get(k)
        if k == "tf" and isinstance(mine, dict):
            # a trick rule added since the snapshot was written holds its default there
            mine = {**{f: v for f, v in TRICK_RULES.items() if type(v) is bool}, **mine}
        if k in d and got[k] != mine:
            raise SnapshotError(f"the snapshot does not match its own history: '{k}' should be "
                                f"{_short(str(got[k]), 80)}, not {_short(d[k], 80)}")
    return st
