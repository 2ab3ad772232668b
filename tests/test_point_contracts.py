"""Contracts that aim at points, not tricks: an auction contract's ``points`` (read as
``contract_points``), Pinochle's bids of 100 to 600."""

from __future__ import annotations

from pathlib import Path

import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.validation import validate

SPEC = """\
spelbok: 1
name: point bids
players: {{min: 2, max: 2}}
deck:
  - ranks: [A, K, Q, J, 10, 9]
points: {{ranks: {{A: 11, '10': 10, K: 4, Q: 3, J: 2}}}}
dealer: {{first: 0, rotate: none}}
variables:
  player: {{score: 0}}
  hand: {{bid: 0, aim: -1, made: false}}
hand:
  - deal: {{size: 12}}
  - auction:
      contracts:
        - {{name: '20', level: 2, points: 20{extra}}}
        - {{name: '30', level: 3, points: 30}}
        - {{name: '40', level: 4, points: 40}}
  - set: {{bid: contract_points, aim: contract_aim}}
  - tricks: {{}}
  - set: {{made: "any(is_declarer and card_points >= contract_points)"}}
  - set: {{score: "score + (if is_declarer then (if made then bid else 0 - bid) else 0)"}}
    for: "true"
end: {{when: "true", winners: "score == max(score)", score: score}}
"""


def spec(extra: str = "") -> str:
    return SPEC.format(extra=extra)


def test_the_bid_reads_its_points_and_aims_at_no_tricks() -> None:
    assert validate(spec()) == []
    st = spelbok.load(spec(), players=2).new_state(seed=1)
    st.apply("bid 30")
    st.apply("pass")
    assert st.var("bid") == 30 and st.var("aim") == 0


def test_the_declarer_wins_or_loses_the_points_bid() -> None:
    game = spelbok.load(spec(), players=2)
    for seed in range(6):
        st = game.new_state(seed=seed)
        st.apply("bid 40")
        st.apply("pass")
        declarer = 1  # the dealer's left bids first
        while not st.is_terminal:
            st.apply(st.legal_actions()[0])
        score = st.scores[declarer]
        assert score in (40, -40)


def test_aim_and_points_together_are_refused() -> None:
    errors = validate(spec(", aim: 3"))
    assert any("aims at 20 points" in str(e) and "remove 'aim' or 'points'" in str(e)
               for e in errors)


def test_a_negative_points_value_is_refused() -> None:
    assert validate(spec().replace("points: 30", "points: -30"))


def test_the_dsl_says_aiming_at_points() -> None:
    tree = spelbok.load(spec(), players=2).doc.tree
    text = to_dsl(tree)
    assert "contract 20 at level 2, aiming at 20 points" in text
    assert normalize(parse_dsl(text, "p.spel")[0]) == tree


def test_describe_says_the_points_to_make() -> None:
    text = " ".join(describe(spelbok.load(spec(), players=2).doc).split())
    assert "20 (level 2): the declarer's side makes at least 20 points" in text


def test_pinochle_bids_aim_at_their_points() -> None:
    game = spelbok.load("pinochle", players=4)
    contracts = game.program.contracts
    assert len(contracts) == 51
    assert all(c.points == int(c.name) and c.aim == 0 for c in contracts)
    st = game.new_state(seed=2)
    for action in ("bid 250", "pass", "pass", "pass", "trump H"):
        st.apply(action)
    assert st.var("bid") == 250


def test_the_shipped_spec_and_its_twin_agree() -> None:
    root = Path(__file__).resolve().parent.parent / "specs"
    from spelbok.lang.loader import read_spec

    assert read_spec(root / "pinochle.yaml").tree == read_spec(root / "pinochle.spel").tree
