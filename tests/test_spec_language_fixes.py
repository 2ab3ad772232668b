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


# -- state.var reads the built-in names the view shows ------------------------------------


@pytest.mark.parametrize("name", ["whist", "hearts", "pinochle", "bridge"])
def test_var_reads_every_name_every_seat_sees_alike(name: str) -> None:
    """Every key of a view is either the seat's own (observe.OWN) or shown alike to every
    seat (observe.SHARED), and state.var reads the latter as the view shows them."""
    from spelbok.engine.observe import OWN, SHARED

    game = spelbok.load(name)
    st = game.new_state(seed=2)
    rng = random.Random(2)
    for _ in range(12):
        for seat in range(st.n):
            shown = st.view(seat)
            assert set(shown) <= set(SHARED) | set(OWN), set(shown) - set(SHARED) - set(OWN)
            for key in SHARED:
                assert st.var(key) == shown[key], key
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    assert not set(SHARED) & set(OWN)


def test_var_reads_the_trump() -> None:
    st = spelbok.load("whist").new_state(seed=1)
    assert st.view(0)["trump"] is not None
    assert st.var("trump") == st.view(0)["trump"]


# -- messages show a bad value, never a memory address --------------------------------------

_BAD = [object(), 10**5000, [[[]]] * 10_000, None, "x" * 5000]


def _calls() -> list[tuple[str, object]]:
    game = spelbok.load("hearts")
    st = game.new_state(seed=1)
    return [
        ("var", st.var), ("seed", lambda x: game.new_state(seed=x)), ("undo", st.undo),
        ("view", st.view), ("apply", st.apply), ("players", lambda x: spelbok.load("hearts", players=x)),
        ("options", lambda x: spelbok.load("hearts", options=x)), ("playouts", game.playouts),
        ("max_hands", lambda x: spelbok.load("hearts", max_hands=x)),
    ]


@pytest.mark.parametrize("bad", _BAD, ids=["object", "huge int", "long list", "None", "long text"])
def test_messages_show_a_bounded_value_never_an_address(bad: object) -> None:
    for what, call in _calls():
        try:
            call(bad)  # type: ignore[operator]
        except spelbok.SpelbokError as e:
            text = str(e)
            assert " at 0x" not in text and "object at" not in text, (what, text)
            assert len(text) < 400, (what, len(text))
        # None may be a default (players, options): accepted


def test_var_of_none_says_none() -> None:
    st = spelbok.load("hearts").new_state(seed=1)
    with pytest.raises(spelbok.SpelbokError, match="declares no variable None$"):
        st.var(None)
    with pytest.raises(spelbok.SpelbokError, match="did you mean 'score'"):
        st.var("scroe")
