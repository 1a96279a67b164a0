"""Small statistics in the standard library: exact binomial and beta-binomial tails, the
Mann–Whitney rank test, Wilson intervals and Benjamini–Hochberg adjustment (used by
:mod:`mahjong_audit.pipeline.collusion`).

>>> round(binom_sf(3, 3, 0.5), 6)
0.125
>>> bh_adjust((0.01, 0.04, 0.03))
(0.03, 0.04, 0.04)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

_TINY = 1e-17


def _log_pmf(k: int, n: int, p: float) -> float:
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binom_sf(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p), exact to double precision.

    Sums the pmf from ``k`` away from the mode (each term from the last by the pmf's
    ratio), stopping when the terms no longer change the sum; below the mode it sums
    the other tail and subtracts.
    """
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    mode = math.floor((n + 1) * p)
    odds = p / (1.0 - p)
    if k > mode:
        term = math.exp(_log_pmf(k, n, p))
        total, i = term, k
        while i < n:
            term *= (n - i) / (i + 1) * odds
            i += 1
            total += term
            if term < total * _TINY:
                break
        return min(1.0, total)
    # P(X >= k) = 1 - P(X <= k-1), summing downwards from k-1 (below the mode)
    term = math.exp(_log_pmf(k - 1, n, p))
    total, i = term, k - 1
    while i > 0:
        term *= i / (n - i + 1) / odds
        i -= 1
        total += term
        if term < total * _TINY:
            break
    return max(0.0, 1.0 - total)


def betabinom_sf(k: int, n: int, a: float, b: float) -> float:
    """P(X ≥ k) for X ~ BetaBinomial(n, a, b): a binomial whose success probability is
    itself uncertain, Beta(a, b) (mean a / (a + b), as sure as a + b trials). Summed like
    :func:`binom_sf`, from ``k`` away from the mode.
    """
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0

    def log_pmf(i: int) -> float:
        return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                + math.lgamma(i + a) + math.lgamma(n - i + b) - math.lgamma(n + a + b)
                + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b))

    mode = (n * (a - 1) + (a - 1)) / (a + b - 2) if a > 1 and b > 1 else (n if a >= b else 0)
    if k > mode:
        term = math.exp(log_pmf(k))
        total, i = term, k
        while i < n:
            term *= (n - i) / (i + 1) * (i + a) / (n - i - 1 + b)
            i += 1
            total += term
            if term < total * _TINY:
                break
        return min(1.0, total)
    term = math.exp(log_pmf(k - 1))
    total, i = term, k - 1
    while i > 0:
        term *= i / (n - i + 1) * (n - i + b) / (i - 1 + a)
        i -= 1
        total += term
        if term < total * _TINY:
            break
    return max(0.0, 1.0 - total)


def betabinom_cdf(k: int, n: int, a: float, b: float) -> float:
    """P(X ≤ k) for X ~ BetaBinomial(n, a, b): the lower tail (a deficit)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return betabinom_sf(n - k, n, b, a)  # X ≤ k  ⇔  n − X ≥ n − k, and n − X ~ BetaBinomial(n, b, a)


def normal_sf(z: float) -> float:
    """P(Z ≥ z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def midranks(values: Sequence[float]) -> tuple[tuple[float, ...], float]:
    """The rank of each value among ``values`` (ties get the mean of their ranks, from 1),
    and the tie term Σ (t³ − t) over groups of t equal values (for :func:`mann_whitney_sf`).

    >>> midranks((3.0, 1.0, 3.0))
    ((2.5, 1.0, 2.5), 6.0)
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    ties = 0.0
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for r in range(i, j + 1):
            ranks[order[r]] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    return tuple(ranks), ties


def mann_whitney_sf(rank_sum: float, n1: int, n2: int, ties: float = 0.0) -> float:
    """One-sided Mann–Whitney p-value: P(U ≥ u) that a sample of ``n1`` values ranks this
    high among ``n1 + n2`` (``rank_sum``: the sum of its midranks in the pooled sample;
    ``ties``: the pooled sample's Σ (t³ − t)), by the normal approximation with the tie
    correction and a continuity correction of ½. Exchangeable samples (the null) give a
    U of mean n1·n2/2.

    >>> mann_whitney_sf(sum(range(11, 21)), 10, 10) < 1e-4  # the 10 largest of 20
    True
    """
    n = n1 + n2
    if n1 <= 0 or n2 <= 0:
        return 1.0
    u = rank_sum - n1 * (n1 + 1) / 2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0
    return min(1.0, normal_sf((u - n1 * n2 / 2 - 0.5) / math.sqrt(var)))


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(X ≤ k) for X ~ Binomial(n, p)."""
    return 1.0 - binom_sf(k + 1, n, p) if k < n else 1.0


def binom_two_sided(k: int, n: int, p: float) -> float:
    """Two-sided p-value: twice the smaller tail, at most 1."""
    if n == 0:
        return 1.0
    return min(1.0, 2.0 * min(binom_sf(k, n, p), binom_cdf(k, n, p)))


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default); (0, 1) for n = 0. Its ends are
    exactly 0 for k = 0 and 1 for k = n (where the two float terms would leave a rounding
    residue, e.g. 1.7e-18 for 0 of 200)."""
    if n <= 0:
        return 0.0, 1.0
    phat = k / n
    denom = 1.0 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    return (0.0 if k <= 0 else max(0.0, centre - half)), (1.0 if k >= n else min(1.0, centre + half))


def bh_adjust(pvalues: Sequence[float]) -> tuple[float, ...]:
    """Benjamini–Hochberg adjusted p-values (q-values), in the input order.

    A test is rejected at false discovery rate ``q`` when its adjusted value is ≤ ``q``.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        out[i] = min(1.0, running)
    return tuple(out)
