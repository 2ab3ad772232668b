"""Cards played blind (``tricks.blind``; Truco Mineiro's mão de ferro): a seat it admits
has no decision, a random legal card of its hand is played for it (seeded, replayed),
in the DSL, validate, describe and the shipped spec that uses it."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.engine.blind import BlindPlay
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.minispec import MINI, mini

HANDS = {0: "AH KH 7C", 1: "AS KS 7D", 2: "QH QS QD"}


def spec(blind: str = "seat == 1") -> str:
    return mini("  - deal: {size: 3}\n  - tricks:\n      blind: \"" + blind + "\"\n")


def state(seed: int = 1, text: str | None = None) -> spelbok.State:
    game = spelbok.load(text or spec(), players=3)
    return game.new_state(seed=seed, position={"leader": 0, "trump": "none", "hands": HANDS})


def test_a_blind_seat_is_never_asked_and_a_card_of_its_hand_is_played() -> None:
    st = state()
    assert st.current == 0
    st.apply("AH")
    assert st.current == 2  # seat 1 was not asked: its card was played for it
    assert len(st.trick.cards) == 2 and st.trick.cards[1][0] == 1
    played = st.trick.cards[1][1]
    assert st.game.program.pack.names[played] in HANDS[1].split()
    assert [e for e in st.log if e["event"] == "blind"] == [
        {"event": "blind", "seat": 1, "card": st.game.program.pack.names[played]}]


def test_blind_play_is_seeded_and_replayed() -> None:
    def cards(seed: int) -> list[str]:
        st = state(seed)
        while not st.is_terminal and st.hand_number == 1:
            st.apply(st.legal_actions()[0])
        return [e["card"] for e in st.log if e["event"] == "blind"]
    runs = {seed: cards(seed) for seed in range(1, 9)}
    assert runs == {seed: cards(seed) for seed in range(1, 9)}
    assert len({tuple(v) for v in runs.values()}) > 1  # drawn, not the first legal card


def test_without_blind_the_seat_chooses_and_pays_nothing() -> None:
    game = spelbok.load(MINI, players=3)
    assert not any(isinstance(i, BlindPlay) for i in game.program.code)
    st = state(text=spec("false"))
    st.apply("AH")
    assert st.current == 1


def test_the_mao_de_ferro_is_played_blind() -> None:
    game = spelbok.load("truco-mineiro", players=4)
    st = game.new_state(seed=5, position={"phase": "stake", "vars": {"score": [11] * 4}})
    assert st.is_terminal  # nobody was asked: every card was played blind
    assert sum(e["event"] == "blind" for e in st.log) >= 4


def test_the_dsl_writes_and_reads_blind() -> None:
    canonical = normalize(load_yaml(spec(), "a.yaml")[0])
    dsl = to_dsl(canonical)
    assert "a player plays blind if seat == 1" in dsl
    assert normalize(parse_dsl(dsl, "a.spel")[0]) == canonical
    assert "plays blind: he has no choice" in describe(spec())


@pytest.mark.parametrize("extra, message", [
    ("      dummy: \"seat == 2\"\n", "'blind' cannot be combined with 'dummy'"),
    ("", "nope"),
])
def test_validate_locates_a_wrong_blind(extra: str, message: str) -> None:
    text = spec("nope" if message == "nope" else "seat == 1").replace(
        "      blind:", extra + "      blind:")
    with pytest.raises(SpecError) as info:
        spelbok.load(text, players=3)
    assert message in info.value.message
    assert info.value.line == next(i for i, s in enumerate(text.splitlines(), 1)
                                   if "blind" in s)
