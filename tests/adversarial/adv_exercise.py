"""What is done with each untrusted input (run inside :func:`adv_harness.run_bounded`).

Each function returns the messages of the errors it was given back (so that
their wording is checked too) or raises; a SpelbokError is a clean end.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import spelbok
from spelbok.engine.game import Game
from spelbok.errors import SpecError
from spelbok.lang.checks import check_structure
from spelbok.lang.loader import read_spec
from spelbok.validation import validate

#: decisions played in one random playout of a spec that loads
PLAYOUT_STEPS = 150


def playout(game: Any, seed: int, steps: int = PLAYOUT_STEPS, must_end: bool = False) -> None:
    """Random play with the state API used the way a bot or the CLI uses it
    (``must_end``: the match must be over within ``steps`` decisions)."""
    rng = random.Random(seed)
    st = game.new_state(seed=seed)
    for i in range(steps):
        if st.is_terminal:
            assert st.current_player is None, "a finished match still has a player to act"
            break
        seat = st.current_player
        assert seat is not None and 0 <= seat < game.players, f"current player {seat!r}"
        legal = st.legal_actions()
        assert legal, f"no legal action for seat {seat} while the match runs (decision {i})"
        if i % 25 == 0:
            json.dumps(st.view(seat))
            json.dumps(st.to_dict())
        st.apply(rng.choice(legal))
    assert st.is_terminal or not must_end, \
        f"the match is not over after {steps} decisions (at most {game.program.max_hands} hands)"
    st.scores  # noqa: B018 - computing them must work at any point
    json.dumps(st.log)


def spec_file(path: str, seed: int = 1, max_hands: int | None = 8,
              steps: int = PLAYOUT_STEPS, must_end: bool = False) -> list[str]:
    """Validate a spec file; if it is valid, load it at its player counts and play."""
    errors = validate(path)
    if errors:
        return [str(e) for e in errors]
    # what spelbok.load does, reading the file once for both player counts
    try:
        doc = check_structure(read_spec(path))
        tree = doc.tree
        for n in sorted({int(tree["players"]["min"]), int(tree["players"]["max"])}):
            game = Game(doc, n, max_hands=max_hands)
            playout(game, seed, steps, must_end)
    except SpecError as e:  # validate said it was fine: it must load
        raise AssertionError(f"validate passed but loading failed: {e}") from e
    return []


def spec_text(name: str, text: str, folder: str, seed: int = 1, max_hands: int | None = 8,
              steps: int = PLAYOUT_STEPS, must_end: bool = False) -> list[str]:
    """Write ``text`` to ``folder/name`` and run :func:`spec_file` on it."""
    path = Path(folder) / name
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    return spec_file(str(path), seed, max_hands, steps, must_end)


def spec_text_ends(name: str, text: str, folder: str) -> list[str]:
    """:func:`spec_text` with a short match (two hands) that must end."""
    return spec_text(name, text, folder, max_hands=2, steps=1500, must_end=True)


def load_players(spec: str, players: Any) -> list[str]:
    """Load a shipped spec at an unusual player count; play if it loads."""
    game = spelbok.load(spec, players=players, max_hands=4)
    playout(game, 3, steps=60)
    return []


def snapshot(spec: str, players: int, data: Any, seed: int = 5) -> list[str]:
    """Restore a (tampered) snapshot; a state that is accepted must be sound and playable."""
    from spelbok.analysis.conformance import check_cards

    game = spelbok.load(spec, players=players)
    st = game.restore(data)
    err = check_cards(st)
    assert err is None, f"restore accepted an impossible state: {err}"
    cur = st.current_player
    assert cur is None or type(cur) is int and 0 <= cur < players, \
        f"restore accepted current player {cur!r}"
    rng = random.Random(seed)
    for _ in range(30):
        if st.is_terminal:
            break
        legal = st.legal_actions()
        assert legal, "no legal action in a restored running match"
        json.dumps(st.view(st.current_player))
        st.apply(rng.choice(legal))
    json.dumps(st.to_dict())
    return []


def log_file(path: str) -> list[str]:
    """Read and replay a (tampered) log, as ``spelbok replay`` does."""
    from spelbok.cli.play import read_log, replay_log

    data = read_log(path)
    replay_log(data, path)
    return []


def reading_file(path: str) -> list[str]:
    """Run a (tampered) reading file, as ``spelbok verify`` does, and format its report."""
    from spelbok.analysis.readings import run_reading

    report = run_reading(path)
    text = report.format(verbose=True)
    json.dumps(report.to_dict())
    messages = [text]
    for case in report.cases:
        if case.status == "error":
            messages.append(str(case.message))
    return messages


def formula_spec(folder: str, name: str, slot: str, formula: str, seed: int = 2) -> list[str]:
    """The example spec with one formula replaced, validated and played for the spec's
    whole bound on match length (so that a value that grows each hand grows for long)."""
    from adv_mutate import example_with_formula

    text = example_with_formula(slot, formula)
    return spec_text(name, text, folder, seed, max_hands=None, steps=3000)


def write(path: str | os.PathLike[str], data: bytes) -> str:
    Path(path).write_bytes(data)
    return str(path)


def api_call(spec: str, players: int, call: str, args: tuple[Any, ...]) -> list[str]:
    """One call of the state API with a bad argument (on a fresh match of ``spec``)."""
    game = spelbok.load(spec, players=players, max_hands=2)
    if call == "new_state":
        st = game.new_state(**args[0])
        playout(game, 1, steps=20)
        json.dumps(st.view(0))
        return []
    st = game.new_state(seed=3)
    if call == "apply_made":  # a hand-made Action: ``args`` are its (kind, verb, value)
        from spelbok.engine.actions import Action

        st.apply(Action(*args))
        return []
    getattr(st, call)(*args)
    return []
