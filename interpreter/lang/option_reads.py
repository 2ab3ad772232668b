"""The options a variant's changed formulas no longer read.

A variant that rewrites a formula of its base may drop an option the base's formula read
(a score rule rewritten without the branch that read ``floor_zero``): the option then no longer
applies to that rule, or to any rule when nothing else reads it.  ``describe`` notes it
among the variant's changes and ``validate`` warns at the changed key.

>>> base = {"options": {"floor_zero": {}}, "hand": [{"set": {"score": "if floor_zero then 0 else score - 5"}}]}
>>> new = {"options": {"floor_zero": {}}, "hand": [{"set": {"score": "score - 3"}}]}
>>> [d.note for d in dropped_options(base, new)]
["option 'floor_zero' is no longer read by any rule (the base's hand[0].set.score read it)"]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ..errors import FormulaError
from ..formula import formula_names, parse_formula
from .tree_diff import ABSENT, path_text, tree_changes

__all__ = ["NOT_RULES", "DroppedOption", "dropped_options"]

#: Sections and keys that hold prose or declarations, not formulas that read options.
NOT_RULES = frozenset(("options", "sources", "about", "source", "name", "label", "reason",
                        "cites", "title", "spelbok", "extends"))


class DroppedOption(NamedTuple):
    """An option the base's formula at ``path`` read and the variant's does not."""

    path: tuple[Any, ...]
    option: str
    #: whether another rule of the variant still reads the option
    elsewhere: bool
    #: the base's formula there, as shown
    where: str

    @property
    def note(self) -> str:
        """The sentence ``describe`` and ``validate`` give."""
        if self.elsewhere:
            return (f"option '{self.option}' no longer applies to {self.where} (the base's "
                    "formula there read it; this spec's does not)")
        return f"option '{self.option}' is no longer read by any rule (the base's {self.where} read it)"


def _names(value: Any) -> frozenset[str]:
    if not isinstance(value, str):
        return frozenset()
    try:
        return frozenset(formula_names(parse_formula(value)))
    except FormulaError:
        return frozenset()


def _rule_texts(node: Any) -> Iterator[str]:
    """Every text of ``node`` that may be a rule's formula (not prose, not declarations)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in NOT_RULES:
                yield from _rule_texts(value)
    elif isinstance(node, list):
        for item in node:
            yield from _rule_texts(item)
    elif isinstance(node, str):
        yield node


def dropped_options(base: dict[str, Any], tree: dict[str, Any]) -> list[DroppedOption]:
    """The options that the base's changed formulas read and the variant's do not, in the
    order of the changes (see the module's doc)."""
    options = set(tree.get("options") or {})
    if not options:
        return []
    read: set[str] | None = None  # what the variant's rules read, once needed
    out: list[DroppedOption] = []
    for path, _, old, new in tree_changes(base, tree):
        if old is ABSENT or new is ABSENT or any(k in NOT_RULES for k in path if isinstance(k, str)):
            continue
        lost = sorted((_names(old) & options) - _names(new))
        if not lost:
            continue
        if read is None:
            read = {n for text in _rule_texts(tree) for n in _names(text)}
        out += [DroppedOption(path, o, o in read, path_text(path)) for o in lost]
    return out
