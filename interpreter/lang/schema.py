"""The JSON Schema of the YAML surface, generated from the vocabulary.

:func:`spec_schema` builds it from :mod:`spelbok.lang.vocabulary`; this module
only knows how each *type* of the vocabulary is written in JSON Schema (with
the bounds of :mod:`spelbok.limits`).  Keys starting with ``x-`` are spelbok's
own annotations, read by the loader for its error messages: ``x-name`` (how a
map is named, ``{key}`` the key holding it), ``x-expect`` (what a value should
be) and ``x-kind`` (which message a malformed value gets).

``python -m spelbok.lang.schema --write`` rewrites the two shipped copies
(``interpreter/lang/spec.schema.json``, ``specs/spelbok.schema.json``); ``--check``
exits 1 when they differ from the declaration.

>>> schema = spec_schema()
>>> schema["$defs"]["spec"]["properties"]["end"]["properties"]["max_hands"]["maximum"]
100000
>>> schema["$defs"]["spec"]["properties"]["players"]["properties"]["min"]["description"]
'fewest players'
>>> "required" in schema["$defs"]["variant"], schema["then"]  # a variant names only changes
(False, {'$ref': '#/$defs/variant'})
>>> [s["x-name"] for s in schema["$defs"]["step"]["oneOf"]][:2]
["in a 'deal' step", "in a 'turn_up' step"]
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

from spelbok.limits import MAX_CARDS, MAX_PLAYERS, MAX_TABLE_ENTRIES, MAX_VALUE

from . import vocabulary as v
from .generated import regenerate

__all__ = ["SHIPPED", "main", "schema_text", "spec_schema"]

_RANK = "([2-9]|10|[JQKATjqkat])"
_SUIT = "[CSHDcshd♣♠♥♦]"
_SCALAR_BOUNDS = {"minimum": -MAX_VALUE, "maximum": MAX_VALUE}
_TOKEN = r"^[^\s@]{1,8}$"

#: The forms of the French pack's names, which the loader checks in a spec that does not
#: declare its own ``pack:`` (the shipped schema, for editors, takes any pack's names).
FRENCH_NAMES: dict[str, dict[str, Any]] = {
    "rank": {"pattern": f"^{_RANK}$", "minimum": 2, "maximum": 10},
    "suit": {"pattern": f"^{_SUIT}$"},
    "card": {"pattern": f"^{_RANK}{_SUIT}$"},
    "top_trump": {"pattern": f"^({_RANK}{_SUIT}|{_RANK}@(trump|trump_colour))$"},
}

#: How each type of the vocabulary is written, the ones with a ``$defs`` entry first
#: (in the order of the shipped file).  A type's description is its vocabulary doc.
_DEFS: dict[str, dict[str, Any]] = {
    "source": {"type": "string"},
    "text": {"type": "string"},
    "formula": {"type": ["string", "integer", "boolean"], **_SCALAR_BOUNDS,
                "x-expect": "a formula (a string, an integer, true or false)"},
    "condition": {"type": ["boolean", "string"],
                  "x-expect": "true, false or a condition (a string)"},
    "word": {"type": "string", "minLength": 1, "x-expect": "a word"},
    "name": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "x-kind": "name"},
    "scalar": {"type": ["string", "integer", "boolean"], **_SCALAR_BOUNDS,
               "x-expect": "a string, an integer, true or false"},
    # names as any pack writes them (a spec may declare its own pack: N, T21, EX); the
    # French forms of FRENCH_NAMES are checked by spelbok for a spec without `pack:`
    "rank": {"type": ["string", "integer"], "pattern": _TOKEN, "minimum": 0,
             "maximum": MAX_CARDS, "x-kind": "rank"},
    "suit": {"type": "string", "pattern": _TOKEN, "x-kind": "suit"},
    "card": {"type": "string", "pattern": _TOKEN, "x-kind": "card"},
    "top_trump": {"type": "string", "pattern": r"^[^\s@]{1,8}(@(trump|trump_colour))?$",
                  "x-kind": "top_trump"},
    "ranks": {"type": "array", "items": {"$ref": "#/$defs/rank"}, "minItems": 1},
    "suits": {"type": "array", "items": {"$ref": "#/$defs/suit"}, "minItems": 1},
    "range": {"type": ["array", "integer"],
              "items": {"type": "integer", "minimum": 0, "maximum": MAX_CARDS},
              "minItems": 2, "maxItems": 2, "x-kind": "range",
              "x-expect": "a range [min, max] of player counts"},
    "assignments": {"type": "object", "propertyNames": {"$ref": "#/$defs/name"},
                    "additionalProperties": {"$ref": "#/$defs/formula"}, "x-name": "in '{key}'"},
    "who": {"anyOf": [{"$ref": "#/$defs/word"}, {"$ref": "#/$defs/who_map"}],
            "x-expect": "a word (dealer, forehand, each) or a map {most: ...}"},
    "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
    "choose": {},  # built by _choose(), from the choose kinds
    "allow": {},  # built by _allow(), from the allow level
    "var_map": {"type": "object", "propertyNames": {"$ref": "#/$defs/name"},
                "additionalProperties": {"$ref": "#/$defs/scalar"}, "x-name": "in '{key}'"},
    "value_table": {"type": "object", "minProperties": 1, "maxProperties": MAX_TABLE_ENTRIES,
                    "additionalProperties": {"anyOf": [{"$ref": "#/$defs/scalar"},
                                                       {"$ref": "#/$defs/value_table"}]},
                    "x-expect": "a table: keys to values or to tables"},
}
_INLINE: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "token": {"type": "string", "pattern": "^\\S+$"},
    "version": {"type": "integer", "const": 1},
    "seat": {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1},
    "team": {"type": "array", "items": {"type": "integer", "minimum": 0,
                                        "maximum": MAX_PLAYERS - 1}, "minItems": 1},
    "card_group": {"type": "array", "items": {"$ref": "#/$defs/card"}, "minItems": 2},
    "packet": {"type": "integer", "minimum": 1, "maximum": MAX_CARDS},
    "count": {"anyOf": [{"type": "string"},
                        {"type": "integer", "minimum": 0, "maximum": MAX_CARDS}],
              "x-expect": "'all' or a formula"},
    "first_dealer": {"type": ["string", "integer"], "minimum": 0, "maximum": MAX_PLAYERS - 1,
                     "minLength": 1},
    "true": {"const": True, "x-expect": "true"},
    # card points: the keys are checked (and located) by the checks, with their own messages
    "points_by_rank": {"type": "object", "additionalProperties": {"type": "integer",
                                                                  **_SCALAR_BOUNDS}},
    "points_by_card": {"type": "object", "additionalProperties": {"type": "integer",
                                                                  **_SCALAR_BOUNDS}},
}
_OBJECTS = {"assignments", "var_map"}
_CONSTRUCT_NAMES = {c.name for c in v.CONSTRUCTS}
#: The constructs written as ``$defs`` entries (the others are written where they are used),
#: in the shipped file's order of ``$defs``.
_DEF_ORDER = ("source", "text", "formula", "condition", "word", "name", "scalar", "rank", "suit",
              "card", "top_trump", "ranks", "suits", "range", "assignments", "who_map", "who",
              "steps", "deal", "turn_up", "exchange", "choose", "tricks", "redeal", "step",
              "option", "deck_entry", "var_map", "value_table", "move", "allow", "auction", "pass_cards", "declare_melds")

SHIPPED = ("interpreter/lang/spec.schema.json", "specs/spelbok.schema.json")
"""The shipped copies, relative to the repository root."""


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _type(t: str, key: str) -> dict[str, Any]:
    """The schema of type expression ``t`` for a value held by ``key``."""
    if t.startswith("list[") and t.endswith("]"):
        return {"type": "array", "items": _type(t[5:-1], key)}
    if t.startswith("names[") and t.endswith("]"):
        return {"type": "object", "propertyNames": _ref("name"),
                "additionalProperties": _type(t[6:-1], key), "x-name": f"in '{key}'"}
    if t.startswith("map[") and t.endswith("]"):
        return {"type": "object", "additionalProperties": _type(t[4:-1], key),
                "x-name": f"in '{key}'"}
    if t in _DEF_ORDER:
        return _ref(t)
    if t in _INLINE:
        return copy.deepcopy(_INLINE[t])
    return _object(v.construct(t), v.construct(t).fields)


def _is_object(t: str) -> bool:
    """Whether type ``t`` is written as a JSON object (a map)."""
    return t in _OBJECTS or t.startswith(("names[", "map[")) or t in _CONSTRUCT_NAMES


def _field(f: v.Field) -> dict[str, Any]:
    s = _type(f.type, f.name)
    if f.minimum is not None:
        s["minimum"] = f.minimum
    if f.maximum is not None:
        s["maximum"] = f.maximum
    if f.min_items is not None:
        size = "minLength" if f.type == "str" else "minProperties" if _is_object(f.type) else (
            "minItems")
        s[size] = f.min_items
    if f.type == "first_dealer":  # a word or a seat: its words say which
        s["x-expect"] = ", ".join(w.name for w in f.words) + " or a seat number"
    # every key carries its meaning and default, for editors' tooltips and completion
    if f.schema_doc or f.doc:
        s["description"] = f.schema_doc or f.doc
    if f.default is not v.ABSENT and f.default is not None and "default" not in s:
        try:
            json.dumps(f.default)
        except (TypeError, ValueError):
            pass
        else:
            s["default"] = f.default
    return s


def _object(c: v.Construct, fields: tuple[v.Field, ...], x_name: str = "",
            head: tuple[v.Field, ...] = (), doc: bool = True) -> dict[str, Any]:
    """The schema of a map with keys ``head + fields`` (a construct's)."""
    keys = (*head, *fields)
    s: dict[str, Any] = {"type": "object", "x-name": x_name or c.x_name or f"in '{c.name}'"}
    required = [f.name for f in keys if f.required]
    if required:
        s["required"] = required
    s["properties"] = {f.name: _field(f) for f in keys}
    s["additionalProperties"] = False
    if doc and c.schema_doc:
        s["description"] = c.schema_doc
    return s


def _step(c: v.Construct) -> dict[str, Any]:
    article = "an" if c.name[0] in "aeiou" else "a"
    kind = c.value or v.Field(c.name, c.name, c.doc, required=True)
    return _object(c, c.own_fields(), f"in {article} '{c.name}' step", head=(kind,),
                   doc=False)  # a step kind's doc goes with its body


def _choose() -> dict[str, Any]:
    word = {"type": "string", "pattern": "^\\S+$", "x-kind": "word"}
    option = _object(v.WORD_OPTION, v.WORD_OPTION.fields)
    return {
        "anyOf": [
            {"type": "string", "enum": [k.name for k in v.CHOOSE_KINDS[1:]]},
            {"type": "array",
             "items": {"anyOf": [word, option], "x-expect": "a word, or {word: ..., when: ...}"},
             "minItems": 1},
        ],
        "x-expect": "a list of words, " + ", ".join(
            f"'{k.name}'" for k in v.CHOOSE_KINDS[1:-1]) + f" or '{v.CHOOSE_KINDS[-1].name}'",
    }


def _allow() -> dict[str, Any]:
    level = _object(v.ALLOW_LEVEL, v.ALLOW_LEVEL.fields)
    return {
        "anyOf": [_ref("formula"), {"type": "array", "items": level, "minItems": 2,
                                    "x-short": "one level is written as a condition, with "
                                               "its 'reason' beside it"}],
        "x-expect": "a condition, or a list of at least two levels {if: ..., reason: ...}",
    }


def _defs() -> dict[str, Any]:
    docs = {w.name: w.doc for w in v.TYPES}
    out: dict[str, Any] = {}
    for name in _DEF_ORDER:
        if name == "choose":
            s = _choose()
        elif name == "allow":
            s = _allow()
        elif name == "step":
            kinds = ", ".join(v.STEP_KINDS)
            common = ", ".join(f.name for f in v.STEP_COMMON)
            s = {"oneOf": [_step(c) for c in v.STEPS], "x-kind": "step",
                 "description": f"One step: a map with exactly one kind key ({kinds}) plus "
                                f"optional {common}."}
        elif name in _DEFS:
            s = copy.deepcopy(_DEFS[name])
        else:
            c = v.construct(name)
            s = _object(c, c.body if c.body is not None else c.fields)
        if name in docs:
            s["description"] = docs[name]
        out[name] = s
    return out


def spec_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the YAML surface, from the vocabulary."""
    top = _object(v.SPEC, v.SPEC.fields)
    # a variant (``extends``) names only what it changes: the base gives the rest, so an
    # editor must not ask it for the keys a whole spec needs (the loader checks the
    # merged spec, which has no ``extends``, against them all)
    required = top.pop("required", [])
    defs = _defs()
    whole = {**top, "required": required}
    variant = _relaxed(top)
    variant["x-name"] = "in the variant"
    for name, d in list(defs.items()):
        defs[f"variant-{name}"] = _relaxed(d)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://spelbok.invalid/spec.schema.json",
        "title": "spelbok game spec (format version 1)",
        "description": "YAML surface of a spelbok spec; see docs/spec-reference.md. Keys "
                       "starting with x- are spelbok's own annotations (used for error "
                       "messages).",
        "type": "object",
        "if": {"required": ["extends"]},
        "then": {"$ref": "#/$defs/variant"},
        "else": {"$ref": "#/$defs/spec"},
        "$defs": {"spec": whole, "variant": variant, **defs},
    }


def _relaxed(node: Any) -> Any:
    """The schema of what a variant may say for ``node``: no key is required (the base
    gives it), any key may be null (removing it from the base), and a list of steps may
    also be a map changing the base's steps by their label (see docs/variants.md)."""
    if isinstance(node, list):
        return [_relaxed(x) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "required":
            continue
        if key == "$ref" and isinstance(value, str):
            out[key] = value.replace("#/$defs/", "#/$defs/variant-")
        elif key == "properties" and isinstance(value, dict):
            out[key] = {k: _nullable(_relaxed(sub)) for k, sub in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_relaxed(value))
        else:
            out[key] = _relaxed(value)
    if out.get("$ref") == "#/$defs/variant-steps":
        by_label = {"type": "object", "description": "changes to the base's steps, by label",
                    "additionalProperties": {"type": ["object", "null"]}}
        ref = out.pop("$ref")
        out = {"anyOf": [{"$ref": ref}, by_label], **{k: v_ for k, v_ in out.items()
                                                      if k == "description"}}
    return out


def _nullable(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    return {"anyOf": [schema, {"type": "null"}],
            **({"description": schema["description"]} if "description" in schema else {})}


def schema_text() -> str:
    """The shipped files' text: ``spec_schema()`` as indented JSON."""
    return json.dumps(spec_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``--write``: rewrite the shipped copies; ``--check``: 1 when they differ."""
    return regenerate(argv, "spelbok.lang.schema", "the vocabulary",
                      lambda: dict.fromkeys(SHIPPED, schema_text()))


if __name__ == "__main__":
    sys.exit(main())
