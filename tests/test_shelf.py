"""Every shipped game (a spec in specs/ with a DSL twin and a readings file of the
same name): the twins are one game, both validate, and the readings file has at
least 20 cases and a case separating each option's readings (tests/test_readings.py
runs every readings file; this checks its breadth).  Game-specific checks live in
tests/test_GAME.py."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok

SPECS = Path(__file__).resolve().parent.parent / "specs"
#: the games of the second shelf (issue 16); the first shelf's readings predate the rule
GAMES = ["hearts", "whist", "spades", "bridge", "schnapsen", "belote", "spoil-five", "briscola",
         "tute", "doppelkopf", "schafkopf", "pinochle", "skat", "auction-pitch", "five-card-loo",
         "french-tarot", "truco-mineiro", "twenty-eight",
         # the third shelf (issue 34)
         "ecarte", "coinche", "tressette", "preferans", "mighty", "tractor", "sueca", "rook"]


@pytest.mark.parametrize("name", GAMES)
def test_yaml_and_dsl_twins_have_the_same_model(name: str) -> None:
    from spelbok.lang.loader import read_spec

    assert read_spec(SPECS / f"{name}.yaml").tree == read_spec(SPECS / f"{name}.spel").tree


@pytest.mark.parametrize("name", GAMES)
def test_spec_is_valid(name: str) -> None:
    from spelbok.validation import validate

    assert validate(SPECS / f"{name}.yaml") == []
    assert validate(SPECS / f"{name}.spel") == []


@pytest.mark.parametrize("name", GAMES)
def test_readings_have_twenty_cases_and_separate_every_option(name: str) -> None:
    from spelbok.analysis.readings import load_reading, run_reading

    readings = SPECS / "readings" / f"{name}.yaml"
    assert len(load_reading(readings).data["cases"]) >= 20
    report = run_reading(readings)
    assert report.ok, report.format()
    separated = {k for c in report.separating for k in c.reading}
    spec = SPECS / f"{name}.yaml"
    players = spelbok.load(spec).tree["players"]["min"]
    options = set(spelbok.load(spec, players=players).options)
    assert options <= separated, options - separated
