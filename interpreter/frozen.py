"""The base of the engine's frozen value classes.

>>> import copy
>>> from spelbok.formula import parse_formula
>>> node = parse_formula("a + 1")
>>> copy.deepcopy(node) == node
True
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # only the compiler (setup.py) reads it
    def mypyc_attr(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


# (the sources of a compiled module, run for their doctests, subclass it too)
@mypyc_attr(allow_interpreted_subclasses=True)
class Frozen:
    """Base of frozen dataclasses: copy, deepcopy and pickle rebuild them through
    ``__init__``.  (The default way sets the fields one by one after creating the
    object, which a compiled frozen class refuses; see setup.py.)"""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))  # type: ignore[arg-type]
