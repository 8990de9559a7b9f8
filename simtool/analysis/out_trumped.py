"""Out-Trumped: how the trump bonus and penalty spread, and how long matches run."""

import polars as pl

from .. import stats
from ..games.out_trumped import GOAL
from . import Analysis


def tables(seats: pl.LazyFrame, keys: list[str], matches=None, rules=None) -> list[tuple[str, pl.DataFrame]]:
    """The trump bonus distribution (every seat-hand), and hands per match when known."""
    unit = stats.unit_key(seats)
    rows = seats.select(unit, pl.col("bonus").clip(-6, 12))
    spread = stats.count_distribution(rows, "bonus", range(-6, 13))
    spread = spread.with_columns(pl.col("bonus").cast(pl.String)
                                 .replace({"-6": "-6 or less", "12": "12 or more"}))
    out = [("Trump bonus or penalty per hand (seat-hands)", spread.filter(pl.col("n") > 0))]
    if "match" in keys:
        out.append((f"Hands to reach {(rules or {}).get('goal', GOAL)}", stats.length_table(seats, "hands")))
    return out


ANALYSIS = Analysis(rates={"out-trumped": pl.col("bonus") < 0},
                    rate_text={"out-trumped": "is out-trumped (a negative trump bonus)"},
                    risks=("out-trumped",), tables=tables)
