"""A card laid aside face down, seen by its owner only, and taken back into his hand
face up at a later turn (``move`` from ``laid_aside``, ``face_up``): the concealed
trump of the Indian point-trick games, written with general constructs.

Each test fails without its construct: the zone ``laid_aside`` (the seat's own cards
laid away, not the whole discard pile), ``face_up`` (every seat then knows the card
is in that hand), and their checks in ``validate``.
"""

from __future__ import annotations

import random

import pytest
import spelbok
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl

from tests.minispec import mini

# seat 0 lays one card aside; seat 1 lays one aside too; seat 0 takes his back face up
ASIDE = mini(
    "  - deal: {size: 5}\n"
    "  - decide: aside\n"
    "    who: each\n"
    "    choose: exchange\n"
    "    exchange: {draw_from: none, min: 1, max: 1}\n"
    "  - move: {from: laid_aside, to: hand, face_up: true}\n"
    "    for: \"seat == 0\"\n"
    "  - tricks: {}\n")


def _laid(st: spelbok.State) -> dict[int, str]:
    """Each seat lays aside its first card; which card each laid."""
    laid = {}
    while st.decision_name == "aside":
        seat = st.current
        action = next(a for a in st.legal_actions() if len(str(a).split()) == 2)
        laid[seat] = str(action).split()[1]
        st.apply(action)
    return laid


def test_a_laid_aside_card_is_seen_by_its_owner_alone_until_taken_back_face_up() -> None:
    game = spelbok.load(ASIDE, players=2)
    st = game.new_state(seed=4)
    first = st.current
    action = next(a for a in st.legal_actions() if len(str(a).split()) == 2)
    card = str(action).split()[1]
    st.apply(action)
    other = 1 - first
    assert card in st.view(first)["own_discards"]
    assert card not in str(st.view(other)["hand"]) and st.view(other)["discards"] == 1
    laid = {first: card, **_laid(st)}
    # seat 0 has his card back, known to seat 1; seat 1's stays aside, his alone
    assert laid[0] in st.view(0)["hand"] and laid[0] in st.view(1)["known_cards"][0]
    assert st.view(1)["own_discards"] == [laid[1]] and st.view(0)["own_discards"] == []
    assert st.view(0)["discards"] == 1
    for k in range(5):  # a bot of seat 1 keeps seat 0's card in seat 0's hand
        sample = st.determinize(1, random.Random(k))
        assert laid[0] in sample.view(0)["hand"]
        assert sample.view(1)["own_discards"] == [laid[1]]


def test_without_face_up_the_card_goes_back_unseen() -> None:
    game = spelbok.load(ASIDE.replace(", face_up: true", ""), players=2)
    st = game.new_state(seed=4)
    laid = _laid(st)
    assert laid[0] in st.view(0)["hand"] and laid[0] not in st.view(1)["known_cards"][0]


def test_the_transcript_says_the_card_is_taken_back_and_names_it() -> None:
    game = spelbok.load(ASIDE, players=2)
    st = game.new_state(seed=4, record=True)
    laid = _laid(st)
    moves = [e for e in st.log if e["event"] == "move"]
    assert moves and moves[-1]["source"] == "laid_aside" and moves[-1]["shown"] == [laid[0]]


def test_a_move_of_laid_aside_cards_needs_whose() -> None:
    with pytest.raises(SpecError, match="laid-aside"):
        spelbok.load(ASIDE.replace('    for: "seat == 0"\n', ""), players=2)


def test_face_up_is_a_condition() -> None:
    with pytest.raises(SpecError):
        spelbok.load(ASIDE.replace("face_up: true", "face_up: sideways"), players=2)


def test_the_dsl_says_it_and_reads_it_back() -> None:
    tree = spelbok.load(ASIDE, players=2).tree
    text = to_dsl(tree)
    assert "from zone laid_aside to the hand of each player where seat == 0, face up" in text
    back = parse_dsl(text, "mini.spel")[0]["hand"][2]
    assert back["move"] == tree["hand"][2]["move"] and back["for"] == "seat == 0"


# ---------------------------------------------------------------------------------------
# a trump concealed by seat 0, named when a void player calls for it (or seat 0 himself,
# void, or with an empty hand: aside_turn keeps him in the tricks)
CONCEALED = """spelbok: 1
name: Mini
players: {min: 2, max: 4}
deck:
  - players: [2, 4]
    ranks: [A, K, Q, J, 10, 9, 8, 7]
variables:
  hand_player: {asked: 0}
hand:
  - deal: {size: 5}
  - decide: aside
    where: "seat == 0"
    choose: exchange
    exchange: {draw_from: none, min: 1, max: 1}
  - tricks:
      aside_turn: true
      new_trump: later
      announce:
        - word: reveal
          when: >-
            trump == 'none' and any(count(discarded) > 0) and (cards == 0 or
            led_suit != 'none' and count(cards_of(hand, led_suit)) == 0)
          then: {asked: trick_number}
          steps:
            - set: {trump: "suit_of(highest(discarded))"}
              for: "count(discarded) > 0"
            - move: {from: laid_aside, to: hand, face_up: true}
              for: "count(discarded) > 0"
      allow: "asked != trick_number or card_is_trump"
      reason: "having called for the trump, play a trump"
end: {when: "hand_number >= 3", winners: "tricks == max(tricks)"}
"""


def _tricks(text: str, players: int, seeds: range) -> list[tuple[list[tuple[int, str]], int, int]]:
    """Random matches: each trick's cards, its winner, and how many of its cards were
    played before a trump was named in it (-1: none was)."""
    game = spelbok.load(text, players=players)
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        st = game.new_state(seed=seed, record=True)
        named_at = -1
        while not st.is_terminal:
            before = len(st.trick.cards)
            seen = len(st.log)
            st.apply(rng.choice(st.legal_actions()))
            for e in st.log[seen:]:
                if e["event"] == "trump" and before:
                    named_at = before
                if e["event"] == "trick":
                    out.append(([(p, c) for p, c in e["cards"]], e["winner"], named_at))
                    named_at = -1
    return out


def _hand_without_calls(text: str) -> tuple[list[int], list[dict]]:
    """One hand at four in which nobody calls for the trump unless he must: each
    trick's number of cards, and the reveals."""
    st = spelbok.load(text, players=4).new_state(seed=1, record=True)
    rng = random.Random(1)
    while not st.is_terminal and st.hand_number == 1:
        legal = st.legal_actions()
        cards = [a for a in legal if str(a) != "reveal"]
        st.apply(rng.choice(cards or legal))
    return ([len(e["cards"]) for e in st.log if e["event"] == "trick"][:5],
            [e for e in st.log if e["event"] == "decision" and e.get("decision") == "reveal"])


def test_the_owner_keeps_his_turn_with_an_empty_hand_and_must_take_his_card_back() -> None:
    sizes, reveals = _hand_without_calls(CONCEALED)
    assert sizes == [4] * 5 and [e["seat"] for e in reveals] == [0]
    sizes, reveals = _hand_without_calls(CONCEALED.replace("      aside_turn: true\n", ""))
    assert sizes[-1] == 3 and not reveals  # without it he is skipped: his card is lost


def test_at_his_turn_with_an_empty_hand_he_may_only_reveal() -> None:
    game = spelbok.load(CONCEALED, players=2)
    rng = random.Random(5)
    st = game.new_state(seed=5)
    while not st.is_terminal:
        if st.current == 0 and not st.view(0)["hand"] and st.view(0)["own_discards"]:
            assert [str(a) for a in st.legal_actions()] == ["reveal"]
            return
        st.apply(rng.choice(st.legal_actions()))
    pytest.fail("no turn with an empty hand and a card aside")


def test_later_a_trump_suit_card_played_before_the_reveal_is_no_trump() -> None:
    later = whole = 0
    for text in (CONCEALED, CONCEALED.replace("new_trump: later", "new_trump: whole_trick")):
        for cards, winner, at in _tricks(text, 4, range(40)):
            if at <= 0:
                continue
            led = cards[0][1][-1]
            trump = next(c for _p, c in cards[at:] if c[-1] != led)[-1] \
                if any(c[-1] != led for _p, c in cards[at:]) else None
            early = [p for p, c in cards[1:at] if trump and c[-1] == trump != led]
            if not early:
                continue
            if "whole_trick" in text:
                whole += winner in early
            else:
                assert winner not in early or any(
                    p == winner and c[-1] == trump for p, c in cards[at:])
                later += 1
    assert later and whole  # both readings met the case; the whole trick's let one win


def test_the_running_winner_is_the_one_rule_under_both_readings() -> None:
    from tests.test_trick_value import check_match  # noqa: PLC0415

    for text in (CONCEALED, CONCEALED.replace("new_trump: later", "new_trump: whole_trick")):
        game = spelbok.load(text, players=4)
        for seed in range(8):
            checked, failures = check_match(game, seed)
            assert checked and not failures, failures


def test_aside_turn_needs_an_announcement_and_new_trump_its_words() -> None:
    text = CONCEALED.replace("      announce:\n", "      announce_x:\n")
    with pytest.raises(SpecError):
        spelbok.load(text, players=2)
    bare = CONCEALED.split("      announce:\n")[0] + 'end: {when: "hand_number >= 3", ' \
        'winners: "tricks == max(tricks)"}\n'
    with pytest.raises(SpecError, match="announce"):
        spelbok.load(bare, players=2)
    with pytest.raises(SpecError):
        spelbok.load(CONCEALED.replace("new_trump: later", "new_trump: sometimes"), players=2)


def test_the_dsl_and_describe_say_both_rules() -> None:
    tree = spelbok.load(CONCEALED, players=2).tree
    text = to_dsl(tree)
    assert "a player with cards laid aside keeps his turn" in text
    back = parse_dsl(text, "mini.spel")[0]["hand"][2]["tricks"]
    assert back["aside_turn"] is True and back.get("new_trump", "later") == "later"
    whole = to_dsl(spelbok.load(CONCEALED.replace("new_trump: later", "new_trump: whole_trick"),
                                players=2).tree)
    assert "counts for the whole trick" in whole
    prose = " ".join(describe(spelbok.load(CONCEALED, players=2).doc).split())
    assert "keeps his turn while he has cards laid aside" in prose
    whole_prose = " ".join(describe(spelbok.load(
        CONCEALED.replace("new_trump: later", "new_trump: whole_trick"), players=2).doc).split())
    assert "counts for the whole trick, the cards already played too" in whole_prose


def _at_first_trick(players: int = 4) -> spelbok.State:
    st = spelbok.load(CONCEALED, players=players).new_state(seed=3, record=True)
    rng = random.Random(3)
    while st.decision_name == "aside":
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_the_terminal_shows_the_card_face_down_to_its_owner_and_a_count_to_the_others() -> None:
    from spelbok.view.panel import panel  # noqa: PLC0415
    from spelbok.view.text import card  # noqa: PLC0415

    st = _at_first_trick()
    laid = st.view(0)["own_discards"]
    names = ["P0", "P1", "P2", "P3"]
    mine = "\n".join(panel(st, 0, names))
    assert f"laid aside {card(laid[0])} (face down)" in mine
    theirs = "\n".join(panel(st, 1, names))
    assert "face down  P0 1 card" in theirs and card(laid[0]) not in theirs.split("your hand")[0]
    assert "laid aside" not in theirs


def test_the_browser_table_shows_the_card_face_down_and_the_reveal() -> None:
    tableview = pytest.importorskip("spelbok.web.tableview")
    st = _at_first_trick()
    laid = st.view(0)["own_discards"]
    owner = tableview.table(st, 0, ["a", "b", "c", "d"], to_act=False, log_viewer=0)
    other = tableview.table(st, 1, ["a", "b", "c", "d"], to_act=False, log_viewer=1)
    assert owner["aside_sizes"] == other["aside_sizes"] == [1, 0, 0, 0]
    assert [c["name"] for c in owner["own_aside"]] == laid and other["own_aside"] == []
    assert other["trump"] is None  # no suit is trump until it is called for
    rng = random.Random(3)
    while st.view(1)["trump"] is None and not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    other = tableview.table(st, 1, ["a", "b", "c", "d"], to_act=False, log_viewer=1)
    assert other["aside_sizes"] == [0, 0, 0, 0] and other["trump"] is not None
    assert laid[0] in [c["name"] for c in other["shown"][0]] or laid[0] in str(other["trick"])


def test_other_seats_observe_no_trump_and_sample_the_concealed_card() -> None:
    st = _at_first_trick()
    laid = st.view(0)["own_discards"]
    assert st.view(1)["trump"] is None and st.view(1)["discards"] == 1
    seen = set()
    for k in range(12):
        sample = st.determinize(1, random.Random(k))
        assert len(sample.view(0)["own_discards"]) == 1  # one card aside, re-dealt
        seen.add(sample.view(0)["own_discards"][0])
        assert sample.view(1)["hand"] == st.view(1)["hand"]
    assert seen != {laid[0]}  # the bots of other seats do not read the real card


def test_the_observation_of_the_owner_holds_the_card_and_the_others_do_not() -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding, Match  # noqa: PLC0415

    st = _at_first_trick()
    game = spelbok.load(CONCEALED, players=4)
    enc = Encoding(game)
    laid = st.prog.pack.parse_card(st.view(0)["own_discards"][0])
    at = enc.planes.index("own_discards") * enc.num_cards + enc.card_index[laid]
    match = Match(enc, st)
    assert match.observation(0)[at] == 1
    assert all(match.observation(p)[at] == 0 for p in (1, 2, 3))
    assert "reveal" in enc.labels  # the call for the trump: a numbered word action
