"""An exchange that keeps the chosen cards (``exchange.give_to: hand``): a player
chooses cards of his hand to show, they stay in it, known to every seat until played;
a card shown so is not offered again, and ``allow`` levels say which may be shown
only once every card of an earlier level is shown too."""

from __future__ import annotations

import itertools
import random

import pytest
import spelbok
from spelbok.errors import SpecError

from tests.minispec import mini

# two cards shown: hearts first, a king only once every heart is shown
SHOW = mini("""  - deal: {size: 5}
  - decide: show
    who: dealer
    choose: exchange
    exchange: {draw_from: none, give_to: hand, min: 2, max: 2, show: "true"}
    allow:
      - if: "card_suit == 'H'"
        reason: "a king only once every heart is shown"
      - if: "card_rank == 'K'"
  - tricks: {}
""")

# one card at a time, three times
ONE_BY_ONE = mini("""  - deal: {size: 5}
  - repeat: 3
    steps:
      - decide: show
        who: dealer
        choose: exchange
        exchange: {draw_from: none, give_to: hand, min: 1, max: 1, show: "true"}
  - tricks: {}
""")


def _expected(hand: list[str]) -> set[frozenset[str]]:
    hearts = {c for c in hand if c.endswith("H")}
    kings = {c for c in hand if c.startswith("K") and c not in hearts}
    if len(hearts | kings) < 2:
        return {frozenset(s) for s in itertools.combinations(hand, 2)}
    return {frozenset(s) for s in itertools.combinations(sorted(hearts | kings), 2)
            if not (set(s) & kings and not hearts <= set(s))}


def test_the_choice_offers_the_sets_the_levels_allow() -> None:
    game = spelbok.load(SHOW, players=2)
    for seed in range(40):
        st = game.new_state(seed=seed)
        assert st.decision_name == "show"
        hand = st.view(st.current)["hand"]
        got = {frozenset(str(a).split()[1:]) for a in st.legal_actions()}
        assert got == _expected(hand), (seed, hand)


def test_shown_cards_stay_in_the_hand_known_to_all() -> None:
    game = spelbok.load(SHOW, players=2)
    for seed in range(80):
        st = game.new_state(seed=seed)
        seat = st.current
        action = st.legal_actions()[0]
        chosen = sorted(str(action).split()[1:])
        st.apply(action)
        other = 1 - seat
        assert all(c in st.view(seat)["hand"] for c in chosen)
        assert len(st.view(seat)["hand"]) == 5
        assert sorted(st.view(other)["known_cards"][seat]) == chosen
        assert st.view(other)["shown"] == []  # nothing lies aside
        assert st.view(other)["decisions"][-1] == [seat, "show", str(action)]  # public
        for k in range(4):  # a sample deals them to him again
            sample = st.determinize(other, random.Random(k))
            assert all(c in sample.view(seat)["hand"] for c in chosen)
        return


def test_a_card_shown_is_not_offered_again() -> None:
    game = spelbok.load(ONE_BY_ONE, players=2)
    st = game.new_state(seed=5)
    seat = st.current
    shown: list[str] = []
    for _ in range(3):
        legal = [str(a).split()[1] for a in st.legal_actions()]
        assert not set(legal) & set(shown)
        assert len(legal) == 5 - len(shown)
        shown.append(legal[0])
        st.apply(f"show {legal[0]}")
    assert sorted(st.view(1 - seat)["known_cards"][seat]) == sorted(shown)


@pytest.mark.parametrize(("change", "message"), [
    ("draw_from: none, give_to: hand", "goes with 'draw_from: none'"),
    ('show: "true"}', "give it a 'show'"),
])
def test_give_to_hand_misused_is_a_located_error(change: str, message: str) -> None:
    bad = SHOW.replace(change, {"draw_from: none, give_to: hand": "draw_from: stock, give_to: hand",
                                'show: "true"}': "}"}[change])
    with pytest.raises(SpecError, match=message) as e:
        spelbok.load(bad, players=2)
    assert e.value.line is not None


def test_the_terminal_and_the_browser_show_the_cards_shown() -> None:
    pytest.importorskip("jinja2")
    from spelbok.view.panel import panel
    from spelbok.web.tableview import log_lines, table

    st = spelbok.load(SHOW, players=2).new_state(seed=3)
    seat = st.current
    action = st.legal_actions()[0]
    chosen = str(action).split()[1:]
    st.apply(action)
    names = ["North", "South"]
    lines = log_lines(st, 1 - seat, names)
    assert any(" shows " in line and all(c[:-1] in line for c in chosen) for line in lines), lines
    assert any(names[seat] in line and "shows" in line for line in panel(st, 1 - seat, names)) \
        or any(all(c[:-1] in line for c in chosen) for line in panel(st, 1 - seat, names))
    t = table(st, 1 - seat, names, to_act=False, log_viewer=1 - seat)
    assert sorted(c["rank"] + c["suit"] for c in t["shown"][seat]) == sorted(chosen)


def test_describe_says_the_cards_stay_in_the_hand() -> None:
    from spelbok.lang.describe import describe
    from spelbok.lang.loader import read_spec

    text = describe(read_spec(SHOW))
    assert "to show: they stay in the hand" in " ".join(text.split())
    assert "may be shown only if" in " ".join(text.split())


def test_a_menu_says_show_not_give() -> None:
    from spelbok.play.seatlog import exchange_verb

    st = spelbok.load(SHOW, players=2).new_state(seed=3)
    assert exchange_verb(st.legal_actions(), st) is None  # written 'show 9H', not 'give 9H'
