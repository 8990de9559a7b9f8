"""Trickster: how points spread (lower is better) and how often a seat shoots the moon."""

import polars as pl

from . import Analysis


def tables(seats: pl.LazyFrame, keys: list[str], matches=None, rules=None) -> list[tuple[str, pl.DataFrame]]:
    """How points spread: quantiles per seat and per strategy (lower is better)."""
    qs = (0.1, 0.25, 0.5, 0.75, 0.9)
    aggs = [pl.col("score").min().alias("min"),
            *[pl.col("score").quantile(q, "nearest").alias(f"p{int(q * 100)}") for q in qs],
            pl.col("score").max().alias("max")]
    by_seat = seats.group_by("seat").agg(aggs).sort("seat").collect(engine="streaming")
    by_strategy = seats.group_by("strategy").agg(aggs).sort("strategy").collect(engine="streaming")
    return [("Points per round by seat (lower is better): quantiles", by_seat),
            ("Points per round by strategy (lower is better): quantiles", by_strategy)]


ANALYSIS = Analysis(rates={"moon": pl.col("moon") > 0},
                    rate_text={"moon": "shoots the moon in at least one suit"}, tables=tables)
