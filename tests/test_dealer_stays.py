"""``dealer.stays``: a condition read as each hand ends; while it holds the same dealer
deals the next hand (in YAML and the DSL, validate, describe)."""

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


def spec(stays: str = "keep") -> str:
    head = HEAD.replace("hand:\n", "variables:\n  hand: {keep: false}\ndealer: {first: 0, "
                        f"stays: \"{stays}\"}}\nhand:\n")
    return (head + "  - deal: {size: 3}\n  - set: {keep: \"hand_number == 1\"}\n"
            "  - tricks: {}\nend: {when: \"hand_number >= 3\", winners: \"true\"}\n")


def dealers(text: str) -> list[tuple[int, int]]:
    st = spelbok.load(text, players=2).new_state(seed=1)
    seen = []
    while not st.is_terminal:
        seen.append((st.hand_number, st.dealer))
        st.apply(st.legal_actions()[0])
    return sorted(set(seen))


def test_the_same_dealer_deals_again_while_it_holds() -> None:
    assert dealers(spec()) == [(1, 0), (2, 0), (3, 1)]
    assert dealers(spec("false")) == [(1, 0), (2, 1), (3, 0)]


def test_the_dsl_writes_and_reads_stays() -> None:
    canonical = normalize(load_yaml(spec(), "a.yaml")[0])
    dsl = to_dsl(canonical)
    assert "the same dealer deals again after a hand if keep" in dsl
    assert normalize(parse_dsl(dsl, "a.spel")[0]) == canonical


def test_validate_locates_a_stays_that_is_no_condition() -> None:
    text = spec("hand_number")
    with pytest.raises(SpecError) as info:
        spelbok.load(text, players=2)
    assert info.value.line == next(i for i, s in enumerate(text.splitlines(), 1) if "stays" in s)


def test_describe_says_who_deals_again() -> None:
    assert "The same player deals again after a hand where" in " ".join(describe(spec()).split())
