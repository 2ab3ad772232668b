"""The program can be read: each instruction's Origin (the spec step it comes from),
``Program.listing()``, ``State.phase``, and positions, readings and bots finding their
places by that map.  The regression spec has decisions inside ``tricks.after_each``
followed by another decision, then a decision after the tricks."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from minispec import mini
from spelbok.analysis.readings import run_reading
from spelbok.engine.program import STEP_PARTS, Phase

AFTER_EACH = mini(
    "  - deal: {size: 3}\n"
    "  - decide: bid\n    choose: [pass, go]\n"
    "  - tricks:\n      after_each:\n"
    "        - decide: draw\n          label: drawing\n          who: last_winner\n"
    "          choose: [hold, fold]\n"
    "        - decide: call\n          who: forehand\n          choose: [hi, lo]\n"
    "  - decide: last\n    who: dealer\n    choose: [a, b]\n")

BETWEEN = {"hands": {0: "AS KS", 1: "AH KH"}, "tricks": {0: 1}, "leader": 0}


@pytest.fixture(scope="module")
def game() -> spelbok.Game:
    return spelbok.load(AFTER_EACH, players=2)


def test_each_instruction_knows_its_step(game: spelbok.Game) -> None:
    prog = game.program
    assert len(prog.origins) == len(prog.code)
    draw = ("hand", 2, "tricks", "after_each", 0)
    call = ("hand", 2, "tricks", "after_each", 1)
    assert [(o.path, o.part) for o in prog.origins[3:10]] == [
        (("hand", 2), "start"), (("hand", 2), "play"), (draw, "start"), (draw, "decide"),
        (call, "start"), (call, "decide"), (("hand", 2), "next")]
    o = prog.step_origin(draw)
    assert (o.kind, o.name, o.label, o.first, o.end) == ("decide", "draw", "drawing", 5, 7)
    assert prog.enclosing(call, "tricks") == prog.step_origin(("hand", 2))
    assert prog.enclosing(("hand", 3), "tricks") is None
    assert [o.name for o in prog.starts("decide")] == ["bid", "draw", "call", "last"]


def test_the_listing_names_each_instructions_step(game: spelbok.Game) -> None:
    lines = game.program.listing().splitlines()
    assert len(lines) == len(game.program.code) + 1
    assert lines[4].split() == ["4", "TrickPlay", "play", "hand.2", "tricks", "->", "10"]
    assert lines[6].split() == ["6", "Decide", "decide", "hand.2.tricks.after_each.0", "decide",
                                "draw", "[drawing]"]
    assert lines[9].split() == ["9", "TrickNext", "next", "hand.2", "tricks", "->", "4"]
    assert lines[-1].split() == ["12", "(end", "of", "hand)"]


# each part of STEP_PARTS, with the instructions the compiler emits for it
PART_CLASSES = {
    "when": {"JumpUnless"}, "start": {"DecideStart", "TricksStart", "AuctionStart", "PassStart"},
    "decide": {"Decide", "Exchange"}, "play": {"TrickPlay"}, "next": {"TrickNext"},
    "test": {"JumpUnless", "RepeatTest"}, "skip": {"Jump"}, "init": {"RepeatInit"},
    "loop": {"Jump"}, "bid": {"AuctionBid"}, "trump": {"AuctionTrump"},
    "call": {"AuctionCall"}, "redeal": {"Redeal"}, "pass": {"PassCards"},
}


@pytest.mark.parametrize("name", ["example", "knektpass", "euchre", "german-whist",
                                  "knockout-whist", "oh-hell", "rams"])
def test_the_parts_are_the_instructions_the_compiler_emits(name: str) -> None:
    prog = spelbok.load(name).program
    assert set(PART_CLASSES) == {"when"} | {p for ps in STEP_PARTS.values() for p in ps}
    for pc, (ins, o) in enumerate(zip(prog.code, prog.origins, strict=True)):
        assert o.path and (o.first <= pc or o.part == "when") and pc < o.end, (pc, o)
        if o.part != "run":
            assert type(ins).__name__ in PART_CLASSES[o.part], (pc, o, ins)


def test_state_phase_follows_the_match(game: spelbok.Game) -> None:
    st = game.new_state(seed=1)
    seen: list[str] = []
    while not st.is_terminal and st.hand_number == 1:
        if not seen or seen[-1] != str(st.phase):
            seen.append(str(st.phase))
        st.apply(st.legal_actions()[0])
    after = [f"decide draw (after trick {i})" for i in (1, 2, 3)]
    calls = [f"decide call (after trick {i})" for i in (1, 2, 3)]
    assert seen == ["decide bid", "trick 1", after[0], calls[0], "trick 2", after[1], calls[1],
                    "trick 3", after[2], calls[2], "decide last"]
    while not st.is_terminal:
        st.apply(st.legal_actions()[0])
    assert st.phase == Phase("over", pc=st.pc) and str(st.phase) == "over"


def test_asking_the_phase_changes_nothing(game: spelbok.Game) -> None:
    st = game.new_state(seed=2)
    before = st.to_dict()
    assert st.phase.kind == "decide" and st.phase.path == ("hand", 1)
    assert st.to_dict() == before


def test_positions_find_the_steps_after_each_trick(game: spelbok.Game) -> None:
    st = game.new_state(position={"phase": "drawing", **BETWEEN})
    assert (str(st.phase), st.current_player) == ("decide draw (after trick 1)", 0)
    st = game.new_state(position={"phase": "call", **BETWEEN})
    assert (str(st.phase), st.current_player) == ("decide call (after trick 1)", 1)
    st.apply("hi")
    assert str(st.phase) == "trick 2" and st.trick.order[0] == 0
    st = game.new_state(position={"phase": "after tricks", "tricks": {0: 2, 1: 1}})
    assert (str(st.phase), st.current_player) == ("decide last", 0)
    st = game.new_state(position={"phase": "last", "tricks": {0: 2, 1: 1}})
    assert str(st.phase) == "decide last"


READING = """reading: 1
spec: mini.yaml
players: 2
dealer: 0
cases:
  - name: the steps after each trick
    cites: x
    position: {phase: drawing, hands: {0: "AS KS", 1: "AH KH"}, tricks: {0: 1}, leader: 0}
    steps:
      - expect: {decision: draw, current: 0}
      - play: hold
      - expect: {decision: call, current: 1}
      - play: lo
      - expect: {decision: tricks, leader: 0, current: 0}
"""


def test_a_reading_case_finds_the_steps_after_each_trick(tmp_path: Path) -> None:
    (tmp_path / "mini.yaml").write_text(AFTER_EACH)
    (tmp_path / "r.yaml").write_text(READING)
    report = run_reading(tmp_path / "r.yaml")
    assert report.ok, report.format()
    wrong = READING.replace("{decision: call, current: 1}", "{decision: draw}")
    (tmp_path / "r.yaml").write_text(wrong)
    bad = run_reading(tmp_path / "r.yaml").cases[0]
    assert [(m.what, m.expected, m.actual) for m in bad.mismatches] == [
        ("decision", "draw", "call")]


def test_describe_program_lists_the_compiled_program(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    (tmp_path / "mini.yaml").write_text(AFTER_EACH)
    got = CliRunner().invoke(cli, ["describe", str(tmp_path / "mini.yaml"), "--program",
                                   "-n", "3"])
    assert got.exit_code == 0, got.output
    assert got.output == spelbok.load(AFTER_EACH, players=3).program.listing() + "\n"
    assert "hand.2.tricks.after_each.1 decide call" in got.output
    bad = CliRunner().invoke(cli, ["describe", str(tmp_path / "mini.yaml"), "--program",
                                   "-n", "9"])
    assert bad.exit_code == 1 and "Traceback" not in bad.output
