"""The spec-language fixes of issue 30 ("Trust"), each with the case that showed it."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
import spelbok

SPECS = Path(__file__).resolve().parent.parent / "specs"
GAMES = sorted(p.stem for p in SPECS.glob("*.yaml"))


# -- a pickle round trip gives an equal state ------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_state_is_equal_to_the_original(name: str) -> None:
    """Every shipped spec, a few states of a few random playouts: a pickle round trip
    gives an equal state (a double pack's second copy of a card stays that copy)."""
    game = spelbok.load(SPECS / f"{name}.yaml", max_hands=2)
    rng = random.Random(name)
    for seed in range(3):
        st = game.new_state(seed=seed)
        checks = sorted(rng.sample(range(1, 120), 4))
        for i in range(checks[-1] + 1):
            if i in checks or st.is_terminal:
                again = pickle.loads(pickle.dumps(st))
                assert again == st, (name, seed, i)
                assert again.to_dict() == st.to_dict()
                assert again.legal_actions() == st.legal_actions()
            if st.is_terminal:
                break
            st.apply(rng.choice(st.legal_actions()))
