"""Spades (specs/spades.yaml): the twins, validity, the readings file, a whole match."""

from __future__ import annotations

from pathlib import Path

import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "spades.yaml"
DSL = SPEC.with_suffix(".spel")
READINGS = SPEC.parent / "readings" / "spades.yaml"


def test_yaml_and_dsl_twins_have_the_same_model() -> None:
    from spelbok.lang.loader import read_spec

    assert read_spec(SPEC).tree == read_spec(DSL).tree


def test_spec_is_valid() -> None:
    from spelbok.lang.validate import validate

    assert validate(SPEC) == []
    assert validate(DSL) == []


def test_readings_have_twenty_cases_and_separate_every_option() -> None:
    # tests/test_readings.py runs every shipped readings file; this checks its breadth
    from spelbok.analysis.readings import load_reading, run_reading

    assert len(load_reading(READINGS).data["cases"]) >= 20
    report = run_reading(READINGS)
    separated = {k for c in report.separating for k in c.reading}
    assert set(spelbok.load(SPEC, players=4).options) <= separated


def test_both_partners_keep_the_side_score() -> None:
    game = spelbok.load(SPEC, players=4)
    state = game.new_state(seed=5)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    score = state.var("score")
    assert score[0] == score[2] and score[1] == score[3]
