"""The few statistics the balance lab needs, written out with the standard library.

Means with confidence intervals from Student's t distribution, and the paired
t test: the lab plays the same seeds under every variant, so the difference
of two variants is measured game by game, which cancels most of the luck of
the cards and dice.

>>> estimate([1, 2, 3, 4, 5]).interval()
(1.0368, 4.9632)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

LEVEL = 0.95
"""Confidence level of every interval the lab reports."""


@dataclass(frozen=True)
class Estimate:
    """A mean with its ``LEVEL`` confidence interval (``low``/``high`` are None below 2 values)."""

    n: int
    mean: float
    sd: float
    low: float | None
    high: float | None

    def interval(self, digits: int = 4) -> tuple[float, float] | None:
        if self.low is None or self.high is None:
            return None
        return round(self.low, digits), round(self.high, digits)


@dataclass(frozen=True)
class PairedTest:
    """Variant B minus variant A over the same games: mean difference, its interval, t, p and the tally."""

    difference: Estimate
    t: float | None
    p: float | None
    """Two-sided p-value of "no difference" (None below 2 games)."""
    better: int
    worse: int
    same: int
    """Games where B scored more than, less than, the same as A."""


def estimate(values: Sequence[float], level: float = LEVEL) -> Estimate:
    """Mean of ``values`` and its confidence interval: mean ± t(level, n-1) × sd / √n."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(n, mean, 0.0, None, None)
    sd = statistics.stdev(values, mean)
    half = t_quantile((1 + level) / 2, n - 1) * sd / math.sqrt(n)
    return Estimate(n, mean, sd, mean - half, mean + half)


def paired_test(a: Sequence[float], b: Sequence[float], level: float = LEVEL) -> PairedTest:
    """The paired t test of ``b`` against ``a`` (same length, element i of each from the same game)."""
    if len(a) != len(b):
        raise ValueError(f"paired samples of different sizes ({len(a)} and {len(b)})")
    differences = [y - x for x, y in zip(a, b, strict=True)]
    d = estimate(differences, level)
    better = sum(1 for x in differences if x > 0)
    worse = sum(1 for x in differences if x < 0)
    tally = (better, worse, len(differences) - better - worse)
    if d.n < 2:
        return PairedTest(d, None, None, *tally)
    if d.sd == 0:
        # Every game moved by the same amount: certain, or no change at all.
        return PairedTest(d, math.copysign(math.inf, d.mean) if d.mean else 0.0, 0.0 if d.mean else 1.0, *tally)
    t = d.mean / (d.sd / math.sqrt(d.n))
    return PairedTest(d, t, t_two_sided_p(t, d.n - 1), *tally)


# --------------------------------------------------------------------------- Student's t distribution


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom: I_x(df/2, 1/2) with x = df / (df + t²)."""
    if math.isinf(t):
        return 0.0
    square = t * t
    if square < df:
        # Near t = 0, x = df / (df + t²) rounds to 1 and 1 - x keeps few digits: use the complement,
        # 1 - I_y(1/2, df/2) with y = t² / (df + t²) computed without cancelling.
        return 1 - regularized_beta(square / (df + square), 0.5, df / 2)
    return regularized_beta(df / (df + square), df / 2, 0.5)


def t_cdf(t: float, df: float) -> float:
    """P(T <= t)."""
    tail = t_two_sided_p(t, df) / 2
    return 1 - tail if t > 0 else tail


@lru_cache(maxsize=64)
def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p, by bisection on :func:`t_cdf` (to 1e-12).

    Memoised: a report asks for the same one (its level, its games less one) for every mean it gives,
    and the bisection takes about a hundred incomplete beta functions."""
    if not 0 < p < 1:
        raise ValueError(f"probability {p} not strictly between 0 and 1")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2
    while high - low > 1e-12 * max(1.0, high):
        middle = (low + high) / 2
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function (continued fraction, modified Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    # The fraction converges fast for x < (a+1)/(a+b+2); otherwise use I_x(a,b) = 1 - I_{1-x}(b,a).
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """Q1, median, Q3 (``statistics.quantiles``, inclusive method; one value is its own quartiles)."""
    if len(values) == 1:
        return (values[0],) * 3
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3
