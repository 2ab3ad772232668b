"""Rule-reading scenario files (spelbok.analysis.readings) and ``spelbok verify``."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import jsonschema
import pytest
import spelbok.analysis.readings as readings_mod
from click.testing import CliRunner
from spelbok.analysis.readings import ReadingFileErrors, load_reading, load_schema, run_reading
from spelbok.cli.verify import verify_cmd
from spelbok.errors import ReadingError, SpecError
from spelbok.lang.yamlio import load_yaml

ROOT = Path(__file__).resolve().parent.parent
READINGS = ROOT / "specs" / "readings"
SHIPPED = sorted(p for p in READINGS.glob("*.yaml") if not p.stem.endswith("-pending"))
KNEKTPASS = READINGS / "knektpass-1847.yaml"
VARIANTS = ROOT / "specs" / "variants"


def test_doctests() -> None:
    result = doctest.testmod(readings_mod)
    assert result.failed == 0 and result.attempted > 0


def test_schema_is_valid_and_shipped_files_follow_it() -> None:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    for path in SHIPPED:
        data, _ = load_yaml(path.read_text(encoding="utf-8"), str(path))
        jsonschema.validate(data, schema)


# -- the shipped readings ---------------------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_readings_pass_against_their_spec(path: Path) -> None:
    report = run_reading(path)
    failing = [c for c in report.cases if not c.ok]
    assert not failing, report.format()
    assert all(c.cites for c in report.cases)


def test_case_counts() -> None:
    assert len(load_reading(KNEKTPASS).data["cases"]) >= 40
    assert len(load_reading(READINGS / "knockout-whist.yaml").data["cases"]) >= 25


def test_every_option_has_cases_that_separate_its_readings() -> None:
    import spelbok

    for path, spec, players in [(KNEKTPASS, "knektpass", 3), (READINGS / "knockout-whist.yaml", "knockout-whist", 3),
                                (READINGS / "oh-hell.yaml", "oh-hell", 4), (READINGS / "euchre.yaml", "euchre", 4)]:
        report = run_reading(path)
        options = spelbok.load(spec, players=players).options
        separated = {k for c in report.separating for k in c.reading}
        assert set(options) <= separated, set(options) - separated


def test_shipped_name_resolves() -> None:
    report = run_reading("knektpass-1847", only=lambda name: name == "a 36-card pack for two players")
    assert report.ok and len(report.cases) == 1


# -- failures show expected and actual ----------------------------------------------------------

WRONG = """\
reading: 1
spec: knektpass
players: 3
source: {en: "the English text"}
cases:
  - name: right
    cites: "en: Cards"
    position: {trump: H, leader: 0, hands: {0: "JS 7C", 1: "JC 8C", 2: "AH 9C"}}
    steps:
      - play: [JS, JC, AH]
      - expect: {trick_winner: 1}
  - name: deliberately wrong
    cites: "en: Cards"
    position: {trump: H, leader: 0, hands: {0: "JS 7C", 1: "JC 8C", 2: "AH 9C"}}
    steps:
      - play: JS
      - expect: {current: 1}
      - play: [JC, AH]
      - expect: {trick_winner: 0, tricks: [1, 0, 0], current: 1}
"""


def test_a_wrong_case_fails_with_expected_and_actual() -> None:
    report = run_reading("wrong.yaml", text=WRONG)
    assert [c.status for c in report.cases] == ["pass", "fail"]
    bad = report.cases[1]
    assert bad.step == 4 and bad.step_line == 19
    assert bad.history == ["0: JS", "1: JC", "2: AH"]
    got = {m.what: (m.expected, m.actual) for m in bad.mismatches}
    assert got["trick_winner"][0] == "0" and got["trick_winner"][1].startswith("1")
    assert got["tricks"] == ("[1, 0, 0]", "[0, 1, 0]")
    assert "current" not in got  # that expectation held
    text = report.format()
    assert "FAIL  deliberately wrong" in text
    assert "at step 4 (line 19), after: 0: JS, 1: JC, 2: AH" in text
    assert "expected" in text and "actual" in text
    assert "1 passed, 1 failed" in text
    assert not report.ok


def _one_case(steps: str, setup: str = 'position: {trump: H, leader: 0, hands: {0: "9C 7D", 1: "KC AH", 2: "7C 8S"}}') -> str:
    return ("reading: 1\nspec: knektpass\nplayers: 3\ncases:\n  - name: c\n    cites: x\n"
            f"    {setup}\n    steps:\n{steps}")


def test_refused_actions() -> None:
    ok = run_reading("r.yaml", text=_one_case(
        "      - play: 9C\n      - play: AH\n        expect_error: illegal\n        reason: follow suit\n"
        "      - expect: {current: 1, legal: [KC]}\n"))
    assert ok.ok, ok.format()
    accepted = run_reading("r.yaml", text=_one_case(
        "      - play: 9C\n      - play: KC\n        expect_error: illegal\n"))
    assert accepted.cases[0].status == "fail"
    assert accepted.cases[0].mismatches[0].actual == "the action was accepted"
    refused = run_reading("r.yaml", text=_one_case("      - play: 9C\n      - play: AH\n"))
    assert refused.cases[0].status == "fail"
    assert "you must follow suit" in refused.cases[0].message
    wrong_seat = run_reading("r.yaml", text=_one_case("      - play: 9C\n        by: 2\n"))
    assert wrong_seat.cases[0].mismatches[0].actual == "0"


def test_impossible_setups_are_errors_not_crashes() -> None:
    bad_pos = run_reading("r.yaml", text=_one_case(
        "      - expect: {current: 0}\n", 'position: {hands: {0: "AS", 1: "AS"}}'))
    assert bad_pos.cases[0].status == "error"
    assert bad_pos.cases[0].message.startswith("r.yaml:7:")
    bad_deck = run_reading("r.yaml", text=_one_case("      - expect: {current: 0}\n", 'deck: "2C"'))
    assert bad_deck.cases[0].status == "error" and "not in the pack" in bad_deck.cases[0].message
    short = run_reading("r.yaml", text=_one_case(
        "      - expect: {current: 0}\n", 'hands: {1: "AS KS"}'))
    assert "gets 5 card(s) in the deal, only 2 are given" in short.cases[0].message


def test_reading_declared_on_a_case_is_compared_with_the_spec() -> None:
    text = _one_case("      - play: [9C]\n      - expect: {legal: [KC, AH]}\n",
                     'position: {trump: S, leader: 0, hands: {0: "9C 7D", 1: "KC AH", 2: "7C 8S"}}')
    text = text.replace("    cites: x\n", "    cites: x\n    reading: {jack_suit: printed}\n")
    # the case's expectation is wrong under any reading (the player must follow clubs)
    report = run_reading("r.yaml", text=text)
    case = report.cases[0]
    assert case.status == "fail" and case.options["jack_suit"] == "printed"
    assert case.separates is None  # a case that fails under its own reading separates nothing


def test_schema_errors_are_located_with_hints() -> None:
    text = ("reading: 1\nspec: knektpass\ncases:\n  - name: c\n    steps:\n"
            "      - expect: {trick_winer: 1}\n")
    with pytest.raises(ReadingFileErrors) as info:
        load_reading("bad.yaml", text=text)
    lines = str(info.value).splitlines()
    assert "bad.yaml:4:5: missing 'cites' in a case" in lines
    assert any(line.startswith("bad.yaml:6:18: unknown key 'trick_winer'")
               and "did you mean 'trick_winner'" in line for line in lines)
    assert isinstance(info.value, ReadingError) and isinstance(info.value, SpecError)


def test_cites_must_name_a_known_source() -> None:
    text = ("reading: 1\nspec: knektpass\nsource: {en: x}\ncases:\n  - name: c\n"
            "    cites: \"eng: Cards\"\n    steps: []\n")
    with pytest.raises(ReadingError, match="'eng' is not one of the file's sources"):
        load_reading("c.yaml", text=text)


def test_unknown_option_in_a_reading_is_an_error() -> None:
    text = _one_case("      - expect: {current: 0}\n").replace(
        "    cites: x\n", "    cites: x\n    reading: {void_rul: any}\n")
    case = run_reading("r.yaml", text=text).cases[0]
    assert case.status == "error" and "no option 'void_rul'" in case.message


# -- comparing readings --------------------------------------------------------------------------


def test_separating_cases_against_a_variant() -> None:
    variant = VARIANTS / "knektpass-void-any.yaml"
    if not variant.exists():
        pytest.skip("variant not shipped")
    report = run_reading(KNEKTPASS, spec=str(variant))
    assert report.ok  # every case holds under its own reading
    names = {c.name for c in report.separating}
    assert names == {
        "a void player must trump and beat any trump already played",
        "a void player may play any card",
        "a void player who can beat the trick must trump",
    }
    text = report.format()
    assert "3 case(s) separate" in text and "SEPARATES" in text
    assert "(void_rule=trump_if_beats)" in text and "(void_rule=any)" in text


def test_option_override_acts_like_a_variant() -> None:
    report = run_reading(KNEKTPASS, options={"void_rule": "any"})
    assert report.ok
    assert "a void player may play any card" not in {c.name for c in report.separating}
    assert "a void player must trump and beat any trump already played" in {
        c.name for c in report.separating}


# -- the command ----------------------------------------------------------------------------------


def test_cli_exit_codes_and_output(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(verify_cmd, [str(KNEKTPASS), "-k", "36-card"])
    assert ok.exit_code == 0, ok.output
    assert "PASS  a 36-card pack for three players" in ok.output
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(WRONG, encoding="utf-8")
    bad = runner.invoke(verify_cmd, [str(wrong)])
    assert bad.exit_code == 1
    assert "FAIL  deliberately wrong" in bad.output and "trick_winner" in bad.output
    usage = runner.invoke(verify_cmd, [str(KNEKTPASS), "--option", "void_rule"])
    assert usage.exit_code == 2
    missing = runner.invoke(verify_cmd, [str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 1 and isinstance(missing.exception, ReadingError)


def test_cli_json(tmp_path: Path) -> None:
    runner = CliRunner()
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(WRONG, encoding="utf-8")
    result = runner.invoke(verify_cmd, ["--json", str(wrong), str(KNEKTPASS), "-k", "wrong"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert [r["ok"] for r in data] == [False, True]
    case = data[0]["cases"][0]
    assert case["status"] == "fail" and case["step"] == 4
    assert {"what": "tricks", "expected": "[1, 0, 0]", "actual": "[0, 1, 0]"} in case["mismatches"]


def test_cli_spec_variant_lists_separating_cases() -> None:
    variant = VARIANTS / "knektpass-void-any.yaml"
    if not variant.exists():
        pytest.skip("variant not shipped")
    runner = CliRunner()
    result = runner.invoke(verify_cmd, ["--spec", str(variant), "--json", str(KNEKTPASS)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)[0]
    assert len(data["separating"]) == 3 and data["versus"].endswith("knektpass.yaml")
    text = runner.invoke(verify_cmd, ["--spec", str(variant), str(KNEKTPASS)]).output
    assert "separating cases:" in text


def test_cli_through_the_main_group() -> None:
    try:
        from spelbok.cli.main import cli
    except ImportError:  # pragma: no cover
        pytest.skip("no main group")
    runner = CliRunner()
    result = runner.invoke(cli, ["verify", str(KNEKTPASS), "-k", "two players"])
    assert result.exit_code == 0, result.output
    for args, words in [
        (["verify", "no-such-reading"], "no such reading file"),
        (["verify", "-o", "void_rul=any", str(KNEKTPASS)], "unknown option 'void_rul'"),
        (["verify", "--spec", "no/such/spec.yaml", str(KNEKTPASS)], "no such spec file"),
    ]:
        bad = runner.invoke(cli, args)
        assert bad.exit_code == 1, bad.output
        assert words in bad.output
        assert "Traceback" not in bad.output


def test_hands_are_placed_when_the_trial_deal_ends_its_hand_at_once(tmp_path: Path) -> None:
    # bug (found writing Five-card Loo): the deck was stacked by a trial deal of the pack in
    # order; when that deal settled the hand at once (a flush in packets of five), the
    # cards went where the next hand's deal put them
    spec = (Path(__file__).parent / "specs" / "hand_patterns.yaml").read_text(encoding="utf-8")
    (tmp_path / "hand_patterns.yaml").write_text(
        spec.replace("  - deal: {size: 5}", "  - deal: {size: 5, packets: [5]}"), encoding="utf-8")
    reading = tmp_path / "r.yaml"
    reading.write_text(
        "reading: 1\nspec: hand_patterns.yaml\nplayers: 2\ndealer: 0\ncases:\n"
        "  - name: the hands given are the hands dealt\n    cites: \"x\"\n"
        "    hands: {1: \"AS 9S 8S 7H 8H\", 0: \"KS QS JS 10S 7D\"}\n    steps:\n"
        "      - expect: {hand: {1: \"AS 9S 8S 7H 8H\", 0: \"KS QS JS 10S 7D\"}, "
        "decision: tricks, hand_number: 1}\n", encoding="utf-8")
    result = run_reading(str(reading))
    assert result.ok, result


def _tractor_case(steps: str) -> str:
    return ("reading: 1\nspec: tractor\nplayers: 4\ndealer: 0\ncases:\n  - name: c\n"
            "    cites: x\n    deck: \"3H 3S 3D 3C\"\n    steps:\n" + steps)


def test_until_repeats_an_action_until_the_expectations_hold() -> None:
    # every player is asked after each card he is dealt: a hundred passes to the last round
    ok = run_reading("u.yaml", text=_tractor_case(
        "      - do: pass\n        until: {hand_size: [25, 25, 25, 25], current: 3}\n"
        "      - expect: {hand_size: [25, 25, 25, 25], current: 3}\n"
        "      - do: pass\n        until: {current: 3}\n"  # holds at once: nothing played
        "      - play: pass\n      - expect: {current: 2}\n"))
    assert ok.ok, ok.format()
    never = run_reading("u.yaml", text=_tractor_case(
        "      - do: pass\n        until: {trump: S}\n      - expect: {current: 0}\n"))
    case = never.cases[0]
    assert case.status == "fail" and "'until' did not hold after 1000 times" in case.message
    assert case.mismatches[0].what == "trump"
    # the history says how many actions, not each one
    assert len(case.history) == 1 and "(1000 actions, until)" in case.history[0]
    refused = run_reading("u.yaml", text=_one_case(
        "      - play: 9C\n        until: {current: 2}\n"))
    assert refused.cases[0].status == "fail" and "refused" in refused.cases[0].message


def test_until_goes_with_an_action_that_is_accepted() -> None:
    alone = run_reading("u.yaml", text=_one_case("      - until: {current: 1}\n"))
    assert alone.cases[0].status == "error"
    assert "u.yaml:9:9: 'until' goes with an action" in alone.cases[0].message
    refused = run_reading("u.yaml", text=_one_case(
        "      - play: AH\n        until: {current: 1}\n        expect_error: illegal\n"))
    assert refused.cases[0].status == "error"
    assert "repeats accepted actions" in refused.cases[0].message
