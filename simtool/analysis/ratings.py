"""Ratings over many strategies, from the runs of a sweep (or any runs of one game) with
several line-ups: a Plackett-Luce rating per strategy (openskill's Weng-Lin Bayesian
model, a maintained multiplayer rating, rather than one written here).

Every deal (or match) where two or more strategies meet is one game among its seats, each
seat ranked by its win share (tied shares tie); a strategy holding several seats moves by the
mean of their updates. Games from all
runs are rated in one fixed pseudo-random order (seed 0, so a report is reproducible), at
most :data:`LIMIT` of them, taken evenly from the runs. Skill is taken as fixed (no
dynamics factor, ``tau = 0``), so the posterior narrows as games add up; the interval is
the model's 95% posterior interval, ``mu ± 1.96 sigma``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simtool import stats
from simtool.analysis import labels

LIMIT = 8_000
"""Deals rated per game section: a posterior sigma of about 0.5 (95% interval about ± 1 on
openskill's scale, where every strategy starts at 25 with sigma 8.3), far below the gaps between
strategies that matter, in well under a second on an idle core (openskill updates in Python)."""

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


def rate(tables: list[pl.DataFrame], limit: int = LIMIT, seed: int = 0) -> pl.DataFrame | None:
    """Ratings from the :func:`held` tables of several runs: ``strategy, games, rating,
    rating_low, rating_high`` (best first); ``None`` when no two strategies meet.

    Every seat of a deal is ranked by its own win share; a strategy holding several seats is
    updated by the mean of its seats' updates, each from its rating before the deal, so that
    holding more seats neither helps nor hurts (ranking a strategy's mean share per seat would:
    one seat against three wins a quarter of the deals outright and ties for last otherwise).
    """
    from openskill.models import PlackettLuce

    tables = [t for t in tables if t.height]
    if not tables:
        return None
    deals = []
    for t in tables:
        p = sum(c.startswith("win_") for c in t.columns)
        t = t.head(max(1, limit // len(tables)))
        deals += zip(t.select(f"strategy_{i}" for i in range(p)).rows(),
                     t.select(f"win_{i}" for i in range(p)).rows(), strict=True)
    names = sorted({n for seats, _ in deals for n in seats})
    model = PlackettLuce(tau=0)
    players = {name: model.rating(name=name) for name in names}
    played = dict.fromkeys(names, 0)
    for k in np.random.default_rng(seed).permutation(len(deals)):
        seats, wins = deals[k]
        rated = model.rate([[model.rating(mu=players[n].mu, sigma=players[n].sigma)] for n in seats],
                           scores=list(wins))
        for name in set(seats):
            mine = [team[0] for team, n in zip(rated, seats, strict=True) if n == name]
            players[name] = model.rating(mu=float(np.mean([r.mu for r in mine])),
                                         sigma=float(np.mean([r.sigma for r in mine])), name=name)
            played[name] += 1
    rows = [{"strategy": n, "games": played[n], "rating": players[n].mu,
             "rating_low": players[n].mu - stats.Z95 * players[n].sigma,
             "rating_high": players[n].mu + stats.Z95 * players[n].sigma}
            for n in names if played[n]]
    return pl.DataFrame(rows).sort("rating", descending=True)


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
