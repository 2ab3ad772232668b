"""Modes (the ``modes`` section, set by the built-in ``mode``): a rank order, top trumps
and card points chosen in play for the rest of the hand.  Played by the engine (trick
winner, following, legal cards, card points), reset each hand, kept by clones and
snapshots, read by the view's order of a hand and the observation; checked with located
errors, told by ``describe``, written back by ``convert``; free for a spec without modes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.validate import validate
from spelbok.lang.yamlio import load_yaml
from spelbok.view.text import sort_hand

SPEC = """spelbok: 1
name: Modes mini
players: {min: 3, max: 3}
options:
  low: {values: [plain, low], default: plain}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
ranking:
  ranks: [A, 10, K, Q, J, 9, 8, 7]
  top_trumps: [JC, JS, JH, JD]
points:
  ranks: {A: 11, 10: 10, K: 4, Q: 3, J: 2}
modes:
  "null":
    ranks: [A, K, Q, J, 10, 9, 8, 7]
    top_trumps: []
    points: {A: 1}
hand:
  - deal: {size: 10}
  - set: {mode: "if low == 'low' then 'null' else 'none'"}
  - tricks: {}
end: {when: "hand_number >= 2", winners: "tricks == max(tricks)"}
"""

NULL = {"low": "low"}
HANDS = {1: "AC JC 10C KC 7D JD 8H 9H 10H QH", 2: "JS AH 7H 9C 8D 9D 10D QD KD AD",
         0: "8C 7C QC 7S 8S 9S 10S QS KS AS"}


def at_trick(options: dict[str, Any] | None = None, **more: Any) -> spelbok.State:
    """A position in the first trick, seat 1 to lead, in the mode the options choose."""
    game = spelbok.load(SPEC, options=options or {})
    mode = "null" if (options or {}).get("low") == "low" else "none"
    return game.new_state(position={"phase": "tricks", "leader": 1, "trump": "none",
                                    "hands": HANDS, "mode": mode, **more})


def play(st: spelbok.State, *cards: str) -> None:
    for c in cards:
        st.apply(c)


def test_in_the_mode_a_jack_follows_its_suit_and_loses_to_the_ace() -> None:
    st = at_trick(NULL)
    play(st, "AC")
    assert [str(a) for a in st.legal_actions()] == ["9C"]  # seat 2 holds JS: not a club
    play(st, "9C", "QC")
    assert st.view(0)["tricks"] == [0, 1, 0]
    st = at_trick(NULL, hands={1: "JC AC 10C KC 7D JD 8H 9H 10H QH",
                               2: "AS AH 7H 9C 8D 9D 10D QD KD AD",
                               0: "8C 7C QC 7S 8S 9S 10S QS KS JS"})
    play(st, "JC", "9C", "QC")  # the queen over the jack in a null
    assert st.view(0)["tricks"] == [1, 0, 0]


def test_without_the_mode_the_jack_is_a_top_trump() -> None:
    st = at_trick()
    play(st, "AC")
    # the jack of spades is a top trump (no suit of clubs): seat 2 has a club to follow
    assert [str(a) for a in st.legal_actions()] == ["9C"]
    st = at_trick(hands={1: "JC AC 10C KC 7D JD 8H 9H 10H QH",
                         2: "AS AH 7H 9C 8D 9D 10D QD KD AD",
                         0: "8C 7C QC 7S 8S 9S 10S QS KS JS"})
    play(st, "JC")
    # a top trump led calls for top trumps: seat 2 holds none and may play anything
    assert len(st.legal_actions()) == 10
    play(st, "9C", "JS")
    assert st.view(0)["tricks"] == [0, 1, 0]  # the jack of clubs wins as the top trump


def test_the_mode_changes_the_card_points_and_starts_each_hand_again() -> None:
    game = spelbok.load(SPEC, options=NULL)
    st = game.new_state(seed=3)
    assert st.var("mode") == "null"
    c = game.program.pack.parse_card("AC")
    assert game.program.points_of(st)[4].card[c] == 1  # the mode's points
    assert game.program.points[4].card[c] == 11  # the ranking's
    clone = st.clone()
    assert clone.var("mode") == "null" and clone.tables is st.tables
    again = game.restore(st.to_dict())
    assert again.var("mode") == "null" and again.tables is st.tables
    import pickle

    assert pickle.loads(pickle.dumps(st)).tables == st.tables
    game.program.start_hand(st)
    assert st.var("mode") == "none" and st.tables is game.program.tables[4]


def test_the_view_sorts_a_hand_in_the_mode() -> None:
    st = at_trick(NULL)
    v = st.view(1)
    assert v["vars"]["mode"] == "null"
    assert ["AC", "KC", "JC", "10C"] in sort_hand(v["hand"], st.game, v["trump"],
                                                   v["vars"]["mode"])
    assert ["JC", "JD"] in sort_hand(v["hand"], st.game, v["trump"])  # the ranking's


def test_a_spec_without_modes_has_no_mode_to_read() -> None:
    game = spelbok.load("example", players=3)
    assert game.program.mode_slot < 0 and game.program.modes == ()
    assert "mode" not in game.program.gvar_names
    st = game.new_state(seed=1)
    assert game.program.tables_of(st) is game.program.tables


def test_the_spec_is_normalized_and_written_back() -> None:
    canonical = normalize(load_yaml(SPEC, "s.yaml")[0])
    assert canonical["modes"] == {"null": {"ranks": ["A", "K", "Q", "J", "10", "9", "8", "7"],
                                           "top_trumps": [], "points": {"A": 1}}}
    spel = to_dsl(canonical)
    assert "mode null:\n    ranks from high to low: A K Q J 10 9 8 7\n" \
           "    top trumps from high to low: none\n    points of ranks: A 1\n" in spel
    assert normalize(parse_dsl(spel, "s.spel")[0]) == canonical


def test_describe_tells_each_mode() -> None:
    text = " ".join(describe(SPEC).split())
    assert "null: cards rank A K Q J 10 9 8 7 (high to low); there are no top trumps; " \
        "cards count A 1 (any other rank nothing)." in text


def errors_of(tmp_path: Path, text: str) -> list[str]:
    file = tmp_path / "spec.yaml"
    file.write_text(text, encoding="utf-8")
    return [str(e).removeprefix(f"{file}:") for e in validate(str(file))]


@pytest.mark.parametrize("old, new, message", [
    ("then 'null' else", "then 'nul' else", "unknown mode 'nul': the modes are null"),
    ("    ranks: [A, K, Q, J, 10, 9, 8, 7]\n    top", "    ranks: [A, K, Q, J, 9, 8, 7]\n    top",
     "the rank '10' is in the deck but not in the order of mode 'null'"),
    ('  "null":', "  none:", "a mode cannot be named 'none'"),
    ("then 'null' else 'none'", "then 'null' else low", "unknown mode 'plain'"),
    ("    top_trumps: []", "    top_trumps: [JC, JC]", "is listed already as entry 1"),
])
def test_a_bad_mode_is_a_located_error(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = SPEC.replace(old, new, 1)
    assert text != SPEC
    errors = errors_of(tmp_path, text)
    assert any(message in e for e in errors), errors
    line = int(next(e for e in errors if message in e).split(":")[0])
    assert new.strip().splitlines()[0].split(":")[0].strip() in text.splitlines()[line - 1]


def test_a_mode_set_to_a_word_of_play_is_refused(tmp_path: Path) -> None:
    text = SPEC.replace("variables", "x").replace(
        "hand:\n", "variables:\n  hand: {g: x}\nhand:\n", 1).replace(
        "then 'null' else 'none'", "then 'null' else g")
    errors = errors_of(tmp_path, text)
    assert any("mode is set to a mode's name, written in quotes" in e for e in errors), errors


def test_setting_mode_without_modes_is_refused(tmp_path: Path) -> None:
    text = SPEC[:SPEC.index("modes:")] + SPEC[SPEC.index("hand:"):]
    errors = errors_of(tmp_path, text)
    assert any("'mode' chooses one of the spec's modes, and it has none" in e
               for e in errors), errors


def test_skat_null_and_schafkopf_wenz_play_their_modes() -> None:
    skat = spelbok.load("skat")
    st = skat.new_state(position={"phase": "tricks 2", "trump": "none", "leader": 1,
                                  "game": "null", "mode": "null",
                                  "hands": {1: "AC 7D", 2: "JC 8H", 0: "10C 9D"}})
    play(st, "AC")
    assert [str(a) for a in st.legal_actions()] == ["JC"]
    wenz = spelbok.load("schafkopf", options={"runners": False})
    assert "wenz" in wenz.program.modes
    st = wenz.new_state(position={"phase": "bidding",
                                  "hands": {1: "7H 8D", 2: "QH 9S", 3: "JD 9C", 0: "KD AD"}})
    play(st, "wenz", "pass", "pass", "pass", "call AC", "7H")
    assert [str(a) for a in st.legal_actions()] == ["QH"]


def test_discarded_reads_the_cards_each_seat_laid_away() -> None:
    spec = SPEC.replace("  - tricks: {}\n", """  - decide: lay
    who: each
    choose: exchange
    exchange: {draw_from: none, min: 1, max: 1}
  - set: {laid: "points_of(discarded)"}
    for: "true"
  - tricks: {}
""").replace("hand:\n", "variables:\n  hand_player: {laid: -1}\nhand:\n", 1)
    game = spelbok.load(spec)
    st = game.new_state(position={"phase": "lay", "hands": HANDS, "to_act": 1})
    play(st, "lay AC", "lay 7H", "lay KS")
    assert st.var("laid") == [4, 11, 0]  # the king, the ace, a seven (the ranking's points)


def test_the_terminal_and_the_browser_show_a_null_hand_in_its_order() -> None:
    pytest.importorskip("starlette")
    from spelbok.view.panel import panel
    from spelbok.web.tableview import table

    skat = spelbok.load("skat")
    st = skat.new_state(position={"phase": "tricks 2", "trump": "none", "leader": 1,
                                  "game": "null", "mode": "null",
                                  "hands": {1: "AC JC 10C 7D", 2: "QC 8H 9H 10H",
                                            0: "9C 7C 8D 9D"}})
    names = ["P0", "you", "P2"]
    hand = next(line for line in panel(st, 1, names) if "your hand" in line)
    assert "A♣ J♣ 10♣ │ 7♦" in hand  # the jack in clubs, under the ace, above the ten
    shown = [c["name"] for c in table(st, 1, names, to_act=True, log_viewer=1)["hand"]]
    assert shown == ["AC", "JC", "10C", "7D"]
    st = skat.new_state(position={"phase": "tricks 2", "trump": "C", "leader": 1,
                                  "game": "clubs", "hands": {1: "AC JC 10C 7D",
                                                             2: "QC 8H 9H 10H",
                                                             0: "9C 7C 8D 9D"}})
    shown = [c["name"] for c in table(st, 1, names, to_act=True, log_viewer=1)["hand"]]
    assert shown == ["JC", "AC", "10C", "7D"]  # a suit game: the jack heads the trumps
