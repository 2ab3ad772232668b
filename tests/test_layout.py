"""The package is laid out by stage, and the names it had before still import."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

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
    """lang and formula never import the engine, play or analysis at module level
    (validate compiles a spec lazily), and the engine never imports play or analysis."""
    later = {"lang": {"play", "analysis"}, "formula": {"lang", "engine", "play", "analysis"},
             "engine": {"play", "analysis"}}
    for stage, banned in later.items():
        for path in (ROOT / stage).glob("*.py"):
            assert not _imports(path) & banned, path
    for path in (ROOT / "formula").glob("*.py"):
        assert "engine" not in _imports(path), path
