"""Card points: the ``points`` section, the cards of the tricks won and played, card_points,
points_of(), power() and holds() of a card pattern."""

from __future__ import annotations

import random
from typing import Any

import pytest
import spelbok
from hypothesis import given, settings
from hypothesis import strategies as st
from spelbok.cards import RANKS, card_id, cards_in, rank_of
from spelbok.engine.trick import card_key
from spelbok.engine.tricks import TrickPlay
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.loader import read_spec

# a point-trick mini: 32 cards, A 11 10 10 K 4 Q 3 J 2 (120 in play), 10 for the last trick
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
POINT_SPEC = """spelbok: 1
name: Point-trick mini
players: {min: 2, max: 4}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
ranking: {ranks: [A, 10, K, Q, J, 9, 8, 7]}
points:
  ranks: {A: 11, 10: 10, K: 4, Q: 3, J: 2}
  last_trick: 10
variables:
  player: {got: 0, team_got: 0, won: 0, team_won: 0}
hand:
  - deal: {size: "32 / seats"}
  - tricks: {}
  - set: {got: card_points, team_got: team_card_points, won: count(tricks_won),
          team_won: count(team_tricks_won)}
    for: true
end: {when: "hand_number >= 1", winners: "got == max(got)", score: got}
"""


def play_out(st: spelbok.State, rng: random.Random) -> spelbok.State:
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    return st


def expected_points(st: spelbok.State) -> list[int]:
    """Each seat's points worked out from the tricks played (not from the engine's sets)."""
    got = [0] * st.n
    for _, cards, winner in st.history_tricks:
        got[winner] += sum(POINTS.get(RANKS[rank_of(c)], 0) for _, c in cards)
    got[st.history_tricks[-1][2]] += 10
    return got


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 4]))
def test_the_points_of_a_hand_add_up_to_the_pack_s(seed: int, players: int) -> None:
    game = spelbok.load(POINT_SPEC, players=players)
    st_ = play_out(game.new_state(seed=seed), random.Random(seed))
    got = st_.var("got")
    assert sum(got) == 120 + 10
    assert got == expected_points(st_)
    assert st_.var("won") == [players * t for t in st_.won]


def test_teams_sum_their_members_cards_and_points() -> None:
    spec = POINT_SPEC.replace("ranking:", "teams: [[0, 2], [1, 3]]\nranking:", 1)
    for seed in range(5):
        st_ = play_out(spelbok.load(spec, players=4).new_state(seed=seed), random.Random(seed))
        got, team_got = st_.var("got"), st_.var("team_got")
        assert team_got == [got[0] + got[2], got[1] + got[3]] * 2
        won, team_won = st_.var("won"), st_.var("team_won")
        assert team_won == [won[0] + won[2], won[1] + won[3]] * 2
        assert sum(team_got[:2]) == 130


def test_the_cards_kept_follow_the_tricks_and_survive_clones_and_snapshots() -> None:
    game = spelbok.load(POINT_SPEC, players=4)
    st_ = game.new_state(seed=4)
    rng = random.Random(4)
    for _ in range(13):  # three tricks and a card
        st_.apply(rng.choice(st_.legal_actions()))
    won = [0] * 4
    played = 0
    for _, cards, winner in st_.history_tricks:
        for _, c in cards:
            won[winner] |= 1 << c
            played |= 1 << c
    assert st_.won_cards == won and st_.played == played and st_.last_trick == -1
    twin = st_.clone()
    for _ in range(3):  # the clone finishes the trick: the original's sets stay as they were
        twin.apply(twin.legal_actions()[0])
    assert twin.won_cards != won and st_.won_cards == won and st_.played == played
    back = game.restore(st_.to_dict())
    assert back.won_cards == won and back.played == played


PLAIN = """spelbok: 1
name: Plain mini
players: {min: 2, max: 4}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
hand:
  - deal: {size: 5}
  - tricks: {}
end: {when: "hand_number >= 2", winners: "tricks == max(tricks)"}
"""


def _keeps(spec: str) -> list[bool]:
    prog = spelbok.load(spec, players=2).program
    return [ins.keep_cards for ins in prog.code if isinstance(ins, TrickPlay)]


def test_only_a_game_that_reads_the_cards_of_tricks_keeps_them() -> None:
    assert _keeps(PLAIN) == [False]
    for name in ("knektpass", "euchre", "oh-hell"):
        prog = spelbok.load(name).program
        assert not any(ins.keep_cards for ins in prog.code if isinstance(ins, TrickPlay))
    reads = PLAIN.replace('winners: "tricks', 'winners: "count(played) > 0 or tricks', 1)
    assert _keeps(reads) == [True]
    assert _keeps(POINT_SPEC) == [True]  # a points section keeps them whatever reads them


def test_played_holds_the_tricks_so_far_and_the_current_one() -> None:
    spec = PLAIN.replace("hand:\n", "variables:\n  match: {ok: true, seen: 0}\nhand:\n", 1).replace(
        "  - tricks: {}\n", "  - tricks:\n      follow: false\n      allow: \"count(played) == "
        "tricks_played * seats + count(trick) or card_rank == 'A'\"\n      after_each:\n        - set: {ok: \"ok and count(played) == "
        "tricks_played * seats and count(played where card_is_trump) >= 0\", seen: seen + 1}\n",
        1)
    game = spelbok.load(spec, players=3)
    assert _keeps(spec) == [True]
    for seed in range(3):
        st_ = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st_.is_terminal:
            legal = st_.legal_actions()
            seat = st_.current_player
            assert seat is not None
            # allow held: not only the aces (the cards it lets through otherwise)
            assert len(legal) == st_.hands[seat].bit_count()
            st_.apply(rng.choice(legal))
        assert st_.var("ok") is True and st_.var("seen") == 10


def test_a_plain_trick_game_has_no_card_points() -> None:
    spec = PLAIN.replace("hand:\n", "variables:\n  player: {p: -1}\nhand:\n", 1).replace(
        "  - tricks: {}\n", "  - tricks: {}\n  - set: {p: \"card_points + points_of(hand)\"}\n"
        "    for: true\n", 1)
    st_ = play_out(spelbok.load(spec, players=2).new_state(seed=1), random.Random(1))
    assert st_.var("p") == [0, 0]


TRUMPS = """spelbok: 1
name: Trump points mini
players: {min: 2, max: 4}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
points:
  ranks: {A: 11, 10: 10, K: 4, Q: 3, J: 2}
  trumps: {J: 20, 9: 14}
  cards: {QS: 5}
variables:
  match: {jh: 0, jc: 0, nine: 0, qs: 0, none: 0, total: 0}
hand:
  - set: {none: "points_of('JH')"}
  - set: {trump: "'H'"}
  - set: {jh: "points_of('JH')", jc: "points_of('JC')", nine: "points_of('9H')",
          qs: "points_of('QS')", total: "points_of(turn_up_cards)"}
  - deal: {size: 5}
  - tricks: {}
end: {when: "hand_number >= 1", winners: "true"}
"""


def test_trumps_and_single_cards_have_their_own_points() -> None:
    st_ = spelbok.load(TRUMPS, players=2).new_state(seed=1)
    assert [st_.var(k) for k in ("none", "jh", "jc", "nine", "qs", "total")] == [2, 20, 2, 14, 5, 0]


def _allow_spec(allow: str, trump: str = "'H'") -> str:
    return PLAIN.replace("  - tricks: {}\n", f"  - set: {{trump: \"{trump}\"}}\n  - tricks:\n"
                         f"      allow: \"{allow}\"\n", 1)


def test_holds_a_card_pattern() -> None:
    # whoever holds the ace of trumps must lead it
    spec = _allow_spec("not (led_suit == 'none' and holds('A@trump')) or "
                       "(card_rank == 'A' and card_is_trump)")
    game = spelbok.load(spec, players=2)
    seen = 0
    for seed in range(40):
        st_ = game.new_state(seed=seed)
        seat = st_.current_player
        assert seat is not None
        hand = st_.hands[seat]
        legal = [a.value for a in st_.legal_actions()]
        if hand >> card_id("AH") & 1:
            seen += 1
            assert legal == [card_id("AH")]
        else:
            assert len(legal) == hand.bit_count()
    assert 0 < seen < 40


@pytest.mark.parametrize(("pattern", "cards"), [
    ("A@trump", {"AH"}), ("*@trump", {f"{r}H" for r in "AKQJ987"} | {"10H"}),
    ("K@*", {"KC", "KS", "KH", "KD"}), ("Q@S", {"QS"}),
])
def test_card_patterns_match_rank_and_suit(pattern: str, cards: set[str]) -> None:
    spec = PLAIN.replace("hand:\n", "variables:\n  player: {has: false}\nhand:\n", 1).replace(
        "  - tricks: {}\n", f"  - set: {{trump: \"'H'\"}}\n  - set: {{has: \"holds('{pattern}')\"}}\n"
        "    for: true\n  - tricks: {}\n", 1)
    game = spelbok.load(spec, players=4)
    want = {card_id(c) for c in cards}
    for seed in range(6):
        st_ = game.new_state(seed=seed)
        assert st_.var("has") == [any(c in want for c in cards_in(h)) for h in st_.hands]


def test_power_compares_a_card_with_the_winning_card() -> None:
    # must beat the trick if able (with anything that beats it: a trump on another suit too)
    spec = _allow_spec("led_suit == 'none' or power(card) > power(winning_card)")
    game = spelbok.load(spec, players=2)
    for seed in range(30):
        st_ = game.new_state(seed=seed)
        st_.apply(st_.legal_actions()[0])
        seat = st_.current_player
        assert seat is not None
        follow = [c for c in cards_in(st_.hands[seat]) if st_.tables.suit[c] == st_.trick.led]
        pool = follow or list(cards_in(st_.hands[seat]))
        beat = [c for c in pool if card_key(st_, c) > st_.trick.best_key]
        assert [a.value for a in st_.legal_actions()] == (beat or pool)


def error_of(spec: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        spelbok.load(spec)
    return info.value


def test_points_name_ranks_and_cards_of_the_deck() -> None:
    bad = POINT_SPEC.replace("{A: 11, 10: 10,", "{A: 11, 6: 10,", 1)
    assert str(error_of(bad)) == ("<spec>:8:18: points.ranks gives points to the rank 6, "
                                  "which is not in the deck")
    bad = POINT_SPEC.replace("  last_trick: 10\n", "  cards: {QS: 5, ZZ: 3}\n", 1)
    assert str(error_of(bad)).startswith("<spec>:9:18: 'ZZ' in points.cards is not a card")
    bad = POINT_SPEC.replace("  last_trick: 10\n", "  trumps: {X: 3}\n", 1)
    assert "'X' in points.trumps is not a rank" in str(error_of(bad))


def test_points_of_a_number_says_what_it_takes() -> None:
    e = error_of(PLAIN.replace('winners: "tricks', 'winners: "points_of(3) > 0 or tricks', 1))
    assert "points_of() needs a card or a set of cards, got an int" in str(e)


def test_card_pattern_errors_are_located() -> None:
    e = error_of(_allow_spec("holds('A@nowhere')"))
    assert "'A@nowhere' is not a card pattern" in str(e)
    e = error_of(_allow_spec("holds('2@trump')"))
    assert "has no card of rank 2" in str(e)


def test_points_in_the_dsl_and_describe(tmp_path: Any) -> None:
    spec = TRUMPS.replace("  cards: {QS: 5}\n", "  cards: {QS: 5}\n  last_trick: -1\n", 1)
    path = tmp_path / "trumps.yaml"
    path.write_text(spec, "utf-8")
    tree = read_spec(str(path)).tree
    text = to_dsl(tree)
    assert ("points of ranks: A 11, 10 10, K 4, Q 3, J 2\npoints of trumps: J 20, 9 14\n"
            "points of cards: Q♠ 5\nthe last trick scores -1 point\n") in text
    dsl = tmp_path / "trumps.spel"
    dsl.write_text(text, "utf-8")
    assert read_spec(str(dsl)).tree == tree
    prose = " ".join(describe(read_spec(str(path))).split())
    assert "count points (card_points): A 11, 10 10, K 4, Q 3, J 2, any other card 0." in prose
    assert "As trumps: J 20, 9 14" in prose and "Single cards: Q♠ 5" in prose


def test_dsl_points_errors_are_located(tmp_path: Any) -> None:
    text = to_dsl(read_spec(POINT_SPEC).tree).replace("points of ranks: A 11, 10 10",
                                                      "points of ranks: A 11, 6 10")
    path = tmp_path / "bad.spel"
    path.write_text(text, "utf-8")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x.startswith("points of"))
    with pytest.raises(SpecError) as info:
        spelbok.load(str(path))
    assert str(info.value).startswith(f"{path}:{line}:24: points.ranks gives points to the "
                                      "rank 6")


@pytest.mark.parametrize("players", [2, 4])
def test_a_point_trick_spec_conforms(players: int) -> None:
    from spelbok.analysis.conformance import check_game
    spec = POINT_SPEC.replace("  - tricks: {}\n", "  - tricks:\n      allow: \"led_suit == "
                              "'none' or power(card) > power(winning_card) or "
                              "points_of(card) == 0\"\n", 1)
    rep = check_game(spelbok.load(spec, players=players), matches=12, seed=players)
    assert rep.ok, rep.failures
