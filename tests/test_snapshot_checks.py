"""game.restore(d) checks what it is given: a bad snapshot is a SnapshotError, never a crash."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
import spelbok
from spelbok.errors import SnapshotError, SpelbokError
from spelbok.lang.loader import shipped_spec_names

from tests.budget import scaled

SPECS = sorted(shipped_spec_names())


def playout_snapshots(game: spelbok.Game, seed: int, every: int = 9) -> list[dict[str, Any]]:
    """JSON snapshots taken along a random match (and at its end)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    out = []
    steps = 0
    while not state.is_terminal and steps < 400:
        if steps % every == 0:
            out.append(json.loads(json.dumps(state.to_dict())))
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    out.append(json.loads(json.dumps(state.to_dict())))
    return out


@pytest.fixture(scope="module")
def game() -> spelbok.Game:
    return spelbok.load("example", players=3)


@pytest.fixture(scope="module")
def snap(game: spelbok.Game) -> dict[str, Any]:
    return playout_snapshots(game, 3)[3]


def refused(game: spelbok.Game, d: Any, match: str) -> None:
    with pytest.raises(SnapshotError, match=match):
        game.restore(d)


def changed(d: dict[str, Any], **fields: Any) -> dict[str, Any]:
    out = copy.deepcopy(d)
    out.update(fields)
    return out


def test_a_real_snapshot_restores_and_plays_on(game: spelbok.Game, snap: dict[str, Any]) -> None:
    state = game.restore(snap)
    assert json.loads(json.dumps(state.to_dict())) == snap
    state.apply(state.legal_actions()[0])


def test_wrong_shapes_are_refused(game: spelbok.Game, snap: dict[str, Any]) -> None:
    refused(game, None, "a snapshot is a dict made by State.to_dict")
    refused(game, [snap], "not a list")
    refused(game, changed(snap, handz=[]), "unknown key 'handz' in the snapshot .*'hands'")
    refused(game, {k: v for k, v in snap.items() if k != "pc"}, "lacks 'pc'")
    refused(game, changed(snap, pc="3"), "'pc' must be an integer, not str")
    refused(game, changed(snap, pc=True), "'pc' must be an integer, not bool")
    refused(game, changed(snap, pc=10**30), "'pc' must be an integer")
    refused(game, changed(snap, broken=1), "'broken' must be true or false")
    refused(game, changed(snap, hands=snap["hands"][:2]), "one entry per seat .3., not 2")
    refused(game, changed(snap, won="x"), "'won' must be a list")
    refused(game, changed(snap, actions=["x" * 10_000]), "'actions' must be a list of action")


def test_another_game_or_other_options_are_refused(game: spelbok.Game,
                                                     snap: dict[str, Any]) -> None:
    refused(spelbok.load("example", players=4), snap, "with 3 players, not of <Game Example, 4")
    refused(game, changed(snap, game="Rams"), "the snapshot is of 'Rams'")
    refused(game, changed(snap, options={"void_rul": "any"}),
            "unknown option 'void_rul' .did you mean 'void_rule'")
    refused(game, changed(snap, options={"void_rule": "any"}), "made with options")
    refused(game, changed(snap, options=[]), "'options' must be a map")


def test_cards_out_of_place_are_refused(game: spelbok.Game, snap: dict[str, Any]) -> None:
    hands = copy.deepcopy(snap["hands"])
    hands[1].append(hands[0][0])
    refused(game, changed(snap, hands=hands), f"{hands[0][0]} is both in hand 0 and in hand 1")
    hands = copy.deepcopy(snap["hands"])
    hands[0][0] = "2C"
    refused(game, changed(snap, hands=hands), "2C in hand 0 is not in this game's pack")
    hands[0][0] = "XX"
    refused(game, changed(snap, hands=hands), "'XX' in hand 0 is not a card")
    hands[0][0] = 7
    refused(game, changed(snap, hands=hands), "'7' in hand 0 is not a card")
    refused(game, changed(snap, trick=[[0]]), "'trick' must be a list of")


def test_fields_that_do_not_follow_from_the_history_are_refused(
        game: spelbok.Game, snap: dict[str, Any]) -> None:
    refused(game, changed(snap, pc=snap["pc"] + 1000), "does not match its own history: 'pc'")
    refused(game, changed(snap, dealer=7), "does not match its own history: 'dealer'")
    refused(game, changed(snap, current=-1), "does not match its own history: 'current'")
    refused(game, changed(snap, start={"seed": 1, "dealer": 9}), "dealer must be a seat 0..2")
    refused(game, changed(snap, start={"seed": "1"}), "'start' must be a map with the seed")
    refused(game, changed(snap, actions=["9Z"] + snap["actions"]),
            "action 1 of the snapshot .'9Z'. cannot be replayed")
    hands = copy.deepcopy(snap["hands"])
    hands[0], hands[1] = hands[1], hands[0]
    refused(game, changed(snap, hands=hands), "does not match its own history: 'hands'")


def _mutate(x: Any, rng: random.Random, cards: list[str]) -> Any:
    """``x`` with one random change somewhere inside (a copy)."""
    x = copy.deepcopy(x)
    # walk down to a random container, then change one of its entries
    holder: Any = x
    key: Any = None
    while True:
        if isinstance(holder, dict) and holder:
            k = rng.choice(list(holder))
        elif isinstance(holder, list) and holder:
            k = rng.randrange(len(holder))
        else:
            break
        if not isinstance(holder[k], (dict, list)) or rng.random() < 0.3:
            key = k
            break
        holder = holder[k]
    if key is None:
        return x
    value = holder[key]
    choice = rng.randrange(9)
    if choice == 0 and isinstance(holder, list):
        del holder[key]
    elif choice == 1 and isinstance(holder, list):
        holder.insert(key, copy.deepcopy(value))
    elif choice == 2 and isinstance(holder, dict):
        del holder[key]
    elif isinstance(value, bool) or choice == 3:
        holder[key] = rng.choice([None, True, False, "", 0, -1, [], {}, 10**18])
    elif isinstance(value, int):
        holder[key] = value + rng.choice([-1, 1, -100, 7, 52, 2**31])
    elif isinstance(value, str):
        holder[key] = rng.choice(cards + ["", "pass", "play", "x" * 300, "none", "H"])
    else:
        holder[key] = rng.choice([None, 3, "x", [], [[]], {"a": 1}])
    return x


@pytest.mark.parametrize("name", SPECS)
def test_mutated_snapshots_are_refused_or_play_on(name: str) -> None:
    game = spelbok.load(name)
    rng = random.Random(name)
    cards = game.deck + ["2C", "XX"]
    snaps = playout_snapshots(game, 1) + playout_snapshots(game, 2, every=23)
    restored = 0
    # 120 mutations, fewer of a large pack (each restored one plays on: tests/budget.py)
    mutations = scaled(game, 120)
    for i in range(mutations):
        d = _mutate(rng.choice(snaps), rng, cards)
        try:
            state = game.restore(d)
        except SpelbokError:
            continue
        restored += 1
        steps = 0
        while not state.is_terminal and steps < 300:  # plays on without any other exception
            legal = state.legal_actions()
            assert legal, f"mutation {i}: no legal action while the match runs"
            state.apply(rng.choice(legal))
            steps += 1
    assert restored < mutations  # most mutations are caught


@pytest.mark.parametrize("bad", [None, 3, [], "JC", "x" * 100_000, ("JC",), 2.5])
def test_apply_refuses_any_object_promptly(game: spelbok.Game, bad: Any) -> None:
    state = game.new_state(seed=1)
    with pytest.raises((spelbok.InvalidActionError, spelbok.IllegalActionError)):
        state.apply(bad)


def test_apply_refuses_an_action_of_another_game(game: spelbok.Game) -> None:
    other = spelbok.load("rams", players=3).new_state(seed=1)
    state = game.new_state(seed=1)
    foreign = [a for a in other.legal_actions() if a not in state.legal_actions()]
    for a in foreign[:5]:
        with pytest.raises((spelbok.InvalidActionError, spelbok.IllegalActionError)):
            state.apply(a)


# -- arguments of the API -------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 3, "0", None, 1.0, True, 10**20])
def test_view_and_determinize_check_the_seat(game: spelbok.Game, seat: Any) -> None:
    state = game.new_state(seed=1)
    with pytest.raises(spelbok.ArgumentError, match="seat must be a seat number 0..2"):
        state.view(seat)
    with pytest.raises(spelbok.ArgumentError, match="seat must be a seat number 0..2"):
        state.determinize(seat)


def test_determinize_checks_the_rng(game: spelbok.Game) -> None:
    with pytest.raises(spelbok.ArgumentError, match="rng must be a random.Random, not int"):
        game.new_state(seed=1).determinize(0, 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs, message", [
    ({"dealer": -1}, "dealer must be a seat number 0..2, not -1"),
    ({"dealer": 3}, "dealer must be a seat number"),
    ({"dealer": "0"}, "dealer must be a seat number"),
    ({"dealer": True}, "dealer must be a seat number"),
    ({"seed": "1"}, "seed must be an integer of at most 64 bits, not '1'"),
    ({"seed": 1.5}, "seed must be an integer"),
    ({"seed": None}, "seed must be an integer"),
    ({"seed": 10**100}, "seed must be an integer"),
    ({"deck": "JC"}, "deck must be a list of the pack's cards"),
    ({"deck": ["JC"] * 32}, "given twice: JC"),
    ({"deck": [1, 2]}, "1 in the stacked deck is not a card"),
])
def test_new_state_checks_its_arguments(game: spelbok.Game, kwargs: dict[str, Any],
                                        message: str) -> None:
    with pytest.raises(SpelbokError, match=message):
        game.new_state(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    ({"players": "3"}, "Example is for 2 to 4 players, not '3'"),
    ({"players": 3.0}, "not 3.0"),
    ({"players": True}, "not True"),
    ({"players": 100}, "not 100"),
    ({"options": "void_rule=any"}, "options must be a map"),
    ({"options": {1: 2}}, "options must be a map"),
    ({"options": {"void_rule": "x"}}, "option 'void_rule' cannot be 'x'"),
    ({"options": {"foo": 1}}, "unknown option 'foo'"),
])
def test_load_checks_its_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(SpelbokError, match=message):
        spelbok.load("example", **kwargs)


@pytest.mark.parametrize("spec", [3, None, ["example"]])
def test_load_checks_the_spec_argument(spec: Any) -> None:
    with pytest.raises(spelbok.ArgumentError, match="spec must be a path"):
        spelbok.load(spec)


def test_apply_refuses_hand_made_actions_that_are_not_notation(game: spelbok.Game) -> None:
    from spelbok.engine.actions import CARD, CARDS, NUMBER, SUIT, WORD, Action

    state = game.new_state(seed=1)
    for a in (Action(CARD, "", 999), Action(CARD, "", -1), Action(CARDS, "swap", 1 << 60),
              Action(NUMBER, "bid", 10**20), Action(9, "x", 1), Action(WORD, "x" * 10**6),
              Action(SUIT, "trump", 7), Action(WORD, 3, "x")):  # type: ignore[arg-type]
        with pytest.raises(spelbok.InvalidActionError, match="not an action"):
            state.clone().apply(a)


def test_deeply_nested_values_are_refused_without_recursing(game: spelbok.Game,
                                                             snap: dict[str, Any]) -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    for key in ("pc", "hands", "options", "start", "actions", "trick", "game", "choice", "gv"):
        with pytest.raises(SnapshotError):
            game.restore(changed(snap, **{key: deep}))
    refused(game, changed(snap, pc=deep), "'pc' must be an integer, not a list")
    refused(game, changed(snap, pc="3"), "'pc' must be an integer, not str '3'")


def test_a_determinized_sample_is_refused_with_the_reason(game: spelbok.Game) -> None:
    import pickle
    import random

    state = game.new_state(seed=1)
    sample = state.determinize(state.current_player or 0, random.Random(5))
    with pytest.raises(SnapshotError, match="snapshot of a determinized sample"):
        game.restore(sample.to_dict())
    assert pickle.loads(pickle.dumps(sample)).to_dict() == sample.to_dict()


def test_hostile_values_in_a_snapshot_start_and_options_are_refused(
        game: spelbok.Game, snap: dict[str, Any]) -> None:
    deep: list[Any] = []
    for _ in range(10_000):
        deep = [deep]
    for change in ({"start": {**snap["start"], "deck": [deep]}},
                   {"start": {**snap["start"], "deck": ["AS"] * 3}},
                   {"options": {k: 10**5000 for k in snap["options"]} or {"x": 10**5000}}):
        with pytest.raises(SnapshotError):
            game.restore({**snap, **change})


def test_malformed_hand_made_exchanges_are_refused_after_listing() -> None:
    from spelbok.engine.actions import CARDS, Action

    knekt = spelbok.load("knektpass", players=3)
    state = knekt.new_state(seed=1)
    while state.decision_name != "exchange":
        state.apply(state.legal_actions()[0])
    for bad in (Action(CARDS, "exchange", "x"), Action(CARDS, "exchange", 1.5),  # type: ignore[arg-type]
                tuple.__new__(Action, (1, 2))):
        state.legal_actions()  # the lazy list is what apply() checks against
        with pytest.raises(spelbok.InvalidActionError):
            state.apply(bad)


def test_load_option_values_of_any_size_are_refused_cleanly() -> None:
    with pytest.raises(SpelbokError, match="cannot be a 5001-digit number"):
        spelbok.load("example", options={"void_rule": 10**5000})


def test_a_snapshot_written_before_a_trick_rule_existed_restores() -> None:
    """A trick rule added to the language since (``overtrump``) is absent from an
    older snapshot's ``tf``: there it holds its default, and the snapshot restores."""
    import random as _random

    import spelbok as _spelbok
    from spelbok.errors import SnapshotError as _SnapshotError

    game = _spelbok.load("knektpass", players=3)
    st = game.new_state(seed=3)
    rng = _random.Random(1)
    for _ in range(12):
        st.apply(rng.choice(st.legal_actions()))
    d = st.to_dict()
    assert d["tf"]["overtrump"] is False
    del d["tf"]["overtrump"]
    assert game.restore(d) == st
    d["tf"]["overtrump"] = True  # not what the rules say: still refused
    with pytest.raises(_SnapshotError, match="'tf' should be"):
        game.restore(d)
