"""The vocabulary (spelbok.lang) agrees with the shipped schema, the reference and the code."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import spelbok
from minispec import mini
from spelbok import formula
from spelbok.engine import stock
from spelbok.errors import SpecError, SpelbokError
from spelbok.formula.names import TypeName
from spelbok.lang import checks, model, reference, schema, spec_grammar
from spelbok.lang import vocabulary as v

ROOT = Path(__file__).resolve().parent.parent


# -- generated files -----------------------------------------------------------------------


def test_shipped_schemas_are_what_the_vocabulary_generates() -> None:
    text = schema.schema_text()
    for path in schema.SHIPPED:
        shipped = (ROOT / path).read_text("utf-8")
        assert shipped == text, f"{path} is stale: run python -m spelbok.lang.schema --write"
        assert json.loads(shipped) == schema.spec_schema()
    jsonschema.Draft202012Validator.check_schema(schema.spec_schema())


def test_the_shipped_grammar_is_what_its_pieces_assemble() -> None:
    core = (ROOT / spec_grammar.CORE).read_text("utf-8")
    shipped = (ROOT / spec_grammar.SHIPPED).read_text("utf-8")
    assert shipped == spec_grammar.grammar_text(core), \
        "grammar/spec.lark is stale: run python -m spelbok.lang.spec_grammar --write"
    assert spec_grammar.grammar_text() == shipped  # the packaged core file is the same


def test_the_reference_tables_are_what_the_vocabulary_generates() -> None:
    text = (ROOT / reference.DOC).read_text("utf-8")
    assert reference.update(text) == text, "run: python -m spelbok.lang.reference --write"
    for name in reference.BLOCKS:  # every block has its place in the reference
        assert f"<!-- vocabulary:{name} -->" in text and f"<!-- /vocabulary:{name} -->" in text


def test_a_stale_block_is_rewritten_and_an_unknown_one_refused() -> None:
    stale = "x\n<!-- vocabulary:hand-builtins -->\n| old |\n<!-- /vocabulary:hand-builtins -->\ny\n"
    new = reference.update(stale)
    assert new.startswith("x\n<!-- vocabulary:hand-builtins -->\n| name | meaning |")
    assert new.endswith("`called_card` | the card the declarer called (no card when none) |\n"
                        "<!-- /vocabulary:hand-builtins -->\ny\n")
    with pytest.raises(SpelbokError, match="unknown vocabulary block 'nope'"):
        reference.update("<!-- vocabulary:nope -->\n<!-- /vocabulary:nope -->")


def test_schema_check_and_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "copy.json"
    copy.write_text("{}\n", "utf-8")
    monkeypatch.setattr(schema, "SHIPPED", (str(copy),))
    assert schema.main(["--check"]) == 1
    assert schema.main(["--write"]) == 0
    assert copy.read_text("utf-8") == schema.schema_text()
    assert schema.main(["--check"]) == 0
    assert schema.main([]) == 2


def _object_schemas(node: Any) -> list[dict[str, Any]]:
    """Every map schema with properties in a JSON Schema."""
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict) and node.get("type") == "object":
            found.append(node)
        for value in node.values():
            found += _object_schemas(value)
    elif isinstance(node, list):
        for value in node:
            found += _object_schemas(value)
    return found


def test_every_map_of_the_shipped_schema_is_a_declared_construct() -> None:
    # a key added to the schema file by hand, not to the vocabulary, fails here
    declared = []
    for c in v.CONSTRUCTS:
        keys = [f.name for f in c.own_fields()]
        if c.group == "step":
            declared.append({c.name, *keys})
        if c.group != "step" or c.body is not None:
            declared.append({f.name for f in (c.body if c.body is not None else c.fields)})
    shipped = json.loads((ROOT / schema.SHIPPED[0]).read_text("utf-8"))
    for node in _object_schemas(shipped):
        assert set(node["properties"]) in declared, f"undeclared keys {sorted(node['properties'])}"


# -- agreement with today's code -----------------------------------------------------------


def test_step_kinds_and_word_lists_agree_with_the_model_and_checks() -> None:
    assert v.STEP_KINDS == model.STEP_KINDS
    assert v.DEFAULT_MAX_HANDS == model.DEFAULT_MAX_HANDS
    assert v.words("tricks", "trumps_broken_by") == model.TRUMPS_BROKEN_BY
    assert v.words("move", "position") == model.STOCK_POSITIONS
    assert tuple(w.name for w in v.ZONES) == stock.ZONES
    where = {"top_trumps_follow": "ranking.top_trumps_follow", "ties": "who_map.ties"}
    for key, allowed in checks.ENUMS.items():
        name, field = where.get(key, key).split(".")
        assert v.words(name, field) == tuple(allowed), key


def test_builtins_scopes_and_types_are_the_declared_ones() -> None:
    # (the compiler's getters against the declaration: test_derived.py)
    assert {b.scope for b in v.BUILTINS} == {"player", "hand", "decision", "card", "trick"}
    # the formula types (card values included) and the text kinds the checks know
    formula_types = set(typing.get_args(TypeName))  # str: a contract's name
    assert {b.type for b in v.BUILTINS} <= formula_types | {"suit", "suit_or_none", "rank",
                                                            "rank_or_none"}


def test_settable_builtins_are_the_ones_a_set_step_may_assign() -> None:
    for b in v.BUILTINS:
        value = {"trump": "'H'", "mode": "'x'"}.get(b.name, "1")
        per_player = "\n    for: true" if b.scope == "player" else ""
        text = mini(f"  - deal: {{size: 5}}\n  - set: {{{b.name}: \"{value}\"}}{per_player}\n"
                    "  - tricks: {}\n")
        if b.name == "mode":  # a mode of the spec's
            text = text.replace("hand:\n", "modes: {x: {}}\nhand:\n", 1)
        if b.settable:
            spelbok.load(text)
        else:
            with pytest.raises(SpecError, match=f"'{b.name}' is read-only"):
                spelbok.load(text)


def test_functions_and_keywords_agree_with_the_formula_language() -> None:
    assert {f.name for f in v.FUNCTIONS} == formula.FUNCTIONS == checks.FUNCTION_NAMES
    assert {f.name for f in v.FUNCTIONS if f.aggregate} == formula.AGGREGATES
    assert {w.name for w in v.KEYWORDS} == checks.KEYWORDS


def test_every_trick_rule_has_a_flag_of_the_trick_with_its_default() -> None:
    from spelbok.engine.trick import TrickFlags

    plain = TrickFlags()  # (a compiled build's class too: read the defaults off an instance)
    for rule in v.TRICK_RULE_FIELDS:
        assert hasattr(plain, rule.name), f"engine/trick.py TrickFlags has no {rule.name!r}"
        if isinstance(rule.default, bool):
            assert getattr(plain, rule.name) is rule.default, rule.name


def _minimal(field: v.Field) -> Any:
    """A value a required key may hold."""
    return {"choose": ["go"], "then": [], "steps": [], "deck": [{"ranks": ["A"]}]}.get(
        field.name, {"assignments": {"x": "1"}, "true": True, "name": "bid"}.get(field.type, "1"))


@pytest.mark.parametrize("kind", v.STEP_KINDS)
def test_defaults_are_what_the_model_fills_in_for_a_minimal_step(kind: str) -> None:
    c = v.step(kind)
    given: dict[str, Any] = {}
    if c.body is not None:
        given[kind] = {f.name: _minimal(f) for f in c.body if f.required}
    else:
        given[kind] = _minimal(c.value) if c.value else True
    given.update({f.name: _minimal(f) for f in c.own_fields() if f.required})
    tree = model.normalize({"hand": [given]})["hand"][0]
    for name, value in given.items():  # what was given comes back (canonical); the rest is default
        if isinstance(value, dict) and c.body is not None and name == kind:
            for key in value:
                tree[name].pop(key)
        else:
            tree.pop(name)
    derived = {f.name for f in c.body or () if isinstance(f.default, v.Derived)}
    for key in derived & set(tree.get(kind) or ()):  # worked out from the spec (auction.first)
        tree[kind].pop(key)
    assert tree == v.defaults(kind)


def test_defaults_of_a_choose_kind_are_filled_with_it() -> None:
    decide = v.step("decide")
    for kind in v.CHOOSE_KINDS[1:]:
        tree = model.normalize({"hand": [{"decide": "d", "choose": kind.name}]})["hand"][0]
        for key in kind.uses:
            expected = (v.defaults(key) if key in {c.name for c in v.CONSTRUCTS}
                        else decide.field(key).default)
            assert tree[key] == expected, (kind.name, key)


_SAMPLES: dict[str, Any] = {
    "formula": "seats + 1", "condition": "seats == 3", "word": "zz", "text": "t",
    "source": "en: x", "name": "bid", "who": {"most": "score", "ties": "cut"},
    "steps": [{"end_hand": True}], "assignments": {"a": "1"}, "suits": ["H"], "ranks": ["A"],
    "list[packet]": [2], "count": "3", "exchange": {"draw_from": "turn_up"}, "choose": ["a"],
    "true": True, "int": 7, "var_map": {"v": 1}, "list[top_trump]": ["JC"], "list[card]": ["JC"], "list[card_group]": [["JC", "JS"]],
    "list[announcement]": [{"word": "re", "when": "true", "then": {"a": "1"},
                            "shows": "trumps(hand)", "steps": [], "ends_tricks": "false"}],
    "list[declaration]": [{"word": "marriage", "when": "card_rank == 'K'", "then": {"a": "1"},
                          "binds": "card_rank == 'A'", "reason": "r", "source": "s"}],
    "list[show]": [{"word": "declare", "copies": 2, "when": "card_rank == 'A'",
                    "then": {"a": "1"}, "source": "s"}],
    "first_dealer": 2, "allow": [{"if": "seats > 2", "reason": "r"}, {"if": "true"}],
    "list[word]": ["right"], "list[pattern]": [{"name": "p", "if": "true"}],
    "points_by_rank": {"A": 11}, "points_by_card": {"QS": 13}, "map[ranks]": {"C": ["A"]},
    "list[contract]": [{"level": 6}],
    "list[pack_suit]": [{"letter": "X"}], "list[scalar]": ["1"], "list[pack_extra]": [{"name": "JK"}],
}


@pytest.mark.parametrize("name", [c.name for c in (*v.SECTIONS, *v.STEPS)])
def test_the_model_keeps_every_declared_key(name: str) -> None:
    # a key the schema accepts (it is declared) but the model drops fails here
    c = v.construct(name)
    given = {f.name: _SAMPLES[f.type] for f in c.own_fields()}
    if c.body is not None:
        given[name] = {f.name: _SAMPLES[f.type] for f in c.body}
    elif c.value is not None:
        given[name] = _SAMPLES[c.value.type]
    tree = model.normalize({c.name: given} if c.group == "section" else {"hand": [given]})
    got = tree[c.name] if c.group == "section" else tree["hand"][0]
    assert set(got) == set(given)
    if c.body is not None:
        assert set(got[name]) == set(given[name])


def test_section_defaults_are_what_the_model_fills_in() -> None:
    tree = model.normalize({"players": {"min": 2, "max": 3}})
    for c in v.SECTIONS:
        if c.name in ("points", "pack", "sit_out"):  # sections that stay absent unless given
            assert c.name not in tree
            continue
        got = {k: x for k, x in tree[c.name].items()
               if c.field(k).default is not v.ABSENT or c.field(k).required}
        for f in c.fields:
            if f.required or isinstance(f.default, v.Derived):
                got.pop(f.name, None)
        assert got == v.defaults(c.name), c.name
    top = {k: tree[k] for k in v.defaults("spec")}
    assert top == v.defaults("spec")
    assert v.defaults("option") == {"about": ""}
    assert tree["ranking"]["cut_ranks"] == tree["ranking"]["ranks"]  # Derived: from ranks


# -- the declaration itself ----------------------------------------------------------------


def test_every_construct_field_builtin_and_word_has_a_doc() -> None:
    for c in v.CONSTRUCTS:
        assert c.doc, c.name
        for f in (*(c.body or ()), *c.own_fields(), *((c.value,) if c.value else ())):
            assert f.doc and "\n" not in f.doc, f"{c.name}.{f.name}"
            assert all(w.doc for w in f.words), f"{c.name}.{f.name}"
    for item in (*v.BUILTINS, *v.FUNCTIONS, *v.KEYWORDS, *v.TYPES, *v.ZONES, *v.CHOOSE_KINDS):
        assert item.doc, item.name


def test_every_field_type_is_declared() -> None:
    types = {w.name for w in v.TYPES} | {c.name for c in v.CONSTRUCTS}

    def known(t: str) -> bool:
        for wrap in ("list[", "names[", "map["):
            if t.startswith(wrap) and t.endswith("]"):
                return known(t[len(wrap):-1])
        return t in types

    for c in v.CONSTRUCTS:
        for f in (*(c.body or ()), *c.own_fields(), *((c.value,) if c.value else ())):
            assert known(f.type), f"{c.name}.{f.name}: {f.type}"


def test_walk_steps_agrees_with_the_checks_walker() -> None:
    for spec in sorted((ROOT / "specs").glob("*.yaml")):
        hand = spelbok.load(str(spec)).doc.tree["hand"]
        assert list(v.walk_steps(hand, ("hand",))) == list(checks._walk(hand, ("hand",)))
    nested = model.normalize({"hand": [{"repeat": 2, "steps": [{"tricks": {"after_each": [
        {"if": "x", "then": [{"end_hand": True}], "else": [{"set": {"a": 1}}]}]}}]}]})["hand"]
    paths = [p for p, _ in v.walk_steps(nested)]
    assert paths == [p for p, _ in checks._walk(nested, ())]
    assert (0, "steps", 0, "tricks", "after_each", 0, "else", 0) in paths


def test_lookups() -> None:
    assert v.construct("dealer").group == "section"
    assert v.step("move").field("for").type == "formula"
    assert v.words("decide", "who") == ("dealer", "forehand", "each", "last_winner")
    for bad in ("nope", "dealer"):
        with pytest.raises(KeyError):
            v.step(bad)
    with pytest.raises(KeyError):
        v.construct("tricks").field("nope")


# -- error messages through the generated schema ---------------------------------------------


@pytest.mark.parametrize(("step", "message"), [
    ("set: {}", "the map must not be empty"),
    ("set: {9x: 1}", "'9x' is not a valid name"),
    ("set: {x: [1]}\n    for: true", "expected a formula"),
    ("move: {count: [1]}", "expected 'all' or a formula"),
    ("decide: d\n    choose: {}", "expected a list of words, 'suit', 'exchange' or 'number'"),
])
def test_messages_of_the_changed_schema_parts(step: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        spelbok.load(mini(f"  - deal: {{size: 5}}\n  - {step}\n  - tricks: {{}}\n"))
