"""What a newcomer met (issue 35, item 7), each with its test."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from spelbok.lang.loader import shipped_spec_names
from spelbok.validation import diagnose

SPECS = Path(__file__).resolve().parent.parent / "specs"


# ------------------------------------------------------------- for: all in a set step


@pytest.mark.parametrize("word", ["all", "everyone", "each"])
def test_for_every_word_suggests_true(tmp_path: Path, word: str) -> None:
    text = (SPECS / "auction-pitch.yaml").read_text(encoding="utf-8")
    assert text.count('    for: "true"\n') >= 1
    bad = text.replace('    for: "true"\n', f"    for: {word}\n", 1)
    spec = tmp_path / "g.yaml"
    spec.write_text(bad, encoding="utf-8")
    line = bad[: bad.index(f"    for: {word}\n")].count("\n") + 1
    errors, _ = diagnose(spec)
    assert len(errors) == 1, [str(e) for e in errors]
    e = errors[0]
    assert (e.line, e.col) == (line, 10)
    assert e.hint == 'for: "true"'
    assert f"'{word}'" in e.message


def test_for_every_word_declared_is_a_name(tmp_path: Path) -> None:
    """A spec that declares the word as a variable means that variable: no error."""
    spec = tmp_path / "g.yaml"
    spec.write_text("""spelbok: 1
name: Tiny
players: {min: 2, max: 2}
deck: [{ranks: [A, K, Q, J, '10', '9']}]
variables: {player: {each: true, score: 0}}
hand:
  - deal: {size: 3}
  - set: {score: "score + 1"}
    for: each
  - tricks: {}
end: {when: "true", winners: "true"}
""", encoding="utf-8")
    errors, _ = diagnose(spec)
    assert errors == []


# ------------------------------------------------------------- the README's shipped games

README = Path(__file__).resolve().parent.parent / "README.md"


def _games_table(text: str) -> list[str]:
    """The spec names of the README's games table (its first column)."""
    section = text.split("## Shipped games, variants and readings", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [re.match(r"\| `([^`]+)`", row).group(1) for row in rows]  # type: ignore[union-attr]


def test_readme_games_table_is_the_shipped_list() -> None:
    """Every shipped game (as `spelbok list` lists it) is in the README's table, and the
    table names no game that is not shipped."""
    text = README.read_text(encoding="utf-8")
    games = [n for n in shipped_spec_names() if "/" not in n]
    table = _games_table(text)
    assert sorted(table) == sorted(games)
    assert len(table) == len(set(table))


def test_readme_marks_each_game_exact_or_counts_its_compromises() -> None:
    """The games table's *exact* column agrees with the specs' marked compromises."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Shipped games, variants and readings", 1)[1].split("\n## ", 1)[0]
    specs = README.parent / "specs"
    for row in (line for line in section.splitlines() if line.startswith("| `")):
        name, _players, exact = (c.strip().strip("`") for c in row.split("|")[1:4])
        marks = sum("compromise" in line.lower()
                    for line in (specs / f"{name}.yaml").read_text(encoding="utf-8").splitlines())
        assert exact == ("yes" if marks == 0 else f"no: {marks} marked"), name


def test_readme_counts_of_shipped_games_and_variants() -> None:
    text = README.read_text(encoding="utf-8")
    names = shipped_spec_names()
    games = [n for n in names if "/" not in n]
    variants = [n for n in names if n.startswith("variants/")]
    said = " ".join(text.split())
    assert f"Shipped games: {len(games)} specs" in said
    assert re.findall(r"(\d+) variants\b", said)
    for n in re.findall(r"(\d+) variants\b", said):
        assert int(n) == len(variants)


def test_spelbok_list_is_the_shipped_games() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    out = CliRunner().invoke(cli, ["list"]).output
    listed = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert sorted(listed) == sorted(_games_table(README.read_text(encoding="utf-8")))


# ------------------------------------------------------------- a variant drops an option

SOLE_3 = """spelbok: 1
extends: knektpass
name: Knektpass (the sole player deducts 3)
hand:
  sole player:                    # the step labelled "sole player", then its "score"
    then: {score: {set: {score: "score - 3"}}}
"""


def _variant(tmp_path: Path, text: str) -> Path:
    spec = tmp_path / "v.yaml"
    spec.write_text(text, encoding="utf-8")
    return spec


def test_docs_sole_player_example_is_the_one_tested() -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "variants.md").read_text(encoding="utf-8")
    assert SOLE_3 in docs


def test_variant_dropping_an_option_is_noted_and_warned(tmp_path: Path) -> None:
    from spelbok.lang.describe import describe

    spec = _variant(tmp_path, SOLE_3)
    text = " ".join(describe(str(spec)).split())
    assert ("note: option 'floor_zero' no longer applies to hand[5].then[0].set.score" in text)
    errors, warnings = diagnose(spec)
    assert errors == []
    assert len(warnings) == 1
    w = warnings[0]
    assert "'floor_zero'" in w.message
    assert (w.line, w.col) == (6, 33)


def test_variant_option_read_by_no_rule(tmp_path: Path) -> None:
    from spelbok.lang.describe import describe

    spec = _variant(tmp_path, SOLE_3 + """  scoring:
    set: {score: "score + change"}
""")
    text = " ".join(describe(str(spec)).split())
    assert "note: option 'floor_zero' is no longer read by any rule" in text
    _, warnings = diagnose(spec)
    assert [(w.line, w.col) for w in warnings] == [(6, 33), (8, 18)]
    assert all("no longer read by any rule" in w.message for w in warnings)


def test_variant_keeping_its_options_has_no_note(tmp_path: Path) -> None:
    from spelbok.lang.describe import describe

    spec = _variant(tmp_path, SOLE_3.replace('"score - 3"', '"if floor_zero then max(0, score - 3) else score - 3"'))
    assert "note:" not in describe(str(spec))
    assert diagnose(spec) == ([], [])


# ------------------------------------------------------------- installing from the checkout


def test_readme_says_how_to_install_from_the_checkout() -> None:
    said = " ".join(README.read_text(encoding="utf-8").split())
    assert "spelbok is not on a package index" in said
    assert "`pip install .`" in said and "`pip install 'git+URL'`" in said


def test_no_advice_names_a_package_index_install() -> None:
    """spelbok is installed from its checkout: advice says ``pip install '.[plot]'``, never
    ``spelbok[plot]`` (which only a package index could install)."""
    root = README.parent
    files = [README, *sorted((root / "docs").glob("*.md"))]
    for folder in ("interpreter", "cli", "examples", "bench"):
        files += sorted((root / folder).rglob("*.py"))
    said = [f"{f.relative_to(root)}:{n}" for f in files
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
            if "spelbok[" in line]
    assert said == []


def test_missing_extra_advice_installs_from_the_checkout(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    import builtins

    from spelbok.analysis.audit_report import write_report
    from spelbok.cli.simulate import _pyplot
    from spelbok.errors import SpelbokError

    real_import = builtins.__import__

    def no_mpl(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_mpl)
    with pytest.raises(SpelbokError, match=re.escape("pip install '.[plot]'")):
        _pyplot()
    data = {"specs": [{"game": "G", "spec": "g"}], "readings": [], "cells": [], "lineups": [],
            "design": "single", "games": 1, "seed": 0, "max_hands": 0,
            "tests": {"rate": "r", "mean": "m", "count": 0, "correction": "c"}}
    write_report(data, tmp_path)
    assert "pip install &#39;.[plot]&#39;" in (tmp_path / "index.html").read_text(encoding="utf-8")


# ------------------------------------------------------------- cards in messages


def test_cards_in_text_follow_the_tables_symbols() -> None:
    from spelbok.view.text import Style, cards_in_text

    assert cards_in_text("10S is not in your hand; follow suit (H)") == \
        "10♠ is not in your hand; follow suit (♥)"
    assert cards_in_text("AS ACE OK 1C", Style(symbols=False)) == "AS ACE OK 1C"
    assert cards_in_text("ACE, OK, IS") == "ACE, OK, IS"  # words are not cards


def test_a_replay_error_writes_cards_as_the_table(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner
    from spelbok.cli.main import cli
    from spelbok.errors import SpelbokError
    from spelbok.play.matchlog import read_log, replay_log
    from spelbok.view.text import Style

    log = tmp_path / "m.json"
    r = CliRunner().invoke(cli, ["play", "knektpass", "--auto", "--seed", "1", "--log", str(log)])
    assert r.exit_code == 0, r.output
    data = json.loads(log.read_text(encoding="utf-8"))
    i = next(k for k, a in enumerate(data["actions"]) if re.fullmatch(r"(10|[2-9JQKA])[CSHD]", a))
    hand = {a for a in data["actions"][i:i + 40]}
    data["actions"][i] = next(c for c in ("AH", "KH", "QH", "AS", "KS") if c not in hand)
    card = data["actions"][i]
    log.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SpelbokError) as raised:
        replay_log(read_log(str(log)), str(log), style=Style())
    said = str(raised.value)
    shown = card[:-1] + "♣♠♥♦"["CSHD".index(card[-1])]
    assert f"('{card}') cannot be replayed: " in said  # the log's own text, quoted
    assert f"{shown} is not" in said.split("cannot be replayed: ")[1], said
    r = CliRunner().invoke(cli, ["replay", str(log)])
    assert r.exit_code == 1 and f"{shown} is not" in r.output, r.output


# ------------------------------------------------------------- a change disables a rule elsewhere

QUEEN_10 = """spelbok: 1
extends: hearts
name: Hearts (the queen of spades costs 10)
points:
  cards: {QS: 10}
"""


def test_a_change_of_card_points_that_disables_the_moon_is_noted_and_warned(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli
    from spelbok.lang.describe import describe

    spec = _variant(tmp_path, QUEEN_10)
    said = ("the rule at hand[3].set.shooter ('the moon') compares card_points with 26, the "
            "total of the base's card points; this spec's cards total 23, so 'card_points == "
            "26' can never hold and the rule no longer applies")
    assert f"note: {said}" in " ".join(describe(str(spec)).split())
    errors, warnings = diagnose(spec)
    assert errors == [] and [w.message for w in warnings] == [said]
    assert (warnings[0].line, warnings[0].col) == (5, 15)  # the change that did it
    r = CliRunner().invoke(cli, ["validate", str(spec)])
    assert r.exit_code == 0 and said in " ".join(r.output.split()), r.output


def test_a_higher_total_no_longer_means_every_point(tmp_path: Path) -> None:
    spec = _variant(tmp_path, QUEEN_10.replace("QS: 10", "QS: 15"))
    _, warnings = diagnose(spec)
    assert len(warnings) == 1
    assert "cards total 28, so 'card_points == 26' no longer means taking every point" in \
        warnings[0].message


def test_a_change_of_card_points_with_the_rule_rewritten_has_no_note(tmp_path: Path) -> None:
    from spelbok.lang.describe import describe

    spec = _variant(tmp_path, QUEEN_10 + """hand:
  the moon:
    set: {shooter: "moon != 'off' and card_points == 23"}
""")
    assert diagnose(spec) == ([], [])
    assert "  note:" not in describe(str(spec))


def test_the_shipped_variants_disable_no_rule() -> None:
    from spelbok.lang.describe import _read_base
    from spelbok.lang.fixed_conditions import variant_disabled_rules
    from spelbok.lang.loader import read_spec

    for name in shipped_spec_names():
        doc = read_spec(name)
        if doc.parents:
            assert variant_disabled_rules(_read_base(doc.parents[0]), doc) == [], name


def test_undo_names_the_card_taken_back_as_the_table() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    r = CliRunner().invoke(cli, ["play", "knektpass", "-n", "3", "--seed", "3"],
                           input="give as\nundo\nquit\n")
    assert "taken back: your swap A♠" in r.output, r.output
    r = CliRunner().invoke(cli, ["play", "knektpass", "-n", "3", "--seed", "3", "--plain"],
                           input="give as\nundo\nquit\n")
    assert "taken back: your swap AS" in r.output, r.output


# ------------------------------------------------------------- the menu gives only what is given


def _first_cards_decision(name: str) -> object:
    import random

    import spelbok
    from spelbok.engine.actions import CARDS

    state = spelbok.load(name).new_state(seed=0)
    rng = random.Random(0)
    for _ in range(500):
        legal = state.legal_actions()
        if any(a.kind == CARDS for a in legal):
            return state
        # a Schafkopf Rufspiel calls an ace (a Solo calls none): bid it, then pass
        steer = ("rufspiel", "pass") if name == "schafkopf" else ()
        state.apply(next((a for w in steer for a in legal if str(a) == w), None)
                    or rng.choice(legal))
    raise AssertionError(f"{name}: no decision of cards")


@pytest.mark.parametrize("name, shown", [("schafkopf", "call A"), ("hearts", "pass"),
                                         ("euchre", "give ")])
def test_the_menu_says_give_only_for_cards_given_away(name: str, shown: str) -> None:
    """A called ace, a card played with an announcement or face down keep their verb
    (``call A♠``, ``twenty Q♠``): ``give`` is for the cards given away (an exchange, a
    pass), in the terminal's menu and hint and on the web table's buttons alike."""
    from spelbok.cli.prompt import _deed, _exchange_verb, _interpret, _menu, _prompt_lines
    from spelbok.engine.actions import CARDS
    from spelbok.view.text import PLAIN
    from spelbok.web.tableview import decisions

    state: Any = _first_cards_decision(name)
    legal = state.legal_actions()
    menu = _menu(legal, state.game, None)
    text = " ".join(_prompt_lines(state, menu, legal, PLAIN))
    assert shown in text, text
    some = next(a for a in legal if a.kind == CARDS)
    verb = _exchange_verb(legal, state)
    buttons, _ = decisions(legal, state.game.program.pack, PLAIN, state)
    for b in buttons:  # the web's buttons say what the terminal's menu says
        assert f" {b['label']}" in text, (b, text)
    if name == "schafkopf":  # a called ace is not given away
        assert verb is None and "give" not in text
        assert _deed(some, PLAIN, verb).startswith("choose call ")
        typed = text.split("1 ", 1)[1].split("  ")[0]
        assert _interpret(typed.lower(), state, menu, legal, PLAIN) == menu[0]
    else:
        assert verb == some.verb


def test_a_hint_at_a_pass_says_to_whom() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    r = CliRunner().invoke(cli, ["play", "hearts", "--seed", "1"], input="hint\nquit\n")
    said = [line for line in r.output.splitlines() if "bot would" in line]
    assert len(said) == 2, r.output
    assert re.search(r"The greedy bot would give (\S+ ){2}\S+ to P1\.", said[0]), said[0]
    assert " to P1, expecting " in said[1], said[1]
