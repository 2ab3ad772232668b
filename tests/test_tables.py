"""Tables of values (the ``tables`` section) read by formulas as functions of their keys:
checked with located errors, typed like any formula, told by ``describe``, written back by
``convert`` in both surfaces, and read in play (a missing key gives ``otherwise``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.validate import validate
from spelbok.lang.yamlio import load_yaml

TABLES = """tables:
  base: {clubs: 12, grand: 24, otherwise: 1}
  need:
    2: {single: 8, double: 10}
    3: {single: 13, otherwise: 99}
"""
SPEC = """spelbok: 1
name: Tables mini
players: {min: 2, max: 4}
options:
  game: {values: [clubs, grand, misere], default: grand}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
%s
variables:
  hand: {b: 0, n: 0, miss: 0, other: 0}
hand:
  - set: {b: "base(game)", n: "need(seats, 'double')", miss: "need(4, 'single')",
          other: "need(seats, 'triple')"}
  - deal: {size: 5}
  - tricks: {}
end: {when: "hand_number >= 2", winners: "tricks == max(tricks)"}
"""


def errors_of(tmp_path: Path, text: str) -> list[str]:
    """``line:col: message`` of each error of the spec ``text``."""
    file = tmp_path / "spec.yaml"
    file.write_text(text, encoding="utf-8")
    return [str(e).removeprefix(f"{file}:") for e in validate(str(file))]


def values(players: int, **options: str) -> tuple[int, int, int, int]:
    state = spelbok.load(SPEC % TABLES, players=players, options=options).new_state(seed=1)
    return state.var("b"), state.var("n"), state.var("miss"), state.var("other")


def test_formulas_read_a_table_by_its_keys_and_a_missing_key_takes_otherwise() -> None:
    assert values(2) == (24, 10, 0, 0)  # 2 players: need(2, 'triple') has no otherwise
    assert values(3) == (24, 99, 0, 99)  # need(3, …): its level's otherwise; need(4, …): 0
    assert values(3, game="misere")[0] == 1  # the top level's otherwise


def test_the_spec_validates_and_round_trips_through_the_dsl(tmp_path: Path) -> None:
    assert errors_of(tmp_path, SPEC % TABLES) == []
    tree = normalize(load_yaml(SPEC % TABLES, "<t>")[0])
    text = to_dsl(tree)
    assert "table need:\n    2:\n        single = 8, double = 10\n" in text
    assert normalize(parse_dsl(text, "t.spel")[0]) == tree


def test_describe_tells_each_table() -> None:
    text = " ".join(describe(SPEC % TABLES).split())
    assert "Tables" in text
    assert "base, read by a word: clubs → 12, grand → 24, otherwise 1." in text
    assert "need, read by a number and a word" in text


@pytest.mark.parametrize(("tables", "expect"), [
    ("tables:\n  bad: {clubs: 12, 3: 4}\n", "keys of one level must be all numbers or all words"),
    ("tables:\n  bad: {clubs: 12, grand: 'x'}\n", "must be all numbers, all words or all"),
    ("tables:\n  bad: {clubs: 12, grand: {a: 1}}\n", "needs as many keys"),
    ("tables:\n  game: {clubs: 12}\n", "clashes with the option 'game'"),
    ("tables:\n  seats: {clubs: 12}\n", "clashes with a builtin name"),
    ("tables:\n  b: {clubs: 12}\n", "clashes with the variable 'b'"),
    ("tables:\n  bad: {otherwise: 3}\n", "at least one key besides 'otherwise'"),
    ("tables:\n  bad: {a: {b: {c: {d: 1}}}}\n", "too large"),
])
def test_a_bad_table_is_a_located_error(tmp_path: Path, tables: str, expect: str) -> None:
    errors = errors_of(tmp_path, SPEC % (tables + TABLES.removeprefix("tables:\n")))
    hits = [e for e in errors if expect in e]
    assert hits, errors
    assert hits[0].split(":")[0].isdigit()  # located at a line


@pytest.mark.parametrize(("formula", "expect"), [
    ("base(3)", "the table 'base' (key 1) needs a text (str), got an int"),
    ("need(seats)", "the table 'need' takes 2 keys, got 1"),
    ("base", "'base' is a table; read it with its key: base(…)"),
    ("base(game) + 'x'", "cannot add"),
])
def test_a_table_read_wrongly_is_a_located_formula_error(tmp_path: Path, formula: str,
                                                        expect: str) -> None:
    text = (SPEC % TABLES).replace('b: "base(game)"', f'b: "{formula}"')
    errors = errors_of(tmp_path, text)
    assert any(expect in e for e in errors), errors


def test_the_dsl_reads_nested_levels_negative_and_quoted_keys() -> None:
    dsl = to_dsl(normalize(load_yaml(SPEC % TABLES, "<t>")[0]))
    dsl = dsl.replace("table base:\n", 'table base:\n    -1 = 5, "two words" = 6\n')
    tree = normalize(parse_dsl(dsl, "t.spel")[0])
    assert tree["tables"]["base"]["-1"] == 5
    assert tree["tables"]["base"]["two words"] == 6
    assert tree["tables"]["need"]["3"] == {"single": 13, "otherwise": 99}


def test_skat_reads_its_bidding_values_from_a_table() -> None:
    game = spelbok.load("skat")
    tree = game.doc.tree
    assert tree["tables"]["bid_value"]["63"] == 264
    assert "else if contract_level" not in str(tree["hand"])
