"""Values of the wrong kind: located when the spec is validated (a size, count or range
fixed at load time), a clear SpelbokError when play meets one (never a TypeError,
ValueError, or a state with no legal action)."""

from __future__ import annotations

import spelbok
from minispec import mini
from spelbok.validation import validate

NUMBER_RANGE_EMPTY = mini(
    "  - deal: {size: 5}\n  - decide: bid\n    choose: number\n    min: 10\n    max: 0\n"
    "  - tricks: {}\n")

DEAL_SIZE_TEXT = mini("  - deal: {size: \"'five'\"}\n  - tricks: {}\n")


def test_a_fixed_number_range_that_is_empty_is_located() -> None:
    assert validate_text(NUMBER_RANGE_EMPTY) == [
        "12:10: the decision offers no number: 'max' (0) is below 'min' (10)"]


def test_a_fixed_deal_size_that_is_text_is_located() -> None:
    assert validate_text(DEAL_SIZE_TEXT) == [
        "8:18: expected a whole number here, not 'five'"]


def test_a_number_range_that_may_be_empty_in_play_is_refused() -> None:
    # validate's promise (lang/promise.py): refused before play, not met in play
    text = NUMBER_RANGE_EMPTY.replace("max: 0", 'max: "min(hand_number - 1, 20)"')
    assert validate_text(text) == [
        "12:10: the 'bid' decision may offer no number: its 'max' can be below its 'min' "
        "(with 2 players): make sure it cannot (max: \"max(min(hand_number - 1, 20), 10)\")"]


def test_every_word_switched_off_in_play_offers_every_word() -> None:
    text = NUMBER_RANGE_EMPTY.replace(
        "choose: number\n    min: 10\n    max: 0",
        "choose: [{word: yes, when: hand_number > 1}, {word: no, when: hand_number > 2}]")
    assert "choose: [" in text
    # every word switched off: every word is offered (as a trick's allow that admits no card)
    state = spelbok.load(text, players=2).new_state(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["yes", "no"]


TEXT_VARIABLE = DEAL_SIZE_TEXT.replace('size: "\'five\'"', "size: 5").replace(
    "hand:\n", "variables:\n  hand: {who: ''}\nhand:\n  - if: \"who < seats\"\n"
    "    then: [{end_hand: true}]\n", 1)


def test_a_variable_keeps_the_kind_of_its_initial_value() -> None:
    # 'who' starts as text and is compared with a seat: located, not met while playing
    assert validate_text(TEXT_VARIABLE) == ["10:14: cannot compare a str with an int"]


def test_setting_a_variable_to_another_kind_is_located() -> None:
    # bug (found by the adversarial suite): a counter retyped to '' passed validate and
    # failed in play at `marriages + 20`; now the assignment itself is refused
    text = TEXT_VARIABLE.replace('"who < seats"', "\"who == ''\"").replace(
        "then: [{end_hand: true}]", "then: [{set: {who: \"seats + 1\"}}]")
    assert validate_text(text) == [
        "11:24: the variable 'who' holds a text (its initial value), but this formula "
        "gives a number"]
    text = text.replace('{who: ""}', "").replace("{who: ''}", "{who: 0}")
    assert validate_text(text) == ["10:14: cannot compare an int with a str (they are never equal)"]


def validate_text(text: str) -> list[str]:
    """validate()'s messages for ``text`` saved as a file, without the file's name."""
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "mini.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return [str(e).removeprefix(path + ":") for e in validate(path)]
