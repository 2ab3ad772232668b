"""The control-flow steps: ``set``, ``if``, ``repeat``, ``redeal``, ``end_hand`` (one home each).

>>> [h.name for h in HOMES]
['set', 'if', 'repeat', 'redeal', 'end_hand']
>>> [h.alternatives for h in HOMES][:2]
[('set_step',), ('if_step',)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...limits import MAX_REPEAT
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from ..dsl_nodes import is_node
from .home import UNSET, Home
from .shared import FOR, check_for

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["HOMES"]

Path = tuple[Any, ...]
Prose = tuple[str, list[str], list[str]]

# ------------------------------------------------------------------------------ set

SET: Construct = Construct("set", "step", "assign variables", fields=(FOR,),
                value=Field("set", "assignments", "name: formula assignments, applied in order",
                            required=True, min_items=1))

SET_GRAMMAR = r"""
set_step: for_each? "set" (_assigns _end _attrs? | ":" _end _set_block)
_set_block: _INDENT (assign _NL | _attr)+ _DEDENT
"""


def build_set(b: _Builder, st: Any, step: dict[str, Any], path: Path) -> None:
    """Reads ``[for each player [where …],] set a = …, b = …``."""
    values: dict[str, Any] = {}
    step["set"] = values
    b.mark((*path, "set"), st)
    for c in st.children:
        if is_node(c, "for_each"):
            if c.children:
                step["for"] = b.formula(c.children[0])
                b.mark((*path, "for"), c.children[0])
            else:
                step["for"] = "true"
                b.mark((*path, "for"), c)
    b.assigns(st.children, values, (*path, "set"))
    b.attrs(st, step, path)


def write_set(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``[for each player, ]set a = x, b = y`` (or ``set:`` and a line each)."""
    t.check(step, t.keys(SET), "in a set step")
    head = ""
    if "for" in step:
        cond = t.formula(step["for"])
        head = "for each player, " if cond == "true" else f"for each player where {cond}, "
    values = step["set"] or {}
    parts = [f"{t.word(k)} = {t.formula(v)}" for k, v in values.items()]
    line = f"{head}set " + ", ".join(parts)
    if len("    " * indent + line) <= t.WIDTH or len(parts) <= 1:
        out.add(indent, line)
    else:
        out.add(indent, f"{head}set:")
        for part in parts:
            out.add(indent + 1, part)
    out.attrs(indent + 1, step)


def describe_set(ctx: _Ctx, step: Mapping[str, Any], number: str, sub: int) -> Prose:
    """``Set x to …`` (for each player, or once)."""
    body: list[str] = []
    assigns = step.get("set") or {}
    each = step.get("for")
    if each is not None:
        who = "each player" if each in ("true", True) else f"each player where {p.formula(each)}"
        text = f"For {who}, from forehand:"
    else:
        text = "Once (not per player):" if len(assigns) > 1 else ""
    for name, formula in assigns.items():
        body += p.assign(name, formula, sub + (2 if text else 0))
    if not text:
        text = body[0].strip()[0].upper() + body[0].strip()[1:] + "." if len(body) == 1 else ""
        body = [] if len(body) == 1 else body
    return text, body, []


# ------------------------------------------------------------------------------ if

IF: Construct = Construct("if", "step", "run some steps or others",
               value=Field("if", "formula", "the condition", required=True), fields=(
    Field("then", "steps", "the steps when the condition holds", required=True),
    Field("else", "steps", "the steps otherwise", default=[]),
))

IF_GRAMMAR = r"""
if_step: "if" formula ":" _end _block else_block?
else_block: "else" ":" _end _block
"""


def build_if(b: _Builder, st: Any, step: dict[str, Any], path: Path) -> None:
    """Reads ``if …:`` with its block, and its ``else:`` block."""
    cond = st.children[0]
    step["if"] = b.formula(cond)
    b.mark((*path, "if"), cond)
    b.mark((*path, "then"), st)
    step["then"] = b.steps(st.children[1:], (*path, "then"))
    b.attrs(st, step, path)
    for c in st.children:
        if is_node(c, "else_block"):
            b.mark((*path, "else"), c)
            step["else"] = b.steps(c.children, (*path, "else"))
            b.attrs(c, step, path)


def _block(out: t.Out, indent: int, step: Mapping[str, Any], steps: list[Any]) -> None:
    out.attrs(indent, step)
    if steps:
        out.steps(indent, steps)
    else:
        out.add(indent, "nothing")


def write_if(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``if …:``, its steps, ``else:`` and its steps."""
    t.check(step, t.keys(IF), "in an if step")
    out.add(indent, f"if {t.formula(step['if'])}:")
    _block(out, indent + 1, step, list(step.get("then") or []))
    if step.get("else"):
        out.add(indent, "else:")
        out.steps(indent + 1, step["else"])


def describe_if(ctx: _Ctx, step: Mapping[str, Any], number: str, sub: int) -> Prose:
    """``If …:`` and the steps of each branch, numbered under it."""
    body: list[str] = []
    text = f"If {p.formula(step['if'])}{ctx.option_note(step['if'])}:"
    for i, s in enumerate(step.get("then") or [], 1):
        body += ctx.step_lines(s, f"{number}.{i}", sub)
    if step.get("else"):
        body.append(" " * sub + "Otherwise:")
        first_else = len(step.get("then") or []) + 1
        for i, s in enumerate(step["else"], first_else):
            body += ctx.step_lines(s, f"{number}.{i}", sub)
    return text, body, []


def ends_if(step: Mapping[str, Any], ends: Callable[[list[Any]], bool]) -> bool:
    """An ``if`` always ends the hand when each branch that can run does."""
    cond = step["if"].strip()
    if cond == "true":
        return ends(step["then"])
    if cond == "false":
        return ends(step["else"])
    return ends(step["then"]) and ends(step["else"])


def _ends(step: Mapping[str, Any], ends: Callable[[list[Any]], bool]) -> bool:
    """``redeal`` and ``end_hand`` always end the hand."""
    return True


def check_if(chk: _Checker, path: Path, step: dict[str, Any]) -> None:
    """A branch that can never run."""
    cond = step["if"].strip()
    if cond == "false" and step["then"]:
        chk.err((*path, "then"), "these steps can never run: the condition is false")
    if cond == "true" and step["else"]:
        chk.err((*path, "else"), "these steps can never run: the condition is true")


# ------------------------------------------------------------------------------ repeat

REPEAT: Construct = Construct("repeat", "step", "run steps for some rounds",
                   value=Field("repeat", "formula", "at most this many rounds", required=True),
                   fields=(
    Field("while", "formula", "checked before each round", default="true"),
    Field("steps", "steps", "the steps of a round", required=True),
))

REPEAT_GRAMMAR = r"""
repeat: "repeat" ("at" "most")? formula "times" ","? ("while" formula)? ":" _end _block
"""


def build_repeat(b: _Builder, st: Any, step: dict[str, Any], path: Path) -> None:
    """Reads ``repeat [at most] N times[, while …]:`` and its block."""
    formulas = [c for c in st.children if is_node(c, "formula")]
    step["repeat"] = b.formula(formulas[0], "repeat")
    b.mark((*path, "repeat"), formulas[0])
    if len(formulas) > 1:
        step["while"] = b.formula(formulas[1])
        b.mark((*path, "while"), formulas[1])
    b.mark((*path, "steps"), st)
    step["steps"] = b.steps(st.children[len(formulas):], (*path, "steps"))
    b.attrs(st, step, path)


def write_repeat(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``repeat N times:`` or ``repeat at most N times while …:``, and its steps."""
    t.check(step, t.keys(REPEAT), "in a repeat step")
    times = t.formula(step["repeat"])
    cond = t.formula(step["while"]) if "while" in step else "true"
    if cond == "true":
        out.add(indent, f"repeat {times} times:")
    else:
        out.add(indent, f"repeat at most {times} times while {cond}:")
    _block(out, indent + 1, step, list(step.get("steps") or []))


def describe_repeat(ctx: _Ctx, step: Mapping[str, Any], number: str, sub: int) -> Prose:
    """``Repeat up to N times:`` and the steps of a round."""
    body: list[str] = []
    times = str(step.get("repeat"))
    rounds = f"up to {times} times" if times.isdigit() else f"up to {p.formula(times)} times"
    cond = step.get("while", "true")
    text = f"Repeat {rounds}" + ("" if cond in ("true", True) else
                                 f", each round only while {p.formula(cond)}") + ":"
    for i, s in enumerate(step.get("steps") or [], 1):
        body += ctx.step_lines(s, f"{number}.{i}", sub)
    return text, body, []


def check_repeat(chk: _Checker, path: Path, step: dict[str, Any]) -> None:
    """A repeat that never runs its steps."""
    if step["repeat"].strip() == "0":
        chk.err((*path, "repeat"), "this repeat never runs its steps: its count is 0")
    elif step["while"].strip() == "false":
        chk.err((*path, "while"), "this repeat never runs its steps: its 'while' is false")


# ------------------------------------------------------------------------------ redeal

REDEAL: Construct = Construct("redeal", "step", "gather, reshuffle and restart the hand", body=(
    Field("dealer", "word", "who deals again", default="same",
          words=words_of(("same", "the same dealer"), ("next", "the next dealer"))),
    SOURCE,
))

REDEAL_GRAMMAR = r"""
redeal: "redeal" redeal_with? _end _attrs?
redeal_with: "with" "the" "same" "dealer"                   -> redeal_same
           | "with" "the" "next" "dealer"                   -> redeal_next
           | "with" "dealer" word                           -> redeal_word
"""


def build_redeal(b: _Builder, st: Any, step: dict[str, Any], path: Path) -> None:
    """Reads ``redeal [with the same | next dealer | with dealer WORD]``."""
    redeal: dict[str, Any] = {}
    step["redeal"] = redeal
    b.mark((*path, "redeal"), st)
    for c in st.children:
        if is_node(c, "redeal_same") or is_node(c, "redeal_next"):
            redeal["dealer"] = "same" if c.data == "redeal_same" else "next"
            b.mark((*path, "redeal", "dealer"), c)
        elif is_node(c, "redeal_word"):
            redeal["dealer"] = b.word(c.children[0])
            b.mark((*path, "redeal", "dealer"), c.children[0])
    b.attrs(st, step, path)


def write_redeal(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``redeal``, ``redeal with the same dealer``, ``redeal with dealer WORD``."""
    t.check(step, t.keys(REDEAL), "in a redeal step")
    body = step["redeal"] or {}
    t.check(body, t.keys(REDEAL, body=True), "in 'redeal'")
    dealer = body.get("dealer")
    if dealer is None:
        out.add(indent, "redeal")
    elif dealer in ("same", "next"):
        out.add(indent, f"redeal with the {dealer} dealer")
    else:
        out.add(indent, f"redeal with dealer {t.word(dealer)}")
    out.attrs(indent + 1, step, "redeal")


def describe_redeal(ctx: _Ctx, step: Mapping[str, Any], number: str, sub: int) -> Prose:
    """``Gather the cards and deal again …``."""
    r = step["redeal"]
    dealer, note = ctx.enum(r.get("dealer", "same"), ("same", "next"))
    who = "the same dealer" if dealer == "same" else "the next dealer"
    text = f"Gather the cards and deal again, by {who}{note}; the hand starts over."
    return text, [], p.cite(r, sub)


# ------------------------------------------------------------------------------ end_hand

END_HAND: Construct = Construct("end_hand", "step", "skip the rest of the hand",
                     value=Field("end_hand", "true", "true", required=True))

END_HAND_GRAMMAR = r"""
end_hand: "end" "the" "hand" _end _attrs?
"""


def build_end_hand(b: _Builder, st: Any, step: dict[str, Any], path: Path) -> None:
    """Reads ``end the hand``."""
    step["end_hand"] = True
    b.mark((*path, "end_hand"), st)
    b.attrs(st, step, path)


def write_end_hand(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``end the hand``."""
    t.check(step, t.keys(END_HAND), "in an end_hand step")
    out.add(indent, "end the hand")
    out.attrs(indent + 1, step)


def describe_end_hand(ctx: _Ctx, step: Mapping[str, Any], number: str, sub: int) -> Prose:
    """``The hand ends here``."""
    return "The hand ends here (its remaining steps are skipped).", [], []


def compile_set(c: Typer, step: dict[str, Any], path: Path) -> None:
    """Each assignment (per seat with ``for``)."""
    each = step.get("for")
    c.assigns(step["set"], (*path, "set"), each is not None)
    if each is not None:
        c.formula(each, (*path, "for"), True)


def compile_if(c: Typer, step: dict[str, Any], path: Path) -> None:
    """The condition, then each branch (one a condition fixed at load switches off: dead)."""
    value = c.formula(step["if"], (*path, "if"), False)
    never = value is not UNSET and not value
    always = value is not UNSET and bool(value)
    c.dead += never
    c.check_steps(step.get("then", []), (*path, "then"))
    c.dead -= never
    if step.get("else"):
        c.dead += always
        c.check_steps(step["else"], (*path, "else"))
        c.dead -= always


def compile_repeat(c: Typer, step: dict[str, Any], path: Path) -> None:
    """The rounds (at most :data:`~spelbok.limits.MAX_REPEAT` when fixed), then the steps."""
    if "while" in step:
        c.formula(step["while"], (*path, "while"), False)
    times = c.number(step["repeat"], (*path, "repeat"), False)
    if times is not UNSET and times > MAX_REPEAT:
        c.error((*path, "repeat"), f"a repeat may run at most {MAX_REPEAT} rounds, "
                f"not {times}")
    c.check_steps(step.get("steps", []), (*path, "steps"))


def compile_redeal(c: Typer, step: dict[str, Any], path: Path) -> None:
    """Who deals again: the same dealer or the next (or an option naming one)."""
    d = step["redeal"] if isinstance(step["redeal"], dict) else {}
    c.constant(d.get("dealer", "same"), (*path, "redeal", "dealer"), ("same", "next"))


_ENGINE = "spelbok.engine.flow:"
#: The homes of the control-flow steps, in the reference's order.
HOMES: tuple[Home, ...] = (
    Home(SET, grammar=SET_GRAMMAR, entries=("set_step",), builds={"set_step": build_set},
         write=write_set, describe=describe_set, check=check_for, compile=_ENGINE + "compile_set",
         compile_check=compile_set),
    Home(IF, grammar=IF_GRAMMAR, entries=("if_step",), builds={"if_step": build_if},
         write=write_if, describe=describe_if, check=check_if, compile=_ENGINE + "compile_if", compile_check=compile_if, code_parts=("test", "skip"),
         ends_hand=ends_if),
    Home(REPEAT, grammar=REPEAT_GRAMMAR, builds={"repeat": build_repeat}, write=write_repeat,
         describe=describe_repeat, check=check_repeat, compile=_ENGINE + "compile_repeat",
         compile_check=compile_repeat, code_parts=("init", "test", "loop")),
    Home(REDEAL, grammar=REDEAL_GRAMMAR, builds={"redeal": build_redeal}, write=write_redeal,
         describe=describe_redeal, compile=_ENGINE + "compile_redeal",
         compile_check=compile_redeal, ends_hand=_ends),
    Home(END_HAND, grammar=END_HAND_GRAMMAR, builds={"end_hand": build_end_hand},
         write=write_end_hand, describe=describe_end_hand, compile=_ENGINE + "compile_end_hand",
         ends_hand=_ends),
)
