"""simulate / compare: determinism across processes, measures, JSON schema, statistics, CLI."""

from __future__ import annotations

import doctest
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
import spelbok.analysis.sim_report as sim_report
import spelbok.analysis.simulate as sim
import spelbok.analysis.stats as stats
from click.testing import CliRunner
from spelbok.analysis.simulate import (
    binomial_sign_p,
    compare,
    cycle_bots,
    histogram,
    simulate,
    stars,
    two_proportion_p,
    welch_p,
    wilson,
)
from spelbok.cli.simulate import compare_cmd, simulate_cmd
from spelbok.errors import SpecError, SpelbokError

KW = "knockout-whist"
MISERE = "variants/knockout-whist-misere"


# -- statistics ------------------------------------------------------------------------


def test_wilson_interval() -> None:
    lo, hi = wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_two_proportion_test() -> None:
    assert round(two_proportion_p(60, 100, 40, 100), 4) == 0.0047
    assert two_proportion_p(5, 10, 5, 10) == 1.0
    assert two_proportion_p(0, 10, 0, 10) == 1.0  # undefined: no evidence


def test_welch_matches_reference_values() -> None:
    # reference values from scipy.stats.ttest_ind_from_stats(..., equal_var=False)
    assert math.isclose(welch_p(10, 2, 30, 11.5, 2, 30), 0.005193963253261539, rel_tol=1e-6)
    assert math.isclose(welch_p(10, 2, 5, 11.5, 4, 9), 0.3686310730271423, rel_tol=1e-6)
    assert welch_p(3, 0, 4, 3, 0, 4) == 1.0
    assert welch_p(3, 1, 1, 5, 1, 9) == 1.0  # one value is no sample


def test_sign_test_and_marks() -> None:
    assert math.isclose(binomial_sign_p(15, 5), 0.04138946533203125)
    assert binomial_sign_p(0, 0) == 1.0
    assert [stars(p) for p in (0.001, 0.02, 0.2)] == ["**", "*", ""]


def test_histogram_bins() -> None:
    h = histogram([0, 0, 3])
    assert h["counts"] == [2, 0, 0, 1] and h["edges"][0] == 0
    wide = histogram([0.5, 1000.0])
    assert len(wide["counts"]) == 20 and sum(wide["counts"]) == 2


def test_cycle_bots() -> None:
    assert cycle_bots(["a"], 3) == ["a", "a", "a"]
    with pytest.raises(SpelbokError):
        cycle_bots(["a", "b", "c"], 2)


# -- runs --------------------------------------------------------------------------------


def as_data(summary: sim.Summary) -> dict[str, Any]:
    return summary.to_dict(include_matches=True)


def test_jobs_do_not_change_results() -> None:
    kw: dict[str, Any] = dict(games=6, players=3, bots=["greedy", "random"], seed=12)
    one = simulate(KW, jobs=1, **kw)
    two = simulate(KW, jobs=2, **kw)
    assert as_data(one) == as_data(two)
    assert [r.index for r in two.matches] == list(range(6))


def test_seed_changes_results_and_same_seed_repeats() -> None:
    a = simulate("knektpass", games=3, players=2, seed=1, max_hands=10)
    b = simulate("knektpass", games=3, players=2, seed=1, max_hands=10)
    c = simulate("knektpass", games=3, players=2, seed=2, max_hands=10)
    assert as_data(a) == as_data(b)
    assert [r.seed for r in a.matches] != [r.seed for r in c.matches]


def test_measures_from_the_event_log() -> None:
    s = simulate("knektpass", games=8, players=3, bots=["random"], seed=3, max_hands=15)
    keys = {m.key for m in s.measures}
    for key in ("wins.seat.0", "wins.bot.random", "length.hands", "length.decisions",
                "length.limit_reached", "hand.redeal", "hand.end_hand_early",
                "hand.talon_exhausted", "hand.trick", "decision.announce.pass",
                "decision.announce.play", "exchange.exchange.some", "exchange.exchange.cards",
                "exchange.swap.some", "scores.seat.2", "scores.all"):
        assert key in keys, key
    hands = sum(r.hands for r in s.matches)
    redeal = s.measure("hand.redeal")
    assert redeal is not None and redeal.trials == hands
    # random players pass half the time
    passes = s.measure("decision.announce.pass")
    assert passes is not None and 0.3 < passes.value < 0.7
    # max_hands bounds every match
    assert all(r.hands <= 15 for r in s.matches)


def test_eliminations_and_flags_in_knockout_whist() -> None:
    s = simulate(KW, games=6, players=4, seed=2)
    keys = {m.key for m in s.measures}
    assert {"hand.eliminated", "match.eliminated", "hand.set_true.dog", "hand.set.dog_lives"
            } <= keys
    elim = s.measure("match.eliminated")
    assert elim is not None and elim.mean >= 2  # 4 players: all but the winner(s) go out


def test_wins_per_bot_pool_its_seats() -> None:
    s = simulate(KW, games=5, players=4, bots=["greedy", "random"], seed=1)
    by_bot = {m.key: m for m in s.wins_by_bot()}
    seats = s.wins_by_seat()
    assert by_bot["wins.bot.greedy"].trials == 10
    assert by_bot["wins.bot.greedy"].successes == seats[0].successes + seats[2].successes


def test_compare_marks_a_real_difference() -> None:
    c = compare([KW, MISERE], games=20, players=3, seed=1)
    rows = {key: (ms, ps) for key, _sec, _label, ms, ps in c.rows()}
    ms, ps = rows["length.hands"]
    assert ps[0] is None and ps[1] is not None and ps[1] < 0.01
    assert ms[0] is not None and ms[1] is not None and ms[1].mean < ms[0].mean
    data = c.to_dict()
    row = next(r for r in data["rows"] if r["key"] == "length.hands")
    assert row["mark"] == ["", "**"]
    # the same seeds for both specs
    assert [r.seed for r in c.summaries[0].matches] == [r.seed for r in c.summaries[1].matches]


def test_compare_one_spec_under_two_readings() -> None:
    c = compare(["knektpass", "knektpass"], games=2, players=2, max_hands=5,
                option_sets=[{}, {"void_rule": "any"}])
    assert [s.options["void_rule"] for s in c.summaries] == ["trump_if_beats", "any"]
    with pytest.raises(SpelbokError):
        compare(["knektpass"], games=1)


def test_library_errors() -> None:
    with pytest.raises(SpecError):
        simulate("knektpass", games=1, options={"void_rul": "any"})
    with pytest.raises(SpelbokError, match="did you mean"):
        simulate("knektpass", games=1, bots=["gredy"])
    with pytest.raises(SpelbokError):
        simulate("knektpass", games=0)


# -- JSON schema ---------------------------------------------------------------------------


def test_json_schema() -> None:
    r = CliRunner().invoke(simulate_cmd, [KW, "--games", "4", "--players", "3", "--bots",
                                          "greedy,random", "--seed", "5", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["schema"] == "spelbok.simulate" and d["version"] == 1
    for key in ("spec", "game", "players", "options", "max_hands", "seed", "games", "bots",
                "wins", "length", "scores", "measures"):
        assert key in d, key
    assert d["bots"] == ["greedy", "random", "greedy"]
    seat = d["wins"]["by_seat"][0]
    assert {"seat", "bot", "successes", "trials", "value", "ci95", "key", "kind"} <= set(seat)
    assert {b["bot"] for b in d["wins"]["by_bot"]} == {"greedy", "random"}
    hands = d["length"]["hands"]
    assert {"mean", "median", "max", "min", "sd", "n"} <= set(hands)
    assert {"rate", "mean"} >= {m["kind"] for m in d["measures"]}
    assert set(d["scores"]) == {"by_seat", "all", "histogram"}
    assert sum(d["scores"]["histogram"]["counts"]) == 4 * 3


def test_compare_json_schema() -> None:
    r = CliRunner().invoke(compare_cmd, [KW, MISERE, "-g", "3", "-n", "3", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["schema"] == "spelbok.compare" and d["version"] == 1 and d["baseline"] == 0
    assert len(d["runs"]) == 2 and d["runs"][0]["schema"] == "spelbok.simulate"
    row = d["rows"][0]
    assert {"key", "section", "label", "values", "p", "mark"} <= set(row)
    assert row["p"][0] is None and len(row["values"]) == 2


# -- CLI ------------------------------------------------------------------------------------


def test_simulate_text_report() -> None:
    r = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "3", "-n", "2", "-b",
                                          "greedy,random", "--max-hands", "8"])
    assert r.exit_code == 0, r.output
    for text in ("Knektpass: 2 players, 3 matches, seed 0, at most 8 hands",
                 "seat 0 (greedy)", "greedy (seat 0)", "95% CI", "hands per match",
                 "announce: 'play'", "Final score histogram"):
        assert text in r.output, text


def test_compare_text_report_has_marks_and_legend() -> None:
    r = CliRunner().invoke(compare_cmd, [KW, MISERE, "-g", "20", "-n", "3", "-s", "1"])
    assert r.exit_code == 0, r.output
    assert "A = knockout-whist" in r.output and "B = variants/knockout-whist-misere" in r.output
    line = next(x for x in r.output.splitlines() if "hands per match" in x)
    # the mark, then the difference from A with its 95 % interval
    assert re.search(r" \*\* +-\d+\.\d\d \[-\d+\.\d\d, -\d+\.\d\d\]$", line), line
    assert "Legend" in r.output and "p < 0.01" in r.output and "Holm" in r.output


def test_cli_usage_errors_exit_2() -> None:
    runner = CliRunner()
    r = runner.invoke(simulate_cmd, ["knektpass", "--bots", "gredy"])
    assert r.exit_code == 2 and "did you mean 'greedy'" in r.output
    r = runner.invoke(simulate_cmd, ["knektpass", "--option", "void_rule"])
    assert r.exit_code == 2 and "name=value" in r.output
    r = runner.invoke(simulate_cmd, ["knektpass", "--games", "0"])
    assert r.exit_code == 2
    r = runner.invoke(compare_cmd, ["knektpass"])
    assert r.exit_code == 2 and "at least two specs" in r.output


def test_cli_spec_errors_are_spelbok_errors() -> None:
    r = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "1", "-o", "void_rul=any"])
    assert r.exit_code == 1 and isinstance(r.exception, SpecError)
    r = CliRunner().invoke(simulate_cmd, ["no-such-spec", "-g", "1"])
    assert r.exit_code == 1 and isinstance(r.exception, SpelbokError)


def test_cli_through_the_main_group() -> None:
    main = pytest.importorskip("spelbok.cli.main")
    r = CliRunner().invoke(main.cli, ["simulate", "knektpass", "-g", "1", "-o", "void_rul=any"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "void_rul" in r.output


def test_plot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "chart.png"
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        r = CliRunner().invoke(simulate_cmd, [KW, "-g", "2", "--plot", str(out)])
        assert r.exit_code == 1 and "pip install '.[plot]'" in str(r.exception)
        return
    r = CliRunner().invoke(compare_cmd, [KW, MISERE, "-g", "3", "-n", "3", "--plot", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # without matplotlib: a clear error before any match is played
    import builtins

    real_import = builtins.__import__

    def no_mpl(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mpl)
    r = CliRunner().invoke(simulate_cmd, [KW, "-g", "2", "--plot", str(tmp_path / "x.png")])
    assert r.exit_code == 1 and "pip install '.[plot]'" in str(r.exception)


def test_doctests() -> None:
    # the runner, its report objects and its statistics (split along those seams)
    results = [doctest.testmod(m, optionflags=doctest.ELLIPSIS) for m in (sim, sim_report, stats)]
    assert sum(r.attempted for r in results) > 10 and not any(r.failed for r in results)


# -- defaults that finish ------------------------------------------------------------------


def test_simulate_defaults_to_bots_that_finish_matches() -> None:
    # random bots cut 92 % of 3-player Knektpass matches at the hand limit (their
    # figures were the bound's): the default is greedy, which finishes them
    r = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "2", "-n", "3", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["bots"] == ["greedy", "greedy", "greedy"]
    assert data["length"]["limit_reached"]["successes"] == 0 and data["warnings"] == []


def test_simulate_warns_when_most_matches_hit_the_hand_limit() -> None:
    r = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "3", "-b", "random",
                                          "--max-hands", "1"])
    assert r.exit_code == 0, r.output
    assert r.stderr == ("warning: 3 of 3 matches were cut at max_hands (1): their scores and "
                        "winners are the bound's; use bots that finish matches (greedy) or a "
                        "higher --max-hands\n")
    quiet = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "1", "-b", "greedy",
                                              "--max-hands", "1"])
    assert quiet.exit_code == 0 and quiet.stderr.startswith("warning: 1 of 1 matches")
    finished = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "1", "-b", "greedy"])
    assert finished.exit_code == 0 and finished.stderr == ""


def test_bot_time_reaches_the_bots_and_a_cut_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from spelbok.play.bots import budget

    now = [0.0]

    def clock() -> float:  # a clock that moves one second each time it is read
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(budget.time, "monotonic", clock)
    r = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "1", "--bot-time", "0.5", "--json"])
    assert r.exit_code == 0, r.output
    (warning,) = json.loads(r.stdout)["warnings"]
    assert re.fullmatch(r"[1-9][0-9]* bot decisions stopped searching at the time budget "
                        r"\(--bot-time\): .*", warning)
    assert r.stderr == f"warning: {warning}\n"
    # --bot-time 0: no limit, nothing cut, whatever the clock says
    r = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "1", "--bot-time", "0", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["warnings"] == [] and r.stderr == ""


@pytest.mark.parametrize("value", ["-1", "nan", "1e9", "soon"])
def test_bad_bot_time_is_a_usage_error(value: str) -> None:
    r = CliRunner().invoke(simulate_cmd, ["knektpass", "-g", "1", "--bot-time", value])
    assert r.exit_code == 2 and "--bot-time" in r.stderr
