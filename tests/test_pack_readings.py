"""Reading files (``spelbok verify``) over a spec with a declared pack: its card
names, copies and extra cards in stacked decks, hands, positions and expectations."""

from __future__ import annotations

from pathlib import Path

import pytest
from spelbok.analysis.readings import run_reading

SPEC = Path(__file__).parent / "specs" / "pack_readings.yaml"

READING = """reading: 1
spec: pack_readings.yaml
players: 2
cases:
  - name: a position names the pack's cards, its copies and the joker
    cites: "a card given twice is its second copy"
    position: {trump: O, hands: {0: "1C 1C 2E", 1: "JK RE 4B"}, leader: 0}
    steps:
      - expect: {legal: [1C, 2E], hand: {0: "1C 2E 1C"}, trump: O}
      - play: 1C
      - expect: {legal: [JK, RE, 4B], trick: [1C]}
      - play: JK
      - expect: {trick_winner: 1, hand: {0: "1C 2E", 1: "RE 4B"}}
  - name: hands stack the deal, copies and the joker included
    cites: "the deal"
    hands: {0: "1O 1O JK", 1: "2C 3C 4C"}
    steps:
      - expect: {hand: {0: [JK, 1O, 1O], 1: "4C 3C 2C"}, hand_size: [3, 3]}
  - name: a stacked deck deals the pack's cards
    cites: "the deal"
    deck: "RE RE 7B 7B 5O 5O"
    steps:
      - expect: {hand_size: [3, 3]}
  - name: the turn-up is one of the pack's cards
    cites: "the turn-up sets trump"
    hands: {0: "1O 2O 3O", 1: "4O 5O 6O"}
    turn_up: "SB"
    steps:
      - expect: {turn_up: SB, trump: B}
"""


def _run(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    (tmp_path / "pack_readings.yaml").write_text(SPEC.read_text())
    path = tmp_path / "r.yaml"
    path.write_text(text)
    return run_reading(path)


def test_a_reading_of_a_declared_pack_passes(tmp_path: Path) -> None:
    report = _run(tmp_path, READING)
    assert [(c.name, c.status, c.message) for c in report.cases if c.status != "pass"] == []
    assert report.ok


def test_a_wrong_expectation_is_shown_in_the_packs_notation(tmp_path: Path) -> None:
    text = READING.replace('hand: {0: "1C 2E 1C"}', 'hand: {0: "1C 2E"}')
    report = _run(tmp_path, text)
    bad = report.cases[0]
    assert bad.status == "fail"
    shown = " ".join(f"{m.expected} {m.actual}" for m in bad.mismatches)
    assert "1C 1C 2E" in shown


@pytest.mark.parametrize(("old", "new", "message"), [
    ('hands: {0: "1O 1O JK"', 'hands: {0: "1O 1O 1O"', "1O is given twice (2 copies)"),
    ('hands: {0: "1O 1O JK"', 'hands: {0: "1O 1O AH"', "'AH' is not a card"),
    ('deck: "RE RE 7B', 'deck: "RE RE RE', "RE is given twice"),
])
def test_cards_beyond_the_pack_are_errors(tmp_path: Path, old: str, new: str,
                                          message: str) -> None:
    report = _run(tmp_path, READING.replace(old, new))
    errors = [c for c in report.cases if c.status == "error"]
    assert len(errors) == 1 and message in errors[0].message


def test_trump_is_checked_against_the_packs_letters(tmp_path: Path) -> None:
    report = _run(tmp_path, READING.replace("trump: O}\n      - play", "trump: H}\n      - play"))
    assert report.cases[0].status == "error"
    assert "suit letter O, C, E, B or none" in report.cases[0].message
