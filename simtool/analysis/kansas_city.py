"""Kansas City: how many players go over the trick limit in a deal."""

import polars as pl

from .. import stats
from ..games.kansas_city import GAME, limit_of
from . import Analysis


def tables(seats: pl.LazyFrame, keys: list[str], matches=None, rules=None) -> list[tuple[str, pl.DataFrame]]:
    """The overshoot analysis: how many players overshoot per deal, and who."""
    per_deal = seats.group_by(keys).agg(
        (pl.col("overshoot") > 0).sum().alias("overshooting"), pl.len().alias("p")
    ).collect(engine="streaming")
    p = int(per_deal["p"][0])
    spread = stats.count_distribution(per_deal, "overshooting", range(p + 1))
    mean = stats.estimates(per_deal, {"mean": pl.col("overshooting")}, means={"mean"})
    mean = mean.select(pl.col("figure").alias("overshooting"), pl.col("n").cast(pl.Int64),
                       pl.col("value").alias("share"), pl.col("low").alias("share_low"),
                       pl.col("high").alias("share_high"))
    spread = pl.concat([spread.with_columns(pl.col("overshooting").cast(pl.String)), mean])
    rules = {o.name: o.default for o in GAME.options} | (rules or {})  # a run of older options
    return [(f"Players over the trick limit of {limit_of(rules, p)}, per deal", spread)]


ANALYSIS = Analysis(rates={"overshoot": pl.col("overshoot") > 0},
                    rate_text={"overshoot": "goes over the trick limit"}, risks=("overshoot",),
                    tables=tables)
