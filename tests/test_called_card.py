"""An auction's ``call: rank_order``: the declarer calls a card of the first called rank
he does not hold whole, one of his own too (French Tarot's called king at five)."""

from __future__ import annotations

import random

import pytest
import spelbok
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml
from spelbok.validation import validate

from tests.test_auction import play, spec

ORDER = "      partner: called_card\n      called_ranks: [K, Q]\n      call: rank_order\n"


def _kings(st: spelbok.State, seat: int) -> list[str]:
    return [c for c in st.view(seat)["hand"] if c[0] == "K"]


def test_the_declarer_may_call_his_own_king() -> None:
    game = spelbok.load(spec(ORDER))
    for seed in range(40):
        st = game.new_state(seed=seed)
        play(st, "bid 6", "pass", "pass", "pass")
        kings = _kings(st, 1)
        if not kings or len(kings) == 4:
            continue
        calls = [str(a).split()[1] for a in st.legal_actions()]
        assert sorted(calls) == sorted(["KS", "KH", "KD", "KC"])
        play(st, f"call {kings[0]}")
        assert st.view(1)["auction"]["partner"] == 1  # he plays alone, and knows it
        assert all(st.view(p)["auction"]["partner"] is None for p in (0, 2, 3))
        # a sample for another seat may deal the called king to the declarer
        samples = [st.determinize(0, random.Random(k)) for k in range(30)]
        assert any(kings[0] in s.view(1)["hand"] for s in samples)
        return
    pytest.fail("no deal with a king in the declarer's hand")


def test_holding_every_king_he_calls_a_queen() -> None:
    game = spelbok.load(spec(ORDER))
    deck = list(game.deck)
    # where the deal puts each card of the deck: swap every king to seat 1's places
    mine = set(game.new_state(seed=0, deck=deck, dealer=0).view(1)["hand"])
    places = [i for i, c in enumerate(deck) if c in mine]
    for place, king in zip(places, ("KS", "KH", "KD", "KC"), strict=False):
        k = deck.index(king)
        deck[place], deck[k] = deck[k], deck[place]
    st = game.new_state(seed=0, deck=deck, dealer=0)
    assert len(_kings(st, 1)) == 4
    play(st, "bid 6", "pass", "pass", "pass")
    assert sorted(str(a).split()[1] for a in st.legal_actions()) == sorted(
        ["QS", "QH", "QD", "QC"])


def test_not_held_is_the_default_and_the_dsl_says_rank_order() -> None:
    tree = normalize(load_yaml(spec(ORDER), "a.yaml")[0])
    text = to_dsl(tree)
    assert "the declarer calls a partner by a card of rank K Q, in rank order" in text
    assert normalize(parse_dsl(text, "a.spel")[0]) == tree
    assert "of which they do not hold every card" in " ".join(describe(spec(ORDER)).split())
    plain = spec("      partner: called_card\n      called_ranks: [K]\n")
    assert "they do not hold; its" in " ".join(describe(plain).split())


def test_call_without_a_called_partner_is_a_located_error() -> None:
    bad = spec("      call: rank_order\n")
    errors = [e for e in validate(bad) if "'call' is only used" in e.message]
    assert errors and "'call' is only used with 'partner: called_card'" in errors[0].message
    assert errors[0].line is not None
    bad = spec("      partner: called_card\n      call: highest\n")
    errors = validate(bad)
    assert errors and isinstance(errors[0], SpecError) and "call" in errors[0].message
