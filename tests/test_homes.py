"""The constructs' homes (spelbok.lang.constructs): the registry is the one list of step
kinds, each home holds every stage's part of its construct, and no home imports a stage."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from spelbok.lang import checks, describe, dsl_build, dslwrite, spec_grammar
from spelbok.lang import vocabulary as v
from spelbok.lang.constructs import HOMES, PART_HOMES, STEP_HOMES, Home

ROOT = Path(__file__).resolve().parent.parent
HOME_DIR = ROOT / "interpreter" / "lang" / "constructs"
# the stage modules (drivers): a home imports none of them, but for type hints
DRIVERS = {"dsl_build", "dslwrite", "describe", "checks", "vocabulary", "model", "loader",
           "schema", "reference", "validate", "dsl", "compiler", "meaning", "deck_size",
           "promise", "compile_checks"}


def test_every_step_kind_has_its_home_in_the_registry_order() -> None:
    names = [h.name for h in STEP_HOMES]
    assert set(v.STEP_KINDS) == set(names)
    assert [k for k in v.STEP_KINDS if k in names] == names
    assert [c for c in v.STEPS if c.name in names] == [h.decl for h in STEP_HOMES]
    assert len({h.name for h in HOMES}) == len(HOMES)


@pytest.mark.parametrize("home", STEP_HOMES, ids=lambda h: h.name)
def test_a_step_home_gives_every_stage_its_part(home: Home) -> None:
    assert home.group == "step"
    assert home.grammar and home.builds and home.write and home.describe
    assert re.fullmatch(r"spelbok\.engine\.\w+:compile_\w+", home.compile)
    grammar = (ROOT / spec_grammar.SHIPPED).read_text("utf-8")
    step_rule = re.search(r"^_step:(.*?)\n(?!\s+\|)", grammar, re.M | re.S)
    assert step_rule is not None
    for rule in home.alternatives:
        assert re.search(rf"\b{rule}\b", step_rule.group(1)), rule
        assert rule in home.builds and dsl_build._STEP_BUILDS[rule] is home.builds[rule]
    assert dslwrite._STEP_WRITERS[home.name] is home.write
    assert describe._STEP_TEXT[home.name] is home.describe
    assert checks._STEP_CHECKS.get(home.name) is home.check


def test_the_parts_come_from_the_homes() -> None:
    parts = {c.name for c in v.PARTS}
    for home in (*STEP_HOMES, *PART_HOMES):
        for c in (*home.parts, *((home.decl,) if home.group == "part" else ())):
            assert c.name in parts and v.construct(c.name) is c


@pytest.mark.parametrize("path", sorted(HOME_DIR.glob("*.py")), ids=lambda p: p.stem)
def test_a_home_imports_no_stage(path: Path) -> None:
    """A home takes the stage's toolkit as an argument and imports only toolkit modules
    (dsl_text, dsl_nodes, prose, declare) and other homes; a stage only under TYPE_CHECKING."""
    tree = ast.parse(path.read_text("utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and getattr(node.test, "id", "") == "TYPE_CHECKING"
                   for n in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and id(node) not in typing_only:
            names = {(node.module or "").split(".")[-1]} | {a.name for a in node.names}
            assert not names & DRIVERS, f"{path.name} imports {node.module}"


@pytest.mark.parametrize("home", STEP_HOMES, ids=lambda h: h.name)
def test_a_step_homes_compile_step_is_the_engines(home: Home) -> None:
    """The engine compiles a step by the function its home names, and names a step's
    instructions by the parts its home declares."""
    from spelbok.engine.compiler import COMPILE_STEPS, step_compiler
    from spelbok.engine.program import STEP_PARTS

    fn = step_compiler(home.name)
    module, _, name = home.compile.partition(":")
    assert (fn.__module__, fn.__name__) == (module, name)
    assert COMPILE_STEPS[home.name] == home.compile
    assert STEP_PARTS.get(home.name, ()) == home.code_parts


def test_the_instructions_parts_are_those_the_homes_declare() -> None:
    """Every instruction of every shipped game's program has a part its step's home
    declares (or ``run``, ``when``): a compile step that makes another fails here."""
    import spelbok
    from spelbok.lang.loader import shipped_spec_names

    by_kind = {h.name: set(h.code_parts) | {"run", "when"} for h in STEP_HOMES}
    seen: dict[str, set[str]] = {}
    for name in shipped_spec_names():
        game = spelbok.load(name)
        for pc in range(len(game.program.code)):
            o = game.program.origin(pc)
            if o is not None:
                assert o.part in by_kind[o.kind], (name, o)
                seen.setdefault(o.kind, set()).add(o.part)
    assert seen["tricks"] >= {"start", "play"} and seen["decide"] == {"start", "decide"} | (
        seen["decide"] & {"when"})
