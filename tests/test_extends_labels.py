"""A variant changes single steps of its base by label instead of restating the list."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.lang.loader import read_spec
from spelbok.validation import validate

BASE = """\
spelbok: 1
name: Base
players: {min: 2, max: 4}
deck: [{players: [2, 4], ranks: [A, K, Q, J, 10, 9, 8, 7]}]
hand:
  - deal: {size: 5}
    label: deal
  - turn_up: {trump: true}
    label: turn
  - tricks: {follow: true}
    label: play
  - set: {out: "tricks == 0"}
    for: "true"
    label: knock
end: {when: "count(not out) <= 1", winners: "not out", max_hands: 20}
"""


@pytest.fixture()
def base(tmp_path: Path) -> Path:
    (tmp_path / "base.yaml").write_text(BASE)
    return tmp_path


def test_change_and_remove_steps_by_label(base: Path) -> None:
    (base / "child.yaml").write_text(
        "extends: base.yaml\nname: Child\nhand:\n  turn: null\n  play:\n    tricks: {head: true}\n"
    )
    hand = read_spec(base / "child.yaml").tree["hand"]
    assert [s["label"] for s in hand] == ["deal", "play", "knock"]
    assert hand[1]["tricks"]["head"] is True and hand[1]["tricks"]["follow"] is True
    assert validate(base / "child.yaml") == []
    game = spelbok.load(base / "child.yaml", players=3)
    assert game.new_state(seed=1).trump_letter() == "none"


def test_errors_in_a_changed_step_point_into_the_variant(base: Path) -> None:
    (base / "child.yaml").write_text("extends: base.yaml\nhand:\n  knock:\n    set: {out: \"not dag\"}\n")
    (err,) = validate(base / "child.yaml")
    assert (Path(err.path or "").name, err.line) == ("child.yaml", 4)
    assert "unknown name 'dag'" in err.message


def test_unknown_label_is_located_with_a_hint(base: Path) -> None:
    (base / "child.yaml").write_text("extends: base.yaml\nhand:\n  trun: null\n")
    with pytest.raises(spelbok.SpecError) as info:
        read_spec(base / "child.yaml")
    assert info.value.line == 3 and info.value.hint == "turn"
    assert "no step labelled 'trun'" in info.value.message
