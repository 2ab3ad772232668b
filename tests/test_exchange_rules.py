"""An exchange's ``allow`` (a condition on each card given, levels meaning "when
forced"), its ``show`` (the cards given face up to all) and ``give_to: turn_up`` (a
swap with the turn-up card)."""

from __future__ import annotations

import itertools
import random

import pytest
import spelbok
from spelbok.errors import IllegalActionError, SpecError

from tests.minispec import mini

# level 1: sevens and eights; level 2: any other card but a king; queens are shown
DISCARD = mini("""  - deal: {size: 5}
  - decide: discard
    who: dealer
    choose: exchange
    exchange: {draw_from: none, min: 2, max: 2, show: "card_rank == 'Q'"}
    allow:
      - if: "card_rank == '7' or card_rank == '8'"
        reason: "low cards first"
      - if: "card_rank != 'K'"
        reason: "never a king"
  - tricks: {}
""")

SWAP = mini("""  - deal: {size: 5}
  - turn_up: {trump: true}
  - decide: swap
    who: forehand
    choose: exchange
    exchange: {draw_from: turn_up, give_to: turn_up, max: 1}
    allow: "card_suit == trump and card_rank == 'J'"
  - tricks: {}
""")


def _expected(hand: list[str]) -> set[frozenset[str]]:
    """The two-card discards the rule allows, worked out by hand."""
    low = {c for c in hand if c[:-1] in ("7", "8")}
    rest = {c for c in hand if c[:-1] != "K"} - low
    if len(low | rest) < 2:
        return {frozenset(s) for s in itertools.combinations(hand, 2)}
    out = set()
    for s in itertools.combinations(sorted(low | rest), 2):
        chosen = set(s)
        if chosen & rest and not low <= chosen:
            continue
        out.add(frozenset(chosen))
    return out


def test_allow_levels_offer_a_later_level_only_when_forced() -> None:
    game = spelbok.load(DISCARD, players=2)
    for seed in range(40):
        st = game.new_state(seed=seed)
        assert st.decision_name == "discard"
        hand = st.view(st.current)["hand"]
        got = {frozenset(str(a).split()[1:]) for a in st.legal_actions()}
        assert got == _expected(hand), (seed, hand)


def test_a_refused_set_is_answered_with_its_level_reason() -> None:
    game = spelbok.load(DISCARD, players=2)
    for seed in range(60):
        st = game.new_state(seed=seed)
        hand = st.view(st.current)["hand"]
        kings = [c for c in hand if c.startswith("K")]
        others = [c for c in hand if not c.startswith("K")]
        if kings and others and not any(c[:-1] in ("7", "8") for c in hand):
            with pytest.raises(IllegalActionError, match="never a king"):
                st.apply(f"discard {kings[0]} {others[0]}")
            return
    pytest.fail("no deal with a king and no low card")


def test_shown_cards_are_seen_by_all_and_kept_by_samples() -> None:
    game = spelbok.load(DISCARD, players=2)
    for seed in range(80):
        st = game.new_state(seed=seed)
        seat = st.current
        queens = [a for a in st.legal_actions() if "Q" in str(a)]
        if not queens:
            continue
        action = queens[0]
        given = str(action).split()[1:]
        st.apply(action)
        other = 1 - seat
        shown = sorted(c for c in given if c.startswith("Q"))
        assert sorted(st.view(other)["shown"]) == shown
        assert st.view(other)["discards"] == 2
        for k in range(5):
            sample = st.determinize(other, random.Random(k))
            assert sorted(sample.view(other)["shown"]) == shown
            assert all(c in sample.view(seat)["own_discards"] for c in shown)
        return
    pytest.fail("no deal with a queen to give")


def test_give_to_turn_up_swaps_the_trump_jack_for_the_turn_up() -> None:
    game = spelbok.load(SWAP, players=2)
    for seed in range(200):
        st = game.new_state(seed=seed)
        if st.decision_name != "swap":
            continue
        seat = st.current
        view = st.view(seat)
        trump = view["trump"]
        jack = "J" + trump
        up = view["turn_up"]
        legal = [str(a) for a in st.legal_actions()]
        if jack not in view["hand"]:
            assert legal == ["swap"]
            continue
        assert sorted(legal) == sorted(["swap", f"swap {jack}"])
        st.apply(f"swap {jack}")
        after = st.view(1 - seat)
        assert after["turn_up"] == [jack]
        assert up[0] in st.view(seat)["hand"] and jack not in st.view(seat)["hand"]
        assert up[0] in after["known_cards"][seat]  # taken from the turn-up: public
        return
    pytest.fail("no deal in which the forehand holds the trump jack")


def test_give_to_turn_up_needs_draw_from_turn_up() -> None:
    bad = SWAP.replace("draw_from: turn_up, give_to", "draw_from: stock, give_to")
    with pytest.raises(SpecError, match="goes with 'draw_from: turn_up'") as e:
        spelbok.load(bad, players=2)
    assert e.value.line is not None


def test_an_exchange_allow_reads_the_card_but_a_where_does_not() -> None:
    spelbok.load(DISCARD, players=2)  # card_rank in allow and show: fine
    bad = DISCARD.replace("who: dealer", "who: dealer\n    where: \"card_rank == 'Q'\"")
    with pytest.raises(SpecError, match="has a value only while a trick is played"):
        spelbok.load(bad, players=2)


def test_the_terminal_and_the_browser_show_the_cards_shown() -> None:
    pytest.importorskip("jinja2")
    from spelbok.web.tableview import log_lines, table

    game = spelbok.load(DISCARD, players=2)
    for seed in range(80):
        st = game.new_state(seed=seed)
        seat = st.current
        queens = [a for a in st.legal_actions() if "Q" in str(a)]
        if not queens:
            continue
        st.apply(queens[0])
        queen = next(c for c in str(queens[0]).split()[1:] if c.startswith("Q"))
        names = ["North", "South"]
        lines = log_lines(st, 1 - seat, names)
        assert any("showing Q" in line for line in lines), lines
        from spelbok.view.panel import panel

        assert any("shown aside Q" in line for line in panel(st, 1 - seat, names))
        t = table(st, 1 - seat, names, to_act=False, log_viewer=1 - seat)
        assert [c["rank"] + c["suit"] for c in t["shown_aside"]] == [queen]
        return
    pytest.fail("no deal with a queen to give")
