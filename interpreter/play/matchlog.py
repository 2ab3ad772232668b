"""A match saved as a log (``spelbok play --log``, the web page's download): what it
records, writing it, reading it back and replaying it exactly.

A log names the spec, the players, the options, the seed and the shuffle, the bot at
each seat (its seed derived from the match seed and the seat: :func:`seat_seed`), the
person's seat, and every action; its events and result let a replay check that the
spec and spelbok still give the same match (:func:`replay_log`).

>>> import spelbok
>>> game = spelbok.load("example", players=2)
>>> state = game.new_state(seed=4)
>>> while not state.is_terminal:
...     state.apply(state.legal_actions()[0])
>>> record = match_record("example", 2, {}, 4, None, {0: "greedy", 1: "greedy"}, None)
>>> text = json.dumps(log_data(record, state))
>>> replayed = replay_log(parse_log(text, "a.json"), "a.json")[1]
>>> replayed.scores == state.scores
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import ActionError, SpelbokError
from ..limits import MAX_FILE_BYTES, load_json
from ..view.text import Style, cards_in_text

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State

__all__ = ["LOG_FORMAT", "log_data", "match_record", "parse_log", "read_log", "replay_log",
           "seat_seed", "write_log"]

#: The version of the log's format (its ``spelbok_log`` field).
LOG_FORMAT = 1


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of a match seeded ``seed``.

    >>> seat_seed(12, 3)
    12003
    """
    return seed * 1000 + seat


def match_record(spec: str, players: int, options: Mapping[str, str], seed: int,
                 max_hands: int | None, bots: Mapping[int, str], human: int | None
                 ) -> dict[str, Any]:
    """What a log says of a match before its actions: ``bots`` the bot's name by seat,
    ``human`` the person's seat (None: bots at every seat)."""
    from ..engine.rng import SHUFFLE

    return {"spec": spec, "players": players, "options": dict(options), "seed": seed,
            "shuffle": SHUFFLE, "max_hands": max_hands,
            "bots": {str(p): name for p, name in bots.items()}, "human": human}


def log_data(record: dict[str, Any], state: State) -> dict[str, Any]:
    """A match's log: its :func:`match_record`, its actions (enough to replay it), its
    events and its result so far."""
    return {"spelbok_log": LOG_FORMAT, **record, "actions": [str(a) for a in state.actions],
            "events": state.log, "winners": state.winners, "scores": state.scores,
            "finished": state.is_terminal}


def write_log(path: str, record: dict[str, Any], state: State) -> None:
    """Save a match as JSON (:func:`log_data`), one event a line; a spec file is named
    relative to the log's folder when it is in it."""
    data = log_data(record, state)
    data["spec"] = _spec_for_log(str(record.get("spec", "")), path)
    head = {k: v for k, v in data.items() if k != "events"}
    parts = ["{"]
    for k, v in head.items():
        parts.append(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    parts.append(' "events": [')
    events = data["events"]
    for i, e in enumerate(events):
        parts.append("  " + json.dumps(e, ensure_ascii=False) + ("," if i < len(events) - 1 else ""))
    parts.append(" ]")
    parts.append("}")
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(parts) + "\n")
    except OSError as exc:
        raise SpelbokError(f"cannot write the log {path}: {exc.strerror or exc}") from None


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], path: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise SpelbokError(f"{path}: not a valid spelbok log: '{key}' is missing or malformed")
    return value


def read_log(path: str) -> dict[str, Any]:
    """Read and check a log written by ``play --log`` (SpelbokError if it is not one)."""
    from ..lang.loader import read_file_bytes

    # a regular file of bounded size only (never a FIFO or device)
    raw = read_file_bytes(path, path, what="log file", limit=MAX_FILE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpelbokError(f"{path}: not a spelbok log (not UTF-8 text at byte "
                           f"{exc.start})") from None
    return parse_log(text, path)


def parse_log(text: str, path: str) -> dict[str, Any]:
    """Check the text of a log written by ``play --log`` (SpelbokError if it is not one);
    ``path`` names it in the messages."""
    try:
        data = load_json(text, "log", path)  # nesting is bounded before the parser recurses
    except json.JSONDecodeError as exc:
        raise SpelbokError(f"{path}:{exc.lineno}:{exc.colno}: not a spelbok log "
                           f"(invalid JSON: {exc.msg})") from None
    if not isinstance(data, dict) or data.get("spelbok_log") != LOG_FORMAT:
        raise SpelbokError(f"{path}: not a spelbok log (no \"spelbok_log\": {LOG_FORMAT})")
    _need(data, "spec", str, path)
    _need(data, "players", int, path)
    _need(data, "seed", int, path)
    actions = _need(data, "actions", list, path)
    if not all(isinstance(a, str) for a in actions):
        raise SpelbokError(f"{path}: not a valid spelbok log: 'actions' must be notation texts")
    _need(data, "events", list, path)
    if data.get("options") is not None and not isinstance(data["options"], dict):
        raise SpelbokError(f"{path}: not a valid spelbok log: 'options' must be a map")
    return data


def _spec_for_log(spec: str, log_path: str) -> str:
    """The spec as the log names it: a file relative to the log's folder when it is in
    it (a log may name only such a file, or a shipped spec, see :func:`_log_spec`)."""
    if not os.path.isfile(spec):
        return spec
    full = os.path.abspath(spec)
    rel = os.path.relpath(full, os.path.dirname(os.path.abspath(log_path)))
    return full if rel.startswith("..") else rel


def _log_spec(data: dict[str, Any], path: str, override: str | None,
              allow_paths: Sequence[str] = ()) -> str:
    if override:
        return override  # the user's own choice, on the command line
    # the log is untrusted: its spec is a shipped spec or a file in the log's folder
    from ..lang.loader import referenced_spec

    folder = os.path.dirname(os.path.abspath(path))
    return referenced_spec(str(data["spec"]), folder, allow_paths, (path, None, None))


def _first_difference(a: list[Any], b: list[Any]) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def replay_log(data: dict[str, Any], path: str, spec_override: str | None = None,
               allow_paths: Sequence[str] = (), style: Style | None = None) -> tuple[Game, State]:
    """Re-create a logged match and check that it gives the logged events.

    The log's spec must be a shipped spec or a file in the log's folder (or below,
    or in one of ``allow_paths``); ``spec_override`` replaces it.  With ``style`` (the
    terminal's), why an action cannot be replayed names its cards as the table shows
    them (``K♥ is not in your hand``); the logged action itself is quoted as written.
    """
    import spelbok

    spec = _log_spec(data, path, spec_override, allow_paths)
    max_hands = data.get("max_hands")
    game = spelbok.load(spec, players=data["players"], options=data.get("options") or None,
                        max_hands=max_hands if isinstance(max_hands, int) else None,
                        allow_paths=allow_paths)
    from ..engine.rng import SHUFFLE

    made_with = data.get("shuffle")
    if made_with != SHUFFLE:
        raise SpelbokError(
            f"{path}: the log was made by a spelbok that shuffles differently "
            f"({made_with or 'an older shuffle'}; this one: {SHUFFLE}), so its seed "
            "deals other cards here and the match cannot be replayed")
    state = game.new_state(seed=data["seed"])
    for i, text in enumerate(data["actions"], 1):
        try:
            state.apply(text)
        except ActionError as exc:
            why = str(exc) if style is None else \
                cards_in_text(str(exc), replace(style.for_game(game), color=False))
            raise SpelbokError(f"{path}: action {i} ({text!r}) cannot be replayed: {why}") from None
    events = json.loads(json.dumps(state.log))
    recorded = data["events"]
    if events != recorded:
        i = _first_difference(events, recorded)
        want = json.dumps(recorded[i], ensure_ascii=False) if i < len(recorded) else "(no event)"
        got = json.dumps(events[i], ensure_ascii=False) if i < len(events) else "(no event)"
        raise SpelbokError(
            f"{path}: the replay differs from the log at event {i + 1}: the log has {want}, "
            f"the replay gives {got} (was the spec or spelbok changed?)")
    for key, value in (("winners", state.winners), ("scores", state.scores)):
        if key in data and data[key] != json.loads(json.dumps(value)):
            raise SpelbokError(f"{path}: the replay gives {key} {value}, the log has {data[key]}")
    return game, state
