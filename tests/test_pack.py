"""Declared packs (``pack:``): other suits and ranks, copies, extra cards, 12 seats."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.cards import FRENCH, pack_of
from spelbok.cli.render import Style, card, hand_line
from spelbok.errors import SpecError, SpecErrors
from spelbok.lang.describe import describe
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.loader import read_spec

SPANISH = """spelbok: 1
name: Spanish-40 mini
players: {min: 2, max: 4}
pack:
  suits:
    - {letter: O, name: oros, symbol: "o", colour: yellow}
    - {letter: C, name: copas, symbol: "c", colour: red}
    - {letter: E, name: espadas, symbol: "e", colour: blue}
    - {letter: B, name: bastos, symbol: "b", colour: green}
  ranks: [2, 4, 5, 6, 7, S, C, R, 3, 1]
deck:
  - ranks: [1, 2, 3, 4, 5, 6, 7, S, C, R]
variables:
  player: {held: false, top: x, oros: 0}
hand:
  - deal: {size: 9}
  - turn_up: {trump: true}
  - set: {held: "holds('1O')", top: "rank_of(highest(hand))", oros: "count(cards_of(hand, 'O'))"}
    for: true
  - tricks: {}
end:
  when: hand_number >= 2
  winners: tricks == max(tricks)
"""

COPIES = """spelbok: 1
name: Two-copies mini
players: {min: 2, max: 4}
pack:
  suits: [{letter: C}, {letter: S}, {letter: H}, {letter: D}]
  ranks: [9, 10, J, Q, K, A]
  copies: 2
deck:
  - ranks: [A, K, Q, J, 10, 9]
hand:
  - deal: {size: 6}
  - tricks: {}
end:
  when: hand_number >= 2
  winners: tricks == max(tricks)
"""

JOKER = """spelbok: 1
name: Joker mini
players: {min: 2, max: 4}
pack:
  suits: [{letter: C}, {letter: S}, {letter: H, colour: red}, {letter: D, colour: red}]
  ranks: [7, 8, 9, 10, J, Q, K, A]
  extra: [{name: JK}]
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
ranking:
  top_trumps: [JK]
hand:
  - deal: {size: 5}
  - turn_up: {trump: true}
  - tricks: {}
end:
  when: hand_number >= 2
  winners: tricks == max(tricks)
"""

GERMAN = """spelbok: 1
name: German-32 mini
players: {min: 2, max: 4}
pack:
  suits:
    - {letter: E, name: Eichel, symbol: "🌰"}
    - {letter: G, name: Grün, symbol: "🍀", colour: green}
    - {letter: H, name: Herz, symbol: "❤", colour: red}
    - {letter: S, name: Schellen, symbol: "🔔", colour: yellow}
  ranks: [7, 8, 9, 10, U, O, K, A]
deck:
  - ranks: [A, 10, K, O, U, 9, 8, 7]
ranking:
  ranks: [A, 10, K, O, U, 9, 8, 7]
  top_trumps: [O@trump]
hand:
  - deal: {size: 6}
  - turn_up: {trump: true}
  - tricks: {}
end:
  when: hand_number >= 2
  winners: tricks == max(tricks)
"""

TWELVE = """spelbok: 1
name: Twelve seats
players: {min: 12, max: 12}
pack:
  suits: [{letter: C}, {letter: S}, {letter: H}, {letter: D}]
  ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
  copies: 2
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]
hand:
  - deal: {size: 8}
  - tricks: {}
end:
  when: hand_number >= 1
  winners: tricks == max(tricks)
"""


def test_the_french_pack_is_the_default_and_keeps_its_ids() -> None:
    assert pack_of(None) is FRENCH
    assert FRENCH.french and FRENCH.size == 52
    assert [FRENCH.parse_card(n) for n in ("2C", "AC", "2S", "10H", "AD")] == [0, 12, 13, 34, 51]
    g = spelbok.load("example", players=2)
    assert g.program.pack is FRENCH


def test_a_spanish_pack_names_its_own_cards() -> None:
    g = spelbok.load(SPANISH, players=4)
    pack = g.program.pack
    assert not pack.french and len(g.program.deck) == 40
    assert [pack.card_name(c) for c in g.program.deck[:10]] == [
        "2O", "4O", "5O", "6O", "7O", "SO", "CO", "RO", "3O", "1O"]
    for c in g.program.deck:  # notation round trip
        assert pack.parse_card(pack.card_name(c)) == c
        assert pack.parse_card(pack.card_name(c).lower()) == c
    assert pack.parse_card("AH") is None
    # the default rank order is the pack's, high to low: the 1 is highest
    t = g.program.tables[4]
    assert t.power[pack.parse_card("1O")] > t.power[pack.parse_card("3O")] > t.power[
        pack.parse_card("RO")]
    st = g.new_state(seed=1)
    assert all(str(a) in pack.names for a in st.legal_actions())
    assert st.view(0)["trump"] in pack.letters
    for p in range(4):  # the card functions read the pack
        hand = st.view(p)["hand"]
        assert st.var("held")[p] == ("1O" in hand)
        assert st.var("oros")[p] == sum(n.endswith("O") for n in hand)
        assert st.var("top")[p] in pack.ranks


def test_a_spanish_deal_plays_by_its_notation() -> None:
    g = spelbok.load(SPANISH, players=2)
    st = g.new_state(seed=2, position={"hands": {0: "1O RB", 1: "2O 3C"}, "leader": 0,
                                       "trump": "C"})
    assert [str(a) for a in st.legal_actions()] == ["1O", "RB"]
    st.apply("1o")
    assert [str(a) for a in st.legal_actions()] == ["2O"]  # must follow oros
    with pytest.raises(spelbok.IllegalActionError, match=r"follow suit \(O\)"):
        st.apply("3C")


def test_copies_play_as_one_card_and_the_first_played_wins() -> None:
    g = spelbok.load(COPIES, players=2)
    assert len(g.program.deck) == 48
    st = g.new_state(seed=1, position={"hands": {0: "AS AS 9H", 1: "9S KS 10H"},
                                       "leader": 0, "trump": "none"})
    assert [str(a) for a in st.legal_actions()] == ["AS", "9H"]  # the two aces: one action
    st.apply("AS")
    assert st.hands[0].bit_count() == 2 and "AS" in st.view(0)["hand"]
    assert [str(a) for a in st.legal_actions()] == ["9S", "KS"]
    st.apply("KS")
    # two equal cards: the first played wins
    st2 = g.new_state(seed=1, position={"hands": {0: "AS 9H", 1: "AS 10H"},
                                        "leader": 0, "trump": "none"}, record=True)
    st2.apply("AS")
    st2.apply("AS")
    trick = [e for e in st2.log if e["event"] == "trick"][-1]
    assert trick["cards"] == [[0, "AS"], [1, "AS"]] and trick["winner"] == 0


def test_copies_in_a_stacked_deck_and_a_snapshot() -> None:
    g = spelbok.load(COPIES, players=2)
    deck = [g.program.pack.card_name(c) for c in g.program.deck]
    assert len(set(deck)) == 24
    st = g.new_state(seed=5, deck=deck[::-1])
    st.apply(str(st.legal_actions()[0]))
    data = st.to_dict()
    assert sorted(data["hands"][0] + data["hands"][1]).count(data["hands"][1][0]) >= 1
    again = g.restore(data)
    assert again.hands == st.hands and again.to_dict() == data
    with pytest.raises(SpecError, match="given twice"):
        g.new_state(seed=5, deck=deck[:-1] + [deck[0]])


def test_a_joker_belongs_to_no_suit_and_wins_as_top_trump() -> None:
    g = spelbok.load(JOKER, players=2)
    pack = g.program.pack
    jk = pack.parse_card("JK")
    assert pack.suit_of(jk) == -1 and jk in g.program.deck and len(g.program.deck) == 33
    st = g.new_state(seed=1, position={"hands": {0: "AC 7H", 1: "JK 8C"}, "leader": 0,
                                       "trump": "H"}, record=True)
    st.apply("AC")
    # holding a club, seat 1 must follow clubs: the joker (a top trump) is not one
    assert [str(a) for a in st.legal_actions()] == ["8C"]
    with pytest.raises(spelbok.IllegalActionError):
        st.apply("JK")
    st3 = g.new_state(seed=1, position={"hands": {0: "AC 7H", 1: "JK 8H"}, "leader": 0,
                                        "trump": "H"}, record=True)
    st3.apply("AC")
    st3.apply("JK")
    trick = [e for e in st3.log if e["event"] == "trick"][-1]
    assert trick["winner"] == 1
    st4 = g.new_state(seed=1, position={"hands": {0: "AC 7H", 1: "JK 8H"}, "leader": 0,
                                        "trump": "none"}, record=True)
    st4.apply("AC")
    st4.apply("JK")  # no trump: the joker, of no suit, is still the top trump
    assert [e for e in st4.log if e["event"] == "trick"][-1]["winner"] == 1


def test_a_german_pack_renders_its_symbols_and_describes_itself() -> None:
    g = spelbok.load(GERMAN, players=2)
    pack = g.program.pack
    style = Style().for_game(g)
    assert card("UE", style) == "U🌰" and card("10h", style) == "10❤"
    assert card("UE", Style(symbols=False).for_game(g)) == "UE"
    assert hand_line(["7E", "AH", "OG"], g, "H", style).startswith("A❤")
    # O@trump: the ober of trumps is the top trump
    t = g.program.tables[pack.suit_index["G"]]
    assert t.power[pack.parse_card("OG")] > t.power[pack.parse_card("AG")]
    text = describe(read_spec("<spec>", text=GERMAN))
    assert "Eichel (E, 🌰, black)" in text and "ranks 7 8 9 10 U O K A" in text


@pytest.mark.parametrize("text, players", [(SPANISH, 4), (COPIES, 2), (COPIES, 4), (JOKER, 3),
                                           (GERMAN, 2), (TWELVE, 12)])
def test_conformance_over_each_pack(text: str, players: int) -> None:
    game = spelbok.load(text, players=players)
    rep = check_game(game, matches=12, seed=players, deep_every=5)
    assert rep.ok, rep.failures


def test_twelve_seats_play() -> None:
    g = spelbok.load(TWELVE, players=12)
    st = g.new_state(seed=3)
    assert st.n == 12 and all(h.bit_count() == 8 for h in st.hands)


@pytest.mark.parametrize("old, new, message", [
    ("    - {letter: C, name: copas, symbol: \"c\", colour: red}",
     "    - {letter: O, name: copas, symbol: \"c\", colour: red}",
     r":7:\d+: the suit letter 'O' is listed twice"),
    ("  - ranks: [1, 2, 3, 4, 5, 6, 7, S, C, R]", "  - ranks: [1, 2, 3, 4, 5, 6, 7, J, C, R]",
     r":12:\d+: the rank 'J' is not in the pack"),
    ("  ranks: [2, 4, 5, 6, 7, S, C, R, 3, 1]",
     "  ranks: [2, 4, 5, 6, 7, S, C, R, 3, 1]\n  copies: 4\n  extra: [{name: X1}, {name: X2}, "
     "{name: X3}, {name: X4}, {name: X5}, {name: X6}, {name: X7}, {name: X8}, {name: X9}]",
     r":5:\d+: the pack has 196 cards, but spelbok supports at most 112"),
    ("holds('1O')", "holds('AH')", r"'AH' is not a card"),
    ("holds('1O')", "holds('5Z')", r"'5Z' is not a card"),
])
def test_bad_packs_are_located_errors(old: str, new: str, message: str) -> None:
    assert old in SPANISH
    with pytest.raises((SpecError, SpecErrors), match=message):
        spelbok.load(SPANISH.replace(old, new), players=4)


def test_an_extra_card_of_a_suit_not_in_the_pack_is_refused() -> None:
    bad = JOKER.replace("extra: [{name: JK}]", "extra: [{name: JK, suit: X}]")
    with pytest.raises((SpecError, SpecErrors), match=r":7:\d+: 'X' is not a suit of the pack"):
        spelbok.load(bad, players=2)


@pytest.mark.parametrize("text", [SPANISH, COPIES, JOKER, GERMAN, TWELVE])
def test_convert_round_trips_a_pack(text: str) -> None:
    doc = read_spec("<spec>", text=text)
    dsl = to_dsl(doc.tree)
    assert "pack:" in dsl
    assert read_spec("x.spel", text=dsl).tree == doc.tree


def test_the_dsl_reads_a_pack_block() -> None:
    dsl = to_dsl(read_spec("<spec>", text=JOKER).tree)
    assert '    extra card "JK"' in dsl and 'suit "H" coloured red' in dsl
    assert 'top trumps from high to low: JK' in dsl
    german = to_dsl(read_spec("<spec>", text=GERMAN).tree)
    assert 'suit "G" named "Grün" shown as "🍀" coloured green' in german
    assert 'deck for 2 to 4 players: A 10 K O U 9 8 7' in german


def test_formulas_compare_the_packs_suits_and_ranks() -> None:
    text = SPANISH.replace('oros: "count(cards_of(hand, \'O\'))"}',
                           'oros: "count(hand where card_suit == \'O\' and card_rank != \'S\')"}')
    text = text.replace("  - tricks: {}\n", "  - tricks: {}\n    when: \"trump != 'B' or true\"\n")
    g = spelbok.load(text, players=4)
    st = g.new_state(seed=1)
    for p in range(4):
        hand = st.view(p)["hand"]
        assert st.var("oros")[p] == sum(n.endswith("O") and n != "SO" for n in hand)
    with pytest.raises((SpecError, SpecErrors), match=r"'trump' is never 'H': suits are the "
                       r"letters O, C, E, B"):
        spelbok.load(text.replace("trump != 'B'", "trump != 'H'"), players=4)


EXCHANGE = COPIES.replace("  - deal: {size: 6}\n", """  - deal: {size: 5}
  - decide: swap
    who: each
    choose: exchange
    exchange: {max: 2}
""")


def test_an_exchange_names_copies_once() -> None:
    g = spelbok.load(EXCHANGE, players=2)
    st = g.new_state(seed=1, position={"hands": {0: "AS AS 9H", 1: "9S KS 10H"},
                                       "phase": "swap", "to_act": 0})
    texts = [str(a) for a in st.legal_actions()]
    assert len(texts) == len(set(texts))
    assert set(texts) == {"swap", "swap AS", "swap 9H", "swap AS AS", "swap AS 9H"}
    st.apply("swap AS AS")
    assert "AS" not in st.view(0)["hand"] and st.view(0)["own_discards"] == ["AS", "AS"]


@pytest.mark.parametrize("players", [2, 4])
def test_conformance_with_an_exchange_of_copies(players: int) -> None:
    rep = check_game(spelbok.load(EXCHANGE, players=players), matches=10, seed=1, deep_every=3)
    assert rep.ok, rep.failures
