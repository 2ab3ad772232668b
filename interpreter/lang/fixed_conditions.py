"""The rules a variant's change disables elsewhere: a condition on the card points that
the base's cards could meet and the variant's cannot, or that named the base's total.

A rule may compare ``card_points`` with a number that only the base's cards give: a
shoot-the-moon rule is ``card_points == 26``, the total of its point cards.  A variant that
changes the cards' points (the queen of spades worth 10) leaves the rule as it was, but its
cards total 23: the condition can never hold, and the rule is gone without a word.  ``describe``
notes it among the variant's changes and ``validate`` warns at the change that caused it.

>>> base = {"hand": [{"set": {"shooter": "card_points == 26"}, "label": "the moon"}]}
>>> [d.note for d in disabled_rules(base, base, (0, 26), (0, 23), ("points",))]
["the rule at hand[0].set.shooter ('the moon') compares card_points with 26, the total of \
the base's card points; this spec's cards total 23, so 'card_points == 26' can never hold and \
the rule no longer applies"]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ..errors import FormulaError, SpelbokError
from ..formula import Compare, Name, Num, iter_nodes, parse_formula
from .option_reads import NOT_RULES
from .tree_diff import path_text, tree_changes

__all__ = ["DisabledRule", "disabled_rules", "variant_disabled_rules"]

#: The names whose values are the card points a seat (or its team) took.
POINT_NAMES = frozenset(("card_points", "team_card_points"))


class DisabledRule(NamedTuple):
    """A condition of the variant's rule at ``path`` that its change of card points
    makes fixed; ``cause`` is the changed key that did it (where ``validate`` warns)."""

    path: tuple[Any, ...]
    cause: tuple[Any, ...]
    condition: str
    label: str | None
    #: the base's and the variant's range of card points
    base: tuple[int, int]
    now: tuple[int, int]
    number: int
    #: the condition can never hold (else: it no longer means taking every point)
    never: bool

    @property
    def note(self) -> str:
        """The sentence ``describe`` and ``validate`` give."""
        label = f" ('{self.label}')" if self.label else ""
        was = (f", the total of the base's card points; this spec's cards total {self.now[1]}"
               if self.number == self.base[1] else
               f"; the card points now run from {self.now[0]} to {self.now[1]}")
        lhs = self.condition.split()[0]
        then = ("can never hold and the rule no longer applies" if self.never else
                "no longer means taking every point")
        return (f"the rule at {path_text(self.path)}{label} compares {lhs} with "
                f"{self.number}{was}, so '{self.condition}' {then}")


def _holds_somewhere(op: str, number: int, lo: int, hi: int) -> bool:
    """Whether ``x op number`` holds for some x in lo..hi."""
    return {"==": lo <= number <= hi, "!=": lo != hi or lo != number, "<": lo < number,
            "<=": lo <= number, ">": hi > number, ">=": hi >= number}[op]


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _point_conditions(text: str) -> Iterator[tuple[str, str, int, str]]:
    """``(name, op, number, shown)`` for each comparison of a point name with a number
    (shown with the name on the left)."""
    try:
        tree = parse_formula(text)
    except FormulaError:
        return
    for node in iter_nodes(tree):
        if not isinstance(node, Compare):
            continue
        left, right, op = node.left, node.right, node.op
        if isinstance(left, Num) and isinstance(right, Name):
            left, right, op = right, left, _FLIP[op]
        if isinstance(left, Name) and left.name in POINT_NAMES and isinstance(right, Num):
            yield left.name, op, right.value, f"{left.name} {op} {right.value}"


def _rules(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in NOT_RULES:
                yield from _rules(value, (*path, key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _rules(item, (*path, i))
    elif isinstance(node, str):
        yield path, node


def _label(tree: Any, path: tuple[Any, ...]) -> str | None:
    """The label of the innermost labelled step around ``path``."""
    node, label = tree, None
    for key in path:
        if isinstance(node, dict) and isinstance(node.get("label"), str):
            label = node["label"]
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
    return label


def disabled_rules(base_tree: dict[str, Any], tree: dict[str, Any], base: tuple[int, int],
                   now: tuple[int, int], cause: tuple[Any, ...]) -> list[DisabledRule]:
    """The variant's conditions on card points that held for some points of the base's
    (range ``base``) and hold for none of the variant's (``now``), and those that asked for
    the base's total (every point) when the total changed; ``cause`` is where the change
    is."""
    if base == now:
        return []
    out = []
    for path, text in _rules(tree):
        for _, op, number, shown in _point_conditions(text):
            never = _holds_somewhere(op, number, *base) and \
                not _holds_somewhere(op, number, *now)
            every = op in ("==", ">=") and number == base[1] != now[1]  # "took them all"
            if never or every:
                out.append(DisabledRule(path, cause, shown, _label(tree, path), base, now,
                                        number, never))
    return out


def variant_disabled_rules(base_doc: Any, doc: Any) -> list[DisabledRule]:
    """:func:`disabled_rules` of a variant and its base, their card points counted at each
    one's least player count (:func:`~spelbok.lang.constructs.points.points_range`)."""
    from .constructs.points import points_range

    try:
        base, now = (points_range(d.tree, int(d.tree["players"]["min"])) for d in (base_doc, doc))
    except (SpelbokError, KeyError, TypeError, ValueError):  # a spec the checks refuse
        return []
    if base is None or now is None or base == now:
        return []
    changes = [p for p, _, _, _ in tree_changes(base_doc.tree, doc.tree)]
    cause = next((p for p in changes if p[:1] == ("points",)),
                 next((p for p in changes if p[:1] == ("deck",)), changes[0] if changes else ()))
    return disabled_rules(base_doc.tree, doc.tree, base, now, cause)
