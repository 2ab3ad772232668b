"""Melds declared one player at a time (``declare_melds: {wait: true}``), each keeping
the declarations others made earlier in the hand, and compared once all have declared
(``declare_melds: {settle: true}``): Belote's announcement with the first card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.validation import validate

# two declarations that wait, seat 0 first and the others after, then one settling step
SPEC = """spelbok: 1
name: Melds in turn
players: {min: 4, max: 4}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
teams: [[0, 2], [1, 3]]
melds:
  tierce: {run: 3, longest: 3, order: [A, K, Q, J, 10, 9, 8, 7], points: 20}
  fifty: {run: 4, longest: 4, order: [A, K, Q, J, 10, 9, 8, 7], points: 50}
hand:
  - deal: {size: 8}
  - set: {trump: "'H'"}
  - declare_melds: {wait: true, show: false}
    for: "seat == 0"
    label: first
  - declare_melds: {wait: true, show: false}
    for: "seat != 0"
    label: others
  - declare_melds: {settle: true, compare: best}
    label: settle
  - tricks: {}
end: {when: "hand_number >= 2", winners: "tricks == max(tricks)"}
"""

HANDS = {0: "AS KS QS 9D 7D 9C 7C 8H", 1: "JS 10S 9S 8S KD 7H AH 9H",
         2: "7S KH JH AD JD 8D AC QC", 3: "QH 10H QD 10D KC JC 10C 8C"}


def _load(tmp_path: Path, text: str = SPEC) -> spelbok.Game:
    p = tmp_path / "m.yaml"
    p.write_text(text, encoding="utf-8")
    return spelbok.load(p, players=4)


def _errors(tmp_path: Path, text: str) -> list[str]:
    p = tmp_path / "bad.yaml"
    p.write_text(text, encoding="utf-8")
    return [str(e) for e in validate(p)]


def test_a_waiting_declaration_keeps_the_earlier_ones_and_settle_compares(
        tmp_path: Path) -> None:
    g = _load(tmp_path)
    s = g.new_state(seed=1, position={"phase": "first", "trump": "H", "hands": HANDS},
                    record=True)
    # seat 0's tierce (declared first) stayed beside seat 1's fifty, then compared
    assert s.meld_points == [0, 50, 0, 0]
    assert [e["seat"] for e in s.log if e["event"] == "melds"] == [0, 1]
    assert [e["seat"] for e in s.log if e["event"] == "melds_beaten"] == [0]
    assert [e["seat"] for e in s.log if e["event"] == "melds_shown"] == [1]
    # before the settling step each keeps his own points: nothing is compared yet
    g = _load(tmp_path, SPEC.replace("{settle: true, compare: best}", "{settle: true}"))
    s = g.new_state(seed=1, position={"phase": "first", "trump": "H", "hands": HANDS})
    assert s.meld_points == [20, 50, 0, 0]


def test_without_wait_a_later_declaration_replaces_the_earlier_ones(tmp_path: Path) -> None:
    g = _load(tmp_path, SPEC.replace("{wait: true, show: false}\n    for: \"seat != 0\"",
                                     "{show: false}\n    for: \"seat != 0\""))
    s = g.new_state(seed=1, position={"phase": "first", "trump": "H", "hands": HANDS})
    assert s.meld_points == [0, 50, 0, 0] and s.meld_keys[0] == 0  # seat 0's tierce is gone


def test_belote_each_player_announces_with_his_first_card() -> None:
    g = spelbok.load("belote")
    hands = {0: "9C 9S 9H 9D AC 7S 7H 7D", 2: "AS AH AD KS 8C 8S 8H 8D",
             3: "KC QC JC 10C QS 10S JD KD", 1: "JS KH QH JH 10H QD 10D 7C"}
    s = g.new_state(position={"phase": "tricks", "trump": "H", "taker": 3, "hands": hands},
                    record=True)
    assert "melds" in [str(a) for a in s.legal_actions()]  # the leader, before his card
    for a in ["melds", "cinquante", "10C"]:
        s.apply(a)
    assert s.current_player == 2 and "melds" not in [str(a) for a in s.legal_actions()]
    for a in ["8C", "melds", "cinquante", "7C", "melds", "four_nines"]:
        s.apply(a)
    assert s.meld_points == [150, 50, 0, 50]  # all declared, none compared yet
    assert g.restore(json.loads(json.dumps(s.to_dict()))) == s  # the waiting ones too
    assert s.trick.mask() and s.current_player == 0
    s.apply("9C")  # the first trick over: compared, the best shown
    assert s.meld_points == [150, 0, 0, 0]
    assert sorted(s.view(1)["known_cards"][0]) == ["9D", "9H", "9S"]
    assert s.view(0)["known_cards"][1] == []  # a beaten side's melds stay hidden
    # a player who plays his first card without announcing cannot announce later
    s = g.new_state(position={"phase": "tricks", "trump": "H", "taker": 3, "hands": hands})
    for a in ["melds", "cinquante", "10C", "8C", "7C", "9C"]:
        s.apply(a)
    assert s.meld_points == [0, 0, 0, 50]
    while s.current_player != 0:
        s.apply(s.legal_actions()[0])
    assert "melds" not in [str(a) for a in s.legal_actions()]


def test_melds_made_counts_the_melds_a_hand_makes() -> None:
    g = spelbok.load("belote")
    hands = {0: "AS KS QS JS 9D 8D 7D 7C", 3: "10S 8S AH QH 10H KC 10C 8C",
             2: "9S 7S KH JH 9H AD QD JC", 1: "8H 7H KD JD 10D AC QC 9C"}
    s = g.new_state(position={"phase": "tricks", "trump": "H", "taker": 3, "hands": hands})
    for a in ["8C", "JC", "9C"]:  # seats without melds are offered no announcement
        assert "melds" not in [str(x) for x in s.legal_actions()]
        s.apply(a)
    assert [str(a) for a in s.legal_actions()] == ["7C", "melds"]
    s.apply("melds")
    assert [str(a) for a in s.legal_actions()] == ["tierce", "cinquante", "done"]


def test_waiting_and_settling_round_trip_through_the_dsl_and_are_described(
        tmp_path: Path) -> None:
    game = _load(tmp_path, SPEC.replace("{wait: true, show: false}\n    for: \"seat == 0\"",
                                        "{wait: true, show: false, choose: true}\n"
                                        "    for: \"seat == 0\""))
    dsl = to_dsl(game.tree)
    assert "for each player where seat == 0, declare melds, by choice, waiting, not shown\n" in dsl
    assert "settle declared melds, best meld counts\n" in dsl
    assert normalize(parse_dsl(dsl, "m.spel")[0]) == game.tree
    prose = describe(tmp_path / "m.yaml")
    assert "beside the declarations others made earlier" in prose
    assert "The declarations made so far in the hand are settled" in prose
    assert "best single meld" in prose


def test_misused_waiting_and_settling_are_located_errors(tmp_path: Path) -> None:
    bad = _errors(tmp_path, SPEC.replace("{wait: true, show: false}\n    for: \"seat == 0\"",
                                         "{wait: true, show: false, compare: best}\n"
                                         "    for: \"seat == 0\""))
    assert len(bad) == 1 and ":13:" in bad[0] and "belongs to the step that settles" in bad[0]
    bad = _errors(tmp_path, SPEC.replace("  - declare_melds: {settle: true, compare: best}\n"
                                         "    label: settle\n", ""))
    assert len(bad) == 1 and ":13:" in bad[0] and "no declare_melds step settles" in bad[0]
    bad = _errors(tmp_path, SPEC.replace("{settle: true, compare: best}",
                                         "{settle: true, choose: true}"))
    assert len(bad) == 1 and ":19:" in bad[0] and "no use with 'settle'" in bad[0]
    bad = _errors(tmp_path, SPEC.replace("{settle: true, compare: best}\n",
                                         "{settle: true}\n    for: \"seat == 1\"\n"))
    assert len(bad) == 1 and ":20:" in bad[0] and "'for' has no use" in bad[0]
    bad = _errors(tmp_path, SPEC.replace("{settle: true, compare: best}",
                                         "{settle: true, reveal: true}"))
    assert len(bad) == 1 and ":19:" in bad[0] and "no use with 'reveal'" in bad[0]


def test_the_browser_log_tells_each_declaration_at_his_first_card() -> None:
    pytest.importorskip("starlette")  # the web extra
    from spelbok.web.tableview import log_lines

    g = spelbok.load("belote")
    hands = {0: "9C 9S 9H 9D AC 7S 7H 7D", 2: "AS AH AD KS 8C 8S 8H 8D",
             3: "KC QC JC 10C QS 10S JD KD", 1: "JS KH QH JH 10H QD 10D 7C"}
    s = g.new_state(position={"phase": "tricks", "trump": "H", "taker": 3, "hands": hands},
                    record=True)
    for a in ["melds", "cinquante", "10C", "8C", "melds", "cinquante"]:
        s.apply(a)
    log = "\n".join(log_lines(s, 0, ["you", "West", "North", "East"]))
    assert "East declares cinquante for 50" in log and "West declares cinquante for 50" in log
    assert "beaten" not in log  # nothing compared before all have played
    for a in ["7C", "melds", "four_nines", "9C"]:
        s.apply(a)
    log = "\n".join(log_lines(s, 0, ["you", "West", "North", "East"]))
    assert "you declare four_nines for 150" in log
    assert "East scores nothing for melds (beaten)" in log


def test_the_announcement_and_the_meld_words_are_numbered() -> None:
    pytest.importorskip("numpy")  # the rl extra
    from spelbok.rl.encoding import Encoding

    g = spelbok.load("belote")
    enc = Encoding(g)
    for w in ["melds", *g.tree["melds"], "done"]:
        assert enc.labels.count(w) == 1, w
    hands = {0: "AS KS QS JS 9D 8D 7D 7C", 3: "10S 8S AH QH 10H KC 10C 8C",
             2: "9S 7S KH JH 9H AD QD JC", 1: "8H 7H KD JD 10D AC QC 9C"}
    s = g.new_state(position={"phase": "tricks", "trump": "H", "taker": 3, "hands": hands})
    for a in ["8C", "JC", "9C", "melds"]:
        s.apply(a)
    legal = [enc.labels[enc.index[a]] for a in s.legal_actions()]
    assert legal == ["tierce", "cinquante", "done"]
