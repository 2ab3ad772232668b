"""Cards shown during the deal (deal.shows): as the cards are dealt one at a time, the
player who receives one may show cards that meet a show's condition (naming a trump),
and a stronger show, offered through the variables the earlier one set, overcalls it."""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from spelbok.engine.deal_shows import LAST
from spelbok.errors import IllegalActionError, SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

SPEC = """
spelbok: 1
name: Shows mini
about: A test game (not a shipped one) whose trump is shown as the cards are dealt.
players: {min: 2, max: 2}
pack:
  suits:
    - {letter: C, name: clubs, symbol: "♣", colour: black}
    - {letter: H, name: hearts, symbol: "♥", colour: red}
  ranks: [7, 8, 9]
  copies: 2
deck:
  - ranks: [9, 8, 7]
variables:
  hand: {shown: 0, named: "none", caller: -1}
  player: {score: 0}
dealer: {first: 0}
hand:
  - deal:
      size: 5
      shows:
        - word: declare
          when: "shown == 0 and card_rank == '9'"
          then: {shown: 1, named: card_suit, caller: seat}
        - word: pair
          copies: 2
          when: "shown < 2 and card_rank == '9'"
          then: {shown: 2, named: card_suit, caller: seat}
  - set: {trump: named}
  - tricks: {}
  - set: {score: "score + tricks"}
    for: "true"
end: {when: "hand_number >= 1", winners: "score == max(score)", score: score}
"""


def game() -> Any:
    return spelbok.load(SPEC)


def legal(st: Any) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


# the deal goes to seat 1, then seat 0, in turn: seat 1 gets the 1st, 3rd... card
DECK = ["9H", "7C", "8C", "9C", "8H", "9C", "7H", "7C", "8C", "8H", "9H", "7H"]


def test_a_player_dealt_a_card_that_may_be_shown_is_asked() -> None:
    st = game().new_state(deck=DECK)
    assert st.current == 1 and st.decision_name == "show"
    assert legal(st) == ["declare 9H", "pass"]
    assert st.hands[0] == 0 and bin(st.hands[1]).count("1") == 1  # the deal stopped there


def test_a_show_is_known_to_all_sets_its_variables_and_the_deal_goes_on() -> None:
    st = game().new_state(deck=DECK)
    st.apply("declare 9H")
    assert st.view(0)["known_cards"] == [[], ["9H"]]
    assert st.var("caller") == 1 and st.var("shown") == 1
    # seat 0's first card (7C) and first 9C (the 4th card) offer nothing: a single no
    # longer overcalls; his second 9C (the 6th card) may overcall as a pair
    seen = []
    while st.decision_name == "show":
        seen.append((st.current, legal(st)))
        st.apply("pass")
    assert seen[:5] == [(0, ["pass"]), (1, ["pass"]), (0, ["pass"]), (1, ["pass"]),
                        (0, ["pair 9C", "pass"])]
    assert len(seen) == 9 + 2  # the nine cards after the first, and a last chance each
    assert st.decision_name == "play" and st.trump_letter() == "H"


def test_after_the_last_card_each_player_in_turn_has_a_last_chance() -> None:
    st = game().new_state(deck=DECK)
    while st.decision_name == "show" and st.queue[0] != LAST:
        st.apply("pass")
    assert bin(st.hands[0] | st.hands[1]).count("1") == 10
    # every card dealt: seat 1 (dealt to first), then seat 0, may still show
    assert st.decision_name == "show" and st.current == 1 and legal(st) == ["declare 9H", "pass"]
    st.apply("pass")
    assert st.current == 0 and legal(st) == ["declare 9C", "pair 9C", "pass"]
    st.apply("pair 9C")
    assert st.decision_name == "play" and st.trump_letter() == "C"


def test_a_stronger_show_overcalls_through_the_variables() -> None:
    st = game().new_state(deck=DECK)
    st.apply("pass")  # seat 1, the 1st card
    assert st.current == 0 and legal(st) == ["pass"]  # the 2nd card, 7C
    st.apply("pass")
    assert st.current == 1  # the 3rd card
    st.apply("pass")
    assert st.current == 0 and legal(st) == ["declare 9C", "pass"]  # the 4th card
    st.apply("pass")
    st.apply("pass")  # seat 1, the 5th card
    assert st.current == 0 and legal(st) == ["declare 9C", "pair 9C", "pass"]  # the 6th
    st.apply("pair 9C")
    while st.decision_name == "show":  # the deal goes on: nothing overcalls a pair
        assert legal(st) == ["pass"]
        st.apply("pass")
    assert st.decision_name == "play" and st.trump_letter() == "C"
    assert st.var("shown") == 2 and st.var("caller") == 0
    assert st.view(1)["known_cards"] == [["9C", "9C"], []]


def test_a_player_with_nothing_to_show_is_asked_all_the_same() -> None:
    """Who is asked, and when, tells no seat what another holds: the seats to act run
    in the deal's order, card by card, whatever the cards."""
    def turns(deck: list[str]) -> list[int | None]:
        st = game().new_state(deck=deck)
        out = []
        while st.decision_name == "show":
            out.append(st.current)
            st.apply("pass")
        return out

    other = DECK[1:] + DECK[:1]  # the nines reach other seats at other moments
    assert turns(DECK) == turns(other) == turns(other[::-1]) == [1, 0] * 5 + [1, 0]


def test_a_refused_show_says_why() -> None:
    st = game().new_state(deck=DECK)
    with pytest.raises(IllegalActionError, match="show cards of your hand"):
        st.apply("declare 8C")
    st.apply("declare 9H")
    assert st.current == 0 and legal(st) == ["pass"]  # nothing stronger to show
    with pytest.raises(IllegalActionError, match="show cards of your hand"):
        st.apply("declare 7C")  # not a nine
    st.apply("pass")
    st.apply("pass")
    with pytest.raises(IllegalActionError, match="show cards of your hand"):
        st.apply("declare 9C")  # a single no longer overcalls


def test_a_show_replays_from_its_snapshot() -> None:
    g = game()
    st = g.new_state(deck=DECK)
    for a in ("pass", "pass", "pass", "pass", "pass", "pair 9C"):
        st.apply(a)
    assert g.restore(st.to_dict()) == st


def test_the_dsl_reads_and_writes_shows() -> None:
    tree = normalize(load_yaml(SPEC, "mini.yaml")[0])
    text = to_dsl(tree)
    assert "a player may show 1 copy of a card as declare when shown == 0" in text
    assert "a player may show 2 copies of a card as pair when" in text
    assert normalize(parse_dsl(text, "mini.spel")[0]) == tree
    prose = " ".join(describe(SPEC).split())
    assert "The cards are dealt one at a time; after each card" in prose


def test_a_deal_with_shows_deals_one_card_at_a_time() -> None:
    bad = SPEC.replace("      size: 5\n", "      size: 5\n      packets: [2, 3]\n")
    with pytest.raises(SpecError, match="one card at a time"):
        spelbok.load(bad)
    bad = SPEC.replace("          copies: 2\n", "          copies: 3\n")
    with pytest.raises(SpecError, match="the pack has 2 of each"):
        spelbok.load(bad)


def test_the_game_ai_action_space_numbers_the_shows() -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding, uncovered

    g = game()
    assert uncovered(g) is None
    enc = Encoding(g)
    assert "pass" in enc.labels and "declare 9H" in enc.labels and "pair 9C" in enc.labels


def test_the_tables_play_a_lone_pass_and_ask_only_real_choices(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal and browser tables do not ask a person to pass when pass is all he
    may do: the engine asks him (see above), the table answers for him."""
    from click.testing import CliRunner
    from spelbok.cli import play as cli_play
    from spelbok.cli.main import cli

    asked: list[tuple[int, list[str]]] = []

    def ask(state: Any, human: int, names: Any, style: Any) -> None:
        asked.append((len(state.actions), legal(state)))
        return None  # quit at the first question

    monkeypatch.setattr(cli_play, "_ask", ask)
    CliRunner().invoke(cli, ["play", "tractor", "--seed", "5", "--bots", "random"])
    assert len(asked) == 1 and asked[0][1] != ["pass"] and asked[0][0] > 0

    pytest.importorskip("starlette")
    from spelbok.web.sessions import Match

    g = spelbok.load("tractor")
    from spelbok.play.bots import make_bot

    for seed in (5, 6):
        m = Match(g, "tractor", seed, 0, {p: make_bot("random", seed=p) for p in (1, 2, 3)},
                  {})
        shows = 0
        for _ in range(400):
            st = m.state
            if st.decision_name != "show":
                break
            if st.current_player == 0:
                assert legal(st) != ["pass"]  # a real choice
                m.act("pass")
            else:
                seen = len(st.rec)
                m.advance()
                # the page waits on a bot only after a move it sees (a show), never on
                # a bot that happens to hold a card it may show
                if m.state.decision_name == "show" and m.state.current_player != 0:
                    assert len(st.rec) > seen and st.rec[-1]["event"] == "decision"
                    shows += 1
        assert m.state.decision_name != "show" and shows


def test_a_resumed_match_undoes_back_to_real_choices_only() -> None:
    """After a resume the terminal rebuilds its undo points from the history: the passes
    it played for the person are none of them."""
    from spelbok.engine.history import choices

    st = game().new_state(deck=DECK)
    real = []
    while st.decision_name == "show":
        if st.current == 0 and legal(st) != ["pass"]:
            real.append(len(st.actions))
        st.apply("pass")
    assert real and choices(st, 0) == real
    assert len([h for h in st.history if h.seat == 0]) > len(real)  # his 7C: no choice
