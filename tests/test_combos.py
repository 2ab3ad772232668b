"""Plays of several cards at once (tricks.combos: pairs and tractors, followed in kind)
and a trump rank that follows a variable (ranking.trump_rank), on the test spec
tests/specs/combos.yaml (two packs, hearts trump, the level a match variable)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.engine.combos import ComboPlay
from spelbok.engine.tricks import TrickPlay
from spelbok.errors import IllegalActionError, SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

SPEC = (Path(__file__).parent / "specs" / "combos.yaml").read_text(encoding="utf-8")


def state(hands: dict[int, str], level: Any = 2, trump: str = "H", leader: int = 0,
          spec: str = SPEC) -> Any:
    game = spelbok.load(spec, players=4)
    return game.new_state(seed=1, position={"trump": trump, "leader": leader,
                                            "hands": hands, "vars": {"level": level}})


def legal(st: Any) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


def test_the_leader_may_lead_singles_pairs_and_tractors() -> None:
    st = state({0: "3C 3C 4C 4C 5C 7D", 1: "6D 6D 8D 8D AD AD", 2: "6S 6S 8S 8S AS AS",
               3: "6H 6H 8H 8H AH AH"})
    got = legal(st)
    assert {"3C", "4C", "5C", "7D", "pair 3C 3C", "pair 4C 4C",
            "tractor 3C 3C 4C 4C"} == set(got)


def test_a_pair_led_forces_a_pair_of_the_suit_when_held() -> None:
    st = state({0: "5C 5C AD AD", 1: "7C 7C 8C AS", 2: "6C 8C AH 3D", 3: "6C AS 3D 4D"})
    st.apply("pair 5C 5C")
    assert legal(st) == ["pair 7C 7C"]  # the pair, not 7C 8C
    with pytest.raises(IllegalActionError, match="follow the lead"):
        st.apply("play 7C 8C")
    st.apply("pair 7C 7C")
    assert legal(st) == ["play 6C 8C"]  # no pair: two cards of the suit
    st.apply("play 6C 8C")
    assert legal(st) == ["play 6C 3D", "play 6C 4D", "play 6C AS"]  # the suit, then any
    st.apply("play 6C AS")
    assert st.won == [0, 1, 0, 0]  # the higher pair of the suit led


def test_a_player_void_in_the_suit_led_plays_any_cards() -> None:
    st = state({0: "5C 5C 3D", 1: "AS 7D 8D", 2: "6C 6C 3D", 3: "7C 7C 4D"})
    st.apply("pair 5C 5C")
    assert legal(st) == ["play 7D 8D", "play 7D AS", "play 8D AS"]


def test_a_tractor_is_beaten_by_trumps_only_as_a_tractor() -> None:
    # seat 1 ruffs with two trump pairs that are not consecutive: no tractor, it cannot win;
    # seat 2 ruffs with a trump tractor and wins
    st = state({0: "3C 3C 4C 4C 3D", 1: "4H 4H 6H 6H 3D", 2: "7H 7H 8H 8H 4D",
                3: "8C 8C AC AC 4D"})
    st.apply("tractor 3C 3C 4C 4C")
    assert "play 4H 4H 6H 6H" in legal(st)  # void in clubs: any four cards
    st.apply("play 4H 4H 6H 6H")
    assert st.trick.best_seat == 0
    st.apply("tractor 7H 7H 8H 8H")
    assert st.trick.best_seat == 2
    st.apply("tractor 8C 8C AC AC")  # higher in the suit led, after a trump tractor
    assert st.won == [0, 0, 1, 0]


def test_a_tractor_led_forces_a_tractor_then_as_many_pairs_as_held() -> None:
    st = state({0: "3C 3C 4C 4C 3D 3D 4D", 1: "5C 5C 6C 6C 7D 7D 8D",
                2: "7C 7C 8C AC AC 8D 4D", 3: "8C 5D 5D 6D 6D AD AD"})
    st.apply("tractor 3C 3C 4C 4C")
    assert legal(st) == ["tractor 5C 5C 6C 6C"]
    st.apply("tractor 5C 5C 6C 6C")
    assert legal(st) == ["play 7C 7C AC AC"]  # two pairs, though not a tractor (8 between)
    st.apply("play 7C 7C AC AC")
    got = legal(st)  # the one club, and any three cards (copies counted once)
    assert len(got) == 7 and all(a.startswith("play 8C ") for a in got)


def test_the_trump_rank_is_skipped_in_its_suit_s_order() -> None:
    # level 2 in the test spec; at level 8 the 7 and the A are next to each other
    others = {1: "3D 3D 4D 4D", 2: "3S 3S 4S 4S", 3: "3H 3H 4H 4H"}
    st = state({0: "7C 7C AC AC", **others}, level=8)
    assert "tractor 7C 7C AC AC" in legal(st)
    st = state({0: "7C 7C AC AC", **others}, level=2)
    assert "tractor 7C 7C AC AC" not in legal(st)


def test_equal_trumps_of_the_trump_rank_the_first_played_wins() -> None:
    st = state({0: "AC 5D", 1: "2S 5D", 2: "2D 6D", 3: "3C 6D"})  # level 2: 2S and 2D equal trumps
    for card in ("AC", "2S", "2D", "3C"):
        st.apply(card)
    assert st.won == [0, 1, 0, 0]
    st = state({0: "5C 5C 5D", 1: "2S 2S 5D", 2: "2D 2D 6D", 3: "3C 3C 6D"})  # as pairs
    for play in ("pair 5C 5C", "pair 2S 2S", "pair 2D 2D", "pair 3C 3C"):
        st.apply(play)
    assert st.won == [0, 1, 0, 0]


def test_the_trump_suit_s_card_of_the_rank_beats_the_others() -> None:
    st = state({0: "AC 5D", 1: "2S 5D", 2: "2H 6D", 3: "AH 6D"})
    for card in ("AC", "2S", "2H", "AH"):
        st.apply(card)
    assert st.won == [0, 0, 1, 0]  # 2H above 2S, and every card of the rank above AH


@pytest.mark.parametrize(("level", "winner"), [(2, 1), (3, 2), (4, 3), (5, 0)])
def test_the_trump_rank_follows_the_variable(level: int, winner: int) -> None:
    st = state({0: "AS 5D", 1: "2S 5D", 2: "3S 6D", 3: "4S 6D"}, level=level)
    for card in ("AS", "2S", "3S", "4S"):
        st.apply(card)
    assert st.won[winner] == 1


def test_a_spec_without_combos_plays_its_tricks_with_the_plain_trick_play() -> None:
    plain = SPEC.replace("      combos: [single, pair, tractor]\n", "      follow: true\n")
    code = spelbok.load(plain, players=4).program.code
    assert any(type(i) is TrickPlay for i in code)
    assert any(type(i) is ComboPlay for i in spelbok.load(SPEC, players=4).program.code)
    assert spelbok.load(plain.replace("  trump_rank: level\n", ""),
                        players=4).program.level_fn is None


def test_combos_round_trip_and_are_described() -> None:
    canonical = normalize(load_yaml(SPEC, "combos.yaml")[0])
    text = to_dsl(canonical)
    assert "the leader may play: single, pair, tractor" in text
    assert "trump rank follows level" in text
    assert normalize(parse_dsl(text, "combos.spel")[0]) == canonical
    prose = " ".join(describe(SPEC).split())
    assert "The leader may lead single, pair or tractor" in prose
    assert "Every card of the rank level" in prose


def _error(spec: str) -> str:
    with pytest.raises(SpecError) as info:
        spelbok.load(spec, players=4)
    return str(info.value)


def test_combos_errors_are_located() -> None:
    unknown = _error(SPEC.replace("[single, pair, tractor]", "[single, pairs]"))
    assert "'pairs' is not a kind of play" in unknown and ":33:24:" in unknown
    one_copy = _error(SPEC.replace("  copies: 2\n", "  copies: 1\n"))
    assert "a pair is two copies of a card" in one_copy
    bad_rank = _error(SPEC.replace("trump_rank: level", "trump_rank: levle"))
    assert "levle" in bad_rank and ":24:" in bad_rank


def plays_out(spec: str) -> None:
    """Three seeded matches of ``spec`` at four players, each taking the last legal play,
    end after their two hands with every hand empty."""
    game = spelbok.load(spec, players=4)
    for seed in range(3):
        st = game.new_state(seed=seed)
        while not st.is_terminal:
            st.apply(st.legal_actions()[-1])
        assert st.hands_played == 2 and not any(st.hands)


def test_a_match_plays_out() -> None:
    plays_out(SPEC)


def test_the_action_space_numbers_a_play_of_several_cards_as_picks() -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding, Match

    game = spelbok.load(SPEC, players=4)
    enc = Encoding(game)
    assert enc.num_actions == 2 * len(enc.cards) + 1  # the cards, their picks, the stop
    st = game.new_state(seed=1, position={"trump": "H", "leader": 0, "vars": {"level": 2},
                                          "hands": {0: "5C 5C AD", 1: "7C 7C 8C",
                                                    2: "6C 8C AH", 3: "6C AS 3D"}})
    m = Match(enc, st)
    labels = [enc.labels[i] for i in m.legal()]
    assert labels == ["pick 5C", "pick AD", "pick 5C#2"]  # every card of a legal play
    m.apply(enc.labels.index("pick 5C"))
    assert [enc.labels[i] for i in m.legal()] == ["pick 5C#2", "stop"]  # 5C alone, or the pair
    m.apply(enc.labels.index("pick 5C#2"))
    m.apply(enc.stop)
    assert [str(a) for a in m.st.legal_actions()] == ["pair 7C 7C"]
    assert [enc.labels[i] for i in m.legal()] == ["pick 7C", "pick 7C#2"]


def test_the_terminal_asks_for_a_play_and_shows_a_seat_s_cards_together() -> None:
    from spelbok.cli.prompt import _plain_decision_name
    from spelbok.view.text import trick_line

    st = state({0: "5C 5C 3D", 1: "AS 7D 8D", 2: "6C 6C 3D", 3: "7C 7C 4D"})
    assert _plain_decision_name(st, st.legal_actions()) == "your play"
    st.apply("pair 5C 5C")
    st.apply("play 7D 8D")
    names = [st.game.program.pack.names[c] for _, c in st.trick.cards]
    line = trick_line([[p, n] for (p, _), n in zip(st.trick.cards, names)], ["P0", "P1"])
    assert line == "P0 5♣ 5♣ · P1 7♦ 8♦"
