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

from .stats import Z95, holm, paired_difference, stars, two_proportion_p, welch_p, wilson

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
    #: decisions whose search stopped at the bots' time budget (see --bot-time)
    bot_time_cuts: int = 0


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
    #: (successes or sum, trials or count) of each match, in match order: the paired tests
    pairs: list[tuple[float, float]] = field(default_factory=list, repr=False, compare=False)

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


def _rate(key: str, label: str, section: str, s: int, n: int,
          pairs: list[tuple[float, float]] | None = None) -> Measure:
    return Measure(key, label, section, "rate", successes=s, trials=n, pairs=pairs or [])


def _mean(key: str, label: str, section: str, values: Sequence[float],
          pairs: list[tuple[float, float]] | None = None) -> Measure:
    if not values:
        return Measure(key, label, section, "mean")
    return Measure(
        key, label, section, "mean", n=len(values), mean=statistics.fmean(values),
        sd=statistics.stdev(values) if len(values) > 1 else 0.0,
        median=float(statistics.median(values)), min=float(min(values)), max=float(max(values)),
        pairs=pairs if pairs is not None else [(float(v), 1.0) for v in values],
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


def bin_counts(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """Counts of ``values`` in the bins of ``edges`` (a value on the last edge goes in the
    last bin), so that several runs can be shown over the same bins.

    >>> bin_counts([1, 2, 2, 5], [0.0, 2.0, 4.0, 6.0])
    [1, 2, 1]
    """
    import bisect

    counts = [0] * max(0, len(edges) - 1)
    if not counts:
        return counts
    for v in values:
        i = bisect.bisect_right(edges, v) - 1
        counts[min(len(counts) - 1, max(0, i))] += 1
    return counts


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

    def warnings(self, share: float = 0.5) -> list[str]:
        """What makes the run's figures not the game's: more than ``share`` of the
        matches cut at ``max_hands`` (scores and winners are then the bound's), and
        decisions cut at the bots' time budget (they depend on the machine's speed)."""
        out = []
        m = self.measure("length.limit_reached")
        if m is not None and m.trials and m.value > share:
            bound = self.max_hands or "the spec's bound"
            better = ("bots that finish matches (greedy)" if "random" in self.bots
                      else "other bots")
            out.append(f"{m.successes} of {m.trials} matches were cut at max_hands ({bound}): "
                       f"their scores and winners are the bound's; use {better} or a higher "
                       "--max-hands")
        cuts = sum(r.bot_time_cuts for r in self.matches)
        if cuts:
            out.append(f"{cuts} bot decisions stopped searching at the time budget (--bot-time): "
                       "these results depend on the machine's speed; a larger --bot-time, or "
                       "--bot-time 0 (no limit), makes them exact")
        return out

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
            "warnings": self.warnings(),
        }
        if include_matches:
            d["matches"] = [asdict(r) for r in self.matches]
        return d


def build_measures(s: Summary) -> list[Measure]:
    """Every measure of a run, in report order (see the module doc)."""
    return [*_win_measures(s), *_length_measures(s.matches), *_event_measures(s.matches),
            *_score_measures(s)]


def _win_measures(s: Summary) -> list[Measure]:
    """Wins by seat, then by bot."""
    ms: list[Measure] = []
    recs = s.matches
    n = len(recs)
    P = s.players
    wins = [sum(1 for r in recs if p in r.winners) for p in range(P)]
    for p in range(P):
        ms.append(_rate(f"wins.seat.{p}", f"seat {p} ({s.bots[p]})", "wins", wins[p], n,
                        [(float(p in r.winners), 1.0) for r in recs]))
    for bot in dict.fromkeys(s.bots):
        seats = [p for p in range(P) if s.bots[p] == bot]
        where = "seat " + ", ".join(map(str, seats)) if len(seats) < P else "all seats"
        ms.append(_rate(f"wins.bot.{bot}", f"{bot} ({where})", "wins",
                        sum(wins[p] for p in seats), n * len(seats),
                        [(float(sum(1 for p in seats if p in r.winners)), float(len(seats)))
                         for r in recs]))
    return ms


def _length_measures(recs: list[MatchRecord]) -> list[Measure]:
    """How long the matches were, and how many were cut at max_hands."""
    ms: list[Measure] = []
    n = len(recs)
    ms.append(_mean("length.hands", "hands per match", "length", [r.hands for r in recs]))
    ms.append(_mean("length.decisions", "decisions per match", "length",
                    [r.decisions for r in recs]))
    ms.append(_rate("length.limit_reached", "matches cut at max_hands", "length",
                    sum(1 for r in recs if r.limit_reached), n,
                    [(float(r.limit_reached), 1.0) for r in recs]))
    return ms


def _event_measures(recs: list[MatchRecord]) -> list[Measure]:
    """What happened in the hands: redeals, tricks, variables set, decisions, exchanges."""
    ms: list[Measure] = []
    total: Counter[str] = Counter()
    for r in recs:
        total.update(r.counts)
    hands = sum(r.hands for r in recs)

    def per_hand(key: str) -> list[float]:
        return [r.counts.get(key, 0) / r.hands for r in recs if r.hands]

    def counted(key: str, of: str | None = None) -> list[tuple[float, float]]:
        # each match's count of ``key`` out of its hands (or its count of ``of``)
        return [(float(r.counts.get(key, 0)), float(r.hands if of is None else r.counts.get(of, 0)))
                for r in recs]

    def per_hand_pairs(key: str) -> list[tuple[float, float]] | None:
        return None if all(r.hands for r in recs) else [
            (r.counts.get(key, 0) / r.hands if r.hands else 0.0, 1.0 if r.hands else 0.0)
            for r in recs]

    for key, label in (("redeal", "hands redealt (all passed)"),
                       ("end_hand_early", "hands ended early (e.g. a sole player)"),
                       ("talon_exhausted", "hands where an exchange emptied the talon")):
        ms.append(_rate(f"hand.{key}", label, "per hand", total[key], hands, counted(key)))
    for key, label in (("trick", "tricks per hand"), ("eliminated", "eliminations per hand"),
                       ("knock", "knocks (abstentions) per hand")):
        if total[key] or key == "trick":
            ms.append(_mean(f"hand.{key}", label, "per hand", per_hand(key),
                            per_hand_pairs(key)))
    if total["eliminated"]:
        ms.append(_mean("match.eliminated", "eliminations per match", "per hand",
                        [r.counts.get("eliminated", 0) for r in recs]))
    for key in sorted(k for k in total if k.startswith("set:")):
        var = key[4:]
        if total.get(f"set_true:{var}"):
            ms.append(_mean(f"hand.set_true.{var}", f"'{var}' set true per hand", "per hand",
                            per_hand(f"set_true:{var}"), per_hand_pairs(f"set_true:{var}")))
        ms.append(_mean(f"hand.set.{var}", f"'{var}' assignments per hand", "per hand",
                        per_hand(key), per_hand_pairs(key)))

    for key in sorted(k for k in total if k.startswith("decision:")):
        name = key[len("decision:"):]
        prefix = f"choice:{name}:"
        for ck in sorted(k for k in total if k.startswith(prefix)):
            choice = ck[len(prefix):]
            ms.append(_rate(f"decision.{name}.{choice}", f"{name}: '{choice}'", "decisions",
                            total[ck], total[key], counted(ck, key)))
    for key in sorted(k for k in total if k.startswith("exchange:")):
        name = key[len("exchange:"):]
        ms.append(_rate(f"exchange.{name}.some", f"{name}: gives cards away", "exchanges",
                        total[f"exchange_some:{name}"], total[key],
                        counted(f"exchange_some:{name}", key)))
        ms.append(_mean(f"exchange.{name}.cards", f"{name}: cards per hand", "exchanges",
                        per_hand(f"exchange_cards:{name}"),
                        per_hand_pairs(f"exchange_cards:{name}")))
    return ms


def _score_measures(s: Summary) -> list[Measure]:
    """Final scores by seat, then over all seats."""
    ms: list[Measure] = []
    recs = s.matches
    P = s.players
    for p in range(P):
        ms.append(_mean(f"scores.seat.{p}", f"seat {p} ({s.bots[p]})", "final scores",
                        [r.scores[p] for r in recs]))
    ms.append(_mean("scores.all", "all seats", "final scores",
                    [float(x) for r in recs for x in r.scores],
                    [(float(sum(r.scores)), float(len(r.scores))) for r in recs]))
    return ms

# -- comparison ---------------------------------------------------------------------


@dataclass
class Comparison:
    """Several :class:`Summary` runs over the same seeds, with tests against the first."""

    summaries: list[Summary]

    def rows(self) -> list[tuple[str, str, str, list[Measure | None], list[float | None]]]:
        """(key, section, label, measure per run, p-value vs the first run per run).

        The p-values are of paired tests on the shared seeds (see :meth:`differences`),
        adjusted by Holm's method for the number of measures compared (per run)."""
        return [(key, section, label, ms, [d[3] if d else None for d in ds])
                for key, section, label, ms, ds in self.differences()]

    def differences(self) -> list[tuple[str, str, str, list[Measure | None],
                                        list[tuple[float, float, float, float, float] | None]]]:
        """(key, section, label, measure per run, per run ``(difference from the first
        run, 95 % low, high, Holm-adjusted p, raw p)``, None for the first run or when
        the measure is missing).

        The runs share their seeds, so match ``i`` of every run is dealt alike: the
        tests are paired on the matches (:func:`~spelbok.analysis.stats.paired_difference`)
        instead of treating the runs as independent samples; when a run's matches do
        not line up, the unpaired test (two-proportion or Welch) is used."""
        order: dict[str, tuple[str, str]] = {}
        for s in self.summaries:
            for m in s.measures:
                order.setdefault(m.key, (m.section, m.label))
        out: list[Any] = []
        raw: list[list[float | None]] = []
        for key, (section, label) in order.items():
            ms = [s.measure(key) for s in self.summaries]
            base = ms[0]
            ds: list[Any] = [None]
            ps: list[float | None] = [None]
            for other in ms[1:]:
                if other is None or base is None or other.kind != base.kind:
                    ds.append(None)
                    ps.append(None)
                    continue
                if len(other.pairs) == len(base.pairs) >= 2:
                    ds.append(paired_difference(base.pairs, other.pairs))
                else:
                    lo, hi = other.value - base.value, other.value - base.value
                    ds.append((other.value - base.value, lo, hi, other.p_value(base)))
                ps.append(ds[-1][3])
            out.append([key, section, label, ms, ds])
            raw.append(ps)
        for j in range(1, len(self.summaries)):
            # a measure that is the same in every match of both runs is no test: left out
            present = [i for i, ps in enumerate(raw) if ps[j] is not None
                       and not out[i][4][j][1] == out[i][4][j][2] == out[i][4][j][0] == 0.0]
            adjusted = dict(zip(present, holm([float(raw[i][j] or 0.0) for i in present])))
            for i, row in enumerate(out):
                d = row[4][j]
                if d is not None:
                    row[4][j] = (d[0], d[1], d[2], adjusted.get(i, d[3]), d[3])
        return [tuple(row) for row in out]

    def limit_warnings(self, share: float = 0.5) -> list[str]:
        """Each run's :meth:`Summary.warnings`, named by run."""
        return [f"run {i + 1} ({s.spec}): {w}" for i, s in enumerate(self.summaries)
                for w in s.warnings(share)]

    def to_dict(self) -> dict[str, Any]:
        """The documented JSON form (``schema`` ``spelbok.compare``, ``version`` 1)."""
        rows = []
        for key, section, label, ms, ds in self.differences():
            ps = [d[3] if d else None for d in ds]
            rows.append({
                "key": key, "section": section, "label": label,
                "values": [m.to_dict() if m else None for m in ms],
                "p": ps,
                "p_raw": [d[4] if d else None for d in ds],
                "difference": [d[0] if d else None for d in ds],
                "difference_ci95": [[d[1], d[2]] if d else None for d in ds],
                "mark": [stars(p) if p is not None else "" for p in ps],
            })
        return {
            "schema": "spelbok.compare",
            "version": SCHEMA_VERSION,
            "baseline": 0,
            "tests": {"rate": "paired t-test on the shared seeds (per-match linearised rate)",
                      "mean": "paired t-test on the shared seeds",
                      "correction": "Holm, over the measures of each run",
                      "marks": {"**": "adjusted p < 0.01", "*": "adjusted p < 0.05"}},
            "warnings": self.limit_warnings(),
            "runs": [s.to_dict() for s in self.summaries],
            "rows": rows,
        }
