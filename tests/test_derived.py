"""The language's consumers read the vocabulary: one meaning of each default, a handler
of each step kind in every walker, and a getter of each declared builtin."""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from minispec import mini
from spelbok.engine import compiler
from spelbok.engine.game import Game
from spelbok.lang import checks, describe, dslwrite
from spelbok.lang import vocabulary as v
from spelbok.lang.validate import validate

# -- drift: one meaning of each default -----------------------------------------------------


def test_a_most_tie_without_ties_goes_to_forehand_in_the_compiler_too() -> None:
    # the model filled 'forehand', the compiler fell back on 'cut' (a random pick)
    text = mini('  - deal: {size: 5}\n  - decide: d\n    who: {most: "0"}\n    choose: [go]\n'
                "  - tricks: {}\n")
    game = spelbok.load(text, players=3)
    who = game.doc.tree["hand"][1]["who"]
    assert who["ties"] == v.construct("who_map").field("ties").default == "forehand"
    del who["ties"]  # a tree that reaches the compiler without the key
    bare = Game(game.doc, 3)
    for seed in range(8):
        s = bare.new_state(seed=seed)
        assert s.current_player == (s.dealer + 1) % 3, seed


def test_an_absent_max_hands_is_the_safety_bound_everywhere() -> None:
    # the model said "no bound", the compiler 1000: the vocabulary's default is the one meaning
    game = spelbok.load(mini(), players=2)
    assert "max_hands" not in game.doc.tree["end"]
    assert game.program.max_hands == v.DEFAULT_MAX_HANDS
    assert v.construct("end").field("max_hands").default == v.DEFAULT_MAX_HANDS
    never = mini().replace('when: "hand_number >= 3"', "when: false")
    [error] = validate(never)
    assert "the match can never end" in str(error)
    assert f"after {v.DEFAULT_MAX_HANDS} hands" in str(error)


# -- the compiler's getters ------------------------------------------------------------------


def test_every_declared_builtin_has_a_getter_and_no_getter_is_undeclared() -> None:
    table = compiler.Resolver(4, {}, {}, {}, teams=[[0, 2], [1, 3]]).table
    assert set(table) == {b.name for b in v.BUILTINS}
    assert set(compiler.BUILTINS) == set(table)


# -- every walker handles every step kind ------------------------------------------------------


def test_every_step_kind_has_a_describer_and_a_writer() -> None:
    assert set(describe._STEP_TEXT) == set(v.STEP_KINDS)
    assert set(dslwrite._STEP_WRITERS) == set(v.STEP_KINDS)


_TEXT_TYPES = ("formula", "condition", "count")


@pytest.mark.parametrize("kind", v.STEP_KINDS)
def test_the_checks_visit_every_formula_key_of_each_step_kind(kind: str) -> None:
    c = v.step(kind)
    step: dict[str, Any] = {f.name: "seats" for f in c.own_fields() if f.type in _TEXT_TYPES}
    if c.body is not None:
        step[kind] = {f.name: "seats" for f in c.body if f.type in _TEXT_TYPES}
    elif c.value is not None:
        step[kind] = {"assignments": {"a": "seats"}, "true": True}.get(c.value.type, "seats")
    paths = {p for p, *_ in checks._step_fields((), step)}
    expected = {(kind, f.name) for f in c.body or () if f.type in _TEXT_TYPES}
    expected |= {(f.name,) for f in c.own_fields() if f.type in _TEXT_TYPES}
    if c.value is not None and c.value.type in _TEXT_TYPES:
        expected.add((kind,))
    assert expected <= paths
