"""Throws (tricks.combos: throw): several plays led at once, each one nobody could beat,
followed in kind, beaten only by trumps of the same shape; a failed throw played as its
smallest beatable component and counted (failed_throws); follows kept as templates,
checked and picked without listing them; ranking.equal_best for plays of several
cards.  On the test spec tests/specs/throws.yaml (tests/specs/combos.yaml with throws)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.errors import IllegalActionError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.test_combos import plays_out

HERE = Path(__file__).parent / "specs"
SPEC = (HERE / "throws.yaml").read_text(encoding="utf-8")
COMBOS = (HERE / "combos.yaml").read_text(encoding="utf-8")


def state(hands: dict[int, str], spec: str = SPEC, level: Any = 2, trump: str = "H",
          leader: int = 0, record: bool = False) -> Any:
    game = spelbok.load(spec, players=4)
    return game.new_state(seed=1, record=record,
                          position={"trump": trump, "leader": leader, "hands": hands,
                                    "vars": {"level": level}})


def legal(st: Any) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


def trick(st: Any) -> list[tuple[int, str]]:
    names = st.game.program.pack.names
    return [(p, names[c]) for p, c in st.trick.cards]


def test_the_leader_may_throw_any_cards_of_one_suit() -> None:
    st = state({0: "AC AC 8C 5D", 1: "7C 7C 3D 4D", 2: "6C 5C 3D 4D", 3: "3C 4C 5S 6S"})
    assert legal(st) == ["5D", "8C", "AC", "pair AC AC", "throw 8C AC", "throw 8C AC AC"]
    with pytest.raises(IllegalActionError, match="one suit"):
        st.apply("throw AC 5D")
    without = state({0: "AC AC 8C 5D", 1: "7C 7C 3D 4D", 2: "6C 5C 3D 4D", 3: "3C 4C 5S 6S"},
                    spec=COMBOS)
    assert "throw 8C AC AC" not in legal(without)
    with pytest.raises(IllegalActionError):
        without.apply("throw AC AC 8C")


def test_a_throw_nobody_can_beat_stands_and_is_followed_in_kind() -> None:
    st = state({0: "AC AC 8C 5D", 1: "7C 7C 6C 3D", 2: "6C 5C 3D 4D", 3: "3C 4C 5S 6S"})
    st.apply("throw AC AC 8C")
    assert trick(st) == [(0, "8C"), (0, "AC"), (0, "AC")]
    assert st.failed_throws == [0, 0, 0, 0]
    assert legal(st) == ["play 6C 7C 7C"]  # the pair for the pair, with the suit
    st.apply("play 6C 7C 7C")
    assert legal(st) == ["play 5C 6C 3D", "play 5C 6C 4D"]  # the suit, then any card
    st.apply("play 5C 6C 3D")
    st.apply("play 3C 4C 5S")
    assert st.won == [1, 0, 0, 0]


def test_a_throw_followed_by_a_tractor_for_its_tractor() -> None:
    st = state({0: "AC AC 8C 8C 7C 5D", 1: "5C 5C 6C 6C 3C 4C", 2: "3C 4C 3D 4D 5D 6D",
                3: "7S 8S 5S 6S 3S 4S"})
    st.apply("throw AC AC 8C 8C 7C")  # a tractor (8 and A are next to each other) and a single
    assert trick(st)[0] == (0, "7C") and len(trick(st)) == 5
    assert legal(st) == ["play 3C 5C 5C 6C 6C", "play 4C 5C 5C 6C 6C"]


def test_a_throw_with_a_beatable_component_fails() -> None:
    st = state({0: "AC 7C 7C 5D", 1: "8C 8C 3D 4D", 2: "6C 5C 3D 4D", 3: "3C 4C 5S 6S"},
               record=True)
    st.apply("throw AC 7C 7C")
    assert trick(st) == [(0, "7C"), (0, "7C")]  # the pair 8 8 beats the pair of 7s
    assert st.failed_throws == [1, 0, 0, 0]
    names = st.game.program.pack.names
    assert sorted(names[c] for c in range(64) if st.hands[0] >> c & 1) == ["5D", "AC"]
    assert legal(st) == ["pair 8C 8C"]
    event = next(e for e in st.log if e.get("event") == "throw_failed")
    assert event["seat"] == 0 and event["played"] == ["7C", "7C"]
    from spelbok.view.narrator import Narrator

    text = " ".join(Narrator(["P0", "P1", "P2", "P3"], viewer=1).feed(event))
    assert "P0 shows a throw" in text and "is played" in text


def test_a_failed_throw_plays_its_smallest_beatable_component() -> None:
    # the pair of 7s and the single 6 could both be beaten: the single is played
    st = state({0: "AC 7C 7C 6C", 1: "8C 8C 3D 4D", 2: "6C 5C 3D 4D", 3: "3C 4C 5S 6S"})
    st.apply("throw AC 7C 7C 6C")
    assert trick(st) == [(0, "6C")] and st.failed_throws == [1, 0, 0, 0]
    # two beatable singles: the lower is played
    st = state({0: "7C 6C 4C 5D", 1: "8C 5C 3D 4D", 2: "3D 4D 5D 6D", 3: "3C 4C 5S 6S"})
    st.apply("throw 7C 6C 4C")
    assert trick(st) == [(0, "4C")]


def test_the_penalty_is_scored_by_the_spec() -> None:
    st = state({0: "AC 7C 7C 5D", 1: "8C 8C 3D 4D", 2: "6C 5C 3D 4D", 3: "3C 4C 5S 6S"})
    st.apply("throw AC 7C 7C")
    while st.hand_number == 1:
        st.apply(st.legal_actions()[0])
    assert st.var("score")[0] < 0 <= min(st.var("score")[1:])  # tricks - 10 * failed_throws
    assert st.failed_throws == [0, 0, 0, 0]  # a new hand: none yet


def test_a_throw_is_beaten_only_by_trumps_of_its_shape() -> None:
    st = state({0: "AC AC 8C 5D", 1: "3H 3H 5H 4D", 2: "4H 4H 6H 4D", 3: "5H 6H 7H 6S"})
    st.apply("throw AC AC 8C")
    st.apply("play 3H 3H 5H")  # a trump pair and a trump single: the throw's shape
    assert st.trick.best_seat == 1
    st.apply("play 4H 4H 6H")  # a higher pair: its first component decides
    assert st.trick.best_seat == 2
    st.apply("play 5H 6H 7H")  # three trump singles: not the shape
    assert st.won == [0, 0, 1, 0]


def test_a_throw_in_trumps_cannot_be_beaten() -> None:
    st = state({0: "AH AH 8H 5D", 1: "3H 4H 5H 4D", 2: "6H 7H 3D 4D", 3: "3C 4C 5S 6S"})
    st.apply("throw AH AH 8H")  # nobody holds a trump pair, nor a trump above the 8H
    st.apply("play 3H 4H 5H")
    st.apply("play 6H 7H 3D")
    st.apply("play 3C 4C 5S")
    assert st.won == [1, 0, 0, 0]


def test_equal_plays_of_several_cards_follow_equal_best() -> None:
    hands = {0: "5C 5C 5D", 1: "2S 2S 5D", 2: "2D 2D 6D", 3: "3C 3C 6D"}  # 2S 2S = 2D 2D
    plays = ("pair 5C 5C", "pair 2S 2S", "pair 2D 2D", "pair 3C 3C")
    for rule, winner in (("first", 1), ("last", 2)):
        spec = COMBOS.replace("  trump_rank: level\n", f"  trump_rank: level\n  equal_best: {rule}\n")
        st = state(hands, spec=spec)
        for play in plays:
            st.apply(play)
        assert st.won[winner] == 1, rule


def _void_follower() -> Any:
    """Seat 1, void in clubs, faces a tractor of four pairs with 12 cards: 8 of them."""
    st = state({0: "3C 3C 4C 4C 5C 5C 6C 6C 7C 7C 8C 8C",
                1: "3D 4D 5D 6D 7D 8D AD 3S 4S 5S 6S 7S",
                2: "3D 4D 5D 6D 7D 8D AD 3S 4S 5S 6S 7S",
                3: "8S AS 8S AS 3H 4H 5H 6H 7H 8H AH 3H"}, spec=COMBOS)
    st.apply("tractor 3C 3C 4C 4C 5C 5C 6C 6C")
    return st


def test_a_long_follow_is_checked_and_picked_without_listing_the_sets() -> None:
    st = _void_follower()
    sets = st.legal_actions()
    assert not sets.built  # a lazy list: nothing listed yet
    st.apply("play 3D 4D 5D 6D 7D 8D AD 3S")
    assert not sets.built
    assert st.current == 2
    assert len(_void_follower().legal_actions()) == 495  # 8 of 12 distinct cards


def test_the_action_space_picks_a_throw_and_a_long_follow() -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding, Match

    st = state({0: "AC AC 8C 5D", 1: "7C 7C 6C 3D", 2: "6C 5C 3D 4D", 3: "3C 4C 5S 6S"})
    enc = Encoding(st.game)
    m = Match(enc, st)

    def labels() -> list[str]:
        return [enc.labels[i] for i in m.legal()]

    assert labels() == ["pick 8C", "pick AC", "pick 5D", "pick AC#2"]
    for label in ("pick 8C", "pick AC", "pick AC#2"):
        m.apply(enc.labels.index(label))
    assert labels() == ["stop"]
    m.apply(enc.stop)
    assert trick(m.st) == [(0, "8C"), (0, "AC"), (0, "AC")]
    assert labels() == ["pick 6C", "pick 7C", "pick 7C#2"]
    # a failed throw: the picks not played stay in hand, and out of the cards played
    st = state({0: "AC 7C 7C 5D", 1: "8C 8C 3D 4D", 2: "6C 5C 3D 4D", 3: "3C 4C 5S 6S"})
    m = Match(enc, st)
    for label in ("pick AC", "pick 7C", "pick 7C#2", "stop"):
        m.apply(enc.labels.index(label))
    pack = st.game.program.pack
    assert [pack.names[c] for c in range(64) if m.played >> c & 1] == ["7C", "7C"]
    assert st.failed_throws == [1, 0, 0, 0]
    # the void follower: picks numbered from the templates, the sets never listed
    st = _void_follower()
    m = Match(Encoding(st.game), st)
    assert len(m.legal()) == 12 and not st.legal_cache.built


def test_throws_round_trip_and_are_described() -> None:
    canonical = normalize(load_yaml(SPEC, "throws.yaml")[0])
    text = to_dsl(canonical)
    assert "the leader may play: single, pair, tractor, throw" in text
    assert normalize(parse_dsl(text, "throws.spel")[0]) == canonical
    prose = " ".join(describe(SPEC).split())
    assert "A throw is several such plays at once" in prose


def test_a_match_with_throws_plays_out() -> None:
    plays_out(SPEC)


def test_a_match_with_throws_plays_out_through_the_action_space() -> None:
    pytest.importorskip("numpy")
    import random

    from spelbok.rl.encoding import Encoding, Match

    game = spelbok.load(SPEC, players=4)
    enc = Encoding(game)
    for seed in range(2):
        rng = random.Random(seed)
        m = Match(enc, game.new_state(seed=seed))
        while not m.st.is_terminal:
            m.apply(rng.choice(m.legal()))
        assert m.st.hands_played == 2


@pytest.mark.filterwarnings("ignore:Observation")  # dict observations, as in test_rl_pettingzoo
def test_the_throws_spec_passes_the_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from spelbok.rl.pettingzoo import env

    api_test(env(str(HERE / "throws.yaml"), players=4, max_hands=2), num_cycles=12)


def test_a_follower_holding_fewer_cards_than_led_plays_them_all() -> None:
    """Hands of unequal size (a spec may leave the kitty unburied): a follower with one
    card left follows a pair with it, rather than having no legal play."""
    st = state({0: "AC AC 5D", 1: "3D 4D 5S", 2: "6C 5C 4D", 3: "3C 4C 5S"})
    st.apply("pair AC AC")
    names = st.game.program.pack.names
    st.hands = [h if p != 1 else 1 << names.index("3D") for p, h in enumerate(st.hands)]
    assert legal(st) == ["3D"]
    st.apply("3D")
    assert st.current_player == 2
