"""The prose helpers of ``describe``: formulas between backticks, wrapped lines, citations.

Shared by :mod:`spelbok.lang.describe` (the driver) and the constructs' homes (each
writes the prose of its own construct with these).

>>> formula("score + 1"), formula("trick_number"), or_(["a", "b", "c"])
('`score + 1`', 'trick_number', 'a, b or c')
>>> cite({"source": "Rule 3."}, 4)
['    [Rule 3.]']
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["LONG", "SYMBOLS", "WIDTH", "assign", "cite", "formula", "or_", "wrap"]

WIDTH = 88
SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
_SIMPLE = re.compile(r"-?\d+|[A-Za-z_][A-Za-z0-9_]*\Z")
LONG = 56  # a formula longer than this gets a line of its own


def formula(text: Any) -> str:
    """A formula as written: plain for a number or a name, else between backticks."""
    t = "true" if text is True else "false" if text is False else str(text)
    return t if _SIMPLE.fullmatch(t) else f"`{t}`"


def wrap(text: str, indent: int = 2, first: str | None = None) -> list[str]:
    """Wrap prose without breaking formulas written between backticks."""
    protected = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\x00"), text)
    pad = " " * indent
    lines = textwrap.wrap(
        protected, width=WIDTH, initial_indent=pad if first is None else first,
        subsequent_indent=pad + "  " if first is not None else pad,
        break_on_hyphens=False, break_long_words=False,
    )
    return [line.replace("\x00", " ") for line in lines] or [pad]


def cite(node: Any, indent: int) -> list[str]:
    """The lines of ``node``'s ``source``, between brackets (none without one)."""
    if isinstance(node, Mapping) and isinstance(node.get("source"), str) and node["source"]:
        return wrap(f"[{node['source']}]", indent)
    return []


def or_(items: Sequence[str], word: str = "or") -> str:
    """``a, b or c``."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def assign(name: str, value: Any, indent: int, head: str = "") -> list[str]:
    """``set NAME to FORMULA`` (a long formula on a line of its own under it)."""
    text = str(value)
    if len(text) > LONG:
        return wrap(f"{head}set {name} to", indent) + [" " * (indent + 4) + text]
    return wrap(f"{head}set {name} to {formula(text)}", indent)
