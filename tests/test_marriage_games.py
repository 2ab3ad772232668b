"""The shipped marriage-family specs: each DSL twin is the same game as its YAML."""

from __future__ import annotations

from pathlib import Path

import pytest
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

SPECS = Path(__file__).parents[1] / "specs"
GAMES = ["schnapsen", "belote"]


@pytest.mark.parametrize("name", GAMES)
def test_twin_spel_equals_yaml(name: str) -> None:
    yaml_path, spel_path = SPECS / f"{name}.yaml", SPECS / f"{name}.spel"
    tree = normalize(load_yaml(yaml_path.read_text(encoding="utf-8"), str(yaml_path))[0])
    spel = normalize(parse_dsl(spel_path.read_text(encoding="utf-8"), str(spel_path))[0])
    assert spel == tree
