"""The trick in progress is one value (:class:`spelbok.engine.trick.Trick`, held by
``State.trick``), and the winner rule has one definition
(:func:`spelbok.engine.trick.trick_winner`, :meth:`Trick.running` over the trick's cards).

The running winner the trick play keeps in the trick, card by card, on its hot path
(``TrickPlay.apply`` inlines the rule; ``CardPlay`` adds face-down, losing and kept
cards) is pinned to the definition: random matches of every shipped spec and variant,
at their fewest and most players, with a few seeds; after every action, the trick's
running winner (``led``, ``best_seat``, ``best_key``, ``best_led``, ``best_trumped``)
must be the definition applied to the trick's cards so far, and each closed trick must
go to the seat the definition names (:func:`~spelbok.engine.trick.taker`).  A
hand-written spec adds face-down plays as the lowest trump, which no shipped spec
declares.  The test can fail: a wrong rule patched into the play (ties to the last
card; a face-down card one below the lowest trump) is caught.

The trick's fields are declared in the state's table (owner ``trick``); clones share
the trick until one of them writes it (:meth:`Trick.own`): a clone played on leaves the
original as it was, and the other way round.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
import spelbok
from spelbok.engine import card_play, trick_play
from spelbok.engine.actions import CARD, CARDS
from spelbok.engine.card_play import CardPlay
from spelbok.engine.dummy import hand_seat
from spelbok.engine.fields import FIELDS, TRICK_FIELDS, read
from spelbok.engine.trick import Trick, key_of, taker, trick_winner, trumps_count
from spelbok.engine.trick_play import TrickPlay
from spelbok.lang.loader import shipped_spec_names

from tests.minispec import mini

SEEDS = (1, 2, 3)
# a face-down card counted as the lowest trump (the shipped Truco plays it as no suit)
DOWN_TRUMP = mini("  - deal: {size: 5}\n  - set: {trump: \"'S'\"}\n"
                  "  - tricks: {face_down: \"led_suit != 'none' and "
                  "count(cards_of(hand, led_suit)) == 0\"}\n")


@cache
def _game(name: str, players: int) -> spelbok.Game:
    return spelbok.load(name, players=players, max_hands=4)


def cases() -> list[tuple[str, int]]:
    out = []
    for name in shipped_spec_names():
        tree = spelbok.load(name).tree
        if any(isinstance(s, dict) and (s.get("tricks") or {}).get("combos")
               for s in tree["hand"]):
            continue  # plays of several cards: their rule is tests/test_combos.py's
        for n in sorted({tree["players"]["min"], tree["players"]["max"]}):
            out.append((name, n))
    return out


def _mask(pairs: Any) -> int:
    m = 0
    for _p, c in pairs:
        m |= 1 << c
    return m


def _rule(play: TrickPlay) -> tuple[bool, int]:
    """What the definition needs of the trick play: face-down cards as trumps, losing cards."""
    if isinstance(play, CardPlay):
        return play.down_trump, play.losing
    return True, 0


def _taken_outright(st: Any, ins: TrickPlay, pairs: list[tuple[int, int]]) -> int:
    """The seat whose card takes the trick outright (``tricks.takes_trick``) once ``pairs``
    complete it, read on a copy of the state with the last card in the trick: the spec's
    own rule beside the winner rule (-1: none takes it, or the trick goes on)."""
    if ins.takes is None or len(pairs) != len(st.trick.order):
        return -1
    probe = st.clone()
    tr = probe.trick.own(probe)
    seat, card = pairs[-1]
    probe.hands[seat] &= ~(1 << card)
    tr.cards.append((seat, card))
    tr.pos += 1
    for p, c in pairs:
        probe.cand = c
        if ins.takes(probe, p):
            return p
    return -1


def check_match(game: spelbok.Game, seed: int, max_steps: int = 1500) -> tuple[int, list[str]]:
    """Play one random match; (cards checked, failures)."""
    rng = random.Random(seed)
    st = game.new_state(seed=seed, record=True)
    code = game.program.code
    down = 0  # the cards played face down, until their trick closes
    checked = 0
    failures: list[str] = []
    steps = 0
    while not st.is_terminal and steps < max_steps and len(failures) < 3:
        steps += 1
        ins = code[st.pc]
        a = rng.choice(st.legal_actions())
        if not isinstance(ins, TrickPlay):
            st.apply(a)
            continue
        down_trump, losing = _rule(ins)
        pairs = list(st.trick.cards)
        held = hand_seat(st)  # the hand played: the seat to act's, or a dummy's
        if a.kind == CARD:
            pairs.append((held, a.value))
        elif a.kind == CARDS:  # face down, or with a declaration
            pairs.append((held, a.cards[0]))
            if isinstance(ins, CardPlay) and a.verb == ins.down_word:
                down |= 1 << a.cards[0]
        # a trick's rules (tables, trumps, trump) hold from its first card to its close
        # (a lone card may name trump, and wins its trick whatever the tables); the
        # closing card may end the hand, and the next one deal
        tables, trumps, trump = st.tables, trumps_count(st), st.trump
        plain = st.trick.plain  # cards played before a trump named in the trick
        taken = _taken_outright(st, ins, pairs)
        seen = len(st.log)
        st.apply(a)
        closed = [e for e in st.log[seen:] if e["event"] == "trick"]
        if closed:  # the action closed the trick
            run = trick_winner(tables, pairs, trumps, trump, down & _mask(pairs), down_trump, losing,
                               plain, st.prog.sides)
            winner = closed[0]["winner"]  # -1: a tied trick, won by nobody
            if len(closed[0]["cards"]) != len(pairs) or winner != (
                    taken if taken >= 0 else -1 if run.tie >= 0 else taker(pairs, run.seat)):
                failures.append(f"seed {seed} step {steps}: trick {pairs} went to {winner}, "
                                f"the rule gives {taker(pairs, run.seat)} ({run})")
            down &= ~_mask(pairs)
            checked += 1
        elif st.trick.cards:  # the trick goes on: the running winner is the rule's
            tr = st.trick
            assert tr.down(st.hidden) == down & tr.mask()  # the trick's face-down cards
            run = tr.running(st.tables, trumps_count(st), st.trump, down & tr.mask(),
                             down_trump, losing, st.prog.sides)
            got = (tr.led, tr.best_seat, tr.best_key, tr.best_led, tr.best_trumped, tr.tied())
            if got != tuple(run):
                failures.append(f"seed {seed} step {steps}: trick {tr.cards} runs {got}, "
                                f"the rule gives {tuple(run)}")
            checked += 1
    return checked, failures


@pytest.mark.parametrize(("name", "players"), cases())
def test_the_running_winner_is_the_one_rule(name: str, players: int) -> None:
    game = _game(name, players)
    total = 0
    for seed in SEEDS:
        checked, failures = check_match(game, seed)
        assert not failures, failures
        total += checked
    assert total > 0


def test_face_down_as_the_lowest_trump_is_the_one_rule() -> None:
    for players in (2, 4):
        game = spelbok.load(DOWN_TRUMP, players=players)
        assert isinstance(game.program.code[_trick_play_at(game)], CardPlay)
        downs = 0
        for seed in range(1, 13):
            checked, failures = check_match(game, seed)
            assert not failures, failures
            downs += checked
        assert downs > 0


def _trick_play_at(game: spelbok.Game) -> int:
    return next(i for i, ins in enumerate(game.program.code) if isinstance(ins, TrickPlay))


def _failures(game: spelbok.Game, seeds: range) -> list[str]:
    out: list[str] = []
    for seed in seeds:
        out += check_match(game, seed)[1]
    return out


@pytest.mark.skipif(spelbok.COMPILED, reason="patches the play's pure-Python code")
def test_a_wrong_running_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ties to the last card played (wrong: the first of equal cards keeps the trick)
    are caught in a game with copies of each card."""
    placed = trick_play.TrickPlay._placed

    def ties_to_the_last(self: TrickPlay, st: spelbok.State, seat: int, c: int) -> bool:
        tr = st.trick.own(st)
        if (tr.led >= 0 and tr.best_key > 0 and seat != tr.best_seat
                and key_of(st.tables, c, tr.led, trumps_count(st)) == tr.best_key):
            tr.best_seat = seat
        return placed(self, st, seat, c)

    game = _game("pinochle", 4)
    assert not _failures(game, range(1, 3))
    monkeypatch.setattr(trick_play.TrickPlay, "_placed", ties_to_the_last)
    assert _failures(game, range(1, 3))


@pytest.mark.skipif(spelbok.COMPILED, reason="patches the play's pure-Python code")
def test_a_wrong_face_down_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A face-down card counted one below the lowest trump is caught."""
    game = spelbok.load(DOWN_TRUMP, players=4)  # (with two, the face-down card closes)
    assert not _failures(game, range(1, 13))
    monkeypatch.setattr(card_play, "down_key", lambda trump, trumps, as_trump: 99 if as_trump else 0)
    assert _failures(game, range(1, 13))


# -- the trick as a value: declared in the state's table, shared by clones until written


def test_the_trick_holds_the_fields_the_table_gives_it() -> None:
    fresh = Trick()
    assert all(hasattr(fresh, name) for name in TRICK_FIELDS)
    slots = getattr(Trick, "__slots__", None)  # (a compiled Trick has C fields instead)
    if slots is not None:
        assert sorted(slots) == sorted((*TRICK_FIELDS, "shared"))
    declared = getattr(Trick, "__annotations__", None)
    if declared:
        assert sorted(declared) == sorted((*TRICK_FIELDS, "shared"))
    # values() (equality, pickles) holds every field of the table
    assert sorted(map(repr, fresh.values())) == sorted(repr(getattr(fresh, n)) for n in TRICK_FIELDS)
    st = _game("knockout-whist", 4).new_state(seed=2)
    for f in FIELDS:
        if f.owner:
            assert f.owner == "trick" and read(st, f) == getattr(st.trick, f.name), f.name


def _fingerprint(st: spelbok.State) -> Any:
    return st.to_dict(), st.trick.values(), st.trick.copy()


def test_clones_share_the_trick_until_one_writes_it() -> None:
    """At every action of random matches, a clone played on a few actions leaves the
    original as it was (and the original played on leaves the clone)."""
    for name, players in (("knockout-whist", 4), ("pinochle", 4), ("truco", 2)):
        if name not in shipped_spec_names():
            continue
        game = _game(name, players)
        rng = random.Random(7)
        st = game.new_state(seed=7)
        steps = 0
        while not st.is_terminal and steps < 120:
            steps += 1
            c = st.clone()
            assert c.trick is st.trick and st.trick.shared
            before = _fingerprint(st)
            for _ in range(3):
                if c.is_terminal:
                    break
                c.apply(rng.choice(c.legal_actions()))
            assert _fingerprint(st) == before, (name, steps)
            kept = _fingerprint(c)
            other = st.clone()
            other.apply(rng.choice(other.legal_actions()))
            assert _fingerprint(c) == kept, (name, steps)
            st.apply(rng.choice(st.legal_actions()))


def test_a_trick_pickles_and_compares_by_its_fields() -> None:
    import pickle

    st = _game("knockout-whist", 4).new_state(seed=5)
    rng = random.Random(5)
    while not st.trick.cards:
        st.apply(rng.choice(st.legal_actions()))
    back = pickle.loads(pickle.dumps(st))
    assert back.trick == st.trick and back.trick is not st.trick and back == st
    c = st.clone()
    c.trick.own(c).best_seat = 3 - st.trick.best_seat  # another winner: another state
    assert c.trick != st.trick and c != st
    assert st.trick.values() == back.trick.values()
