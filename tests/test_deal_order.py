"""The order a deal hands the shuffled cards out: a widow dealt card by card among the
players' packets (deal.widow_packets, widow_every), a turn-up set aside between the
packets (deal.turn_up_after), and the dealer's last card turned up (turn_up from dealer)."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.minispec import mini

# the Mini pack: 8 ranks x 4 suits = 32 cards, in pack order from the top of a stacked deck
PACK = [f"{r}{s}" for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]

WIDOW = mini("  - deal: {size: 3, widow: 2, widow_packets: [1], widow_every: 3}\n"
             "  - tricks: {}\n")
ASIDE = mini("  - deal: {size: 5, packets: [3, 2], turn_up_after: 1}\n"
             "  - turn_up: {trump: true}\n  - tricks: {}\n")
LAST = mini("  - deal: {size: 4}\n  - turn_up: {from: dealer}\n  - tricks: {}\n")


def dealt(spec: str, players: int = 2, deck: list[str] | None = None,
          seed: int = 1) -> spelbok.State:
    game = spelbok.load(spec, players=players)
    return game.new_state(seed=seed, deck=deck or PACK, dealer=0)


def names(st: spelbok.State, mask: int) -> set[str]:
    pack = st.game.program.pack
    return {pack.names[c] for c in range(len(pack.names)) if (mask >> c) & 1}


def error_of(spec: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        spelbok.load(spec, players=2)
    return info.value


def roundtrip(spec: str) -> str:
    canonical = normalize(load_yaml(spec, "mini.yaml")[0])
    text = to_dsl(canonical)
    assert normalize(parse_dsl(text, "mini.spel")[0]) == canonical
    return text


def test_the_widow_gets_a_card_after_every_third_packet() -> None:
    # seat 1 (the dealer's left) then seat 0, one card at a time: the widow's cards
    # come after the 3rd and the 6th packet
    st = dealt(WIDOW)
    assert names(st, st.hands[1]) == {"AS", "QS", "9S"}
    assert names(st, st.hands[0]) == {"KS", "10S", "8S"}
    assert names(st, st.widow) == {"JS", "7S"}
    # the default widow is a seat dealt last in each round: the 3rd and 6th cards here
    plain = dealt(WIDOW.replace(", widow_packets: [1], widow_every: 3", ""))
    assert names(plain, plain.widow) == {"QS", "9S"}


def test_a_widow_that_the_packets_leave_short_gets_the_rest_last() -> None:
    st = dealt(WIDOW.replace("widow: 2,", "widow: 5,"))
    assert names(st, st.widow) == {"JS", "7S", "AH", "KH", "QH"}
    assert names(st, st.hands[1]) == {"AS", "QS", "9S"}


def test_the_turn_up_is_dealt_between_the_packets() -> None:
    st = dealt(ASIDE)
    pack = st.game.program.pack
    assert names(st, st.hands[1]) == {"AS", "KS", "QS", "7S", "AH"}  # 3, then 2 after it
    assert names(st, st.hands[0]) == {"JS", "10S", "9S", "KH", "QH"}
    assert [pack.names[c] for c in st.turn_up] == ["8S"]
    assert st.trump_letter() == "S" and len(st.stock) == 32 - 11
    after = dealt(ASIDE.replace(", turn_up_after: 1", ""))
    assert [pack.names[c] for c in after.turn_up] == ["QH"]  # the card after the deal


def test_a_turn_up_set_aside_keeps_the_seeded_deal_replayable() -> None:
    game = spelbok.load(ASIDE, players=2)
    a, b = game.new_state(seed=7), game.new_state(seed=7)
    assert a.hands == b.hands and a.turn_up == b.turn_up and a.stock == b.stock
    rep = check_game(game, matches=12, seed=3)
    assert rep.ok, rep.failures
    rep = check_game(spelbok.load(WIDOW, players=3), matches=12, seed=3)
    assert rep.ok, rep.failures


def test_the_dealer_s_last_card_is_the_one_turned_up() -> None:
    # one card at a time from seat 1: the dealer (seat 0) gets the 2nd, 4th, 6th, 8th
    st = dealt(LAST)
    assert names(st, st.hands[0]) == {"KS", "JS", "9S", "7S"}
    assert st.trump_letter() == "S" and names(st, st.known[0]) == {"7S"}
    top = ["AS", "AH", "KS", "KH", "QS", "QH", "JS", "7D"]
    st = dealt(LAST, deck=top + [c for c in PACK if c not in top])
    assert names(st, st.known[0]) == {"7D"} and st.trump_letter() == "D"
    game = spelbok.load(LAST, players=3)
    for seed in range(8):  # whatever the shuffle, a card of the dealer's, shown to all
        st = game.new_state(seed=seed, dealer=0, record=True)
        turned = next(e for e in st.log if e["event"] == "turn_up")
        assert {turned["card"]} == names(st, st.known[0]) <= names(st, st.hands[0])


def test_the_orders_read_and_write_in_both_surfaces_and_are_described() -> None:
    text = roundtrip(WIDOW)
    assert "and 2 cards to the widow in packets of 1 after every 3 packets" in text
    text = roundtrip(ASIDE)
    assert "deal 5 cards in packets of 3 then 2, the turn-up after 1 round" in text
    prose = " ".join(describe(WIDOW).split())
    assert "dealt too, one card after every 3 packets dealt to the players" in prose
    prose = " ".join(describe(ASIDE).split())
    assert "After the first round of packets the next card is set aside for the turn-up" in prose


def test_the_orders_are_checked_with_located_errors() -> None:
    e = error_of(mini("  - deal: {size: 3, widow_every: 2}\n  - tricks: {}\n"))
    assert e.line == 8 and "has no widow" in e.message
    e = error_of(ASIDE.replace("  - turn_up: {trump: true}\n", ""))
    assert e.line == 8 and "next step does not turn up a card" in e.message
    e = error_of(ASIDE.replace("turn_up: {trump: true}", "turn_up: {from: dealer}"))
    assert "turn_up_after" in e.message
    e = error_of(WIDOW.replace("widow_every: 3", "widow_every: 0"))
    assert (e.line, e.col) == (8, 64) and "at least 1" in str(e)
