"""The simulation's report objects: what one match contributes
(:class:`MatchRecord`), each reported number (:class:`Measure`), the result of a
run (:class:`Summary`, with :func:`build_measures`) and of a comparison
(:class:`Comparison`), with their documented JSON forms.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .stats import Z95, stars, two_proportion_p, welch_p, wilson

SCHEMA_VERSION = 1


# -- one match ------------------------------------------------------------------------


@dataclass
class MatchRecord:
    """What one match contributes to the measures (plain data, picklable)."""

    index: int
    seed: int
    winners: list[int]
    scores: list[int]
    hands: int
    decisions: int
    limit_reached: bool
    counts: dict[str, int] = field(default_factory=dict)


# -- measures -------------------------------------------------------------------------


@dataclass
class Measure:
    """One reported number: a rate (successes of trials) or a mean of per-match values."""

    key: str
    label: str
    section: str
    kind: str  # "rate" | "mean"
    successes: int = 0
    trials: int = 0
    n: int = 0
    mean: float = 0.0
    sd: float = 0.0
    median: float = 0.0
    min: float = 0.0
    max: float = 0.0

    @property
    def value(self) -> float:
        if self.kind == "rate":
            return self.successes / self.trials if self.trials else 0.0
        return self.mean

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson interval (rates) or normal interval of the mean."""
        if self.kind == "rate":
            return wilson(self.successes, self.trials)
        half = Z95 * self.sd / math.sqrt(self.n) if self.n > 1 else 0.0
        return (self.mean - half, self.mean + half)

    def p_value(self, other: Measure) -> float:
        """Two-sided p-value of the difference from ``other`` (same kind)."""
        if self.kind == "rate":
            return two_proportion_p(self.successes, self.trials, other.successes, other.trials)
        return welch_p(self.mean, self.sd, self.n, other.mean, other.sd, other.n)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"key": self.key, "label": self.label, "section": self.section,
                             "kind": self.kind, "value": self.value, "ci95": list(self.ci95)}
        if self.kind == "rate":
            d.update(successes=self.successes, trials=self.trials)
        else:
            d.update(n=self.n, mean=self.mean, sd=self.sd, median=self.median,
                     min=self.min, max=self.max)
        return d


def _rate(key: str, label: str, section: str, s: int, n: int) -> Measure:
    return Measure(key, label, section, "rate", successes=s, trials=n)


def _mean(key: str, label: str, section: str, values: Sequence[float]) -> Measure:
    if not values:
        return Measure(key, label, section, "mean")
    return Measure(
        key, label, section, "mean", n=len(values), mean=statistics.fmean(values),
        sd=statistics.stdev(values) if len(values) > 1 else 0.0,
        median=float(statistics.median(values)), min=float(min(values)), max=float(max(values)),
    )


def histogram(values: Sequence[float], max_bins: int = 20) -> dict[str, list[Any]]:
    """Counts of ``values`` in bins: one per integer when the range is small,
    else ``max_bins`` equal bins.  ``edges`` has one more entry than ``counts``.

    >>> histogram([1, 2, 2, 5])
    {'edges': [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 'counts': [1, 2, 0, 0, 1]}
    """
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = math.floor(min(values)), math.floor(max(values))
    if all(float(v).is_integer() for v in values) and hi - lo + 1 <= 2 * max_bins:
        edges = [float(x) for x in range(lo, hi + 2)]
    else:
        lo_f, hi_f = float(min(values)), float(max(values))
        if hi_f == lo_f:
            hi_f = lo_f + 1
        step = (hi_f - lo_f) / max_bins
        edges = [lo_f + i * step for i in range(max_bins + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = min(len(counts) - 1, max(0, int((v - edges[0]) // (edges[1] - edges[0]))))
        counts[i] += 1
    return {"edges": edges, "counts": counts}


@dataclass
class Summary:
    """The result of :func:`simulate`: the run's settings, each match, the measures."""

    spec: str
    game_name: str
    players: int
    options: dict[str, Any]
    max_hands: int | None
    seed: int
    games: int
    bots: list[str]
    matches: list[MatchRecord]
    measures: list[Measure] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.measures:
            self.measures = build_measures(self)

    def measure(self, key: str) -> Measure | None:
        for m in self.measures:
            if m.key == key:
                return m
        return None

    def wins_by_seat(self) -> list[Measure]:
        return [m for m in self.measures if m.key.startswith("wins.seat.")]

    def wins_by_bot(self) -> list[Measure]:
        return [m for m in self.measures if m.key.startswith("wins.bot.")]

    def final_scores(self) -> list[float]:
        return [float(s) for r in self.matches for s in r.scores]

    def to_dict(self, include_matches: bool = False) -> dict[str, Any]:
        """The documented JSON form (``schema`` ``spelbok.simulate``, ``version`` 1)."""
        def _m(key: str) -> dict[str, Any]:
            m = self.measure(key)
            return m.to_dict() if m else {}

        d: dict[str, Any] = {
            "schema": "spelbok.simulate",
            "version": SCHEMA_VERSION,
            "spec": self.spec,
            "game": self.game_name,
            "players": self.players,
            "options": self.options,
            "max_hands": self.max_hands,
            "seed": self.seed,
            "games": self.games,
            "bots": list(self.bots),
            "wins": {
                "by_seat": [dict(m.to_dict(), seat=int(m.key.rsplit(".", 1)[1]),
                                 bot=self.bots[int(m.key.rsplit(".", 1)[1])])
                            for m in self.wins_by_seat()],
                "by_bot": [dict(m.to_dict(), bot=m.key[len("wins.bot."):])
                           for m in self.wins_by_bot()],
            },
            "length": {"hands": _m("length.hands"), "decisions": _m("length.decisions"),
                       "limit_reached": _m("length.limit_reached")},
            "scores": {
                "by_seat": [_m(f"scores.seat.{p}") for p in range(self.players)],
                "all": _m("scores.all"),
                "histogram": histogram(self.final_scores()),
            },
            "measures": [m.to_dict() for m in self.measures],
        }
        if include_matches:
            d["matches"] = [asdict(r) for r in self.matches]
        return d


def build_measures(s: Summary) -> list[Measure]:
    """Every measure of a run, in report order (see the module doc)."""
    ms: list[Measure] = []
    recs = s.matches
    n = len(recs)
    P = s.players
    wins = [sum(1 for r in recs if p in r.winners) for p in range(P)]
    for p in range(P):
        ms.append(_rate(f"wins.seat.{p}", f"seat {p} ({s.bots[p]})", "wins", wins[p], n))
    for bot in dict.fromkeys(s.bots):
        seats = [p for p in range(P) if s.bots[p] == bot]
        where = "seat " + ", ".join(map(str, seats)) if len(seats) < P else "all seats"
        ms.append(_rate(f"wins.bot.{bot}", f"{bot} ({where})", "wins",
                        sum(wins[p] for p in seats), n * len(seats)))
    ms.append(_mean("length.hands", "hands per match", "length", [r.hands for r in recs]))
    ms.append(_mean("length.decisions", "decisions per match", "length",
                    [r.decisions for r in recs]))
    ms.append(_rate("length.limit_reached", "matches cut at max_hands", "length",
                    sum(1 for r in recs if r.limit_reached), n))

    total: Counter[str] = Counter()
    for r in recs:
        total.update(r.counts)
    hands = sum(r.hands for r in recs)

    def per_hand(key: str) -> list[float]:
        return [r.counts.get(key, 0) / r.hands for r in recs if r.hands]

    for key, label in (("redeal", "hands redealt (all passed)"),
                       ("end_hand_early", "hands ended early (e.g. a sole player)"),
                       ("talon_exhausted", "hands where an exchange emptied the talon")):
        ms.append(_rate(f"hand.{key}", label, "per hand", total[key], hands))
    for key, label in (("trick", "tricks per hand"), ("eliminated", "eliminations per hand"),
                       ("knock", "knocks (abstentions) per hand")):
        if total[key] or key == "trick":
            ms.append(_mean(f"hand.{key}", label, "per hand", per_hand(key)))
    if total["eliminated"]:
        ms.append(_mean("match.eliminated", "eliminations per match", "per hand",
                        [r.counts.get("eliminated", 0) for r in recs]))
    for key in sorted(k for k in total if k.startswith("set:")):
        var = key[4:]
        if total.get(f"set_true:{var}"):
            ms.append(_mean(f"hand.set_true.{var}", f"'{var}' set true per hand", "per hand",
                            per_hand(f"set_true:{var}")))
        ms.append(_mean(f"hand.set.{var}", f"'{var}' assignments per hand", "per hand",
                        per_hand(key)))

    for key in sorted(k for k in total if k.startswith("decision:")):
        name = key[len("decision:"):]
        prefix = f"choice:{name}:"
        for ck in sorted(k for k in total if k.startswith(prefix)):
            choice = ck[len(prefix):]
            ms.append(_rate(f"decision.{name}.{choice}", f"{name}: '{choice}'", "decisions",
                            total[ck], total[key]))
    for key in sorted(k for k in total if k.startswith("exchange:")):
        name = key[len("exchange:"):]
        ms.append(_rate(f"exchange.{name}.some", f"{name}: gives cards away", "exchanges",
                        total[f"exchange_some:{name}"], total[key]))
        ms.append(_mean(f"exchange.{name}.cards", f"{name}: cards per hand", "exchanges",
                        per_hand(f"exchange_cards:{name}")))

    for p in range(P):
        ms.append(_mean(f"scores.seat.{p}", f"seat {p} ({s.bots[p]})", "final scores",
                        [r.scores[p] for r in recs]))
    ms.append(_mean("scores.all", "all seats", "final scores",
                    [float(x) for r in recs for x in r.scores]))
    return ms


# -- comparison ---------------------------------------------------------------------


@dataclass
class Comparison:
    """Several :class:`Summary` runs over the same seeds, with tests against the first."""

    summaries: list[Summary]

    def rows(self) -> list[tuple[str, str, str, list[Measure | None], list[float | None]]]:
        """(key, section, label, measure per run, p-value vs the first run per run)."""
        order: dict[str, tuple[str, str]] = {}
        for s in self.summaries:
            for m in s.measures:
                order.setdefault(m.key, (m.section, m.label))
        out = []
        for key, (section, label) in order.items():
            ms = [s.measure(key) for s in self.summaries]
            base = ms[0]
            ps: list[float | None] = [None]
            for other in ms[1:]:
                ps.append(other.p_value(base) if (other is not None and base is not None
                                                 and other.kind == base.kind) else None)
            out.append((key, section, label, ms, ps))
        return out

    def to_dict(self) -> dict[str, Any]:
        """The documented JSON form (``schema`` ``spelbok.compare``, ``version`` 1)."""
        rows = []
        for key, section, label, ms, ps in self.rows():
            rows.append({
                "key": key, "section": section, "label": label,
                "values": [m.to_dict() if m else None for m in ms],
                "p": ps,
                "mark": [stars(p) if p is not None else "" for p in ps],
            })
        return {
            "schema": "spelbok.compare",
            "version": SCHEMA_VERSION,
            "baseline": 0,
            "tests": {"rate": "two-proportion z-test", "mean": "Welch t-test",
                      "marks": {"**": "p < 0.01", "*": "p < 0.05"}},
            "runs": [s.to_dict() for s in self.summaries],
            "rows": rows,
        }
