"""Nine Lives: which bids are made, how teams fare, and how long matches run."""

import polars as pl

from .. import stats
from . import Analysis
from .lengths import to_the_end

STOPPED = ("small_deck",)
"""A match the deck ran short for ended before anyone had the lives to end it."""


def tables(seats: pl.LazyFrame, keys: list[str], matches=None, rules=None):
    """Made rate by bid, teams and their made rate, the Kittykeeper fallback, match lengths."""
    by_bid = stats.estimates(seats, {"made": pl.col("made")}, ["bid"]).sort("bid").select(
        "bid", pl.col("n").cast(pl.Int64), pl.col("value").alias("made"),
        pl.col("low").alias("made_low"), pl.col("high").alias("made_high"))
    # a team whose rule applies: every seat in one team plays as no team (the rules ignore it),
    # so it is no team here (at 2 players that was every team, counted as half the seat-rounds)
    players = seats.select(pl.col("seat").max()).collect().item() + 1
    team = (pl.col("team_size") >= 2) & (pl.col("team_size") < players)
    summary = stats.estimates(seats, {
        "seat-rounds in a team": team,
        "team members who scored": (team & pl.col("made"), team),
        "tricks won by the Kittykeeper fallback": (pl.col("fallback"), pl.col("tricks")),
    }).select(pl.col("figure").alias("what"), pl.col("k").cast(pl.Int64).alias("n"),  # what the label names
              pl.col("n").cast(pl.Int64).alias("out_of"), pl.col("value").alias("rate"),
              pl.col("low").alias("rate_low"), pl.col("high").alias("rate_high")
              ).filter(pl.col("out_of") > 0)  # no team, no team members' rate
    out = [("Bids made, by bid", by_bid), ("Teams and the Kittykeeper fallback", summary)]
    if "match" in keys:
        lengths = to_the_end(seats, matches, "rounds", STOPPED)
        if matches is not None:
            small = stats.estimates(matches.filter(pl.col("seat") == 0), {"small": pl.col("small_deck")})
            lengths = lengths.with_columns(pl.Series("ended by the small deck", small["value"]),
                                           pl.Series("ended by the small deck_low", small["low"]),
                                           pl.Series("ended by the small deck_high", small["high"]))
        lives = (rules or {}).get("lives_to_end", 9)
        out.append((f"Rounds until someone has {lives} lives (the matches that got there)", lengths))
    return out


ANALYSIS = Analysis(rates={"made": pl.col("made")},
                    rate_text={"made": "scores its bid (exact or as a team)"}, stopped=STOPPED,
                    tables=tables)
