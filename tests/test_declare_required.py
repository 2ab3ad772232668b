"""A declaration a card may not go without (``tricks.declare[].required``): a joker led
must name the suit the others follow, so the joker led alone is no legal play; and a
declared pack's card past the 52 French ones played with a declaration (Mighty's joker
in a 53-card pack)."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.errors import IllegalActionError, SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

SUITS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}


def spec(required: str = "true", ranks: str = "A, K, Q, J, 10, 9, 8, 7") -> str:
    words = "\n".join(
        f"""      - word: {word}
        when: "led_suit == 'none' and card == 'JK'"
        then: {{named: "'{s}'"}}
        required: {required}"""
        for word, s in SUITS.items())
    low_high = ", ".join(reversed(ranks.split(", ")))
    return f"""spelbok: 1
name: Named joker
players: {{min: 3, max: 3}}
options:
  must_name: {{values: [true, false], default: true}}
pack:
  suits: [{{letter: C}}, {{letter: S}}, {{letter: H, colour: red}}, {{letter: D, colour: red}}]
  ranks: [{low_high}]
  extra: [{{name: JK}}]
deck:
  - ranks: [{ranks}]
ranking:
  top_trumps: [JK]
variables:
  hand: {{named: "'none'"}}
hand:
  - deal: {{size: 3}}
  - tricks:
      declare:
{words}
end: {{when: "hand_number >= 2", winners: "tricks == max(tricks)"}}
"""


def start(text: str, hands: dict[int, str], options: dict[str, object] | None = None
          ) -> spelbok.State:
    return spelbok.load(text, players=3, options=options).new_state(
        seed=1, position={"trump": "none", "leader": 0, "hands": hands})


def names(st: spelbok.State) -> list[str]:
    return sorted(str(a) for a in st.legal_actions())


HANDS = {0: "JK 7C 8C", 1: "AS 7H 9D", 2: "KC 8H QD"}


def test_the_joker_led_alone_is_no_play_when_a_declaration_is_required() -> None:
    st = start(spec(), HANDS)
    assert "JK" not in names(st)
    assert {"clubs JK", "hearts JK", "7C", "8C"} <= set(names(st))
    with pytest.raises(IllegalActionError, match="JK is played only with a declaration: clubs JK"):
        st.apply("JK")
    st.apply("hearts JK")
    assert st.var("named") == "H"


def test_without_required_the_joker_may_be_led_alone() -> None:
    st = start(spec("false"), HANDS)
    assert "JK" in names(st)
    st.apply("JK")
    assert st.var("named") not in SUITS.values()  # it named nothing


def test_required_may_name_an_option() -> None:
    text = spec("must_name")
    assert "JK" not in names(start(text, HANDS))
    assert "JK" in names(start(text, HANDS, {"must_name": False}))


def test_a_card_the_declaration_does_not_admit_is_played_alone() -> None:
    st = start(spec(), HANDS)
    st.apply("7C")
    assert "AS" in names(st)  # not led: no declaration admits a follower's card


def test_the_only_card_left_must_still_be_declared() -> None:
    st = start(spec(), {0: "JK", 1: "AS", 2: "KC"})
    assert names(st) == ["clubs JK", "diamonds JK", "hearts JK", "spades JK"]


def test_a_declaration_with_the_53rd_card_of_a_declared_pack() -> None:
    """The joker of a whole French pack plus one is card 52: played with a declaration
    it is played by the pack's card actions."""
    text = spec(ranks="A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2")
    st = start(text, HANDS)
    st.apply("spades JK")
    assert st.var("named") == "S"
    assert "AS" in names(st)


def test_the_dsl_writes_and_reads_required() -> None:
    canonical = normalize(load_yaml(spec("must_name"), "a.yaml")[0])
    dsl = to_dsl(canonical)
    assert "the card may not be played without a declaration if must_name" in dsl
    assert normalize(parse_dsl(dsl, "a.spel")[0]) == canonical
    canonical = normalize(load_yaml(spec(), "a.yaml")[0])
    assert normalize(parse_dsl(to_dsl(canonical), "a.spel")[0]) == canonical


def test_describe_says_the_card_needs_a_declaration() -> None:
    assert "may not be played without a declaration" in " ".join(describe(spec()).split())


def test_validate_refuses_a_required_that_is_not_fixed() -> None:
    with pytest.raises(SpecError):
        spelbok.load(spec("named == 'H'"), players=3)


def test_the_game_ai_interface_plays_a_declaration_with_a_declared_pack_card() -> None:
    """The PettingZoo action of a declaration names the declared pack's card (the joker,
    card 52 of a 53-card pack), so the engine takes it."""
    pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from spelbok.rl.pettingzoo import env

    text = spec(ranks="A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2")
    e = env(text, players=3, max_hands=1)
    played = 0
    for seed in range(20):
        e.reset(seed=seed)
        for _agent in e.agent_iter(max_iter=200):
            obs, _rew, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = [int(i) for i in obs["action_mask"].nonzero()[0]]
            words = [i for i in legal if e.encoding.labels[i].endswith(" JK")]
            pick = words[0] if words else legal[0]
            played += bool(words)
            e.step(pick)
    assert played > 0
