"""Positions: start a match from a described moment of a hand (like chess's FEN).

A *position* is a small, partial, readable map.  Everything left out gets a
sensible default, so a historian writes only what the rule under test needs::

    dealer: 0                 # seat; default 0
    trump: H                  # suit letter or 'none'; default: the turn-up's suit, else none
    hands: {1: "JS 7C", 2: "JC 8C"}    # or a list per seat; seats left out hold nothing
    turn_up: "7H"             # the public turn-up zone; default empty
    widow: "9D 9C"            # a spare hand dealt face down (for games that have one)
    talon: "9S 8H"            # the stock, top card first; default: every card not
                              # placed elsewhere, shuffled with the seed
    leader: 1                 # who leads the current trick; default as the rules say
    trick: [AS, 7S]           # cards already played to it, in turn from the leader
                              # ('knock' for a player who knocked)
    tricks: {1: 2, 2: 1}      # tricks taken this hand (or a list per seat)
    out: [3]                  # eliminated seats
    hand_number: 4
    vars: {score: [12, 9, 12], plays: [true, true, false]}   # any declared variable
    exchanged: {1: 2}         # ... or a declared variable as a key of its own
    phase: tricks             # tricks (default) | after tricks | a decision's name
                              # ('exchange', 'announce 2' for the second one) | a
                              # step's label; 'tricks 2': the second tricks step
    tricks_played: 12         # tricks already played this hand, scored or not
    to_act: 2                 # at a decision: who decides now (default: the first)
    round: 2                  # inside a `repeat`: which round (default 1)
    trumps_broken: true       # for `lead_trumps: broken`

When a spec's trick players are a plain per-player flag (such as
``players: plays``) and the position does not set it, the flag is set for
exactly the seats holding cards (for ``phase: after tricks``: every seat
still in).  Cards not placed anywhere are out of play
(in the discard pile) when ``talon`` is given, else they make up the talon.

Impossible positions raise :class:`PositionError` (a :class:`SpecError`)
naming the key inside the position that is wrong; :mod:`spelbok.analysis.readings`
locates it in the reading file.

>>> import spelbok
>>> game = spelbok.load("example", players=3)
>>> st = game.new_state(position={"trump": "H", "leader": 1,
...     "hands": {0: "7C 8C", 1: "9C", 2: "AH KC"}, "trick": ["JS"]})
>>> st.current_player, [str(a) for a in st.legal_actions()]
(2, ['AH'])
>>> game.new_state(position={"hands": {0: "7C", 1: "7C"}})
Traceback (most recent call last):
...
spelbok.engine.position.PositionError: position hands.1: 7C is in two places: hands.0 and hands.1
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import ActionError, SpecError, did_you_mean
from ..lang.vocabulary import step_kind, walk_steps
from ..limits import short_repr
from .actions import Action, ascii_number, card_actions
from .order import NO_TRUMP
from .program import Origin, Phase

if TYPE_CHECKING:
    from .game import Game
    from .program import Program
    from .state import State

__all__ = ["POSITION_KEYS", "Phase", "PositionError", "start_from_position", "hand_steps",
           "find_phase"]

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

    def __init__(self, message: str, key: KeyPath = (), hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.key = tuple(key)

    @property
    def location(self) -> str:
        if self.path is None:
            return "position" + (" " + ".".join(str(k) for k in self.key) if self.key else "")
        return super().location


# -- the spec's steps, in the order the compiler emits them ----------------------------------


def _walk(steps: Any, path: KeyPath) -> Iterator[tuple[str, dict[str, Any], KeyPath]]:
    """``(kind, step, path)`` of each step, depth first, in compile order (the
    paths are the keys of ``Program.step_pcs``; the vocabulary's walker)."""
    for at, step in walk_steps(steps if isinstance(steps, list) else [], path):
        if isinstance(step, dict):
            yield step_kind(step) or "", step, at


def hand_steps(tree: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each step of the hand as ``(kind, step)``, depth first, in compile order
    (the steps run after each trick follow their ``tricks`` step).

    >>> import spelbok
    >>> [k for k, _ in hand_steps(spelbok.load("example").tree)][:4]
    ['deal', 'turn_up', 'decide', 'decide']
    """
    for kind, step, _ in _walk(tree.get("hand"), ("hand",)):
        yield kind, step


def step_at(tree: dict[str, Any], path: KeyPath) -> dict[str, Any]:
    """The step of the spec tree at ``path`` (a key of ``Program.step_pcs``)."""
    node: Any = tree
    for key in path:
        node = node[key]
    return dict(node)


def _tricks_of(prog: Program, phase: Phase) -> Origin | None:
    """The tricks step a phase is in (or is, or is just after): a phase inside its
    `after_each` stands between two tricks.  None outside trick play."""
    if phase.kind in ("trick", "after tricks"):
        return prog.step_origin(phase.path)
    return prog.enclosing(phase.path, "tricks")


def find_phase(game: Game, text: Any) -> Phase:
    """Resolve a ``phase`` value: ``tricks``, ``after tricks``, a decision's name
    (``exchange``, ``announce 2``: the second of that name) or a step's ``label``.

    >>> import spelbok
    >>> g = spelbok.load("example")
    >>> p = find_phase(g, "exchange"); (p.kind, p.name, g.program.origin(p.pc).part)
    ('decide', 'exchange', 'start')
    >>> find_phase(g, "bid")
    Traceback (most recent call last):
    ...
    spelbok.engine.position.PositionError: position phase: Example has no step 'bid'; phases are: tricks, after tricks, swap, announce, exchange, deal, turn-up, too few play, redeal, score
    """
    prog = game.program
    entries = list(_walk(game.tree.get("hand"), ("hand",)))

    def origin(path: KeyPath) -> Origin:
        if path not in prog.step_pcs:  # pragma: no cover - the compiler records every step
            raise PositionError(f"cannot start at '{text}'", ("phase",))
        return prog.step_origin(path)

    trick_steps = [(s, path) for k, s, path in entries if k == "tricks"]
    decide_steps = [(s, path) for k, s, path in entries if k == "decide"]
    labelled = [(k, s, path) for k, s, path in entries if isinstance(s.get("label"), str)]
    words = str(text).split()
    nth = 1
    if len(words) > 1 and (k := ascii_number(words[-1], 6)) is not None:
        nth = k
        words = words[:-1]
    name = " ".join(words).lower()
    names = ["tricks", "after tricks"]
    for s, _ in decide_steps:
        if str(s["decide"]) not in names:
            names.append(str(s["decide"]))
    names += [str(s["label"]) for _, s, _ in labelled if str(s["label"]) not in names]
    if name in ("tricks", "after tricks") and trick_steps:
        if not 1 <= nth <= len(trick_steps):
            raise PositionError(f"there are only {len(trick_steps)} tricks step(s)", ("phase",))
        step, path = trick_steps[nth - 1]
        o = origin(path)
        if name == "after tricks":
            return Phase("after tricks", o.label, 0, path, o.end)
        return Phase("trick", o.label, 0, path, o.first)
    matching = [(s, path) for s, path in decide_steps if str(s["decide"]).lower() == name]
    if matching:
        if not 1 <= nth <= len(matching):
            raise PositionError(f"there are only {len(matching)} '{name}' decision(s)", ("phase",))
        step, path = matching[nth - 1]
        return Phase("decide", str(step["decide"]), 0, path, origin(path).first)
    for kind, step, path in labelled:
        if str(step["label"]).lower() == str(text).strip().lower():
            o = origin(path)
            return Phase("trick" if kind == "tricks" else kind, o.name or o.label, 0, path,
                         o.first)
    raise PositionError(
        f"{game.name} has no step '{text}'; phases are: {', '.join(names)}",
        ("phase",),
        hint=did_you_mean(name, names),
    )


# -- reading the parts of a position ---------------------------------------------------------


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


# -- the entry point -----------------------------------------------------------------------------


def start_from_position(game: Game, st: State, position: dict[str, Any]) -> None:
    """Set up ``st`` (a fresh match) at the moment ``position`` describes.

    Called by :meth:`spelbok.Game.new_state` with ``position=``; the caller then
    runs the program from ``st.pc``.  Raises :class:`PositionError`.

    >>> import spelbok
    >>> g = spelbok.load("example", players=3)
    >>> st = g.new_state(position={"phase": "exchange", "hands": {0: "7C 8C 9C 10C QC",
    ...     1: "7S 8S 9S 10S QS", 2: "7H 8H 9H 10H QH"}, "talon": "AC AS", "trump": "D",
    ...     "vars": {"plays": [True, True, False]}, "to_act": 1})
    >>> st.current_player, len(st.stock), max(len(a.cards) for a in st.legal_actions())
    (1, 2, 2)
    """
    if not isinstance(position, dict):
        raise PositionError("a position is a map (dealer, trump, hands, trick, ...)")
    prog = game.program
    n = game.players
    rd = _Reader(game, position)
    known = list(POSITION_KEYS) + prog.pvar_names + prog.gvar_names
    for k in position:
        if k not in known:
            raise PositionError(f"unknown key '{k}' in a position", (k,),
                                hint=did_you_mean(str(k), known))

    # -- match-level fields, then a fresh hand (every field at its start value)
    st.pv_rows = [[v] * n for v in prog.player_init]
    st.gv = list(prog.global_init)
    st.out = [False] * n
    for i, s in enumerate(_as_list(position.get("out"), ("out",))):
        st.out[rd.seat(s, ("out", i))] = True
    hand_number = position.get("hand_number", 1)
    if isinstance(hand_number, bool) or not isinstance(hand_number, int) or hand_number < 1:
        raise PositionError(f"hand_number is 1 or more, not {short_repr(hand_number)}", ("hand_number",))
    st.hand_number = hand_number
    st.hands_played = hand_number - 1
    dealer = rd.seat(position.get("dealer", 0), ("dealer",))
    st.dealer = dealer
    prog.start_hand(st)

    # -- variables (after start_hand, which resets the per-hand ones)
    given_vars: set[str] = set()
    vars_map = position.get("vars", {}) or {}
    if not isinstance(vars_map, dict):
        raise PositionError("vars: expected a map {name: values}", ("vars",))
    entries: list[tuple[Any, Any, KeyPath]] = [(k, v, ("vars", k)) for k, v in vars_map.items()]
    entries += [(k, v, (k,)) for k, v in position.items()
                if k in prog.pvar_names or k in prog.gvar_names]
    for name, value, key in entries:
        name = str(name)
        if name in prog.pvar_names:
            row = prog.pvar_names.index(name)
            init = prog.player_init[row]
            for seat, (v, where) in rd.per_seat(value, key, name).items():
                st.pv_rows[row][seat] = _coerce_var(name, v, init, where)
        elif name in prog.gvar_names:
            slot = prog.gvar_names.index(name)
            st.gv[slot] = _coerce_var(name, value, prog.global_init[slot], key)
        else:
            names = prog.pvar_names + prog.gvar_names
            raise PositionError(f"{game.name} declares no variable '{name}'", key,
                                hint=did_you_mean(name, names))
        given_vars.add(name)

    # -- cards
    hands = [0] * n
    hands_given = position.get("hands")
    if hands_given is not None:
        for seat, (v, where) in rd.per_seat(hands_given, ("hands",), "hands").items():
            for c in rd.cards(v, where, f"hands.{where[-1]}"):
                hands[seat] |= 1 << c
    for s in range(n):
        if st.out[s] and hands[s]:
            raise PositionError(f"seat {s} is out of the match but holds cards", ("hands", s))
    turn_up = rd.cards(position.get("turn_up"), ("turn_up",), "turn_up")
    discarded = [0] * n
    if position.get("discarded") is not None:
        for seat, (v, where) in rd.per_seat(position["discarded"], ("discarded",),
                                            "discarded").items():
            for c in rd.cards(v, where, f"discarded.{where[-1]}"):
                discarded[seat] |= 1 << c
    trick_items = position.get("trick") or []
    if isinstance(trick_items, str):
        trick_items = trick_items.split()
    if not isinstance(trick_items, list):
        raise PositionError("trick: write the cards played, in turn from the leader", ("trick",))
    trick: list[tuple[int | None, KeyPath]] = []
    for i, text in enumerate(trick_items):
        if str(text).strip().lower() in ("knock", "-"):
            trick.append((None, ("trick", i)))
            continue
        cs = rd.cards(str(text), ("trick", i), "the trick")
        if len(cs) != 1:
            raise PositionError("one card per entry of the trick", ("trick", i))
        trick.append((cs[0], ("trick", i)))
    widow = rd.cards(position.get("widow"), ("widow",), "widow")
    talon_given = position.get("talon")
    talon = rd.cards(talon_given, ("talon",), "talon")
    rest = [c for c in prog.deck if c not in rd.placed]
    if talon_given is None:
        st.shuffle(rest)
        stock = rest  # top card last
        leftover = 0
    else:
        stock = list(reversed(talon))
        leftover = sum(1 << c for c in rest)
    st.hands = hands
    st.stock = stock
    st.shuf = None
    st.settled = 0
    st.turn_up = turn_up
    st.discarded = discarded
    st.widow = sum(1 << c for c in widow)
    st.discards = leftover
    for m in discarded:
        st.discards |= m

    # -- trump
    trump_text = position.get("trump")
    if trump_text is None:
        suit = prog.pack.suit[turn_up[0]] if turn_up else NO_TRUMP
        suit = NO_TRUMP if suit < 0 else suit
    elif str(trump_text).lower() in ("none", "no trump", "no trumps"):
        suit = NO_TRUMP
    else:
        t = str(trump_text).strip().upper()
        if t not in prog.pack.suit_index:
            raise PositionError(f"trump is a suit letter {', '.join(prog.pack.letters)} (or none), "
                                f"not {short_repr(trump_text)}", ("trump",))
        suit = prog.pack.suit_index[t]
    prog.set_trump(st, suit)

    tricks_given = position.get("tricks")
    if tricks_given is not None:
        for seat, (v, where) in rd.per_seat(tricks_given, ("tricks",), "tricks").items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise PositionError(f"tricks taken is a whole number, not {short_repr(v)}", where)
            st.won[seat] = v
    broken = position.get("trumps_broken", False)
    if not isinstance(broken, bool):
        raise PositionError("trumps_broken is true or false", ("trumps_broken",))

    # -- where in the hand
    phase_key = "phase" if "phase" in position else "step"
    label = str(position.get(phase_key, "tricks"))
    try:
        phase = find_phase(game, position.get(phase_key, "tricks"))
    except PositionError as e:
        e.key = (phase_key,)
        raise
    tricks = _tricks_of(prog, phase)
    between = phase.kind not in ("trick", "after tricks") and tricks is not None  # in `after_each`
    for name in ("leader", "trick"):
        if name in position and phase.kind != "trick" and not (between and name == "leader"):
            raise PositionError(f"'{name}' belongs to a position in trick play, not at "
                                f"'{label}'", (name,))
    if "to_act" in position and phase.kind != "decide":
        raise PositionError("'to_act' is for a decision; in trick play, whose turn it is "
                            "follows from 'leader' and 'trick'", ("to_act",))
    if "tricks_played" in position and tricks is None:
        raise PositionError("'tricks_played' is for a position in or after trick play",
                            ("tricks_played",))
    _set_rounds(st, phase, position.get("round", 1))
    st.current = None
    st.pc = phase.pc
    if tricks is not None and (phase.kind == "trick" or between):
        _place_tricks(game, st, position, phase, tricks, trick, given_vars, broken)
        if phase.kind == "decide":
            _place_decision(game, st, position, phase)
    elif tricks is not None and phase.kind == "after tricks":
        ts: Any = prog.code[tricks.first]  # the step's start: its count
        if ts.count is None:  # a step without a count plays until the hands are empty
            for s in range(n):
                if hands[s]:
                    raise PositionError("after the tricks every hand is empty", ("hands", s))
        flag = _bare_flag(step_at(game.tree, tricks.path)["tricks"].get("players", "not out"),
                          game)
        if flag is not None and flag not in given_vars:
            # no word on who played: everyone still in did
            st.pv_rows[prog.pvar_names.index(flag)] = [not o for o in st.out]
        before, played, count = _tricks_played(game, st, position, tricks)
        if count is not None and "tricks_played" not in position:
            played = count  # the step is over: it played all its tricks
        elif count is not None and played != count:
            raise PositionError(f"after these tricks the step has played its {count} tricks, "
                                f"not {played}", ("tricks_played",))
        st.trick_no = before + played
        st.pc = phase.pc
    elif phase.kind == "decide":
        _place_decision(game, st, position, phase)
    if st.rec is not None:
        st.event("position", phase=label, scores=st.scores)


def _as_list(value: Any, key: KeyPath) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return [value]
    raise PositionError("expected a list of seats", key)


def _set_rounds(st: State, phase: Phase, rnd: Any) -> None:
    if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
        raise PositionError(f"round is 1 or more, not {short_repr(rnd)}", ("round",))
    prog = st.game.program
    # the repeat steps around the phase's step, outermost first: each in its first round
    slots: list[int] = []
    for i in range(1, len(phase.path)):
        if phase.path[:i] in prog.step_pcs and prog.step_origin(phase.path[:i]).kind == "repeat":
            init: Any = prog.code[prog.part_pc(phase.path[:i], "init")]
            slots.append(init.slot)
            st.counters[init.slot] = 1
    if slots:
        st.counters[slots[-1]] = rnd
    elif rnd != 1:
        raise PositionError("'round' is only for a decision repeated in rounds", ("round",))


def _reached(prog: Program, path: KeyPath, st: State) -> bool:
    """Whether the hand, as the position stands, got to the step at ``path``: no `when`
    of it or a step around it, and no `if` around it, skips it (loops are not followed)."""
    code: list[Any] = prog.code
    for i in range(2, len(path) + 1):
        at = path[:i]
        if at not in prog.step_pcs:
            continue
        o = prog.step_origin(at)
        guard = prog.origin(o.first - 1)
        if guard is not None and guard.path == at and guard.part == "when" \
                and not code[o.first - 1].cond(st, 0):
            return False
        # in an `if`: in its `then` when its test holds, else in its `else`
        if o.kind == "if" and i < len(path) \
                and code[prog.part_pc(at, "test")].cond(st, 0) != (path[i] == "then"):
            return False
    return True


def _tricks_played(game: Game, st: State, position: dict[str, Any], tricks: Origin
                   ) -> tuple[int, int, int | None]:
    """``(before, played, count)`` for the tricks step ``tricks``: the tricks the
    earlier tricks steps of the hand played, those this step has played, and its
    ``count`` (None: until the hands are empty).

    Counts are evaluated in the position; an earlier step without one adds nothing.
    ``tricks_played`` in the position gives the hand's total; else this step has
    played the tricks taken (``tricks``) that the earlier steps did not score (none,
    when this step's tricks are not scored)."""
    prog = game.program
    code: list[Any] = prog.code  # each tricks step's start: its count and whether it scores
    before = scored_before = 0
    for o in prog.starts("tricks"):
        ins = code[o.first]
        if o.first < tricks.first and ins.count is not None and _reached(prog, o.path, st):
            c = max(0, int(ins.count(st, 0)))
            before += c
            if ins.scored:
                scored_before += c
    ts = code[tricks.first]
    count = None if ts.count is None else max(0, int(ts.count(st, 0)))
    given = position.get("tricks_played")
    if given is None:
        played = max(0, sum(st.won) - scored_before) if ts.scored else 0
    elif isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise PositionError(f"tricks_played is a whole number, not {short_repr(given)}", ("tricks_played",))
    elif given < before:
        raise PositionError(f"the earlier tricks steps of the hand play {before} tricks, so "
                            f"tricks_played is at least {before}", ("tricks_played",))
    else:
        played = given - before
    return before, played, count


def _tricks_index(prog: Program, tricks: Origin) -> int:
    """How many tricks steps come before ``tricks``."""
    return sum(1 for o in prog.starts("tricks") if o.first < tricks.first)


def _place_decision(game: Game, st: State, position: dict[str, Any], phase: Phase) -> None:
    prog = game.program
    start: Any = prog.code[prog.part_pc(phase.path, "start")]
    decide: Any = prog.code[prog.part_pc(phase.path, "decide")]
    start.run(st)  # the queue of deciders; pc moves to the Decide
    if "to_act" in position:
        seat = _Reader(game, position).seat(position["to_act"], ("to_act",))
        if seat not in st.queue:
            raise PositionError(f"seat {seat} does not take the '{decide.name}' decision here "
                                f"(deciders: {', '.join(map(str, st.queue)) or 'none'})",
                                ("to_act",))
        while st.queue[0] != seat:
            st.queue.pop(0)
        if decide.where is not None and not decide.where(st, seat):
            cond = step_at(game.tree, phase.path).get("where", "")
            raise PositionError(f"seat {seat} does not decide '{decide.name}' here "
                                f"(where: {cond})", ("to_act",))


def _place_tricks(game: Game, st: State, position: dict[str, Any], phase: Phase,
                  tricks: Origin, trick: list[tuple[int | None, KeyPath]], given_vars: set[str],
                  broken: bool) -> None:
    n = st.n
    prog = game.program
    ts: Any = prog.code[tricks.first]
    play: Any = prog.code[prog.part_pc(tricks.path, "play")]
    between = phase.kind != "trick"  # at a step run after a trick: no trick is under way
    players_text = step_at(game.tree, tricks.path)["tricks"].get("players", "not out")
    rd = _Reader(game, position)
    given_leader = rd.seat(position["leader"], ("leader",)) if "leader" in position else None
    holding = [s for s in range(n) if st.hands[s]]
    flag = _bare_flag(players_text, game)
    # hands given but no word on who plays: those holding cards (and the leader) play
    if flag is not None and flag not in given_vars and holding:
        row = game.program.pvar_names.index(flag)
        st.pv_rows[row] = [bool(st.hands[s]) or s == given_leader for s in range(n)]

    def takes_part(p: int) -> bool:
        return not st.out[p] and bool(ts.players(st, p))

    for s in holding:
        if not takes_part(s):
            raise PositionError(
                f"seat {s} holds cards but does not take part in these tricks "
                f"(players: {players_text})", ("hands", s))
    if given_leader is not None:
        leader = given_leader
        if not takes_part(leader):
            raise PositionError(f"seat {leader} does not take part in these tricks "
                                f"(players: {players_text})", ("leader",))
    else:
        chosen = ts.leader(st)
        if not chosen:
            raise PositionError("nobody takes part in these tricks: give 'hands'", ("hands",))
        leader = chosen[0]
    part = [p for p in ((leader + i) % n for i in range(n)) if takes_part(p)]
    if len(trick) > len(part):
        raise PositionError(
            f"the trick has {len(trick)} cards but only {len(part)} players take part",
            ("trick",))
    seats = part[:len(trick)]
    # the cards in the trick were in their players' hands when it began
    for (c, _), s in zip(trick, seats):
        if c is not None:
            st.hands[s] |= 1 << c
    sizes = {p: st.hands[p].bit_count() for p in part}
    if between:  # hands may differ between tricks (some have drawn, others not yet)
        sizes = {}
    elif not any(sizes.values()):
        raise PositionError("nobody taking part holds a card: give 'hands'", ("hands",))
    if ts.play.abstain is None and len(set(sizes.values())) > 1:
        counts = list(sizes.values())
        usual = max(set(counts), key=counts.count)
        odd = next(p for p in part if sizes[p] != usual)
        played = {s for (c, _), s in zip(trick, seats) if c is not None}
        detail = ", ".join(
            f"seat {p} {sizes[p] - 1} + 1 in the trick" if p in played else f"seat {p} {sizes[p]}"
            for p in part)
        raise PositionError(
            "every player in the tricks must hold as many cards as the others "
            f"(counting a card already played to this trick): {detail}", ("hands", odd))
    before, done, count = _tricks_played(game, st, position, tricks)
    if count is not None and (done > count or (done == count and not between)):
        key = "tricks_played" if "tricks_played" in position else "tricks"
        raise PositionError(
            f"this tricks step plays {count} trick(s), and {done} have been played",
            (key,), hint=f"the step is over: start at 'after tricks "
                         f"{_tricks_index(prog, tricks) + 1}' or a later step")
    if between:
        done = max(done, 1)  # a trick has just been played
    st.trick_no = before  # the step's count runs from its first trick
    st.pc = tricks.first
    ts.run(st)  # flags, participants and the step's last trick; pc moves to the TrickPlay
    st.trick_no = before + done
    st.broken = broken
    if done:  # the last trick was won by `leader` (who leads this one, or the next)
        st.last_winner = leader
    if between:
        st.trick_order = []
        st.trick = []
        st.led = -1
        st.pc = phase.pc
        return
    if st.hands[leader] == 0:
        raise PositionError(f"seat {leader} leads but holds no card", ("leader",))
    play.begin_trick(st, leader)
    for (c, where), s in zip(trick, seats):
        seat = st.trick_order[st.trick_pos] if st.trick_pos < len(st.trick_order) else -1
        if seat != s:
            raise PositionError(f"seat {s} holds no card, so it cannot have played to the trick",
                                where)
        action: Action = play.knock if c is None else card_actions(st.prog.pack)[c]
        st.current = seat
        reason = play.check(st, action)
        if reason is not None:
            what = "knocked" if c is None else f"played {action}"
            raise PositionError(f"seat {seat} could not have {what} here: {reason}", where)
        try:
            play.apply(st, seat, action)
        except ActionError as e:  # pragma: no cover - check() passed
            raise PositionError(str(e), where) from None
        st.current = None
