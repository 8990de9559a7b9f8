"""Whether a game's rates can be read as shares on a run's seat rows: one line naming a rate that
cannot, where polars' traceback (or the rate's own) ended a run, a report or a review. Apart from
:mod:`simtool.analysis.summary`, which holds the statistics: a ``--quiet`` run checks its rates
without loading them."""

from __future__ import annotations

import polars as pl

from simtool.analysis import of as analysis_of
from simtool.errors import describe, null_on, rate_error


def check_rates(game, seats: pl.LazyFrame) -> None:
    """Refuse in one line a rate of the game that has no share on ``seats`` (:func:`computable`),
    as the printed summary of a run does: a run with ``--quiet`` exited 0 where the printed one
    exited 2, the report refusing it later."""
    computable(game, seats, nulls=True)


def computable(game, seats: pl.LazyFrame, nulls: bool = False) -> list[str]:
    """The game's rates null on every row of ``seats``, which have no share (:func:`seat_summary`
    prints them n/a; a boolean rate reads every row for it only with ``nulls``); one line naming
    a rate of the game that polars cannot compute on its rows (a number compared with text,
    ``pl.col('tricks') == 'nil'``): it ended the printed run, a report or a review in polars'
    traceback, after the run was written. Asked of the rows' types (a rate of
    text casts to a number on no rows, and ended in that traceback on the rows), and of a rate of
    numbers, its values: a share of rows, 0 to 1 (``pl.col('score') * 1000`` was printed as
    ``25500.0% (100.0–100.0)``)."""
    empty, unvalued = seats.head(0), []
    for name, rate in analysis_of(game).rates.items():
        try:
            problem = _rate_problem(name, rate, seats, empty, nulls, unvalued)
        except MemoryError:  # the machine's limit, not the rate's
            raise
        except pl.exceptions.PolarsError as exc:
            problem = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        except Exception as exc:  # noqa: BLE001 - the rate's own Python code (map_batches) raising
            # on some rows only, too: one raising from deal 70,000 on passed the check of its type
            # (on no rows) and ended the run in its traceback, every finished chunk taken back
            problem = describe(exc)
        if problem is None:
            continue
        raise rate_error(game.id, name, problem)
    return unvalued


def _rate_problem(name: str, rate: pl.Expr, seats: pl.LazyFrame, empty: pl.LazyFrame, nulls: bool,
                  unvalued: list[str]) -> str | None:
    """Why the rate ``name`` has no share on ``seats`` (see :func:`computable`), else ``None``;
    ``name`` is added to ``unvalued`` where it is null on every row."""
    kind = empty.select(rate.alias("rate")).collect().dtypes[0]
    # a null row added nothing to a share's count and one to its rows: a rate null where the
    # score is 0 was printed as a share of every row, its nulls read as "no"
    if kind == pl.Boolean:
        # counted in a column of its own: a literal rate is one value, on every row
        null, rows = (seats.with_columns(rate.alias(" rate")).select(pl.col(" rate").null_count(), pl.len())
                      .collect(engine="streaming").row(0)) if nulls else (0, 1)
        if null == rows:  # no row, or null on every row
            unvalued.append(name)
        return null_on(null, rows) if 0 < null < rows else None
    if not kind.is_numeric():
        return f"its values are {kind}"
    # polars' least and largest values pass over NaN: a rate NaN on some rows was a share
    nan = rate.is_nan().sum() if kind.is_float() else pl.lit(0)
    low, high, nans, null, rows = seats.with_columns(rate.alias(" rate")).select(
        rate.min().alias("low"), rate.max().alias("high"), nan.alias("nan"),
        pl.col(" rate").null_count().alias("null"), pl.len().alias("rows")).collect().row(0)
    if low is None:  # no row, or null on every row
        unvalued.append(name)
    if nans:
        return f"its values hold NaN on {nans:,} rows, and NaN is not a share"
    if nulls and 0 < null < rows:
        return null_on(null, rows)
    if (low is None or low >= 0) and (high is None or high <= 1):
        return None
    return f"its values run from {low} to {high}, not within 0 to 1"

