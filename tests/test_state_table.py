"""The match state is declared once (spelbok.engine.state.FIELDS): clone() and the
resets of a new hand or match are hand-written for speed, and checked here against the
table; equality, snapshots and the card zones read it.  Comparing never changes a state."""

from __future__ import annotations

import random
from typing import Any

import spelbok
from spelbok.analysis.conformance import zones_mask
from spelbok.engine.fields import FIELDS, read, write
from spelbok.engine.state import State

BY_NAME = {f.name: f for f in FIELDS}


def _mid_hand(name: str = "knockout-whist", players: int = 4, seed: int = 3) -> State:
    """A state inside trick play, with most hand fields away from their fresh values."""
    s = spelbok.load(name, players=players).new_state(seed=seed, record=True)
    rng = random.Random(seed)
    while not (s.trick.cards and s.trick_no and s.current_player is not None):
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_the_table_names_every_field_once() -> None:
    names = [f.name for f in FIELDS]
    assert len(names) == len(set(names))
    declared = getattr(State, "__annotations__", None)  # the class's typed fields
    if declared:
        assert {f.name for f in FIELDS if not f.owner} == set(declared)
    st = spelbok.load("example", players=3).new_state(seed=1)
    assert all(hasattr(st.trick if f.owner else st, f.name) for f in FIELDS)  # each one set
    for f in FIELDS:
        assert f.copy in ("copied", "shared", "cow") and f.reset in ("hand", "match", "never"), f
        assert f.owner in ("", "trick") and (f.copy == "cow") == (f.kind == "trick"), f
    keys = [f.snapshot for f in FIELDS if f.snapshot]
    assert len(keys) == len(set(keys))


def test_clone_copies_exactly_the_fields_the_table_says() -> None:
    s = _mid_hand()
    c = s.clone()
    assert c.trick is s.trick and s.trick.shared  # shared until written (Trick.own)
    c.trick.own(c)
    for f in FIELDS:
        mine, theirs = read(s, f), read(c, f)
        assert theirs == mine, f.name  # clone() forgets no field
        if f.copy == "cow":
            assert theirs is not mine  # the writer's own copy
        elif f.copy == "copied" and mine is not None:
            assert theirs is not mine, f.name
        elif f.kind not in ("int", "bool"):  # (a compiled State keeps numbers unboxed)
            assert theirs is mine, f.name
    assert all(a is not b for a, b in zip(c.pv_rows, s.pv_rows, strict=True))


def _fresh(f: Any, n: int) -> Any:
    if f.kind in ("masks", "seats"):
        return [f.fresh] * n
    return list(f.fresh) if isinstance(f.fresh, tuple) else f.fresh


def test_a_new_hand_resets_exactly_the_fields_the_table_says() -> None:
    s = _mid_hand()
    before = s.clone()
    s.prog.start_hand(s)
    from_program = {"rng_n", "stock", "shuf", "settled"}  # the new hand's shuffle
    for f in FIELDS:
        now, was = read(s, f), read(before, f)
        if f.reset == "hand" and f.fresh is not None:
            assert now == _fresh(f, s.n), f.name
        elif f.reset == "hand" or f.name in from_program or f.name in ("pv_rows", "gv"):
            continue  # set from the program: its tables, flags, counters, the shuffle...
        elif f.name == "rec":
            assert now[:len(was)] == was  # the new hand's event
        else:
            assert now == was, f.name  # a new hand leaves the match's own fields alone
    # the fields the table marks as reset each hand really were away from their values
    moved = {f.name for f in FIELDS if f.reset == "hand" and f.fresh is not None
             and read(before, f) != _fresh(f, s.n)}
    assert {"hands", "cards", "trick_no", "won", "history_tricks"} <= moved


def test_a_new_match_resets_the_match_fields() -> None:
    s = _mid_hand()
    s.prog.start_match(s, dealer=0)
    for f in FIELDS:
        if f.reset == "match" and f.fresh is not None:
            assert read(s, f) == _fresh(f, s.n), f.name
    assert s.dealer == 0 and s.gv == s.prog.global_init


def test_comparing_two_states_changes_neither() -> None:
    game = spelbok.load("example", players=3)
    s = game.new_state(seed=4)
    assert s.settled > 0  # the talon's order is still to be worked out (lazily)
    other = game.new_state(seed=4)
    inside = [(name, getattr(s, name)) for name in ("stock", "settled", "shuf")]
    copies = [(name, list(v) if isinstance(v, list) else v) for name, v in inside]
    assert s == other and other == s
    snap = s.to_dict()
    assert [(name, getattr(s, name)) for name in ("stock", "settled", "shuf")] == copies
    assert s.settled > 0 and snap == other.to_dict() == s.to_dict()
    settled = other.clone()
    settled.settle()  # worked out in place: the same match
    assert settled == s and settled.to_dict() == snap


def test_equality_compares_the_fields_the_table_says() -> None:
    s = _mid_hand()
    for f in FIELDS:
        c = s.clone()
        value = read(c, f)
        if f.kind != "int" or f.name in ("n", "settled"):  # settled: how far the shuffle is done
            continue
        write(c, f, value + 1)
        assert (c == s) is (not f.compared), f.name
        assert read(s, f) == value, f.name  # (the trick's field: written in c's own copy)


def test_snapshots_and_zones_follow_the_table() -> None:
    s = _mid_hand()
    snap = s.to_dict()
    assert list(snap)[3:] == [f.snapshot for f in FIELDS if f.snapshot]
    union, total = zones_mask(s)
    deck = s.prog.deck_mask
    assert union == deck and total == deck.bit_count()
    zones = {f.name for f in FIELDS if f.zone}
    assert zones == {"hands", "stock", "turn_up", "discards", "widow", "cards", "history_tricks",
                     "passing"}
    assert s.game.restore(snap) == s
