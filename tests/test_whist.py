"""Whist (specs/whist.yaml): the twins, the readings, whole matches by bots.

The rules themselves are pinned case by case in specs/readings/whist.yaml;
these tests check that the spec and its DSL twin are one game, that every
reading passes and that each option has a case separating its readings.
"""

from __future__ import annotations

from pathlib import Path

import spelbok

SPEC = Path(__file__).resolve().parent.parent / "specs" / "whist.yaml"
DSL = SPEC.with_suffix(".spel")
READINGS = SPEC.parent / "readings" / "whist.yaml"


def test_yaml_and_dsl_twins_have_the_same_model() -> None:
    from spelbok.lang.loader import read_spec

    assert read_spec(SPEC).tree == read_spec(DSL).tree


def test_spec_is_valid() -> None:
    from spelbok.lang.validate import validate

    assert validate(SPEC) == []
    assert validate(DSL) == []


def test_the_rule_readings_pass_and_every_option_is_separated() -> None:
    from spelbok.analysis.readings import run_reading

    report = run_reading(READINGS)
    assert report.ok, report.format()
    assert report.passed >= 20
    options = set(spelbok.load(SPEC, players=4).options)
    separated = {name for case in report.separating for name in case.reading}
    assert options <= separated, options - separated


def test_bots_play_whole_matches() -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = spelbok.load(SPEC, players=4)
    bots = [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3), make_bot("random", 4)]
    final = play_match(game, bots, seed=3)
    assert final.is_terminal and not final.limit_reached
    # partners share the result; the rubber's balance is zero-sum
    assert final.scores[0] == final.scores[2] and final.scores[1] == final.scores[3]
    assert sum(final.scores) == 0 and set(final.winners) in ({0, 2}, {1, 3})
