"""The tables of ``docs/spec-reference.md``, generated from the vocabulary.

Each generated block sits between marker comments, ``<!-- vocabulary:NAME -->``
and ``<!-- /vocabulary:NAME -->``; the prose around them is written by hand.
``python -m spelbok.lang.reference --write`` rewrites the blocks, ``--check``
exits 1 when one differs from the declaration.

>>> print(render("hand-builtins").splitlines()[2])
| `hand_number` | 1 for the first hand of the match (redeals do not count) |
>>> update("a\\n<!-- vocabulary:functions -->\\nold\\n<!-- /vocabulary:functions -->\\nb\\n")[:62]
'a\\n<!-- vocabulary:functions -->\\nFunctions: `count(cond)`, `any'
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Callable
from typing import Any

from spelbok.errors import SpelbokError

from . import vocabulary as v
from .generated import ROOT, regenerate

__all__ = ["BLOCKS", "DOC", "main", "render", "update"]

DOC = "docs/spec-reference.md"
"""The reference, relative to the repository root."""

_MARK = re.compile(r"(<!-- vocabulary:([a-z_-]+) -->\n)(.*?)(<!-- /vocabulary:\2 -->)", re.S)


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _code(value: Any) -> str:
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, str):
        return f"`{value}`" if value else '`""`'
    if isinstance(value, list):
        return "`[" + ", ".join(str(x) for x in value) + "]`"
    if isinstance(value, dict):
        return "`{}`" if not value else f"`{value}`"
    return f"`{value}`"


#: How the tables show a type (the others by name).
_SHOWN = {
    "condition": "bool or condition", "count": "`all` or formula", "packet": "int",
    "first_dealer": "seat number or word", "var_map": "map name → value", "true": "`true`",
    "value_table": "map key → value or table",
    "steps": "list of steps", "assignments": "map name → formula", "top_trump": "card",
    "choose": "word list, `suit`, `exchange` or `number`", "str": "str", "text": "str",
    "scalar": "str, int or bool", "source": "str",
    "allow": "formula or list of allow levels",
}


def _shown(t: str) -> str:
    if t.startswith("list["):
        return f"list of {_shown(t[5:-1])}"
    if t.startswith("names["):
        return f"map name → {_shown(t[6:-1])}"
    if t.startswith("map["):
        return f"map → {_shown(t[4:-1])}"
    return _SHOWN.get(t, t.replace("_", " "))


def _type_text(f: v.Field) -> str:
    if f.doc_type:
        return f.doc_type
    t = f.type
    text = _shown(t)
    if f.words and t not in ("choose",):
        text += ": " + " \\| ".join(f"`{w.name}`" for w in f.words)
    return text + (", required" if f.required else "")


def _default_text(f: v.Field) -> str:
    if f.doc_default:
        return f.doc_default
    if f.required:
        return "—"
    if f.default is v.ABSENT:
        return "absent"
    if isinstance(f.default, v.Derived):
        return f.default.text
    return _code(f.default)


def _keys(fields: tuple[v.Field, ...]) -> list[tuple[str, ...]]:
    return [(f"`{f.name}`", _type_text(f), _default_text(f), f.doc) for f in fields]


def _top_level() -> str:
    return _table(("key", "type", "default", "meaning"), _keys(v.SPEC.fields))


def _builtin_table(scope: str) -> Callable[[], str]:
    def table() -> str:
        return _table(("name", "meaning"), [(f"`{b.name}`", b.doc) for b in v.builtins(scope)])
    return table


def _functions() -> str:
    aggregates = ", ".join(f"`{f.name}({f.arg})`" for f in v.FUNCTIONS if f.aggregate)
    scalars = ", ".join(f"`{f.name}({f.params})`" for f in v.FUNCTIONS if f.scalar)
    return textwrap.fill(f"Functions: {aggregates} aggregate over all seats (names inside "
                         f"refer to each seat); {scalars} are scalar.", 80) + "\n"


def _constructs() -> str:
    """One key table per section and step kind."""
    out: list[str] = []
    for c in (*v.SECTIONS, *v.STEPS):
        rows = _keys(c.fields)
        if c.group == "step":
            head = f"`{c.name}` step ({c.doc})"
            if c.value is not None:
                rows = _keys((c.value,)) + rows
            else:  # the keys of the map its kind key holds, named from the step
                body = [(f"`{c.name}.{k[1:]}", *rest) for k, *rest in _keys(c.body or ())]
                rows = body + rows
        else:
            head = f"`{c.name}` ({c.doc})"
        out.append(f"**{head}**\n\n" + _table(("key", "type", "default", "meaning"), rows))
    common = ", ".join(f"`{f.name}`" for f in v.STEP_COMMON)
    out.append(f"Every step may also carry {common}.\n")
    return "\n".join(out)


BLOCKS: dict[str, Callable[[], str]] = {
    "top-level": _top_level,
    "player-builtins": _builtin_table("player"),
    "hand-builtins": _builtin_table("hand"),
    "functions": _functions,
    "keys": _constructs,
}
"""The generated blocks, by marker name."""


def render(name: str) -> str:
    """The text of block ``name``."""
    if name not in BLOCKS:
        raise SpelbokError(f"unknown vocabulary block '{name}' (known: {', '.join(BLOCKS)})")
    return BLOCKS[name]()


def update(text: str) -> str:
    """``text`` with every marked block rewritten from the vocabulary."""
    return _MARK.sub(lambda m: m.group(1) + render(m.group(2)) + m.group(4), text)


def main(argv: list[str] | None = None) -> int:
    """``--write``: rewrite the blocks of the reference; ``--check``: 1 when they differ."""
    return regenerate(argv, "spelbok.lang.reference", "the vocabulary", lambda: {
        DOC: update((ROOT / DOC).read_text("utf-8"))})


if __name__ == "__main__":
    sys.exit(main())
