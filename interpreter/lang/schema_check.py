"""Checking a spec tree against the JSON Schema: every error collected, located at its
line and column, and worded for a person (what was expected, what was found, the
nearest known key).

>>> load_schema()["title"] is not None
True"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from ..errors import SpecError, did_you_mean
from .model import STEP_KINDS, Position
from .schema import FRENCH_NAMES
from .vocabulary import STEP_COMMON


@functools.cache
def load_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the YAML surface, shipped as package data.

    The result is cached and shared: do not mutate it.

    >>> load_schema()["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    """
    text = resources.files("spelbok.lang").joinpath("spec.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator(packed: bool = False) -> Draft202012Validator:
    """The schema's validator; ``packed``: for a spec that declares its ``pack``, whose
    ranks, suits and cards are not the French ones (the checks test them against it)."""
    schema = json.loads(json.dumps(load_schema()))
    defs = schema["$defs"]
    for name, forms in FRENCH_NAMES.items():
        if packed:  # any names: the checks test them against the declared pack
            defs[name] = {k: v for k, v in defs[name].items()
                          if k not in ("pattern", "minimum", "maximum")}
        else:
            defs[name] = {**defs[name], **forms}
    return _StrictValidator(schema)


_ONE_OF = Draft202012Validator.VALIDATORS["oneOf"]


def _one_of(validator: Any, one_of: list[Any], instance: Any, schema: Any) -> Iterator[Any]:
    """``oneOf``, fast for a map that has the required keys of one branch only (a step
    names its kind): when that branch holds, every other one misses a required key, so
    the others need no look.  Anything else is checked the standard way (same errors)."""
    if isinstance(instance, dict) and all(isinstance(b, dict) and "required" in b
                                          for b in one_of):
        fits = [b for b in one_of if all(k in instance for k in b["required"])]
        if len(fits) == 1 and validator.evolve(schema=fits[0]).is_valid(instance):
            return
    yield from _ONE_OF(validator, one_of, instance, schema)


# JSON Schema counts 3.0 as an integer; a spec never holds a float, so 3.0 is refused
# where an integer is wanted (it would reach the checks and the engine as a float).
# oneOf: each step was checked against every step kind (3 ms a step)
_StrictValidator = validators.extend(
    Draft202012Validator,
    validators={"oneOf": _one_of},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool)))


_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "a map",
    "array": "a list",
    "null": "nothing",
}


def _describe(value: Any) -> str:
    """How a YAML value reads in an error message."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"an integer {value}"
    if isinstance(value, float):
        return f"a number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a map"
    return type(value).__name__


def _expect(schema: dict[str, Any]) -> str:
    if "x-expect" in schema:
        return str(schema["x-expect"])
    types = schema.get("type", [])
    if isinstance(types, str):
        types = [types]
    words = [_TYPE_WORDS.get(t, t) for t in types]
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _quoted_list(items: Iterable[Any]) -> str:
    return ", ".join(f"'{i}'" for i in items)


def _context(schema: dict[str, Any], path: tuple[Any, ...]) -> str:
    template = schema.get("x-name")
    if template is None:
        return "at the top level" if not path else f"in '{path[-1]}'"
    key = path[-1] if path else ""
    return str(template).replace("{key}", str(key))


_STEP_COMMON = tuple(f.name for f in STEP_COMMON)  # the keys every step may carry


class _Reporter:
    """Turns jsonschema errors into located SpecErrors."""

    def __init__(self, locate: Callable[[tuple[Any, ...], bool], Position]) -> None:
        self.locate = locate
        self.out: list[SpecError] = []

    def at(
        self, path: tuple[Any, ...], message: str, hint: str | None = None, *, key: bool = False
    ) -> None:
        file, line, col = self.locate(path, key)
        self.out.append(SpecError(message, path=file, line=line, col=col, hint=hint))

    def report(self, err: ValidationError) -> None:
        path = tuple(err.absolute_path)
        schema = err.schema if isinstance(err.schema, dict) else {}
        inst = err.instance
        v = err.validator
        kind = schema.get("x-kind")
        if "propertyNames" in list(err.relative_schema_path):
            self.at(
                (*path, inst),
                f"'{inst}' is not a valid name (use letters, digits and _, not starting with a digit)",
                key=True,
            )
        elif v == "additionalProperties" and isinstance(inst, dict):
            allowed = list(schema.get("properties", {}))
            for extra in inst:
                if extra in allowed:
                    continue
                self.at(
                    (*path, extra),
                    f"unknown key '{extra}' {_context(schema, path)}",
                    hint=did_you_mean(str(extra), allowed),
                    key=True,
                )
        elif v == "required" and isinstance(inst, dict):
            missing = [k for k in schema.get("required", []) if k not in inst]
            if missing == ["spelbok"] and not path:
                self.at(path, "missing 'spelbok: 1' format version")
                return
            noun = "key" if len(missing) == 1 else "keys"
            self.at(
                path, f"missing required {noun} {_quoted_list(missing)} {_context(schema, path)}"
            )
        elif v in ("oneOf", "anyOf") and kind == "step":
            self.report_step(err, path)
        elif v in ("oneOf", "anyOf"):
            self.report_alternatives(err, path)
        elif v == "type" or v == "const":
            self.at(path, f"expected {_expect(schema)}, got {_describe(inst)}")
        elif v == "enum":
            options = list(err.validator_value)
            self.at(
                path,
                f"expected one of {_quoted_list(options)}, got {_describe(inst)}",
                hint=did_you_mean(str(inst), [str(o) for o in options]),
            )
        elif kind in ("rank", "suit", "card", "top_trump", "word", "range") or v == "pattern":
            self.report_kind(kind, v, inst, path)
        elif v in ("minimum", "maximum"):
            word = "at least" if v == "minimum" else "at most"
            self.at(path, f"expected {word} {err.validator_value}, got {_describe(inst)}")
        elif v == "minItems" and err.validator_value > 1:
            self.at(path, f"the list needs at least {err.validator_value} items, got "
                    f"{len(inst)}" + (f" ({schema['x-short']})" if schema.get("x-short") else ""))
        elif v == "minItems":
            self.at(path, "the list must not be empty")
        elif v == "minLength":
            self.at(path, "the string must not be empty")
        elif v == "minProperties":
            self.at(path, "the map must not be empty")
        else:  # pragma: no cover - every schema keyword in use is handled above
            self.at(path, err.message)

    def report_kind(self, kind: Any, v: str, inst: Any, path: tuple[Any, ...]) -> None:
        if kind == "rank":
            self.at(path, f"unknown rank {inst!r} (ranks are 2-10, J, Q, K, A)")
        elif kind == "suit":
            self.at(path, f"unknown suit {inst!r} (suits are C, S, H, D)")
        elif kind == "card":
            self.at(path, f"unknown card {inst!r} (a card is a rank then a suit: 10H, JC, J♣)")
        elif kind == "top_trump":
            text = str(inst)
            hint = None
            if "@" in text:
                rank = text.partition("@")[0]
                hint = did_you_mean(text, [f"{rank}@trump", f"{rank}@trump_colour"])
            self.at(
                path,
                f"unknown card {inst!r} (a card like JC, or a relative trump like J@trump or J@trump_colour)",
                hint=hint,
            )
        elif kind == "word":
            self.at(path, f"a word cannot be empty or contain spaces: {inst!r}")
        elif kind == "range":
            self.at(path, f"expected a range [min, max] of player counts, got {_describe(inst)}")
        else:
            self.at(path, f"{_describe(inst)} does not have the expected form")

    def branch_errors(self, err: ValidationError) -> dict[int, list[ValidationError]]:
        groups: dict[int, list[ValidationError]] = {}
        for sub in err.context or []:
            index = sub.relative_schema_path[0]
            if isinstance(index, int):
                groups.setdefault(index, []).append(sub)
        return groups

    def report_alternatives(self, err: ValidationError, path: tuple[Any, ...]) -> None:
        groups = self.branch_errors(err)
        fitting = [
            subs
            for subs in groups.values()
            if not any(s.validator == "type" and tuple(s.absolute_path) == path for s in subs)
        ]
        if len(fitting) == 1:
            for sub in fitting[0]:
                self.report(sub)
            return
        schema = err.schema if isinstance(err.schema, dict) else {}
        self.at(path, f"expected {_expect(schema)}, got {_describe(err.instance)}")

    def report_step(self, err: ValidationError, path: tuple[Any, ...]) -> None:
        inst = err.instance
        needs = "a step needs exactly one of " + ", ".join(STEP_KINDS)
        if not isinstance(inst, dict):
            self.at(path, f"{needs}; got {_describe(inst)} instead of a map")
            return
        kinds = [k for k in inst if k in STEP_KINDS]
        if not kinds:
            known: set[str] = set(_STEP_COMMON)
            for branch in (err.schema or {}).get("oneOf", []):
                known.update(branch.get("properties", {}))
            unknown = [k for k in inst if k not in known]
            hints = [(k, did_you_mean(str(k), STEP_KINDS)) for k in unknown]
            hinted = [(k, h) for k, h in hints if h] or hints
            if hinted:
                k, hint = hinted[0]
                self.at((*path, k), f"{needs} (unknown key '{k}')", hint=hint, key=True)
            else:
                self.at(path, needs)
            return
        if len(kinds) > 1:
            self.at(
                (*path, kinds[1]),
                f"{needs}; this one has {_quoted_list(kinds)}",
                key=True,
            )
            return
        index = STEP_KINDS.index(kinds[0])
        for sub in self.branch_errors(err).get(index, []):
            self.report(sub)


def schema_errors(
    tree: Any,
    locate: Callable[[tuple[Any, ...], bool], Position],
) -> list[SpecError]:
    """Validate ``tree`` against the schema; all problems as located SpecErrors.

    ``locate(path, key)`` gives ``(file, line, col)`` of a node (of its key
    when ``key`` is true).  The errors are sorted by position.

    >>> errs = schema_errors({"spelbok": 1, "name": "x", "players": {"min": 2, "max": "four"},
    ...     "deck": [{"ranks": ["A"]}], "hand": [{"deel": {}}], "end": {"when": 1, "winners": 1}},
    ...     lambda path, key: ("g.yaml", None, None))
    >>> for e in errs: print(e)
    g.yaml: expected an integer, got a string 'four'
    g.yaml: a step needs exactly one of deal, turn_up, decide, tricks, set, if, repeat, redeal, end_hand, move, auction, pass_cards, declare_melds, patterns (unknown key 'deel') (did you mean 'deal'?)
    """
    reporter = _Reporter(locate)
    packed = isinstance(tree, dict) and isinstance(tree.get("pack"), dict)
    for err in _validator(packed).iter_errors(tree):
        reporter.report(err)
    seen: set[tuple[Any, ...]] = set()
    unique: list[SpecError] = []
    for e in reporter.out:
        ident = (e.path, e.line, e.col, e.message, e.hint)
        if ident not in seen:
            seen.add(ident)
            unique.append(e)
    unique.sort(key=lambda e: (e.path or "", e.line or 0, e.col or 0))
    return unique
