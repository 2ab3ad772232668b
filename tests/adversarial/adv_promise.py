"""Mutations that keep a spec plausible (formulas, number ranges, exchanges), for the
property ``validate`` promises: a spec it accepts plays without an error.

Unlike :mod:`adv_mutate`, which breaks specs in every way, these mutations change what a
spec means while keeping most of them valid: a formula replaced by another over the
spec's own names (``choice`` among them), a number decision's range or an exchange's
``max`` set to values small and huge, fixed and worked out in play.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import yaml
from adv_mutate import YAML_SPECS, dump

#: keys whose value is a formula (or whose map values are)
FORMULA_KEYS = frozenset({"when", "if", "score", "winners", "size", "min", "max", "count",
                          "allow", "where", "players", "most", "abstain"})
ASSIGN_KEYS = frozenset({"then", "set"})
#: builtins worth mixing in (of every kind)
BUILTINS = ["choice", "count", "cards", "tricks", "seat", "hand_number", "trump", "dealer",
            "seats", "talon", "out", "is_dealer", "hand", "trick_number", "led_suit"]
TEMPLATES = [
    "{a}", "{a} + {b}", "{a} - 1", "{a} * {b}", "{a} / ({b} - {b})", "{a} % ({b} + 1)",
    "-{a}", "not {a}", "{a} == {b}", "{a} != 'pass'", "{a} < {b}", "max({a}, {b})",
    "min({a}, 3)", "abs({a})", "if {a} then {b} else {a}", "if {a} == {b} then 1 else 0",
    "count(hand) + {a}", "choice + {a}", "sum({a})", "any({a})", "{a} and {b}",
    "count({a})", "{a} + 1000000000000",
    "suit_of(led_card) == {a}", "rank_of(highest(hand)) == {a}", "holds('AH') and {a}",
    "count(hand where card_suit == trump) + {a}", "points_of(trick) + {a}",
    "{a} + count(trick)", "power(winning_card) > {a}",
]
NUMBERS: list[Any] = [0, 1, 3, 13, 200, 10**4, 10**9, "cards", "cards * 100", "hand_number",
                      "13 - {a}", "min(cards, 5)", "{a}", "seats - 1", "choice"]


def _formula_slots(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Paths of the formula values of a raw spec tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            here = (*path, k)
            if k in FORMULA_KEYS and isinstance(v, str | int | bool):
                yield here
            elif k in ASSIGN_KEYS and isinstance(v, dict):
                yield from ((*here, name) for name in v)
            else:
                yield from _formula_slots(v, here)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _formula_slots(v, (*path, i))


def _names(tree: dict[str, Any]) -> list[str]:
    names = list(BUILTINS)
    for scope in (tree.get("variables") or {}).values():
        names += list(scope or {})
    names += list(tree.get("options") or {})
    return names


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> None:
    for p in path[:-1]:
        tree = tree[p]
    tree[path[-1]] = value


def _formula(rng: random.Random, names: list[str]) -> str:
    atoms = names + ["0", "1", "2", "'pass'", "true"]
    return rng.choice(TEMPLATES).format(a=rng.choice(atoms), b=rng.choice(atoms))


def _decisions(tree: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict]]:
    if isinstance(tree, dict):
        if "decide" in tree:
            yield path, tree
        for k, v in tree.items():
            yield from _decisions(v, (*path, k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            yield from _decisions(v, (*path, i))


def mutate(tree: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """One meaningful mutation: (new tree, what was done)."""
    tree = copy.deepcopy(tree)
    names = _names(tree)
    decisions = list(_decisions(tree))
    op = rng.choice(["formula", "formula", "formula", "range", "exchange", "rechoose"])
    if op == "rechoose" and decisions:  # its 'then' and 'allow' meet another kind of choice
        path, step = rng.choice(decisions)
        step["choose"] = rng.choice(["suit", ["yes", "no"], "number"])
        for key in ("suits", "exchange", "min", "max"):
            step.pop(key, None)
        if step["choose"] == "number":
            step["min"], step["max"] = 0, rng.choice([2, "cards"])
        return tree, f"choose {'/'.join(map(str, path))}: {step['choose']}"
    if op == "range" and decisions:
        path, step = rng.choice(decisions)
        step["choose"] = "number"
        for key in ("choices", "suits", "exchange"):
            step.pop(key, None)
        lo, hi = (rng.choice(NUMBERS), rng.choice(NUMBERS))
        lo = lo.format(a=rng.choice(names)) if isinstance(lo, str) else lo
        hi = hi.format(a=rng.choice(names)) if isinstance(hi, str) else hi
        step["min"], step["max"] = lo, hi
        return tree, f"number range {'/'.join(map(str, path))}: {lo}..{hi}"
    exchanges = [(p, s) for p, s in decisions if s.get("choose") == "exchange"]
    if op == "exchange" and exchanges:
        path, step = rng.choice(exchanges)
        ex = step.setdefault("exchange", {})
        ex["max"] = rng.choice([0, 2, 8, 13, 40, "cards", "cards - 1", "hand_number"])
        ex["draw_from"] = rng.choice(["stock", "none", "turn_up"])
        return tree, f"exchange {'/'.join(map(str, path))}: {ex}"
    slots = list(_formula_slots(tree))
    path = rng.choice(slots)
    new = _formula(rng, names)
    _set(tree, path, new)
    return tree, f"formula {'/'.join(map(str, path))} = {new}"


def promise_mutants(per_spec: int, seed: int) -> Iterator[tuple[str, str]]:
    """(label, text) of meaningfully mutated YAML specs, ``per_spec`` of each shipped one
    (one or two mutations each)."""
    rng = random.Random(seed)
    for path in YAML_SPECS:
        tree = yaml.safe_load(path.read_text(encoding="utf-8"))
        for j in range(per_spec):
            new, what = mutate(tree, rng)
            if rng.random() < 0.3:
                new, more = mutate(new, rng)
                what += "; " + more
            yield f"{path.stem}-{j}: {what}", dump(new)
