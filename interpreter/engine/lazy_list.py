"""The list protocol of a legal list built on demand, shared by the lazy lists of
actions: every exchange of a hand (:class:`~spelbok.engine.subsets.SubsetActions`)
and the plays of several cards (:class:`~spelbok.engine.play_sets.PlaySets`).

Each is a real ``list`` that answers ``in`` by its rule (:meth:`LazyActions.allows`)
and builds its actions (:meth:`LazyActions._build`) the first time anything else
needs them: iterating, comparing, printing, pickling, changing it.  From then on it
is an ordinary list.  A subclass says how it builds and what it allows, and may
answer more without building (``len``, an index).

>>> class Evens(LazyActions):
...     def _build(self) -> None:
...         if not self.built:
...             self.built = True
...             list.extend(self, [0, 2, 4])
...     def allows(self, a: object) -> bool:
...         return a in (0, 2, 4)
>>> e = Evens(); e.built = False
>>> 2 in e, e.built, list(e), e == [0, 2, 4], e.index(4)
(True, False, [0, 2, 4], True, 2)
"""

from __future__ import annotations

from typing import Any

from .actions import Action


class LazyActions(list[Action]):
    # Not compiled (not in HOT): a compiled class's methods check ``self`` against the
    # class they were compiled for, and PlaySets, a Python class, subclasses this one
    # (the compiled SubsetActions, a Python class too, may subclass a Python class).
    """A list of actions built on demand (see the module's doc): ``built`` says
    whether it has been."""

    __slots__ = ()
    built: bool

    def _build(self) -> None:
        """Put every action in the list (once: ``built`` is then True)."""
        raise NotImplementedError

    def allows(self, a: object) -> bool:
        """Whether ``a`` is one of the actions, by the rule alone."""
        raise NotImplementedError

    def __contains__(self, a: object) -> bool:
        if self.built:
            return list.__contains__(self, a)
        return self.allows(a)

    def __iter__(self) -> Any:
        self._build()
        return list.__iter__(self)

    def __reversed__(self) -> Any:
        self._build()
        return list.__reversed__(self)

    def __repr__(self) -> str:
        self._build()
        return list.__repr__(self)

    def __eq__(self, other: object) -> bool:
        self._build()
        if isinstance(other, LazyActions):
            other._build()
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __radd__(self, other: list[Any]) -> list[Any]:
        self._build()
        return list(other) + list(list.__iter__(self))

    def __reduce__(self) -> Any:
        self._build()
        return (list, (list(list.__iter__(self)),))

    __hash__ = None


def _building(name: str) -> Any:
    base = getattr(list, name)

    def method(self: LazyActions, *args: Any, **kwargs: Any) -> Any:
        self._build()
        return base(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = base.__doc__
    return method


# list methods that read or change the items: build the list, then defer to list
for _name in (
    "__add__", "__iadd__", "__mul__", "__rmul__", "__imul__", "__lt__", "__le__", "__gt__",
    "__ge__", "__setitem__", "__delitem__", "append", "extend", "insert", "pop", "remove",
    "clear", "index", "count", "sort", "reverse",
):
    setattr(LazyActions, _name, _building(_name))


__all__ = ["LazyActions"]
