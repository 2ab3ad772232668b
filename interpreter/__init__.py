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
    from .engine.actions import Action
    from .engine.game import Game, load
    from .engine.state import State

__version__ = "0.1.0"

__all__ = [
    "Action", "ActionError", "AmbiguousActionError", "ArgumentError", "FormulaError", "Game",
    "IllegalActionError", "InvalidActionError", "LimitError", "ReadingError", "SnapshotError", "SpecError", "SpecErrors",
    "SpelbokError", "State", "load", "__version__",
]

_LAZY = {"load": ".engine.game", "Game": ".engine.game", "State": ".engine.state",
         "Action": ".engine.actions"}

#: Modules that lived elsewhere before (old name -> new name, under ``spelbok``): the top
#: of the package before it was laid out by stage, and later moves; ``import
#: spelbok.observe`` still gives ``spelbok.engine.observe``.
MOVED: dict[str, str] = {
    "yamlio": "lang.yamlio", "dsl": "lang.dsl", "dslwrite": "lang.dslwrite",
    "loader": "lang.loader", "model": "lang.model", "checks": "lang.checks",
    "describe": "lang.describe", "validate": "validation",
    "compiler": "engine.compiler", "program": "engine.program", "state": "engine.state",
    "steps": "engine.steps", "tricks": "engine.trick", "subsets": "engine.subsets",
    "order": "engine.order", "rng": "engine.rng", "observe": "engine.observe",
    "snapshot": "engine.snapshot", "position": "engine.position", "actions": "engine.actions",
    "game": "engine.game", "match": "play.match", "bots": "play.bots",
    "conformance": "analysis.conformance", "simulate": "analysis.simulate",
    "readings": "analysis.readings", "render": "view",
    # moved since: validation drives the language's checks and the engine's compiler
    "lang.validate": "validation",
}


class _MovedFinder:
    """Imports a module's old name as its new module (the same object, not a copy)."""

    @staticmethod
    def find_spec(fullname: str, path: Any = None, target: Any = None) -> Any:
        top, _, rest = fullname.partition(".")
        if top != __name__:
            return None
        for old, new in MOVED.items():
            if rest == old or rest.startswith(old + "."):
                import importlib.util

                loader: Any = _MovedLoader(f"{__name__}.{new}{rest[len(old):]}")
                return importlib.util.spec_from_loader(fullname, loader)
        return None


class _MovedLoader:
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: Any) -> Any:
        import importlib

        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: Any) -> None:
        # the import system set the old name's spec on the module: give it its own back
        module.__spec__ = self.spec


import sys as _sys  # noqa: E402

_sys.meta_path.insert(0, _MovedFinder)  # before the path finder: a submodule of an old name too


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'spelbok' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(mod, __name__), name)
    globals()[name] = value
    return value
