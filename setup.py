"""Build hook: compile the engine's hot path with mypyc, when asked to.

Everything else about the package is declared in pyproject.toml.  The modules
in ``HOT`` (interpreter/_native.py) run the rules on every decision; mypyc
turns them into one C extension (``spelbok._native__mypyc`` plus a small
module per name), which makes random playouts about 1.6 times faster
(docs/performance.md) but adds minutes to the install.

The pure-Python package is always complete and always correct, and it is the
default:

* ``SPELBOK_COMPILE=1`` at install time compiles the hot path; so does
  ``SPELBOK_REQUIRE_COMPILED=1`` (CI), which also turns any fallback into an
  error;
* ``SPELBOK_PURE=1`` at install time skips the compilation even then;
* a failed compilation (no C compiler, mypyc missing) warns and installs the
  pure package;
* ``SPELBOK_PURE=1`` at run time ignores compiled modules that are present
  (see ``interpreter/_native.py``), and compiled modules whose sources have
  changed since are ignored with a warning: an edited checkout never runs stale code.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _load_native() -> Any:
    """interpreter/_native.py, which names the hot modules and digests their sources."""
    spec = importlib.util.spec_from_file_location("_spelbok_native", ROOT / "interpreter" / "_native.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


NATIVE = _load_native()
# The compiled functions call each other thousands of times a decision.  Exported
# (the default), each call goes through the PLT and none can be inlined, since another
# library could interpose it; hidden, they are direct calls in one library (only the
# module's init function, marked PyMODINIT_FUNC, stays visible).  -fno-plt calls the
# Python C API through the GOT at once, without a PLT stub.  Callgrind, Knock-out Whist
# 4 players, per decision: 6.6 % fewer instructions, 10 % fewer instruction-cache misses,
# 29 % fewer mispredicted indirect branches (docs/performance.md).
CFLAGS = [] if sys.platform == "win32" else ["-fvisibility=hidden"] + (
    ["-fno-semantic-interposition", "-fno-plt"] if sys.platform.startswith("linux") else [])
# this build's own folder (builds may run side by side): the staged sources, the C
WORK = ROOT / "build" / f"mypyc-{os.getpid()}"
DIGEST: list[str] = []  # of the staged sources, once staged


def _note(text: str) -> None:
    if os.environ.get("SPELBOK_REQUIRE_COMPILED"):  # CI: a silent fallback would hide a break
        raise SystemExit(f"spelbok build: {text} (SPELBOK_REQUIRE_COMPILED is set)")
    print(f"spelbok build: {text}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build the compiled modules, or none of them: a half-built group would not import."""

    def run(self) -> None:
        if not self.extensions:
            return
        digest = Path(self.get_ext_fullpath("spelbok.cards")).parent / NATIVE.DIGEST_FILE
        try:
            super().run()
        except Exception as e:  # compiler missing or failing: fall back to pure Python
            _note(f"compiling the hot path failed ({e}); installing pure Python")
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            digest.unlink(missing_ok=True)
            self.extensions = []
            return
        # what was compiled: a source edited later makes spelbok ignore the build
        digest.write_text(DIGEST[0] + "\n")


#: What a default (pure) build says: how to get the compiled engine instead.
OPT_IN = ("pure Python (the default); set SPELBOK_COMPILE=1 to compile the hot path "
          "with mypyc: playouts about 1.6 times faster, a few minutes more to install")

# the setup.py commands that build code (metadata and sdists need no compiling)
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _clean_inplace() -> None:
    """An editable build starts from no compiled copy: whatever it builds, or does
    not build (SPELBOK_PURE, no compiler), nothing older stays beside the sources."""
    from importlib.machinery import EXTENSION_SUFFIXES

    folder = ROOT / "interpreter"
    for path in folder.rglob("*"):
        if path.name == NATIVE.DIGEST_FILE or any(path.name.endswith(s) for s in EXTENSION_SUFFIXES):
            path.unlink()


def _ext_modules() -> list:
    if not BUILDS & set(sys.argv[1:]):
        return []
    if {"editable_wheel", "develop"} & set(sys.argv[1:]):
        _clean_inplace()
    if os.environ.get("SPELBOK_PURE"):
        _note("SPELBOK_PURE is set: pure Python")
        return []
    if not (os.environ.get("SPELBOK_COMPILE") or os.environ.get("SPELBOK_REQUIRE_COMPILED")):
        # the default: a quick install; the compiled engine is an opt-in of minutes
        print(f"spelbok build: {OPT_IN}", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _note("mypyc is not available: pure Python")
        return []
    # mypyc names modules after their directories, and the library lives in
    # interpreter/ (imported as spelbok): compile a staged copy named spelbok/
    stage = WORK / "src"
    shutil.copytree(ROOT / "interpreter", stage / "spelbok",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    atexit.register(shutil.rmtree, WORK, True)
    DIGEST.append(NATIVE.source_digest(str(stage / "spelbok")))
    paths = [str(p) for p in sorted((stage / "spelbok").rglob("*.py"))]
    hot = [str(stage / "spelbok" / f"{name}.py")
           for name in NATIVE.hot_modules(str(stage / "spelbok"))]
    cwd = os.getcwd()
    try:
        os.chdir(stage)  # mypy resolves the package from here
        exts = mypycify(
            ["--ignore-missing-imports", *paths],
            only_compile_paths=hot,
            group_name="spelbok._native",
            target_dir=str(WORK / "c"),
        )
        for ext in exts:
            ext.extra_compile_args = [*ext.extra_compile_args, *CFLAGS]
        return exts
    except (Exception, SystemExit) as e:  # mypyc reports type errors with SystemExit
        _note(f"mypyc could not translate the hot path ({e!r}); pure Python")
        return []
    finally:
        os.chdir(cwd)


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
