"""The tables section: named tables of values that formulas read as functions.

A payment scale, a game's base values or a threshold by player count is a table,
not a chain of ``if … then … else``: ``tables: {game_base: {clubs: 12, grand: 24}}``
is read as ``game_base(game)``, and a table of tables takes a key per level
(``handful(seats, choice)``).  A key the table does not hold gives its
``otherwise`` entry, else 0, ``'none'`` or false (see :mod:`spelbok.formula.tables`).

>>> TABLES.name, TABLES.entries
('tables', ('table',))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...formula.nodes import FUNCTIONS
from ...formula.tables import OTHERWISE, TableError, ValueTable
from ...limits import MAX_TABLE_ENTRIES, MAX_TABLE_LEVELS
from .. import dsl_text as t
from .. import prose as p
from ..declare import Field
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["TABLES"]

# ---------------------------------------------------------------- DSL

GRAMMAR = r"""
// a table of values read by formulas as a function: "table game_base:" then its rows,
// "clubs = 12, spades = 11" (several entries a line), or "3:" and a nested level
table: "table" WORD ":" _NL _INDENT _table_rows _DEDENT
_table_rows: (table_entries | table_level)+
table_entries: table_entry ("," table_entry)* _NL
table_entry: table_key "=" literal
table_level: table_key ":" _NL _INDENT _table_rows _DEDENT
table_key: WORD | INT | neg_int | TEXT
"""


def _key(b: Builder, node: Any) -> str:
    tok = node.children[0]
    if is_node(tok, "neg_int"):
        return f"-{tok.children[0]}"
    return b.word(tok)  # a bare word, a number, or a quoted key


def _rows(b: Builder, nodes: list[Any], into: dict[str, Any], path: tuple[str, ...]) -> None:
    for node in nodes:
        pairs = ([(e.children[0], e.children[1], e) for e in node.children]
                 if is_node(node, "table_entries") else [(node.children[0], None, node)])
        for key_node, lit, at in pairs:
            key = _key(b, key_node)
            if lit is None:
                level: dict[str, Any] = {}
                b.put(into, (*path, key), level, key_node, f"the key '{key}'")
                _rows(b, node.children[1:], level, (*path, key))
            else:
                b.put(into, (*path, key), b.value(lit), key_node, f"the key '{key}'")
            b.mark((*path, key), at)


def read_table(b: Builder, st: Any) -> None:
    """Reads ``table NAME:`` and its indented rows."""
    name = str(st.children[0])
    tables = b.section("tables", st)
    table: dict[str, Any] = {}
    b.put(tables, ("tables", name), table, st.children[0], f"the table '{name}'")
    _rows(b, st.children[1:], table, ("tables", name))


def _write_level(out: t.Out, indent: int, level: Mapping[str, Any]) -> None:
    line: list[str] = []

    def flush() -> None:
        if line:
            out.add(indent, ", ".join(line))
            line.clear()

    for key, value in level.items():
        k = t.word(key) if not str(key).lstrip("-").isdigit() else str(key)
        if isinstance(value, Mapping):
            flush()
            out.add(indent, f"{k}:")
            _write_level(out, indent + 1, value)
            continue
        entry = f"{k} = {t.literal(value)}"
        if line and len(", ".join([*line, entry])) + 4 * indent > t.WIDTH:
            flush()
        line.append(entry)
    flush()


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """``table NAME:`` and its rows, a few entries a line."""
    for name, table in (tree.get("tables") or {}).items():
        out.blank()
        out.add(0, f"table {t.word(name)}:")
        _write_level(out, 1, table)


# ---------------------------------------------------------------- describe


def _entries(level: Mapping[str, Any]) -> str:
    """``clubs → 12, 3: (single → 13), otherwise 0``: a level's entries in prose."""
    parts = []
    for key, value in level.items():
        if isinstance(value, Mapping):
            parts.append(f"{key}: ({_entries(value)})")
        elif key == OTHERWISE:
            parts.append(f"otherwise {t.literal(value)}")
        else:
            parts.append(f"{key} → {t.literal(value)}")
    return ", ".join(parts)


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Tables": each table with its keys and values (a missing key: its ``otherwise``)."""
    tables = tree.get("tables") or {}
    if not tables:
        return []
    body: list[str] = []
    for name, table in tables.items():
        try:
            vt = ValueTable.build(name, table)
            what = " and ".join("a number" if k == "int" else "a word" for k in vt.key_types)
        except TableError:
            what = "keys"
        body += p.wrap(f"{name}, read by {what}: {_entries(table)}.")
    return ctx.title("Tables") + body


# ---------------------------------------------------------------- checks


def _levels(value: Any, depth: int = 0) -> tuple[int, int]:
    """(deepest level, entries) of a table's tree."""
    if not isinstance(value, Mapping):
        return depth, 1
    deepest, count = depth, 0
    for v in value.values():
        d, c = _levels(v, depth + 1)
        deepest, count = max(deepest, d), count + c
    return deepest, count


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """A table's name is free, its levels and size bounded, its keys and values uniform."""
    variables = {n for scope in (tree.get("variables") or {}).values()
                 if isinstance(scope, Mapping) for n in scope}
    for name, table in (tree.get("tables") or {}).items():
        at = ("tables", name)
        if name in ck.RESERVED or name in FUNCTIONS:
            ck.err(at, f"the table '{name}' clashes with a builtin name or function of the "
                   "formula language", key=True)
            continue
        if name in ck.options or name in variables:
            ck.err(at, f"the table '{name}' clashes with the "
                   f"{'option' if name in ck.options else 'variable'} '{name}'", key=True)
            continue
        if not isinstance(table, Mapping):
            continue  # the schema reports it
        levels, entries = _levels(table)
        if levels > MAX_TABLE_LEVELS or entries > MAX_TABLE_ENTRIES:
            ck.err(at, f"the table '{name}' is too large: at most {MAX_TABLE_LEVELS} levels "
                   f"of keys and {MAX_TABLE_ENTRIES} entries")
            continue
        try:
            ValueTable.build(name, table)
        except TableError as e:
            ck.err((*at, *e.path), f"in the table '{name}': {e}")


TABLES: Home = Home(
    None,
    grammar=GRAMMAR,
    entries=("table",),
    builds={"table": read_table},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("tables", "names[value_table]", "named tables of values, read by formulas as "
                "functions of their keys: `game_base(game)`, see below", default={},
                omitted=True, doc_type="map name → table"),),
)
