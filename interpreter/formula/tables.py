"""A spec's tables of values, read by formulas as functions: ``game_base(game)``.

A table maps keys to values, one level of keys per argument: ``{clubs: 12, grand: 24}``
is read with one argument, ``{3: {single: 13}, 4: {single: 10}}`` with two.  The keys of
one level are all whole numbers or all words; the values are all numbers, all words or
all true/false.  A key the table does not hold takes the nearest ``otherwise`` entry
(of its own level, else of a level above), else 0, ``'none'`` or false.  So a formula
that reads a table never fails in play.

>>> t = ValueTable.build("base", {"clubs": 12, "grand": 24, "otherwise": 0})
>>> t.arity, t.key_types, t.value_type, t.lookup(("grand",)), t.lookup(("null",))
(1, ('str',), 'int', 24, 0)
>>> t2 = ValueTable.build("need", {"3": {"single": 13, "otherwise": 99}, "4": {"single": 10}})
>>> t2.lookup((3, "single")), t2.lookup((3, "double")), t2.lookup((4, "double"))
(13, 99, 0)
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["OTHERWISE", "TableError", "ValueTable", "key_of", "table_names"]

#: The key of a level's fallback value.
OTHERWISE = "otherwise"
_INT = re.compile(r"^-?[0-9]+$")
#: The value a missing key gives when no ``otherwise`` applies, by value type.
_NOTHING: dict[str, Any] = {"int": 0, "str": "none", "bool": False}


class TableError(ValueError):
    """A table that breaks a rule of the module doc; ``path`` is the keys down to it."""

    def __init__(self, message: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


def key_of(text: str) -> int | str:
    """A key as formulas compare it: ``'3'`` is the number 3, a word stays a word.

    >>> key_of("3"), key_of("-1"), key_of("grand")
    (3, -1, 'grand')
    """
    return int(text) if _INT.match(text) else text


def _type_of(value: Any) -> str:
    return "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "str"


@dataclass(frozen=True)
class ValueTable:
    """One table: its ``arity`` (levels of keys), the type of each level's keys
    (``'int'`` or ``'str'``), its values' type, and the flat ``entries`` and
    ``fallbacks`` (by the prefix of keys whose ``otherwise`` applies)."""

    name: str
    arity: int
    key_types: tuple[str, ...]
    value_type: str
    entries: Mapping[tuple[Any, ...], Any]
    fallbacks: Mapping[tuple[Any, ...], Any]

    @classmethod
    def build(cls, name: str, tree: Mapping[str, Any]) -> ValueTable:
        """The table of a spec's ``tables.<name>`` map; :class:`TableError` if it breaks a rule."""
        entries: dict[tuple[Any, ...], Any] = {}
        fallbacks: dict[tuple[Any, ...], Any] = {}
        key_types: dict[int, str] = {}
        value_types: set[str] = set()
        depths: set[int] = set()

        def walk(level: Mapping[str, Any], prefix: tuple[Any, ...], path: tuple[str, ...]) -> None:
            keys = [k for k in level if k != OTHERWISE]
            if not keys:
                raise TableError("a table level needs at least one key besides 'otherwise'", path)
            kinds = {"int" if _INT.match(str(k)) else "str" for k in keys}
            if len(kinds) > 1:
                raise TableError("the keys of one level must be all numbers or all words", path)
            kind = kinds.pop()
            if key_types.setdefault(len(prefix), kind) != kind:
                raise TableError("the keys of one level must be all numbers or all words "
                                 "across the table", path)
            if OTHERWISE in level:
                other = level[OTHERWISE]
                if isinstance(other, Mapping):
                    raise TableError("'otherwise' takes a value, not a table", (*path, OTHERWISE))
                value_types.add(_type_of(other))
                fallbacks[prefix] = other
            for k in keys:
                v = level[k]
                at = (*prefix, key_of(str(k)))
                if isinstance(v, Mapping):
                    walk(v, at, (*path, str(k)))
                else:
                    depths.add(len(at))
                    value_types.add(_type_of(v))
                    entries[at] = v

        walk(tree, (), ())
        if len(depths) > 1:
            raise TableError("every entry of a table needs as many keys (levels: "
                             + ", ".join(str(d) for d in sorted(depths)) + ")")
        if len(value_types) > 1:
            raise TableError("the values of a table must be all numbers, all words or all "
                             "true/false")
        arity = depths.pop()
        value_type = value_types.pop()
        return cls(name, arity, tuple(key_types[i] for i in range(arity)), value_type,
                   entries, fallbacks)

    def lookup(self, keys: tuple[Any, ...]) -> Any:
        """The value at ``keys``, else the nearest ``otherwise``, else nothing of its type."""
        try:
            return self.entries[keys]
        except (KeyError, TypeError):  # TypeError: an unhashable key never matches
            pass
        return self.missing(keys[:-1])

    def missing(self, prefix: tuple[Any, ...] = ()) -> Any:
        """What a key missing under ``prefix`` gives: the nearest ``otherwise`` at or above
        it, else nothing of the values' type (0, ``'none'``, false)."""
        for n in range(len(prefix), -1, -1):
            if prefix[:n] in self.fallbacks:
                return self.fallbacks[prefix[:n]]
        return _NOTHING[self.value_type]


def table_names(tables: Mapping[str, Any] | None) -> dict[str, Any]:
    """The formula names of a spec's ``tables`` section: each table, as a name of kind
    ``table`` that a resolver adds to its own (a table that breaks a rule is left out:
    the checks report it).

    >>> info = table_names({"base": {"clubs": 12}})["base"]
    >>> info.kind, info.value.lookup(("clubs",))
    ('table', 12)
    """
    from .names import NameInfo

    out: dict[str, Any] = {}
    for name, tree in (tables or {}).items():
        if isinstance(tree, Mapping):
            with contextlib.suppress(TableError):
                out[name] = NameInfo("table", ValueTable.build(name, tree), None)
    return out
