"""Kansas City: how many players go over the trick limit in a deal."""

import polars as pl

from .. import stats
from ..games.kansas_city import GAME, limit_of
from . import Analysis


def tables(seats: pl.LazyFrame, keys: list[str], matches=None, rules=None) -> list[tuple[str, pl.DataFrame]]:
    """The overshoot analysis: how many players overshoot per deal, and who."""
    p = seats.lazy().select(pl.col("seat").max()).collect().item() + 1
    # each deal's count of seats over the limit, counted in batches of whole deals as the rows
    # come (grouping every deal at once held them all: 1.8 GB for the printed tables of 1e7 deals)
    over = [(pl.col("overshoot") > 0).sum().alias("overshooting")]
    counts = {str(v): pl.col("overshooting") == v for v in range(p + 1)} | {"mean": pl.col("overshooting")}
    long = stats.group_estimates(seats, keys, over, counts, means={"mean"})
    # n: the deals at each count, and for the mean every deal
    spread = long.select(pl.col("figure").alias("overshooting"),
                         pl.when(pl.col("figure") == "mean").then("n").otherwise("k").cast(pl.Int64).alias("n"),
                         pl.col("value").alias("share"), pl.col("low").alias("share_low"),
                         pl.col("high").alias("share_high"))
    spread = stats.cut(spread, "share", 0, p, pl.col("overshooting") == "mean")  # no fewer than none, no more than all
    rules = {o.name: o.default for o in GAME.options} | (rules or {})  # a run of older options
    return [(f"Players over the trick limit of {limit_of(rules, p)}, per deal", spread)]


ANALYSIS = Analysis(rates={"overshoot": pl.col("overshoot") > 0},
                    rate_text={"overshoot": "goes over the trick limit"}, risks=("overshoot",),
                    tables=tables)
