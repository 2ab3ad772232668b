"""Mutated shipped specs, in both surfaces: each ends in a clean located error or plays.

Every spec of ``specs/`` is mutated (seeded): keys deleted, values retyped,
numbers set to 0, -1 or 10**18, deep nesting, lists grown, 0 and 1000 players,
duplicated and broken lines, control characters; the result is validated and,
when valid, loaded and played (see ``adv_exercise.spec_file``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from adv_exercise import load_players, spec_text, spec_text_ends
from adv_harness import SEED, SPECS, Failures, plant, run_many, scaled
from adv_mutate import DSL_SPECS, YAML_SPECS, dsl_mutants, dump, yaml_mutants

#: mutants per shipped spec and surface (a few seconds in all)
PER_SPEC = 10
#: files a spec must never reach (planted beside and above the spec's folder)
WATCH = ("adv-secret", "/etc/passwd", "/dev/zero", "/proc/")


def test_mutated_yaml_specs(tmp_path: Path) -> None:
    folder = plant(tmp_path)
    fails = Failures("spec-yaml")
    inputs = list(yaml_mutants(scaled(PER_SPEC), SEED))
    outs = run_many([(spec_text, (f"mutant{i}.yaml", text, str(folder)), WATCH)
                     for i, (_label, text) in enumerate(inputs)])
    for (label, text), out in zip(inputs, outs, strict=True):
        fails.check(label, text, out, suffix=".spec.yaml")
    assert fails.count == 0, fails.report()


def test_mutated_dsl_specs(tmp_path: Path) -> None:
    folder = plant(tmp_path)
    fails = Failures("spec-dsl")
    inputs = list(dsl_mutants(scaled(PER_SPEC), SEED + 1))
    outs = run_many([(spec_text, (f"mutant{i}.spel", text, str(folder)), WATCH)
                     for i, (_label, text) in enumerate(inputs)])
    for (label, text), out in zip(inputs, outs, strict=True):
        fails.check(label, text, out, suffix=".spec.spel")
    assert fails.count == 0, fails.report()


def _example_tree() -> dict:
    return yaml.safe_load((SPECS / "example.yaml").read_text(encoding="utf-8"))


def _special_trees() -> list[tuple[str, str]]:
    """Hand-written extremes of the YAML surface (on the example spec)."""
    out: list[tuple[str, str]] = []
    for lo, hi in [(0, 0), (0, 1000), (1, 1), (1000, 1000), (2, 1000), (3, 2), (2, 10**18)]:
        t = _example_tree()
        t["players"] = {"min": lo, "max": hi}
        t["deck"][0]["players"] = [lo, hi]
        out.append((f"players-{lo}-{hi}", dump(t)))
    t = _example_tree()
    t["deck"][0]["ranks"] = [str(i) for i in range(5000)]
    out.append(("deck-5000-ranks", dump(t)))
    for k in (5000, 20_000):
        t = _example_tree()
        t["deck"][0]["ranks"] = "@@RANKS@@"
        out.append((f"deck-{k}-aces", dump(t).replace("'@@RANKS@@'", "[" + "A, " * k + "A]")))
    t = _example_tree()
    t["deck"][0]["suits"] = ["C", "S", "H", "D"] * 1000
    out.append(("deck-4000-suits", dump(t)))
    t = _example_tree()
    t["hand"][0]["deal"]["size"] = 10**18
    out.append(("deal-10e18", dump(t)))
    t = _example_tree()
    t["hand"][0]["deal"]["packets"] = [1] * 5000
    out.append(("packets-5000", dump(t)))
    t = _example_tree()
    t["hand"][0]["deal"]["packets"] = [10**18, -(10**18)]
    out.append(("packets-huge", dump(t)))
    t = _example_tree()
    t["end"]["max_hands"] = 10**18
    out.append(("max-hands-10e18", dump(t)))
    t = _example_tree()
    t["end"]["max_hands"] = 0
    out.append(("max-hands-0", dump(t)))
    t = _example_tree()
    t["hand"] = [{"if": "true", "then": t["hand"]}]
    for _ in range(40):
        t["hand"] = [{"if": "true", "then": t["hand"]}]
    out.append(("if-40-deep", dump(t)))
    t = _example_tree()
    t["hand"] = [copy.deepcopy(step) for _ in range(100) for step in t["hand"]]
    out.append(("hand-100-copies", dump(t)))
    t = _example_tree()
    t["variables"]["player"] = {f"v{i}": i for i in range(3000)}
    out.append(("variables-3000", dump(t)))
    t = _example_tree()
    t["variables"]["player"]["score"] = 10**30
    out.append(("score-10e30", dump(t)))
    t = _example_tree()
    t["options"]["void_rule"]["values"] = [f"v{i}" for i in range(3000)]
    out.append(("option-3000-values", dump(t)))
    t = _example_tree()
    t["name"] = "x" * 200_000
    out.append(("name-200k", dump(t)))
    t = _example_tree()
    t["name"] = "Evil\x1b[2J\x1b]0;owned\x07name"
    out.append(("name-escapes", dump(t).replace("\\e", "\x1b").replace("\\a", "\x07")))
    out.extend(_step_extremes())
    text = (SPECS / "example.yaml").read_text(encoding="utf-8")
    out.append(("alias-bomb", "a: &a [x, x, x, x, x, x, x, x, x]\n"
                + "".join(f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
                          for p, c in zip("abcdefgh", "bcdefghi"))
                + text))
    out.append(("nesting-flow-10000", "spelbok: 1\nname: " + "[" * 10000 + "]" * 10000 + "\n"))
    out.append(("nesting-block-1000", "spelbok: 1\nname:\n"
                + "".join(" " * i + "- \n" for i in range(1000))))
    out.append(("binary-tag", "spelbok: 1\nname: !!binary aGVsbG8=\n" + text))
    out.append(("python-tag", "!!python/object/apply:os.system ['echo pwned']\n"))
    out.append(("set-tag", "spelbok: 1\nname: !!set {a, b}\n"))
    out.append(("timestamp", text.replace("name: Example", "name: 2001-12-14")))
    out.append(("bom-crlf", "\ufeff" + text.replace("\n", "\r\n")))
    out.append(("nul-bytes", text.replace("name: Example", "name: Exa\x00mple")))
    out.append(("lone-surrogate", text.replace("name: Example", "name: Exa\udcffmple")))
    return out


def _step_extremes() -> list[tuple[str, str]]:
    """Steps whose numbers make loops, choices or moves huge or empty (in the example)."""
    big = 10**18
    steps: list[tuple[str, int, dict]] = [
        ("bid-huge", 3, {"decide": "bid", "who": "each", "choose": "number", "min": 0, "max": big}),
        ("bid-huge-formula", 3, {"decide": "bid", "who": "each", "choose": "number", "min": "0",
                                 "max": "1000000000000000000 * 1000000000000000000"}),
        ("bid-empty", 3, {"decide": "bid", "who": "each", "choose": "number", "min": 10, "max": 0}),
        ("words-10000", 3, {"decide": "say", "who": "each",
                            "choose": [f"w{i}" for i in range(10_000)]}),
        ("suits-none", 3, {"decide": "call", "who": "dealer", "choose": "suit", "suits": []}),
        ("repeat-huge-empty", 3, {"repeat": big, "steps": []}),
        ("repeat-huge-set", 3, {"repeat": big, "steps": [{"set": {"score": "score"}, "for": "true"}]}),
        ("repeat-huge-while", 3, {"repeat": big, "while": "true",
                                  "steps": [{"set": {"exchanged": "exchanged + 1"}, "for": "true"}]}),
        ("redeal-always", 2, {"if": "true", "then": [{"redeal": {"dealer": "same"}}]}),
        ("redeal-after-trick", 6, {"tricks": {"after_each": [{"redeal": {"dealer": "next"}}]}}),
        ("tricks-count-huge", 6, {"tricks": {"count": "1000000000000000000"}}),
        ("tricks-count-negative", 6, {"tricks": {"count": "0 - 5"}}),
        ("abstain-always", 6, {"tricks": {"abstain": "true"}}),
        ("exchange-huge", 3, {"decide": "trade", "who": "each", "choose": "exchange",
                              "exchange": {"draw_from": "stock", "max": "1000000000000000000",
                                           "min": "1000000000000000000"}}),
        ("move-huge", 3, {"move": {"from": "stock", "to": "hand", "count": "1000000000000000000"},
                          "for": "true"}),
        ("move-negative", 3, {"move": {"from": "stock", "to": "hand", "count": "0 - 3"},
                              "for": "true"}),
        ("move-turn-up-to-stock", 2, {"move": {"from": "turn_up", "to": "stock", "count": "all"}}),
    ]
    out = []
    for label, at, step in steps:
        t = _example_tree()
        if "tricks" in step:  # merged into the example's own trick step
            t["hand"][at]["tricks"].update(step["tricks"])
        else:
            t["hand"].insert(at, step)
        out.append((label, dump(t)))
    return out


def _extends_trees() -> list[tuple[str, str]]:
    """`extends` pointing outside the spec's folder tree: never opened, never quoted
    (``@TMP@`` stands for the folder that holds the spec folder and the secrets)."""
    targets = ["../adv-secret.yaml", "../adv-secret", "@TMP@/adv-secret.yaml",
               "../adv-secret.txt", "@TMP@/adv-secret.txt", "/etc/passwd", "/dev/zero",
               "/proc/self/environ", "../../../../../../etc/passwd", "specs/../../adv-secret.txt",
               "", ".", "..", "/", "mutant.yaml", "example\x00.yaml", "e" * 5000]
    out = []
    for t in targets:
        out.append((f"extends-{t[:40]}", f"spelbok: 1\nextends: {t!r}\nname: Evil\n"
                    if "\x00" not in t else "spelbok: 1\nextends: \"example\\0.yaml\"\n"))
    return out


def test_extreme_yaml_specs(tmp_path: Path) -> None:
    folder = plant(tmp_path)
    fails = Failures("spec-extreme")
    inputs = _special_trees() + _extends_trees()
    # these are played to the end of a short match: a loop that never ends is a failure
    outs = run_many([(spec_text_ends, (f"mutant{i}.yaml", text.replace("@TMP@", str(tmp_path)),
                                  str(folder)), WATCH) for i, (_label, text) in enumerate(inputs)])
    for (label, text), out in zip(inputs, outs, strict=True):
        fails.check(label, text, out, suffix=".spec.yaml")
    assert fails.count == 0, fails.report()


def _dsl_extremes() -> list[tuple[str, str]]:
    """Hand-written extremes of the DSL surface (on the example spec)."""
    text = (SPECS / "example.spel").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    deal = next(i for i, ln in enumerate(lines) if ln.startswith("    deal "))
    nested = "".join("    " * (k + 1) + "if true:\n" for k in range(300)) + "    " * 301 + "nothing\n"
    out = [
        ("players-2-1e18", text.replace("players 2 to 4", "players 2 to 1000000000000000000")),
        ("players-0-1000", text.replace("players 2 to 4", "players 0 to 1000")),
        ("deal-1e18", text.replace("deal 5 cards", "deal 1000000000000000000 cards")),
        ("packets-1e18", text.replace("packets of 2 then 3", "packets of 1000000000000000000")),
        ("nested-if-300", "".join(lines[: deal]) + nested + "".join(lines[deal:])),
        ("long-line", text.replace('game "Example"', 'game "' + "x" * 300_000 + '"')),
        ("long-formula-line", text.replace("count(plays) < 2", " + ".join(["1"] * 150_000) + " < 2")),
        ("escape-in-text", text.replace('game "Example"', 'game "Evil\x1b]0;owned\x07\x1b[2J"')),
        ("escape-in-word", text.replace("decides announce", "decides ann\x1b[2Jounce")),
        ("tabs", text.replace("    ", "\t")),
        ("mixed-indent", text.replace("    deal", "\t deal")),
        ("crlf-bom", "\ufeff" + text.replace("\n", "\r\n")),
        ("nul", text.replace("Example", "Exa\x00mple")),
        ("only-indent", "spelbok 1\n" + "        \n" * 1000 + "    x\n"),
        ("dedent-soup", "".join(("  " * (i % 7)) + "each hand:\n" for i in range(2000))),
        ("unclosed-paren", text.replace("count(plays) < 2", "(" * 3000 + "count(plays) < 2")),
        ("card-soup", text.replace("top trumps from high to low: J♣",
                                   "top trumps from high to low: " + "J♣ " * 5000)),
    ]
    return out


def test_extreme_dsl_specs(tmp_path: Path) -> None:
    folder = plant(tmp_path)
    fails = Failures("spec-dsl-extreme")
    inputs = _dsl_extremes()
    outs = run_many([(spec_text_ends, (f"mutant{i}.spel", text, str(folder)), WATCH)
                     for i, (_label, text) in enumerate(inputs)])
    for (label, text), out in zip(inputs, outs, strict=True):
        fails.check(label, text, out, suffix=".spec.spel")
    assert fails.count == 0, fails.report()


@pytest.mark.parametrize("players", [0, 1, 1000, -1, 10**18, "3", 2.5, True])
def test_shipped_specs_at_odd_player_counts(players: object) -> None:
    fails = Failures("players")
    outs = run_many([(load_players, (str(path), players), ()) for path in YAML_SPECS])
    for path, out in zip(YAML_SPECS, outs, strict=True):
        fails.check(f"{path.name}-{players!r}", json.dumps({"spec": path.stem, "players": players}),
                    out, suffix=".players.json")
    assert fails.count == 0, fails.report()


def test_the_generators_cover_every_shipped_spec() -> None:
    # a guard that the suite keeps up with specs/: both surfaces of each spec are mutated
    assert {p.stem for p in YAML_SPECS} == {p.stem for p in DSL_SPECS}
    assert len(YAML_SPECS) >= 7
