"""Card-play mechanics inside the trick: trump named by a played card, free and losing
cards, face-down plays, declarations attached to a card play."""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.cards import card_id
from spelbok.engine.tricks import CardPlay, TrickPlay
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.minispec import mini


def state(spec: str, position: dict[str, Any] | None = None, players: int = 2,
          seed: int = 1) -> spelbok.State:
    return spelbok.load(spec, players=players).new_state(seed=seed, position=position)


def error_of(spec: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        spelbok.load(spec, players=2)
    return info.value


def roundtrip(spec: str) -> None:
    """YAML -> DSL -> YAML gives the same canonical tree."""
    canonical = normalize(load_yaml(spec, "mini.yaml")[0])
    assert normalize(parse_dsl(to_dsl(canonical), "mini.spel")[0]) == canonical


def tricks(body: str) -> str:
    return mini("  - deal: {size: 3}\n  - tricks: {" + body + "}\n")


# -- trump named by a played card (tricks.trump_from, trump_by) ----------------------

FIRST_LEAD = tricks("trump_from: first_lead")
BY_SECOND = tricks('trump_from: first_lead, trump_by: "seat == 1"')


def test_the_first_card_led_names_trump_at_once() -> None:
    st = state(FIRST_LEAD, {"trump": "none", "leader": 0,
                            "hands": {0: "8H 7C KD", 1: "AD 7H QC"}})
    assert st.trump_letter() == "none"
    st.apply("8H")
    assert st.trump_letter() == "H"
    assert [str(a) for a in st.legal_actions()] == ["7H"]  # the led suit, now trump
    st.apply("7H")
    st.apply("KD")  # seat 0 won; a later lead does not name trump again
    assert st.trump_letter() == "H"


def test_a_card_of_the_named_trump_wins_a_later_trick() -> None:
    st = state(FIRST_LEAD, {"trump": "none", "leader": 0,
                            "hands": {0: "8H AC KC", 1: "AH 7H QD"}})
    st.apply("8H")
    st.apply("AH")  # seat 1 wins and leads
    st.apply("QD")
    st.apply("AC")  # void in diamonds, and clubs are not trump: seat 1 wins
    assert st.won == [0, 2]


def test_trump_by_names_whose_lead_counts() -> None:
    st = state(BY_SECOND, {"trump": "none", "leader": 0,
                           "hands": {0: "7H AC KD", 1: "AH 9C QD"}})
    st.apply("7H")  # seat 0 leads: not the player trump_by admits
    assert st.trump_letter() == "none"
    st.apply("AH")
    st.apply("9C")  # seat 1 leads clubs: trump
    assert st.trump_letter() == "C"
    # by trick: the second trick's lead names trump, whoever leads it
    spec = tricks('trump_from: first_lead, trump_by: "trick_number == 2"')
    st = state(spec, {"trump": "none", "leader": 0, "hands": {0: "7H AC KD", 1: "AH 9C QD"}})
    st.apply("7H")
    st.apply("AH")
    assert st.trump_letter() == "none"
    st.apply("QD")
    assert st.trump_letter() == "D"


def test_a_trump_already_set_is_kept() -> None:
    st = state(FIRST_LEAD, {"trump": "S", "leader": 0, "hands": {0: "8H 7C KD", 1: "AD 7H QC"}})
    st.apply("8H")
    assert st.trump_letter() == "S"


def test_the_event_log_says_which_lead_named_trump() -> None:
    game = spelbok.load(FIRST_LEAD, players=2)
    st = game.new_state(seed=1, record=True,
                        position={"trump": "none", "leader": 0,
                                  "hands": {0: "8H 7C KD", 1: "AD 7H QC"}})
    st.apply("8H")
    assert {"event": "trump", "trump": "H", "chosen_by": 0, "card": "8H"} in st.log


TURNED = mini("  - deal: {size: 3}\n  - turn_up: {from: dealer}\n  - tricks: {}\n")


def test_a_card_turned_from_the_dealer_s_hand_names_trump_and_stays_there() -> None:
    game = spelbok.load(TURNED, players=2)
    for seed in range(6):
        st = game.new_state(seed=seed, dealer=0, record=True)
        dealer = st.dealer
        turned = next(e for e in st.log if e["event"] == "turn_up")
        c = card_id(turned["card"])
        assert (st.hands[dealer] >> c) & 1 and st.known[dealer] == 1 << c
        assert st.trump_letter() == turned["card"][-1] and st.turn_up == []
        assert st.view(1 - dealer)["known_cards"][dealer] == [turned["card"]]
        assert len(st.stock) == 32 - 6  # the stock gives no card
    no_trump = spelbok.load(TURNED.replace("{from: dealer}", "{from: dealer, trump: false}"),
                            players=2).new_state(seed=1)
    assert no_trump.trump_letter() == "none" and no_trump.known[no_trump.dealer]


def test_turn_up_from_round_trips_and_is_described() -> None:
    roundtrip(TURNED)
    text = to_dsl(normalize(load_yaml(TURNED, "mini.yaml")[0]))
    assert "turn up a card from the hand of the dealer for trump" in text
    prose = " ".join(describe(TURNED).split())
    assert "Turn up the last card dealt to the dealer" in prose
    e = error_of(TURNED.replace("from: dealer", "from: forehand"))
    assert e.line == 9 and "dealer" in str(e)
    game = spelbok.load(TURNED.replace("size: 3", "size: 8"), players=3, max_hands=4)
    rep = check_game(game, matches=20, seed=2)
    assert rep.ok, rep.failures


def test_a_spec_without_trump_from_compiles_to_the_plain_trick_play() -> None:
    plain = spelbok.load(tricks(""), players=2).program.code
    assert [type(i) for i in plain if isinstance(i, TrickPlay)] == [TrickPlay]
    named = spelbok.load(FIRST_LEAD, players=2).program.code
    assert [type(i) for i in named if isinstance(i, TrickPlay)] == [CardPlay]


def test_trump_from_errors_are_located() -> None:
    e = error_of(tricks('trump_by: "seat == 1"'))
    assert (e.line, "trump_by") == (9, "trump_by") and "no 'trump_from'" in e.message
    assert "trump_from: first_lead" in (e.hint or "")
    e = error_of(tricks("trump_from: first_card"))
    assert e.line == 9 and "first_lead" in str(e)
    e = error_of(tricks('trump_from: first_lead, trump_by: "seat == nobody"'))
    assert e.line == 9 and "nobody" in str(e)


def test_trump_from_round_trips_and_is_described() -> None:
    roundtrip(FIRST_LEAD)
    roundtrip(BY_SECOND)
    text = to_dsl(normalize(load_yaml(BY_SECOND, "mini.yaml")[0]))
    assert "the first card led names trump, when led by a player where seat == 1" in text
    prose = " ".join(describe(BY_SECOND).split())
    assert "the first card led by a player where `seat == 1` names trump" in prose


def test_trump_from_keeps_every_invariant() -> None:
    for spec in (FIRST_LEAD, BY_SECOND):
        game = spelbok.load(spec.replace("size: 3", "size: 8"), players=3, max_hands=4)
        rep = check_game(game, matches=20, seed=5)
        assert rep.ok, rep.failures


# -- special cards (ranking.free_cards, losing_cards) ---------------------------------

def special(ranking: str, body: str = "") -> str:
    return tricks(body).replace("hand:\n", "ranking: {" + ranking + "}\nhand:\n", 1)


EXCUSE = special("free_cards: [7S], losing_cards: [7S]")


def test_a_free_card_may_always_be_played() -> None:
    st = state(special("free_cards: [7S]"), {"trump": "none", "leader": 0,
                                             "hands": {0: "8H 7C KD", 1: "AH 7S QC"}})
    st.apply("8H")
    assert sorted(str(a) for a in st.legal_actions()) == ["7S", "AH"]  # follow, or the free card
    st.apply("7S")  # it keeps its suit and power: here it simply loses
    assert st.won == [1, 0]
    # allow refuses it no more than the duties do
    spec = special("free_cards: [7S]", 'allow: "card_rank != \'7\'"')
    st = state(spec, {"trump": "none", "leader": 0, "hands": {0: "7H 7C KD", 1: "AH 7S QC"}})
    assert sorted(str(a) for a in st.legal_actions()) == ["KD"]  # 7S is not seat 0's
    st.apply("KD")
    assert sorted(str(a) for a in st.legal_actions()) == ["7S", "AH", "QC"]


def test_a_losing_card_never_wins_and_belongs_to_no_suit() -> None:
    # a losing trump: trumps are spades, but 7S neither wins nor counts as a spade
    spec = special("losing_cards: [7S]", "void_trump: true")
    st = state(spec, {"trump": "S", "leader": 0, "hands": {0: "8H 9C KD", 1: "7S 9S QC"}})
    st.apply("8H")
    assert sorted(str(a) for a in st.legal_actions()) == ["9S"]  # void: must trump (7S is none)
    st = state(spec, {"trump": "S", "leader": 0, "hands": {0: "8S 9C KD", 1: "7S AH QC"}})
    st.apply("8S")
    assert sorted(str(a) for a in st.legal_actions()) == ["7S", "AH", "QC"]  # void in spades
    st.apply("7S")
    assert st.won == [1, 0]
    assert st.voids[1] == 0  # playing it shows no void


def test_a_losing_card_led_leaves_the_suit_to_the_next_card() -> None:
    st = state(EXCUSE, {"trump": "none", "leader": 0, "hands": {0: "7S 9C KD", 1: "8H AS QC"}})
    st.apply("7S")
    assert sorted(str(a) for a in st.legal_actions()) == ["8H", "AS", "QC"]
    st.apply("8H")
    assert st.won == [0, 1]  # the second card named the suit and won
    assert st.history_tricks[-1][1] == ((0, card_id("7S")), (1, card_id("8H")))


def test_the_excuse_is_always_playable_and_never_wins() -> None:
    st = state(EXCUSE, {"trump": "H", "leader": 0, "hands": {0: "8C 9C KD", 1: "7S AC QC"}})
    st.apply("8C")
    assert sorted(str(a) for a in st.legal_actions()) == ["7S", "AC", "QC"]
    st.apply("7S")
    assert st.won == [1, 0]


def test_a_spec_without_special_cards_keeps_the_plain_tables() -> None:
    plain = spelbok.load(tricks(""), players=2).program
    stripped = spelbok.load(special("losing_cards: [7S]"), players=2).program
    c = card_id("7S")
    assert plain.tables[1].trump[c] and plain.tables[1].power[c] > 100
    assert not stripped.tables[1].trump[c] and stripped.tables[1].power[c] == 0
    assert not any((m >> c) & 1 for m in stripped.tables[1].suit_mask)
    assert plain.tables[1].power[card_id("8S")] == stripped.tables[1].power[card_id("8S")]
    assert type(next(i for i in plain.code if isinstance(i, TrickPlay))) is TrickPlay
    assert type(next(i for i in stripped.code if isinstance(i, TrickPlay))) is CardPlay


def test_special_cards_errors_are_located() -> None:
    e = error_of(special("free_cards: [2S]"))
    assert e.line == 7 and "not in the deck" in e.message
    e = error_of(special("losing_cards: [7S, 7S]"))
    assert e.line == 7 and "twice" in e.message


def test_special_cards_round_trip_and_are_described() -> None:
    roundtrip(EXCUSE)
    text = to_dsl(normalize(load_yaml(EXCUSE, "mini.yaml")[0]))
    assert "cards that may always be played: 7♠" in text and "cards that never win: 7♠" in text
    prose = " ".join(describe(EXCUSE).split())
    assert "7♠ may always be played" in prose and "7♠ never wins a trick: it belongs to no suit" in prose


def test_special_cards_keep_every_invariant() -> None:
    spec = EXCUSE.replace("size: 3", "size: 8")
    for body in ("", "void_trump: true, head: true", "trump_from: first_lead"):
        game = spelbok.load(spec.replace("tricks: {}", "tricks: {" + body + "}"), players=3,
                            max_hands=4)
        rep = check_game(game, matches=20, seed=7)
        assert rep.ok, rep.failures


# -- face-down plays (tricks.face_down, face_down_word, face_down_as, face_down_shown) -

VOID = "led_suit != 'none' and count(cards_of(hand, led_suit)) == 0"
DOWN = tricks(f'face_down: "{VOID}"')


def test_a_void_player_may_play_a_card_face_down_as_the_lowest_trump() -> None:
    st = state(DOWN, {"trump": "S", "leader": 0, "hands": {0: "8H 9C KD", 1: "7C AC QD"}})
    assert all(a.kind == 0 for a in st.legal_actions())  # leading: no face-down play
    st.apply("8H")
    assert sorted(str(a) for a in st.legal_actions()) == [
        "7C", "AC", "QD", "down 7C", "down AC", "down QD"]
    st.apply("down 7C")  # the lowest trump: it beats the heart
    assert st.won == [0, 1]
    assert st.voids[1] == 0
    # any other trump beats it
    st = state(DOWN, {"trump": "S", "leader": 0, "hands": {0: "7S 9C 8H", 1: "7C AC QD"}})
    st.apply("7S")
    st.apply("down QD")
    assert st.won == [1, 0]


def test_a_face_down_card_is_hidden_from_the_other_seats_until_its_trick_ends() -> None:
    spec = DOWN
    st = state(spec, {"trump": "S", "leader": 0,
                      "hands": {0: "8H 9C KD", 1: "7C AC QD", 2: "9H 10C JD"}}, players=3)
    st.apply("8H")
    st.apply("down QD")
    assert st.view(1)["trick"] == [[0, "8H"], [1, "QD"]]
    assert st.view(0)["trick"] == [[0, "8H"], [1, "?"]]
    assert "QD" not in st.information_state(2)
    st.apply("9H")  # the trick ends: the card is shown
    assert st.view(0)["tricks_played"][0][1] == [[0, "8H"], [1, "QD"], [2, "9H"]]
    # or it stays hidden for the rest of the hand
    hidden = spec.replace("face_down:", "face_down_shown: false, face_down:")
    st = state(hidden, {"trump": "S", "leader": 0,
                        "hands": {0: "8H 9C KD", 1: "7C AC QD", 2: "9H 10C JD"}}, players=3)
    st.apply("8H")
    st.apply("down QD")
    st.apply("9H")
    assert st.view(2)["tricks_played"][0][1] == [[0, "8H"], [1, "?"], [2, "9H"]]
    assert st.view(1)["tricks_played"][0][1][1] == [1, "QD"]


def test_a_sample_of_another_seat_re_deals_the_face_down_cards_it_has_not_seen() -> None:
    import random

    from spelbok.analysis.conformance import check_cards

    st = state(DOWN, {"trump": "S", "leader": 0,
                      "hands": {0: "8H 9C KD", 1: "7C AC QD", 2: "9H 10C JD"}}, players=3)
    st.apply("8H")
    st.apply("down QD")
    seen = set()
    for k in range(12):
        sample = st.determinize(0, random.Random(k))
        assert check_cards(sample) is None
        played = sample.trick.cards[1][1]
        assert (sample.hidden >> played) & 1 and not (sample.hands[1] >> played) & 1
        seen.add(played)
        assert st.determinize(1, random.Random(k)).trick.cards[1] == (1, card_id("QD"))  # his own
    assert len(seen) > 1
    assert st.trick.cards[1] == (1, card_id("QD"))  # the real state is untouched
    plain = state(DOWN, {"trump": "S", "leader": 0,
                         "hands": {0: "8H 9C KD", 1: "7C AC QD", 2: "9H 10C JD"}}, players=3)
    plain.apply("8H")
    plain.apply("QD")  # played face up: a sample keeps it
    assert plain.determinize(0, random.Random(1)).trick.cards[1] == (1, card_id("QD"))


def test_the_log_records_a_face_down_play() -> None:
    game = spelbok.load(DOWN, players=2)
    st = game.new_state(seed=1, record=True, position={
        "trump": "S", "leader": 0, "hands": {0: "8H 9C KD", 1: "7C AC QD"}})
    st.apply("8H")
    st.apply("down QD")
    assert {"event": "face_down", "seat": 1, "card": "QD"} in st.log


def test_a_face_down_card_of_no_suit_never_wins() -> None:
    spec = tricks('face_down: "true", face_down_as: no_suit, face_down_word: hide')
    st = state(spec, {"trump": "S", "leader": 0, "hands": {0: "8H 9C KD", 1: "7C AC QD"}})
    st.apply("hide 8H")  # led face down: the next card names the suit
    assert st.trick.led == -1
    st.apply("7C")
    assert st.won == [0, 1]
    with pytest.raises(spelbok.IllegalActionError):
        st.clone().apply("down 9C")  # not this spec's word
    # a trick of face-down cards only goes to its leader
    st = state(spec, {"trump": "S", "leader": 1, "hands": {0: "8H 9C KD", 1: "7C AC QD"}})
    st.apply("hide 7C")
    st.apply("hide 8H")
    assert st.won == [0, 1]
    # without a trump the lowest trump is of no suit too
    st = state(DOWN, {"trump": "none", "leader": 0, "hands": {0: "8H 9C KD", 1: "7C AC QD"}})
    st.apply("8H")
    st.apply("down AC")
    assert st.won == [1, 0]


def test_a_face_down_play_is_refused_when_the_rule_says_no() -> None:
    st = state(DOWN, {"trump": "S", "leader": 0, "hands": {0: "8H 9C KD", 1: "7H AC QD"}})
    st.apply("8H")
    with pytest.raises(spelbok.IllegalActionError, match="face down"):
        st.clone().apply("down AC")  # seat 1 holds a heart
    with pytest.raises(spelbok.IllegalActionError, match="one card"):
        st.clone().apply("down AC QD")


def test_face_down_errors_are_located() -> None:
    e = error_of(tricks("face_down_as: no_suit"))
    assert e.line == 9 and "no 'face_down'" in e.message
    e = error_of(tricks('face_down: "true", face_down_as: lowest'))
    assert e.line == 9 and "lowest_trump" in str(e)
    e = error_of(tricks('face_down: "true", abstain: "true", face_down_word: knock'))
    assert e.line == 9 and "knocking" in e.message
    e = error_of(tricks('face_down: "led_card == 1"'))
    assert e.line == 9


def test_face_down_round_trips_and_is_described() -> None:
    spec = tricks(f'face_down: "{VOID}", face_down_word: hide, face_down_as: no_suit, '
                  'face_down_shown: false')
    roundtrip(DOWN)
    roundtrip(spec)
    text = to_dsl(normalize(load_yaml(spec, "mini.yaml")[0]))
    assert f"cards may be played face down, written hide if {VOID}" in text
    assert "a face-down card counts as no suit" in text and "stays hidden" in text
    prose = " ".join(describe(spec).split())
    assert "may play a card face down (write: hide 7H); it counts as a card of no suit" in prose
    assert "it stays hidden from the others" in prose


def test_face_down_keeps_every_invariant() -> None:
    for body in (f'face_down: "{VOID}"', 'face_down: "true", face_down_shown: false',
                 'face_down: "true", face_down_as: no_suit'):
        game = spelbok.load(tricks(body).replace("size: 3", "size: 8"), players=3, max_hands=4)
        rep = check_game(game, matches=20, seed=3)
        assert rep.ok, rep.failures


# -- declarations attached to a card play (tricks.declare) -----------------------------

PAIR = ("led_suit == 'none' and (card_rank == 'K' or card_rank == 'Q') and "
        "count(cards_of(hand, card_suit) where card_rank == 'K' or card_rank == 'Q') == 2")
DECLARE = mini(
    "  - deal: {size: 3}\n  - tricks:\n      follow: false\n      declare:\n"
    f"        - {{word: marriage, when: \"{PAIR}\", then: {{points: \"points + 20\"}}}}\n"
    "        - {word: demand, when: \"led_suit == 'none'\", "
    "binds: \"card_suit == led_suit\", reason: \"answer the demand\"}\n"
).replace("hand:\n", "variables: {player: {points: 0}}\nhand:\n", 1)


def test_a_marriage_is_declared_with_its_king_or_queen_led_and_scores() -> None:
    st = state(DECLARE, {"trump": "none", "leader": 0, "hands": {0: "KH QH 7C", 1: "AH 8S 9D"}})
    legal = [str(a) for a in st.legal_actions()]
    assert "marriage KH" in legal and "marriage QH" in legal and "marriage 7C" not in legal
    with pytest.raises(spelbok.IllegalActionError, match="may not declare marriage with 7C"):
        st.clone().apply("marriage 7C")
    st.apply("marriage KH")
    assert st.var("points") == [20, 0]
    assert st.view(1)["decisions"] == [[0, "marriage", "marriage KH"]]  # shown to all
    assert st.trick.cards == [(0, card_id("KH"))]  # and the card is played
    st.apply("9D")  # no demand: seat 1 need not follow
    assert [str(a) for a in st.legal_actions()][:2] == ["7C", "QH"]


def test_a_demand_binds_the_next_player_for_that_trick() -> None:
    st = state(DECLARE, {"trump": "none", "leader": 0, "hands": {0: "8H 9C 7C", 1: "AH 8S 9D"}})
    st.apply("demand 8H")
    assert [str(a) for a in st.legal_actions()] == ["AH"]  # bound: the suit led
    with pytest.raises(spelbok.IllegalActionError, match="answer the demand"):
        st.clone().apply("9D")
    st.apply("AH")
    assert st.trick.demand == 0 and st.trick.bound == -1
    # seat 1 leads; the demand is over
    assert sorted(str(a) for a in st.legal_actions() if a.kind == 0) == ["8S", "9D"]
    # a demand the next player cannot meet does not bind him
    st = state(DECLARE, {"trump": "none", "leader": 0, "hands": {0: "8H 9C 7C", 1: "AC 8S 9D"}})
    st.apply("demand 8H")
    assert sorted(str(a) for a in st.legal_actions() if a.kind == 0) == ["8S", "9D", "AC"]


def test_a_demand_binds_only_the_next_player() -> None:
    st = state(DECLARE, {"trump": "none", "leader": 0,
                         "hands": {0: "8H 9C 7C", 1: "AH 8S 9D", 2: "KH QS JD"}}, players=3)
    st.apply("demand 8H")
    assert st.trick.bound == 1
    st.apply("AH")
    assert sorted(str(a) for a in st.legal_actions() if a.kind == 0) == ["JD", "KH", "QS"]


def test_declaration_errors_are_located() -> None:
    base = "  - deal: {size: 3}\n  - tricks:\n      declare:\n        - "
    e = error_of(mini(base + "{word: m, reason: \"r\"}\n"))
    assert e.line == 11 and "no 'binds'" in e.message
    e = error_of(mini(base + "{word: knock}\n").replace("tricks:\n", "tricks:\n      abstain: \"true\"\n"))
    assert e.line == 12 and "a word of its own" in e.message
    e = error_of(mini(base + "{word: m, when: \"card_rank == 'Z'\"}\n"))
    assert e.line == 11 and "'Z'" in str(e)
    e = error_of(mini(base + "{word: m, then: {nothing: \"1\"}}\n"))
    assert e.line == 11 and "nothing" in str(e)


def test_declarations_round_trip_and_are_described() -> None:
    roundtrip(DECLARE)
    text = to_dsl(normalize(load_yaml(DECLARE, "mini.yaml")[0]))
    assert f"declare marriage with a card where {PAIR}\n" in text
    assert "            then points = points + 20\n" in text
    assert ("the next player must play a card where card_suit == led_suit, otherwise "
            '"answer the demand"') in text
    prose = " ".join(describe(DECLARE).split())
    assert "A player may declare marriage with a card where" in prose
    assert "it sets points = `points + 20`" in prose
    assert "the next player to the trick must then play a card where `card_suit == led_suit`" \
        in prose


def test_declarations_keep_every_invariant() -> None:
    game = spelbok.load(DECLARE.replace("size: 3", "size: 8"), players=3, max_hands=4)
    rep = check_game(game, matches=20, seed=11)
    assert rep.ok, rep.failures


def test_card_play_mechanics_with_rules_that_change_by_trick() -> None:
    # per-trick duties (worked out as each trick starts) and a lead that names trump
    spec = tricks('trump_from: first_lead, follow: "trick_number > 1"')
    st = state(spec, {"trump": "none", "leader": 0, "hands": {0: "8H 7C KD", 1: "AD 7H QC"}})
    st.apply("8H")
    assert st.trump_letter() == "H"
    assert sorted(str(a) for a in st.legal_actions()) == ["7H", "AD", "QC"]  # no duty yet
    st.apply("QC")
    assert sorted(str(a) for a in st.legal_actions()) == ["7C", "KD"]  # seat 0 won, leads
    st.apply("KD")
    assert [str(a) for a in st.legal_actions()] == ["AD"]  # the second trick: follow suit


REST = mini(
    "  - deal: {size: 3}\n  - tricks:\n      declare:\n"
    "        - {word: civil, when: \"card_rank == 'A'\", binds: \"card != 'JH'\", bound: rest,"
    " reason: \"hold it back\"}\n"
).replace("hand:\n", "ranking: {free_cards: [JH]}\nhand:\n", 1)


def test_a_demand_may_bind_every_later_player_and_a_free_card() -> None:
    st = state(REST, {"trump": "H", "leader": 0,
                      "hands": {0: "AH 7C 8C", 1: "8H 9S 9D", 2: "JH 9H 10S"}}, players=3)
    plain = st.clone()
    plain.apply("AH")
    plain.apply("8H")
    assert sorted(str(a) for a in plain.legal_actions()) == ["9H", "JH"]  # free: any time
    st.apply("civil AH")
    assert st.trick.bound == -2
    st.apply("8H")  # the next player answers it; the demand still binds the third
    assert [str(a) for a in st.legal_actions()] == ["9H"]
    with pytest.raises(spelbok.IllegalActionError, match="hold it back"):
        st.clone().apply("JH")
    st.apply("9H")
    assert st.trick.demand == 0  # over with its trick
    roundtrip(REST)
    assert "every later player must play a card where card != 'JH'" in to_dsl(
        normalize(load_yaml(REST, "mini.yaml")[0]))
    prose = " ".join(describe(REST).split())
    assert "every later player of the trick must then play a card where" in prose


def test_bound_without_binds_is_a_located_error() -> None:
    base = "  - deal: {size: 3}\n  - tricks:\n      declare:\n        - "
    e = error_of(mini(base + "{word: m, bound: rest}\n"))
    assert e.line == 11 and "no 'binds'" in e.message
    e = error_of(mini(base + "{word: m, binds: \"true and true\", bound: everyone}\n"))
    assert e.line == 11 and "everyone" in str(e)


PAM = mini("  - deal: {size: 3}\n  - tricks: {head: true, void_trump: true}\n").replace(
    "hand:\n", "ranking: {top_trumps: [JC], free_cards: [JC]}\nhand:\n", 1)


def test_a_free_card_is_never_owed_to_a_duty() -> None:
    # Pam is his only trump: he may keep it back from a trump lead (the duties read the
    # hand without it), and the card he plays instead shows no void in trumps
    st = state(PAM, {"trump": "H", "leader": 0, "hands": {0: "KH 7C 8C", 1: "JC 9S 10D"}})
    st.apply("KH")
    assert sorted(str(a) for a in st.legal_actions()) == ["10D", "9S", "JC"]
    st.apply("9S")
    assert st.view(0)["voids"][1] == []
    # his other trump, which cannot head the trick, may be played instead of Pam
    st = state(PAM, {"trump": "H", "leader": 0, "hands": {0: "AH 7C 8C", 1: "JC 7H 9D"}})
    st.apply("AH")
    assert sorted(str(a) for a in st.legal_actions()) == ["7H", "JC"]
