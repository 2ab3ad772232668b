"""``dealer.next``: a number read as each hand ends, the seat that deals the next hand
(Mighty's holder of the called card); a value that is no seat lets the deal pass as
``rotate`` says (in YAML and the DSL, validate, describe)."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

from tests.minispec import HEAD


def spec(nxt: str = "deal_to") -> str:
    head = HEAD.replace("hand:\n", "variables:\n  hand: {deal_to: -1}\ndealer: {first: 0, "
                        f"next: \"{nxt}\"}}\nhand:\n")
    return (head + "  - deal: {size: 3}\n"
            "  - set: {deal_to: \"if hand_number == 1 then 0 else -1\"}\n"
            "  - tricks: {}\nend: {when: \"hand_number >= 3\", winners: \"true\"}\n")


def dealers(text: str, players: int = 3) -> list[tuple[int, int]]:
    st = spelbok.load(text, players=players).new_state(seed=1)
    seen = []
    while not st.is_terminal:
        seen.append((st.hand_number, st.dealer))
        st.apply(st.legal_actions()[0])
    return sorted(set(seen))


def test_the_seat_named_deals_the_next_hand() -> None:
    # after hand 1 seat 0 is named: it deals again; after hand 2 none is: the deal passes
    assert dealers(spec()) == [(1, 0), (2, 0), (3, 1)]
    assert dealers(spec("-1")) == [(1, 0), (2, 1), (3, 2)]
    assert dealers(spec("2")) == [(1, 0), (2, 2), (3, 2)]


def test_a_value_that_is_no_seat_lets_the_deal_pass() -> None:
    assert dealers(spec("7")) == [(1, 0), (2, 1), (3, 2)]


def test_the_dsl_writes_and_reads_next() -> None:
    canonical = normalize(load_yaml(spec(), "a.yaml")[0])
    dsl = to_dsl(canonical)
    assert "the next hand is dealt by seat deal_to" in dsl
    assert normalize(parse_dsl(dsl, "a.spel")[0]) == canonical


def test_validate_locates_a_next_that_is_no_number() -> None:
    text = spec("hand_number == 1")
    with pytest.raises(SpecError) as info:
        spelbok.load(text, players=3)
    assert info.value.line == next(i for i, s in enumerate(text.splitlines(), 1) if "next:" in s)


def test_describe_says_who_deals_next() -> None:
    assert "The next hand is dealt by seat" in " ".join(describe(spec()).split())
