"""The property ``validate`` promises: a spec it accepts never stops play with an error.

Shipped specs are mutated meaningfully (seeded, see ``adv_promise``): formulas replaced
by others over the spec's own names (``choice`` among them), number ranges and
exchanges made small, huge or worked out in play.  Each mutant ``validate`` accepts is
played (random playouts of two hands at its smallest and largest player count, and
once more through a snapshot restored mid-match) and stepped in the PettingZoo
environment; any error there, a clean SpelbokError included,
breaks the promise.  A mutant ``validate`` refuses is fine.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from adv_exercise import playout
from adv_harness import FIXTURES, SEED, Failures, plant, run_bounded, run_many, scaled
from adv_promise import promise_mutants

#: mutants per shipped spec (a few seconds in all)
PER_SPEC = 4


def promise_case(name: str, text: str, folder: str, seed: int = 1) -> str:
    """'refused' when validate refuses ``text``, else 'played' once it has played; any
    exception from play (after validate said ok) is the finding."""
    from spelbok.engine.game import Game
    from spelbok.errors import SpelbokError
    from spelbok.lang.checks import check_structure
    from spelbok.lang.loader import read_spec
    from spelbok.validation import validate

    path = Path(folder) / name
    path.write_text(text, encoding="utf-8")
    if validate(path):
        return "refused"
    doc = check_structure(read_spec(path))
    counts = sorted({int(doc.tree["players"]["min"]), int(doc.tree["players"]["max"])})
    for n in counts:
        game = Game(doc, n, max_hands=2)
        playout(game, seed, steps=400)
        # a snapshot taken mid-match restores and plays on to the end (as a reading's cases do)
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            if st.is_terminal:
                break
            st.apply(rng.choice(st.legal_actions()))
        st = game.restore(st.to_dict())
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
    try:
        from spelbok.rl.pettingzoo import env
    except ImportError:  # the game-AI extra is not installed
        return "played"
    try:
        e = env(str(path), players=counts[0], max_hands=1)
    except SpelbokError as err:  # a decision kind the action space does not number (docs/rl.md)
        if "does not number yet" in str(err):
            return "played"
        raise
    e.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(200):
        if not e.agents:
            break
        obs, _reward, terminated, truncated, _info = e.last()
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        e.step(None if terminated or truncated else rng.choice(legal))
    return "played"


def test_specs_that_validate_play(tmp_path: Path) -> None:
    folder = plant(tmp_path)
    fails = Failures("promise")
    inputs = list(promise_mutants(scaled(PER_SPEC), SEED + 7))
    outs = run_many([(promise_case, (f"mutant{i}.yaml", text, str(folder)), ())
                     for i, (_label, text) in enumerate(inputs)])
    played = 0
    for (label, text), out in zip(inputs, outs, strict=True):
        # validate refusing is fine; past it, even a clean error breaks the promise
        extra = [] if out.kind == "ok" else [f"validate accepted it, then: {out.head()}"]
        fails.check(label, text, out, extra, suffix=".spec.yaml")
        played += out.kind == "ok" and "played" in out.detail
    assert fails.count == 0, fails.report()
    assert played >= len(inputs) // 10, f"only {played} of {len(inputs)} mutants played"


#: mutants that once broke the promise (kept in fixtures/, also run by test_adv_regressions)
PROMISE_FIXTURES = sorted(p for p in FIXTURES.iterdir() if p.name.startswith("promise-"))


@pytest.mark.parametrize("path", PROMISE_FIXTURES, ids=[p.name for p in PROMISE_FIXTURES])
def test_promise_fixture(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    while text.startswith("# "):
        text = text.partition("\n")[2]
    out = run_bounded(promise_case, "mutant.yaml", text, str(tmp_path))
    assert out.kind == "ok", f"{path.name}: {out.head()}\n{out.detail[-2000:]}"
