"""A deck entry without single cards (``without: [2C]``, ``… without 2♣``): checked with
located errors, told by ``describe``, written back by ``convert``, dealt by the engine
(no card it is without ever comes into play) and numbered by the game-AI action space."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
from spelbok.cards import FRENCH
from spelbok.errors import SpecError, SpecErrors
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.validate import validate
from spelbok.lang.yamlio import load_yaml

FULL = "A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2"
SPEC = f"""spelbok: 1
name: Without mini
players: {{min: 2, max: 3}}
deck:
  - players: [2, 2]
    ranks: [{FULL}]
  - players: [3, 3]
    ranks: [{FULL}]
    without: [2C]
    source: "a text: with three players the two of clubs is taken out"
hand:
  - deal: {{size: "if seats == 3 then 17 else 13"}}
  - tricks: {{}}
end: {{when: "hand_number >= 2", winners: "tricks == max(tricks)"}}
"""
# a declared pack whose cards are not French ones, two copies of each
SPANISH = """spelbok: 1
name: Without pack mini
players: {min: 3, max: 3}
pack:
  suits:
    - {letter: O, name: oros}
    - {letter: C, name: copas, colour: red}
    - {letter: E, name: espadas}
    - {letter: B, name: bastos, colour: green}
  ranks: [2, 4, 5, 6, 7, J, Q, K, 3, A]
  copies: 2
deck:
  - ranks: [A, 3, K, Q, J, 7, 6, 5, 4, 2]
    without: [2B, 4o]
hand:
  - deal: {size: 12}
  - tricks: {}
end: {when: "hand_number >= 1", winners: "tricks == max(tricks)"}
"""


def errors_of(tmp_path: Path, text: str, name: str = "spec.yaml") -> list[str]:
    """``line:col: message`` of each error of the spec ``text``."""
    file = tmp_path / name
    file.write_text(text, encoding="utf-8")
    errors = [str(e) for e in validate(str(file))]
    assert all(e.startswith(f"{file}:") for e in errors), errors
    return [e.removeprefix(f"{file}:") for e in errors]


def at(text: str, word: str, start: str = "without") -> str:
    """``line:col`` of the first ``word`` after ``start`` in ``text``."""
    i = text.index(word, text.index(start))
    return f"{text.count(chr(10), 0, i) + 1}:{i - text.rfind(chr(10), 0, i)}"


# -- the checks ---------------------------------------------------------------------------


@pytest.mark.parametrize("without, bad, message", [
    ("[AC, KD, AC]", "AC]", "the card 'AC' is listed twice (entry 1 names it too)"),
    ("[2C, 2x]", "2x", ""),  # not a card of the French pack (the loader's names check)
])
def test_a_bad_card_taken_out_is_a_located_error(tmp_path: Path, without: str, bad: str,
                                                  message: str) -> None:
    text = SPEC.replace("without: [2C]", f"without: {without}").replace("then 17", "then 10")
    errors = errors_of(tmp_path, text)
    assert len(errors) == 1 and errors[0].startswith(at(text, bad) + ":"), errors
    assert message in errors[0]


def test_a_card_outside_the_entry_is_a_located_error(tmp_path: Path) -> None:
    text = SPEC.replace(f"ranks: [{FULL}]\n    without", "ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3]\n"
                        "    suits: [C, S, H]\n    without").replace("[2C]", "[AC, 2C, AD]").replace(
                            "then 17", "then 10")
    errors = errors_of(tmp_path, text)
    assert errors == [
        f"{at(text, '2C')}: the card '2C' is not in this deck entry (its ranks A K Q J 10 9 8 "
        "7 6 5 4 3 of C S H), so it cannot be taken out",
        f"{at(text, 'AD')}: the card 'AD' is not in this deck entry (its ranks A K Q J 10 9 8 "
        "7 6 5 4 3 of C S H), so it cannot be taken out"]


def test_a_declared_pack_s_bad_card_is_a_located_error_in_the_dsl(tmp_path: Path) -> None:
    spel = to_dsl(normalize(load_yaml(SPANISH, "s.yaml")[0])).replace('"4o"', '"4X"')
    errors = errors_of(tmp_path, spel, "spec.spel")
    assert len(errors) == 1 and errors[0].startswith(at(spel, '"4X"') + ":"), errors
    assert "'4X' is not a card" in errors[0]


def test_the_deck_size_check_counts_the_cards_taken_out(tmp_path: Path) -> None:
    text = SPEC.replace("then 17", "then 18")
    errors = errors_of(tmp_path, text)
    assert len(errors) == 1 and "3 players × 18 cards = 54 cards" in errors[0], errors
    assert "51 cards" in errors[0]


# -- describe and convert -----------------------------------------------------------------


def test_describe_tells_the_cards_taken_out_and_counts_without_them() -> None:
    text = " ".join(describe(SPEC).split())
    assert "For 3 players: 51 cards, A K Q J 10 9 8 7 6 5 4 3 2 in each of ♣ ♠ ♥ ♦, " \
        "without 2♣." in text
    assert "For 2 players: 52 cards" in text
    three = " ".join(describe(SPEC, players=3).split())
    assert "With 3 players: 17 cards each (51 in all), 0 left" in three
    pack = " ".join(describe(SPANISH).split())
    assert "76 cards" in pack and "without 2B and 4O" in pack


@pytest.mark.parametrize("text", [SPEC, SPANISH])
def test_convert_writes_it_back(text: str) -> None:
    canonical = normalize(load_yaml(text, "spec.yaml")[0])
    spel = to_dsl(canonical)
    assert normalize(parse_dsl(spel, "spec.spel")[0]) == canonical
    line = next(x for x in spel.splitlines() if " without " in x)
    assert line in ("deck for 3 players: A K Q J 10 9 8 7 6 5 4 3 2 without 2♣",
                    'deck for 3 players: A 3 K Q J 7 6 5 4 2 without 2B "4o"')


def test_the_dsl_reads_it_after_the_suits() -> None:
    spel = to_dsl(normalize(load_yaml(SPEC, "spec.yaml")[0])).replace(
        "2 without 2♣", "2 of ♣ ♠ ♥ without 2♣ 3♠")
    entry = normalize(parse_dsl(spel, "spec.spel")[0])["deck"][1]
    assert entry["suits"] == ["C", "S", "H"] and entry["without"] == ["2C", "3S"]


# -- the engine ---------------------------------------------------------------------------


def test_the_deal_holds_every_card_but_the_ones_taken_out() -> None:
    game = spelbok.load(SPEC, players=3)
    two_clubs = FRENCH.parse_card("2C")
    assert len(game.program.deck) == 51 and two_clubs not in game.program.deck
    rng = random.Random(5)
    for seed in range(4):
        st = game.new_state(seed=seed)
        dealt = 0
        for hand in st.hands:
            assert not dealt & hand
            dealt |= hand
        assert dealt == game.program.deck_mask and dealt.bit_count() == 51
        while not st.is_terminal:
            action = rng.choice(st.legal_actions())
            assert action[2] != two_clubs
            st.apply(action)
    assert len(spelbok.load(SPEC, players=2).program.deck) == 52


def test_every_copy_of_a_card_taken_out_goes() -> None:
    game = spelbok.load(SPANISH, players=3)
    pack = game.program.pack
    names = [pack.card_name(c) for c in game.program.deck]
    assert len(names) == 76 and "2B" not in names and "4O" not in names
    assert names.count("AB") == 2


def test_a_stacked_deck_must_leave_out_the_cards_taken_out() -> None:
    game = spelbok.load(SPEC, players=3)
    deck = [FRENCH.card_name(c) for c in game.program.deck]
    game.new_state(seed=1, deck=deck[::-1])
    with pytest.raises((SpecError, SpecErrors), match="not in this pack: 2C"):
        game.new_state(seed=1, deck=[*deck[1:], "2C"])


def test_the_action_space_numbers_the_cards_of_the_deck() -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding, Match

    enc = Encoding(spelbok.load(SPEC, players=3))
    two = Encoding(spelbok.load(SPEC, players=2))
    assert enc.num_cards == 51 and two.num_cards == 52
    assert enc.num_actions == two.num_actions - 1
    assert "2C" not in enc.labels and "2C" in two.labels
    assert enc.labels[:enc.num_cards] == [x for x in two.labels[:52] if x != "2C"]
    rng = random.Random(2)
    for seed in range(3):
        m = Match(enc, enc.game.new_state(seed=seed))
        while not m.st.is_terminal:
            legal = m.legal()
            assert legal and all(0 <= n < enc.num_actions for n in legal)
            m.apply(rng.choice(legal))
