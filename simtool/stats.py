"""Intervals and the per-seat summary of a run."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

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
