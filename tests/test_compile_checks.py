"""Validation finds every problem the compiler would: the Typer (lang/compile_checks.py,
with each construct home's ``compile_check``) against compiling the game.

A property test mutates the shipped specs' formulas and parameters at random (a fixed
seed) and compares, at each player count ``validate`` compiles, the errors the Typer
reports with those compiling the game (``Game``) raises: the same messages, hints and
places, and a spec the Typer accepts compiles.  Then: validating needs no engine, and
the compile steps report nothing of their own.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from spelbok.errors import SpecError, SpecErrors
from spelbok.lang.checks import structural_checks
from spelbok.lang.compile_checks import Typer
from spelbok.lang.constructs import SECTION_HOMES, STEP_HOMES
from spelbok.lang.loader import read_spec
from spelbok.lang.promise import player_counts_to_compile
from spelbok.lang.schema_check import schema_errors
from spelbok.lang.sources import shipped_spec_names

ROOT = Path(__file__).resolve().parent.parent
SPECS = shipped_spec_names()
BAD_SPECS = sorted((ROOT / "tests" / "bad_specs").glob("*.yaml"))

#: What a mutation writes in place of a formula or a parameter: texts of every type,
#: names unknown, read-only or per-player, broken syntax, words of other keys, numbers.
REPLACEMENTS: tuple[Any, ...] = (
    "score + 'x'", "hand", "tricks > 1", "'H'", "'zz'", "no_such_name", "1 +", "true",
    "false", "3", "none", "cut_high", "across", "random", "-1", 20000, 0, True, False,
    "trump", "seat", "count(hand)", "tricks", "led_card", "'AS'", "'1Z'", "max(tricks)",
    "choice", "next", "each", "dealer", "stock", "hand_number % 2 == 0", "points_of(hand)",
    "teams", "called_card", "broken", "knock", "down", "first_lead", "any")


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of the scalars of a tree (the places a mutation may change)."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]


def _put(tree: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        tree = tree[key]
    tree[path[-1]] = value


def _messages(run: Any) -> list[tuple[str, str | None]] | str:
    """The errors ``run()`` raises, as text and hint (a crash: its type and text)."""
    try:
        run()
    except SpecErrors as e:
        return [(str(x), x.hint) for x in e.errors]
    except SpecError as e:
        return [(str(e), e.hint)]
    except Exception as e:  # noqa: BLE001  (a crash is a finding, compared as such)
        return f"crash: {type(e).__name__}: {e}"
    return []


def _structural(doc: Any) -> None:
    """The stages ``validate`` runs before the Typer: the schema, the structural checks."""
    errors = schema_errors(doc.tree, lambda path, key: doc.locate(path)) or structural_checks(doc)
    if errors:
        raise SpecErrors(errors)


def _compare(doc: Any) -> list[str]:
    """Where the Typer and the compiler disagree on ``doc``, at each player count."""
    from spelbok.engine.game import Game

    out = []
    for n in player_counts_to_compile(doc.tree):
        typed = _messages(lambda n=n: Typer(doc.tree, n, None, doc.locate).check())
        compiled = _messages(lambda n=n: Game(doc, n))
        if typed != compiled and not (isinstance(compiled, str) and isinstance(typed, str)):
            out.append(f"{n} players: typer {typed} != compiler {compiled}")
    return out


@pytest.mark.parametrize("name", SPECS)
def test_mutated_specs_are_rejected_alike(name: str) -> None:
    """Every mutation the compiler rejects the Typer rejects with the same errors, and
    every one the Typer accepts compiles."""
    doc = read_spec(name)
    rng = random.Random(f"compile-checks {name}")
    places = [p for p in _leaves(doc.tree) if p and p[0] in ("hand", "end", "dealer",
                                                             "ranking", "melds", "teams")]
    problems = []
    for _ in range(24):
        tree = copy.deepcopy(doc.tree)
        chosen = rng.sample(places, min(len(places), rng.choice((1, 1, 2))))
        for path in chosen:
            _put(tree, path, rng.choice(REPLACEMENTS))
        mutated = dataclasses.replace(doc, tree=tree)
        if _messages(lambda m=mutated: _structural(m)):
            continue  # validate stops before the Typer: it is not asked
        problems += [f"{chosen}: {p}" for p in _compare(mutated)]
    assert not problems, "\n".join(problems[:5])


@pytest.mark.parametrize("name", SPECS)
def test_shipped_specs_pass_the_typer(name: str) -> None:
    doc = read_spec(name)
    assert _compare(doc) == []


_PROBE = """
import json, sys
from spelbok.validation import validate
from spelbok.lang.sources import shipped_spec_names
for source in [*shipped_spec_names(), *sys.argv[1:]]:
    validate(source)
print(json.dumps(sorted(m for m in sys.modules if m.startswith("spelbok.engine"))))
"""


def test_validating_imports_no_engine() -> None:
    """``validate`` of every shipped spec and every bad spec loads no engine module."""
    got = subprocess.run([sys.executable, "-c", _PROBE, *map(str, BAD_SPECS)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(got.stdout.splitlines()[-1]) == []


def test_a_spec_without_a_deck_is_a_located_error() -> None:
    doc = read_spec("example")
    tree = {k: v for k, v in doc.tree.items() if k != "deck"}
    with pytest.raises(SpecError, match=r"example\.\w+:\d+:\d+: no deck is given for 4 players"):
        Typer(tree, 4, None, dataclasses.replace(doc, tree=tree).locate).check()


def _compile_functions() -> list[tuple[str, ast.FunctionDef]]:
    """The compile steps the homes name, and the compiler's toolkit, as syntax trees."""
    out = []
    for home in STEP_HOMES:
        module, _, name = home.compile.partition(":")
        path = ROOT / "interpreter" / "engine" / f"{module.rpartition('.')[2]}.py"
        tree = ast.parse(path.read_text("utf-8"))
        out += [(f"{path.name}:{n.name}", n) for n in ast.walk(tree)
                if isinstance(n, ast.FunctionDef) and n.name == name]
    compiler = ast.parse((ROOT / "interpreter" / "engine" / "compiler.py").read_text("utf-8"))
    out += [(f"compiler.py:{n.name}", n) for n in ast.walk(compiler)
            if isinstance(n, ast.FunctionDef)]
    return out


def test_the_compile_steps_report_nothing() -> None:
    """Every message a compile step could report is its home's (``compile_check``): no
    module holding a compile step (its helpers too), nor the compiler, reports an error
    (``c.error``, ``self.error``) or makes a SpecError while compiling."""
    engine = ROOT / "interpreter" / "engine"
    files = {engine / f"{h.compile.partition(':')[0].rpartition('.')[2]}.py" for h in STEP_HOMES}
    bad = []
    for path in sorted(files | {engine / "compiler.py", engine / "seats.py"}):
        compile_fns = [n for n in ast.walk(ast.parse(path.read_text("utf-8")))
                       if isinstance(n, ast.FunctionDef) and n.args.args
                       and n.args.args[0].arg in ("c", "self")
                       and (path.name in ("compiler.py", "seats.py") or n.args.args[0].arg == "c")]
        for fn in compile_fns:
            for node in ast.walk(fn):
                if not isinstance(node, ast.Call):
                    continue
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in ("error", "SpecError", "SpecErrors"):
                    bad.append(f"{path.name}:{node.lineno} ({fn.name}) calls {name}")
    assert len(files) >= 9
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("home", STEP_HOMES, ids=lambda h: h.name)
def test_a_compile_steps_keys_are_its_homes(home: Any) -> None:
    """Every key a compile step reads of its step is declared by its home (or a part
    it shares), and a home whose step has keys to check has a ``compile_check``."""
    from spelbok.lang import vocabulary as v

    declared = {home.name, "when", "label", "for", "then", "where", "who",
                *(h.name for h in SECTION_HOMES)}
    for c in (home.decl, *home.parts, *v.PARTS):
        declared |= {f.name for f in (*(c.body or ()), *c.own_fields())}
    keys: set[str] = set()
    for where, fn in _compile_functions():
        if not where.endswith(":" + home.compile.partition(":")[2]):
            continue
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "get" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                keys.add(node.args[0].value)
            elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
                  and isinstance(node.slice, ast.Constant)
                  and isinstance(node.slice.value, str)):
                keys.add(node.slice.value)
    assert keys <= declared, keys - declared
    assert home.compile_check is not None or home.name == "end_hand"
