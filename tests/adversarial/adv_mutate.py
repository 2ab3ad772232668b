"""Seeded generators of hostile inputs: mutated specs (both surfaces), formulas, DSL soup."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from adv_harness import ROOT, SPECS

YAML_SPECS = sorted(SPECS.glob("*.yaml"))
DSL_SPECS = sorted(SPECS.glob("*.spel"))

#: values a mutation puts in place of another (every YAML type)
RETYPES: list[Any] = [7, "seven", [1, "x"], {"k": 1}, None, True, 1.5, "", [], {}]
NUMBERS: list[Any] = [0, -1, 10**18, -(10**18)]


# ------------------------------------------------------------------ YAML trees


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield (*path, k)
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield (*path, i)
            yield from _paths(v, (*path, i))


def _get(tree: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        tree = tree[p]
    return tree


#: stands for deep nesting in a tree until :func:`dump` writes it (as flow text, which
#: PyYAML's recursive emitter could not)
NEST = "@@nest-{}@@"


def _nested(depth: int, rng: random.Random) -> str:
    text = "x"
    for _ in range(depth):
        text = f"[{text}]" if rng.random() < 0.5 else f"{{k: {text}}}"
    return text


def mutate_tree(tree: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """One structured mutation of a spec tree: (new tree, what was done)."""
    import copy

    tree = copy.deepcopy(tree)
    paths = list(_paths(tree))
    path = rng.choice(paths)
    parent = _get(tree, path[:-1])
    key = path[-1]
    old = parent[key]
    where = "/".join(str(p) for p in path)
    op = rng.choice(["delete", "retype", "retype", "number", "nest", "grow", "players"])
    if op == "number" and not isinstance(old, int | str) or op == "grow" and not isinstance(old, list):
        op = "retype"
    if op == "delete":
        del parent[key]
        return tree, f"delete {where}"
    if op == "retype":
        new = rng.choice([v for v in RETYPES if type(v) is not type(old)])
        parent[key] = copy.deepcopy(new)
        return tree, f"retype {where} to {new!r}"
    if op == "number":
        new = rng.choice(NUMBERS)
        parent[key] = new if isinstance(old, int) else str(new)
        return tree, f"number {where} = {new}"
    if op == "nest":
        depth = rng.choice([40, 200, 3000])
        parent[key] = NEST.format(_nested(depth, rng))
        return tree, f"nest {where} {depth} deep"
    if op == "grow":
        factor = rng.choice([100, 5000])
        parent[key] = (old * factor)[: 100_000] if old else ["x"] * factor
        return tree, f"grow {where} x{factor}"
    # players: 0, 1 and 1000 seats
    lo, hi = rng.choice([(0, 0), (1, 1), (0, 1000), (1000, 1000), (2, 10**18)])
    tree["players"] = {"min": lo, "max": hi}
    return tree, f"players {lo}..{hi}"


def dump(tree: Any) -> str:
    text = yaml.safe_dump(tree, allow_unicode=True, sort_keys=False, width=10**9)
    return re.sub(r"'?@@nest-(.*?)@@'?", lambda m: m.group(1), text)


def yaml_text_mutation(text: str, rng: random.Random) -> tuple[str, str]:
    """Mutations that only text can express: duplicated keys, broken lines."""
    lines = text.splitlines(keepends=True)
    keyed = [i for i, ln in enumerate(lines) if re.match(r"\s*-?\s*[a-z_]+:", ln)]
    op = rng.choice(["dup", "dup", "drop", "indent", "cut", "ctrl"])
    i = rng.choice(keyed)
    if op == "dup":
        return "".join(lines[: i + 1] + [lines[i]] + lines[i + 1:]), f"duplicate line {i + 1}"
    if op == "drop":
        return "".join(lines[:i] + lines[i + 1:]), f"drop line {i + 1}"
    if op == "indent":
        return "".join(lines[:i] + ["   " + lines[i]] + lines[i + 1:]), f"indent line {i + 1}"
    if op == "cut":
        k = rng.randrange(len(text))
        return text[:k], f"cut at {k}"
    k = lines[i].index(":")
    bad = lines[i][:k] + "\x1b[2J\x07" + lines[i][k:]
    return "".join(lines[:i] + [bad] + lines[i + 1:]), f"control characters on line {i + 1}"


def yaml_mutants(per_spec: int, seed: int) -> Iterator[tuple[str, str]]:
    """(label, text) of mutated YAML specs, ``per_spec`` for each shipped spec."""
    rng = random.Random(seed)
    for path in YAML_SPECS:
        text = path.read_text(encoding="utf-8")
        tree = yaml.safe_load(text)
        for j in range(per_spec):
            if j % 4 == 3:
                new, what = yaml_text_mutation(text, rng)
            else:
                t, what = mutate_tree(tree, rng)
                new = dump(t)
            yield f"{path.stem}-{j}: {what}", new


# ------------------------------------------------------------------ DSL texts

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\S+')


def dsl_mutation(text: str, rng: random.Random, words: list[str]) -> tuple[str, str]:
    """One mutation of a DSL text: a line or a token deleted, doubled, replaced."""
    lines = text.splitlines(keepends=True)
    body = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    i = rng.choice(body)
    line = lines[i]
    op = rng.choice(["drop", "dup", "indent", "dedent", "number", "number", "token", "token",
                     "word", "swap", "cut", "ctrl"])
    toks = list(_TOKEN.finditer(line))
    if op == "drop":
        return "".join(lines[:i] + lines[i + 1:]), f"drop line {i + 1}"
    if op == "dup":
        return "".join(lines[: i + 1] + [line] + lines[i + 1:]), f"duplicate line {i + 1}"
    if op == "indent":
        return "".join(lines[:i] + ["  " + line] + lines[i + 1:]), f"indent line {i + 1}"
    if op == "dedent":
        return "".join(lines[:i] + [line.lstrip()] + lines[i + 1:]), f"dedent line {i + 1}"
    if op == "cut":
        k = rng.randrange(len(text))
        return text[:k], f"cut at {k}"
    if op == "ctrl":
        t = rng.choice(toks)
        new = line[: t.end()] + "\x1b]0;x\x07" + line[t.end():]
        return "".join(lines[:i] + [new] + lines[i + 1:]), f"control characters on line {i + 1}"
    nums = [t for t in toks if re.fullmatch(r"-?\d+", t.group())]
    if op == "number" and nums:
        t = rng.choice(nums)
        v = str(rng.choice(NUMBERS))
        new = line[: t.start()] + v + line[t.end():]
        return "".join(lines[:i] + [new] + lines[i + 1:]), f"line {i + 1}: {t.group()} -> {v}"
    if op == "swap" and len(toks) >= 2:
        a, b = sorted(rng.sample(range(len(toks)), 2))
        ta, tb = toks[a], toks[b]
        new = (line[: ta.start()] + tb.group() + line[ta.end(): tb.start()] + ta.group()
               + line[tb.end():])
        return "".join(lines[:i] + [new] + lines[i + 1:]), f"line {i + 1}: swap tokens {a}, {b}"
    t = rng.choice(toks)
    if op == "word":
        w = rng.choice(words)
        new = line[: t.start()] + w + line[t.end():]
        return "".join(lines[:i] + [new] + lines[i + 1:]), f"line {i + 1}: {t.group()} -> {w}"
    if rng.random() < 0.5:
        new = line[: t.start()] + line[t.end():]
        return "".join(lines[:i] + [new] + lines[i + 1:]), f"line {i + 1}: delete {t.group()}"
    new = line[: t.end()] + " " + t.group() + line[t.end():]
    return "".join(lines[:i] + [new] + lines[i + 1:]), f"line {i + 1}: double {t.group()}"


def grammar_words() -> list[str]:
    """The keywords and punctuation of the DSL grammar (its quoted literals)."""
    text = (ROOT / "grammar" / "spec.lark").read_text(encoding="utf-8")
    text += (ROOT / "grammar" / "formula.lark").read_text(encoding="utf-8")
    code = "\n".join(ln.split("//")[0] for ln in text.splitlines())
    return sorted(set(re.findall(r'"([^"\s\\]+)"', code)))


def dsl_mutants(per_spec: int, seed: int) -> Iterator[tuple[str, str]]:
    rng = random.Random(seed)
    words = grammar_words()
    for path in DSL_SPECS:
        text = path.read_text(encoding="utf-8")
        for j in range(per_spec):
            new, what = dsl_mutation(text, rng, words)
            if rng.random() < 0.25:  # sometimes two mutations at once
                new, more = dsl_mutation(new, rng, words)
                what += "; " + more
            yield f"{path.stem}-{j}: {what}", new


#: samples of the grammar's own terminals (RANK, SUIT, CARD, WORD, TEXT, INT, newlines)
TERMINALS = ["A", "10", "J", "7", "C", "♠", "JC", "10H", "J@trump", "score", "tricks", "plays",
             '"text"', '"x: y"', "0", "3", "-1", "99999999999999999999", "\n", "\n    ",
             "\n        ", "\n\n", "(", ")", "#", "—", "'s'", "==", "+", "*", "/", "%"]


def dsl_soup(count: int, seed: int) -> Iterator[tuple[str, str]]:
    """Random sequences of the grammar's tokens, some behind a valid header."""
    rng = random.Random(seed)
    words = grammar_words() + TERMINALS
    for j in range(count):
        n = rng.choice([1, 3, 8, 20, 60, 200])
        toks = [rng.choice(words) for _ in range(n)]
        body = " ".join(toks).replace(" \n", "\n")
        head = ('spelbok 1\ngame "Soup"\nplayers 2 to 4\n' if j % 2 else "")
        if j % 3 == 0:
            head += "each hand:\n    "
        yield f"soup-{j}", head + body + "\n"


# ------------------------------------------------------------------ formulas

#: formula slots of the example spec: (where, YAML path)
FORMULA_SLOTS = {
    "set": ("hand", 7, "set", "score"),
    "when": ("end", "when"),
    "winners": ("end", "winners"),
    "if": ("hand", 4, "if"),
    "size": ("hand", 0, "deal", "size"),
}


def example_with_formula(slot: str, formula: str) -> str:
    tree = yaml.safe_load((SPECS / "example.yaml").read_text(encoding="utf-8"))
    where = FORMULA_SLOTS[slot]
    parent = _get(tree, where[:-1])
    assert where[-1] in parent, f"the example spec has no formula at {where}"
    parent[where[-1]] = formula
    return dump(tree)


def formula_attacks(seed: int, count: int = 30) -> Iterator[tuple[str, str, str]]:
    """(label, slot, formula): depth, length, growth, huge literals, division by zero."""
    rng = random.Random(seed)
    fixed = [
        ("deep-parens", "set", "(" * 5000 + "score" + ")" * 5000),
        ("deep-parens-200", "set", "(" * 200 + "score" + ")" * 200),
        ("deep-neg", "set", "-" * 20000 + "score"),
        ("deep-not", "when", "not " * 5000 + "true"),
        ("deep-if", "set", "if true then " * 800 + "score" + " else 0" * 800),
        ("deep-calls", "set", "max(" * 2000 + "score" + ", 1)" * 2000),
        ("long-sum", "set", " + ".join(["score"] * 3000)),
        ("long-and", "when", " and ".join(["any(score <= 0)"] * 1000)),
        ("growth-mul", "set", " * ".join(["score"] * 30)),
        ("growth-mul-3", "set", "score * score * score + 1"),
        ("growth-sq", "set", "score * score"),
        ("huge-literal", "set", "1" + "0" * 100_000),
        ("huge-literal-20", "set", "score + 100000000000000000000"),
        ("huge-literal-5000", "set", "score - 9" * 1 + "9" * 5000),
        ("huge-size", "size", "1000000000000000000"),
        ("size-zero", "size", "0"),
        ("size-negative", "size", "0 - 5"),
        ("size-div0", "size", "5 / 0"),
        ("div-zero", "set", "score / 0"),
        ("mod-zero", "set", "score % 0"),
        ("div-zero-var", "set", "score / (tricks - tricks)"),
        ("div-zero-when", "when", "any(score / 0 <= 0)"),
        ("div-zero-winners", "winners", "score == min(score) / 0"),
        ("div-zero-if", "if", "count(plays) / 0 < 2"),
        ("pow-star", "set", "9**9**9"),
        ("pow-caret", "set", "9^9^9"),
        ("str-times", "set", "'a' * 100000000"),
        ("str-plus", "set", "'a' + score"),
        ("bool-arith", "set", "true + true"),
        ("unknown-call", "set", "__import__('os')"),
        ("dunder-name", "set", "score.__class__"),
        ("lambda", "set", "lambda: 1"),
        ("empty", "set", ""),
        ("spaces", "set", "   "),
        ("newline", "set", "score\n- 1"),
        ("control", "set", "score \x1b[31m- 1"),
        ("nul", "set", "score\x00"),
        ("unicode", "set", "scöre - 1"),
        ("rtl", "set", "score \u202e- 1"),
        ("type-when", "when", "5"),
        ("type-size", "size", "'five'"),
        ("type-winners", "winners", "score"),
        ("unbalanced", "set", "(score - 1"),
        ("trailing-op", "set", "score -"),
        ("many-args", "set", "max(" + ", ".join(["score"] * 3000) + ")"),
        ("no-args", "set", "max()"),
        ("nested-agg", "when", "any(any(any(score <= 0)))"),
    ]
    yield from ((a, b, c) for a, b, c in fixed)
    atoms = ["score", "tricks", "exchanged", "1", "0", "10**3", "-1", "999999999999"]
    ops = [" + ", " - ", " * ", " / ", " % "]
    for j in range(count):
        n = rng.choice([5, 50, 400])
        parts = [rng.choice(atoms)]
        for _ in range(n):
            parts.append(rng.choice(ops))
            parts.append(rng.choice(atoms))
        yield f"random-{j}", "set", "".join(parts)


def spec_copy(name: str, folder: Path) -> Path:
    """A shipped spec copied into ``folder`` (for tampered readings beside it)."""
    src = SPECS / name
    dst = folder / name
    dst.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    return dst


# ------------------------------------------------------------------ logs, snapshots, readings


def tamper(data: Any, rng: random.Random, cards: list[str], n: int) -> tuple[Any, str]:
    """One generic mutation of a JSON-like document (a log, a snapshot, a reading).

    Values are deleted, retyped, set to extreme numbers, seats put out of range
    and cards duplicated or replaced by non-cards.
    """
    import copy

    data = copy.deepcopy(data)
    paths = [p for p in _paths(data)]
    # favour shallow paths: a long list of events should not take every mutation
    paths.sort(key=len)
    path = paths[min(int(rng.expovariate(1 / 25)), len(paths) - 1)] if rng.random() < 0.6 \
        else rng.choice(paths)
    parent = _get(data, path[:-1])
    key = path[-1]
    old = parent[key]
    where = "/".join(str(p) for p in path)
    op = rng.choice(["delete", "retype", "number", "seat", "card", "card", "dup", "huge"])
    if op == "delete":
        del parent[key]
        return data, f"delete {where}"
    if op == "number" or op == "seat" and isinstance(old, int) and not isinstance(old, bool):
        new = rng.choice(NUMBERS + [n, n + 5, -n]) if op == "number" else rng.choice([n, 99, -1])
        parent[key] = new
        return data, f"{op} {where} = {new}"
    if op == "card" and isinstance(old, str):
        new = rng.choice(cards + ["ZZ", "1X", "", "JC JC", "\x1b[2J", "A" * 1000, "10H"])
        parent[key] = new
        return data, f"card {where} = {new!r}"
    if op == "dup" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(old))
        return data, f"duplicate {where}"
    if op == "huge" and isinstance(parent, list):
        parent[key:key] = [copy.deepcopy(old)] * 20000
        return data, f"repeat {where} 20000 times"
    new = rng.choice([v for v in RETYPES if type(v) is not type(old)])
    parent[key] = copy.deepcopy(new)
    return data, f"retype {where} to {new!r}"


def cards_moved(data: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """A snapshot with a card duplicated into another hand, or moved out of the pack."""
    import copy

    data = copy.deepcopy(data)
    hands = data["hands"]
    full = [i for i, h in enumerate(hands) if h]
    if not full:
        return data, "no hands to tamper"
    i = rng.choice(full)
    j = rng.randrange(len(hands))
    card = rng.choice(hands[i])
    op = rng.choice(["dup", "dup-stock", "foreign", "drop"])
    if op == "dup":
        hands[j].append(card)
        return data, f"card {card} of hand {i} also in hand {j}"
    if op == "dup-stock":
        data["stock"].append(card)
        return data, f"card {card} of hand {i} also in the stock"
    if op == "foreign":
        hands[i][0] = "2C" if "2C" not in sum(hands, []) else "ZZ"
        return data, f"hand {i}: a card of another pack"
    hands[i].remove(card)
    return data, f"card {card} dropped from hand {i}"
