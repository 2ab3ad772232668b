"""The deck-size check reads each deck entry under the options where its ``when``
holds: a smaller deck chosen by an option is checked against the deal that option
makes, not against the deal of the other."""

from __future__ import annotations

import spelbok
from spelbok.errors import SpecError

SPEC = """spelbok: 1
name: Mini
players: {min: 4, max: 4}
options:
  short: {values: [false, true], default: false}
deck:
  - {players: [4, 4], ranks: [A, K, Q, J, 10, 9], when: "not short"}
  - {players: [4, 4], ranks: [A, K, Q, J, 10], when: short}
hand:
  - deal: {size: "if short then SMALL else 6"}
  - tricks: {}
end: {when: "hand_number >= 1", winners: "tricks == max(tricks)"}
"""


def test_each_deck_reading_is_checked_against_its_own_deal() -> None:
    game = spelbok.load(SPEC.replace("SMALL", "5"), players=4)
    assert game.new_state(seed=1).hands[0].bit_count() == 6
    short = spelbok.load(SPEC.replace("SMALL", "5"), players=4, options={"short": True})
    assert short.new_state(seed=1).hands[0].bit_count() == 5
    try:
        spelbok.load(SPEC.replace("SMALL", "6"), players=4)
    except SpecError as e:
        assert "short = true" in e.message and e.line == 10
    else:
        raise AssertionError("a 20-card deck cannot deal six each")
