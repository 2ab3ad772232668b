"""The hand: what happens in one hand (deal), its steps in order.

Each step kind has a home of its own (the registry's ``STEP_HOMES``); this one holds
the list.

>>> HAND.name, HAND.keys[0].type
('hand', 'steps')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from ..declare import Field
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["HAND"]

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
hand: "each" "hand" ":" _NL _INDENT _step+ _DEDENT
"""


def read_hand(b: Builder, st: Any) -> None:
    """Reads ``each hand:`` and its steps (each read by its kind's home)."""
    if "hand" in b.tree:
        first = b.pos[("hand",)][1]
        raise b.fail(f"the steps of a hand are given twice (first on line {first})", st)
    b.mark(("hand",), st)
    b.tree["hand"] = b.steps(st.children, ("hand",))


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """``each hand:`` and its steps under it."""
    if "hand" in tree:
        out.blank()
        out.add(0, "each hand:")
        if not tree["hand"]:
            raise ValueError("to_dsl: a hand needs at least one step")
        out.steps(1, tree["hand"])


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Each hand": its steps, numbered."""
    lines = ctx.title("Each hand")
    for i, step in enumerate(tree.get("hand") or [], 1):
        lines += ctx.step_lines(step, str(i), 2)
    return lines


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """The cards get played (a tricks step, or an end_hand); then each step's checks."""
    hand = tree["hand"]
    kinds = {ck.kind(step) for _, step in ck.walk(hand, ("hand",))}
    if "tricks" not in kinds and "end_hand" not in kinds:
        ck.err(
            ("hand",),
            "the hand has no 'tricks' step and no 'end_hand': the cards are never played",
        )
    ck.steps()


HAND: Home = Home(
    None,
    grammar=GRAMMAR,
    entries=("hand",),
    builds={"hand": read_hand},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("hand", "steps", "what happens in one hand (deal), in order", required=True,
                min_items=1, doc_type="list of steps, required"),),
)
