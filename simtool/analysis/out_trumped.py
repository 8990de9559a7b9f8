"""Out-Trumped: how the trump bonus and penalty spread, and how long matches run."""

import polars as pl

from .. import stats
from ..games.out_trumped import GOAL
from . import Analysis
from .lengths import to_the_end


def tables(seats: pl.LazyFrame, keys: list[str], matches=None, rules=None) -> list[tuple[str, pl.DataFrame]]:
    """The trump bonus distribution (every seat-hand), and hands per match when known."""
    unit = stats.unit_key(seats)
    rows = seats.select(unit, pl.col("bonus").clip(-6, 12))
    spread = stats.count_distribution(rows, "bonus", range(-6, 13))
    spread = spread.with_columns(pl.col("bonus").cast(pl.String)
                                 .replace({"-6": "-6 or less", "12": "12 or more"}))
    out = [("Trump bonus or penalty per hand (seat-hands)", spread.filter(pl.col("n") > 0))]
    if "match" in keys:
        out.append((f"Hands to reach {(rules or {}).get('goal', GOAL)} (the matches that got there)",
                    to_the_end(seats, matches, "hands")))
    return out


# out-trumped: the sheet's fewest trumps among those who took any, fewer than the most (the
# game's column), whatever the rule options make that cost; not a negative bonus, which a
# negative trump_bonus or sole_bonus also gives and penalty 0 never does
ANALYSIS = Analysis(rates={"out-trumped": pl.col("out_trumped"), "below-zero": pl.col("score") < 0},
                    rate_text={"out-trumped": "is out-trumped (took the fewest trumps, some but fewer than "
                                              "the most)",
                               # column score is the hand's points before the floor: in a single
                               # deal (a match's first hand, every total 0) the floor takes exactly
                               # these hands back to 0; later in a match, only where the total is short
                               "below-zero": "scores below zero in a hand (the trump penalty or a failed "
                                             "kitty bid beats its tricks; the floor at 0 takes it back from a "
                                             "total of 0)"},
                    risks=("out-trumped", "below-zero"), tables=tables)
