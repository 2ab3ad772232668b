"""Hidden variables (the spec's ``hidden``): a per-player variable each seat sees only for
itself and for the seats whose ``reveal`` holds, in its view, its observation tensor,
the adapters' information states and its bots' samples.  Each test fails without the
construct (the variable is then public, as every variable was)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml
from spelbok.validation import validate

from tests.minispec import END, HEAD

# who holds the ace of spades is hidden until he plays it
HIDDEN = """variables:
  hand_player: {ace: false, shown: false}
hidden:
  ace:
    reveal: "times_played('AS') > 0"
    sample: "holds('AS')"
    source: "a test: the holder of the spade ace keeps it to himself"
"""
STEPS = """  - deal: {size: 5}
  - set: {ace: "holds('AS')"}
    for: "true"
  - tricks: {}
"""
SPEC = HEAD.replace("hand:\n", HIDDEN + "hand:\n") + STEPS + END
PUBLIC = SPEC.replace(HIDDEN.split("hidden:")[1], "").replace("hidden:", "")
HANDS = {0: "AH KH QH JH 10H", 1: "AS KS QS JS 10S", 2: "AC KC QC JC 10C"}


def start(spec: str = SPEC) -> spelbok.State:
    game = spelbok.load(spec, players=3)
    return game.new_state(seed=1, position={"phase": "tricks", "hands": HANDS, "leader": 0,
                                            "vars": {"ace": [False, True, False]}})


def test_a_seat_sees_its_own_value_only_until_it_is_shown() -> None:
    st = start()
    assert st.view(1)["vars"]["ace"] == [None, True, None]
    assert st.view(0)["vars"]["ace"] == [False, None, None]
    assert start(PUBLIC).view(0)["vars"]["ace"] == [False, True, False]
    st.apply("AH")
    st.apply("AS")  # seat 1 plays the ace: his value is shown to all
    assert st.view(0)["vars"]["ace"] == [False, True, None]
    assert st.view(2)["vars"]["ace"] == [None, True, False]


def _other(st: spelbok.State, seat: int, value: bool) -> spelbok.State:
    """A copy of ``st`` in which ``seat``'s hidden value is ``value``."""
    c = st.clone()
    row = st.game.program.pvar_names.index("ace")
    c.pv_rows[row] = list(c.pv_rows[row])
    c.pv_rows[row][seat] = value
    return c


@pytest.mark.parametrize("spec, leaks", [(SPEC, False), (PUBLIC, True)])
def test_a_seats_observation_does_not_change_with_anothers_hidden_value(
        spec: str, leaks: bool) -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding, Match

    st = start(spec)
    enc = Encoding(st.game)
    a, b = Match(enc, st), Match(enc, _other(st, 1, False))
    assert (a.observation(0) != b.observation(0)).any() == leaks
    assert (a.information_state(0) != b.information_state(0)) == leaks
    assert (a.observation(1) != b.observation(1)).any()  # his own value he sees
    if not leaks:
        lo, hi = enc.offsets()["seen:ace"]
        assert a.observation(0)[lo:hi].tolist() == [1.0, 0.0, 0.0]  # itself first


@pytest.mark.parametrize("spec, leaks", [(SPEC, False), (PUBLIC, True)])
def test_the_pettingzoo_observation_hides_it(spec: str, leaks: bool) -> None:
    pytest.importorskip("pettingzoo")
    from spelbok.rl.pettingzoo import env

    e = env(spec, players=3)
    for seed in range(20):  # a deal in which some seat holds the spade ace
        e.reset(seed=seed)
        st = e.unwrapped.match.st
        row = st.game.program.pvar_names.index("ace")
        holder = [p for p in range(3) if st.pv_rows[row][p]]
        if holder:
            break
    observer = next(p for p in range(3) if p not in holder)
    before = e.observe(f"player_{observer}")["observation"].copy()
    st.pv_rows[row][holder[0]] = False
    assert (e.observe(f"player_{observer}")["observation"] != before).any() == leaks


def test_a_bots_sample_guesses_the_others_values_from_the_cards_it_dealt() -> None:
    st = start()
    for seed in range(20):
        sample = st.determinize(0, random.Random(seed))
        # a sample of what seat 0 cannot see: each other seat's value follows its new hand
        assert sample.var("ace") == [False, *((sample.hands[p] >> _AS) & 1 == 1 for p in (1, 2))]
        twin = _other(st, 1, False).determinize(0, random.Random(seed))
        assert twin.var("ace") == sample.var("ace")  # the real values do not show through
    leaky = start(PUBLIC).determinize(0, random.Random(1))
    assert leaky.var("ace") == [False, True, False]


_AS = spelbok.load(SPEC, players=3).program.pack.parse_card("AS")


def test_bots_play_it_through() -> None:
    from spelbok.play.bots import make_bot
    from spelbok.play.match import play_match

    game = spelbok.load(SPEC, players=3, max_hands=2)
    bots = [make_bot(name, i) for i, name in enumerate(("greedy", "random", "ismcts"))]
    assert play_match(game, bots, seed=2).log is not None


def test_it_converts_to_the_dsl_and_back_and_is_described() -> None:
    tree = normalize(load_yaml(SPEC, "a.yaml")[0])
    text = to_dsl(tree)
    assert "the variable ace is hidden" in text and "guessed as holds('AS')" in text
    assert "shown to all when times_played('AS') > 0" in text
    assert normalize(parse_dsl(text, "a.spel")[0]) == tree
    prose = describe(spelbok.load(SPEC).doc)
    assert "Hidden variables" in prose and "each player sees only his own value" in prose


def test_validate_locates_a_hidden_variable_that_is_not_per_player(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(SPEC.replace("hand_player: {ace: false, shown: false}",
                                 "hand_player: {shown: false}\n  hand: {ace: false}"), "utf-8")
    errors = [str(e) for e in validate(str(path))]
    assert any("the hidden variable 'ace' must be a per-player variable" in e
               and e.startswith(f"{path}:") for e in errors), errors
    path.write_text(SPEC.replace("sample: \"holds('AS')\"", "sample: \"holds('AS') +\""),
                    "utf-8")
    errors = [str(e) for e in validate(str(path))]
    assert errors and all(e.startswith(f"{path}:") for e in errors), errors


def test_doppelkopf_sides_do_not_show_in_another_seats_observation() -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding, Match

    st = spelbok.load("doppelkopf").new_state(seed=4)
    for word in ("healthy",) * 4:
        st.apply(word)
    row = st.game.program.pvar_names.index("re")
    seat = st.current_player
    others = [p for p in range(4) if p != seat and st.pv_rows[row][p] != st.pv_rows[row][seat]]
    flipped = st.clone()
    flipped.pv_rows[row] = [not v if p in others else v
                            for p, v in enumerate(flipped.pv_rows[row])]
    enc = Encoding(st.game)
    assert (Match(enc, st).observation(seat) == Match(enc, flipped).observation(seat)).all()
    assert st.view(seat)["vars"]["re"].count(None) == 3


def test_the_web_table_and_the_seats_log_keep_the_others_sides() -> None:
    pytest.importorskip("starlette")
    import json

    from spelbok.web.tableview import table

    st = spelbok.load("doppelkopf").new_state(seed=4)
    for word in ("healthy",) * 4:
        st.apply(word)
    seat = st.current_player
    names = [f"P{p}" for p in range(4)]
    page = table(st, seat, names, to_act=True, log_viewer=seat)
    assert page["vars"]["re"].count(None) == 3
    assert "re is now" not in json.dumps(page["log"])  # no line tells a side
