"""A reading case's steps: the actions it plays (``play``, ``do``) and the expectations it
checks (see :mod:`~spelbok.analysis.reading_checks`), against the state of its game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import Pack
from ..engine.actions import ascii_number
from ..errors import (
    ActionError,
    IllegalActionError,
    InvalidActionError,
    did_you_mean,
)
from ..limits import short_repr
from .reading_checks import _CHECKS, _error_kind, _show_seat, _who
from .reading_file import (
    Path_,
    _Locator,
)
from .reading_report import (
    Mismatch,
    _show,
)

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.program import Phase
    from ..engine.state import State


class _Failed(Exception):
    def __init__(self, mismatches: list[Mismatch], message: str = "") -> None:
        super().__init__(message)
        self.mismatches = mismatches
        self.message = message


def _card_items(value: Any) -> list[Any] | None:
    """The items of a list of cards (text ``'AS KH'`` or a list); None for anything else
    (a number, a map: a user's mistake, not a list to iterate)."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if value is None or isinstance(value, list):
        return list(value or [])
    return None


def _kind_of(value: Any) -> str:
    """What a wrong value is, for a message (never its repr in full)."""
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "nothing"
    if isinstance(value, (int, float)):
        text = repr(value)
        return f"the number {text if len(text) <= 20 else text[:20] + '...'}"
    return f"a {type(value).__name__}"


def _seat(value: Any, n: int, loc: _Locator, where: Path_) -> int:
    # ASCII digits only: int() reads '١' and refuses '²'
    s = value if type(value) is int else ascii_number(value.strip(), 6) \
        if isinstance(value, str) else None
    if s is None:
        raise loc.error(where, f"a seat is a number 0..{n - 1}, not {short_repr(value)}", key=True)
    if not 0 <= s < n:
        raise loc.error(where, f"there is no seat {value} ({n} players: seats 0..{n - 1})",
                        key=True)
    return s


ACTION_KEYS = ("play", "do")
#: How many times an ``until`` step may play its actions before the case fails (a deal
#: of 108 cards asked card by card needs about a hundred).
MAX_REPEATS = 1000


class _Context:
    """The running state of one case: applies actions, checks expectations."""

    def __init__(self, game: Game, st: State, loc: _Locator, case_index: int) -> None:
        self.game = game
        self.st = st
        self.loc = loc
        self.case_index = case_index
        self.history: list[str] = []
        self.initial = self._initial_scores()

    def _initial_scores(self) -> list[int]:
        rec = self.st.rec or []
        for e in rec:
            if e.get("event") == "position" and "scores" in e:
                return list(e["scores"])
        return list(self.st.scores)

    def step(self, step: dict[str, Any], path: Path_) -> None:
        kinds = [k for k in ACTION_KEYS if k in step]
        if len(kinds) > 1:
            raise self.loc.error((*path, kinds[1]), "a step has one action: 'play' or 'do'",
                                 key=True)
        if kinds and "until" in step:
            self.repeat(step, kinds[0], path)
        elif kinds:
            self.act(step, kinds[0], path)
        elif "expect_error" in step or "by" in step or "until" in step:
            key = next(k for k in ("expect_error", "by", "until") if k in step)
            raise self.loc.error((*path, key), f"'{key}' goes with an action ('play' or 'do')",
                                 key=True)
        if "expect" in step:
            self.expect(step["expect"], (*path, "expect"))

    def act(self, step: dict[str, Any], kind: str, path: Path_) -> None:
        value = step[kind]
        actions = [str(a) for a in value] if isinstance(value, list) else [str(value)]
        want_error = step.get("expect_error")
        if want_error is not None and len(actions) != 1:
            raise self.loc.error((*path, "expect_error"),
                                 "expect_error goes with a single action", key=True)
        st = self.st
        if "by" in step:
            by = step["by"]
            if st.current_player != by:
                raise _Failed([Mismatch("by (the seat to act)", _show(by),
                                        _show_seat(st.current_player))],
                              f"before {actions[0]}")
        for text in actions:
            seat = st.current_player
            try:
                st.apply(text)
            except ActionError as e:
                if want_error is None:
                    raise _Failed([], f"{_who(seat)} {text}: refused: {e}") from None
                kind_ok = (want_error in ("refused", "any")
                           or (want_error == "illegal" and isinstance(e, IllegalActionError))
                           or (want_error == "invalid" and isinstance(e, InvalidActionError)))
                reason = step.get("reason")
                # the rules' words for the refusal (an allow level's reason), not the action's
                said = e.reason if isinstance(e, IllegalActionError) else str(e)
                if not kind_ok or (reason and str(reason).lower() not in said.lower()):
                    expected = f"{want_error}" + (f" ({reason})" if reason else "")
                    raise _Failed([Mismatch(f"expect_error for {text}", expected,
                                            f"{_error_kind(e)}: {e}")]) from None
                self.history.append(f"{_who(seat)} {text} (refused)")
                return
            self.history.append(f"{_who(seat)} {text}")
            if want_error is not None:
                reason = step.get("reason")
                raise _Failed([Mismatch(f"expect_error for {text}",
                                        str(want_error) + (f" ({reason})" if reason else ""),
                                        "the action was accepted")])

    def repeat(self, step: dict[str, Any], kind: str, path: Path_) -> None:
        """Play the step's actions again and again until its ``until`` map holds (checked
        before each time); the history says how many times, not each one."""
        if "expect_error" in step:
            raise self.loc.error((*path, "expect_error"),
                                 "an 'until' step repeats accepted actions: expect_error "
                                 "goes with a single action", key=True)
        before = len(self.history)
        try:
            for times in range(MAX_REPEATS + 1):
                try:
                    self.expect(step["until"], (*path, "until"))
                except _Failed as e:
                    if times == MAX_REPEATS:
                        raise _Failed(e.mismatches, f"'until' did not hold after {times} "
                                      f"times {short_repr(step[kind])}") from None
                else:
                    break
                self.act(step, kind, path)
        finally:
            played = self.history[before:]
            if len(played) > 1:
                self.history[before:] = [f"{played[0]} ... {played[-1]} "
                                         f"({len(played)} actions, until)"]

    def expect(self, exp: dict[str, Any], path: Path_) -> None:
        bad: list[Mismatch] = []
        for key, want in exp.items():
            check = _CHECKS.get(key)
            if check is None:  # pragma: no cover - the schema lists every key
                raise self.loc.error((*path, key), f"unknown expectation '{key}'",
                                     hint=did_you_mean(key, _CHECKS), key=True)
            m = check(self, want, (*path, key))
            if m is not None:
                bad.extend(m if isinstance(m, list) else [m])
        if bad:
            raise _Failed(bad)

    # -- helpers for checks

    def seat(self, value: Any, where: Path_) -> int:
        return _seat(value, self.st.n, self.loc, where)

    def per_seat(self, want: Any, where: Path_) -> dict[int, Any]:
        n = self.st.n
        if isinstance(want, list):
            if len(want) != n:
                raise self.loc.error(where, f"give one value per seat ({n}), or a map "
                                     "{seat: value}; got " + str(len(want)))
            return dict(enumerate(want))
        if isinstance(want, dict):
            return {self.seat(k, (*where, k)): v for k, v in want.items()}
        raise self.loc.error(where, "expected a list with one value per seat or a map {seat: value}")

    @property
    def pack(self) -> Pack:
        """The pack that names the game's cards."""
        return self.game.program.pack

    def card_set(self, want: Any, where: Path_) -> list[str]:
        """The card names written in ``want``, sorted (a name given again: a second copy)."""
        items = _card_items(want)
        if items is None:
            raise self.loc.error(where, f"expected cards, as 'AS KH 10D' or a list, got "
                                        f"{_kind_of(want)}")
        out = []
        for text in items:
            c = self.pack.parse_card(str(text)) if len(str(text)) <= 8 else None
            if c is None:
                raise self.loc.error(where, f"'{text}' is not a card")
            out.append(self.pack.names[c])
        return sorted(out)

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in (self.st.rec or []) if e.get("event") == kind]

    def hand_tricks(self) -> list[int]:
        """Tricks of the current hand; once it is over (until the next hand's trick play),
        those of the hand just finished."""
        st = self.st
        rec = st.rec or []
        in_play = st.phase.kind == "trick"
        last_hand = max((k for k, e in enumerate(rec) if e.get("event") == "hand"), default=-1)
        tricks_now = any(e.get("event") == "trick" for e in rec[last_hand + 1:])
        if not st.is_terminal and (in_play or tricks_now):
            return list(st.won)
        for e in reversed(rec):
            if e.get("event") == "end_hand":
                return list(e["tricks"])
        return list(st.won)

    def pending(self) -> Phase | None:
        """Where the pending decision is (None when nobody is to act)."""
        st = self.st
        if st.current_player is None:
            return None
        return st.phase
