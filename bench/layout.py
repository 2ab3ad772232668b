"""The package's layout, measured from its sources: what breaks the rules of the house.

    python bench/layout.py            # the findings, one a line; exit status 1 on any
    python bench/layout.py --json     # the same as JSON (see findings())
    python bench/layout.py --root DIR # another checkout

Read with :mod:`ast` only (nothing of the package is imported, so a broken
checkout is measured too).  The library is every ``.py`` file under the folders
that pyproject's ``[tool.setuptools.package-dir]`` maps to a package: ``interpreter/``
is ``spelbok``, ``cli/`` is ``spelbok.cli`` (the folder name is not the import
name, which is why no ordinary tool shows the imports of the CLI).  It reports:

* **long modules**: over :data:`MODULE_LINES` lines (every line of the file);
* **long functions**: over :data:`FUNCTION_LINES` lines, from the ``def`` line to
  the last line of the body (decorators not counted; a nested function counts for
  itself and inside its parent).  A *generated table* is not a finding: a function
  at least :data:`TABLE_SHARE` of whose body (docstring left out) lies inside
  literal displays of constants (``{...}``, ``[...]``, ``(...)`` holding only
  constants and such displays): data written out, by hand or by a generator, not
  logic.  Those are listed apart, as ``tables``;
* **import circles**: the strongly connected components of the graph of imports
  among the library's modules.  An import under ``if TYPE_CHECKING:`` is no edge
  (its ``else:`` is one).  An import inside a function is an edge; circles are
  reported twice over: those of the module-level edges alone (they run when the
  modules are imported), and those that only close through a function-level
  import (``function_level``), each with the edges inside it.  An edge goes to the
  module named (``from a.b import c`` is an edge to ``a.b.c`` when that is a module,
  else to ``a.b``); importing a module also runs its packages' ``__init__``, but
  that is no edge here (else every module would sit in one circle with
  ``spelbok/__init__``);
* **CLI imports**: a module of the library outside ``spelbok.cli`` that imports
  ``spelbok.cli`` (at module or function level).

:func:`findings` returns all of it as a dict, for a test to call.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

MODULE_LINES = 600
FUNCTION_LINES = 80
#: the share of a function's body inside literal displays that makes it a generated table
TABLE_SHARE = 0.9
CLI = "spelbok.cli"


@dataclass(frozen=True)
class Import:
    """One import of a library module by another."""

    source: str  # the importing module
    target: str  # the module imported
    line: int
    function: bool  # inside a function (run when it is called, not when imported)


# -- the modules -------------------------------------------------------------------------


def package_dirs(root: Path) -> dict[str, Path]:
    """pyproject's package-dir: package name -> folder (only folders that exist)."""
    with open(root / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)
    dirs = data.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    return {pkg: root / folder for pkg, folder in dirs.items() if (root / folder).is_dir()}


def modules(root: Path) -> dict[str, Path]:
    """Every module of the library: dotted name -> file.  A folder mapped to a package
    of its own (``cli/``) is read under that name, not under its parent's folder."""
    dirs = package_dirs(root)
    owned = {d.resolve() for d in dirs.values()}
    out: dict[str, Path] = {}
    for pkg, folder in dirs.items():
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder)
            # a subfolder that pyproject maps itself is read there
            if any(p.resolve() in owned for p in list(path.parents)[:len(rel.parts) - 1]):
                continue
            parts = [*pkg.split("."), *rel.with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


# -- imports -----------------------------------------------------------------------------


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk_imports(node: ast.AST, in_function: bool = False
                  ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Each import statement with whether it sits inside a function, skipping the
    body of ``if TYPE_CHECKING:`` (its ``else`` is run, so it counts)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, in_function
        elif isinstance(child, ast.If) and _type_checking(child.test):
            for sub in child.orelse:
                yield from _walk_imports(ast.Module(body=[sub], type_ignores=[]), in_function)
        else:
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef
                                              | ast.Lambda)
            yield from _walk_imports(child, inner)


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The library module a dotted name is, or the longest module it starts with."""
    parts = name.split(".")
    while parts:
        dotted = ".".join(parts)
        if dotted in known:
            return dotted
        parts.pop()
    return None


def imports(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """The imports of library modules by the module ``name`` (the file ``path``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[Import] = []
    for node, in_function in _walk_imports(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                start = ".".join([*base, node.module] if node.module else base)
            else:
                start = node.module or ""
            # `from a import b`: the module a.b when there is one, else a
            targets = [f"{start}.{a.name}" if f"{start}.{a.name}" in known else start
                       for a in node.names]
        for t in dict.fromkeys(targets):
            got = _resolve(t, known)
            if got is not None and got != name:
                out.append(Import(name, got, node.lineno, in_function))
    return out


# -- circles -----------------------------------------------------------------------------


def _components(nodes: list[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def circles(found: list[Import]) -> dict[str, list[dict[str, Any]]]:
    """The circles of module-level imports, and those that close only through an import
    inside a function; each with its modules and the edges among them."""
    def graph(items: list[Import]) -> dict[str, set[str]]:
        g: dict[str, set[str]] = {}
        for i in items:
            g.setdefault(i.source, set()).add(i.target)
        return g

    names = sorted({i.source for i in found} | {i.target for i in found})
    top = [i for i in found if not i.function]
    at_import = _components(names, graph(top))
    inside = {frozenset(c) for c in at_import}
    late = [c for c in _components(names, graph(found)) if frozenset(c) not in inside]

    def describe(comp: list[str], items: list[Import]) -> dict[str, Any]:
        members = set(comp)
        edges = sorted({(i.source, i.target, i.line, i.function) for i in items
                        if i.source in members and i.target in members})
        return {"modules": comp, "edges": [
            {"from": s, "to": t, "line": line, "function": f} for s, t, line, f in edges]}

    return {"module_level": [describe(c, top) for c in at_import],
            "function_level": [describe(c, found) for c in late]}


# -- functions ---------------------------------------------------------------------------


def _data(node: ast.AST) -> bool:
    """A literal display of constants (nested displays allowed)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True  # -1
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(_data(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is None or _data(k) for k in node.keys) and all(_data(v) for v in node.values)
    return False


def _table_share(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> float:
    """The share of a function's body lines (docstring left out) inside literal displays."""
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if not body:
        return 0.0
    first, last = body[0].lineno, max(s.end_lineno or s.lineno for s in body)
    covered: set[int] = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict) and _data(node):
                covered.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return len(covered) / (last - first + 1)


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield prefix + node.name, node
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


# -- the report --------------------------------------------------------------------------


def findings(root: Path | str = ROOT) -> dict[str, Any]:
    """Everything this script reports for the checkout at ``root``, as plain data.

    ``long_modules``, ``long_functions``, ``cli_imports``, ``circles``
    (``module_level`` and ``function_level``) are the findings; ``tables`` lists the
    long functions left out as generated tables; ``count`` is the number of findings
    (each circle counts once).  Paths are relative to ``root``.
    """
    root = Path(root)
    known = modules(root)
    rel = {name: path.relative_to(root).as_posix() for name, path in known.items()}
    long_modules: list[dict[str, Any]] = []
    long_functions: list[dict[str, Any]] = []
    tables: list[dict[str, Any]] = []
    found: list[Import] = []
    for name, path in sorted(known.items()):
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MODULE_LINES:
            long_modules.append({"module": name, "path": rel[name], "lines": lines})
        tree = ast.parse(text, str(path))
        for qual, fn in _functions(tree):
            size = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if size <= FUNCTION_LINES:
                continue
            item = {"module": name, "path": rel[name], "function": qual, "line": fn.lineno,
                    "lines": size}
            (tables if _table_share(fn) >= TABLE_SHARE else long_functions).append(item)
        found += imports(name, path, known)
    cli_imports = [
        {"module": i.source, "path": rel[i.source], "line": i.line, "imports": i.target,
         "function": i.function}
        for i in found
        if (i.target == CLI or i.target.startswith(CLI + "."))
        and not (i.source == CLI or i.source.startswith(CLI + "."))]
    loops = circles(found)
    count = (len(long_modules) + len(long_functions) + len(cli_imports)
             + len(loops["module_level"]) + len(loops["function_level"]))
    return {"limits": {"module_lines": MODULE_LINES, "function_lines": FUNCTION_LINES,
                       "table_share": TABLE_SHARE},
            "modules": len(known), "count": count, "long_modules": long_modules,
            "long_functions": long_functions, "tables": tables, "circles": loops,
            "cli_imports": cli_imports}


def text_report(data: dict[str, Any]) -> str:
    """The findings for a person, one a line, grouped."""
    lim = data["limits"]
    out: list[str] = []
    if data["long_modules"]:
        out.append(f"modules over {lim['module_lines']} lines:")
        out += [f"  {m['path']}: {m['lines']}" for m in data["long_modules"]]
    if data["long_functions"]:
        out.append(f"functions over {lim['function_lines']} lines:")
        out += [f"  {f['path']}:{f['line']} {f['function']}: {f['lines']}"
                for f in data["long_functions"]]
    for kind, title in (("module_level", "import circles (module level)"),
                        ("function_level", "import circles closed by an import inside a function")):
        if data["circles"][kind]:
            out.append(f"{title}:")
            for c in data["circles"][kind]:
                out.append("  " + " <-> ".join(c["modules"]))
                out += [f"    {e['from']} -> {e['to']} (line {e['line']}"
                        f"{', in a function' if e['function'] else ''})" for e in c["edges"]]
    if data["cli_imports"]:
        out.append(f"library modules importing {CLI}:")
        out += [f"  {i['path']}:{i['line']} {i['module']} -> {i['imports']}"
                f"{' (in a function)' if i['function'] else ''}" for i in data["cli_imports"]]
    if data["tables"]:
        out.append(f"(left out, generated tables: {', '.join(t['function'] for t in data['tables'])})")
    out.append(f"{data['count']} finding(s) in {data['modules']} modules")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    args = ap.parse_args(argv)
    data = findings(args.root)
    print(json.dumps(data, indent=2) if args.json else text_report(data))
    return 1 if data["count"] else 0


if __name__ == "__main__":
    sys.exit(main())
