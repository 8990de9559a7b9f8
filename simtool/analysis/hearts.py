"""Hearts: who takes the penalty cards, how often the moon is shot, and how long matches run."""

import polars as pl

from .. import stats
from . import Analysis
from .lengths import to_the_end

HEARTS = "mean hearts taken"


def tables(seats: pl.LazyFrame, keys: list[str], matches=None, rules=None) -> list[tuple[str, pl.DataFrame]]:
    """Penalty cards by seat and by strategy, the share of hands with a moon, and match lengths."""
    rules = rules or {}
    taken = {HEARTS: pl.col("hearts"), "takes the queen of spades": pl.col("queen") > 0,
             "shoots the moon": pl.col("moon") > 0}
    if rules.get("jack") == "on":
        taken["takes the jack of diamonds"] = pl.col("jack") > 0
    # one strategy at every seat: its pooled figures are the rules' (13/p hearts, 1/p of the
    # queen and the jack), not its play's, so only the seats' table says something
    strategies = seats.select(pl.col("strategy").n_unique()).collect().item()
    # a seat takes none to all 13 hearts of a hand
    out = [(f"Penalty cards by {by}", stats.cut(stats.wide(stats.estimates(seats, taken, [by], {HEARTS}), [by]),
                                                HEARTS, 0, 13))
           for by in ("seat", "strategy")[:1 if strategies == 1 else 2]]
    # a hand's moon, over its one row of seat 0: one seat at most takes every penalty card, so its
    # seats' moons add up to the hand's, read in the seat rows as they come (grouping the rows by
    # hand first held every hand: 886 MiB for the printed tables of 1e7 deals)
    # n: the hands with a moon, out of every hand (a count of all hands beside the label read as
    # that many moons)
    hand = {"a seat takes every penalty card": (pl.col("moon") > 0, pl.col("seat") == 0)}
    moon = stats.estimates(seats, hand).select(
        pl.col("figure").alias("hands"), pl.col("k").cast(pl.Int64).alias("n"),
        pl.col("n").cast(pl.Int64).alias("out_of"), pl.col("value").alias("share"),
        pl.col("low").alias("share_low"), pl.col("high").alias("share_high"))
    out.append(("Hands with a moon", moon))
    if "match" in keys:
        out.append((f"Hands until someone has {rules.get('goal', 100)} points (the matches that got there)",
                    to_the_end(seats, matches, "hands")))
    return out


ANALYSIS = Analysis(rates={"moon": pl.col("moon") > 0, "queen": pl.col("queen") > 0},
                    rate_text={"moon": "shoots the moon (takes every penalty card)",
                               "queen": "takes the queen of spades"}, risks=("queen",), shared=("queen",),
                    tables=tables)
