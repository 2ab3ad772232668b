"""What an audit sweeps: the readings of a spec (combinations of option values), the bot
line-ups, the cells (spec × reading × players × line-up) and the seed of each cell."""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import SpecError, SpelbokError, did_you_mean
from .audit_measures import AuditRecord
from .sim_report import Measure
from .simulate import cycle_bots

#: Most cells one audit sweeps.
MAX_CELLS = 2000
#: How the readings are chosen (see :mod:`spelbok.analysis.audit`).
DESIGNS = ("auto", "product", "single")


@dataclass
class Reading:
    """One combination of option values of one spec (``options``: those that differ
    from the spec's defaults)."""

    id: int
    spec: int
    options: dict[str, Any]
    default: bool

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={_text(v)}" for k, v in self.options.items()) or "default"


@dataclass
class Lineup:
    """Bots by seat (cycled), or a skill line-up: ``strong`` moves one seat each match."""

    bots: tuple[str, ...]
    strong: str | None = None

    @property
    def label(self) -> str:
        if self.strong is not None:
            return f"skill: {self.strong} vs {','.join(self.bots)}"
        return ",".join(self.bots)

    def seats(self, players: int, index: int) -> list[str]:
        """The bot of each seat in match ``index``."""
        if self.strong is None:
            return cycle_bots(list(self.bots), players)
        seats = cycle_bots(list(self.bots), players - 1) if players > 1 else []
        at = index % players
        return seats[:at] + [self.strong] + seats[at:]


@dataclass
class Cell:
    """One reading at one player count with one line-up, and its results."""

    id: int
    spec: int
    reading: int
    players: int
    lineup: int
    key: str
    seed: int
    baseline: int | None = None
    records: list[AuditRecord] = field(default_factory=list)
    measures: list[Measure] = field(default_factory=list)
    #: key -> (p, adjusted p) against the baseline
    tests: dict[str, tuple[float, float]] = field(default_factory=dict)


def cell_seed(seed: int, key: str) -> int:
    """The run seed of a cell: a hash of the audit's seed and the cell's key.

    >>> cell_seed(1, "a") == cell_seed(1, "a") != cell_seed(2, "a")
    True
    """
    digest = hashlib.sha256(f"spelbok-audit:{seed}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def option_value(declared: Sequence[Any], text: Any, name: str) -> Any:
    """The declared value of option ``name`` that ``text`` names (SpecError if none).

    >>> option_value([False, True], "true", "floor_zero")
    True
    """
    for v in declared:
        if v == text or _text(v) == _text(text).strip():
            return v
    raise SpecError(f"option '{name}' has no value '{text}'",
                    hint=did_you_mean(_text(text), [_text(v) for v in declared])
                    or "values: " + ", ".join(_text(v) for v in declared))


def _axes(tree: dict[str, Any], sweep: dict[str, Sequence[Any]] | None
          ) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """The values swept of each option, and each option's default."""
    declared: dict[str, Any] = tree.get("options") or {}
    defaults = {k: o.get("default", (o.get("values") or [None])[0]) for k, o in declared.items()}
    axes: dict[str, list[Any]] = {}
    for name, values in (sweep.items() if sweep else
                         ((k, o.get("values") or []) for k, o in declared.items())):
        if name not in declared:
            raise SpecError(f"{tree.get('name', 'the spec')} has no option '{name}'",
                            hint=did_you_mean(name, declared) or None)
        got = [option_value(declared[name].get("values") or [], v, name) for v in values]
        axes[name] = list(dict.fromkeys(got))
    return axes, defaults


def product_size(tree: dict[str, Any], sweep: dict[str, Sequence[Any]] | None) -> int:
    """How many readings the product design gives (counted, not listed).

    >>> from spelbok import load
    >>> product_size(load("example").tree, None)  # one option of two values
    2
    """
    axes, defaults = _axes(tree, sweep)
    # with the default reading, which may not be among the values swept
    n = math.prod(len(v) for v in axes.values())
    return n + (0 if all(defaults[k] in v for k, v in axes.items()) else 1)


def readings_of(tree: dict[str, Any], spec: int, sweep: dict[str, Sequence[Any]] | None,
                design: str, start: int = 0) -> list[Reading]:
    """The readings of one spec: see the module doc (``sweep``: option -> values)."""
    axes, defaults = _axes(tree, sweep)
    # the default reading is always swept: it is the baseline of the others
    combos: list[dict[str, Any]] = [{}]
    if design == "single":
        for name, values in axes.items():
            combos.extend({name: v} for v in values if v != defaults[name])
    elif design == "product":
        if (size := product_size(tree, sweep)) > MAX_CELLS:  # never list a huge product
            raise SpelbokError(f"{size} readings to sweep, more than {MAX_CELLS}: name fewer "
                               "options with --options, or use --design single")
        names = list(axes)
        for combo in itertools.product(*(axes[n] for n in names)):
            combos.append({n: v for n, v in zip(names, combo) if v != defaults[n]})
    else:
        raise SpelbokError(f"unknown design '{design}' (one of {', '.join(DESIGNS)})")
    unique = sorted({json.dumps(c, sort_keys=True): c for c in combos}.values(), key=bool)
    return [Reading(start + i, spec, c, not c) for i, c in enumerate(unique)]
