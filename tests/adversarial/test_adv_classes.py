"""Classes of hostile input (issue 30), each generated over every place it can go:

- Unicode digits (superscripts, Arabic-Indic, fullwidth) wherever notation or a
  number is read: specs of both surfaces, actions at every decision, logs,
  snapshots, reading files;
- floats where the schema wants an integer, and huge numbers (10**18, -10**18,
  10**400) in every numeric field (the fields derived from ``spec.schema.json``), and in
  the integers of logs, snapshots and reading files;
- thousands of steps (validate, convert both ways, describe).

Each input ends in a clean error or correct behaviour within the harness's bound.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import spelbok
import yaml
from adv_classes import (
    FLOATS,
    HUGE,
    convert_round_trip,
    digit_mutants,
    digit_tree,
    many_steps,
    notation_digits,
    number_tree,
    numeric_keys,
    numeric_mutants,
    spec_texts,
    steps_spec,
)
from adv_exercise import log_file, reading_file, snapshot, spec_text
from adv_harness import SEED, SPECS, Failures, plant, problems, run_bounded, run_many, scaled
from adv_mutate import YAML_SPECS

WATCH = ("adv-secret", "/etc/passwd", "/dev/zero", "/proc/")


def test_numeric_fields_come_from_the_schema() -> None:
    keys = numeric_keys()
    # a guard that the derivation finds the fields it must (and not every key)
    assert {"min", "max", "size", "count", "packets", "max_hands", "copies", "ranks",
            "level", "players", "repeat"} <= keys
    assert not {"name", "source", "about", "suits", "deck", "hand"} & keys


@pytest.mark.parametrize("kind, values", [("float", FLOATS), ("huge", HUGE)])
def test_numbers_in_every_numeric_field(tmp_path: Path, kind: str, values: list[object]) -> None:
    folder = plant(tmp_path)
    fails = Failures(f"spec-{kind}")
    inputs = list(numeric_mutants(values, SEED, per_key=scaled(1)))
    assert len(inputs) >= 20 * len(values)  # every numeric key the shipped specs use
    outs = run_many([(spec_text, (f"mutant{i}.yaml", text, str(folder)), WATCH)
                     for i, (_label, text) in enumerate(inputs)])
    for (label, text), out in zip(inputs, outs, strict=True):
        fails.check(label, text, out, suffix=".spec.yaml")
    assert fails.count == 0, fails.report()


@pytest.mark.parametrize("suffix", [".yaml", ".spel"])
def test_unicode_digits_in_specs(tmp_path: Path, suffix: str) -> None:
    folder = plant(tmp_path)
    fails = Failures(f"spec-digits{suffix.replace('.', '-')}")
    inputs = list(digit_mutants(spec_texts(suffix), SEED, per_text=scaled(2)))
    outs = run_many([(spec_text, (f"mutant{i}{suffix}", text, str(folder)), WATCH)
                     for i, (_label, text) in enumerate(inputs)])
    for (label, text), out in zip(inputs, outs, strict=True):
        fails.check(label, text, out, suffix=f".spec{suffix}")
    assert fails.count == 0, fails.report()


GAMES = [(p.stem, {"german-whist": 2, "euchre": 4, "bridge": 4}.get(p.stem, 3)) for p in YAML_SPECS]


def test_unicode_digits_in_actions() -> None:
    """Every legal action with digits, written in other scripts, at every decision of a
    match of every shipped spec; words that are not actions; hand-made actions."""
    fails = Failures("actions-digits")
    outs = run_many([(notation_digits, (spec, n, SEED + i), ()) for i, (spec, n)
                     in enumerate(GAMES)])
    for (spec, n), out in zip(GAMES, outs, strict=True):
        fails.check(f"{spec}-{n}", json.dumps({"spec": spec, "players": n}), out,
                    suffix=".players.json")
    assert fails.count == 0, fails.report()


def _log(tmp: Path, spec: str, n: int, seed: int) -> dict[str, object]:
    from spelbok.cli.play import write_log
    from spelbok.engine.rng import SHUFFLE

    game = spelbok.load(spec, players=n, max_hands=2)
    st = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    path = tmp / f"base-{spec}.json"
    write_log(str(path), {"spec": spec, "players": n, "options": {}, "seed": seed,
                          "shuffle": SHUFFLE, "max_hands": 2, "bots": {}, "human": None}, st)
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _json(data: object) -> str:
    # json.dumps refuses a 10**400 only above Python's digit limit; it is written as is
    return json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize("spec, n", [("oh-hell", 3), ("bridge", 4), ("french-tarot", 3)])
def test_digits_and_numbers_in_logs_and_snapshots(tmp_path: Path, spec: str, n: int) -> None:
    folder = plant(tmp_path)
    rng = random.Random(SEED + n)
    base = _log(tmp_path, spec, n, 7)
    game = spelbok.load(spec, players=n)
    st = game.new_state(seed=3)
    for _ in range(12):
        st.apply(rng.choice(st.legal_actions()))
    snap = st.to_dict()
    logs, snaps = [], []
    for j in range(scaled(10)):
        data, what = digit_tree({"actions": base["actions"]}, rng)
        logs.append((f"log-{j}: {what}", {**base, **data}))
        sdata, swhat = digit_tree(snap, rng)
        snaps.append((f"snapshot-{j}: {swhat}", sdata))
    for j in range(scaled(10)):  # floats and huge numbers where the files hold integers
        data, what = number_tree(base, rng)
        logs.append((f"log-number-{j}: {what}", data))
        sdata, swhat = number_tree(snap, rng)
        snaps.append((f"snapshot-number-{j}: {swhat}", sdata))
    tasks = []
    for i, (_label, data) in enumerate(logs):
        target = folder / f"digits{i}.json"
        target.write_text(_json(data), encoding="utf-8")
        tasks.append((log_file, (str(target),), WATCH))
    tasks += [(snapshot, (spec, n, data), ()) for _label, data in snaps]
    outs = run_many(tasks)
    fails = Failures(f"digits-{spec}")
    for (label, data), out in zip(logs + snaps, outs, strict=True):
        kind = ".log.json" if label.startswith("log") else ".snapshot.json"
        head = "" if kind == ".log.json" else f"# spec: {spec}\n# players: {n}\n"
        fails.check(label, _json(data), out, suffix=kind, header=head)
    assert fails.count == 0, fails.report()


def test_digits_and_numbers_in_readings(tmp_path: Path) -> None:
    folder = plant(tmp_path)
    texts = []
    for p in sorted((SPECS / "readings").glob("*.yaml")):
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
        data["cases"] = data["cases"][:4]  # a few cases each: each input stays quick
        texts.append((p.stem, yaml.safe_dump(data, allow_unicode=True, sort_keys=False,
                                             width=10**9)))
    inputs = list(digit_mutants(texts, SEED + 5, per_text=scaled(3)))
    rng = random.Random(SEED + 6)
    for name, text in texts:  # floats and huge numbers where the file holds integers
        data, what = number_tree(yaml.safe_load(text), rng)
        inputs.append((f"{name}: {what}", yaml.safe_dump(data, allow_unicode=True,
                                                         sort_keys=False, width=10**9)))
    tasks = []
    for i, (_label, text) in enumerate(inputs):
        target = folder / "readings" / f"digits{i}.yaml"
        target.write_text(text, encoding="utf-8")
        tasks.append((reading_file, (str(target),), WATCH))
    fails = Failures("reading-classes")
    for (label, text), out in zip(inputs, run_many(tasks), strict=True):
        fails.check(label, text, out, suffix=".reading.yaml")
    assert fails.count == 0, fails.report()


@pytest.mark.parametrize("count", [900, 1000, 5000, 14000])
@pytest.mark.parametrize("dsl", [False, True], ids=["yaml", "dsl"])
def test_thousands_of_steps(tmp_path: Path, count: int, dsl: bool) -> None:
    name = f"steps{count}" + (".spel" if dsl else ".yaml")
    out = run_bounded(steps_spec, name, many_steps(count, dsl), str(tmp_path))
    assert not problems(out), problems(out)
    # the bound is a located error, not a silent cut: over it, validate says so
    over = count >= 1000  # the example has steps of its own
    assert (out.kind == "ok" and bool(out.messages)) == over, out.detail[:300]
    if over:
        # the DSL's own bound on a file's tokens may come first: a located error too
        assert re.match(r".+:\d+:\d+: ", out.messages[0]) and (
            "at most 1000" in out.messages[0] or "too large" in out.messages[0]), out.messages


def test_a_card_of_a_declared_pack_keeps_its_case_through_convert(tmp_path: Path) -> None:
    # once: convert --to dsl wrote the top trump `dealer` as "dealer", read back as DEALER
    tree = yaml.safe_load((SPECS / "french-tarot.yaml").read_text(encoding="utf-8"))
    tree["pack"]["extra"][-1]["name"] = "dealer"
    text = yaml.safe_dump(tree, allow_unicode=True, sort_keys=False).replace("EX", "dealer")
    tree = yaml.safe_load(text)
    tree["ranking"]["top_trumps"].insert(0, "dealer")
    out = run_bounded(convert_round_trip, "lower.yaml", yaml.safe_dump(
        tree, allow_unicode=True, sort_keys=False), str(tmp_path))
    assert out.kind == "ok", out.detail[-2000:]


def test_unicode_digits_in_web_requests() -> None:
    """The browser API reads numbers in ASCII digits too (once: 'players=²' and
    'greedy:²' were a ValueError, an internal server error)."""
    pytest.importorskip("starlette")
    from spelbok.web.app import create_app
    from starlette.testclient import TestClient

    client = TestClient(create_app(), raise_server_exceptions=False)
    for players in ("²", "٣", "３"):
        r = client.get("/api/spec", params={"spec": "knektpass", "players": players})
        assert r.status_code == 400, (players, r.status_code, r.text[:200])
    t = client.post("/api/matches", json={"spec": "knektpass", "seed": 1}).json()
    while t["bot_turn"]:
        t = client.post(f"/api/matches/{t['id']}/advance", json={"step": t["step"]}).json()
    for bot in ("greedy:²", "ismcts:١٠", "greedy:１"):
        r = client.post(f"/api/matches/{t['id']}/hint", json={"bot": bot})
        assert r.status_code == 400, (bot, r.status_code, r.text[:200])
    for action in ("bid ²", "²", "exchange ０"):
        r = client.post(f"/api/matches/{t['id']}/act", json={"action": action, "step": t["step"]})
        assert r.status_code in (400, 422), (action, r.status_code, r.text[:200])
