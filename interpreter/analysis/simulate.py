"""Batch simulation of bot matches, summary measures, and comparison of specs.

:func:`simulate` plays N seeded matches (optionally in several processes:
match ``i`` of a run seeded ``S`` always uses :func:`~spelbok.play.match.match_seed`
``(S, i)`` and bot seeds :func:`~spelbok.play.match.bot_seed` ``(S, i, seat)``, so
the results do not depend on ``jobs``) and returns a :class:`Summary` of
measures computed from each match's event log:

* wins per seat and per bot, with Wilson 95 % intervals (a tie counts as a
  win for every tied seat);
* match length in hands (deals, redeals included) and decisions;
* per-hand rates: redeals, hands ended early (e.g. a sole player), hands in which
  an exchange drew the last card of the talon;
* per-hand means: eliminations, abstentions (knocks), tricks, ``set`` events
  per variable (and those setting a flag true);
* for each word or suit decision, the share of each choice; for each
  exchange, the share of exchanges that give cards away and the cards per hand;
* final scores per seat and overall, with a histogram.

:func:`compare` runs the same measures for several specs over the same seeds
and tests each difference from the first spec: a two-proportion z-test for
rates, Welch's t-test for means.

>>> s = simulate("example", games=4, players=2, bots=["greedy", "random"], seed=1)
>>> s.games, len(s.wins_by_seat())
(4, 2)
>>> s.to_dict()["schema"]
'spelbok.simulate'
"""

from __future__ import annotations

import gc
import math
import os
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import LimitError, SpelbokError
from ..limits import MAX_VALUE, digits

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game
    from ..engine.state import State

SCHEMA_VERSION = 1
Z95 = 1.959963984540054
#: Most matches one run plays: every match's record is kept (for medians and
#: histograms), so this bounds the memory a run takes.
MAX_GAMES = 100_000

Progress = Callable[[int], None]


# -- statistics -----------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    >>> lo, hi = wilson(50, 100); round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    den = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / den
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / den
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return (lo, hi)


def two_proportion_p(s1: int, n1: int, s2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test (1.0 when undefined).

    >>> round(two_proportion_p(60, 100, 40, 100), 4)
    0.0047
    """
    if n1 <= 0 or n2 <= 0:
        return 1.0
    p = (s1 + s2) / (n1 + n2)
    var = p * (1 - p) * (1 / n1 + 1 / n2)
    if var <= 0:
        return 1.0
    z = (s1 / n1 - s2 / n2) / math.sqrt(var)
    return math.erfc(abs(z) / math.sqrt(2))


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-12:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    bt = math.exp(lbt)
    if x < (a + 1) / (a + b + 2):
        return bt * _betacf(a, b, x) / a
    return 1 - bt * _betacf(b, a, 1 - x) / b


def welch_p(m1: float, sd1: float, n1: int, m2: float, sd2: float, n2: int) -> float:
    """Two-sided p-value of Welch's unequal-variances t-test.

    >>> round(welch_p(10.0, 2.0, 30, 11.5, 2.0, 30), 4)
    0.0052
    >>> welch_p(1.0, 0.0, 5, 1.0, 0.0, 5), welch_p(1.0, 0.0, 5, 2.0, 0.0, 5)
    (1.0, 0.0)
    """
    if n1 < 2 or n2 < 2:
        return 1.0
    v1, v2 = sd1 * sd1 / n1, sd2 * sd2 / n2
    se2 = v1 + v2
    if se2 <= 0:
        return 1.0 if m1 == m2 else 0.0
    t = (m1 - m2) / math.sqrt(se2)
    df = se2 * se2 / ((v1 * v1 / (n1 - 1) if v1 else 0.0) + (v2 * v2 / (n2 - 1) if v2 else 0.0))
    return _betainc(df / 2, 0.5, df / (df + t * t))


def binomial_sign_p(wins: int, losses: int) -> float:
    """Two-sided exact sign test p-value of ``wins`` against ``losses`` (ties left out).

    >>> round(binomial_sign_p(15, 5), 4)
    0.0414
    """
    n = wins + losses
    if n == 0:
        return 1.0
    k = max(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def stars(p: float) -> str:
    """``**`` for p < 0.01, ``*`` for p < 0.05, else ``""``."""
    return "**" if p < 0.01 else "*" if p < 0.05 else ""


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


def count_events(log: list[dict[str, Any]], counts: Counter[str]) -> None:
    """Add a match's event counts to ``counts`` (keys documented in docs/bots.md)."""
    for ev in log:
        kind = ev.get("event")
        if kind == "redeal":
            counts["redeal"] += 1
        elif kind == "end_hand_early":
            counts["end_hand_early"] += 1
        elif kind == "eliminated":
            counts["eliminated"] += 1
        elif kind == "knock":
            counts["knock"] += 1
        elif kind == "trick":
            counts["trick"] += 1
        elif kind == "decision":
            name = ev.get("decision", "?")
            counts[f"decision:{name}"] += 1
            counts[f"choice:{name}:{ev.get('action', '?')}"] += 1
        elif kind == "exchange":
            name = ev.get("decision", "?")
            k = len(ev.get("gave", []))
            counts[f"exchange:{name}"] += 1
            counts[f"exchange_cards:{name}"] += k
            if k:
                counts[f"exchange_some:{name}"] += 1
        elif kind == "set":
            var = ev.get("var", "?")
            counts[f"set:{var}"] += 1
            if ev.get("value") is True:
                counts[f"set_true:{var}"] += 1


def run_match(game: Game, bot_names: Sequence[str], seed: int, index: int) -> MatchRecord:
    """Play match ``index`` of a run seeded ``seed`` and record its measures."""
    from ..engine.actions import CARDS
    from ..play.bots import make_bot
    from ..play.match import bot_seed, match_seed, play_match

    mseed = match_seed(seed, index)
    bots = [make_bot(name, bot_seed(seed, index, s)) for s, name in enumerate(bot_names)]
    exhausted = [0]

    def hook(st: State, seat: int, action: Action, stock_before: int, hands_before: int) -> None:
        if (stock_before and not st.stock and action.kind == CARDS
                and st.hands_played == hands_before):
            exhausted[0] += 1

    st = play_match(game, bots, mseed, record=True, on_step=hook)
    counts: Counter[str] = Counter()
    count_events(st.log, counts)
    counts["talon_exhausted"] = exhausted[0]
    scores = list(st.scores)
    for p, score in enumerate(scores):
        # within the bound, a score is exact as a float, so the means and spreads are right
        if type(score) is int and not -MAX_VALUE <= score <= MAX_VALUE:
            raise LimitError(f"match {index} (seed {mseed}): seat {p} scored a {digits(score)}"
                             f"-digit number, too large "
                             f"to summarise (the limit is {MAX_VALUE})")
    return MatchRecord(
        index=index,
        seed=mseed,
        winners=list(st.winners),
        scores=scores,
        hands=st.hands_played,
        decisions=len(st.actions),
        limit_reached=bool(st.limit_reached),
        counts=dict(counts),
    )


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


# -- running ------------------------------------------------------------------------


def cycle_bots(bots: Sequence[str], players: int) -> list[str]:
    """The bot of each seat: the list in order, cycled when shorter.

    >>> cycle_bots(["greedy", "random"], 3)
    ['greedy', 'random', 'greedy']
    """
    if not bots:
        raise SpelbokError("no bots given")
    if len(bots) > players:
        raise SpelbokError(f"{len(bots)} bots for {players} seats")
    return [bots[i % len(bots)] for i in range(players)]


_WORKER: dict[str, Any] = {}


def _ignore_interrupt() -> None:
    # Ctrl-C reaches the whole process group: the parent alone reports it, once
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_init(spec: str, players: int, options: dict[str, Any], max_hands: int | None,
                 allow_paths: tuple[str | os.PathLike[str], ...] = ()) -> None:
    from ..engine.game import load

    _ignore_interrupt()
    _WORKER["game"] = load(spec, players=players, options=options, max_hands=max_hands,
                           allow_paths=allow_paths)


def _worker_run(job: tuple[list[str], int, list[int]]) -> list[MatchRecord]:
    bots, seed, indexes = job
    game = _WORKER["game"]
    return [run_match(game, bots, seed, i) for i in indexes]


def _spec_ref(spec: str | os.PathLike[str]) -> str:
    text = os.fspath(spec)
    if "\n" not in text and os.path.exists(text):
        return os.path.abspath(text)
    return text


def simulate(
    spec: str | os.PathLike[str],
    games: int,
    players: int | None = None,
    bots: Sequence[str] = ("random",),
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    max_hands: int | None = None,
    progress: Progress | None = None,
    allow_paths: Sequence[str | os.PathLike[str]] = (),
) -> Summary:
    """Play ``games`` matches of ``spec`` between ``bots`` (seat order, cycled) and summarise.

    ``jobs`` > 1 spreads the matches over processes with identical results.
    ``progress(k)`` is called as k more matches finish; ``allow_paths`` as for
    :func:`spelbok.load`.  ``games`` is at most :data:`MAX_GAMES` and ``jobs``
    at most the number of CPUs.  Raises SpelbokError
    (SpecError for a bad spec or option, unknown bots).

    >>> s = simulate("example", games=3, players=2, bots=["random"], seed=5)
    >>> [m.trials for m in s.wins_by_seat()]
    [3, 3]
    """
    from ..engine.game import load
    from ..play.bots import parse_bots

    if games < 1:
        raise SpelbokError("--games must be at least 1")
    if games > MAX_GAMES:
        raise SpelbokError(f"--games can be at most {MAX_GAMES}")
    ref = _spec_ref(spec)
    opts = dict(options or {})
    allowed = tuple(allow_paths)
    game = load(ref, players=players, options=opts, max_hands=max_hands, allow_paths=allowed)
    seats = cycle_bots(parse_bots(list(bots)), game.players)
    records: list[MatchRecord] = []
    if jobs <= 1 or games == 1:
        for i in range(games):
            records.append(run_match(game, seats, seed, i))
            if progress is not None:
                progress(1)
    else:
        import multiprocessing as mp

        jobs = min(jobs, games, os.cpu_count() or 1)
        size = max(1, min(8, games // (jobs * 4)))
        chunks = (list(range(i, min(games, i + size))) for i in range(0, games, size))
        fork = sys.platform == "linux"
        ctx: Any
        init: Any
        initargs: tuple[Any, ...]
        if fork:
            # fork: the workers start with the game already loaded (spawning
            # means a fresh interpreter that imports and compiles it again)
            ctx = mp.get_context("fork")
            _WORKER["game"] = game
            init, initargs = _ignore_interrupt, ()
            gc.freeze()  # the collector must not touch (and so copy) the parent's pages
        else:
            ctx = mp.get_context("spawn")
            init, initargs = _worker_init, (ref, game.players, opts, max_hands, allowed)
        try:
            with ctx.Pool(jobs, initializer=init, initargs=initargs) as pool:
                for got in pool.imap_unordered(_worker_run, ((seats, seed, c) for c in chunks)):
                    records.extend(got)
                    if progress is not None:
                        progress(len(got))
        finally:
            if fork:
                _WORKER.pop("game", None)
                gc.unfreeze()
        records.sort(key=lambda r: r.index)
    return Summary(
        spec=os.fspath(spec) if "\n" not in os.fspath(spec) else "<text>",
        game_name=game.name,
        players=game.players,
        options=dict(game.options),
        max_hands=max_hands,
        seed=seed,
        games=games,
        bots=seats,
        matches=records,
    )


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


def compare(
    specs: Sequence[str | os.PathLike[str]],
    games: int,
    players: int | None = None,
    bots: Sequence[str] = ("random",),
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    max_hands: int | None = None,
    progress: Progress | None = None,
    option_sets: Sequence[dict[str, Any]] | None = None,
    allow_paths: Sequence[str | os.PathLike[str]] = (),
) -> Comparison:
    """Simulate each spec over the same seeds and bots; see :class:`Comparison`.

    ``option_sets`` (one dict per spec) adds per-spec options on top of ``options``,
    so one spec can be compared with itself under another reading.

    >>> c = compare(["example", "example"], games=2, players=2,
    ...             option_sets=[{}, {"void_rule": "any"}])
    >>> len(c.summaries), c.rows()[0][4][0] is None
    (2, True)
    """
    if len(specs) < 2:
        raise SpelbokError("compare needs at least two specs")
    runs = []
    for i, spec in enumerate(specs):
        opts = dict(options or {})
        if option_sets is not None:
            opts.update(option_sets[i])
        runs.append(simulate(spec, games, players, bots, seed, jobs, opts, max_hands, progress,
                             allow_paths=allow_paths))
    return Comparison(runs)


__all__ = [
    "Comparison", "MatchRecord", "Measure", "SCHEMA_VERSION", "Summary", "binomial_sign_p",
    "compare", "cycle_bots", "histogram", "run_match", "simulate", "stars", "two_proportion_p",
    "welch_p", "wilson",
]
