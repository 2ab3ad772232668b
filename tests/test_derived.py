"""The language's consumers read the vocabulary: one meaning of each default, a handler
of each step kind in every walker, and a getter of each declared builtin."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import spelbok
from minispec import mini
from spelbok.engine import compiler
from spelbok.engine.game import Game
from spelbok.engine.trick import legal_cards, refusal
from spelbok.lang import describe, dslwrite, meaning
from spelbok.lang import vocabulary as v
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.model import normalize
from spelbok.validation import validate

# -- drift: one meaning of each default -----------------------------------------------------


def test_a_most_tie_without_ties_goes_to_forehand_in_the_compiler_too() -> None:
    # the model filled 'forehand', the compiler fell back on 'cut' (a random pick)
    text = mini('  - deal: {size: 5}\n  - decide: d\n    who: {most: "0"}\n    choose: [go]\n'
                "  - tricks: {}\n")
    game = spelbok.load(text, players=3)
    who = game.doc.tree["hand"][1]["who"]
    assert who["ties"] == v.construct("who_map").field("ties").default == "forehand"
    del who["ties"]  # a tree that reaches the compiler without the key
    bare = Game(game.doc, 3)
    for seed in range(8):
        s = bare.new_state(seed=seed)
        assert s.current_player == (s.dealer + 1) % 3, seed


def test_an_absent_max_hands_is_the_safety_bound_everywhere() -> None:
    # the model said "no bound", the compiler 1000: the vocabulary's default is the one meaning
    game = spelbok.load(mini(), players=2)
    assert "max_hands" not in game.doc.tree["end"]
    assert game.program.max_hands == v.DEFAULT_MAX_HANDS
    assert v.construct("end").field("max_hands").default == v.DEFAULT_MAX_HANDS
    never = mini().replace('when: "hand_number >= 3"', "when: false")
    [error] = validate(never)
    assert "the match can never end" in str(error)
    assert f"after {v.DEFAULT_MAX_HANDS} hands" in str(error)


# -- the compiler's getters ------------------------------------------------------------------


def test_every_declared_builtin_has_a_getter_and_no_getter_is_undeclared() -> None:
    table = compiler.Resolver(4, {}, {}, {}, teams=[[0, 2], [1, 3]]).table
    assert set(table) == {b.name for b in v.BUILTINS}
    assert set(compiler.BUILTINS) == set(table)


# -- every walker handles every step kind ------------------------------------------------------


def test_every_step_kind_has_a_describer_a_writer_and_a_compiler() -> None:
    assert set(describe._STEP_TEXT) == set(v.STEP_KINDS)
    assert set(dslwrite._STEP_WRITERS) == set(v.STEP_KINDS)
    assert set(compiler.KINDS) == set(v.STEP_KINDS)
    assert all(callable(compiler.step_compiler(k)) for k in v.STEP_KINDS)


_TEXT_TYPES = ("formula", "condition", "count")


@pytest.mark.parametrize("kind", v.STEP_KINDS)
def test_the_checks_visit_every_formula_key_of_each_step_kind(kind: str) -> None:
    c = v.step(kind)
    step: dict[str, Any] = {f.name: "seats" for f in c.own_fields() if f.type in _TEXT_TYPES}
    if c.body is not None:
        step[kind] = {f.name: "seats" for f in c.body if f.type in _TEXT_TYPES}
    elif c.value is not None:
        step[kind] = {"assignments": {"a": "seats"}, "true": True}.get(c.value.type, "seats")
    paths = {p for p, *_ in meaning._step_fields((), step)}
    expected = {(kind, f.name) for f in c.body or () if f.type in _TEXT_TYPES}
    expected |= {(f.name,) for f in c.own_fields() if f.type in _TEXT_TYPES}
    if c.value is not None and c.value.type in _TEXT_TYPES:
        expected.add((kind,))
    assert expected <= paths


# -- a construct added the new way: overtrump ----------------------------------------------------

_OVER = "  - deal: {size: 7}\n  - turn_up: {}\n  - tricks: {overtrump: %s}\n"


def _void_over_trumped(text: str, seeds: range = range(40)) -> Iterator[tuple[Any, int]]:
    """Every turn, in random matches, of a player void in the led suit whose trick a
    trump is winning."""
    game = spelbok.load(text, players=3)
    for seed in seeds:
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            seat = s.current_player
            if (seat is not None and s.trick.led >= 0 and s.trick.best_trumped
                    and not s.hands[seat] & s.tables.suit_mask[s.trick.led]):
                yield s, seat
            s.apply(rng.choice(s.legal_actions()))


def _split(s: Any, seat: int) -> tuple[int, int, int]:
    """The seat's plain cards, its trumps above the trick's best, and the lower ones."""
    t = s.tables
    hand = s.hands[seat]
    trumps = hand & t.trump_mask
    higher = sum(1 << c for c in range(52) if trumps >> c & 1 and t.power[c] > s.trick.best_key)
    return hand & ~trumps, higher, trumps & ~higher


def test_overtrump_a_player_who_trumps_a_trumped_trick_must_beat_it() -> None:
    tested = 0
    for s, seat in _void_over_trumped(mini(_OVER % "true")):
        plain, higher, lower = _split(s, seat)
        legal = legal_cards(s, seat)
        if higher:
            assert legal == plain | higher  # any card but a lower trump (the void rule: any)
            for card in range(52):
                if lower >> card & 1:
                    assert "overtrump" in refusal(s, seat, card)
                    tested += 1
        else:
            assert legal == s.hands[seat]
    assert tested > 0


def test_overtrump_applies_to_a_trump_lead_too() -> None:
    # a bug fixed: following a trump lead, `overtrump` let a lower trump pass (the
    # follow branch returned before the duty); the vocabulary says a trump played to a
    # trick that holds a trump must beat it
    game = spelbok.load(mini("  - deal: {size: 7}\n  - turn_up: {}\n"
                             "  - tricks: {follow: true, overtrump: true}\n"), players=3)
    tested = 0
    for seed in range(40):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            seat = s.current_player
            if seat is not None and s.trick.led >= 0 and s.trick.cards and s.tables.trump[s.trick.cards[0][1]]:
                same = s.hands[seat] & s.tables.suit_mask[s.trick.led]
                higher = sum(1 << c for c in range(52)
                             if same >> c & 1 and s.tables.power[c] > s.trick.best_key)
                if same:
                    assert legal_cards(s, seat) == (higher or same)
                    for card in range(52):
                        if same >> card & 1 and not higher >> card & 1 and higher:
                            assert "overtrump" in refusal(s, seat, card)
                            tested += 1
            s.apply(rng.choice(s.legal_actions()))
    assert tested > 0


def test_overtrump_with_void_trump_and_its_default() -> None:
    both = mini(_OVER % "true, void_trump: true")
    for s, seat in _void_over_trumped(both, range(15)):
        plain, higher, lower = _split(s, seat)
        assert legal_cards(s, seat) == (higher or lower or plain)
    lower_played = 0
    for s, seat in _void_over_trumped(mini(_OVER % "seats == 4"), range(15)):  # false here
        plain, higher, lower = _split(s, seat)
        assert legal_cards(s, seat) == s.hands[seat]
        lower_played += bool(higher and lower)
    assert lower_played > 0
    tree = spelbok.load(mini(_OVER % "false")).doc.tree
    assert "overtrump" not in tree["hand"][2]["tricks"]  # the default leaves the tree as it was


def test_overtrump_in_the_dsl_and_describe() -> None:
    tree = spelbok.load(mini(_OVER % "'seats == 3'")).doc.tree
    text = dslwrite.to_dsl(tree)
    assert "a player who trumps must overtrump if seats == 3" in text
    assert parse_dsl(text, "x.spel")[0]["hand"][2]["tricks"]["overtrump"] == "seats == 3"
    prose = describe.describe(spelbok.load(mini(_OVER % "true")).doc)
    assert "must play a higher trump if able" in " ".join(prose.split())


def test_a_dealer_condition_in_brackets_round_trips_through_the_dsl() -> None:
    # found by the generated round trip: the brackets were lost
    tree = spelbok.load(mini()).doc.tree
    tree["dealer"]["skip_out"] = "(seats > 2)"
    back = normalize(parse_dsl(dslwrite.to_dsl(tree), "x.spel")[0])
    assert back["dealer"]["skip_out"] == "(seats > 2)"


@pytest.mark.parametrize("rule", [f.name for f in v.TRICK_DUTIES])
def test_a_trick_rule_reads_from_its_declaration(rule: str) -> None:
    """A trick rule's DSL phrases and prose are declared with it: the writer, the
    builder and describe read them, and the grammar spells the same words under
    a rule of the same name."""
    from importlib.resources import files

    field = next(f for f in v.TRICK_DUTIES if f.name == rule)
    on, off = field.phrase
    assert on and off and field.prose[0]
    grammar = (files("spelbok.grammar") / "spec.lark").read_text("utf-8")
    assert f"\n{rule}:" in grammar, f"grammar/spec.lark has no rule {rule!r}"
    for value, phrase in ((True, on), (False, off)):
        text = dslwrite.to_dsl(normalize(__import__("yaml").safe_load(
            mini(f"  - deal: {{size: 5}}\n  - tricks: {{{rule}: {str(value).lower()}}}\n"))))
        assert phrase in text or value == field.default  # a default goes unsaid
        tree = parse_dsl(text, "x.spel")[0]
        tricks = next(s for s in normalize(tree)["hand"] if "tricks" in s)["tricks"]
        assert tricks.get(rule, field.default) is value
        tricks_line = f"  - tricks: {{{rule}: {str(value).lower()}}}\n"
        said = " ".join(describe.describe(spelbok.load(mini(f"  - deal: {{size: 5}}\n{tricks_line}")).doc).split())
        prose = field.prose[0 if value else 1]
        assert (prose in said) if prose else (field.prose[0] not in said)
