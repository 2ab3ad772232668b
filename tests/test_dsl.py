"""The DSL surface: parse_dsl, to_dsl, the Knektpass twin, round trips, error messages."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import spelbok.lang.dsl
import spelbok.lang.dslwrite
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spelbok.cli.spec_commands import yaml_text
from spelbok.errors import SpecError
from spelbok.lang import vocabulary as v
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml

ROOT = Path(__file__).parents[1]
KNEKTPASS_YAML = ROOT / "specs" / "knektpass.yaml"
KNEKTPASS_SPEL = ROOT / "specs" / "knektpass.spel"
DOCS = ROOT / "docs" / "dsl.md"
SPECS = ROOT / "tests" / "specs"
TWINS = ["draw_after_trick", "bids_and_teams", "auction_mini"]


def yaml_tree(path: Path = KNEKTPASS_YAML) -> dict[str, Any]:
    return load_yaml(path.read_text(encoding="utf-8"), str(path))[0]


def roundtrip(canonical: dict[str, Any]) -> dict[str, Any]:
    text = to_dsl(canonical)
    return normalize(parse_dsl(text, "roundtrip.spel")[0])


@pytest.mark.parametrize("module", [spelbok.lang.dsl, spelbok.lang.dslwrite])
def test_doctests(module: Any) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


# ------------------------------------------------------------------ Knektpass


def test_knektpass_spel_parses_with_positions() -> None:
    tree, pos = parse_dsl(KNEKTPASS_SPEL.read_text(encoding="utf-8"), "knektpass.spel")
    assert tree["name"] == "Knektpass"
    assert tree["players"] == {"min": 2, "max": 10, "source": tree["players"]["source"]}
    assert tree["ranking"]["top_trumps"] == ["JC", "JS", "JH", "JD"]
    assert len(tree["hand"]) == 9
    assert tree["hand"][7]["tricks"]["leader_where"] == "plays"
    assert pos[()] == ("knektpass.spel", 1, 1)
    lines = KNEKTPASS_SPEL.read_text(encoding="utf-8").split("\n")
    # every recorded position points into the file, at a non-blank character
    for path, (file, line, col) in pos.items():
        assert file == "knektpass.spel"
        assert lines[line - 1][col - 1 :].strip(), path
    # a formula's position is its first character
    file, line, col = pos[("hand", 3, "then", "plays")]
    assert lines[line - 1][col - 1 :].startswith("choice == 'play'")
    file, line, col = pos[("hand", 7, "tricks", "void_trump")]
    assert lines[line - 1][col - 1 :].startswith("void_rule == 'trump' or void_rule == 'overtrump'")


def test_knektpass_spel_equals_yaml() -> None:
    spel = parse_dsl(KNEKTPASS_SPEL.read_text(encoding="utf-8"), "knektpass.spel")[0]
    assert normalize(spel) == normalize(yaml_tree())


def test_knektpass_yaml_roundtrip() -> None:
    canonical = normalize(yaml_tree())
    assert roundtrip(canonical) == canonical


def test_printing_is_stable() -> None:
    canonical = normalize(yaml_tree())
    text = to_dsl(canonical)
    assert to_dsl(normalize(parse_dsl(text, "x.spel")[0])) == text


def test_knektpass_spel_loads_and_plays() -> None:
    import spelbok

    game = spelbok.load(str(KNEKTPASS_SPEL), players=4)
    state = game.new_state(seed=3)
    for _ in range(2000):
        if state.is_terminal:
            break
        state.apply(state.legal_actions()[0])
    assert state.is_terminal


# ------------------------------------------------------------------ the twins of the new constructs


@pytest.mark.parametrize("name", TWINS)
def test_twin_spel_equals_yaml(name: str) -> None:
    spel = SPECS / f"{name}.spel"
    tree, pos = parse_dsl(spel.read_text(encoding="utf-8"), spel.name)
    assert normalize(tree) == normalize(yaml_tree(SPECS / f"{name}.yaml"))
    _assert_positions(tree, pos)


@pytest.mark.parametrize("name", TWINS)
def test_twin_yaml_roundtrip(name: str) -> None:
    canonical = normalize(yaml_tree(SPECS / f"{name}.yaml"))
    assert roundtrip(canonical) == canonical
    text = to_dsl(canonical)
    assert to_dsl(normalize(parse_dsl(text, "x.spel")[0])) == text


def test_twin_positions_of_new_constructs() -> None:
    text = (SPECS / "bids_and_teams.spel").read_text(encoding="utf-8")
    lines = text.split("\n")
    _, pos = parse_dsl(text, "b.spel")

    def at(*path: Any) -> str:
        _, line, col = pos[path]
        return lines[line - 1][col - 1 :]

    assert at("teams", 1, 1).startswith("3")
    assert at("hand", 0, "deal", "widow").startswith("2 cards to the widow")
    assert at("hand", 2, "choose", 0, "when").startswith("not general), play")
    assert at("hand", 3, "max").startswith("cards")
    assert at("hand", 3, "allow").startswith("not (count(not has_bid)")
    assert at("hand", 4, "move", "to").startswith("the discards")
    text = (SPECS / "draw_after_trick.spel").read_text(encoding="utf-8")
    lines = text.split("\n")
    _, pos = parse_dsl(text, "d.spel")
    assert at("hand", 2, "tricks", "count").startswith("13 tricks")
    assert at("hand", 2, "tricks", "after_each", 1, "for").startswith("seat != last_winner")
    assert at("hand", 2, "tricks", "after_each", 2, "when").startswith("talon > 0")


# ------------------------------------------------------------------ table-driven round trips

BASE: dict[str, Any] = {
    "spelbok": 1,
    "name": "Mini",
    "players": {"min": 2, "max": 4},
    "deck": [{"players": [2, 4], "ranks": ["A", "K", "Q", "J", "10", "9", "8", "7"]}],
    "hand": [{"deal": {"size": 5}}, {"tricks": {}}],
    "end": {"when": "hand_number >= 3", "winners": "tricks == max(tricks)"},
}

STEPS: list[dict[str, Any]] = [
    {"deal": {"size": "8 - hand_number", "packets": [3, 2, 3], "to": "not out and seat > 0",
              "source": "deal map source"}, "when": "hand_number > 1", "label": "first deal",
     "source": "step source"},
    {"deal": {"size": 1}},
    {"turn_up": {"trump": True, "source": "t"}},
    {"turn_up": {"trump": False}},
    {"turn_up": {"trump": "jack_suit == 'trump'"}, "label": 'say "hi"\\'},
    {"decide": "trump", "who": {"most": "tricks", "ties": "cut"}, "choose": "suit",
     "suits": ["H", "D"], "then": {"x": "1"}},
    {"decide": "trump", "who": {"most": "tricks + seat"}, "where": "not out", "choose": "suit"},
    {"decide": "bid", "who": "forehand", "where": "cards > 0", "choose": ["pass", "1", "2"]},
    {"decide": "swap", "who": "dealer", "choose": "exchange",
     "exchange": {"draw_from": "turn_up", "max": 1, "min": 1, "source": "ex"},
     "then": {"x": "x + count", "y": "choice == 'a'"}},
    {"decide": "odd", "who": "each", "choose": ["a", "exchange", "or", "the", "Ünï", "x-y", "'"]},
    {"decide": "w", "who": "somebody", "choose": ["yes"], "when": "false"},
    {"decide": "z", "who": "each", "choose": "exchange", "exchange": {"draw_from": "widow"}},
    {"tricks": {"players": "plays", "leader": "dealer", "leader_where": "plays",
                "follow": "jack_suit == 'trump'", "head": True, "head_after_trump": "h",
                "void_trump": True, "void_beat": "v", "lead_trumps": "broken",
                "first_trick_trumps": False, "abstain": "cards > 1", "abstain_word": "wait",
                "abstain_lead": False, "abstain_with_suit": "x > 0", "allow": "card_rank != 'A'",
                "source": "tricks map"}, "source": "tricks step", "label": "play"},
    {"tricks": {"follow": False, "leader": {"most": "tricks", "ties": "cut"},
                "lead_trumps": "lead_rule", "first_trick_trumps": "ftt",
                "abstain": "true", "abstain_lead": "y"}},
    {"tricks": {"leader": "each", "leader_where": "x", "abstain_word": "not", "abstain": "false"}},
    {"set": {"x": "1", "y": "x + 1"}},
    {"set": {"score": "score - tricks", "out": "score > 20"}, "for": "true", "source": "s"},
    {"set": {"score": "if a then max(0, score - 5) else score - 5" + " + 0" * 30}, "for": "plays"},
    {"set": {f"v{i}": f"v{i} + {i} * (cards - tricks)" for i in range(8)}, "for": "plays"},
    {"if": "count(plays) == 0", "then": [{"redeal": {"dealer": "same"}}],
     "else": [{"end_hand": True, "source": "e"}], "source": "if source", "when": "x"},
    {"if": "true", "then": []},
    {"if": "a", "then": [{"if": "b", "then": [{"end_hand": True}], "label": "inner"}]},
    {"repeat": 3, "while": "talon > 0", "steps": [{"set": {"x": "x + 1"}}], "source": "r"},
    {"repeat": "seats - 1", "steps": []},
    {"redeal": {"dealer": "next", "source": "rd"}},
    {"redeal": {"dealer": "redeal_dealer"}},
    {"redeal": {}},
    {"end_hand": True, "when": "count(plays) == 1", "label": "early"},
    # the deal's widow
    {"deal": {"size": 10, "packets": [3, 4, 3], "widow": 2}},
    {"deal": {"size": "cards", "to": "seat > 0", "widow": "seats - 2", "source": "w"}},
    {"deal": {"size": 5, "widow": 1}},
    {"deal": {"size": 5, "widow": "00"}},
    # numeric decisions, allow, words on a condition
    {"decide": "bid", "choose": "number", "min": 0, "max": "cards",
     "allow": "not (count(not has_bid) == 1 and sum(bid) + choice == cards)",
     "then": {"bid": "choice"}},
    {"decide": "bid", "who": "dealer", "where": "plays", "choose": "number",
     "min": "max(0, 1 - tricks)", "max": "to"},
    {"decide": "bid", "choose": "number"},
    {"decide": "call", "choose": [{"word": "general", "when": "not general"}, "play",
                                  {"word": "pass", "when": "count(plays) < (seats - 1)"},
                                  {"word": "x-y", "when": "true"}, {"word": "a", "when": "z"}],
     "allow": "choice != 'play' or cards > 3"},
    {"decide": "trump", "choose": "suit", "allow": "choice != turn_up_suit"},
    {"decide": "take", "choose": "exchange", "exchange": {"draw_from": "widow", "max": 2}},
    {"decide": "take", "choose": "exchange", "exchange": {"draw_from": "talon"}},
    # move
    {"move": {"from": "widow", "to": "discards"}},
    {"move": {"from": "widow", "to": "hand", "count": "all"}, "for": "took_widow"},
    {"move": {"from": "turn_up", "to": "hand", "count": 1}, "for": "seat == last_winner",
     "when": "turn_up > 0", "label": "take", "source": "step"},
    {"move": {"from": "hand", "to": "discards", "count": "cards - 5", "source": "map"},
     "for": "true"},
    {"move": {"from": "hand", "to": "hand", "count": "all(plays)"}, "for": "x"},
    {"move": {"from": "stock", "to": "widow", "count": "cards"}, "for": "plays"},
    {"move": {"from": "stock", "to": "turn_up", "count": 2}, "for": "true"},
    {"move": {"from": "the pile", "to": "of", "count": "1 + 1"}},
    {"move": {"from": "stock", "to": "hand"}},
    {"move": {"from": "hand", "to": "stock", "count": 2, "position": "bottom"}, "for": "true"},
    {"move": {"from": "widow", "to": "stock", "position": "top", "source": "m"}},
    {"move": {"from": "discards", "to": "stock", "position": "shuffled"}},
    {"move": {"from": "discards", "to": "stock", "position": "where_to"}},
    # what breaks trumps; the reason for a card that 'allow' refuses
    {"tricks": {"lead_trumps": "broken", "trumps_broken_by": "any"}},
    {"tricks": {"lead_trumps": "broken", "trumps_broken_by": "ruff"}},
    {"tricks": {"lead_trumps": "lead_rule", "trumps_broken_by": "broken_rule"}},
    {"tricks": {"allow": "card_rank != 'A' or trick_number > 1",
                "reason": "no ace in the first trick, \"please\""}},
    {"tricks": {"reason": "a reason without a rule"}},
    # trick count, scored, after each trick
    {"tricks": {"count": 13, "scored": False}},
    {"tricks": {"count": 13, "leader": "last_winner", "leader_where": "plays"}},
    {"tricks": {"leader": "last_winner"}},
    {"decide": "trump", "who": "last_winner", "choose": "suit"},
    {"tricks": {"count": 1, "scored": "hand_number > 1", "players": "plays",
                "leader": "dealer"}},
    {"tricks": {"count": "tricks_played + 2"}},
    {"tricks": {"count": "tricks + 1"}},
    {"tricks": {"count": "trick"}},
    {"tricks": {"count": "all", "scored": True}},
    {"tricks": {"follow": False, "count": "seats", "source": "ts", "after_each": [
        {"move": {"from": "turn_up", "to": "hand", "count": 1}, "for": "seat == last_winner"},
        {"move": {"from": "stock", "to": "hand", "count": 1}, "for": "seat != last_winner"},
        {"turn_up": {"trump": False}, "when": "talon > 0"},
        {"if": "talon == 0", "then": [{"set": {"x": "1"}}], "else": [{"end_hand": True}]},
        {"tricks": {"count": 1, "after_each": [{"set": {"y": "y + 1"}}]}},
    ]}, "label": "phase one", "source": "step", "when": "x"},
]


@pytest.mark.parametrize("step", STEPS, ids=lambda s: next(iter(s)))
def test_step_roundtrip(step: dict[str, Any]) -> None:
    tree = {**BASE, "hand": [step]}
    canonical = normalize(tree)
    assert roundtrip(canonical) == canonical


TOP_LEVEL: list[dict[str, Any]] = [
    {"about": "A text with \"quotes\", a back\\slash, a\nline break, a\ttab and  two spaces. " * 4,
     "extends": "knektpass.yaml", "sources": {"en": "English", "of": "x", "two words": "y"}},
    {"players": {"min": 3, "max": 3, "source": "p"},
     "options": {"n": {"values": [1, -2, 3], "default": -2},
                 "t": {"values": ["true", "default", "x y", True, "3"], "default": "3",
                       "about": "abc", "source": "o"},
                 "b": {"values": [False]}}},
    {"deck": [{"players": [2, 2], "ranks": ["A", "10", "2"], "suits": ["S", "H"], "source": "d"},
              {"players": [3, 4], "ranks": ["K"]}]},
    {"ranking": {"ranks": ["A", "10", "K"], "top_trumps": ["JC", "J@trump", "J@trump_colour"],
                 "top_trumps_follow": "printed", "cut_ranks": ["2", "A"], "source": "r"}},
    {"ranking": {"top_trumps_follow": "jack_suit"}},
    {"ranking": {"source": "only a source"}},
    {"variables": {"player": {"score": 12, "name": "x \"y\""}, "hand_player": {"plays": False},
                   "hand": {"bid": -1}, "match": {"dog": True}, "source": "v"}},
    {"dealer": {"first": 2, "rotate": "right", "skip_out": False, "source": "dl"}},
    {"dealer": {"first": "random", "rotate": "none", "skip_out": True}},
    {"dealer": {"first": "cut_high", "rotate": "dealer_rule"}},
    {"dealer": {"first": "first_rule", "source": "only"}},
    {"end": {"when": "any(score <= 0)", "winners": "score == min(score)", "max_hands": 7,
             "source": "en"}},
    {"end": {"when": "false", "winners": "true", "score": "0"}},
    {"teams": [[0, 2], [1, 3]]},
    {"teams": [[0], [1, 2, 3]], "ranking": {"source": "r"}},
    {"teams": [[3, 4, 5], [0, 1, 2]], "deck": [{"ranks": ["A"]}]},
]


@pytest.mark.parametrize("extra", TOP_LEVEL, ids=lambda e: "+".join(e))
def test_top_level_roundtrip(extra: dict[str, Any]) -> None:
    canonical = normalize({**BASE, **extra})
    assert roundtrip(canonical) == canonical


def test_to_dsl_refuses_unknown_keys() -> None:
    with pytest.raises(ValueError, match="cannot write"):
        to_dsl({**normalize(BASE), "colour": "red"})
    bad = normalize(BASE)
    bad["hand"][0]["deal"]["speed"] = 3
    with pytest.raises(ValueError, match="speed"):
        to_dsl(bad)
    words_with_bounds = normalize({**BASE, "hand": [{"decide": "x", "choose": ["a"], "min": 1}]})
    with pytest.raises(ValueError, match="'min' and 'max' only go with 'choose: number'"):
        to_dsl(words_with_bounds)
    words_with_suits = normalize({**BASE, "hand": [{"decide": "x", "choose": ["a"],
                                                    "suits": ["C", "S", "H", "D"]}]})
    with pytest.raises(ValueError, match="'suits' only goes with 'choose: suit'"):
        to_dsl(words_with_suits)


# ------------------------------------------------------------------ property-based round trips

NAMES = st.sampled_from(["x", "score", "plays", "the", "cards", "deal", "tricks", "bonus_2"])
WORDS = st.sampled_from(["play", "pass", "a", "exchange", "or", "the", "not", "suit", "true",
                         "default", "source", "Knock", "x-y", "é", "10", "of", "same",
                         # near misses of keywords, and words YAML could read as other things
                         "defualt", "Default", "ture", "thier", "lowset", "exchnage", "1e3",
                         "0o7", "null", "~", "yes", "-1", ".inf"])
TEXTS = st.text(
    alphabet=st.sampled_from(list("ab cd\"\\\n\t'#:—♣é,\r\x85\u2028\ufeff😀\x7f`&*!%@{[|>-? ")),
    min_size=0, max_size=40,
) | st.sampled_from(["", "en: Play", "x " * 60, "--- x", "- a", "a: b", "null", "1e3"])


def _formulas() -> st.SearchStrategy[str]:
    atoms = st.one_of(
        NAMES, st.integers(0, 99).map(str),
        st.sampled_from(["'C'", '"x y"', "true", "false", "'a # b'", '"it\'s"', "'\\'",
                         "'é😀\t—'", "'a\x85b'", "'\u2028'"]),
    )

    def p(text: str) -> str:  # an operand: bracketed unless it is one word
        return text if " " not in text else f"({text})"

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "==", "<=", "and", "or"]), inner)
            .map(lambda t: f"{p(t[0])} {t[1]} {p(t[2])}"),
            inner.map(lambda a: f"({a})"),
            inner.map(lambda a: f"not {p(a)}"),
            st.tuples(st.sampled_from(["max", "count", "min"]), inner)
            .map(lambda t: f"{t[0]}({t[1]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        )

    return st.recursive(atoms, extend, max_leaves=5)


FORMULAS = _formulas()
CONDS = st.one_of(st.booleans(), FORMULAS)


def _optional(d: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional=d)


# The specs are generated from the vocabulary (spelbok.lang.vocabulary): every construct,
# every key with its type and words, so that a new construct is round-tripped as declared.
COUNTS = st.one_of(st.just("all"), st.integers(0, 3), FORMULAS,
                   st.sampled_from(["all(plays)", "tricks + 1", "trick", "cards"]))
SCALARS = st.one_of(st.integers(-5, 50), st.booleans(), WORDS, TEXTS)
RANKS = st.sampled_from(["A", "K", "10", "2", "J", "3"])
SUIT_LISTS = st.lists(st.sampled_from("CSHD"), min_size=1, max_size=4, unique=True)
_LEAVES: dict[str, st.SearchStrategy[Any]] = {
    "formula": FORMULAS, "condition": CONDS, "count": COUNTS, "name": NAMES, "token": WORDS,
    "text": TEXTS, "source": TEXTS, "str": TEXTS, "scalar": SCALARS, "version": st.just(1),
    "true": st.just(True), "rank": RANKS, "ranks": st.lists(RANKS, min_size=1, max_size=4),
    "suit": st.sampled_from("CSHD"), "suits": SUIT_LISTS,
    "card": st.sampled_from(["JC", "J♠", "10H"]),
    "top_trump": st.sampled_from(["JC", "J♠", "10H", "J@trump"]),
    "range": st.one_of(st.tuples(st.integers(2, 4), st.integers(4, 10)).map(list),
                       st.integers(2, 4)),
    "packet": st.integers(1, 5), "seat": st.integers(0, 9),
    "team": st.lists(st.integers(0, 9), min_size=1, max_size=3),
    "card_group": st.lists(st.sampled_from(["JC", "J♠", "10H", "7♦"]), min_size=2, max_size=3),
    "assignments": st.dictionaries(NAMES, FORMULAS, min_size=1, max_size=3),
    "var_map": st.dictionaries(NAMES, SCALARS, max_size=2),
    "first_dealer": st.integers(0, 3),
    "points_by_rank": st.dictionaries(RANKS, st.integers(-5, 30), max_size=3),
    "points_by_card": st.dictionaries(st.sampled_from(["JC", "Q♠", "10H"]), st.integers(-5, 30),
                                      max_size=2),
    # one level of words, or numbers then words (a table's keys are text in the tree)
    "value_table": st.dictionaries(st.sampled_from(["clubs", "grand", "otherwise", "two words"]),
                                   st.integers(-5, 30), min_size=1, max_size=3)
    | st.dictionaries(st.sampled_from(["2", "-3"]),
                      st.dictionaries(st.sampled_from(["single", "otherwise"]), SCALARS,
                                      min_size=1, max_size=2), min_size=1, max_size=2),
}


def _words(f: v.Field) -> st.SearchStrategy[str]:
    """A word of the field, or a word it does not know (an option's name, a near miss)."""
    return st.sampled_from([w.name for w in f.words]) | WORDS if f.words else WORDS


def _of(f: v.Field, type_: str, depth: int) -> st.SearchStrategy[Any]:
    """A value of ``type_`` for the key ``f``."""
    for wrap in ("list[", "names[", "map["):
        if type_.startswith(wrap):
            inner = _of(f, type_[len(wrap):-1], depth)
            if wrap == "list[":
                return st.lists(inner, min_size=f.min_items or 0, max_size=3)
            keys = NAMES if wrap == "names[" else WORDS
            return st.dictionaries(keys, inner, max_size=2)
    if type_ == "int":
        return st.integers(f.minimum if f.minimum is not None else 0, min(f.maximum or 500, 500))
    if type_ in ("word", "first_dealer") and (f.words or type_ == "word"):
        words = _words(f)
        return words | _LEAVES[type_] if type_ == "first_dealer" else words
    if type_ == "who":
        return _words(f) | _construct(v.construct("who_map"), depth)
    if type_ == "choose":
        word = st.one_of(WORDS, _construct(v.construct("word_option"), depth))
        return st.lists(word, min_size=1, max_size=4) | st.sampled_from(
            [w.name for w in f.words[1:]])
    if type_ == "steps":
        return _steps(depth - 1)
    if type_ == "allow":  # one condition, or two or more levels
        return FORMULAS | st.lists(_construct(v.construct("allow_level"), depth), min_size=2,
                                   max_size=3)
    if type_ in _LEAVES:
        return _LEAVES[type_]
    return _construct(v.construct(type_), depth)


def _fields(fields: tuple[v.Field, ...], depth: int, given: dict[str, Any] | None = None
            ) -> st.SearchStrategy[dict[str, Any]]:
    """A map of ``fields``: the required ones, any of the others; a key a word brings in
    (``choose: number``'s ``min``) only with that word, and a list of steps only above
    depth 0."""
    uses = {u: w.name for f in fields for w in f.words for u in w.uses}
    chooser = next((f for f in fields if any(w.uses for w in f.words)), None)
    plain = [f for f in fields if f.name not in uses
             and not (f.type == "steps" and depth <= 0 and not f.required)]
    base = st.fixed_dictionaries({f.name: _of(f, f.type, depth) for f in plain if f.required},
                                 optional={f.name: _of(f, f.type, depth) for f in plain
                                           if not f.required})
    if chooser is None:
        return base

    def extras(d: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
        brought = {f.name: _of(f, f.type, depth) for f in fields
                   if uses.get(f.name) == d.get(chooser.name)}
        return _optional(brought).map(lambda e: {**d, **e})

    return base.flatmap(extras)


def _construct(c: v.Construct, depth: int) -> st.SearchStrategy[dict[str, Any]]:
    strategy = _fields(c.fields, depth)
    if c.name == "option":  # its default is one of its values
        strategy = strategy.flatmap(lambda d: st.one_of(
            st.just(d), st.sampled_from(d["values"]).map(lambda x: {**d, "default": x})))
    return strategy


def _step(c: v.Construct, depth: int) -> st.SearchStrategy[dict[str, Any]]:
    own = _fields(c.own_fields(), depth)
    if c.body is not None:
        kind: st.SearchStrategy[Any] = _fields(c.body, depth)
    else:
        assert c.value is not None
        kind = _of(c.value, c.value.type, depth)
    return st.tuples(kind, own).map(lambda t: _one_reason({c.name: t[0], **t[1]}))


def _one_reason(step: dict[str, Any]) -> dict[str, Any]:
    """``step`` without a step 'reason' beside 'allow' levels (each level gives its own)."""
    for node in (step, *(x for x in step.values() if isinstance(x, dict))):
        if isinstance(node.get("allow"), list):
            node.pop("reason", None)
    return step


def _steps(depth: int) -> st.SearchStrategy[list[dict[str, Any]]]:
    kinds = [_step(c, depth) for c in v.STEPS
             if depth > 0 or not any(f.type == "steps" and f.required for f in c.own_fields())]
    return st.lists(st.one_of(kinds), min_size=0 if depth < 2 else 1, max_size=3)


TREES = _construct(v.SPEC, 3).map(lambda t: {**t, "players": t["players"] | {
    "max": max(t["players"]["min"], t["players"]["max"])}})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TREES)
def test_generated_trees_roundtrip(tree: dict[str, Any]) -> None:
    canonical = normalize(tree)
    text = to_dsl(canonical)
    try:
        back = normalize(parse_dsl(text, "gen.spel")[0])
    except SpecError as exc:  # pragma: no cover - shows the text on failure
        raise AssertionError(f"{exc}\n{text}") from exc
    assert back == canonical, text
    # and through YAML, as `spelbok convert` writes it: YAML -> DSL -> YAML, DSL -> YAML -> DSL
    yaml_spec = yaml_text(canonical, "spec.schema.json")
    assert normalize(load_yaml(yaml_spec, "gen.yaml")[0]) == canonical, yaml_spec


# ------------------------------------------------------------------ surface details

HEAD = 'spelbok 1\ngame "X"\n'


def test_comments_blank_lines_and_continued_formulas() -> None:
    text = HEAD + (
        "# a comment line\n"
        "players 2 to 4   # a trailing comment\n"
        "\n"
        "each hand:\n"
        "    # comment inside a block\n"
        "\n"
        "    deal 5 cards — source \"en: Deal\"\n"
        "    set score = max(0,          # never below zero\n"
        "                    score - 5)\n"
        "the match ends when true\n"
        "    the winners are the players where true\n"
    )
    tree, pos = parse_dsl(text, "c.spel")
    assert tree["hand"][0] == {"deal": {"size": 5}, "source": "en: Deal"}
    assert tree["hand"][1] == {"set": {"score": "max(0, score - 5)"}}
    assert pos[("hand", 1, "set", "score")] == ("c.spel", 10, 17)


def test_card_notation_and_aliases() -> None:
    text = HEAD + (
        "deck: a k 10 t of ♣ s\n"
        "top trumps: J♣ js 10♥ J@trump\n"
        "based on \"knektpass\"\n"
    )
    tree, _ = parse_dsl(text, "c.spel")
    assert tree["deck"] == [{"ranks": ["A", "K", "10", "10"], "suits": ["C", "S"]}]
    assert tree["ranking"]["top_trumps"] == ["JC", "JS", "10H", "J@trump"]
    assert tree["extends"] == "knektpass"


def test_long_texts_join_with_spaces() -> None:
    text = HEAD + 'about\n    "one"\n    "two  three"\nsource en:\n    "a"\n    "b"\n'
    tree, _ = parse_dsl(text, "t.spel")
    assert tree["about"] == "one two  three"
    assert tree["sources"] == {"en": "a b"}


def test_parser_is_built_lazily() -> None:
    code = "import spelbok.lang.dsl as d; assert d._parser.cache_info().currsize == 0; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def _assert_positions(tree: dict[str, Any], pos: dict[tuple[Any, ...], Any]) -> None:
    """Every node of the raw tree has a position."""

    def walk(value: Any, path: tuple[Any, ...]) -> None:
        assert path in pos, path
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, (*path, i))

    walk(tree, ())


def test_every_node_has_a_position() -> None:
    tree, pos = parse_dsl(KNEKTPASS_SPEL.read_text(encoding="utf-8"), "k.spel")
    _assert_positions(tree, pos)
    lines = KNEKTPASS_SPEL.read_text(encoding="utf-8").split("\n")
    line = next(i for i, t in enumerate(lines, 1) if t.startswith("top trumps from high to low"))
    assert pos[("ranking", "top_trumps", 2)][1:] == (line, 36)  # J♥ in "top trumps …: J♣ J♠ J♥"


def test_windows_line_ends_and_tabs() -> None:
    text = HEAD.replace("\n", "\r\n") + "each hand:\r\n\tdeal 5 cards\r\n\tend the hand\r\n"
    tree, pos = parse_dsl(text, "w.spel")
    assert tree["hand"] == [{"deal": {"size": 5}}, {"end_hand": True}]
    assert pos[("hand", 1)] == ("w.spel", 5, 2)


def test_depth_limit() -> None:
    text = HEAD + "each hand:\n" + "".join(
        "    " * (i + 1) + "if true:\n" for i in range(70)
    ) + "    " * 71 + "end the hand\n"
    with pytest.raises(SpecError, match="nested too deeply"):
        parse_dsl(text, "deep.spel")


def test_size_limit() -> None:
    with pytest.raises(SpecError, match="too large"):
        parse_dsl(HEAD + "# " + "x" * (1024 * 1024) + "\n", "big.spel")


# ------------------------------------------------------------------ errors

BAD: list[tuple[str, str, int, int, str, str | None]] = [
    # (name, text, line, col, message fragment, did-you-mean)
    ("unknown step", HEAD + "each hand:\n    deel 5 cards\n", 4, 5, "unknown word 'deel'", "deal"),
    ("unknown rule", HEAD + "playres 2 to 4\n", 3, 1, "unknown word 'playres'", "players"),
    ("unknown trick rule", HEAD + "each hand:\n    play tricks\n        must folow suit\n",
     5, 14, "expected 'follow' or 'head' after 'must'", "follow"),
    ("missing colon", HEAD + "option jack_suit trump or printed\n", 3, 18,
     "expected ':' after 'option jack_suit'", None),
    ("bad card", HEAD + "top trumps: J♣ X♠\n", 3, 16,
     "'X♠' is not a card (a card is a rank 2-10, J, Q, K or A followed by a suit", None),
    ("bad rank", HEAD + "ranks from high to low: A K 1\n", 3, 29,
     "expected a card rank like A, K, 10, a quoted text like \"…\" or the end of the line after "
     "'ranks from high to low:"
     " A K'", None),
    ("bad suit", HEAD + "deck: A K of ♣ X\n", 3, 16, "'X' is not a suit", None),
    ("unclosed string", HEAD + 'about "Swedish game\n', 3, 7, "unclosed quoted text", None),
    ("bad indentation", HEAD + "each hand:\n    deal 5 cards\n  turn up a card\n", 5, 3,
     "bad indentation: this line is indented by 2 spaces", None),
    ("unexpected indentation", HEAD + "players 2 to 4\n      deck: A K\n", 4, 7,
     "indented too far", None),
    ("missing block", HEAD + "each hand:\ndeal 5 cards\n", 4, 1,
     "expected an indented block of lines after 'each hand:'", None),
    ("formula syntax", HEAD + "each hand:\n    if count(plays) == = 0:\n        end the hand\n",
     4, 24, "unexpected '=': expected a formula after 'if count(plays) =='", None),
    ("formula in a trick rule", HEAD + "each hand:\n    play tricks\n"
     "        a void player must trump if void_rule != \n", 5, 49,
     "the line ends too early: expected a formula", None),
    ("unclosed parenthesis", HEAD + "each hand:\n    if count(plays == 0\n        end the hand\n",
     5, 9, "the '(' on line 4, column 13, is never closed", None),
    ("empty file", "  \n# only a comment\n", 1, 1, "the spec is empty", None),
    ("stray text", HEAD + "each hand:\n    deal 5 cards in packets of 2 then 3 banana\n", 4, 41,
     "unknown word 'banana': expected ',', 'then', 'to' or the end of the line", None),
    ("wrong number", HEAD + "players two to ten\n", 3, 9,
     "unexpected 'two': expected a whole number after 'players'", None),
    ("decimal number", HEAD + "players 2 to 4.5\n", 3, 15, "unexpected '.5'", None),
    ("ends too early", HEAD + "each hand:\n", 4, 1, "the spec ends too early", None),
    ("first line indented", "  spelbok 1\n", 1, 1, "the first line must start at column 1", None),
    ("bad escape", HEAD + 'about "a \\q b"\n', 3, 10, "unknown escape '\\q'", None),
    ("given twice", HEAD + 'game "Y"\n', 3, 6, "the game's name is given twice (first given on"
     " line 2)", None),
    ("two sources", HEAD + 'players 2 to 4 source "a"\n    source "b"\n', 4, 12,
     "the source of this rule is given twice", None),
    ("abstain words differ", HEAD + "each hand:\n    play tricks\n        a player may knock if true\n"
     "        a player may not wait when due to lead\n", 6, 26, "use one word", None),
    ("negative rule with condition", HEAD + "each hand:\n    play tricks\n"
     "        need not follow suit if x\n", 5, 30, "must be written positively", None),
    ("misplaced part source", HEAD + "each hand:\n    end the hand\n"
     '        source of the deal "x"\n', 5, 23, "belongs under a rule that has a deal", None),
    # the new constructs
    ("unknown zone", HEAD + "each hand:\n    move 1 card from the pile to the hand\n", 4, 26,
     "unknown word 'pile': expected 'discards', 'hand', 'stock', 'talon', 'turn_up', 'widow'"
     " or 'turn-up' after 'move 1 card from the'", None),
    ("move without a count word", HEAD + "each hand:\n    move 2 from the widow to the hand\n",
     4, 12, "unknown word 'from': expected an operator like + or ==, 'cards' or 'card'", None),
    ("whose hand twice", HEAD + "each hand:\n    for each player where y, move all cards from"
     " the widow to the hand of each player where x\n", 4, 93,
     "whose hand ('of each player') is given twice (first given on line 4)", None),
    ("teams without seats", HEAD + "teams: 0 and 2, 1 and 3\n", 3, 8,
     "unexpected number 0: expected 'seat' or 'seats' after 'teams:'", None),
    ("teams cut short", HEAD + "teams: seats 0 and\n", 3, 19,
     "the line ends too early: expected a whole number after 'teams: seats 0 and'", None),
    ("teams separator", HEAD + "teams: seats 0 and 2; seats 1 and 3\n", 3, 21,
     "unexpected ';': expected 'and', ',', 'when' or the end of the line", None),
    ("number without a top", HEAD + "each hand:\n    each player decides bid: a number from 0\n",
     4, 45, "the line ends too early: expected 'to' after 'each player decides bid: a number"
     " from 0'", None),
    ("word condition unclosed", HEAD + "each hand:\n    each player decides x: general"
     " (only when not general, play\n", 4, 58, "unexpected ',': expected ')'", None),
    ("word condition wording", HEAD + "each hand:\n    each player decides x: general (when y)\n",
     4, 37, "unknown word 'when': expected 'only'", None),
    ("allowed wording", HEAD + "each hand:\n    each player decides bid: a number from 0 to 3\n"
     "        allowed if x\n", 5, 17, "unknown word 'if': expected 'when' after 'allowed'", None),
    ("widow wording", HEAD + "each hand:\n    deal 5 cards, and 2 to the kitty\n", 4, 32,
     "unknown word 'kitty': expected 'widow' after 'deal 5 cards, and 2 to the'", None),
    ("widow without a comma", HEAD + "each hand:\n    deal 5 cards and 2 to the widow\n", 4, 18,
     "unknown word 'and': expected ',', 'in', 'to' or the end of the line", None),
    ("scored wording", HEAD + "each hand:\n    play tricks\n        these tricks do count\n",
     5, 25, "unknown word 'count': expected 'not' after 'these tricks do'", None),
    ("after each trick without colon", HEAD + "each hand:\n    play tricks\n"
     "        after each trick\n            end the hand\n", 5, 25,
     "the line ends too early: expected ':' after 'after each trick'", None),
    ("after each trick without steps", HEAD + "each hand:\n    play tricks\n"
     "        after each trick:\n        end the hand\n", 6, 9,
     "expected an indented block of lines after 'after each trick:'", None),
    ("trick count twice", HEAD + "each hand:\n    play 3 tricks\n        play 4 tricks\n", 5, 14,
     "the number of tricks is given twice (first given on line 4)", None),
    ("teams twice", HEAD + "teams: seats 0 and 2\nteams: seat 1\n", 4, 1,
     "the list of teams is given twice", None),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_dsl(case: tuple[str, str, int, int, str, str | None]) -> None:
    _, text, line, col, fragment, hint = case
    with pytest.raises(SpecError) as info:
        parse_dsl(text, "bad.spel")
    err = info.value
    assert (err.path, err.line, err.col) == ("bad.spel", line, col), str(err)
    assert fragment in err.message, str(err)
    assert err.hint == hint, str(err)
    assert "Traceback" not in str(err) and "Token(" not in str(err)


@pytest.mark.parametrize("spel", [KNEKTPASS_SPEL, *(SPECS / f"{n}.spel" for n in TWINS)],
                         ids=lambda p: p.stem)
def test_every_error_names_what_was_expected(spel: Path) -> None:
    """Chop a twin at many points: each failure is a located, readable error."""
    text = spel.read_text(encoding="utf-8")
    cuts = sorted({m.start() for m in re.finditer(r"\s\S", text)})[::37 if spel == KNEKTPASS_SPEL else 7]
    for cut in cuts:
        broken = text[:cut] + " ¤" + text[cut:]
        try:
            parse_dsl(broken, "cut.spel")
        except SpecError as err:
            assert err.line is not None and err.col is not None
            assert "expected" in err.message or "unclosed" in err.message, str(err)
            assert "__" not in err.message and "_NL" not in err.message, str(err)


# ------------------------------------------------------------------ the reference


def test_docs_examples_parse() -> None:
    """Every complete spec (a block starting with 'spelbok 1') in docs/dsl.md parses."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```spel\n(.*?)```", text, flags=re.S)
    complete = [b for b in blocks if b.startswith("spelbok 1")]
    assert complete
    for block in complete:
        tree, _ = parse_dsl(block, "docs.spel")
        canonical = normalize(tree)
        assert canonical["name"]
        if canonical["hand"]:  # not a variant (its hand comes from the base spec)
            assert roundtrip(canonical) == canonical


def test_a_pack_letter_that_is_a_french_symbol_survives_the_yaml_round_trip() -> None:
    # found by test_generated_trees_roundtrip: a declared pack whose suit letter is '♣'
    # came back from YAML as the French 'C'
    tree = {"spelbok": 1, "name": "", "players": {"min": 0, "max": 0},
            "deck": [{"ranks": ["A"]}], "hand": [{"end_hand": True}],
            "end": {"when": "x", "winners": "x"},
            "pack": {"suits": [{"letter": "♣"}], "ranks": ["0"]}}
    canonical = normalize(tree)
    assert canonical["deck"][0]["suits"] == ["♣"]
    yaml_spec = yaml_text(canonical, "spec.schema.json")
    assert normalize(load_yaml(yaml_spec, "gen.yaml")[0]) == canonical
