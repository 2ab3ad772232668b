"""``validate`` is a promise: a spec it accepts never stops play with an error.

Each case here passed ``validate`` before and then stopped ``play``/``simulate``
(a TypeError from a word used as a number, a LimitError from a huge number range, an
exchange too large for one decision); now ``validate`` refuses it with a located error,
or play treats it as defined (a divisor worked out as 0 gives 0).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
import yaml
from minispec import mini
from spelbok.formula import parse_formula
from spelbok.formula.bounds import bounds
from spelbok.lang import vocabulary as _v
from spelbok.lang.promise import INT_RANGES, UNBOUNDED_INTS
from spelbok.validation import validate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "specs" / "example.yaml").read_text(encoding="utf-8")


def messages(text: str, tmp_path: Path, name: str = "g.yaml") -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [str(e).removeprefix(str(path) + ":") for e in validate(path)]


def example(**edits: object) -> str:
    """The example spec with keys replaced: ``end_score='...'`` sets end.score."""
    tree = yaml.safe_load(EXAMPLE)
    for key, value in edits.items():
        node = tree
        *parents, last = key.split("__")
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        node[int(last) if last.isdigit() else last] = value
    return yaml.safe_dump(tree, sort_keys=False, allow_unicode=True)


def play(text: str, tmp_path: Path, hands: int = 3, seed: int = 1) -> None:
    """Random play of a few hands at each player count (an error fails the test)."""
    path = tmp_path / "played.yaml"
    path.write_text(text, encoding="utf-8")
    for n in (2, 4):
        game = spelbok.load(str(path), players=n, max_hands=hands)
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        assert st.scores is not None


# ---------------------------------------------------------------- choice has a kind


def test_a_word_choice_in_arithmetic_is_refused(tmp_path: Path) -> None:
    # before: validate said ok, then play stopped with a TypeError at the end of the match
    got = messages(example(end__score="choice + 1"), tmp_path)
    assert len(got) == 1 and got[0].startswith("123:17: cannot add a str and an int when "
                                               "'choice' is a word"), got


def test_a_word_choice_stored_in_a_number_variable_is_refused(tmp_path: Path) -> None:
    text = EXAMPLE.replace("""then: {plays: "choice == 'play'"}""",
                           """then: {plays: "choice == 'play'", exchanged: choice}""")
    got = messages(text, tmp_path)
    assert len(got) == 1 and "the variable 'exchanged' holds a number" in got[0], got
    assert got[0].startswith("56:50: this formula gives a word when 'choice' is a word"), got


def test_choice_compared_with_a_word_outside_its_decision_stays_valid(tmp_path: Path) -> None:
    # after a number decision, 'choice' may be a number or a word: == is fine for both
    text = EXAMPLE.replace(
        "  - if: \"count(plays) < 2\"",
        "  - decide: bid\n    who: dealer\n    choose: number\n    min: 0\n    max: 3\n"
        "    then: {exchanged: \"choice + 1\"}\n"
        "  - if: \"count(plays) < 2 and choice != 'pass' and choice != 2\"")
    assert messages(text, tmp_path) == []
    play(text, tmp_path)
    bad = text.replace("choice != 2\"", "choice > 2\"")
    got = messages(bad, tmp_path)
    assert len(got) == 1 and "cannot compare a str with an int when 'choice' is a word" in got[0]


def test_an_option_of_two_kinds_is_checked_for_each(tmp_path: Path) -> None:
    text = EXAMPLE.replace("values: [any, trump]", "values: [any, trump, 3]").replace(
        'when: "any(score <= 0)"', 'when: "any(score <= 0) and void_rule < \'z\'"')
    got = messages(text, tmp_path)
    # refused at load, at the option, before any formula meets it (lang/loader.py); the
    # promise's own check of each kind (lang/promise.py) stays behind it as a second guard
    assert len(got) == 1 and "option 'void_rule' mixes numbers, words or true/false in its " \
        "values" in got[0], got


# ---------------------------------------------------------------- number decisions


BID = ("  - decide: bid\n    who: dealer\n    choose: number\n    min: {lo}\n    max: {hi}\n"
       "  - tricks: {{}}\n")


def test_a_huge_number_range_is_refused(tmp_path: Path) -> None:
    # before: validate said ok, then play stopped: "would offer 1000000001 numbers"
    got = messages(mini("  - deal: {size: 5}\n" + BID.format(lo=0, hi=10**9)), tmp_path)
    assert got == ["13:10: the 'bid' decision would offer 1,000,000,001 numbers, more than "
                   "the 10,000 one decision may: give it a smaller 'max'"]


def test_a_range_worked_out_in_play_must_be_bounded_by_the_deck(tmp_path: Path) -> None:
    ok = mini("  - deal: {size: 5}\n" + BID.format(lo=0, hi="cards"))
    assert messages(ok, tmp_path) == []
    assert messages(ok.replace("max: cards", 'max: "min(hand_number, 8)"'), tmp_path) == []
    got = messages(ok.replace("max: cards", "max: hand_number * 100"), tmp_path)
    assert got == ["13:10: the 'bid' decision's 'max' is worked out in play and has no bound: "
                   "with 2 players (a deck of 32 cards) it must stay within 0..32: bound it "
                   "(max: \"min(hand_number * 100, 32)\") or give a number"]
    got = messages(ok.replace("max: cards", "max: cards * 4"), tmp_path)
    assert got and "can reach 128" in got[0]


def test_a_range_that_may_be_empty_in_play_is_refused(tmp_path: Path) -> None:
    text = mini("  - deal: {size: 5}\n" + BID.format(lo=10, hi='"min(hand_number - 1, 20)"'))
    got = messages(text, tmp_path)
    assert got and "may offer no number: its 'max' can be below its 'min'" in got[0], got
    assert got[0].startswith("13:10:")


def test_the_shipped_number_decisions_are_bounded() -> None:
    for name in ("oh-hell", "spades"):
        assert validate(name) == [], name


# ---------------------------------------------------------------- exchanges


def test_an_exchange_too_large_for_one_decision_is_located(tmp_path: Path) -> None:
    # before: validate said ok, then play stopped without a place ("offers 1,271,626 card sets")
    tree = yaml.safe_load(EXAMPLE)
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    tree["deck"][0]["ranks"] = ranks
    tree["ranking"]["ranks"] = list(ranks)
    tree["players"] = {"min": 2, "max": 2}
    tree["deck"][0]["players"] = [2, 2]
    tree["hand"][0]["deal"] = {"size": 24, "packets": [24]}
    tree["hand"][5]["exchange"] = {"draw_from": "none", "max": 8}
    text = yaml.safe_dump(tree, sort_keys=False)
    got = messages(text, tmp_path)
    assert got == ["108:10: the exchange 'exchange' may give away up to 8 of 24 cards (with 2 "
                   "players): 1,271,626 card sets, more than the 1,048,576 one decision may "
                   "offer: give it a 'max' of at most 7"]
    tree["hand"][5]["exchange"]["max"] = 7
    assert messages(yaml.safe_dump(tree, sort_keys=False), tmp_path) == []


# ---------------------------------------------------------------- defined in play


def test_a_divisor_worked_out_as_zero_gives_zero(tmp_path: Path) -> None:
    text = EXAMPLE.replace('score: score\n', 'score: "score / (tricks - tricks)"\n')
    assert messages(text, tmp_path) == []
    play(text, tmp_path)


# ---------------------------------------------------------------- the ranges themselves


def test_every_int_builtin_has_a_range_or_is_meant_unbounded() -> None:
    ints = {b.name for b in _v.BUILTINS if b.type == "int"}
    assert ints == set(INT_RANGES) | UNBOUNDED_INTS


@pytest.mark.parametrize(("text", "want"), [
    ("cards", (0, 32)), ("min(cards, 13) + 1", (1, 14)), ("x", (None, None)),
    ("max(x, 3)", (3, None)), ("min(x, 3)", (None, 3)), ("-cards", (-32, 0)),
    ("cards / 2", (0, 16)), ("cards % 5", (0, 4)), ("abs(seat - 5)", (0, 5)),
    ("count(seat > 0)", (0, 4)), ("sum(tricks)", (0, 128)), ("cards * 2 - 1", (-1, 63)),
    ("if x then 3 else cards", (0, 32)), ("x % 4", (0, 3)), ("cards / 0", (0, 0)),
])
def test_bounds(text: str, want: tuple[int | None, int | None]) -> None:
    ranges = {"cards": (0, 32), "seat": (0, 3), "tricks": (0, 32)}
    assert bounds(parse_formula(text), ranges, nseats=4, cards=32) == want


def test_bounds_hold_for_random_values() -> None:
    # soundness: every value a formula takes lies in its interval
    rng = random.Random(7)
    from spelbok.formula import DictResolver, compile_formula

    atoms = ["a", "b", "3", "0", "7", "-2"]
    funcs = ["min({}, {})", "max({}, {})", "abs({})", "({} + {})", "({} - {})", "({} * {})",
             "({} / {})", "({} % {})", "(if a > b then {} else {})"]

    def gen(depth: int) -> str:
        if depth == 0 or rng.random() < 0.3:
            return rng.choice(atoms)
        f = rng.choice(funcs)
        return f.format(*(gen(depth - 1) for _ in range(f.count("{}"))))

    for _ in range(300):
        text = gen(3)
        try:
            node = parse_formula(text)
            lo, hi = bounds(node, {"a": (-3, 5), "b": (0, 4)})
        except spelbok.SpelbokError:
            continue
        for _ in range(10):
            values = {"a": rng.randint(-3, 5), "b": rng.randint(0, 4)}
            try:
                v = compile_formula(text, DictResolver(2, values), per_player=False).value
            except spelbok.SpelbokError:
                break  # a divisor fixed at 0: refused at load
            assert (lo is None or lo <= v) and (hi is None or v <= hi), (text, values, v, lo, hi)


def test_a_repeat_worked_out_in_play_is_bounded(tmp_path: Path) -> None:
    # before: validate said ok, then play stopped ("this repeat would run ... rounds")
    text = mini("  - deal: {size: 5}\n  - repeat: \"hand_number * 100000\"\n    steps: []\n"
                "  - tricks: {}\n")
    got = messages(text, tmp_path)
    assert got == ["9:13: this repeat's count has no bound (with 2 players), but one repeat "
                   "runs at most 10,000 rounds: bound it (repeat: \"min(hand_number * 100000, "
                   "10000)\")"]
    assert messages(text.replace('"hand_number * 100000"', '"min(hand_number, 5)"'),
                    tmp_path) == []


def test_across_among_an_odd_number_still_in_passes_nothing(tmp_path: Path) -> None:
    # before: the match stopped ("cards cannot be passed across among 3 players") in hand 3
    text = (ROOT / "tests" / "specs" / "pass_cards.yaml").read_text(encoding="utf-8").replace(
        "  - deal: {size: 8}\n", "  - deal: {size: 8}\n  - set: {out: \"seat == 0\"}\n"
        "    for: \"true\"\n    when: \"hand_number == 3\"\n")
    assert messages(text, tmp_path) == []
    path = tmp_path / "g.yaml"
    st = spelbok.load(str(path), players=4).new_state(seed=1)
    rng = random.Random(1)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    assert st.hand_number == 5


def test_a_size_of_another_kind_is_refused(tmp_path: Path) -> None:
    # before: validate said ok, then play stopped (int('') is a ValueError) at the deal
    text = EXAMPLE.replace("hand_player: {plays: false, exchanged: 0}",
                           "hand_player: {plays: false, exchanged: 0}\n  hand: {who: ''}").replace(
        "deal: {size: 5, packets: [2, 3]}", "deal: {size: who, packets: [2, 3]}")
    got = messages(text, tmp_path)
    assert got == ["42:18: 'size' must be a whole number, but this formula gives a word"], got


def test_a_deal_the_stock_cannot_make_ends_the_match_cut_short(tmp_path: Path) -> None:
    # before: validate said ok, then play stopped ("the deal needs 100 cards but the stock
    # holds 52"); found by test_adv_promise (spoil-five, size = points_of(trick) + deals)
    text = EXAMPLE.replace("variables:\n", "variables:\n  match: {big: 9}\n").replace(
        "deal: {size: 5, packets: [2, 3]}", "deal: {size: big, packets: [2, 3]}")
    assert messages(text, tmp_path) == []
    st = spelbok.load(text, players=4).new_state(seed=1)
    assert st.is_terminal and st.limit_reached


def test_choice_in_a_decisions_then_has_that_decisions_kind(tmp_path: Path) -> None:
    # a suit decision's choice is a letter: stored in a number variable, refused there
    text = EXAMPLE.replace("""choose: [play, pass]
    then: {plays: "choice == 'play'"}""", """choose: suit
    then: {exchanged: choice}""")
    got = messages(text, tmp_path)
    assert len(got) == 1 and "when 'choice' is a word (this decision's word or suit letter" \
        in got[0], got


def test_a_pass_direction_of_another_kind_is_refused(tmp_path: Path) -> None:
    # before: validate said ok, then play stopped (int('') is a ValueError) at the pass
    text = (ROOT / "tests" / "specs" / "pass_cards.yaml").read_text(encoding="utf-8").replace(
        "by: hand_number - 1", "by: who").replace("variables:\n", "variables:\n  hand: {who: ''}\n")
    got = messages(text, tmp_path)
    assert got == ["12:11: 'by' must be a whole number, but this formula gives a word"], got
