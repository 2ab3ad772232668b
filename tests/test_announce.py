"""Announcements at a player's turn in a trick, before his card (``tricks.announce``):
offered beside the cards, several in turn, with their assignments, the cards they
show, the steps others answer in, and the tricks they end; in the DSL, validate,
describe, the game-AI action space, and the shipped specs that use them."""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from spelbok.engine.tricks import CardPlay, TrickPlay
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.minispec import HEAD

VARS = "variables:\n  hand: {said: 0, ran: -1, asker: -1}\n  hand_player: {calls: 0}\n"
END = 'end: {when: "hand_number >= 3", winners: "tricks == max(tricks)"}\n'


def spec(announce: str, vars_: str = VARS) -> str:
    """A two-player spec with ``announce`` (YAML list items under the tricks step)."""
    head = HEAD.replace("hand:\n", vars_ + "hand:\n")
    return (head + "  - deal: {size: 3}\n  - tricks:\n      announce:\n" + announce
            + "  - set: {said: said}\n" + END)


HIGH = """        - word: high
          when: "calls == 0"
          then: {calls: "calls + 1", said: "said + 1"}
        - word: higher
          when: "calls == 1"
          then: {calls: "calls + 1", said: "said + 10"}
"""
SHOW = """        - word: show
          when: "tricks_played == 0"
          shows: cards_of(hand, 'H')
"""
ASK = """        - word: ask
          when: "said == 0"
          then: {said: "1", asker: seat}
          steps:
            - decide: answer
              who: each
              where: "seat != asker"
              choose: [yes, run]
              then: {ran: "if choice == 'run' then seat else -1"}
          ends_tricks: "ran >= 0"
"""
HANDS = {0: "AH KH 7C", 1: "AS KS 7D"}


def state(text: str, seed: int = 1) -> spelbok.State:
    game = spelbok.load(text, players=2)
    return game.new_state(seed=seed, position={"leader": 0, "trump": "none", "hands": HANDS})


def names(st: spelbok.State) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def test_an_announcement_is_offered_beside_the_cards_and_several_follow_in_turn() -> None:
    st = state(spec(HIGH))
    assert names(st) == ["7C", "KH", "AH", "high"]
    st.apply("high")
    # still his turn: the next step is offered, the first no longer
    assert st.current == 0 and names(st) == ["7C", "KH", "AH", "higher"]
    st.apply("higher")
    assert st.current == 0 and names(st) == ["7C", "KH", "AH"]
    assert st.var("said") == 11 and st.var("calls") == [2, 0]
    with pytest.raises(spelbok.IllegalActionError):
        st.apply("high")
    st.apply("KH")
    # the second player of the trick may announce before his card
    assert st.current == 1 and "high" in names(st)
    st.apply("high")
    assert st.current == 1 and st.var("said") == 12
    assert [d for d in st.view(1)["decisions"]][:2] == [[0, "high", "high"], [0, "higher", "higher"]]


def test_shown_cards_are_known_to_every_seat_until_played() -> None:
    st = state(spec(SHOW))
    st.apply("show")
    assert st.view(1)["known_cards"][0] == ["KH", "AH"]
    assert st.view(0)["known_cards"][0] == []  # his own hand he sees anyway
    st.apply("AH")
    assert st.view(1)["known_cards"][0] == ["KH"]


def test_steps_run_at_once_and_may_end_the_tricks() -> None:
    st = state(spec(ASK))
    st.apply("7C")
    st.apply("ask")  # seat 1 asks in the middle of the trick: seat 0 answers at once
    assert st.current == 0 and st.decision_name == "answer"
    st.apply("yes")
    assert st.current == 1 and st.decision_name == "play" and "ask" not in names(st)
    st = state(spec(ASK))
    st.apply("ask")
    assert st.current == 1 and st.decision_name == "answer"
    st.apply("run")  # the tricks end: the hand goes on past them, to the next hand
    assert st.hand_number == 2


def test_the_dsl_writes_and_reads_announcements() -> None:
    for text in (spec(HIGH), spec(SHOW), spec(ASK)):
        canonical = normalize(load_yaml(text, "a.yaml")[0])
        dsl = to_dsl(canonical)
        assert "announce " in dsl
        assert normalize(parse_dsl(dsl, "a.spel")[0]) == canonical
    dsl = to_dsl(normalize(load_yaml(spec(ASK), "a.yaml")[0]))
    assert "the tricks end if ran >= 0" in dsl and "after it:" in dsl
    assert "showing cards_of(hand, 'H')" in to_dsl(normalize(load_yaml(spec(SHOW), "a.yaml")[0]))


def error_of(text: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        spelbok.load(text, players=2)
    return info.value


def test_validate_locates_a_repeated_word_and_shows_that_are_no_cards() -> None:
    text = spec(HIGH.replace("word: higher", "word: high"))
    e = error_of(text)
    line = text.splitlines().index("        - word: high", 14) + 1
    assert e.line == line and "word of its own" in e.message
    text = spec(SHOW.replace("cards_of(hand, 'H')", "count(hand)"))
    e = error_of(text)
    assert "card set" in e.message
    assert e.line == next(i for i, s in enumerate(text.splitlines(), 1) if "shows:" in s)
    e = error_of(spec(HIGH.replace('"calls == 0"', '"calls == nobody"')))
    assert "nobody" in str(e)


def test_describe_says_who_may_announce_what() -> None:
    text = " ".join(describe(spec(ASK)).split())
    assert "before his card" in text and "may announce ask (write: ask)" in text
    assert "After ask is announced:" in text and "the tricks end at once" in text
    assert "it shows `cards_of(hand, 'H')` to every player" in " ".join(
        describe(spec(SHOW)).split())


def test_the_action_space_numbers_announcements_beside_the_cards() -> None:
    pytest.importorskip("numpy")  # the rl extra
    from spelbok.rl.encoding import Encoding, Match

    game = spelbok.load(spec(HIGH), players=2)
    enc = Encoding(game)
    assert "high" in enc.labels and "higher" in enc.labels
    m = Match(enc, game.new_state(seed=1, position={"leader": 0, "trump": "none",
                                                   "hands": HANDS}))
    legal = [enc.labels[i] for i in m.legal()]
    assert "high" in legal and "AH" in legal
    m.apply(enc.labels.index("high"))
    assert "higher" in [enc.labels[i] for i in m.legal()]


def test_a_spec_without_announcements_pays_nothing() -> None:
    plain = spelbok.load(HEAD + "  - deal: {size: 3}\n  - tricks: {}\n" + END, players=2)
    assert any(type(i) is TrickPlay for i in plain.program.code)
    used = spelbok.load(spec(HIGH), players=2)
    assert any(isinstance(i, CardPlay) and i.calls for i in used.program.code)


def test_bots_play_whole_matches_with_announcements() -> None:
    from spelbok.analysis.conformance import check_game

    for text in (spec(HIGH), spec(SHOW), spec(ASK)):
        rep = check_game(spelbok.load(text, players=2), matches=10, seed=3)
        assert rep.ok, rep.failures


# -- the shipped specs -------------------------------------------------------------


def test_truco_is_called_by_the_second_player_of_a_trick() -> None:
    game = spelbok.load("truco-mineiro")
    st = game.new_state(seed=5)
    first = st.current
    st.apply(next(a for a in st.legal_actions() if str(a) != "truco"))
    assert st.current != first and "truco" in names(st)
    st.apply("truco")
    assert st.decision_name == "answer"
    st.apply("run")
    assert st.hand_number == 2  # running ends the hand at once, mid-trick


def test_doppelkopf_announces_re_and_no90_at_one_turn() -> None:
    game = spelbok.load("doppelkopf")
    st = game.new_state(seed=1)
    while st.decision_name != "play":
        st.apply(st.legal_actions()[0])
    said = [w for w in ("re", "kontra") if w in names(st)]
    assert said
    st.apply(said[0])
    assert st.decision_name == "play" and "no90" in names(st)


def test_a_tarot_handful_shows_its_trumps() -> None:
    game = spelbok.load("french-tarot", players=4)
    st = game.new_state(seed=1, position={
        "phase": "tricks",
        "hands": {3: "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12",
                  2: "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
                  1: "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H",
                  0: "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D"}})
    assert st.current == 3 and "handful" in names(st)  # the play turns to the right
    st.apply("handful")
    for k in range(21, 11, -1):  # he shows as many trumps as the handful needs, one at a time
        st.apply(f"show T{k}")
    assert len(st.view(2)["known_cards"][3]) == 10


def test_the_table_and_the_terminal_offer_announcements_beside_the_hand() -> None:
    pytest.importorskip("jinja2")
    from spelbok.cli.prompt import _menu
    from spelbok.web.tableview import table

    st = state(spec(SHOW + HIGH))
    assert [str(a) for a in _menu(st.legal_actions(), st.game, None)][-2:] == ["show", "high"]
    t = table(st, 0, ["S", "N"], to_act=True, log_viewer=0)
    assert [b["text"] for b in t["actions"]] == ["show", "high"]
    st.apply("show")
    seen = table(st, 1, ["S", "N"], to_act=False, log_viewer=1)
    assert sorted(c["name"] for c in seen["shown"][0]) == ["AH", "KH"]
    assert any("show showing" in line for line in seen["log"])


def test_validate_warns_of_an_announcement_offered_without_end(tmp_path: Any) -> None:
    from spelbok.validation import diagnose

    path = tmp_path / "a.yaml"
    path.write_text(spec(HIGH.replace('          when: "calls == 0"\n', "")), encoding="utf-8")
    errors, warnings = diagnose(path)
    assert errors == []
    assert [(w.line, "without end" in w.message) for w in warnings] == [(14, True)]
    path.write_text(spec(HIGH), encoding="utf-8")
    assert diagnose(path) == ([], [])
