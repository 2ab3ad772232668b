"""The player's experience (issue 21): undo and history, explanations from the spec,
the commands of ``play`` (undo, hint, rules, score, log), Ctrl-C, --resume, --force,
the layout at 40, 80 and 120 columns and the plain mode."""

from __future__ import annotations

import builtins
import json
import re
from pathlib import Path

import pytest
import spelbok
from click.testing import CliRunner, Result
from spelbok.cli.main import cli
from spelbok.errors import ArgumentError
from spelbok.lang.describe import describe_step
from spelbok.play.bots import make_bot
from spelbok.play.explain import Explainer, explain_set, explain_trick
from spelbok.play.match import play_match

_real_input = builtins.input


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.fixture(scope="module")
def knektpass() -> spelbok.Game:
    return spelbok.load("knektpass", players=2)


@pytest.fixture(scope="module")
def finished(knektpass: spelbok.Game) -> spelbok.State:
    game = spelbok.load("knektpass", players=2, max_hands=4)
    return play_match(game, [make_bot("greedy", 1), make_bot("greedy", 2)], seed=3)


# -- undo and history -----------------------------------------------------------------


def test_undo_gives_back_the_earlier_state(knektpass: spelbok.Game) -> None:
    s = knektpass.new_state(seed=5, record=True)
    states = []
    for _ in range(12):
        states.append((s.clone(), s.log))
        s.apply(s.legal_actions()[-1])
    taken = s.undo(3)
    assert len(taken) == 3
    before, log = states[-3]
    assert s == before and s.actions == before.actions and s.log == log
    assert s.legal_actions() == before.legal_actions()
    s.apply(taken[0])  # the same action again is legal again
    assert s.actions == states[-2][0].actions


def test_undo_all_and_too_many(knektpass: spelbok.Game) -> None:
    s = knektpass.new_state(seed=2)
    first = s.legal_actions()[0]
    s.apply(first)
    with pytest.raises(ArgumentError):
        s.undo(2)
    assert s.undo(0) == [] and s.undo() == [first]
    assert s == knektpass.new_state(seed=2)
    with pytest.raises(ArgumentError):
        s.undo()


def test_history_names_seats_and_decisions(finished: spelbok.State) -> None:
    h = finished.history
    assert [e.action for e in h] == finished.actions
    assert {e.seat for e in h} == {0, 1}
    assert h[0].hand == 1 and h[-1].hand == finished.hand_number
    assert {"swap", "announce"} <= {e.decision for e in h}


# -- explanations ---------------------------------------------------------------------


def test_explain_trick_from_the_ranking(knektpass: spelbok.Game) -> None:
    def why(cards: list[list[object]], winner: int, trump: str | None) -> str:
        return explain_trick(knektpass, {"event": "trick", "cards": cards, "winner": winner},
                             trump)

    assert why([[0, "AH"], [1, "JD"]], 1, "S") == "J♦ is the only trump"  # a top trump
    assert why([[0, "AS"], [1, "JC"]], 1, "S") == "J♣ is the highest trump"
    assert why([[0, "KH"], [1, "AH"]], 1, "S") == "A♥ is the highest card of the led suit ♥"
    assert why([[0, "7H"], [1, "AC"]], 0, "S") == "7♥ is the only card of the led suit ♥"
    # a winner the ranking does not explain: the rules are named, not a guess
    assert why([[0, "AH"], [1, "7H"]], 1, "S") == "7♥ takes the trick by the rules of play"


def test_explainer_follows_the_log(finished: spelbok.State) -> None:
    ex = Explainer(finished.game)
    ex.sync(finished)
    log = finished.log
    texts = [ex.explain(i, e, f"P{e.get('seat')}") for i, e in enumerate(log)]
    assert all(ex.note(i) is not None for i in range(len(log)))
    tricks = [t for t, e in zip(texts, log) if e["event"] == "trick"]
    assert tricks and all(t for t in tricks)
    scores = [t for t, e in zip(texts, log) if e["event"] == "set" and e["var"] == "score" and t]
    assert scores, "every score change is explained"
    # the formula that applied, with the values it read and the spec's citation
    assert re.search(r"score 12 → \d+ \([+-]\d+\): \[scoring\] score \+ change, with change -?\d+ "
                     r"\(en: Scoring", scores[0])
    changes = [t for t, e in zip(texts, log) if e["event"] == "set" and e["var"] == "change"
               and t]
    assert any(t.startswith(("P0 change", "P1 change")) and "if" not in t.split(":")[1]
               for t in changes), "the branch that applied, not the whole if"


def test_explainer_after_an_undo(knektpass: spelbok.Game) -> None:
    s = knektpass.new_state(seed=4)
    ex = Explainer(knektpass)
    for _ in range(6):
        s.apply(s.legal_actions()[0])
    ex.sync(s)
    s.undo(4)
    s.apply(s.legal_actions()[-1])
    ex.sync(s, s.log)
    assert ex._st is not None and ex._st.rec == s.log and ex.note(len(s.log) - 1) is not None
    ex.sync(s, s.log[:-1])  # a log it cannot give back: no notes, so no wrong explanation
    assert ex.note(0) is None and ex.explain(0, s.log[0]) is None


def test_explain_set_words() -> None:
    e = {"event": "set", "seat": 0, "var": "dog", "value": True}
    assert explain_set(e, False, "tricks == 0", {"tricks": 0}, "dog", "en: Dog", "P0") == \
        "P0 dog is now yes: [dog] tricks == 0, with tricks 0 (en: Dog)"


def test_an_early_end_says_why() -> None:
    game = spelbok.load("rams", players=3)
    for seed in range(20):
        s = play_match(game, [make_bot("random", seed + i) for i in range(3)], seed=seed)
        ex = Explainer(game)
        ex.sync(s)
        log = s.log
        early = [ex.explain(i, e) for i, e in enumerate(log) if e["event"] == "end_hand_early"]
        if early:
            assert all(t and "because " in t for t in early)
            return
    pytest.fail("no early end in 20 matches")


def test_describe_step_matches_describe() -> None:
    text = describe_step("knektpass", ("hand", 3))
    assert text.startswith("4. (announce) Decision 'announce'")
    assert describe_step("knektpass", ("end",)) == ""


# -- play: the commands ---------------------------------------------------------------


def test_play_commands(tmp_path: Path) -> None:
    log = tmp_path / "m.json"
    script = "help\nscore\nrules\nhint\nlog\nundo\n1\nshow\nundo\n1\n1\nquit\n"
    r = run("play", "knektpass", "--seed", "3", "--log", str(log), "--plain", input=script)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "undo" in out and "hint" in out  # the help
    assert "scores  you 12 · P1 12" in out
    assert "Decision 'swap'" in out  # the rules of the step being played
    assert "The greedy bot would" in out and "The ISMCTS bot would" in out and "playouts" in out
    assert "nothing to undo: this is your first decision" in out
    assert "taken back: your swap" in out
    data = json.loads(log.read_text())
    assert len(data["actions"]) >= 2 and not data["finished"]


def test_exchange_rounds_are_numbered() -> None:
    r = run("play", "knektpass", "--seed", "3", "--plain", input="1\n1\n1\n1\n1\nquit\n")
    assert "exchange (round 1 of 3)" in r.output and "exchange (round 2 of 3)" in r.output


def test_ctrl_c_saves_and_resume_continues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    answers = iter(["1", "1"])

    def typed(*_: object) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(builtins, "input", typed)
    r = run("play", "knektpass", "--seed", "3", "--plain")
    assert r.exit_code == 130, r.output
    saved = tmp_path / "state" / "spelbok" / "knektpass-3.json"
    assert f"--resume {saved}" in " ".join(r.output.split())
    assert not list(tmp_path.glob("*.json"))  # nothing left in the current folder
    assert "Traceback" not in r.output
    before = json.loads(saved.read_text())["actions"]
    monkeypatch.setattr(builtins, "input", _real_input)
    r = run("play", "--resume", str(saved), "--plain", input="1\n1\n1\nquit\n")
    assert r.exit_code == 0, r.output
    assert f"Resumed after {len(before)} actions" in r.output
    after = json.loads(saved.read_text())["actions"]
    assert after[:len(before)] == before and len(after) > len(before)
    assert run("replay", str(saved)).exit_code == 0


def test_resume_refuses_a_bots_only_log(tmp_path: Path) -> None:
    log = tmp_path / "auto.json"
    assert run("play", "example", "--auto", "--seed", "1", "--max-hands", "2", "--log", str(log)).exit_code == 0
    r = run("play", "--resume", str(log))
    assert r.exit_code == 1 and "nothing to resume" in r.output
    first = run("play", input="quit\n")  # neither SPEC nor --resume: a first game
    assert first.exit_code == 0 and "a first game" in first.output


def test_log_is_never_overwritten_without_force(tmp_path: Path) -> None:
    log = tmp_path / "m.json"
    log.write_text("keep me")
    r = run("play", "example", "--auto", "--seed", "1", "--max-hands", "2", "--log", str(log))
    assert r.exit_code == 2 and "--force" in r.output and log.read_text() == "keep me"
    r = run("play", "example", "--auto", "--seed", "1", "--max-hands", "2", "--log", str(log), "--force")
    assert r.exit_code == 0 and json.loads(log.read_text())["finished"]


# -- layout ---------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("width", [40, 80, 120])
def test_lines_fit_the_width(width: int) -> None:
    script = "1\n1\n" + "1\n" * 12 + "quit\n"
    r = run("play", "knektpass", "--players", "4", "--seed", "8", "--width", str(width),
            input=script)
    assert r.exit_code == 0, r.output
    lines = [line.removeprefix("> ").removeprefix("> ") for line in r.output.splitlines()]
    long = [line for line in lines if len(line) > width]
    assert not long, long
    if width == 120:  # a wide terminal is used, not wrapped at 40
        assert any(len(line) > 80 for line in lines)


def test_plain_mode_has_no_symbols() -> None:
    r = run("play", "knektpass", "--seed", "3", "--plain", input="1\n1\n1\n1\n1\n1\nquit\n")
    assert r.exit_code == 0
    assert not re.search("[♣♠♥♦→─│✗−]", r.output) and not _ANSI.search(r.output)
    assert "trump S" in r.output


def test_auto_transcripts_do_not_change_with_the_explanations() -> None:
    # --auto prints no explanations: its transcripts are stable (readings compare them)
    r = run("play", "knektpass", "--auto", "--seed", "3", "--max-hands", "2")
    assert r.exit_code == 0 and "highest trump" not in r.output and " → " in r.output


# -- compare: paired tests, intervals, corrections ------------------------------------


def test_paired_difference_and_holm() -> None:
    from spelbok.analysis.stats import holm, paired_difference

    a = [(float(x), 1.0) for x in (3, 5, 4, 6, 5, 7, 4, 6)]
    b = [(x + 1.0 + (i % 2) * 0.5, 1.0) for i, (x, _) in enumerate(a)]
    d, lo, hi, p = paired_difference(a, b)
    # paired: the large spread between matches cancels, the difference is clear
    assert d == pytest.approx(1.25) and lo > 0.8 and hi < 1.7 and p < 1e-4
    # rates over hands: a match's hands stay together
    d2, lo2, hi2, _ = paired_difference([(1, 4), (2, 4)], [(2, 4), (3, 4)])
    assert d2 == pytest.approx(0.25) and lo2 == hi2 == pytest.approx(0.25)
    assert holm([0.01, 0.02, 0.5]) == pytest.approx([0.03, 0.04, 0.5])


def test_compare_is_paired_on_the_seeds() -> None:
    from spelbok.analysis.simulate import compare
    from spelbok.analysis.stats import welch_p

    c = compare(["example", "example"], games=8, players=2, seed=4, max_hands=4,
                bots=["random"], option_sets=[{}, {"void_rule": "any"}])
    rows = {key: (ms, ds) for key, _s, _l, ms, ds in c.differences()}
    ms, ds = rows["scores.seat.0"]
    a, b = ms
    assert a is not None and b is not None and ds[0] is None and ds[1] is not None
    diff, lo, hi, p_holm, p_raw = ds[1]
    assert diff == pytest.approx(b.mean - a.mean) and lo < diff < hi
    assert p_holm > p_raw  # corrected for the other measures
    # not the unpaired test of independent samples
    assert p_raw != pytest.approx(welch_p(b.mean, b.sd, b.n, a.mean, a.sd, a.n))
    data = c.to_dict()
    assert data["tests"]["correction"].startswith("Holm")
    row = next(r for r in data["rows"] if r["key"] == "scores.seat.0")
    assert row["difference_ci95"][1] == [lo, hi]


def test_compare_warns_when_matches_hit_max_hands() -> None:
    r = run("compare", "knektpass", "knektpass", "-g", "3", "-n", "2", "--max-hands", "1",
            "--bots", "random")
    assert r.exit_code == 0, r.output
    assert "warning: run 1 (knektpass): 3 of 3 matches were cut at max_hands" in r.output


def test_plot_bins_are_shared() -> None:
    from spelbok.analysis.sim_report import bin_counts, histogram

    a, b = [1.0, 2.0, 2.0], [10.0, 30.0, 50.0]
    edges = histogram(a + b)["edges"]
    assert sum(bin_counts(a, edges)) == 3 and sum(bin_counts(b, edges)) == 3
    assert bin_counts([50.0], edges)[-1] == 1


def test_plot_is_never_overwritten_without_force(tmp_path: Path) -> None:
    png = tmp_path / "p.png"
    png.write_bytes(b"keep")
    r = run("simulate", "example", "-g", "1", "--plot", str(png))
    assert r.exit_code == 2 and "--force" in r.output and png.read_bytes() == b"keep"


# -- the published schema: variants, descriptions, defaults ----------------------------


def test_variants_validate_cleanly_in_an_editor() -> None:
    import jsonschema
    import yaml
    from spelbok.lang.loader import load_schema

    check = jsonschema.Draft202012Validator(load_schema())
    root = Path(__file__).resolve().parent.parent / "specs"
    for path in sorted(root.glob("variants/*.yaml")) + sorted(root.glob("*.yaml")):
        errors = [e.message for e in check.iter_errors(yaml.safe_load(path.read_text("utf-8")))]
        assert not errors, f"{path.name}: {errors[:3]}"
    # a whole spec still needs its keys, and a variant its known keys
    assert any("'hand' is a required property" in e.message
               for e in check.iter_errors({"spelbok": 1, "name": "x"}))
    assert list(check.iter_errors({"spelbok": 1, "extends": "knektpass", "hnad": []}))
    # a variant changes one step by its label
    assert not list(check.iter_errors({"spelbok": 1, "extends": "rams",
                                       "hand": {"ante": {"set": {"paid": 3}}}}))


def test_every_key_of_the_schema_has_a_description() -> None:
    from spelbok.lang.loader import load_schema

    spec = load_schema()["$defs"]
    missing = [f"{name}.{key}" for name, d in spec.items() if not name.startswith("variant")
               for key, sub in (d.get("properties") or {}).items()
               if isinstance(sub, dict) and "description" not in sub]
    assert not missing, missing
    deal = spec["deal"]["properties"]
    assert any("default" in sub for sub in deal.values())


def test_every_step_of_every_shipped_spec_has_a_label() -> None:
    from spelbok.lang.loader import read_spec
    from spelbok.lang.vocabulary import walk_steps

    root = Path(__file__).resolve().parent.parent / "specs"
    for path in sorted(root.glob("*.yaml")):
        tree = read_spec(str(path)).tree
        unlabelled = [p for p, step in walk_steps(tree["hand"], ("hand",))
                      if not step.get("label")]
        assert not unlabelled, f"{path.name}: {unlabelled}"


def test_a_variant_changes_one_step_by_its_label(tmp_path: Path) -> None:
    variant = tmp_path / "sole3.yaml"
    variant.write_text("spelbok: 1\nextends: knektpass\nname: Knektpass (sole player -3)\n"
                       "hand:\n  sole player:\n"
                       "    then: {score: {set: {score: \"score - 3\"}}}\n", "utf-8")
    from spelbok.lang.loader import read_spec

    tree = read_spec(str(variant)).tree
    base = read_spec("knektpass").tree
    assert tree["hand"][5]["then"][0]["set"] == {"score": "score - 3"}
    assert tree["hand"][:5] == base["hand"][:5] and tree["hand"][6:] == base["hand"][6:]


def test_refusals_show_cards_as_the_table_does() -> None:
    from spelbok.cli.play import _symbols
    from spelbok.cli.render import Style

    text = "10S is not allowed: you must follow suit H"
    assert _symbols(text, Style()) == "10♠ is not allowed: you must follow suit ♥"
    assert _symbols(text, Style(symbols=False)) == text


def test_list_shows_the_shipped_games() -> None:
    r = run("list")
    assert r.exit_code == 0
    line = next(x for x in r.output.splitlines() if x.startswith("knektpass "))
    assert "2-10 players" in line and "Swedish" in line
    assert "variants/" not in r.output and "variants/knektpass-void-any" in run(
        "list", "--variants").output


def test_unicode_digits_at_the_prompt_are_not_a_legal_move() -> None:
    """'²' is a digit to str.isdigit but not to int(): the prompt says so and asks again,
    with no traceback (issue 30)."""
    r = CliRunner().invoke(cli, ["play", "bridge", "--seed", "5", "--plain"],
                           input="²\nbid ²\n٣\nquit\n")
    assert r.exit_code == 0 and r.exception is None, r.output
    assert r.output.count("is not a legal move here") == 3
    assert "Match abandoned" in r.output


def test_a_number_with_no_menu_says_what_to_write() -> None:
    r = CliRunner().invoke(cli, ["play", "hearts", "--seed", "5", "--plain"], input="1\nquit\n")
    assert "there is no choice 1: write the cards or words" in r.output
