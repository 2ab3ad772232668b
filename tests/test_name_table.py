"""The formula names' one table of kinds and types (formula/name_table.py): the engine's
resolver and the type-only resolver of validation agree on every name."""

from __future__ import annotations

from pathlib import Path

import spelbok
from spelbok.engine.resolver import Resolver
from spelbok.formula.name_table import BUILTIN_TYPES, TypeResolver
from spelbok.lang import vocabulary as v


def test_the_engine_and_the_type_checks_see_the_same_names_with_the_same_types() -> None:
    args = (4, {"target": 21}, {"score": 0}, {"round": 0})
    types = {"score": int, "round": str}
    engine = Resolver(*args, teams=[[0, 2], [1, 3]], var_types=types)
    checks = TypeResolver(*args, types)
    assert list(engine.names()) == list(checks.names())
    for name in engine.names():
        a, b = engine.resolve(name), checks.resolve(name)
        assert a is not None and b is not None
        assert (a.kind, a.type) == (b.kind, b.type), name
    assert set(BUILTIN_TYPES) == {b.name for b in v.BUILTINS}


def test_the_promise_checks_import_nothing_of_the_engine() -> None:
    source = (Path(spelbok.__file__).parent / "lang" / "promise.py").read_text()
    imports = [line for line in source.splitlines() if line.strip().startswith(("from", "import"))]
    assert not [line for line in imports if "engine" in line]
