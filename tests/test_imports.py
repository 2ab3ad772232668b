"""The import graph of the library, read from its sources: boundaries that hold.

The folders are not the import names (``interpreter/`` is ``spelbok``, ``cli/`` is
``spelbok.cli``: pyproject's package-dir), so no tool shows these edges; this test
reads every module with :mod:`ast`, resolves its relative imports, and checks them.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> dict[str, Path]:
    """Each module of the package by its import name, from pyproject's package-dir."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    folders = config["tool"]["setuptools"]["package-dir"]
    out: dict[str, Path] = {}
    for package, folder in folders.items():
        for path in sorted((ROOT / folder).glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            out[name] = path
    return out


def _imported(name: str, path: Path) -> set[str]:
    """The modules ``name`` imports (anywhere in it: in functions, under TYPE_CHECKING),
    relative imports resolved; ``from a import b`` counts ``a`` and ``a.b``."""
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            out.add(base)
            out |= {f"{base}.{alias.name}" for alias in node.names}
    return out


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_graph_is_read(tmp_path: Path) -> None:
    """The reader finds the modules and resolves relative imports (else the test below
    would pass on nothing)."""
    modules = _modules()
    assert {"spelbok", "spelbok.engine.state", "spelbok.cli.main", "spelbok.web.app"} <= set(modules)
    assert "spelbok.engine.observe" in _imported("spelbok.web.sessions",
                                                 modules["spelbok.web.sessions"])
    assert "spelbok.cli.options" in _imported("spelbok.cli.play", modules["spelbok.cli.play"])
    source = tmp_path / "sessions.py"
    source.write_text("def f():\n    from ..cli.render import card\n    from .. import cli\n")
    assert {"spelbok.cli.render", "spelbok.cli"} <= _imported("spelbok.web.sessions", source)


def test_no_library_module_imports_the_cli() -> None:
    """``cli/`` presents, the library does the work: what the terminal shares with the
    web page or the game-AI interfaces lives in the library (spelbok.view,
    spelbok.play.matchlog), never in ``cli/``."""
    bad = [f"{name} imports {target}"
           for name, path in _modules().items() if not _within(name, "spelbok.cli")
           for target in sorted(_imported(name, path)) if _within(target, "spelbok.cli")]
    assert not bad, "\n".join(bad)


def test_bots_read_the_compiled_program_not_the_spec() -> None:
    """A bot plays from the game's compiled program and the seat's view: no module of
    ``spelbok.play.bots`` reads a spec tree (``.tree``, ``.raw``) or the loaded document
    (``.doc``), so a bot works for every spec the compiler accepts, whatever its form."""
    bad = []
    for name, path in _modules().items():
        if not _within(name, "spelbok.play.bots"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Attribute) and node.attr in ("tree", "raw", "doc"):
                bad.append(f"{name}:{node.lineno} reads .{node.attr}")
    assert not bad, "\n".join(bad)
    assert any(_within(n, "spelbok.play.bots") for n in _modules())


def test_the_run_time_library_is_apart_from_the_compiler() -> None:
    """What formulas read in play (``engine.readers``, the getters the resolver hands
    out) is a module of its own that never imports the compile-once compiler, and the
    compiler's own functions take no state (the setters it makes are closures)."""
    modules = _modules()
    assert not any(_within(t, "spelbok.engine.compiler")
                   for t in _imported("spelbok.engine.readers", modules["spelbok.engine.readers"]))
    tree = ast.parse(modules["spelbok.engine.compiler"].read_text("utf-8"))
    top = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    top += [m for c in tree.body if isinstance(c, ast.ClassDef) for m in c.body
            if isinstance(m, ast.FunctionDef)]
    assert top and not [f.name for f in top if f.args.args[:2] and "st" in
                        [a.arg for a in f.args.args[:2]]]
