"""Intervals, tests and the summaries of a run.

Two layouts: polars seat rows (one row per deal and seat) for grouped summaries, and
``(rows, p)`` numpy panels (one row per deal or match, one column per seat) for the
tests that need each deal's seats together: the seat-advantage test, strategy strength
with seats clustered by deal, and paired differences between runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats as sps

Z95 = 1.959963984540054


def mean_halfwidth(sd, n, z: float = Z95):
    """Half-width of the normal interval for a mean from its standard deviation and count."""
    return z * np.asarray(sd, float) / np.sqrt(np.asarray(n, float))


def wilson(k, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``k`` successes out of ``n``: ``(low, high)``."""
    k, n = np.asarray(k, float), np.asarray(n, float)
    phat = k / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * np.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def _mean_cols(name: str, col: str) -> list[pl.Expr]:
    return [pl.col(col).cast(pl.Float64).mean().alias(name),
            pl.col(col).cast(pl.Float64).std().alias(f"_{name}_sd")]


def seat_summary(game, seats: pl.LazyFrame, matches: pl.LazyFrame | None = None,
                 by: tuple[str, ...] = ("seat", "strategy")) -> pl.DataFrame:
    """Per seat (or per ``by`` group): counts, mean score and win share with 95% intervals,
    and the game's rates (Wilson). With ``matches``, also the mean match total, match win
    share and rounds played.
    """
    aggs = [pl.len().alias("n"), *_mean_cols("score", "score"), *_mean_cols("win", "win"),
            pl.col("tricks").cast(pl.Float64).mean().alias("tricks")]
    aggs += [expr.sum().alias(f"_{name}_k") for name, expr in game.rates.items()]
    out = seats.group_by(*by).agg(aggs).sort(by[0]).collect(engine="streaming")
    out = _finish_means(out, ("score", "win"))
    for name in game.rates:
        lo, hi = wilson(out[f"_{name}_k"].to_numpy(), out["n"].to_numpy())
        out = out.with_columns(
            (pl.col(f"_{name}_k") / pl.col("n")).alias(name),
            pl.Series(f"{name}_low", lo), pl.Series(f"{name}_high", hi),
        )
    if matches is not None:
        m = matches.group_by(by[0]).agg(
            pl.len().alias("matches"), *_mean_cols("total", "total"),
            *_mean_cols("match_win", "win"),
            pl.col("rounds").cast(pl.Float64).mean().alias("rounds"),
            pl.col("capped").mean().alias("capped"),
        ).collect(engine="streaming")
        out = out.join(_finish_means(m, ("total", "match_win")), on=by[0])
    return out.select([c for c in out.columns if not c.startswith("_")])


def _finish_means(df: pl.DataFrame, names) -> pl.DataFrame:
    n = df["matches"] if "matches" in df.columns else df["n"]
    return df.with_columns(
        pl.Series(f"{name}_ci", mean_halfwidth(df[f"_{name}_sd"].fill_null(0).to_numpy(), n.to_numpy()))
        for name in names
    )


def fmt_mean(mean: float, half: float) -> str:
    digits = max(0, min(4, 1 - math.floor(math.log10(half)))) if half > 0 else 3
    return f"{mean:.{digits}f} ± {half:.{digits}f}"


def fmt_rate(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:.1f}% ({100 * low:.1f}–{100 * high:.1f})"


def count_distribution(per_deal: pl.DataFrame, column: str, values) -> pl.DataFrame:
    """Share of deals at each value of ``column`` (Wilson intervals), one row per value."""
    n = per_deal.height
    counts = per_deal[column].value_counts()
    found = dict(zip(counts[column].to_list(), counts["count"].to_list(), strict=True))
    k = np.array([found.get(v, 0) for v in values])
    lo, hi = wilson(k, n)
    return pl.DataFrame({column: list(values), "deals": k, "share": k / n, "low": lo, "high": hi})


def mean_interval(values) -> tuple[float, float]:
    """Mean of ``values`` and the half-width of its normal 95% interval."""
    values = np.asarray(values, float)
    sd = values.std(ddof=1) if len(values) > 1 else 0.0
    return float(values.mean()), float(mean_halfwidth(sd, len(values)))


def bootstrap_interval(values, statistic=np.mean, resamples: int = 2000,
                       seed: int = 0) -> tuple[float, float]:
    """Percentile-bootstrap 95% interval of ``statistic`` over ``values``, for figures whose
    sampling distribution is not normal (medians, quantiles, small samples)."""
    res = sps.bootstrap((np.asarray(values, float),), statistic, n_resamples=resamples,
                        method="percentile", vectorized=False, random_state=seed)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def ratio_interval(k, m) -> tuple[float, float]:
    """``sum(k) / sum(m)`` and its 95% half-width, for a rate counted over clusters of unequal
    size (``k`` events in ``m`` rounds of each match): the delta-method (linearised) variance,
    as rounds of one match are not independent of each other."""
    k, m = np.asarray(k, float), np.asarray(m, float)
    n = len(k)
    ratio = k.sum() / m.sum()
    if n < 2:
        return float(ratio), 0.0
    resid = k - ratio * m
    se = np.sqrt((resid ** 2).sum() / (n * (n - 1))) / m.mean()
    return float(ratio), float(Z95 * se)


def paired_difference(a, b) -> tuple[float, float]:
    """Mean of ``a - b`` over paired rows (the same deals, from runs sharing a seed) and the
    half-width of its 95% interval. Pairing removes the luck of the deal both runs share."""
    return mean_interval(np.asarray(a, float) - np.asarray(b, float))


def independent_difference(mean_a, half_a, mean_b, half_b) -> tuple[float, float]:
    """Difference of two independent means, given their 95% half-widths."""
    return mean_a - mean_b, math.hypot(half_a, half_b)


def panel(rows: pl.DataFrame, column: str, p: int) -> np.ndarray:
    """``column`` of seat rows as ``(rows / p, p)``: one row per deal (or match), seats in order.

    Runs write each deal's seats as ``p`` consecutive rows, seat 0 first, which is checked.
    """
    seat = rows["seat"].to_numpy()
    if len(seat) % p or not np.array_equal(seat.reshape(-1, p), np.broadcast_to(np.arange(p), (len(seat) // p, p))):
        raise ValueError("seat rows are not grouped p to a deal in seat order")
    return rows[column].to_numpy().reshape(-1, p)


@dataclass(frozen=True)
class SeatTest:
    """Wald test that every seat has the same mean: ``statistic`` ~ chi-square(``df``)."""

    statistic: float
    df: int
    p_value: float


def seat_test(values: np.ndarray) -> SeatTest:
    """Is the spread between seats' means larger than chance? ``values`` is ``(n, p)``.

    Each deal's seats are dependent (win shares sum to one), so the test works on each
    deal's deviations from its own seat average, dropping one seat (they sum to zero), and
    uses their covariance across deals: a Wald statistic, chi-square with ``p - 1`` degrees
    of freedom under equal seat means (with two seats, the square of a z test).
    """
    values = np.asarray(values, float)
    n, p = values.shape
    dev = (values - values.mean(axis=1, keepdims=True))[:, : p - 1]
    mean = dev.mean(axis=0)
    cov = np.atleast_2d(np.cov(dev, rowvar=False))
    df = int(np.linalg.matrix_rank(cov)) if n > 1 else 0
    if df == 0:
        return SeatTest(0.0, 0, 1.0)
    stat = float(n * mean @ np.linalg.pinv(cov) @ mean)
    return SeatTest(stat, df, float(sps.chi2.sf(stat, df)))


def seat_table(win: np.ndarray, score: np.ndarray) -> pl.DataFrame:
    """Per seat: win share and mean score with 95% half-widths, and the fair share ``1/p``."""
    p = win.shape[1]
    rows = []
    for s in range(p):
        w, wh = mean_interval(win[:, s])
        m, mh = mean_interval(score[:, s])
        rows.append({"seat": s, "win": w, "win_ci": wh, "fair": 1 / p, "score": m, "score_ci": mh})
    return pl.DataFrame(rows)


def held_share(win: np.ndarray, codes: np.ndarray, k: int) -> np.ndarray:
    """Per deal, strategy ``k``'s win share per seat it holds there (NaN where it holds none)."""
    held = codes == k
    count = held.sum(axis=1)
    return np.where(count > 0, (win * held).sum(axis=1) / np.maximum(count, 1), np.nan)


def strategy_strength(win: np.ndarray, codes: np.ndarray, names: list[str]) -> pl.DataFrame:
    """Each strategy's win share per seat it holds, against the ``1/p`` it would get by chance.

    ``codes`` ``(n, p)`` says which of ``names`` sits in each seat of each deal. A deal's
    seats are one cluster: the interval comes from per-deal shares, not from seat rows.
    ``edge`` is the share above chance; ``skill`` scales it to 0 (pure chance) .. 1 (the
    strategy's seats win every deal).
    """
    n, p = win.shape
    rows = []
    for k, name in enumerate(names):
        seats_held = (codes == k).sum(axis=1)
        if not seats_held.any():
            continue
        share, half = mean_interval(held_share(win, codes, k)[seats_held > 0])
        best = 1 / seats_held.mean()
        rows.append({"strategy": name, "seats": float(seats_held.mean()), "win": share,
                     "win_ci": half, "chance": 1 / p, "edge": share - 1 / p,
                     "skill": (share - 1 / p) / (best - 1 / p) if best > 1 / p else float("nan")})
    return pl.DataFrame(rows).sort("win", descending=True)


def fmt_pct(share: float, half: float) -> str:
    """A share and its half-width as percentages, with as many decimals as the interval allows."""
    digits = max(1, min(3, -math.floor(math.log10(100 * half)))) if half > 0 else 1
    return f"{100 * share:.{digits}f}% ± {100 * half:.{digits}f}%"


def fmt_p(p_value: float) -> str:
    return "p < 0.001" if p_value < 0.001 else f"p = {p_value:.3f}"


def frame_cells(df: pl.DataFrame) -> tuple[list[str], list[list[str]]]:
    """A game's summary table as text cells: headers and rows. A value with ``low``/``high``
    columns becomes one cell with its interval; a row labelled ``mean`` is a mean, not a rate."""
    if "low" not in df.columns:
        return list(df.columns), [[f"{v:.3g}" if isinstance(v, float) else str(v) for v in row]
                                  for row in df.iter_rows()]
    labels = [c for c in df.columns if c not in ("n", "k", "deals", "low", "high")]
    value, count = labels[-1], "deals" if "deals" in df.columns else "n"
    rows = []
    for r in df.iter_rows(named=True):
        cells = [str(r[c]) for c in labels[:-1]] + [f"{r[count]:,}"]
        is_mean = str(r[labels[0]]) == "mean"
        cells.append(f"{r[value]:.3f} ({r['low']:.3f}–{r['high']:.3f})" if is_mean
                     else fmt_rate(r[value], r["low"], r["high"]))
        rows.append(cells)
    return labels[:-1] + [count, value], rows


def tally(game, seats: pl.DataFrame, matches: pl.DataFrame | None) -> pl.DataFrame:
    """Sums behind the headline shares of one chunk, for ``--precision``: per seat and per
    strategy, the win share (of matches when there are any) and each game rate, as
    ``figure, n, s1, s2`` (count, sum, sum of squares) so chunks add up."""
    outcome = matches if matches is not None else seats
    values = [outcome.select(pl.col("seat"), pl.col("strategy").cast(pl.String),
                             pl.lit("win share").alias("what"), pl.col("win").cast(pl.Float64).alias("x"))]
    values += [seats.select(pl.col("seat"), pl.col("strategy").cast(pl.String), pl.lit(f"{name} rate").alias("what"),
                            expr.cast(pl.Float64).alias("x")) for name, expr in game.rates.items()]
    rows = pl.concat(values)
    sums = [pl.len().alias("n"), pl.col("x").sum().alias("s1"), (pl.col("x") ** 2).sum().alias("s2")]
    by_seat = rows.group_by("what", "seat").agg(sums).select(
        pl.format("{} of seat {}", "what", "seat").alias("figure"), "n", "s1", "s2")
    by_strategy = rows.group_by("what", "strategy").agg(sums).select(
        pl.format("{} of {}", "what", "strategy").alias("figure"), "n", "s1", "s2")
    return pl.concat([by_seat, by_strategy])


def widest(tallies: list[pl.DataFrame]) -> tuple[float, str]:
    """The widest 95% half-width among the figures of ``tallies`` (added up), and its figure."""
    t = pl.concat(tallies).group_by("figure").agg(pl.col("n", "s1", "s2").sum())
    n = t["n"].to_numpy().astype(float)
    mean = t["s1"].to_numpy() / n
    var = np.maximum(t["s2"].to_numpy() / n - mean ** 2, 0) * n / np.maximum(n - 1, 1)
    half = mean_halfwidth(np.sqrt(var), n)
    i = int(np.argmax(half))
    return float(half[i]), t["figure"][i]
