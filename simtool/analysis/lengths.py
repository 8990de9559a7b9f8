"""How long the matches that reached a game's end last: a match stopped at the round cap (or
by another guard) never got there, so its rounds are no rounds to the end."""

import polars as pl

from .. import stats
from ..games import ROUND_CAP


def to_the_end(seats: pl.LazyFrame, matches: pl.LazyFrame | None, what: str,
               stopped: tuple[str, ...] = ()) -> pl.DataFrame:
    """:func:`stats.length_table` (``what``: rounds, hands) of the matches that ended by the
    game's own end: not ``capped``, nor stopped by any of the ``stopped`` match columns. Beside
    it ``matches`` (all played), ``got there`` and ``capped at 200 <what>`` (how many the cap
    stopped); only these where no match got there. Without the match rows no match can be told
    apart: every match is counted."""
    if matches is None:
        return _within(stats.length_table(seats, what))
    matches = matches.lazy()
    copies = [c for c in ("match", "rotation") if c in matches.collect_schema().names()]
    ends = matches.group_by(copies).agg(pl.col("capped").any(), *[pl.col(c).any() for c in stopped])
    ends = ends.with_columns(pl.any_horizontal("capped", *stopped).not_().alias("got there")).collect()
    kept = ends.filter("got there").select(copies)
    counts = pl.DataFrame({"matches": [ends.height], "got there": [kept.height],
                           f"capped at {ROUND_CAP} {what}": [int(ends["capped"].sum())]})
    if not kept.height:  # no match got there: no length to tell, only how many were stopped
        return counts
    table = _within(stats.length_table(seats.lazy().join(kept.lazy(), on=copies, how="semi"), what))
    return pl.concat([counts, table.drop("matches")], how="horizontal")


def _within(table: pl.DataFrame) -> pl.DataFrame:
    """A match lasts a round at least and stops at the cap: 2 Nine Lives matches read "40 ± 388"
    rounds to the end."""
    return stats.cut(table, "mean", 1, ROUND_CAP)
