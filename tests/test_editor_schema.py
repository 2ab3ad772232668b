"""Editors find the JSON Schema from the `# yaml-language-server` line of each shipped spec."""

from __future__ import annotations

import json
import re
from pathlib import Path

from spelbok.lang.loader import load_schema

ROOT = Path(__file__).resolve().parent.parent


def test_specs_folder_carries_the_same_schema_as_the_package() -> None:
    copy = json.loads((ROOT / "specs" / "spelbok.schema.json").read_text("utf-8"))
    assert copy == load_schema(), "run: python -m spelbok.lang.schema --write"


def test_every_shipped_spec_points_at_a_schema_that_exists() -> None:
    for spec in sorted((ROOT / "specs").glob("*.yaml")):
        first = spec.read_text("utf-8").splitlines()[0]
        m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert m, f"{spec.name}: first line must name the schema"
        target = (spec.parent / m.group(1)).resolve()
        assert target.is_file(), f"{spec.name}: {m.group(1)} does not resolve"
        assert json.loads(target.read_text("utf-8"))["$schema"].endswith("2020-12/schema")
