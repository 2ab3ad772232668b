"""Tampered logs (``spelbok replay``), snapshots (``game.restore``) and reading files
(``spelbok verify``): values retyped, cards duplicated, seats out of range, files
named that are not specs.  Each ends in a clean error, or in a sound state.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import spelbok
import yaml
from adv_exercise import api_call, log_file, reading_file, snapshot
from adv_harness import SEED, SPECS, Failures, plant, run_many, scaled
from adv_mutate import YAML_SPECS, cards_moved, tamper

GAMES = [(p.stem, {"german-whist": 2, "euchre": 4}.get(p.stem, 3)) for p in YAML_SPECS]
WATCH = ("adv-secret", "/etc/passwd", "/proc/")
#: tampered inputs per game or file
SNAPSHOTS = 18
LOGS = 30
READINGS = 12


def _game(spec: str, n: int) -> Any:
    tree = yaml.safe_load((SPECS / f"{spec}.yaml").read_text(encoding="utf-8"))
    n = max(tree["players"]["min"], min(n, tree["players"]["max"]))
    return spelbok.load(spec, players=n, max_hands=3)


def _played(game: Any, seed: int, steps: int) -> Any:
    rng = random.Random(seed)
    st = game.new_state(seed=seed)
    for _ in range(steps):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


# ------------------------------------------------------------------ logs


def _log(tmp: Path, spec: str, n: int, seed: int) -> dict[str, Any]:
    from spelbok.cli.play import write_log
    from spelbok.engine.rng import SHUFFLE

    game = _game(spec, n)
    st = _played(game, seed, 40)
    path = tmp / "base.json"
    record = {"spec": spec, "players": game.players, "options": {}, "seed": seed,
              "shuffle": SHUFFLE, "max_hands": 3, "bots": {}, "human": None}
    write_log(str(path), record, st)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _log_specials(tmp: Path, base: dict[str, Any]) -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []

    def with_(label: str, **kw: Any) -> None:
        out.append((label, json.dumps({**base, **kw}).encode()))

    for spec in ["../adv-secret.yaml", "@TMP@/adv-secret.yaml", "@TMP@/adv-secret.txt",
                 "/etc/passwd", "/proc/self/environ", "/dev/zero", "\x1b[2Jexample", "e" * 5000]:
        with_(f"spec-{spec[:30]}", spec=spec)
    with_("players-0", players=0)
    with_("players-1000", players=1000)
    with_("players-huge", players=10**18)
    with_("seed-huge", seed=10**400)
    with_("seed-negative", seed=-1)
    with_("max-hands-0", max_hands=0)
    with_("max-hands-huge", max_hands=10**18)
    with_("actions-20000", actions=base["actions"] + ["pass"] * 20000)
    with_("actions-escape", actions=["\x1b[2J\x1b]0;owned\x07"])
    with_("options-unknown", options={"\x1b[31mred": "x"})
    with_("options-deep", options={"void_rule": [[[[[]]]]]})
    with_("events-empty", events=[])
    with_("events-bad-seat", events=[{**e, "seat": 99} if "seat" in e else e
                                     for e in base["events"]])
    out.append(("deep-json", b'{"spelbok_log": 1, "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"))
    out.append(("not-utf8", b'{"spelbok_log": 1, "spec": "\xff\xfe"}'))
    out.append(("nan", json.dumps({**base, "seed": float("nan")}).encode()))
    out.append(("huge-int", b'{"spelbok_log": 1, "seed": 1' + b"0" * 100_000 + b"}"))
    out.append(("empty", b""))
    out.append(("list", b"[]"))
    return out


@pytest.mark.parametrize("spec, n", [("knektpass", 3), ("euchre", 4), ("knockout-whist", 4)])
def test_tampered_logs(tmp_path: Path, spec: str, n: int) -> None:
    folder = plant(tmp_path)
    base = _log(tmp_path, spec, n, 11)
    rng = random.Random(SEED + n)
    cards = spelbok.load(spec, players=base["players"]).deck
    inputs = _log_specials(tmp_path, base) if spec == "knektpass" else []
    for j in range(scaled(LOGS)):
        data, what = tamper(base, rng, cards, base["players"])
        inputs.append((f"{j}: {what}", json.dumps(data).encode()))
    fails = Failures(f"log-{spec}")
    tasks = []
    for i, (_label, raw) in enumerate(inputs):
        target = folder / f"tampered{i}.json"
        target.write_bytes(raw.replace(b"@TMP@", str(tmp_path).encode()))
        tasks.append((log_file, (str(target),), WATCH))
    for (label, raw), out in zip(inputs, run_many(tasks), strict=True):
        fails.check(label, raw.decode("utf-8", "surrogateescape"), out, suffix=".log.json")
    assert fails.count == 0, fails.report()


# ------------------------------------------------------------------ snapshots


@pytest.mark.parametrize("spec, n", GAMES)
def test_tampered_snapshots(spec: str, n: int) -> None:
    game = _game(spec, n)
    rng = random.Random(SEED + len(spec))
    fails = Failures(f"snapshot-{spec}")
    inputs = []
    for j in range(scaled(SNAPSHOTS)):
        st = _played(game, SEED + j, rng.randrange(1, 60))
        base = st.to_dict()
        if j % 3 == 0:
            data, what = cards_moved(base, rng)
        else:
            data, what = tamper(base, rng, game.deck, game.players)
        inputs.append((f"{j}: {what}", data))
    outs = run_many([(snapshot, (spec, game.players, data), ()) for _label, data in inputs])
    head = f"# spec: {spec}\n# players: {game.players}\n"
    for (label, data), out in zip(inputs, outs, strict=True):
        fails.check(label, json.dumps(data), out, suffix=".snapshot.json", header=head)
    assert fails.count == 0, fails.report()


# ------------------------------------------------------------------ reading files


def _reading_specials(folder: Path, base: dict[str, Any]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for spec in ["../../adv-secret.yaml", "../../adv-secret.txt", "@TMP@/adv-secret.yaml",
                 "/etc/passwd", "/proc/self/environ", "readings", "\x1b[2J"]:
        out.append((f"spec-{spec[:30]}", {**base, "spec": spec}))
    case = base["cases"][0]
    for label, extra in [
        ("dealer-99", {"dealer": 99}), ("dealer-neg", {"dealer": -1}),
        ("players-0", {"players": 0}), ("players-1000", {"players": 1000}),
        ("hands-seat-99", {"hands": {99: "AS"}}), ("hands-seat-neg", {"hands": {-1: "AS"}}),
        ("hands-dup", {"hands": {0: "AS AS", 1: "AS"}}), ("hands-foreign", {"hands": {0: "ZZ 1X"}}),
        ("turn-up-dup", {"hands": {0: "AS"}, "turn_up": "AS"}),
        ("deck-dup", {"deck": ["AS"] * 60}), ("deck-short", {"deck": ["AS"]}),
        ("position-leader-99", {"position": {"leader": 99, "hands": {0: "AS"}}}),
        ("position-trick-dup", {"position": {"trick": ["AS", "AS"], "hands": {0: "AS"}}}),
        ("position-tricks-neg", {"position": {"tricks": [-5, 10**18], "hands": {0: "AS"}}}),
        ("position-scores-str", {"position": {"scores": ["x", None], "hands": {0: "AS"}}}),
        ("expect-seat-99", {"steps": [{"expect": {"current": 99, "tricks": {99: 1}}}]}),
        ("play-escape", {"steps": [{"play": "\x1b[2JAS"}]}),
        ("steps-20000", {"steps": [{"expect": {"terminal": False}}] * 20000}),
    ]:
        out.append((label, {**base, "cases": [{**case, **extra}]}))
    return out


def _reading_base(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["cases"] = data["cases"][:3]  # a few cases: each input stays quick
    return data


@pytest.mark.parametrize("path", sorted((SPECS / "readings").glob("*.yaml")), ids=lambda p: p.stem)
def test_tampered_readings(tmp_path: Path, path: Path) -> None:
    folder = plant(tmp_path)
    base = _reading_base(path)
    rng = random.Random(SEED + len(path.stem))
    from spelbok.cards import CARD_NAMES

    cards = list(CARD_NAMES)
    inputs = _reading_specials(folder, base) if path.stem == "knektpass-1847" else []
    for j in range(scaled(READINGS)):
        data, what = tamper(base, rng, cards, int(base.get("players") or 3))
        inputs.append((f"{j}: {what}", data))
    fails = Failures(f"reading-{path.stem}")
    texts, tasks = [], []
    for i, (_label, data) in enumerate(inputs):
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10**9)
        target = folder / "readings" / f"tampered{i}.yaml"
        target.write_text(text.replace("@TMP@", str(tmp_path)), encoding="utf-8")
        texts.append(text)
        tasks.append((reading_file, (str(target),), WATCH))
    for (label, _data), text, out in zip(inputs, texts, run_many(tasks), strict=True):
        fails.check(label, text, out, suffix=".reading.yaml")
    assert fails.count == 0, fails.report()


# ------------------------------------------------------------------ the state API


def _api_inputs(deck: list[str]) -> list[tuple[str, tuple[object, ...]]]:
    esc = "\x1b]0;owned\x07\x1b[2J"
    return [
        ("new_state", ({"deck": deck + [deck[0]]},)),
        ("new_state", ({"deck": deck[:-1] + [deck[0]]},)),
        ("new_state", ({"deck": deck[:-1] + ["ZZ"]},)),
        ("new_state", ({"deck": deck[:-1] + [esc]},)),
        ("new_state", ({"deck": [None] * len(deck)},)),
        ("new_state", ({"deck": "AS KS"},)),
        ("new_state", ({"deck": []},)),
        ("new_state", ({"seed": 10**400},)),
        ("new_state", ({"seed": -1},)),
        ("new_state", ({"dealer": 99},)),
        ("new_state", ({"dealer": -1},)),
        ("new_state", ({"position": {"trump": esc}},)),
        ("new_state", ({"position": {"hands": {"99": "AS"}}},)),
        ("new_state", ({"position": {"hands": {"0": "AS AS"}}},)),
        ("new_state", ({"position": "AS"},)),
        ("apply", (esc,)),
        ("apply", ("",)),
        ("apply", (None,)),
        ("apply", (123,)),
        ("apply", ("exchange " + "AS " * 10_000,)),
        ("apply", ("x" * 1_000_000,)),
        ("apply", ("\udcff",)),
        ("parse_action", (esc,)),
        ("is_legal", ([1, 2],)),
        ("view", (99,)),
        ("view", (-1,)),
        ("determinize", (99,)),
        ("determinize", (-1,)),
        ("var", (esc,)),
        ("var", ("__class__",)),
    ]


@pytest.mark.parametrize("spec, n", [("knektpass", 3), ("euchre", 4)])
def test_bad_api_arguments(spec: str, n: int) -> None:
    """Bad values (not bad types) given to new_state, apply, view, determinize...: a
    SpelbokError (the one exception family), or sound play."""
    deck = spelbok.load(spec, players=n).deck
    inputs = _api_inputs(deck)
    outs = run_many([(api_call, (spec, n, call, args), ()) for call, args in inputs])
    fails = Failures(f"api-{spec}")
    for (call, args), out in zip(inputs, outs, strict=True):
        text = json.dumps({"spec": spec, "players": n, "call": call, "args": list(args)})
        fails.check(f"{call}{args!r}"[:60], text, out, suffix=".api.json")
    assert fails.count == 0, fails.report()
