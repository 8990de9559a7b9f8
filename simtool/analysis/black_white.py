"""Black & White: how often a seat ends a deal balanced."""

import polars as pl

from . import Analysis

ANALYSIS = Analysis(rates={"balanced": pl.col("black") == pl.col("white")},
                    rate_text={"balanced": "ends a deal with as many black as white tricks"})
