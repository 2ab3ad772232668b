"""Loading specs: positions, the canonical model, extends, shipped specs."""

from __future__ import annotations

import copy
import doctest
import importlib
import sys
import types
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import spelbok.lang.checks
import spelbok.lang.loader
import spelbok.lang.model
import spelbok.lang.yamlio
from minispec import MINI
from spelbok.errors import SpecError
from spelbok.lang.checks import check_structure, structural_checks
from spelbok.lang.loader import load_schema, read_spec, shipped_spec_names
from spelbok.lang.model import SpecDoc, normalize
from spelbok.lang.yamlio import KEY, key_path, load_yaml

ROOT = Path(__file__).parents[1]
KNEKTPASS = ROOT / "specs" / "knektpass.yaml"



@pytest.mark.parametrize("module", [spelbok.lang.yamlio, spelbok.lang.model, spelbok.lang.loader, spelbok.lang.checks])
def test_doctests(module: types.ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


# ------------------------------------------------------------------ yamlio


def test_positions_of_values_and_keys() -> None:
    text = "a: 1\nb:\n  - x\n  - {c: 'q', d: [1, 2]}\ne: |\n  block\n"
    data, pos = load_yaml(text, "p.yaml")
    assert data == {"a": 1, "b": ["x", {"c": "q", "d": [1, 2]}], "e": "block\n"}
    assert pos[()] == (1, 1)
    assert pos[("a",)] == (1, 4)
    assert pos[key_path(("a",))] == (1, 1)
    assert pos[("b",)] == (3, 3)
    assert pos[("b", 0)] == (3, 5)
    assert pos[("b", 1)] == (4, 5)
    assert pos[("b", 1, "c")] == (4, 9)
    assert pos[key_path(("b", 1, "d"))] == (4, 14)
    assert pos[("b", 1, "d", 1)] == (4, 21)
    assert pos[("e",)] == (5, 4)
    assert KEY == "<key>" and key_path(()) == ("<key>",)


def test_positions_count_characters_not_bytes() -> None:
    _, pos = load_yaml("name: 'Smörgås'\nx: {å: 1, ø: 2}\n", "u.yaml")
    assert pos[("x", "ø")] == (2, 14)


def test_scalar_resolution() -> None:
    data, _ = load_yaml(
        "w: [yes, no, on, off, y, n]\nb: [true, false, True]\nn: [~, null]\nz:\n"
        "i: [10, -3, 0x1f, '5', \"7\"]\nf: 1.5\nd: 2024-01-01\nk: {on: 1, 10: x, true: y}\n",
        "s.yaml",
    )
    assert data["w"] == ["yes", "no", "on", "off", "y", "n"]
    assert data["b"] == [True, False, True]
    assert data["n"] == [None, None] and data["z"] is None
    assert data["i"] == [10, -3, 31, "5", "7"]
    assert data["f"] == 1.5
    assert data["d"] == "2024-01-01"
    assert data["k"] == {"on": 1, "10": "x", "true": "y"}


def test_block_scalars_are_text() -> None:
    data, _ = load_yaml("a: >-\n  5\nb: |\n  true\n", "b.yaml")
    assert data == {"a": "5", "b": "true\n"}


# ------------------------------------------------------------------ schema


def test_schema_is_valid_and_cached() -> None:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema is load_schema()
    assert schema["$defs"]["spec"]["additionalProperties"] is False  # a whole spec
    assert "required" not in schema["$defs"]["variant"]  # a variant names what it changes
    step_kinds = [next(iter(b["required"])) for b in schema["$defs"]["step"]["oneOf"]]
    assert step_kinds == list(spelbok.lang.model.STEP_KINDS)


def _closed_objects(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            found.append(node)
        for v in node.values():
            found.extend(_closed_objects(v))
    elif isinstance(node, list):
        for v in node:
            found.extend(_closed_objects(v))
    return found


def test_every_fixed_key_map_is_closed() -> None:
    objects = _closed_objects(load_schema())
    assert len(objects) > 15
    assert all(o.get("additionalProperties") is False for o in objects)


def test_schema_is_package_data() -> None:
    from importlib import resources

    assert resources.files("spelbok.lang").joinpath("spec.schema.json").is_file()


# ------------------------------------------------------------------ normalize

MINI_CANONICAL: dict[str, Any] = {
    "spelbok": 1,
    "name": "Mini",
    "about": "",
    "sources": {},
    "players": {"min": 2, "max": 4},
    "options": {},
    "deck": [
        {
            "players": [2, 4],
            "ranks": ["A", "K", "Q", "J", "10", "9", "8", "7"],
            "suits": ["C", "S", "H", "D"],
        }
    ],
    "ranking": {
        "ranks": ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"],
        "top_trumps": [],
        "top_trumps_follow": "trump",
        "cut_ranks": ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"],
    },
    "variables": {"player": {}, "hand_player": {}, "hand": {}, "match": {}},
    "dealer": {"first": "cut_low", "rotate": "left", "skip_out": True, "stays": "false"},
    "hand": [
        {"deal": {"size": "5", "packets": [1], "to": "not out"}, "when": "true"},
        {
            "tricks": {
                "players": "not out",
                "leader": "forehand",
                "leader_where": "true",
                "follow": True,
                "head": False,
                "head_after_trump": False,
                "void_trump": False,
                "void_beat": False,
                "lead_trumps": "any",
                "first_trick_trumps": True,
                "abstain": "false",
                "abstain_word": "knock",
                "abstain_lead": True,
                "abstain_with_suit": True,
                "allow": "true",
            },
            "when": "true",
        },
    ],
    "end": {"when": "hand_number >= 3", "winners": "tricks == max(tricks)"},
}


def test_normalize_fills_every_default() -> None:
    doc = read_spec("m.yaml", text=MINI)
    assert doc.tree == MINI_CANONICAL
    assert list(doc.tree) == list(MINI_CANONICAL)  # key order is fixed
    assert list(doc.tree["hand"][1]["tricks"]) == list(MINI_CANONICAL["hand"][1]["tricks"])


def test_normalize_conversions() -> None:
    raw = {
        "spelbok": 1,
        "name": "Conv",
        "players": {"min": 3, "max": 3, "source": "en: p"},
        "options": {"o": {"values": [1, 2]}, "p": {"values": [True, False], "default": False}},
        "deck": [{"players": 3, "ranks": ["a", "t", 9], "suits": ["♣", "s", "H"]}],
        "ranking": {"top_trumps": ["j♣", "jc@x".upper(), "q@trump_colour"], "cut_ranks": [10]},
        "dealer": {"first": 0},
        "hand": [
            {"deal": {"size": True, "packets": [3]}, "when": 1, "label": "d", "source": "s"},
            {"turn_up": {}},
            {
                "decide": "trump",
                "who": {"most": 2},
                "choose": "suit",
                "then": {"a": 1, "b": False},
            },
            {"decide": "swap", "choose": "exchange", "exchange": {"max": 2}},
            {"tricks": {"follow": "true", "head": "false", "void_trump": "o == 1"}},
            {"set": {"x": 0}, "for": True},
            {"if": False, "then": [{"end_hand": True}]},
            {"repeat": 2, "steps": [{"redeal": {}}]},
        ],
        "end": {"when": True, "winners": False, "max_hands": 9},
    }
    before = copy.deepcopy(raw)
    tree = normalize(raw)
    assert raw == before  # not mutated
    assert tree["options"]["o"] == {"values": [1, 2], "default": 1, "about": ""}
    assert tree["options"]["p"]["default"] is False
    assert tree["deck"] == [
        {"players": [3, 3], "ranks": ["A", "10", "9"], "suits": ["C", "S", "H"]}
    ]
    assert tree["players"] == {"min": 3, "max": 3, "source": "en: p"}
    assert tree["ranking"]["top_trumps"] == ["JC", "JC@X", "Q@trump_colour"]
    assert tree["ranking"]["cut_ranks"] == ["10"]
    assert tree["dealer"]["first"] == 0
    deal, turn_up, trump, swap, tricks, set_, if_, repeat = tree["hand"]
    assert deal == {
        "deal": {"size": "true", "packets": [3], "to": "not out"},
        "when": "1",
        "label": "d",
        "source": "s",
    }
    assert turn_up == {"turn_up": {"trump": True}, "when": "true"}
    assert trump["who"] == {"most": "2", "ties": "forehand"}
    assert trump["suits"] == ["C", "S", "H", "D"] and "exchange" not in trump
    assert trump["then"] == {"a": "1", "b": "false"}
    assert swap["who"] == "each"
    assert swap["exchange"] == {"draw_from": "stock", "max": "2", "min": "0",
                                "show": "false", "give_to": "discards"}
    assert tricks["tricks"]["follow"] is True and tricks["tricks"]["head"] is False
    assert tricks["tricks"]["void_trump"] == "o == 1"
    assert set_ == {"set": {"x": "0"}, "for": "true", "when": "true"}
    assert if_ == {
        "if": "false",
        "then": [{"end_hand": True, "when": "true"}],
        "else": [],
        "when": "true",
    }
    assert repeat["repeat"] == "2" and repeat["while"] == "true"
    assert tree["end"] == {"when": "true", "winners": "false", "max_hands": 9}
    assert normalize(tree) == tree


def test_normalize_is_idempotent_on_knektpass() -> None:
    doc = read_spec(KNEKTPASS)
    raw = copy.deepcopy(doc.raw)
    once = normalize(doc.raw)
    assert doc.raw == raw
    assert once == doc.tree
    assert normalize(once) == once


def test_set_without_for_and_no_max_hands_stay_absent() -> None:
    text = MINI.replace("  - tricks: {}", "  - tricks: {}\n  - set: {x: 1}")
    doc = read_spec("s.yaml", text=text)
    assert "for" not in doc.tree["hand"][2]
    assert "max_hands" not in doc.tree["end"]
    assert "source" not in doc.tree["players"]


# ------------------------------------------------------------------ SpecDoc


def test_specdoc_locate_and_error() -> None:
    doc = read_spec("m.yaml", text=MINI)
    assert doc.locate(("deck", 0, "ranks", 4)) == ("m.yaml", 6, 25)
    assert doc.locate(("hand", 1, "tricks", "follow")) == ("m.yaml", 9, 13)  # default: parent
    assert doc.locate(("players", "max"), key=True) == ("m.yaml", 3, 19)
    assert doc.locate(("players", "max")) == ("m.yaml", 3, 24)
    assert doc.locate(("nowhere", 3)) == ("m.yaml", 1, 1)
    empty = SpecDoc(tree={}, raw={}, positions={}, path="e.yaml")
    assert empty.locate(("a",)) == ("e.yaml", None, None)
    err = doc.error(("hand", 0, "deal", "size"), "too big", hint="small")
    assert isinstance(err, SpecError)
    assert str(err) == "m.yaml:8:18: too big (did you mean 'small'?)"


# ------------------------------------------------------------------ sources


def test_knektpass_loads_and_passes_checks() -> None:
    doc = read_spec(KNEKTPASS)
    assert doc.surface == "yaml" and doc.path == str(KNEKTPASS)
    assert structural_checks(doc) == []
    assert check_structure(doc) is doc
    tree = doc.tree
    assert tree["ranking"]["top_trumps"] == ["JC", "JS", "JH", "JD"]
    assert tree["ranking"]["top_trumps_follow"] == "jack_suit"
    assert tree["options"]["head_after_trump"]["values"] == [False, True]
    assert tree["deck"][0]["ranks"][4] == "10"
    tricks = next(s for s in tree["hand"] if "tricks" in s)["tricks"]
    assert tricks["head"] is True
    assert tricks["head_after_trump"] == "head_after_trump"
    assert tricks["void_beat"] == "void_rule == 'trump_if_beats' or void_rule == 'overtrump'"
    lines = KNEKTPASS.read_text(encoding="utf-8").splitlines()
    lineno = next(i for i, t in enumerate(lines, 1) if "max: talon" in t)
    col = lines[lineno - 1].index("talon") + 1
    path = ("hand", 6, "steps", 0, "exchange", "max")
    assert doc.raw["hand"][6]["steps"][0]["exchange"]["max"] == "talon"
    assert doc.locate(path) == (str(KNEKTPASS), lineno, col)


def test_shipped_name_resolution() -> None:
    assert "knektpass" in shipped_spec_names()
    doc = read_spec("knektpass")
    assert Path(doc.path).name == "knektpass.yaml"
    assert doc.tree == read_spec(KNEKTPASS).tree
    assert read_spec("knektpass.yaml").tree["name"] == "Knektpass"


def test_raw_text_and_text_argument(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = read_spec(MINI)
    assert doc.path == "<spec>" and doc.tree["name"] == "Mini"
    doc = read_spec("named.yaml", text=MINI)
    assert doc.path == "named.yaml" and doc.positions[("name",)] == ("named.yaml", 2, 7)
    path = tmp_path / "file.yaml"
    path.write_text(MINI)
    assert read_spec(str(path)).tree == read_spec(path).tree


def test_spelbok_version_errors() -> None:
    with pytest.raises(SpecError) as info:
        read_spec("v.yaml", text=MINI.replace("spelbok: 1", "spelbok: 2"))
    assert str(info.value) == (
        "v.yaml:1:10: unsupported spec format version 2 (this spelbok reads version 1)"
    )
    with pytest.raises(SpecError) as info:
        read_spec("v.yaml", text=MINI.replace("spelbok: 1\n", ""))
    assert str(info.value) == "v.yaml:1:1: missing 'spelbok: 1' format version"


# ------------------------------------------------------------------ extends

BASE = MINI.replace(
    "hand:\n",
    "options:\n  keep: {values: [a, b]}\n  drop: {values: [1, 2], default: 2}\n"
    "ranking:\n  top_trumps: [JC]\n  top_trumps_follow: trump\nhand:\n",
)


def test_extends_merge(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(BASE)
    child = tmp_path / "child.yaml"
    child.write_text(
        "extends: base\n"
        "name: Child\n"
        "players: {max: 3}\n"
        "options:\n  drop: null\n  new: {values: [x]}\n"
        "deck:\n  - players: [2, 3]\n    ranks: [A, K, Q, J, 10, 9]\n"
        "ranking: {top_trumps: null}\n"
    )
    doc = read_spec(child)
    tree = doc.tree
    assert doc.parents == (str(tmp_path / "base.yaml"),)
    assert "extends" not in doc.raw
    assert tree["name"] == "Child"
    assert tree["players"] == {"min": 2, "max": 3}  # maps merge
    assert list(tree["options"]) == ["keep", "new"]  # null removes, new keys last
    assert tree["deck"] == [
        {"players": [2, 3], "ranks": ["A", "K", "Q", "J", "10", "9"], "suits": list("CSHD")}
    ]  # lists replace
    assert tree["ranking"]["top_trumps"] == []  # removed -> default
    assert tree["ranking"]["top_trumps_follow"] == "trump"  # kept from base
    assert tree["hand"] == read_spec(tmp_path / "base.yaml").tree["hand"]
    # merged nodes keep the file they came from
    assert doc.positions[("name",)] == (str(child), 2, 7)
    assert doc.positions[("players", "max")] == (str(child), 3, 16)
    assert doc.positions[("players", "min")] == (str(tmp_path / "base.yaml"), 3, 16)
    assert doc.positions[("deck", 0, "ranks", 5)][0] == str(child)
    assert doc.positions[("hand", 0, "deal", "size")] == (str(tmp_path / "base.yaml"), 14, 18)
    assert doc.positions[key_path(("options", "new"))] == (str(child), 6, 3)
    assert ("options", "drop") not in doc.positions
    assert doc.positions[()] == (str(child), 1, 1)
    assert structural_checks(doc) == []


def test_extends_chain_and_subfolder(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(BASE)
    sub = tmp_path / "variants"
    sub.mkdir()
    (sub / "mid.yaml").write_text("extends: ../base.yaml\nname: Mid\nabout: from mid\n")
    (sub / "top.yaml").write_text("extends: mid\nname: Top\n")
    with pytest.raises(SpecError, match="leads out of the folder"):
        read_spec(sub / "top.yaml")  # '../base.yaml' leaves the folder: allowed explicitly only
    doc = read_spec(sub / "top.yaml", allow_paths=[tmp_path])
    assert doc.tree["name"] == "Top"
    assert doc.tree["about"] == "from mid"
    assert len(doc.parents) == 2
    assert doc.positions[("about",)] == (str(sub / "mid.yaml"), 3, 8)


def test_extends_a_shipped_spec(tmp_path: Path) -> None:
    child = tmp_path / "variant.yaml"
    child.write_text(
        "extends: knektpass\nname: Knektpass (no floor option)\n"
        "options:\n  void_rule: {default: any}\n"
    )
    doc = read_spec(child)
    assert doc.tree["name"] == "Knektpass (no floor option)"
    assert doc.tree["options"]["void_rule"]["default"] == "any"
    assert doc.tree["options"]["void_rule"]["values"] == ["any", "trump_if_beats", "trump", "overtrump"]
    assert doc.tree["spelbok"] == 1  # inherited
    assert structural_checks(doc) == []


def test_extends_with_text_argument(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(BASE)
    doc = read_spec(tmp_path / "inline.yaml", text="extends: base.yaml\nname: Inline\n")
    assert doc.tree["name"] == "Inline"


# ------------------------------------------------------------------ DSL dispatch


def test_dsl_dispatch_uses_parse_dsl(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    fake = types.ModuleType("spelbok.lang.dsl")

    def parse_dsl(text: str, path: str) -> tuple[dict[str, Any], dict[Any, Any]]:
        calls.append((text, path))
        tree, pos = load_yaml(MINI, path)
        return tree, {p: (path, *lc) for p, lc in pos.items()}

    fake.parse_dsl = parse_dsl  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spelbok.lang.dsl", fake)
    monkeypatch.setattr(sys.modules["spelbok"], "dsl", fake, raising=False)
    doc = read_spec("mini.spel", text="whatever\n")
    assert calls == [("whatever\n", "mini.spel")]
    assert doc.surface == "dsl"
    assert doc.positions[("name",)] == ("mini.spel", 2, 7)
    assert doc.tree == MINI_CANONICAL


def test_knektpass_twin_has_the_same_canonical_model() -> None:
    spel = ROOT / "specs" / "knektpass.spel"
    try:
        importlib.import_module("spelbok.lang.dsl")
    except ImportError:  # pragma: no cover - depends on the DSL being present
        pytest.skip("DSL not available")
    if not spel.exists():  # pragma: no cover
        pytest.skip("no knektpass.spel")
    doc = read_spec(spel)
    assert doc.surface == "dsl"
    assert doc.tree == read_spec(KNEKTPASS).tree
    assert structural_checks(doc) == []


def test_pure_python_and_libyaml_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    text = KNEKTPASS.read_text(encoding="utf-8")
    fast = load_yaml(text, "k.yaml")
    monkeypatch.setattr(spelbok.lang.yamlio, "_Loader", spelbok.lang.yamlio._PyLoader)
    slow = load_yaml(text, "k.yaml")
    assert fast == slow
    with pytest.raises(SpecError) as info:
        load_yaml("a:\n  b: 1\n\tc: 2\n", "t.yaml")
    assert (info.value.line, info.value.col) == (3, 1)
