"""The compiled hot path (setup.py, spelbok._native): chosen only when it is current,
and it plays exactly like the Python sources."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import spelbok
from spelbok import _native


def _fake_install(folder: Path, digest: str | None) -> None:
    """Hot-path sources and a (dummy) compiled state module in ``folder``."""
    for name in _native.hot_modules():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.py").write_text(f"# {name}\n")
        (folder / (name + _native.EXTENSION_SUFFIXES[0])).write_bytes(b"")
    if digest is not None:
        (folder / _native.DIGEST_FILE).write_text(digest + "\n")


@pytest.fixture
def meta_path(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    path = list(sys.meta_path)
    monkeypatch.setattr(sys, "meta_path", path)
    return path


def test_current_build_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               meta_path: list[object]) -> None:
    _fake_install(tmp_path, None)
    (tmp_path / _native.DIGEST_FILE).write_text(_native.source_digest(str(tmp_path)) + "\n")
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    monkeypatch.delenv("SPELBOK_PURE", raising=False)
    before = meta_path.count(_native._SourceFinder)  # one is there when this run is pure
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _native.choose() is True
    assert meta_path.count(_native._SourceFinder) == before


@pytest.mark.parametrize("digest", ["0" * 64, None])
def test_stale_or_unmarked_build_falls_back_to_sources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, meta_path: list[object],
        digest: str | None) -> None:
    _fake_install(tmp_path, digest)
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    monkeypatch.delenv("SPELBOK_PURE", raising=False)
    with pytest.warns(RuntimeWarning, match="older than its sources"):
        assert _native.choose() is False
    assert meta_path[0] is _native._SourceFinder
    # the finder hands out the source of a hot module, and nothing else
    spec = _native._SourceFinder.find_spec("spelbok.engine.steps")
    assert spec is not None and spec.origin == os.path.join(str(tmp_path), "engine", "steps.py")
    assert _native._SourceFinder.find_spec("spelbok.engine.game") is None  # never compiled
    # a compiled module that the sources no longer list as hot is steered too
    (tmp_path / "old.py").write_text("# no longer compiled\n")
    (tmp_path / ("old" + _native.EXTENSION_SUFFIXES[0])).write_bytes(b"")
    spec = _native._SourceFinder.find_spec("spelbok.old")
    assert spec is not None and spec.origin == os.path.join(str(tmp_path), "old.py")
    assert _native._SourceFinder.find_spec("other.steps") is None


def test_pure_switch_ignores_a_current_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             meta_path: list[object]) -> None:
    _fake_install(tmp_path, None)
    (tmp_path / _native.DIGEST_FILE).write_text(_native.source_digest(str(tmp_path)) + "\n")
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    monkeypatch.setenv("SPELBOK_PURE", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # asked for: no warning
        assert _native.choose() is False
    assert meta_path[0] is _native._SourceFinder


def test_no_build_means_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                meta_path: list[object]) -> None:
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    before = meta_path.count(_native._SourceFinder)
    assert _native.choose() is False
    assert meta_path.count(_native._SourceFinder) == before  # nothing to steer


def test_compiled_flag_names_the_running_copy() -> None:
    import spelbok.engine.state as state_module

    compiled = not state_module.__file__.endswith(".py")  # type: ignore[union-attr]
    assert spelbok.COMPILED is compiled


def _simulate(env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-m", "spelbok.cli.main", "simulate", "knockout-whist", "--players", "4",
         "--games", "40", "--seed", "5", "--bots", "greedy,random", "--json"],
        capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def test_pure_and_installed_copy_play_alike() -> None:
    """Whichever copy this install runs, the sources give the same matches."""
    if os.environ.get("SPELBOK_REQUIRE_COMPILED"):  # CI: this must compare two copies
        assert spelbok.COMPILED
    env = dict(os.environ)
    env.pop("SPELBOK_PURE", None)
    installed = _simulate(env)
    pure = _simulate({**env, "SPELBOK_PURE": "1"})
    assert pure == installed
    assert installed["games"] == 40


def test_frozen_values_copy_and_pickle() -> None:
    """Compiled frozen classes refuse field-by-field rebuilding: they go through __init__."""
    import copy
    import pickle

    from spelbok.formula import parse_formula

    game = spelbok.load("knockout-whist", players=4)
    s = game.new_state(seed=2)
    s.apply(s.legal_actions()[0])
    for value in (s.tables, s.tf, parse_formula("if a then b + 1 else -c")):
        assert copy.copy(value) == value
        assert copy.deepcopy(value) == value
        assert pickle.loads(pickle.dumps(value)) == value
    d = copy.deepcopy(s)
    assert d == s and d.hands is not s.hands
    d.apply(d.legal_actions()[0])
    assert d != s
    g = copy.deepcopy(game)  # an independent game that plays the same matches
    g.program.max_hands = 1
    assert game.program.max_hands > 1
    assert g.new_state(seed=5).legal_actions() == game.new_state(seed=5).legal_actions()


def test_games_and_states_pickle() -> None:
    """A game pickles as its checked spec and settings (its program is compiled again), a
    state as the game and its plain fields: compiled closures never go through pickle."""
    import pickle
    import random

    game = spelbok.load("example", players=3, options={"void_rule": "any"}, max_hands=7)
    g = pickle.loads(pickle.dumps(game))
    assert (g.name, g.players, g.options, g.program.max_hands) == ("Example", 3,
                                                                   {"void_rule": "any"}, 7)
    rng = random.Random(4)
    s = game.new_state(seed=4)
    for _ in range(25):
        s.apply(rng.choice(s.legal_actions()))
    for state in (s, s.determinize(1, random.Random(1)), game.new_state(seed=9, record=True)):
        back = pickle.loads(pickle.dumps(state))
        assert back == state and back.game is not state.game
        assert back.legal_actions() == state.legal_actions()
        a = state.legal_actions()[0]
        back.apply(a)
        state.apply(a)
        assert back == state
    # the history goes flat: a long match pickles without deep recursion
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    assert pickle.loads(pickle.dumps(s)).outcome == s.outcome


def test_digest_covers_the_library_folders_only(tmp_path: Path) -> None:
    """An installed package folder holds cli/, grammar/ and specs/ too (from other
    top-level folders, never compiled): the digest must equal the staged build's."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "state.py").write_text("x = 1\n")
    before = _native.source_digest(str(tmp_path))
    for other in ("cli", "grammar", "specs"):
        (tmp_path / other).mkdir()
        (tmp_path / other / "__init__.py").write_text("# not the library's\n")
    assert _native.source_digest(str(tmp_path)) == before
    (tmp_path / "engine" / "state.py").write_text("x = 2\n")
    assert _native.source_digest(str(tmp_path)) != before


def test_other_folders_are_the_packages_mapped_from_elsewhere() -> None:
    import tomllib

    root = Path(__file__).resolve().parent.parent
    dirs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    foreign = {name.split(".")[1] for name, folder in dirs.items()
               if not folder.startswith("interpreter") and name.count(".") == 1}
    assert foreign == set(_native.OTHER_FOLDERS) - {"__pycache__"}
