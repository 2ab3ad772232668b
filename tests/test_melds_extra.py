"""A meld may name a pack's extra cards (a joker): ``melds.NAME.cards`` reads any card
of the pack, its extra cards among them (issue 33, item 1)."""

from __future__ import annotations

import spelbok

SPEC = """spelbok: 1
name: Joker melds
players: {min: 2, max: 2}
pack:
  suits: [{letter: C}, {letter: S}, {letter: H, colour: red}, {letter: D, colour: red}]
  ranks: [7, 8, 9, 10, J, Q, K, A]
  extra: [{name: JK}]
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
ranking:
  top_trumps: [JK]
melds:
  pair_of_fools: {cards: [JK, JC], points: 50}
hand:
  - deal: {size: 12}
  - declare_melds: {show: true}
  - set: {score: score + meld_points}
    for: "true"
  - tricks: {}
variables:
  player: {score: 0}
end: {when: "hand_number >= 2", winners: "score == max(score)", score: score}
"""


def test_a_meld_of_a_joker_and_a_card_is_made_exactly_when_both_are_held() -> None:
    game = spelbok.load(SPEC, players=2)
    made = held = 0
    for seed in range(30):
        st = game.new_state(seed=seed)
        melds = {e["seat"]: e for e in st.log if e.get("event") == "melds"}
        for seat in (0, 1):
            hand = set(st.view(seat)["hand"])
            holds = {"JK", "JC"} <= hand
            held += holds
            assert (seat in melds) == holds, (seed, seat, sorted(hand))
            if holds:
                made += 1
                assert melds[seat]["points"] == 50
                assert sorted(melds[seat]["cards"]) == ["JC", "JK"]
    assert made == held > 0  # the seeds hold the meld at least once
