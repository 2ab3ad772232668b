"""Declarations compared between players before play, each choosing what to declare or
conceal and answering the other's: the elder declares his point (how many cards of his
longest suit, or fewer: concealing), the younger answers good, not good or equal by his
own (issue 33, item 1), with the constructs that exist: a numeric decision bounded by
the hand, an answer whose words ``allow`` admits by the answerer's hand, and the scores
set from both."""

from __future__ import annotations

import spelbok

SPEC = """# declarations compared before play: the elder declares his point (the cards of his
# longest suit, or fewer: he may conceal), the younger answers good, not good or equal
spelbok: 1
name: Point mini
players: {min: 2, max: 2}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
variables:
  hand: {said: 0, answer: "'none'"}
  player: {score: 0, longest: 0}
hand:
  - deal: {size: 12}
  - set: {longest: "max(count(cards_of(hand, 'C')), count(cards_of(hand, 'S')), count(cards_of(hand, 'H')), count(cards_of(hand, 'D')))"}
    for: "true"
  - decide: point
    who: forehand
    choose: number
    min: 0
    max: "max(min(longest, 8), 0)"
    then: {said: choice}
  - decide: answer
    who: dealer
    when: "said > 0"
    choose: [good, not_good, equal]
    allow: "choice == 'good' or choice == 'not_good' and longest > said or choice == 'equal' and longest == said"
    reason: "answer by your own point: 'not good' only with a longer suit, 'equal' with as long a one"
    then: {answer: choice}
  - set: {score: "score + (if order == 1 and answer == 'good' then said else if order == 2 and answer == 'not_good' then longest else 0)"}
    for: "true"
  - tricks: {}
end: {when: "hand_number >= 2", winners: "score == max(score)", score: score}
"""


def longest(hand: list[str]) -> int:
    return max(sum(1 for c in hand if c[-1] == s) for s in "CSHD")


def names(st: spelbok.State) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def test_the_point_declared_concealed_and_answered() -> None:
    game = spelbok.load(SPEC, players=2)
    seen = set()
    for seed in range(40):
        for conceal in (False, True):
            st = game.new_state(seed=seed)
            elder = st.current_player
            mine = longest(st.view(elder)["hand"])
            assert names(st) == [f"point {k}" for k in range(mine + 1)]  # never more than held
            said = mine - 1 if conceal else mine
            st.apply(f"point {said}")
            younger = st.current_player
            assert younger == 1 - elder
            theirs = longest(st.view(younger)["hand"])
            offered = set(names(st))
            assert offered == {"good"} | ({"not_good"} if theirs > said else set()) | (
                {"equal"} if theirs == said else set())
            answer = "not_good" if "not_good" in offered else "equal" if "equal" in offered else "good"
            seen.add(answer)
            st.apply(answer)
            score = st.var("score")
            assert score[elder] == (said if answer == "good" else 0)
            assert score[younger] == (theirs if answer == "not_good" else 0)
    assert seen == {"good", "not_good", "equal"}  # the seeds meet every answer
