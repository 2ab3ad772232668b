"""The package is laid out by stage, and the names it had before still import."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import pytest
import spelbok

ROOT = Path(spelbok.__file__).parent
STAGES = ("lang", "formula", "engine", "play", "analysis")


@pytest.mark.parametrize("old", sorted(spelbok.MOVED))
def test_an_old_module_name_is_the_new_module(old: str) -> None:
    new = importlib.import_module(f"spelbok.{spelbok.MOVED[old]}")
    assert importlib.import_module(f"spelbok.{old}") is new
    assert new.__spec__.name == new.__name__ == f"spelbok.{spelbok.MOVED[old]}"


def test_a_submodule_of_an_old_package_name() -> None:
    import spelbok.bots.greedy as old
    import spelbok.play.bots.greedy as new

    assert old is new


def test_documented_names() -> None:
    from spelbok.conformance import check_game
    from spelbok.observe import observe
    from spelbok.subsets import SubsetActions

    assert check_game.__module__ == "spelbok.analysis.conformance"
    assert observe.__module__ == "spelbok.engine.observe"
    assert SubsetActions.__module__ == "spelbok.engine.subsets"


def _imports(path: Path) -> set[str]:
    """The spelbok stages a module imports (relative imports resolved)."""
    package = path.relative_to(ROOT).parts[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(package[: len(package) - node.level + 1])
            target = [*base, *(node.module or "").split(".")]
            if target and target[0]:
                out.add(target[0])
    return out


def test_the_pipeline_runs_one_way() -> None:
    """lang and formula never import the engine, play or analysis (validation, which
    drives both, sits above them), and the engine never imports play or analysis."""
    later = {"lang": {"engine", "play", "analysis"},
             "formula": {"lang", "engine", "play", "analysis"},
             "engine": {"play", "analysis"}}
    for stage, banned in later.items():
        for path in (ROOT / stage).rglob("*.py"):
            assert not _imports(path) & banned, path
    for path in (ROOT / "formula").glob("*.py"):
        assert "engine" not in _imports(path), path


def _layout() -> Any:
    """bench/layout.py of this checkout (the report a developer runs by hand)."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parent.parent / "bench" / "layout.py"
    spec = importlib.util.spec_from_file_location("spelbok_bench_layout", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while they are made
    spec.loader.exec_module(module)
    return module


def test_the_package_is_small_modules_short_functions_and_no_circle() -> None:
    """No module over 600 lines, no function over 80 (generated tables apart), no import
    circle (type-only imports apart; an import inside a function counts), and no library
    module importing the CLI: ``python bench/layout.py`` says where."""
    found = _layout().findings(Path(__file__).resolve().parent.parent)
    assert found["count"] == 0, {k: found[k] for k in ("long_modules", "long_functions",
                                                        "circles", "cli_imports")}
    assert found["modules"] > 100  # it read the package


def test_the_layout_report_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The check above can fail: a long module, a long function, a circle closed in a
    function and an import of the CLI are each found in a small tree."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.setuptools.package-dir]\n"spelbok" = "src"\n"spelbok.cli" = "cmd"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "cmd").mkdir()
    (tmp_path / "src" / "__init__.py").write_text("")
    (tmp_path / "cmd" / "__init__.py").write_text("")
    body = "\n".join(f"    x{i} = {i}" for i in range(90))
    (tmp_path / "src" / "a.py").write_text(f"from .b import g\n\n\ndef f():\n{body}\n"
                                           + "\n" * 600)
    (tmp_path / "src" / "b.py").write_text("def g():\n    from .a import f\n    from .cli.main "
                                           "import h\n")
    (tmp_path / "cmd" / "main.py").write_text("def h():\n    pass\n")
    found = _layout().findings(tmp_path)
    assert [m["path"] for m in found["long_modules"]] == ["src/a.py"]
    assert [f["function"] for f in found["long_functions"]] == ["f"]
    assert found["circles"]["function_level"] and not found["circles"]["module_level"]
    assert found["cli_imports"]
