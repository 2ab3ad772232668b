"""Passing between some players only (``pass_cards.players``; Spades' blind nil
exchange): the DSL both ways, validate's located error, the engine's skip."""

from __future__ import annotations

import re
from pathlib import Path

import spelbok
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.validation import validate

ROOT = Path(__file__).resolve().parent.parent


def _passes(tree: dict) -> list[dict]:
    return [s["pass_cards"] for s in tree["hand"] if "pass_cards" in s]


def test_the_dsl_reads_and_writes_who_passes() -> None:
    tree = parse_dsl((ROOT / "specs" / "spades.spel").read_text(), "spades.spel")[0]
    first, second = _passes(tree)
    assert first == {"count": 2, "directions": ["across"], "players": "blind"}
    assert second["players"].startswith("not blind and")
    text = to_dsl(tree)
    assert "each player where blind passes 2 cards across" in text
    assert _passes(parse_dsl(text, "again.spel")[0]) == [first, second]


def test_validate_wants_a_condition_located(tmp_path: Path) -> None:
    text = (ROOT / "specs" / "spades.yaml").read_text().replace("players: blind", "players: bid")
    path = tmp_path / "spades.yaml"
    path.write_text(text)
    errors = [str(e) for e in validate(path)]
    assert any(re.search(r"spades\.yaml:\d+:\d+: expected a condition", e) for e in errors), errors


def test_nobody_blind_no_pass_and_a_blind_bidder_passes_to_his_partner_only() -> None:
    game = spelbok.load("spades", players=4, options={"blind_nil": "always"})
    st = game.new_state(seed=4)
    first = st.current_player
    assert first is not None
    while st.decision_name == "blind":  # the first asked bids blind nil, the others look
        st.apply("blind_nil" if st.current_player == first else "look")
    while st.decision_name == "bid":
        st.apply(st.legal_actions()[0])
    assert st.decision_name == "pass" and st.current_player == first
    before = [list(st.view(p)["hand"]) for p in range(4)]
    st.apply(st.legal_actions()[0])
    partner = (first + 2) % 4
    assert st.current_player == partner  # the return: the partner, and nobody else
    st.apply(st.legal_actions()[0])
    assert st.decision_name == "play"
    for p in range(4):
        if p not in (first, partner):
            assert st.view(p)["hand"] == before[p]
