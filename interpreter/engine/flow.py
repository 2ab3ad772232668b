"""The flow of a hand: ``set`` (assignments), ``if``, ``repeat``, ``redeal`` and
``end_hand``, each step's instructions beside its compile step.

``if`` and a step's ``when`` compile to the jumps of :mod:`spelbok.engine.steps`;
``repeat`` counts its rounds in a counter slot of the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import LimitError
from ..limits import MAX_REPEAT, MAX_VALUE, held
from .steps import UNSET, Fn, Instr, Jump, JumpUnless, Path, Setter, fixed

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State


class RepeatInit(Instr):
    def __init__(self, slot: int) -> None:
        self.slot = slot

    def run(self, st: State) -> bool:
        st.counters[self.slot] = 0
        st.pc += 1
        return True


class RepeatTest(Instr):
    """Start another round while rounds remain and ``while`` holds."""

    def __init__(self, slot: int, times: Fn, cond: Fn | None, target: int = -1,
                 where: str = "") -> None:
        self.slot = slot
        self.times = times
        k = fixed(times)
        self.fixed_times = None if k is UNSET else k
        self.where = where  # the step in the spec, for the error on too many rounds
        self.cond = cond
        self.target = target

    def run(self, st: State) -> bool:
        done = st.counters[self.slot]
        times = self.fixed_times
        if times is None:
            times = self.times(st, 0)
            if times > MAX_REPEAT:
                raise LimitError(f"{self.where + ': ' if self.where else ''}this repeat would run "
                                 f"{times} rounds; the limit is {MAX_REPEAT}")
        if done >= times or (self.cond is not None and not self.cond(st, 0)):
            st.pc = self.target
        else:
            st.counters[self.slot] = done + 1
            st.pc += 1
        return True


class EndHand(Instr):
    def run(self, st: State) -> bool:
        if st.rec is not None:
            st.event("end_hand_early")
        st.pc = len(st.game.program.code)
        return True


class Redeal(Instr):
    def __init__(self, next_dealer: bool) -> None:
        self.next_dealer = next_dealer

    def run(self, st: State) -> bool:
        if st.rec is not None:
            st.event("redeal", dealer=st.dealer)
        st.game.program.redeal(st, self.next_dealer)
        return True


class SetVars(Instr):
    """Assign variables: once, or for each player satisfying ``for``, from forehand."""

    def __init__(self, assigns: list[tuple[Setter, Fn, str]], each: Fn | None,
                 each_vec: Any = None, where: str = "") -> None:
        self.assigns = assigns
        self.each = each
        # per-player variables are stored straight into their row (no setter call)
        self.fast = [(getattr(setter, "row", -1), setter, fn, name) for setter, fn, name in assigns]
        self.where = where  # the step in the spec, for the error on an integer out of bounds
        # When 'for' reads only each seat's own per-player values, ask every seat
        # at once: an assignment changes only the seat being set (or hand and
        # match variables, which such a condition does not read), so no answer
        # for a later seat can change.
        self.each_vec = each_vec

    def run(self, st: State) -> bool:
        if self.each is None:
            # seat -1: nobody in particular sets these (a trump set here is not named by P0)
            for setter, fn, name in self.assigns:
                value = fn(st, 0)
                if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                    value = held(value)
                setter(st, -1, value)
                if st.rec is not None:
                    st.event("set", var=name, value=value)
        elif st.rec is not None:
            for p in st.prog.rot[st.prog.nxt[st.dealer]]:
                if self.each(st, p):
                    for setter, fn, name in self.assigns:
                        value = fn(st, p)
                        if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                            value = held(value)
                        setter(st, p, value)
                        st.event("set", seat=p, var=name, value=value)
        else:
            each: Fn | None = self.each
            seats: Any = st.prog.rot[st.prog.nxt[st.dealer]]
            if self.each_vec is not None:
                chosen = list(self.each_vec(st, 0))
                seats = [p for p in seats if chosen[p]] if any(chosen) else ()
                each = None
            rows = st.pv_rows
            for p in seats:
                if each is not None and not each(st, p):  # asked after the seats before
                    continue
                for row, setter, fn, _name in self.fast:
                    value = fn(st, p)
                    # one comparison per value set keeps every integer of a match small
                    if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                        value = held(value)
                    if row >= 0:
                        rows[row][p] = value
                    else:
                        setter(st, p, value)
        st.pc += 1
        return True


def compile_set(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``set`` step: one :class:`SetVars`, per seat with ``for``."""
    each = step.get("for")
    per_player = each is not None
    assigns = c.assigns(step["set"], (*path, "set"), per_player)
    each_fn = c.formula(each, (*path, "for"), True) if per_player else None
    each_vec = c.local_vec(each) if per_player else None
    code.append(SetVars(assigns, each_fn, each_vec, c.where(path)))


def compile_if(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """An ``if`` step: a jump past ``then`` when the condition fails, and past ``else``
    after ``then``."""
    test = JumpUnless(c.formula(step["if"], (*path, "if"), False))
    code.append(test)
    c.compile_steps(step.get("then", []), (*path, "then"), code)
    if step.get("else"):
        skip = Jump()
        code.append(skip)
        test.target = len(code)
        c.compile_steps(step["else"], (*path, "else"), code)
        skip.target = len(code)
    else:
        test.target = len(code)


def compile_repeat(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``repeat`` step: a counter, a test before each round, and a jump back."""
    slot = c.counters
    c.counters += 1
    code.append(RepeatInit(slot))
    top = len(code)
    cond = c.formula(step["while"], (*path, "while"), False) if "while" in step else None
    test = RepeatTest(slot, c.number(step["repeat"], (*path, "repeat"), False), cond,
                      where=c.where((*path, "repeat")))
    code.append(test)
    c.compile_steps(step.get("steps", []), (*path, "steps"), code)
    code.append(Jump(top))
    test.target = len(code)


def compile_redeal(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``redeal`` step: deal the hand again, by the same or the next dealer."""
    d = step["redeal"] if isinstance(step["redeal"], dict) else {}
    who = c.constant(d.get("dealer", "same"), (*path, "redeal", "dealer"), ("same", "next"))
    code.append(Redeal(who == "next"))


def compile_end_hand(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """An ``end_hand`` step: the hand ends at once."""
    code.append(EndHand())
