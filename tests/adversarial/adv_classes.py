"""Generators of whole classes of hostile input (issue 30): Unicode digits wherever
notation is read, floats where the schema wants an integer, huge numbers in every
numeric field, thousands of steps.

The numeric fields are derived from the shipped schema (``spec.schema.json``), not
listed by hand: a field the vocabulary gains is mutated too.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import yaml
from adv_harness import ROOT, SPECS
from adv_mutate import YAML_SPECS, _paths, dump

SCHEMA = ROOT / "interpreter" / "lang" / "spec.schema.json"

#: the same digits in other scripts: int() refuses the first, reads the others
DIGITS = {
    "superscript": "⁰¹²³⁴⁵⁶⁷⁸⁹",
    "arabic-indic": "٠١٢٣٤٥٦٧٨٩",
    "fullwidth": "０１２３４５６７８９",
}
#: floats where an integer is wanted (a whole one and a fraction)
FLOATS: list[Any] = [3.0, 2.5]
#: huge integers (past every bound; the last one past any machine integer's)
HUGE: list[Any] = [10**18, -(10**18), 10**400]


def foreign(text: str, script: str) -> str:
    """``text`` with its ASCII digits written in ``script``."""
    table = DIGITS[script]
    return re.sub(r"[0-9]", lambda m: table[int(m.group())], text)


# ------------------------------------------------------------------ the schema's numbers


def _accepts_integer(node: Any, defs: dict[str, Any], seen: frozenset[str] = frozenset()) -> bool:
    """Whether a schema node takes an integer (directly, or in one of its branches)."""
    if not isinstance(node, dict):
        return False
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.rsplit("/", 1)[1]
        if name not in seen and _accepts_integer(defs.get(name), defs, seen | {name}):
            return True
    kind = node.get("type")
    if kind == "integer" or isinstance(kind, list) and "integer" in kind:
        return True
    if "items" in node and _accepts_integer(node["items"], defs, seen):
        return True
    return any(_accepts_integer(b, defs, seen) for k in ("anyOf", "oneOf", "allOf")
               for b in node.get(k, []))


def numeric_keys(schema: dict[str, Any] | None = None) -> set[str]:
    """The keys whose value (or whose list's items) the schema lets be an integer:
    counts, bounds, seats, ranks written as numbers and formulas (which may be
    written as a number)."""
    if schema is None:
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})
    keys: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                if _accepts_integer(sub, defs):
                    keys.add(name)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    return keys


def _at(tree: Any, path: tuple[Any, ...]) -> Any:
    """The value at ``path`` in a JSON-like tree."""
    for p in path:
        tree = tree[p]
    return tree


def _put(tree: Any, path: tuple[Any, ...], value: Any) -> None:
    """Set the value at ``path`` (not empty) in a JSON-like tree."""
    _at(tree, path[:-1])[path[-1]] = value


def numeric_places(tree: Any, keys: set[str]) -> list[tuple[Any, ...]]:
    """Paths in a spec tree of the numbers held by a numeric key (a value, or an item
    of its list); the French pack's rank names (``'10'``) count as numbers too."""
    out = []
    for path in _paths(tree):
        owner = next((p for p in reversed(path) if isinstance(p, str)), None)
        if owner not in keys:
            continue
        if path[-1] != owner and not isinstance(path[-1], int):
            continue  # inside a map held by the key: another key's business
        value = _at(tree, path)
        if isinstance(value, bool) or not (isinstance(value, int) or isinstance(value, str)
                                           and value.isascii() and value.isdigit()):
            continue
        out.append(path)
    return out


def numeric_mutants(values: list[Any], seed: int, per_key: int = 1) -> Iterator[tuple[str, str]]:
    """(label, YAML text): each numeric key of the schema met in the shipped specs set to
    each of ``values`` (``per_key`` places per key, seeded)."""
    rng = random.Random(seed)
    keys = numeric_keys()
    by_key: dict[str, list[tuple[str, tuple[Any, ...]]]] = {}
    trees = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in YAML_SPECS}
    for stem, tree in trees.items():
        for path in numeric_places(tree, keys):
            owner = next(p for p in reversed(path) if isinstance(p, str))
            by_key.setdefault(owner, []).append((stem, path))
    for key in sorted(by_key):
        for stem, path in rng.sample(by_key[key], min(per_key, len(by_key[key]))):
            for value in values:
                tree = copy.deepcopy(trees[stem])
                _put(tree, path, value)
                where = "/".join(str(p) for p in path)
                shown = value if not isinstance(value, int) or abs(value) < 10**20 else "10**400"
                yield f"{stem}: {where} = {shown}", dump(tree)


# ------------------------------------------------------------------ Unicode digits in texts


def digit_mutants(texts: list[tuple[str, str]], seed: int, per_text: int = 2
                  ) -> Iterator[tuple[str, str]]:
    """(label, text): one run of ASCII digits of each text written in another script."""
    rng = random.Random(seed)
    for name, text in texts:
        runs = [m for m in re.finditer(r"[0-9]+", text)
                if not text[: m.start()].rstrip(" ").endswith(("spelbok:", "spelbok", "reading:"))]
        for j in range(min(per_text, len(runs))):
            m = rng.choice(runs)
            script = list(DIGITS)[(j + rng.randrange(3)) % 3]
            line = text.count("\n", 0, m.start()) + 1
            new = text[: m.start()] + foreign(m.group(), script) + text[m.end():]
            yield f"{name}-{j}: line {line} {m.group()} in {script}", new


def spec_texts(suffix: str) -> list[tuple[str, str]]:
    return [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(SPECS.glob(f"*{suffix}"))]


# ------------------------------------------------------------------ many steps


def many_steps(count: int, dsl: bool = False) -> str:
    """The example spec with ``count`` extra ``set`` steps (YAML, or written as DSL)."""
    tree = yaml.safe_load((SPECS / "example.yaml").read_text(encoding="utf-8"))
    tree["hand"][3:3] = [{"set": {"score": "score"}, "for": "true"} for _ in range(count)]
    if not dsl:
        return dump(tree)
    text = (SPECS / "example.spel").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("    deal "))
    return "".join(lines[:at] + ["    for each player, set score = score\n"] * count
                   + lines[at:])


def digit_tree(data: Any, rng: random.Random) -> tuple[Any, str]:
    """A JSON-like document (a log, a snapshot) with the digits of one of its texts
    written in another script."""
    data = copy.deepcopy(data)
    places = [path for path in _paths(data)
              if isinstance(v := _at(data, path), str) and re.search(r"[0-9]", v)]
    if not places:
        return data, "no text with digits"
    path = rng.choice(places)
    script = rng.choice(list(DIGITS))
    old = _at(data, path)
    _put(data, path, foreign(old, script))
    return data, f"{'/'.join(str(p) for p in path)}: {old!r} in {script}"


def number_tree(data: Any, rng: random.Random) -> tuple[Any, str]:
    """A JSON-like document (a log, a snapshot, a reading) with one of its integers made a
    float or a huge number."""
    data = copy.deepcopy(data)
    places = [path for path in _paths(data) if type(_at(data, path)) is int]
    if not places:
        return data, "no number"
    path = rng.choice(places)
    new = rng.choice([float(_at(data, path)) + rng.choice([0, 0.5]), *HUGE])
    shown = new if not isinstance(new, int) or abs(new) < 10**20 else "10**400"
    _put(data, path, new)
    return data, f"{'/'.join(str(p) for p in path)} = {shown}"


# ------------------------------------------------------------------ what is done with them


def notation_digits(spec: str, players: int, seed: int, decisions: int = 60) -> list[str]:
    """A random match of ``spec``; at each decision every legal action that has digits is
    offered with its digits in each other script (refused, the state untouched), and a few
    words that are not actions are applied (refused with an action error, the state
    untouched); the legal action's own notation is accepted."""
    import spelbok
    from spelbok.engine.actions import Action
    from spelbok.errors import ActionError

    game = spelbok.load(spec, players=players, max_hands=2)
    rng = random.Random(seed)
    st = game.new_state(seed=seed)
    for _ in range(decisions):
        if st.is_terminal:
            break
        legal = st.legal_actions()
        tries = ["N", "n", "x", "bid", "bid ²", "1", "²", "pass ١", "exchange ０"]
        for a in legal[:12]:
            text = str(a)
            assert st.parse_action(text) == a, f"{text!r} does not read back as itself"
            if re.search(r"[0-9]", text):
                tries += [foreign(text, s) for s in DIGITS]
            if len(a) == 4:  # the same action without its pack (hand-made)
                tries.append(Action(a[0], a[1], a[2]))  # type: ignore[arg-type]
        for t in tries:
            if t in legal:
                continue
            before = st.to_dict()
            c = st.clone()
            try:
                c.apply(t)
            except ActionError:
                pass
            else:
                raise AssertionError(f"{t!r} was accepted as an action")
            assert c.to_dict() == before, f"refusing {t!r} changed the state"
            assert not st.is_legal(t), f"{t!r} is legal"
        st.apply(rng.choice(legal))
    return []


def steps_spec(name: str, text: str, folder: str) -> list[str]:
    """A spec with many steps: validated; when valid, converted to the other surface and
    back (the same tree), described and played a little."""
    from pathlib import Path

    from adv_exercise import spec_text
    from spelbok.lang.describe import describe
    from spelbok.lang.dslwrite import to_dsl
    from spelbok.lang.loader import read_spec

    messages = spec_text(name, text, folder, max_hands=1, steps=30)
    if messages:
        return messages
    doc = read_spec(str(Path(folder) / name))
    back = Path(folder) / (name + ".spel")
    back.write_text(to_dsl(doc.tree), encoding="utf-8")
    assert read_spec(str(back)).tree == doc.tree, "convert --to dsl changed the spec"
    describe(doc)
    return []


def convert_round_trip(name: str, text: str, folder: str) -> list[str]:
    """A valid spec written as DSL and read back is the same spec."""
    from pathlib import Path

    from spelbok.lang.dslwrite import to_dsl
    from spelbok.lang.loader import read_spec

    path = Path(folder) / name
    path.write_text(text, encoding="utf-8")
    doc = read_spec(str(path))
    back = Path(folder) / (name + ".spel")
    back.write_text(to_dsl(doc.tree), encoding="utf-8")
    again = read_spec(str(back)).tree
    assert again == doc.tree, "convert --to dsl changed the spec: " + ", ".join(
        k for k in doc.tree if doc.tree.get(k) != again.get(k))
    return []
