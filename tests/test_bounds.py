"""Bounds on counts, integers and file sizes: bad input fails fast with a clear message."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import spelbok
from spelbok.errors import LimitError, SpecError, SpelbokError
from spelbok.limits import (
    MAX_CARDS,
    MAX_CHOICES,
    MAX_HANDS,
    MAX_PLAYERS,
    MAX_REPEAT,
    MAX_VALUE,
    json_depth,
    load_json,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "specs" / "example.yaml").read_text("utf-8")
SCORING = 'set: {score: "score - tricks + (if tricks < exchanged then 2 else 0)"}'


def example(*edits: tuple[str, str]) -> str:
    """The example spec's text with each (old, new) replaced once (old must be there)."""
    text = EXAMPLE
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def play_out(game: spelbok.Game, seed: int = 1) -> spelbok.State:
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


# -- counts and integers in a spec ------------------------------------------------------------


def test_a_huge_player_count_is_refused_at_validation() -> None:
    with pytest.raises(SpecError, match=rf":12:24: expected at most {MAX_CARDS}"):
        spelbok.load(example(("players: {min: 2, max: 4", f"players: {{min: 2, max: {10**6}")))
    # past any number a spec may hold, the reader refuses it before the schema looks
    with pytest.raises(SpecError, match=r":12:24: the number 100000000000… \(31 digits\) is too large"):
        spelbok.load(example(("players: {min: 2, max: 4", f"players: {{min: 2, max: {10**30}")))


def test_a_huge_max_hands_is_refused_at_validation() -> None:
    with pytest.raises(SpecError, match=rf":91:14: expected at most {MAX_HANDS}"):
        spelbok.load(example(("max_hands: 60", f"max_hands: {10**18}")))


def test_max_hands_argument_is_checked() -> None:
    for bad in (0, -3, MAX_HANDS + 1, "5", 2.5, True):
        with pytest.raises(SpelbokError, match="max_hands"):
            spelbok.load("example", max_hands=bad)  # type: ignore[arg-type]
    assert spelbok.load("example", max_hands=3).program.max_hands == 3


def test_field_bounds_in_the_schema() -> None:
    cases = [
        ("deal: {size: 5, packets: [2, 3]}", f"deal: {{size: 5, packets: [2, {10**6}]}}",
         f"expected at most {MAX_CARDS}"),
        ("deal: {size: 5,", f"deal: {{size: {10**16},", f"expected at most {MAX_VALUE}"),
        ("player: {score: 10}", f"player: {{score: {-10**16}}}", f"expected at least {-MAX_VALUE}"),
        ("first: cut_low", "first: 99", f"expected at most {MAX_PLAYERS - 1}"),
    ]
    for old, new, message in cases:
        with pytest.raises(SpecError, match=message):
            spelbok.load(example((old, new)))


def test_a_huge_number_inside_a_formula_is_refused() -> None:
    with pytest.raises(SpecError, match=r":82:27: the number 10000000000000000 is too large"):
        spelbok.load(example((SCORING, 'set: {score: "score + 10000000000000000"}')))
    # the largest number allowed still loads
    spelbok.load(example((SCORING, f'set: {{score: "score + {MAX_VALUE}"}}')))


def test_a_fixed_repeat_count_is_bounded_at_load() -> None:
    text = example(("  - deal: {size: 5, packets: [2, 3]}",
                    "  - repeat: seats * 1000000000000\n    steps:\n"
                    "      - set: {plays: plays}\n        for: true\n"
                    "  - deal: {size: 5, packets: [2, 3]}"))
    with pytest.raises(SpecError, match=rf":41:13: a repeat may run at most {MAX_REPEAT} rounds"):
        spelbok.load(text)


def test_a_repeat_count_worked_out_in_play_is_bounded() -> None:
    text = example(("  - deal: {size: 5, packets: [2, 3]}",
                    "  - repeat: hand_number * 1000000000\n    steps:\n"
                    "      - set: {plays: plays}\n        for: true\n"
                    "  - deal: {size: 5, packets: [2, 3]}"))
    # validate's promise: refused before play (lang/promise.py), not met in play
    with pytest.raises(SpecError, match=r"<spec>:41:13: this repeat's count has no bound"):
        spelbok.load(text, players=2)


def test_a_number_decision_with_too_many_choices_is_refused() -> None:
    text = example(("choose: [play, pass]", "choose: number\n    max: hand_number * 1000000000000"),
                   ("""then: {plays: "choice == 'play'"}""", """then: {plays: "true"}"""))
    with pytest.raises(SpecError, match=r"the 'announce' decision's 'max' is worked out in play "
                                        r"and has no bound"):
        spelbok.load(text, players=2)
    text = text.replace("max: hand_number * 1000000000000", f"max: {MAX_CHOICES + 1}")
    with pytest.raises(SpecError, match=rf"would offer {MAX_CHOICES + 2:,} numbers, more than "
                                        rf"the {MAX_CHOICES:,} one decision may"):
        spelbok.load(text, players=2)


def test_a_variable_growing_past_the_bound_is_held_there() -> None:
    # validate's promise: a formula that grows without end never stops a match; every value
    # a step stores is held within the bound (it was a LimitError mid-match)
    text = example((SCORING, 'set: {score: "score * score * score * score + 2"}'),
                   ('when: "any(score <= 0)"', 'when: "false"'))
    game = spelbok.load(text, players=2)
    state = play_out(game)
    assert state.is_terminal and MAX_VALUE in state.scores
    assert all(-MAX_VALUE <= s <= MAX_VALUE for s in state.scores)
    # the same in a recorded match (another path through the set step)
    state = game.new_state(seed=1, record=True)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert MAX_VALUE in state.scores


def test_a_variable_set_without_for_is_held_too() -> None:
    text = example(("  hand_player: {plays: false, exchanged: 0}",
                    "  hand_player: {plays: false, exchanged: 0}\n  match: {pot: 10}"),
                   (SCORING, 'set: {pot: "pot * pot * pot"}'),
                   ("    for: plays\n", ""),
                   ('when: "any(score <= 0)"', 'when: "false"'))
    state = play_out(spelbok.load(text, players=2))
    assert state.var("pot") == MAX_VALUE


def test_a_decision_setting_a_huge_value_is_held() -> None:
    text = example(("  hand_player: {plays: false, exchanged: 0}",
                    "  hand_player: {plays: false, exchanged: 0}\n  player: {pot: 10}"),
                   ("""then: {plays: "choice == 'play'"}""",
                    """then: {plays: "choice == 'play'", pot: "pot * pot * pot * pot"}"""),
                   ('when: "any(score <= 0)"', 'when: "false"'))
    text = text.replace("  player: {score: 10}\n", "  player: {score: 10, pot: 10}\n", 1)
    text = text.replace("\n  player: {pot: 10}", "", 1)
    state = play_out(spelbok.load(text, players=2))
    assert MAX_VALUE in state.var("pot")


def test_division_by_zero_in_play_gives_zero() -> None:
    # validate's promise: a divisor worked out in play as 0 gives 0, it never stops a match
    text = example((SCORING, 'set: {score: "score / (tricks - tricks)"}'))
    play_out(spelbok.load(text, players=2))
    with pytest.raises(SpecError, match=r":82:25: division by zero: 'score % \(2 - 2\)'"):
        spelbok.load(example((SCORING, 'set: {score: "score % (2 - 2)"}')))


def test_the_schemas_state_the_same_bounds_as_the_code() -> None:
    spec = json.loads((ROOT / "interpreter" / "lang" / "spec.schema.json").read_text("utf-8"))
    reading = json.loads((ROOT / "interpreter" / "analysis" / "reading.schema.json").read_text("utf-8"))
    defs = spec["$defs"]
    spec = defs["spec"]  # a whole spec (a variant's schema asks for nothing)
    assert spec["properties"]["end"]["properties"]["max_hands"]["maximum"] == MAX_HANDS
    assert spec["properties"]["dealer"]["properties"]["first"]["maximum"] == MAX_PLAYERS - 1
    assert spec["properties"]["players"]["properties"]["max"]["maximum"] == MAX_CARDS
    for name in ("formula", "scalar"):
        assert (defs[name]["minimum"], defs[name]["maximum"]) == (-MAX_VALUE, MAX_VALUE)
    assert defs["deal"]["properties"]["packets"]["items"]["maximum"] == MAX_CARDS
    assert reading["properties"]["players"]["maximum"] == MAX_PLAYERS
    assert reading["properties"]["dealer"]["maximum"] == MAX_PLAYERS - 1
    assert reading["properties"]["options"]["additionalProperties"]["maximum"] == MAX_VALUE


# -- files ------------------------------------------------------------------------------------


def test_json_depth_is_counted_without_recursion() -> None:
    assert json_depth('[[1, "[[\\"]"], {"a": ["é["]}]') == 3
    assert json_depth("3") == 0
    assert json_depth("[" * 100_000 + "]" * 100_000) == 65  # stops counting past the limit
    with pytest.raises(LimitError, match="nested too deeply"):
        load_json("[" * 100_000 + "]" * 100_000, "log")
    with pytest.raises(LimitError, match="nested too deeply"):
        load_json("[" * 100_000, "log")  # not even balanced
    with pytest.raises(json.JSONDecodeError):
        load_json("[[1]", "log")
    assert load_json('{"a": [[1]]}', "log") == {"a": [[1]]}


def test_a_huge_reading_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from spelbok.analysis.readings import load_reading

    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(60 * 1024 * 1024)  # sparse: 60 MB that cost nothing to write
    with pytest.raises(SpelbokError, match="too large"):
        load_reading(big)


def test_a_deeply_nested_reading_file_is_refused(tmp_path: Path) -> None:
    from spelbok.analysis.readings import load_reading

    deep = tmp_path / "deep.yaml"
    deep.write_text("reading: 1\nspec: example\ncases: " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(SpelbokError, match=r"deep.yaml:3:1007: .*nesting depth"):
        load_reading(deep)


def test_a_huge_or_deep_log_is_refused(tmp_path: Path) -> None:
    from cli.play import read_log

    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(60 * 1024 * 1024)
    with pytest.raises(SpelbokError, match="too large"):
        read_log(str(big))
    deep = tmp_path / "deep.json"
    deep.write_text('{"spelbok_log": 1, "events": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(SpelbokError, match="nested too deeply"):
        read_log(str(deep))


def test_simulate_summarises_scores_held_within_the_bound(tmp_path: Path) -> None:
    from spelbok.analysis.simulate import simulate

    # every variable stays within the bound, but the reported score is past the float range
    power = " * ".join(["(score + 1000000000000000)"] * 25)
    spec = tmp_path / "huge.yaml"
    spec.write_text(example(("  score: score\n", f'  score: "{power}"\n'),
                            ("max_hands: 60", "max_hands: 2")), "utf-8")
    # an end score past the bound is held there, as every stored value is (it stopped
    # simulate with a LimitError)
    summary = simulate(str(spec), games=2, players=2)
    assert all(abs(s) <= MAX_VALUE for r in summary.matches for s in r.scores)
    # scores within the bound are summarised exactly
    spec.write_text(example(("max_hands: 60", "max_hands: 2")), "utf-8")
    summary = simulate(str(spec), games=2, players=2)
    assert all(type(s) is int for r in summary.matches for s in r.scores)
