"""A declared pack's own figure letters (Italian F C R, Spanish S C R): written bare in
the DSL as in YAML, in card notation everywhere (reading files, moves), and shown so."""

from __future__ import annotations

import re

import pytest
import spelbok
from spelbok.cards import READ_RANK, READ_SUIT
from spelbok.errors import SpecError
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.loader import read_spec
from spelbok.lang.model import normalize
from spelbok.lang.spec_grammar import grammar_text
from spelbok.view.panel import panel

PACK = """\
spelbok 1
game "Letters"
players 2 to 2
pack:
    suit "O" named "oros"
    suit "C" named "copas"
    ranks from low to high: 2 S C R A
deck for 2 players: A R C S 2
ranks from high to low: A R C S 2
points of ranks: A 11, R 4, C 3, S 2
top trumps from high to low: RO CC
each hand:
    deal 5 cards
    play tricks
the match ends when true
    the winners are the players where tricks == max(tricks)
"""


def test_a_declared_packs_letters_read_bare_in_the_dsl() -> None:
    tree = normalize(parse_dsl(PACK, "letters.spel")[0])
    assert tree["pack"]["ranks"] == ["2", "S", "C", "R", "A"]
    assert tree["deck"][0]["ranks"] == ["A", "R", "C", "S", "2"]
    assert tree["points"]["ranks"] == {"A": 11, "R": 4, "C": 3, "S": 2}
    assert tree["ranking"]["top_trumps"] == ["RO", "CC"]


def test_and_are_written_bare_and_read_back() -> None:
    tree = normalize(parse_dsl(PACK, "letters.spel")[0])
    text = to_dsl(tree)
    assert "ranks from low to high: 2 S C R A" in text
    assert "points of ranks: A 11, R 4, C 3, S 2" in text
    assert "top trumps from high to low: RO CC" in text  # letters, not French symbols
    assert normalize(parse_dsl(text, "again.spel")[0]) == tree


def test_without_a_pack_another_letter_is_refused_where_it_stands() -> None:
    text = PACK.replace('pack:\n    suit "O" named "oros"\n    suit "C" named "copas"\n'
                        '    ranks from low to high: 2 S C R A\n', "")
    with pytest.raises(SpecError) as err:
        parse_dsl(text, "french.spel")
    assert "'R' is not a card rank" in str(err.value)
    assert err.value.line == 4


def test_the_grammar_reads_the_letters_cards_py_declares() -> None:
    grammar = grammar_text()
    assert f"RANK: /({READ_RANK})(?![\\w@])/" in grammar
    assert f"CARD: /({READ_RANK})({READ_SUIT}|@" in grammar
    assert re.fullmatch(READ_RANK, "R") and re.fullmatch(READ_RANK, "10")


@pytest.mark.parametrize(("name", "figures"), [("briscola", ["R", "C", "F"]),
                                               ("tute", ["R", "C", "S"])])
def test_briscola_and_tute_write_their_own_figures(name: str, figures: list[str]) -> None:
    tree = read_spec(name).tree
    assert tree["ranking"]["ranks"][2:5] == figures
    assert tree["points"]["ranks"] == dict(zip(["A", "3", *figures], [11, 10, 4, 3, 2],
                                               strict=True))
    game = spelbok.load(name, players=2)
    for text in (f"{figures[0]}B", f"{figures[1]}C", f"{figures[2]}B"):
        assert game.program.pack.card_name(game.program.pack.parse_card(text)) == text


def test_moves_and_the_table_name_the_figures_so() -> None:
    game = spelbok.load("briscola", players=2)
    st = game.new_state(seed=1, position={"trump": "S", "leader": 1, "talon": [],
                                          "tricks_played": 17,
                                          "hands": {1: "RD CC FB", 0: "AD 2C 3S"}})
    assert [str(a) for a in st.legal_actions()] == ["RD", "CC", "FB"]
    assert "  your hand  RD │ CC │ FB" in panel(st, 1, ["P0", "you"])
    st.apply("CC")  # the cavallo di coppe, by its own letters
    assert [c for _, c in st.view(0)["trick"]] == ["CC"]
