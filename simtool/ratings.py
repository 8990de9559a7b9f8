"""Ratings over many strategies, from the runs of a sweep (or any runs of one game) with
several line-ups: a Plackett-Luce rating per strategy (openskill's Weng-Lin Bayesian
model, a maintained multiplayer rating, rather than one written here).

Every deal (or match) where two or more strategies meet is one game among them, each
strategy ranked by its win share per seat it holds there (tied shares tie). Games from all
runs are rated in one fixed pseudo-random order (seed 0, so a report is reproducible), at
most :data:`LIMIT` of them, taken evenly from the runs. Skill is taken as fixed (no
dynamics factor, ``tau = 0``), so the posterior narrows as games add up; the interval is
the model's 95% posterior interval, ``mu ± 1.96 sigma``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from . import stats

LIMIT = 20_000
"""Games rated per game section: enough for a posterior sigma far below the gaps between
strategies that matter (about 30 µs a game)."""

TABLE = "Ratings over all runs (Plackett-Luce, openskill)"


def held(win: np.ndarray, codes: np.ndarray, names: list[str]) -> pl.DataFrame:
    """Each strategy's win share per seat it holds, per deal: one column per strategy (null
    where it holds no seat). ``win``, ``codes``: ``(deals, p)``."""
    return pl.DataFrame({name: stats.held_share(win, codes, k) for k, name in enumerate(names)},
                        nan_to_null=True)


def rate(tables: list[pl.DataFrame], limit: int = LIMIT, seed: int = 0) -> pl.DataFrame | None:
    """Ratings from the :func:`held` tables of several runs: ``strategy, games, rating,
    rating_low, rating_high`` (best first); ``None`` when fewer than two strategies meet."""
    from openskill.models import PlackettLuce

    games = []
    for t in tables:
        t = t.filter(pl.sum_horizontal(pl.all().is_not_null()) >= 2)
        games.append(t.head(max(1, limit // max(len(tables), 1))))
    games = [g for g in games if g.height]
    if not games:
        return None
    names = sorted({c for g in games for c in g.columns})
    table = pl.concat(games, how="diagonal").select(names)
    values = table.to_numpy().astype(float)
    order = np.random.default_rng(seed).permutation(len(values))
    model = PlackettLuce(tau=0)
    players = {name: model.rating(name=name) for name in names}
    played = dict.fromkeys(names, 0)
    for row in values[order]:
        present = np.flatnonzero(~np.isnan(row)).tolist()
        teams = [[players[names[i]]] for i in present]
        rated = model.rate(teams, scores=[float(row[i]) for i in present])
        for i, team in zip(present, rated, strict=True):
            players[names[i]] = team[0]
            played[names[i]] += 1
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
    ax.set(yticks=y, yticklabels=t["strategy"].to_list(), xlabel="rating (mu, 95% interval)")
    return chart
