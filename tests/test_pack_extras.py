"""A declared pack's extra cards in ``ranking``: top trumps outside the suits that win
whatever the trump (``none`` included), and extras named in ``free_cards``,
``losing_cards`` and ``kept_cards`` (a Tarot-like pack: trumps and an excuse as extras)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
from click.testing import CliRunner
from spelbok.analysis.conformance import check_cards, check_game
from spelbok.cli.main import cli
from spelbok.cli.render import sort_hand
from spelbok.errors import SpecError, SpecErrors
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.loader import read_spec

# four suits of four ranks, three trumps outside the suits (T3 highest) and an excuse
TAROT = """spelbok: 1
name: Tarot-like mini
players: {min: 2, max: 4}
pack:
  suits: [{letter: C}, {letter: S}, {letter: H, colour: red}, {letter: D, colour: red}]
  ranks: [7, 8, 9, 10]
  extra: [{name: T1}, {name: T2}, {name: T3}, {name: EX}]
deck:
  - ranks: [10, 9, 8, 7]
ranking:
  top_trumps: [T3, T2, T1]
hand:
  - deal: {size: 5}
  - tricks: {void_trump: true}
end:
  when: hand_number >= 2
  winners: tricks == max(tricks)
"""
EXCUSE = TAROT.replace("  top_trumps: [T3, T2, T1]\n", """  top_trumps: [T3, T2, T1]
  free_cards: [EX]
  losing_cards: [EX]
""")


def _winner(st: spelbok.State) -> int:
    return [e for e in st.log if e["event"] == "trick"][-1]["winner"]


def _play(text: str, hands: dict[int, str], cards: list[str], trump: str = "none") -> spelbok.State:
    g = spelbok.load(text, players=len(hands))
    st = g.new_state(seed=1, position={"hands": hands, "leader": 0, "trump": trump}, record=True)
    for c in cards:
        st.apply(c)
    return st


FRENCH_TOP = """spelbok: 1
name: French top trump mini
players: {min: 2, max: 4}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
ranking:
  top_trumps: [JH]
hand:
  - deal: {size: 5}
  - tricks: {}
end:
  when: hand_number >= 2
  winners: tricks == max(tricks)
"""


@pytest.mark.parametrize("trump", ["none", "H"])
def test_a_top_trump_outside_the_suits_wins_whatever_the_trump(trump: str) -> None:
    st = _play(TAROT, {0: "10C 7H", 1: "T1 8H"}, ["10C", "T1"], trump)
    assert _winner(st) == 1
    st = _play(TAROT, {0: "T1 7H", 1: "T2 8H"}, ["T1", "T2"], trump)
    assert _winner(st) == 1


def test_with_no_trump_a_top_trump_led_calls_for_top_trumps() -> None:
    g = spelbok.load(TAROT, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "T1 7H", 1: "T2 8H"}, "leader": 0,
                                       "trump": "none"})
    st.apply("T1")
    assert [str(a) for a in st.legal_actions()] == ["T2"]
    # the refusal names what was led (it read "follow suit (none)")
    with pytest.raises(spelbok.IllegalActionError, match=r"must follow suit \(the top trumps led\)"):
        st.apply("8H")
    # void in the suit led, he must play a trump (void_trump): the top trumps are trumps
    st = g.new_state(seed=1, position={"hands": {0: "10C 7H", 1: "T2 8H"}, "leader": 0,
                                       "trump": "none"})
    st.apply("10C")
    assert [str(a) for a in st.legal_actions()] == ["T2"]


def test_a_top_trump_led_with_a_losing_card_in_the_deck() -> None:
    # the cards that never win are taken out of every suit, the suit of no suit included
    text = TAROT.replace("  top_trumps: [T3, T2, T1]\n", "  top_trumps: [T3, T2, T1]\n"
                         "  losing_cards: [7C]\n")
    g = spelbok.load(text, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "T1 7H", 1: "T2 8H"}, "leader": 0,
                                       "trump": "none"})
    st.apply("T1")
    assert [str(a) for a in st.legal_actions()] == ["T2"]


def test_a_french_top_trump_with_no_trump() -> None:
    text = FRENCH_TOP
    st = _play(text, {0: "AC 7H", 1: "JH 8H"}, ["AC", "JH"])
    assert _winner(st) == 1
    printed = text.replace("top_trumps: [JH]", "top_trumps: [JH]\n  top_trumps_follow: printed")
    g = spelbok.load(printed, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "7H AC", 1: "JH 8H"}, "leader": 0,
                                       "trump": "none"}, record=True)
    st.apply("7H")
    # it follows its printed suit, and still wins as a top trump
    assert sorted(str(a) for a in st.legal_actions()) == ["8H", "JH"]
    st.apply("JH")
    assert _winner(st) == 1


def test_a_trick_of_cards_that_cannot_win_goes_to_its_first_card() -> None:
    # the excuse here is a plain card of no suit: led, it names no suit, and no card wins
    st = _play(TAROT, {0: "EX 7H", 1: "7C 9C"}, ["EX", "7C"])
    assert _winner(st) == 0 and check_cards(st) is None
    assert st.won == [1, 0]


def test_an_extra_card_may_be_free_and_losing() -> None:
    g = spelbok.load(EXCUSE, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "T1 7H 9C", 1: "T2 8H EX"}, "leader": 0,
                                       "trump": "none"})
    st.apply("T1")
    assert sorted(str(a) for a in st.legal_actions()) == ["EX", "T2"]  # the excuse is free
    st = _play(EXCUSE, {0: "10C 7H", 1: "EX 9C"}, ["10C", "EX"])
    assert _winner(st) == 0
    st = _play(EXCUSE, {0: "EX 7H", 1: "7C 9C"}, ["EX", "7C"])  # the next card names the suit
    assert _winner(st) == 1


def test_an_extra_card_may_be_kept() -> None:
    text = EXCUSE.replace("  losing_cards: [EX]\n", "  kept_cards: [EX]\npoints:\n  cards: {EX: 4}\n")
    st = _play(text, {0: "10C 7H", 1: "EX 9C"}, ["10C", "EX"])
    assert _winner(st) == 0
    pack = st.game.program.pack
    assert pack.names_of(st.won_cards[1]) == ["EX"]


def test_every_copy_of_a_special_card_is_special() -> None:
    text = EXCUSE.replace("  ranks: [7, 8, 9, 10]\n", "  ranks: [7, 8, 9, 10]\n  copies: 2\n")
    g = spelbok.load(text, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "10C EX 7H", 1: "EX 7C 8H"}, "leader": 0,
                                       "trump": "none"})
    st.apply("10C")
    assert sorted(str(a) for a in st.legal_actions()) == ["7C", "EX"]  # the second copy


@pytest.mark.parametrize("entry, message", [
    ("EXC", r":12:\d+: 'EXC' is not a card of the pack \(did you mean 'EX'\?\)"),
    ("AC", r":12:\d+: 'AC' is not a card of the pack"),
])
def test_an_unknown_special_card_is_a_located_error(entry: str, message: str) -> None:
    bad = EXCUSE.replace("  free_cards: [EX]", f"  free_cards: [{entry}]")
    with pytest.raises((SpecError, SpecErrors), match=message):
        spelbok.load(bad, players=2)


def test_a_special_card_not_in_the_deck_is_a_located_error() -> None:
    bad = EXCUSE.replace("  free_cards: [EX]", "  free_cards: [10S]").replace(
        "  - ranks: [10, 9, 8, 7]\n", "  - ranks: [10, 9, 8, 7]\n    suits: [C, H, D]\n")
    with pytest.raises((SpecError, SpecErrors), match=r"the card '10S' of free_cards is not in "
                       r"the deck"):
        spelbok.load(bad, players=2)


def test_an_extra_card_of_a_suit_and_rank_is_always_in_the_deck() -> None:
    text = EXCUSE.replace("{name: EX}", "{name: EX}, {name: XC, suit: C, rank: 10}").replace(
        "  - ranks: [10, 9, 8, 7]", "  - ranks: [9, 8, 7]").replace(
        "top_trumps: [T3, T2, T1]", "top_trumps: [XC, T3, T2, T1]").replace(
        "free_cards: [EX]", "free_cards: [EX, XC]").replace(
        "ranking:\n", "ranking:\n  ranks: [10, 9, 8, 7]\n").replace("max: 4", "max: 3")
    g = spelbok.load(text, players=2)
    assert g.program.pack.parse_card("XC") in g.program.deck




SPANISH_POINTS = """spelbok: 1
name: Spanish points mini
players: {min: 2, max: 4}
pack:
  suits:
    - {letter: O, name: oros}
    - {letter: C, name: copas, colour: red}
    - {letter: E, name: espadas}
    - {letter: B, name: bastos, colour: green}
  ranks: [2, 4, 5, 6, 7, S, C, R, 3, 1]
  extra: [{name: JK}]
deck:
  - ranks: [1, 2, 3, 4, 5, 6, 7, S, C, R]
points:
  ranks: {1: 11, 3: 10, R: 4, C: 3, S: 2}
  trumps: {S: 5, 7: 1}
  cards: {1O: 1, 2C: 2, JK: 7}
hand:
  - deal: {size: 9}
  - turn_up: {trump: true}
  - tricks: {}
end:
  when: hand_number >= 2
  winners: card_points == max(card_points)
"""


def test_convert_round_trips_points_of_a_declared_packs_ranks(tmp_path: Path) -> None:
    doc = read_spec("<spec>", text=SPANISH_POINTS)
    dsl = to_dsl(doc.tree)
    assert 'points of ranks: "1" 11, 3 10, R 4, C 3, S 2' in dsl
    assert read_spec("x.spel", text=dsl).tree == doc.tree
    # the CLI: YAML to .spel and back to YAML, the same model
    src, spel, back = tmp_path / "s.yaml", tmp_path / "s.spel", tmp_path / "b.yaml"
    src.write_text(SPANISH_POINTS, encoding="utf-8")
    for a, b in ((src, spel), (spel, back)):
        result = CliRunner().invoke(cli, ["convert", str(a), "-o", str(b)])
        assert result.exit_code == 0, result.output
    assert read_spec(str(spel)).tree == doc.tree == read_spec(str(back)).tree
    g = spelbok.load(str(spel), players=2)
    assert g.program.points is not None


def test_a_declared_packs_unknown_rank_in_dsl_points_is_a_located_error(tmp_path: Path) -> None:
    spel = tmp_path / "x.spel"
    spel.write_text(to_dsl(read_spec("<spec>", text=SPANISH_POINTS).tree).replace('R 4', '"Z" 4'),
                    encoding="utf-8")
    with pytest.raises((SpecError, SpecErrors), match=r"x\.spel:\d+:\d+: 'Z' in points\.ranks is "
                       r"not a rank"):
        spelbok.load(str(spel), players=2)


def test_a_hand_shows_its_top_trumps_with_no_trump() -> None:
    g = spelbok.load(FRENCH_TOP, players=2)
    assert sort_hand(["7H", "JH", "AS", "8C"], g, None) == [["AS"], ["7H"], ["8C"], ["JH"]]
    assert sort_hand(["7H", "JH", "AS"], g, "H") == [["JH", "7H"], ["AS"]]


def test_a_top_trump_led_names_its_printed_suit_trump() -> None:
    # trump_from: first_lead, with no trump yet: the top trump's printed suit becomes trump
    text = FRENCH_TOP.replace("  - tricks: {}", "  - tricks: {trump_from: first_lead}")
    g = spelbok.load(text, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "JH 7C", 1: "8H AC"}, "leader": 0,
                                       "trump": "none"}, record=True)
    st.apply("JH")
    assert st.trump_letter() == "H"
    assert [str(a) for a in st.legal_actions()] == ["8H"]


# a top trump printed in a suit: an extra card of clubs
PRINTED = TAROT.replace("{name: EX}", "{name: EX}, {name: XC, suit: C}").replace(
    "top_trumps: [T3, T2, T1]", "top_trumps: [XC, T3, T2, T1]\n  top_trumps_follow: printed")


@pytest.mark.parametrize("trump", ["none", "H"])
def test_a_top_trump_that_follows_its_printed_suit(trump: str) -> None:
    g = spelbok.load(PRINTED, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "7C 7H", 1: "XC 8C"}, "leader": 0,
                                       "trump": trump}, record=True)
    st.apply("7C")
    assert sorted(str(a) for a in st.legal_actions()) == ["8C", "XC"]  # it follows clubs
    st.apply("XC")
    assert _winner(st) == 1  # and wins above every card
    # led, it calls for clubs, not for the other top trumps
    st = g.new_state(seed=1, position={"hands": {0: "XC 7H", 1: "T3 8C"}, "leader": 0,
                                       "trump": trump}, record=True)
    st.apply("XC")
    assert [str(a) for a in st.legal_actions()] == ["8C"]
    st.apply("8C")
    assert _winner(st) == 0


def test_a_top_trump_printed_in_a_suit_follows_the_trumps_by_default() -> None:
    text = PRINTED.replace("\n  top_trumps_follow: printed", "")
    g = spelbok.load(text, players=2)
    # no trump: led, the clubs' top trump calls for top trumps
    st = g.new_state(seed=1, position={"hands": {0: "XC 7H", 1: "T3 8C"}, "leader": 0,
                                       "trump": "none"})
    st.apply("XC")
    assert [str(a) for a in st.legal_actions()] == ["T3"]
    # hearts trump: it belongs to hearts, and a club lead does not call for it
    st = g.new_state(seed=1, position={"hands": {0: "7C 7H", 1: "XC 8C"}, "leader": 0,
                                       "trump": "H"})
    st.apply("7C")
    assert [str(a) for a in st.legal_actions()] == ["8C"]


@pytest.mark.parametrize("text", [TAROT, EXCUSE, PRINTED])
@pytest.mark.parametrize("players", [2, 3])
def test_conformance_of_the_tarot_like_pack(text: str, players: int) -> None:
    rep = check_game(spelbok.load(text, players=players), matches=10, seed=players, deep_every=4)
    assert rep.ok, rep.failures


def test_a_sample_keeps_a_void_in_the_top_trumps() -> None:
    # no trump: seat 1 did not follow a top trump led, so he holds none of them
    g = spelbok.load(TAROT, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "T1 7H 9C", 1: "8H 9H 10H"}, "leader": 0,
                                       "trump": "none"})
    st.apply("T1")
    st.apply("8H")
    tops = st.tables.suit_mask[4]
    rng = random.Random(3)
    for _ in range(30):
        s = st.determinize(0, random.Random(rng.getrandbits(32)))
        assert not s.hands[1] & tops and check_cards(s) is None


DECLARE_WITH_COPIES = """\
spelbok: 1
name: declared pack with a declaration
players: {min: 2, max: 2}
pack: {suits: [{letter: C, name: clubs, symbol: "C"}, {letter: D, name: diamonds, symbol: "D"}],
       ranks: [9, Q, A], copies: 2}
deck: [{ranks: [A, Q, 9]}]
hand: [{deal: {size: 6}}, {tricks: {declare: [{word: call, when: "led_suit == 'none'"}]}}]
end: {when: "true", winners: "true"}
"""


def test_declarations_name_a_declared_packs_cards_once_per_name() -> None:
    # bug (found writing Doppelkopf): the declaration actions carried French names
    # (2C, 4C...) and came once per copy of a card, so a saved match did not replay
    g = spelbok.load(DECLARE_WITH_COPIES, players=2)
    st = g.new_state(seed=1, position={"hands": {1: "AC AC QD 9C 9D 9D",
                                                 0: "QC QC AD AD 9C QD"}, "leader": 1})
    legal = [str(a) for a in st.legal_actions()]
    assert sorted(legal) == sorted(["9C", "AC", "QD", "9D",
                                    "call 9C", "call AC", "call QD", "call 9D"])
    st.apply("call AC")
    assert st.hands[1].bit_count() == 5 and [str(a) for a in st.legal_actions()][0] in (
        "QC", "AD", "9C", "QD")
    replay = g.new_state(seed=1, position={"hands": {1: "AC AC QD 9C 9D 9D",
                                                     0: "QC QC AD AD 9C QD"}, "leader": 1})
    for entry in st.history:
        replay.apply(str(entry.action))
    assert replay.hands == st.hands
