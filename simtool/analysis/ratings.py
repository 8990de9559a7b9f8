"""Ratings over many strategies, from the runs of a sweep (or any runs of one game) with
several line-ups: a Plackett-Luce rating per strategy (openskill's Weng-Lin Bayesian
model, a maintained multiplayer rating: its update is written out here, operation for operation,
because openskill's objects cost five times the arithmetic; a test holds it to openskill's own
figures to the last bit).

Every deal (or match) where two or more strategies meet is one game among its seats, each
seat ranked by its win share (tied shares tie); a strategy holding several seats moves by the
mean of their updates. Games from all
runs are rated in one fixed pseudo-random order (seed 0, so a report is reproducible), at
most :data:`LIMIT` of them, taken evenly from the runs. Skill is taken as fixed (no
dynamics factor, ``tau = 0``), so the posterior narrows as games add up; the interval is
the model's 95% posterior interval, ``mu ± 1.96 sigma``.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from simtool import stats
from simtool.analysis import labels

LIMIT = 8_000
"""Deals rated per game section: a posterior sigma of about 0.5 (95% interval about ± 1 on
openskill's scale, where every strategy starts at 25 with sigma 8.3), far below the gaps between
strategies that matter, in a fifth of a second on an idle core."""

TABLE = "Ratings over all runs (Plackett-Luce, openskill)"


def held(win: np.ndarray, codes: np.ndarray, names: list[str]) -> pl.DataFrame:
    """The deals where two strategies or more meet, seat by seat: ``strategy_i`` (its name) and
    ``win_i`` (its win share) for every seat ``i``. ``win``, ``codes``: ``(deals, p)``."""
    codes = np.asarray(codes)
    mixed = (codes != codes[:, :1]).any(axis=1)
    win, codes, p = win[mixed], codes[mixed], codes.shape[1]
    label = np.asarray(names, dtype=object)
    return pl.DataFrame({**{f"strategy_{i}": label[codes[:, i]].tolist() for i in range(p)},
                         **{f"win_{i}": win[:, i].astype(float) for i in range(p)}})


def taken(tables: list[pl.DataFrame], limit: int = LIMIT) -> list[pl.DataFrame]:
    """The deals :func:`rate` rates: the first of each run's :func:`held` table, ``limit`` in all
    at most, shared evenly among the runs."""
    tables = [t for t in tables if t.height]
    return [t.head(max(1, limit // len(tables))) for t in tables]


def rate(tables: list[pl.DataFrame], limit: int = LIMIT, seed: int = 0) -> pl.DataFrame | None:
    """Ratings from the :func:`held` tables of several runs: ``strategy, games, rating,
    rating_low, rating_high`` (best first); ``None`` when no two strategies meet.

    Every seat of a deal is ranked by its own win share; a strategy holding several seats is
    updated by the mean of its seats' updates, each from its rating before the deal, so that
    holding more seats neither helps nor hurts (ranking a strategy's mean share per seat would:
    one seat against three wins a quarter of the deals outright and ties for last otherwise).
    """
    tables = taken(tables, limit)
    if not tables:
        return None
    deals = []
    for t in tables:
        p = sum(c.startswith("win_") for c in t.columns)
        deals += zip(t.select(f"strategy_{i}" for i in range(p)).rows(),
                     t.select(f"win_{i}" for i in range(p)).rows(), strict=True)
    names = sorted({n for seats, _ in deals for n in seats})
    players = dict.fromkeys(names, (MU, SIGMA))
    played = dict.fromkeys(names, 0)
    for k in np.random.default_rng(seed).permutation(len(deals)):
        seats, wins = deals[k]
        rated = update([players[n] for n in seats], wins)
        for name in set(seats):
            mine = [r for r, n in zip(rated, seats, strict=True) if n == name]
            players[name] = (mean([mu for mu, _ in mine]), mean([sigma for _, sigma in mine]))
            played[name] += 1
    rows = [{"strategy": n, "games": played[n], "rating": players[n][0],
             "rating_low": players[n][0] - stats.Z95 * players[n][1],
             "rating_high": players[n][0] + stats.Z95 * players[n][1]}
            for n in names if played[n]]
    return pl.DataFrame(rows).sort("rating", descending=True)


MU, SIGMA, BETA, KAPPA = 25.0, 25.0 / 3.0, 25.0 / 6.0, 0.0001
"""openskill's Plackett-Luce defaults: prior mean and deviation, performance deviation, and the
floor of the factor that narrows sigma."""


def update(ratings: list[tuple[float, float]], scores: list[float]) -> list[tuple[float, float]]:
    """The ``(mu, sigma)`` of every seat after one game, seat ``i`` scoring ``scores[i]`` (higher
    is better, equal scores tie): what openskill's ``PlackettLuce(tau=0).rate`` returns for teams
    of one, the same floating-point operations in the same order (equal to the last bit; a test
    compares), without its per-call copies and objects, which cost ~30x more than the arithmetic.
    Algorithm 4 of Weng and Lin (2011) with openskill's choices: ``gamma = sigma / c``; tied seats
    each count ``1 / A_q``; openskill's averaging of tied seats' mean changes reads the updated
    ratings and so changes nothing, and is left out. No margin, no weights, no ``limit_sigma``."""
    p = len(ratings)
    order = sorted(range(p), key=lambda i: -scores[i])  # stable, as openskill sorts by rank
    first = {}  # rank = index of the first seat with that score in the sorted order (ties share)
    for index, score in enumerate(sorted(-s for s in scores)):
        first.setdefault(score, index)
    rank = [first[-scores[i]] for i in order]
    mu = [ratings[i][0] for i in order]
    sigma = [math.sqrt(ratings[i][1] * ratings[i][1] + 0.0) for i in order]  # openskill adds tau² = 0
    s2 = [s**2 for s in sigma]
    c = 0.0
    for v in s2:
        c += v + BETA**2
    c = math.sqrt(c)
    e = [math.exp(m / c) for m in mu]
    a = [rank.count(r) for r in rank]
    sum_q = []
    for q in range(p):  # over the seats ranked no better than q, in order, as openskill adds them
        start = rank.index(rank[q])
        total = e[start]
        for i in range(start + 1, p):
            total += e[i]
        sum_q.append(total)
    out = [None] * p
    for i in range(p):
        omega = delta = 0.0
        for q in range(p):
            share = e[i] / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        omega *= s2[i] / c
        delta *= s2[i] / c**2
        delta *= math.sqrt(s2[i]) / c
        shrink = sigma[i] ** 2 / s2[i]
        out[order[i]] = (mu[i] + shrink * omega, sigma[i] * math.sqrt(max(1 - shrink * delta, KAPPA)))
    return out


def mean(values: list[float]) -> float:
    """``float(np.mean(values))`` to the last bit: numpy adds fewer than 8 values in order, more
    pairwise, then divides by the count."""
    if len(values) >= 8:
        return float(np.mean(values))
    total = values[0]
    for v in values[1:]:
        total += v
    return total / len(values)


def chart(table: pl.DataFrame):
    """The ratings as points with their 95% intervals, best at the top."""
    from matplotlib.figure import Figure as Chart

    t = table.reverse()
    chart = Chart(figsize=(5.2, max(2.2, 0.6 + 0.4 * t.height)), layout="constrained")
    ax = chart.add_subplot()
    y = np.arange(t.height)
    ax.errorbar(t["rating"].to_numpy(), y, xerr=np.stack([t["rating"] - t["rating_low"],
                                                          t["rating_high"] - t["rating"]]),
                fmt="o", color="#2f5d8c", capsize=4)
    ax.set(yticks=y, yticklabels=[labels.clip(name) for name in t["strategy"]], xlabel="rating (mu, 95% interval)")
    return chart
