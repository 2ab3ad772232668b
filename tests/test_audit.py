"""``spelbok audit`` (issue 19): the sweep, its seeds, measures, tests, report and command."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from spelbok.analysis import audit as audit_mod
from spelbok.analysis.audit import (
    Lineup,
    audit,
    benjamini_hochberg,
    cell_seed,
    load_schema,
    plan_audit,
)
from spelbok.analysis.audit_measures import AuditRecord, audit_measures, direction, match_facts
from spelbok.analysis.audit_report import have_matplotlib, render_html, write_report
from spelbok.analysis.sim_report import MatchRecord
from spelbok.analysis.simulate import run_match
from spelbok.cli.main import cli
from spelbok.errors import SpecError

ROOT = Path(__file__).resolve().parent.parent

# small and fast: random bots on the example spec, no skill line-up unless asked
FAST: dict[str, Any] = dict(players=[2, 3], skill=None, seed=3)
#: two chunks per cell, so that the chunks of a cell can finish in any order
GAMES = 12


def test_small_audits_have_several_chunks_per_cell() -> None:
    assert audit_mod.CHUNK < GAMES


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    return audit(["example"], games=GAMES, **FAST).to_dict()


# -- the sweep ------------------------------------------------------------------------


def test_product_design_sweeps_every_combination_default_first() -> None:
    plan = plan_audit(["knektpass"], 1, options={"void_rule": ["any", "trump"],
                                                 "floor_zero": ["true", "false"]}, skill=None)
    labels = [r.label for r in plan.readings]
    assert labels[0] == "default" and plan.readings[0].default
    # the default reading is swept even when the values named leave it out
    assert len(labels) == 5 and "void_rule=any, floor_zero=true" in labels


def test_single_design_changes_one_option_at_a_time() -> None:
    plan = plan_audit(["knektpass"], 1, design="single", players=[2, 3], skill=None)
    # the default and each other value of each option: 1 + 1+3+1+1+1+1+1+1+1
    assert len(plan.readings) == 12
    assert all(len(r.options) <= 1 for r in plan.readings)
    assert len(plan.cells) == 24 and plan.matches == 24


def test_every_cell_is_tested_against_the_default_reading() -> None:
    plan = plan_audit(["knektpass"], 1, options={"void_rule": ["any", "trump"]}, players=[2, 3],
                      skill=None)
    for c in plan.cells:
        if plan.readings[c.reading].default:
            assert c.baseline is None
        else:
            assert c.baseline is not None
            base = plan.cells[c.baseline]
            assert plan.readings[base.reading].default and base.players == c.players


def test_a_second_spec_is_compared_with_the_first() -> None:
    plan = plan_audit(["knektpass", "variants/knektpass-void-any"], 1, skill=None,
                      options={"floor_zero": ["false", "true"]})
    defaults = [c for c in plan.cells if plan.readings[c.reading].default]
    assert [c.spec for c in defaults] == [0, 1]
    assert defaults[1].baseline == defaults[0].id


def test_unknown_option_or_value_is_a_spec_error_with_a_hint() -> None:
    with pytest.raises(SpecError, match="no option 'void_rul'") as e:
        plan_audit(["knektpass"], 1, options={"void_rul": ["any"]}, skill=None)
    assert "void_rule" in (e.value.hint or "")
    with pytest.raises(SpecError, match="no value 'anyy'"):
        plan_audit(["knektpass"], 1, options={"void_rule": ["anyy"]}, skill=None)
    with pytest.raises(SpecError, match="players"):
        plan_audit(["knektpass"], 1, players=[1], skill=None)


def test_a_cells_seed_depends_on_the_cell_not_on_the_rest_of_the_sweep() -> None:
    one = plan_audit(["example"], 1, players=[2], skill=None)
    more = plan_audit(["example"], 1, players=[3, 2], skill=("greedy", "random"))
    seeds = {c.key: c.seed for c in more.cells}
    for c in one.cells:
        assert seeds[c.key] == c.seed == cell_seed(0, c.key)
    assert len({c.seed for c in more.cells}) == len(more.cells)


def test_skill_lineup_moves_the_stronger_bot_one_seat_a_match() -> None:
    lu = Lineup(("random",), strong="greedy")
    assert [lu.seats(3, i).index("greedy") for i in range(4)] == [0, 1, 2, 0]
    assert Lineup(("greedy", "random")).seats(3, 5) == ["greedy", "random", "greedy"]


# -- determinism ------------------------------------------------------------------------


def test_same_seed_same_audit_whatever_the_parallelism(small: dict[str, Any]) -> None:
    assert audit(["example"], games=GAMES, jobs=2, **FAST).to_dict() == small
    other = audit(["example"], games=GAMES, **{**FAST, "seed": 4}).to_dict()
    assert other["cells"][0]["measures"] != small["cells"][0]["measures"]


def test_the_matches_of_a_cell_are_those_of_its_seed() -> None:
    from spelbok.engine.game import load

    a = audit(["example"], games=3, players=[2], skill=None, seed=9)
    cell = a.cells[0]
    game = load("example", players=2)
    again = [run_match(game, ["random", "random"], cell.seed, i) for i in range(3)]
    assert [r.match for r in cell.records] == again


def test_the_ray_backend_gives_the_same_audit(small: dict[str, Any]) -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert audit(["example"], games=GAMES, backend="ray", **FAST).to_dict() == small
    finally:
        ray.shutdown()


def test_the_ray_backend_without_ray_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(audit_mod.SpelbokError, match=r"pip install '\.\[ray\]'"):
        audit(["example"], games=1, players=[2], skill=None, backend="ray")


# -- measures and tests -------------------------------------------------------------------


def _rec(winners: list[int], scores: list[int], first: int = 0, gain: float = 0.0,
         hands: int = 1, strong: int = -1) -> AuditRecord:
    m = MatchRecord(index=0, seed=0, winners=winners, scores=scores, hands=hands, decisions=1,
                    limit_reached=False, counts={"choice:bid:pass": 2})
    return AuditRecord(m, first_dealer=first, dealer_gain=gain, scored_hands=hands,
                       strong_seat=strong)


def test_direction_is_read_from_the_matches() -> None:
    assert direction([_rec([0], [0, 10]).match]) == -1
    assert direction([_rec([1], [0, 10]).match]) == 1
    assert direction([_rec([0, 1], [5, 5]).match]) == 0


def test_audit_measures_of_hand_made_matches() -> None:
    recs = [_rec([1], [0, 10], first=0, gain=2.0, hands=2, strong=1),
            _rec([0, 1], [10, 10], first=1, gain=-4.0, hands=2, strong=0)]
    ms = {m.key: m for m in audit_measures(recs, 2)}
    assert (ms["match.decisive"].successes, ms["match.tie"].successes) == (1, 1)
    assert ms["match.margin"].mean == 10.0
    # match 0: the first dealer (0) lost; match 1: the first dealer (1) shared the win
    assert ms["advantage.seat.0"].successes == 1 and ms["advantage.seat.1"].successes == 2
    # higher scores win here, so gains count as they are: (2/2 + -4/2) / 2
    assert ms["advantage.dealer"].mean == -0.5
    assert ms["hand.choice.bid.pass"].mean == 1.0
    assert (ms["skill.strong"].successes, ms["skill.weak"].successes) == (2, 1)
    assert ms["skill.gain"].mean == 0.5


def test_match_facts_read_the_dealers_gain_from_the_log() -> None:
    from spelbok.engine.game import load
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = load("knektpass", players=3, max_hands=6)
    st = play_match(game, [make_bot("random", s) for s in range(3)], 11, record=True)
    facts = match_facts(st)
    scores = [12.0] * 3
    gain, hands, first = 0.0, 0, -1
    for ev in st.log:
        if ev["event"] == "hand":
            dealer = ev["dealer"]
            first = dealer if first < 0 else first
        if ev["event"] == "end_hand":
            change = [a - b for a, b in zip(ev["scores"], scores)]
            gain += change[dealer] - (sum(change) - change[dealer]) / 2
            hands += 1
            scores = [float(x) for x in ev["scores"]]
    assert facts == {"first_dealer": first, "dealer_gain": gain, "scored_hands": hands,
                     "turn": 1}
    assert hands > 0


def test_run_match_shows_the_finished_match_to_observe() -> None:
    from spelbok.engine.game import load

    seen: list[Any] = []
    rec = run_match(load("example", players=2), ["random"] * 2, 1, 0, observe=seen.append)
    assert len(seen) == 1 and seen[0].hands_played == rec.hands


def test_benjamini_hochberg() -> None:
    assert benjamini_hochberg([]) == []
    qs = benjamini_hochberg([0.001, 0.2, 0.01, 0.04])
    assert qs == pytest.approx([0.004, 0.2, 0.02, 0.0533333])
    # the adjusted values keep the order of the p-values and never fall below them
    assert all(q >= p for q, p in zip(qs, [0.001, 0.2, 0.01, 0.04]))


def test_marks_follow_the_adjusted_p_values(small: dict[str, Any]) -> None:
    tested = [m for c in small["cells"] for m in c["measures"] if m["p"] is not None]
    assert len(tested) == small["tests"]["count"] > 0
    for m in tested:
        assert m["q"] >= m["p"]
        assert m["mark"] == ("**" if m["q"] < 0.01 else "*" if m["q"] < 0.05 else "")
    base = [c for c in small["cells"] if c["baseline"] is None]
    assert base and all(m["p"] is None for c in base for m in c["measures"])


def test_audit_json_follows_its_versioned_schema(small: dict[str, Any]) -> None:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(small, schema)
    assert small["version"] == audit_mod.AUDIT_VERSION
    keys = {m["key"] for m in small["cells"][0]["measures"]}
    assert {"advantage.seat.0", "advantage.dealer", "match.decisive", "match.tie",
            "length.hands", "length.decisions", "length.limit_reached",
            "hand.talon_exhausted", "wins.seat.0"} <= keys
    for c in small["cells"]:
        for m in c["measures"]:
            lo, hi = m["ci95"]
            assert lo <= m["value"] <= hi


def test_skill_measures_come_from_the_skill_lineup() -> None:
    d = audit(["example"], games=2, players=[2], seed=1, lineups=[["random"]],
              skill=("greedy", "random")).to_dict()
    skill = [c for c in d["cells"] if d["lineups"][c["lineup"]]["strong"]]
    assert skill and all(any(m["key"] == "skill.gain" for m in c["measures"]) for c in skill)
    assert not any(m["key"].startswith("wins.seat.") for c in skill for m in c["measures"])


# -- the report ---------------------------------------------------------------------------


def test_the_page_is_self_contained_and_escapes_the_specs_text(small: dict[str, Any]) -> None:
    data = json.loads(json.dumps(small))
    data["specs"][0]["game"] = "<script>alert(1)</script>"
    page = render_html(data, [("p.png", "a plot", b"\x89PNG fake")])
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert 'src="data:image/png;base64,' in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page


def test_the_page_is_rendered_from_its_template_with_autoescaping(small: dict[str, Any]) -> None:
    # issue 35: the page is a Jinja2 template, not HTML assembled in Python strings
    from spelbok.analysis import audit_report

    source = Path(audit_report.__file__).read_text(encoding="utf-8")
    assert not re.search(r"<(tr|td|th|table|h[1-6]|li|ul|figure|p)[ >]", source)
    assert (Path(audit_report.__file__).parent / "templates" / "audit.html").exists()
    data = json.loads(json.dumps(small))
    m = data["cells"][0]["measures"][0]
    m["key"], m["label"] = 'k"><b>x', "<i>label</i> & co"
    data["readings"][0]["label"] = "a\"b<c"
    page = render_html(data, [("p.png", 'a "plot"', b"\x89PNG")], note="<u>note</u>")
    assert "<b>x" not in page and "<i>" not in page and "<u>" not in page
    assert 'title="k&#34;&gt;&lt;b&gt;x"' in page and "&lt;i&gt;label&lt;/i&gt; &amp; co" in page
    assert 'alt="a &#34;plot&#34;"' in page and "a&#34;b&lt;c" in page
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</body></html>\n")


def test_report_files(tmp_path: Path, small: dict[str, Any]) -> None:
    files = write_report(small, tmp_path)
    assert files[-1] == "index.html" and (tmp_path / "index.html").exists()
    if not have_matplotlib():
        assert "matplotlib is not installed" in (tmp_path / "index.html").read_text()
        pytest.skip("matplotlib is not installed: no plots")
    pngs = [f for f in files if f.endswith(".png")]
    assert "plot-length-hands.png" in pngs
    for f in pngs:
        assert (tmp_path / f).read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "index.html").read_text().count("data:image/png;base64,") == len(pngs)


def test_report_without_plots(tmp_path: Path, small: dict[str, Any]) -> None:
    assert write_report(small, tmp_path, plots=False) == ["index.html"]


# -- the command ----------------------------------------------------------------------------


def _run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["audit", *args], catch_exceptions=False)


def test_command_writes_the_audit(tmp_path: Path) -> None:
    out = tmp_path / "a"
    r = _run("example", "--players", "2-3", "--games", "3", "--skill", "none", "--jobs", "1",
             "--no-plots", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "2 readings, 4 cells, 3 matches each" in r.output
    assert "auditing" not in r.output  # no bar: stderr is no terminal here
    data = json.loads((out / "audit.json").read_text())
    jsonschema.validate(data, load_schema())
    assert [c["players"] for c in data["cells"]] == [2, 3, 2, 3]
    assert (out / "index.html").exists()


def test_command_same_json_with_any_jobs(tmp_path: Path) -> None:
    args = ["example", "--games", "4", "--skill", "none", "--no-plots",
            "--options", "void_rule=any,trump"]
    assert _run(*args, "--jobs", "1", "--out", str(tmp_path / "1")).exit_code == 0
    assert _run(*args, "--jobs", "2", "--out", str(tmp_path / "2")).exit_code == 0
    assert (tmp_path / "1" / "audit.json").read_bytes() == (tmp_path / "2" / "audit.json").read_bytes()


def test_command_two_specs_side_by_side(tmp_path: Path) -> None:
    r = _run("knektpass", "variants/knektpass-void-any", "--games", "2", "--max-hands", "3",
             "--skill", "none", "--no-plots", "--jobs", "1", "--options", "floor_zero=false",
             "--out", str(tmp_path))
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "audit.json").read_text())
    assert [s["game"] for s in data["specs"]] == ["Knektpass", "Knektpass (any card when void)"] \
        or len(data["specs"]) == 2
    assert data["cells"][1]["baseline"] == 0


@pytest.mark.parametrize("args, code, text", [
    (["example", "--options", "void_rule=maybe"], 1, "no value 'maybe'"),
    (["example", "--options", "nope=1"], 1, "no option 'nope'"),
    (["example", "--players", "9"], 1, "players"),
    (["example", "--players", "two"], 2, "2,3,4 or 2-4"),
    (["example", "--options", "void_rule"], 2, "name=value1,value2"),
    (["example", "--skill", "greedy"], 2, "name two bots"),
    (["example", "--bots", "nobot"], 2, "nobot"),
    (["example", "--backend", "spark"], 2, "spark"),
    ([], 2, "SPEC"),
])
def test_command_errors(tmp_path: Path, args: list[str], code: int, text: str) -> None:
    r = CliRunner().invoke(cli, ["audit", *args, "--games", "1", "--out", str(tmp_path)])
    assert r.exit_code == code, r.output
    assert text in r.output and "Traceback" not in r.output


def test_command_progress_bar_when_asked(tmp_path: Path) -> None:
    r = _run("example", "--players", "2", "--games", "2", "--skill", "none", "--jobs", "1",
             "--no-plots", "--progress", "--out", str(tmp_path))
    assert r.exit_code == 0 and "auditing" in r.output


def test_progress_counts_every_match() -> None:
    seen: list[int] = []
    audit(["example"], games=5, players=[2], skill=None, progress=seen.append)
    assert sum(seen) == 5 * 2


# -- the shipped example ------------------------------------------------------------------------


def test_the_shipped_knektpass_audit_is_valid_and_complete() -> None:
    folder = ROOT / "docs" / "audit"
    data = json.loads((folder / "audit.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, load_schema())
    assert data["specs"][0]["game"] == "Knektpass"
    assert sorted({c["players"] for c in data["cells"]}) == [2, 3, 4]
    assert len(data["readings"]) == 12
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in page
    for name in re.findall(r"\((plot-[\w-]+\.png)\)", page):
        assert (folder / name).exists()


# -- with no options -------------------------------------------------------------------


def test_auto_design_falls_back_to_one_option_at_a_time_and_says_so() -> None:
    # Knektpass: 1 024 combinations of its nine options x 2 line-ups = 2 048 cells,
    # over the cap; `spelbok audit knektpass` stopped at once
    plan = plan_audit(["knektpass"], 1, design="auto")
    assert plan.design == "single" and len(plan.readings) == 12 and len(plan.cells) == 24
    assert plan.note is not None and plan.note.startswith(
        "every combination of the options would be 2048 cells, more than 2000: each option "
        "is changed alone from the defaults instead (--design single)")
    small = plan_audit(["knektpass"], 1, design="auto", options={"void_rule": ["any"]})
    assert small.design == "product" and small.note is None
    with pytest.raises(audit_mod.SpelbokError, match="2048 cells to sweep, more than 2000"):
        plan_audit(["knektpass"], 1, design="product")


def test_a_huge_product_is_counted_not_listed() -> None:
    # forty two-valued options: 2**40 readings, refused before any is listed
    tree = {"name": "big", "options": {f"o{i}": {"values": [False, True], "default": False}
                                       for i in range(40)}}
    assert audit_mod.product_size(tree, None) == 2 ** 40
    with pytest.raises(audit_mod.SpelbokError, match=f"{2 ** 40} readings to sweep, more than 2000"):
        audit_mod.readings_of(tree, 0, None, "product")
    assert len(audit_mod.readings_of(tree, 0, None, "single")) == 41


def test_audit_command_with_no_sweep_options_runs(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["audit", "knektpass", "--games", "1", "--no-plots",
                                 "--out", str(tmp_path), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("12 readings, 24 cells, 1 matches each")
    note = ("note: every combination of the options would be 2048 cells, more than 2000: "
            "each option is changed alone from the defaults instead (--design single); name "
            "options with --options to sweep their combinations\n")
    assert r.stderr == note + note
    assert json.loads((tmp_path / "audit.json").read_text())["design"] == "single"
