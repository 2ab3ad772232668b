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

Reading a position's parts is :mod:`~spelbok.engine.position_reader`; finding where in
the hand it stands, :mod:`~spelbok.engine.position_phase`; this module sets the state.

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

from typing import TYPE_CHECKING, Any

from ..errors import ActionError, did_you_mean
from ..limits import short_repr
from .actions import Action, card_actions
from .order import NO_TRUMP
from .position_phase import (
    _set_rounds,
    _tricks_index,
    _tricks_of,
    _tricks_played,
    find_phase,
    hand_steps,
    step_at,
)
from .position_reader import (
    POSITION_KEYS,
    KeyPath,
    PositionError,
    _as_list,
    _bare_flag,
    _coerce_var,
    _Reader,
)
from .program import Origin, Phase

if TYPE_CHECKING:
    from .game import Game
    from .state import State

__all__ = ["POSITION_KEYS", "Phase", "PositionError", "start_from_position", "hand_steps",
           "find_phase", "step_at"]


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
    rd = _Reader(game, position)
    known = list(POSITION_KEYS) + prog.pvar_names + prog.gvar_names
    for k in position:
        if k not in known:
            raise PositionError(f"unknown key '{k}' in a position", (k,),
                                hint=did_you_mean(str(k), known))
    _start_hand(game, st, position, rd)
    # the variables after start_hand, which resets the per-hand ones
    given_vars = _set_vars(game, st, position, rd)
    if prog.mode_slot >= 0 and st.gv[prog.mode_slot] not in prog.modes:  # modes.py
        raise PositionError(f"unknown mode {short_repr(st.gv[prog.mode_slot])}: the modes are "
                            f"{', '.join(prog.modes)}", ("mode",),
                            hint=did_you_mean(str(st.gv[prog.mode_slot]), list(prog.modes)))
    turn_up, trick = _place_cards(game, st, position, rd)
    _set_trump(game, st, position, turn_up)
    broken = _set_tricks_taken(st, position, rd)
    _place_phase(game, st, position, trick, given_vars, broken)


def _start_hand(game: Game, st: State, position: dict[str, Any], rd: _Reader) -> None:
    """The match-level fields, then a fresh hand (every field at its start value)."""
    prog = game.program
    n = game.players
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


def _set_vars(game: Game, st: State, position: dict[str, Any], rd: _Reader) -> set[str]:
    """The declared variables the position sets (under ``vars`` or as keys of their own);
    their names."""
    prog = game.program
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
    return given_vars


def _place_cards(game: Game, st: State, position: dict[str, Any], rd: _Reader,
                 ) -> tuple[list[int], list[tuple[int | None, KeyPath]]]:
    """The hands, turn-up, discards, widow and talon; the turn-up and the trick under
    way (each card, or None for a knock, with its key)."""
    prog = game.program
    n = game.players
    hands = [0] * n
    hands_given = position.get("hands")
    if hands_given is not None:
        for seat, (v, where) in rd.per_seat(hands_given, ("hands",), "hands").items():
            for c in rd.cards(v, where, f"hands.{where[-1]}"):
                hands[seat] |= 1 << c
    for s in range(n):
        if st.off[s] and hands[s]:
            what = "out of the match" if st.out[s] else "sitting this hand out"
            raise PositionError(f"seat {s} is {what} but holds cards", ("hands", s))
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
    return turn_up, trick


def _set_trump(game: Game, st: State, position: dict[str, Any], turn_up: list[int]) -> None:
    prog = game.program
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


def _set_tricks_taken(st: State, position: dict[str, Any], rd: _Reader) -> bool:
    """The tricks taken this hand; whether trumps are broken."""
    tricks_given = position.get("tricks")
    if tricks_given is not None:
        for seat, (v, where) in rd.per_seat(tricks_given, ("tricks",), "tricks").items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise PositionError(f"tricks taken is a whole number, not {short_repr(v)}", where)
            st.won[seat] = v
    broken = position.get("trumps_broken", False)
    if not isinstance(broken, bool):
        raise PositionError("trumps_broken is true or false", ("trumps_broken",))
    return broken


def _place_phase(game: Game, st: State, position: dict[str, Any],
                 trick: list[tuple[int | None, KeyPath]], given_vars: set[str],
                 broken: bool) -> None:
    """Where in the hand: the phase, the repeats' rounds, the tricks step's progress."""
    prog = game.program
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
        _place_after_tricks(game, st, position, phase, tricks, given_vars)
    elif phase.kind == "decide":
        _place_decision(game, st, position, phase)
    if st.rec is not None:
        st.event("position", phase=label, scores=st.scores)


def _place_after_tricks(game: Game, st: State, position: dict[str, Any], phase: Phase,
                        tricks: Origin, given_vars: set[str]) -> None:
    """Just after a tricks step: every hand empty (for a step without a count), the
    trick players' flag, the tricks the step played."""
    prog = game.program
    n = game.players
    hands = st.hands
    ts: Any = prog.code[tricks.first]  # the step's start: its count
    if ts.count is None:  # a step without a count plays until the hands are empty
        for s in range(n):
            if hands[s]:
                raise PositionError("after the tricks every hand is empty", ("hands", s))
    flag = _bare_flag(step_at(game.tree, tricks.path)["tricks"].get("players", "not out"),
                      game)
    if flag is not None and flag not in given_vars:
        # no word on who played: everyone still in did
        st.pv_rows[prog.pvar_names.index(flag)] = [not o for o in st.off]
    before, played, count = _tricks_played(game, st, position, tricks)
    if count is not None and "tricks_played" not in position:
        played = count  # the step is over: it played all its tricks
    elif count is not None and played != count:
        raise PositionError(f"after these tricks the step has played its {count} tricks, "
                            f"not {played}", ("tricks_played",))
    st.trick_no = before + played
    st.pc = phase.pc


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
    """Inside a tricks step (or between two of its tricks): who takes part and leads,
    the tricks played so far, and the cards of the trick under way played again."""
    prog = game.program
    ts: Any = prog.code[tricks.first]
    play: Any = prog.code[prog.part_pc(tricks.path, "play")]
    between = phase.kind != "trick"  # at a step run after a trick: no trick is under way
    leader, part = _trick_players(game, st, position, tricks, given_vars)
    if len(trick) > len(part):
        raise PositionError(
            f"the trick has {len(trick)} cards but only {len(part)} players take part",
            ("trick",))
    seats = part[:len(trick)]
    # the cards in the trick were in their players' hands when it began
    for (c, _), s in zip(trick, seats):
        if c is not None:
            st.hands[s] |= 1 << c
    _check_hand_sizes(st, ts, part, trick, seats, between)
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
        tr = st.trick.own(st)
        tr.order = []
        tr.cards = []
        tr.led = -1
        st.pc = phase.pc
        return
    if st.hands[leader] == 0:
        raise PositionError(f"seat {leader} leads but holds no card", ("leader",))
    play.begin_trick(st, leader)
    _replay_trick(st, play, trick, seats)


def _trick_players(game: Game, st: State, position: dict[str, Any], tricks: Origin,
                   given_vars: set[str]) -> tuple[int, list[int]]:
    """The leader and the seats taking part in the trick, in turn from the leader (the
    trick players' flag set from the hands when the position does not say)."""
    n = st.n
    ts: Any = game.program.code[tricks.first]
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
        return not st.off[p] and bool(ts.players(st, p))

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
    return leader, [p for p in st.prog.rot[leader] if takes_part(p)]


def _check_hand_sizes(st: State, ts: Any, part: list[int],
                      trick: list[tuple[int | None, KeyPath]], seats: list[int],
                      between: bool) -> None:
    """Every player in the tricks holds as many cards as the others (unless the step lets
    players abstain, or the position stands between two tricks)."""
    aside = bool(getattr(ts.play, "aside", False))  # tricks.aside_turn: laid-aside cards count
    sizes = {p: st.hands[p].bit_count() + (st.discarded[p].bit_count() if aside else 0)
             for p in part}
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


def _replay_trick(st: State, play: Any, trick: list[tuple[int | None, KeyPath]],
                  seats: list[int]) -> None:
    """Play the cards of the trick under way again, each checked against the rules."""
    for (c, where), s in zip(trick, seats):
        seat = st.trick.to_play()
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
