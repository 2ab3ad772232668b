"""spelbok: run traditional trick-taking card games from declarative specs.

>>> import spelbok
>>> game = spelbok.load("example", players=2)
>>> state = game.new_state(seed=7)
>>> while not state.is_terminal:
...     state.apply(state.legal_actions()[0])
>>> state.winners != []
True

Heavy modules load lazily so that ``import spelbok`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._native import choose as _choose_native

# whether the hot path runs compiled (mypyc) or as Python sources: decided
# before any of it is imported (see _native.py)
COMPILED: bool = _choose_native()

from .errors import (  # noqa: E402
    ActionError,
    AmbiguousActionError,
    ArgumentError,
    FormulaError,
    IllegalActionError,
    InvalidActionError,
    LimitError,
    ReadingError,
    SnapshotError,
    SpecError,
    SpecErrors,
    SpelbokError,
)

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game, load
    from .state import State

__version__ = "0.1.0"

__all__ = [
    "Action", "ActionError", "AmbiguousActionError", "ArgumentError", "FormulaError", "Game",
    "IllegalActionError", "InvalidActionError", "LimitError", "ReadingError", "SnapshotError", "SpecError", "SpecErrors",
    "SpelbokError", "State", "load", "__version__",
]

_LAZY = {"load": ".game", "Game": ".game", "State": ".state", "Action": ".actions"}


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'spelbok' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(mod, __name__), name)
    globals()[name] = value
    return value
