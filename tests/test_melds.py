"""Melds as people make them: named cards, trump-only and plain-suit melds, doubled
values, classes, runs in an order of their own, melds picked by the player (``choose``),
sides compared by their best meld (``compare: best``) and melds shown later (``reveal``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.validation import validate

SPEC = """spelbok: 1
name: Melds more
players: {min: 2, max: 4}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
teams: [[0, 2], [1, 3]]
melds:
  run: {ranks: [A, K, Q, J], spread: trump_suit, class: a, points: 100}
  royal: {ranks: [K, Q], spread: trump_suit, class: a, points: 40}
  marriage: {ranks: [K, Q], spread: plain_suit, class: a, points: 20}
  pinochle: {cards: [QS, JD], points: 40}
  tierce: {run: 3, longest: 3, order: [A, K, Q, J, 10, 9, 8, 7], points: 20}
  fifty: {run: 4, longest: 4, order: [A, K, Q, J, 10, 9, 8, 7], points: 50}
hand:
  - deal: {size: 8}
  - set: {trump: "'H'"}
  - declare_melds: {}
    label: declare
  - tricks: {}
end: {when: "hand_number >= 2", winners: "tricks == max(tricks)"}
"""


def _load(tmp_path: Path, text: str = SPEC, players: int = 4) -> spelbok.Game:
    p = tmp_path / "m.yaml"
    p.write_text(text, encoding="utf-8")
    return spelbok.load(p, players=players)


def _at(game: spelbok.Game, hands: dict[int, str], phase: str = "declare",
        **more: Any) -> spelbok.State:
    return game.new_state(seed=1, position={"phase": phase, "trump": "H", "hands": hands,
                                            **more})


FILL = {1: "9C 8C 10S 8S", 2: "AC 10C 9S 7S", 3: "AD KD 10D 9D"}  # no meld among them


def test_named_cards_trump_and_plain_suits_and_classes(tmp_path: Path) -> None:
    g = _load(tmp_path)
    # the run in trumps takes KH QH first (class a): no royal marriage besides; KS QS
    # make a plain marriage; QS JD the named pair; A K Q J of hearts in the natural
    # order are also a fifty (no class)
    s = _at(g, {0: "AH KH QH JH KS QS JD 7C", **FILL})
    assert s.meld_points[0] == 100 + 20 + 40 + 50
    # a king and queen of trumps alone: a royal marriage, never a plain one
    s = _at(g, {0: "KH QH 7C 7D", **FILL})
    assert s.meld_points[0] == 40


def test_runs_follow_their_own_order_and_stop_at_longest(tmp_path: Path) -> None:
    g = _load(tmp_path)
    s = _at(g, {0: "AC KC QC 7D", 1: "AS 10S KS 7H", 2: "JD 10D 9D 8D", 3: "9C 8C 7C 8H"})
    # A K Q a tierce (natural order; K Q a marriage besides); A 10 K none; J 10 9 8 a
    # fifty, not two tierces
    assert s.meld_points == [20 + 20, 0, 50, 20]


def test_the_doubled_value_replaces_twice_the_single_one() -> None:
    g = spelbok.load("pinochle")
    hands = {0: "QS QS JD JD 10H", 1: "10C 10D 9H 9D JC", 2: "10C 10D 9H 9D JC",
             3: "10S 10S 9S 9S JS"}
    s = g.new_state(seed=1, position={"phase": "show melds", "trump": "C", "hands": hands})
    s.apply("pinochle")
    assert s.meld_points[0] == 300


def test_a_player_picks_the_melds_he_declares_and_keeps_the_rest_hidden() -> None:
    g = spelbok.load("pinochle")
    hands = {0: "KH QH 9H KC QC", 1: "10C 10D 9C 9D JC", 2: "10C 10D 9C 9D JC",
             3: "10S 10S 9S 9S JS"}
    s = g.new_state(seed=1, position={"phase": "show melds", "trump": "H", "hands": hands})
    assert s.current_player == 0
    assert [str(a) for a in s.legal_actions()] == ["royal_marriage", "marriage", "dix", "done"]
    s.apply("marriage")
    assert [str(a) for a in s.legal_actions()] == ["royal_marriage", "dix", "done"]
    s.apply("done")
    assert s.meld_points[0] == 20
    assert sorted(s.view(1)["known_cards"][0]) == ["KC", "QC"]


def test_the_meld_choice_is_numbered_once_per_meld_and_done() -> None:
    pytest.importorskip("numpy")  # the rl extra
    from spelbok.rl.encoding import Encoding

    g = spelbok.load("pinochle")
    enc = Encoding(g)
    words = [name for name in g.tree["melds"]] + ["done"]
    for w in words:
        assert w in enc.labels
    assert "declare_melds" in enc.decisions
    hands = {0: "KH QH 9H KC QC", 1: "10C 10D 9C 9D JC", 2: "10C 10D 9C 9D JC",
             3: "10S 10S 9S 9S JS"}
    s = g.new_state(seed=1, position={"phase": "show melds", "trump": "H", "hands": hands})
    legal = sorted(enc.index[a] for a in s.legal_actions())
    assert [enc.labels[i] for i in legal] == sorted(
        ["royal_marriage", "marriage", "dix", "done"], key=lambda w: enc.labels.index(w))


def test_only_the_side_of_the_best_meld_scores(tmp_path: Path) -> None:
    g = _load(tmp_path, SPEC.replace("  - declare_melds: {}", "  - declare_melds: {compare: best}"))
    # a tierce (seat 0) against a fifty (seat 1): only seat 1's side scores, and all of it
    s = _at(g, {0: "QC JC 10C 7D", 1: "JD 10D 9D 8D", 2: "8C 9S 7S 10S", 3: "9C AC 7H 8H"})
    assert s.meld_points == [0, 50, 0, 0]
    # without compare: best each side keeps its own
    s = _at(_load(tmp_path), {0: "QC JC 10C 7D", 1: "JD 10D 9D 8D", 2: "8C 9S 7S 10S",
                              3: "9C AC 7H 8H"})
    assert s.meld_points == [20, 50, 0, 0]


def test_equal_best_melds_go_higher_then_trumps_then_the_tie_rule(tmp_path: Path) -> None:
    best = SPEC.replace("  - declare_melds: {}", "  - declare_melds: {compare: best}")
    g = _load(tmp_path, best)
    # the higher tierce wins
    s = _at(g, {0: "JC 10C 9C 7D", 1: "QS JS 10S 7H", 2: "8C 9S 7S AS", 3: "AC KC 8D 8H"})
    assert s.meld_points == [0, 20, 0, 0]
    # the same height: the one in trumps
    s = _at(g, {0: "10H 9H 8H 7D", 1: "10S 9S 8S 7C", 2: "AC JC 7S AD", 3: "9C KD 8D JS"})
    assert s.meld_points == [20, 0, 0, 0]
    # an exact tie: no side (tie: none), or the first from forehand (seat 1 here)
    hands = {0: "10C 9C 8C 7D", 1: "10S 9S 8S 7H", 2: "AC JC 7S AD", 3: "KC KD 8D JS"}
    assert _at(g, hands).meld_points == [0, 0, 0, 0]
    g = _load(tmp_path, best.replace("{compare: best}", "{compare: best, tie: forehand}"))
    assert _at(g, hands).meld_points == [0, 20, 0, 0]


def test_reveal_shows_the_counted_melds_later(tmp_path: Path) -> None:
    text = SPEC.replace("  - declare_melds: {}", "  - declare_melds: {show: false}").replace(
        "  - tricks: {}", "  - tricks:\n      after_each:\n"
        "        - declare_melds: {reveal: true}\n          when: \"tricks_played == 1\"")
    g = _load(tmp_path, text)
    s = _at(g, {0: "AC KC QC 7D", 1: "9C 8C 10S 8S", 2: "JC 10C 9S 7S", 3: "AD KD 10D 9D"})
    assert s.meld_points[0] == 20 + 20 and s.known[0] == 0  # a tierce and a marriage
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    shown = sorted(s.view(1)["known_cards"][0])
    assert shown and set(shown) <= {"AC", "KC", "QC"}
    assert any(e.get("event") == "melds_shown" for e in s.log)


def test_the_new_fields_round_trip_through_the_dsl_and_are_described(tmp_path: Path) -> None:
    text = SPEC.replace("  - declare_melds: {}",
                        "  - declare_melds: {choose: true, compare: best, tie: forehand}")
    game = _load(tmp_path, text)
    tree = game.tree
    dsl = to_dsl(tree)
    assert "meld pinochle: cards Q♠ J♦, worth 40\n" in dsl
    assert "meld royal: K Q in trumps, class a, worth 40\n" in dsl
    assert "meld marriage: K Q in a plain suit, class a, worth 20\n" in dsl
    assert "meld tierce: run of 3 to 3 ranked A K Q J 10 9 8 7 in one suit, worth 20\n" in dsl
    assert "declare melds, by choice, best meld counts, ties to forehand\n" in dsl
    assert normalize(parse_dsl(dsl, "m.spel")[0]) == tree
    prose = describe(tmp_path / "m.yaml")
    assert "the trump suit" in prose and "class a" in prose
    assert "best single meld" in prose and "one at a time" in prose


def test_meld_errors_are_located(tmp_path: Path) -> None:
    def errors(text: str) -> list[str]:
        p = tmp_path / "e.yaml"
        p.write_text(text, encoding="utf-8")
        return [str(e) for e in validate(p)]

    bad = errors(SPEC.replace("cards: [QS, JD]", "cards: [QS, XD]"))
    assert len(bad) == 1 and ":11:26:" in bad[0] and "unknown card 'XD'" in bad[0]
    bad = errors(SPEC.replace("  pinochle: {cards: [QS, JD], points: 40}",
                              "  pinochle: {cards: [QS, JD], ranks: [K], points: 40}"))
    assert len(bad) == 1 and ":11:" in bad[0] and "one of 'ranks', 'cards' or 'run'" in bad[0]
    bad = errors(SPEC.replace("run: 3, longest: 3", "run: 3, longest: 2"))
    assert len(bad) == 1 and ":12:" in bad[0] and "below its 'run' of 3" in bad[0]
    bad = errors(SPEC.replace("  - declare_melds: {}", "  - declare_melds: {tie: forehand}"))
    assert len(bad) == 1 and ":17:" in bad[0] and "needs 'compare: best'" in bad[0]
    bad = errors(SPEC.replace("  - declare_melds: {}", "  - declare_melds: {reveal: true, choose: true}"))
    assert len(bad) == 1 and ":17:" in bad[0] and "no use with 'reveal'" in bad[0]
    bad = errors(SPEC.replace("  - declare_melds: {}", "  - declare_melds: {compare: most}"))
    assert len(bad) == 1 and ":17:" in bad[0] and "most" in bad[0]


def test_the_terminal_tells_announced_beaten_and_later_shown_melds() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    out = CliRunner().invoke(cli, ["play", "belote", "--auto", "-s", "3"]).output
    assert "declares tierce for 20" in out
    assert "nothing for melds (beaten)" in out  # compared once all have announced
    assert "shows their melds:" in out
    # announced before the first trick, shown after it
    first = out.index("declares tierce")
    assert first < out.index("trick 1:", first) < out.index("shows their melds:", first)
