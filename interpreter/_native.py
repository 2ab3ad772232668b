"""Compiled or pure Python: which copy of the hot-path modules gets imported.

An install built with ``SPELBOK_COMPILE=1`` (see setup.py; the default build is
pure Python and holds neither) has, beside the sources, the hot-path modules
compiled by mypyc and ``_compiled.sha256``, the digest of the sources they
were compiled from.  Python would import a compiled module in preference to
its source, so this module (run by ``spelbok/__init__`` before anything else)
turns to the sources when

* ``SPELBOK_PURE`` is set in the environment (to compare, or to debug), or
* a source no longer matches the digest: a checkout edited after its build
  must never run the old rules.  That case warns once.

``spelbok.COMPILED`` tells which copy is running.  setup.py loads this file
too, for ``HOT`` and ``source_digest``: it has no effect when imported.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import module_from_spec, spec_from_file_location
from types import ModuleType
from typing import Any

# What setup.py compiles: a module ("engine/state") or, ending in "/", every module of a
# folder ("rl/compiled/": its __init__ aside), see hot_modules.  (The digest of a build
# covers every module of the library whatever this order: source_digest.)
HOT = ("cards", "frozen",
       # the formula language: parsed, typed and compiled to closures run on every decision
       "formula/",
       # the engine's hot path: the state, the program, the order tables, the trick rules,
       # each step kind's instructions beside its compile step (subclasses of the compiled
       # Instr, so compiled too), the formulas' run-time library and the names that read it
       "engine/state", "engine/fields", "engine/resolve", "engine/steps", "engine/program",
       "engine/rng", "engine/order", "engine/observe", "engine/compiler", "engine/subsets",
       "engine/trick", "engine/trick_play", "engine/dummy", "engine/announce", "engine/card_play",
       "engine/any_turn", "engine/blind",
       "engine/tricks", "engine/flow", "engine/deal", "engine/decide", "engine/exchange",
       "engine/auction", "engine/auction_doubling", "engine/combos", "engine/deal_shows",
       "engine/passing", "engine/patterns", "engine/melds", "engine/stock",
       "engine/readers", "engine/resolver", "engine/seats",
       # batched playouts (Game.playouts) and the search bots' steps
       "engine/playouts",
       # the game-AI interfaces: observations, legal numbers, masks and AEC turns (spelbok.rl)
       "rl/compiled/")
DIGEST_FILE = "_compiled.sha256"
_HERE = os.path.dirname(os.path.abspath(__file__))


def source_digest(folder: str) -> str:
    """The SHA-256 of the library's modules in ``folder`` (what a build compiled, and
    every module whose types the compiler relied on)."""
    h = hashlib.sha256()
    for rel in _sources(folder):
        h.update(rel.encode() + b"\0")
        with open(os.path.join(folder, rel), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


#: Subpackages that an install puts inside the package folder but that come from other
#: top-level folders (pyproject's package-dir): never compiled, so outside the digest.
OTHER_FOLDERS = ("cli", "grammar", "specs", "__pycache__")


def _sources(folder: str) -> list[str]:
    """The library's ``.py`` files under ``folder``, as sorted '/'-separated relative paths."""
    out = []
    for root, dirs, files in os.walk(folder):
        top = root == folder
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not (top and d in OTHER_FOLDERS))
        rel = os.path.relpath(root, folder).replace(os.sep, "/")
        out += [name if rel == "." else f"{rel}/{name}" for name in files if name.endswith(".py")]
    return sorted(out)


def hot_modules(folder: str = _HERE) -> list[str]:
    """The modules ``HOT`` names, as paths without ``.py`` relative to the library's
    ``folder``, a folder's modules in sorted order.

    >>> "rl/compiled/tensor" in hot_modules() and "engine/state" in hot_modules()
    True
    """
    out: list[str] = []
    for name in HOT:
        if not name.endswith("/"):
            out.append(name)
            continue
        files = sorted(os.listdir(os.path.join(folder, name)))
        out += [name + f[:-3] for f in files if f.endswith(".py") and f != "__init__.py"]
    return out


def _compiled(rel: str) -> bool:
    """Whether a compiled copy of the module at ``rel`` (a path without ``.py``) exists."""
    return any(os.path.exists(os.path.join(_HERE, rel + s)) for s in EXTENSION_SUFFIXES)


class _SourceFinder:
    """Finds the library's modules as sources, ahead of any compiled copy beside them
    (whatever the build compiled, even modules that HOT no longer names)."""

    @staticmethod
    def find_spec(fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        top, _, rest = fullname.partition(".")
        if top != __package__ or not rest:
            return None
        rel = rest.replace(".", "/")
        source = os.path.join(_HERE, f"{rel}.py")
        if not _compiled(rel) or not os.path.exists(source):
            return None
        return spec_from_file_location(fullname, source)


def _compiled_present() -> bool:
    return any(_compiled(rel[:-3]) for rel in _sources(_HERE))


def choose() -> bool:
    """Arrange the imports of the hot path; True when the compiled copy will run."""
    if not _compiled_present():
        return False
    use = not os.environ.get("SPELBOK_PURE")
    if use:
        try:
            with open(os.path.join(_HERE, DIGEST_FILE)) as f:
                built = f.read().strip()
        except OSError:
            built = ""
        if built != source_digest(_HERE):
            warnings.warn(
                "spelbok: the compiled hot path is older than its sources; running the "
                "sources (rebuild with `SPELBOK_COMPILE=1 pip install -e .` to compile again)",
                RuntimeWarning, stacklevel=3)
            use = False
    if not use:
        sys.meta_path.insert(0, _SourceFinder)
    return use



def source_module(module: ModuleType) -> ModuleType:
    """``module`` when it runs from its source; for a compiled module, its source
    loaded beside it as ``<name>__source``.  Doctest cannot read the docstring
    examples of compiled functions; the tests run them from here.

    >>> import spelbok.engine.steps
    >>> source_module(spelbok.engine.steps).__file__.endswith("steps.py")
    True
    """
    file = getattr(module, "__file__", None) or ""
    if file.endswith(".py"):
        return module
    rel = module.__name__.partition(".")[2].replace(".", "/")
    path = os.path.join(_HERE, f"{rel}.py")  # (a compiled __file__ may name another folder)
    key = f"{module.__name__}__source"
    if key in sys.modules:
        return sys.modules[key]
    spec = spec_from_file_location(key, path)
    assert spec is not None and spec.loader is not None
    source = module_from_spec(spec)
    sys.modules[key] = source  # dataclasses look their module up while it runs
    spec.loader.exec_module(source)
    return source
