"""A small audit of one option, for the reading workbench: bounded in matches, hands and
time, one at a time, in this process.

:func:`small_audit` sweeps each value of one option of the text being edited (the
default first: the baseline), ``games`` matches each between random bots, with
:func:`spelbok.analysis.audit.audit`, and answers with the measures the audit
report plots (:data:`~spelbok.analysis.audit_report.PLOTS`), ready to draw: per
reading, the value, its 95 % interval and its mark against the default.

Bounds (a page's request is untrusted): at most :data:`MAX_GAMES` matches a
reading, :data:`MAX_VALUES` values, :data:`MAX_HANDS` hands a match, one audit
running at once (:class:`Busy` otherwise), and a deadline checked after each chunk
of matches (:class:`TimeUp`).

>>> from spelbok.lang.loader import SpecText
>>> from spelbok.analysis.workbench import open_shipped
>>> text = SpecText(open_shipped("example")["text"], near="example")
>>> r = small_audit(text, "void_rule", games=4, seed=1)
>>> [p["label"] for p in r["readings"]], r["matches"]
(['default', 'void_rule=any'], 8)
>>> next(p for p in r["plots"] if p["key"] == "length.hands")["points"][0].keys()
dict_keys(['label', 'value', 'lo', 'hi', 'mark', 'base'])
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from ..errors import SpelbokError
from ..lang.loader import SpecText

#: Most matches a reading (one value of the option) plays.
MAX_GAMES = 200
#: Most values of the option swept.
MAX_VALUES = 8
#: Most hands a match plays (the spec's own bound may be lower).
MAX_HANDS = 40
#: Seconds an audit may run (checked after each chunk of matches).
DEADLINE = 60.0

_RUNNING = threading.Lock()


class Busy(SpelbokError):
    """Another audit is running: one at a time."""


class TimeUp(SpelbokError):
    """The audit ran past its deadline and was stopped."""


def _bounded(value: object, name: str, lo: int, hi: int, default: int) -> int:
    if value is None:
        return default
    if type(value) is not int or not lo <= value <= hi:
        raise SpelbokError(f"{name} must be a whole number from {lo} to {hi}")
    return value


def _points(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    labels = {r["id"]: r["label"] for r in data["readings"]}
    out = []
    for c in data["cells"]:
        for m in c["measures"]:
            if m["key"] == key:
                lo, hi = m["ci95"]
                out.append({"label": labels[c["reading"]], "value": m["value"], "lo": lo,
                            "hi": hi, "mark": m.get("mark") or "", "base": c["baseline"] is None})
    return out


def small_audit(source: SpecText, option: object, games: object = 40, players: object = None,
                seed: object = 0, deadline: float = DEADLINE,
                clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Audit each value of ``option`` of ``source`` (see the module doc); raises
    :class:`Busy`, :class:`TimeUp` or a SpelbokError for a bad request or spec."""
    from ..engine.game import load
    from .audit import audit
    from .audit_report import PLOTS

    n_games = _bounded(games, "games", 1, MAX_GAMES, 40)
    n_seed = _bounded(seed, "seed", 0, 2 ** 31, 0)
    game = load(source)
    declared = game.tree.get("options") or {}
    if not isinstance(option, str) or option not in declared:
        names = ", ".join(declared) or "none"
        raise SpelbokError(f"choose an option of {game.name} to audit (its options: {names})")
    values = list(declared[option].get("values") or [])
    if len(values) > MAX_VALUES:
        raise SpelbokError(f"option '{option}' has {len(values)} values; the workbench audits "
                           f"at most {MAX_VALUES} (spelbok audit has no such bound)")
    lo, hi = game.tree["players"]["min"], game.tree["players"]["max"]
    n_players = _bounded(players, "players", lo, hi, lo)
    if not _RUNNING.acquire(blocking=False):
        raise Busy("another audit is running; wait for it to finish")
    try:
        start = clock()

        def progress(_: int) -> None:
            if clock() - start > deadline:
                raise TimeUp(f"the audit ran past {deadline:.0f} s and was stopped: "
                             "ask for fewer matches")

        result = audit([source], n_games, players=[n_players], lineups=[("random",)],
                       options={option: values}, design="product", skill=None, seed=n_seed,
                       jobs=1, max_hands=MAX_HANDS,  # tightens the spec's own bound
                       progress=progress)
    finally:
        _RUNNING.release()
    data = result.to_dict()
    plots = []
    for key, title in PLOTS:
        points = _points(data, key)
        if points:
            kind = next(m["kind"] for c in data["cells"] for m in c["measures"] if m["key"] == key)
            plots.append({"key": key, "title": title, "kind": kind, "points": points})
    return {"game": game.name, "option": option, "players": n_players, "games": n_games,
            "seed": n_seed, "matches": len(data["cells"]) * n_games,
            "readings": [{"label": r["label"], "options": r["options"]} for r in data["readings"]],
            "plots": plots, "audit": data}
