"""Statistics for the simulation reports: Wilson intervals, two-proportion and
Welch tests, the two-sided sign test, and the significance marks.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


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



def t_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom.

    >>> round(t_p(2.0, 30), 4)
    0.0546
    """
    if df <= 0:
        return 1.0
    return _betainc(df / 2, 0.5, df / (df + t * t))


def t_quantile(df: float, p: float = 0.05) -> float:
    """The ``t`` whose two-sided p-value is ``p`` (by bisection; 1.96 for large df).

    >>> round(t_quantile(10), 3), round(t_quantile(100000), 3)
    (2.228, 1.96)
    """
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_p(mid, df) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def paired_difference(
    a: list[tuple[float, float]], b: list[tuple[float, float]],
) -> tuple[float, float, float, float]:
    """``(difference, low, high, p)``: the difference ``B - A`` of two ratio measures
    ``sum(s) / sum(t)`` observed on the same matches (``(s, t)`` per match, in the same
    order), its 95 % interval and the two-sided p-value of a paired t-test.

    Each match's contribution to a ratio is linearised (``(s - ratio * t) / mean(t)``),
    so that a mean (``t`` = 1) gets the ordinary paired t-test and a rate over hands or
    decisions one that keeps each match's hands together.

    >>> d, lo, hi, p = paired_difference([(1, 1), (2, 1), (3, 1)], [(2, 1), (3, 1), (5, 1)])
    >>> round(d, 3), round(lo, 3), round(hi, 3), round(p, 3)
    (1.333, -0.101, 2.768, 0.057)
    """
    n = len(a)
    if n != len(b) or n < 2:
        return (0.0, 0.0, 0.0, 1.0)
    sa, ta = sum(x for x, _ in a), sum(t for _, t in a)
    sb, tb = sum(x for x, _ in b), sum(t for _, t in b)
    if ta <= 0 or tb <= 0:
        return (0.0, 0.0, 0.0, 1.0)
    ra, rb = sa / ta, sb / tb
    ma, mb = ta / n, tb / n
    d = [(y - rb * u) / mb - (x - ra * t) / ma for (x, t), (y, u) in zip(a, b)]
    diff = rb - ra
    se = math.sqrt(sum(v * v for v in d) / (n * (n - 1)))
    if se <= 1e-12:
        return (diff, diff, diff, 1.0 if abs(diff) <= 1e-12 else 0.0)
    half = t_quantile(n - 1) * se
    return (diff, diff - half, diff + half, t_p(diff / se, n - 1))


def holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjustment of p-values for testing them all at once.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out
