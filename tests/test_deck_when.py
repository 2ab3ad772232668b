"""Deck entries as readings: ``deck[].when``, a condition over options, chooses among
entries for the same player count (Tute's three-player pack: the twos out, or one card
aside)."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.validation import validate

SPEC = """\
spelbok: 1
name: deck readings
players: {{min: 2, max: 3}}
options:
  short: {{values: [yes, no], default: yes}}
deck:
  - {{players: [2, 2], ranks: [A, K, Q, J, 10]}}
  - players: [3, 3]
    ranks: [A, K, Q, J]
    when: "{first}"
  - players: [3, 3]
    ranks: [A, K, Q, J, 10, 9]
    when: "{second}"
hand:
  - deal: {{size: 2}}
  - tricks: {{}}
end: {{when: "true", winners: "tricks == max(tricks)"}}
"""


def spec(first: str = "short == 'yes'", second: str = "short == 'no'") -> str:
    return SPEC.format(first=first, second=second)


def test_the_option_chooses_the_entry() -> None:
    assert len(spelbok.load(spec(), players=3).deck) == 16
    assert len(spelbok.load(spec(), players=3, options={"short": "no"}).deck) == 24
    assert len(spelbok.load(spec(), players=2).deck) == 20


def test_a_plain_entry_has_no_when_in_the_canonical_tree() -> None:
    tree = spelbok.load(spec(), players=2).doc.tree
    assert "when" not in tree["deck"][0]
    assert tree["deck"][1]["when"] == "short == 'yes'"


@pytest.mark.parametrize(("first", "second", "message"), [
    ("true", "short == 'no'", None),  # a plain entry beside a reading: an overlap
    ("short == 'yes'", "short == 'yes'", "both serve 3 players"),
    ("short == 'no' and short == 'yes'", "short == 'no'", "no deck is given for 3 players"),
    ("hand_number > 1", "hand_number == 1", "must be fixed when the game is loaded"),
])
def test_readings_that_do_not_exclude_each_other_are_refused(first: str, second: str,
                                                              message: str | None) -> None:
    errors = validate(spec(first, second))
    text = " ".join(str(e) for e in errors)
    assert errors, text
    assert (message or "deck entries overlap") in text


def test_the_dsl_writes_the_condition_at_the_end_of_the_line() -> None:
    tree = spelbok.load(spec(), players=2).doc.tree
    text = to_dsl(tree)
    assert "deck for 3 players: A K Q J when short == 'yes'" in text
    assert normalize(parse_dsl(text, "d.spel")[0]) == tree


def test_describe_names_the_reading_of_each_entry() -> None:
    text = " ".join(describe(spelbok.load(spec(), players=3).doc).split())
    assert "For 3 players when `short == 'yes'`: 16 cards" in text
    assert "For 3 players when `short == 'no'`: 24 cards" in text


def test_tute_at_three_takes_the_twos_out_or_deals_one_card_aside() -> None:
    out = spelbok.load("tute", players=3)
    aside = spelbok.load("tute", players=3, options={"three_player_pack": "one_aside"})
    assert len(out.deck) == 36 and not any(c.startswith("2") for c in out.deck)
    assert len(aside.deck) == 40
    st = aside.new_state(seed=2)
    assert len(st.view(0)["hand"]) == 6
    with pytest.raises(SpecError):
        spelbok.load("tute", players=3, options={"three_player_pack": "both"})


def test_tute_asks_the_winner_for_the_seven_only_when_he_holds_one_to_give() -> None:
    game = spelbok.load("tute", players=2)
    position = {"trump": "E", "turn_up": "3E", "talon": "AB 6B RB CB", "leader": 1}
    nothing = game.new_state(seed=1, position={**position,
                                               "hands": {1: "4O 5C 7E", 0: "AO RC CO"}})
    nothing.apply("4O")
    nothing.apply("AO")
    assert nothing.decision_name != "seven" and nothing.current_player == 0
    seven = game.new_state(seed=1, position={**position,
                                             "hands": {1: "4O 5C 2B", 0: "AO 7E CC"}})
    seven.apply("4O")
    seven.apply("AO")
    assert seven.decision_name == "seven" and seven.current_player == 0
    assert sorted(str(a) for a in seven.legal_actions()) == ["seven", "seven 7E"]


def test_tute_shows_the_cards_of_a_cante_to_the_table() -> None:
    game = spelbok.load("tute", players=2)
    st = game.new_state(seed=1, position={"trump": "E", "turn_up": "3E", "talon": "AB 6B RB CB",
                                          "leader": 1, "hands": {1: "4O 5C 2B", 0: "AO RC CC"}})
    st.apply("4O")
    st.apply("AO")
    assert "copas" in [str(a) for a in st.legal_actions()]
    st.apply("copas")
    assert sorted(st.view(1)["known_cards"][0]) == ["CC", "RC"]
