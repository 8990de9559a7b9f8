"""rev19e: review of readthru2's merge, the NaN sums, the computable rates and Strategy's games."""

import numpy as np
import polars as pl
import pytest

from simtool import stats


def _rows(nan: bool = True) -> pl.DataFrame:
    rng = np.random.default_rng(1)
    n = 20_000
    f = rng.random(n)
    if nan:
        f[5] = np.nan
    return pl.DataFrame({"deal": np.arange(n), "seat": np.zeros(n, np.int8),
                         "big": rng.integers(10**6, 10**6 + 10**5, n).astype(np.int32),
                         "neg": rng.random(n) * 6e6 - 3e6, "f": f})


def test_a_nan_figure_leaves_the_others_checked_exact():
    # whole numbers whose squares pass 2**53, and signed floats: the sums are checked and summed
    # again exactly; beside a NaN figure they were left in their first, inexact modes
    rows = _rows()
    figures = {"big": pl.col("big"), "neg": pl.col("neg")}
    alone = stats.estimates(rows, figures, means=set(figures)).sort("figure")
    beside = stats.estimates(rows, {**figures, "nan": pl.col("f")}, means={*figures, "nan"})
    beside = beside.filter(pl.col("figure") != "nan").sort("figure")
    assert alone.equals(beside)
    assert np.isnan(stats.estimates(rows, {"nan": pl.col("f")}, means={"nan"})["value"][0])


def test_a_figure_too_large_for_fixed_point_is_summed_as_floats():
    # |value| * 2**32 past an Int128: the fallback found no NaN there and ended in polars' error
    rows = _rows(nan=False)
    got = stats.estimates(rows, {"big": pl.col("big"), "huge": pl.col("f") * 1e30},
                          means={"big", "huge"}).sort("figure")
    assert got["value"][1] == pytest.approx(rows["f"].mean() * 1e30, rel=1e-9)
    exact = stats.estimates(rows, {"big": pl.col("big")}, means={"big"})
    assert got.filter(pl.col("figure") == "big").equals(exact)



@pytest.mark.parametrize("rate", [pl.col("tricks").cast(pl.String) + "x", pl.col("tricks").cast(pl.String),
                                  pl.col("tricks").cast(pl.Date)])
def test_a_rate_of_text_is_one_line_naming_it(tmp_path, monkeypatch, rate):
    # text casts to a number on no rows (head(0)): the check passed it, and the summary ended in
    # polars' InvalidOperationError ("conversion from str to i128 failed"), or summed "5" as 5
    import dataclasses

    from simtool.analysis.black_white import ANALYSIS
    from simtool.commands.run import execute_run, summary_tables
    from simtool.errors import SimtoolError
    from simtool.pipeline.folders import load
    from simtool.pipeline.runner import make_spec

    monkeypatch.setitem(ANALYSIS.rates, "nil", rate)
    spec = dataclasses.replace(make_spec("black-white", None, 301, None, None, seed=3), chunk=64)
    result = execute_run(spec, 1, tmp_path / "r", False, None, keep=False, summed=True)
    meta, seats, matches = load(result.path)
    with pytest.raises(SimtoolError, match=r"rate 'nil' that cannot be computed on its results: its values are"):
        summary_tables(meta, seats, matches, result.summed)


@pytest.mark.parametrize("rate", [pl.col("tricks") == "nil", pl.col("tricks").cast(pl.String) + "x"])
def test_a_rate_polars_cannot_compute_is_one_line_in_a_precision_run(tmp_path, monkeypatch, rate):
    # --precision sums the rates of every chunk as it is played, before any summary: polars'
    # ComputeError (InvalidOperationError) from the tally ended the run in its traceback
    import dataclasses

    from simtool.analysis.black_white import ANALYSIS
    from simtool.commands.run import execute_run
    from simtool.errors import SimtoolError
    from simtool.pipeline.runner import make_spec

    monkeypatch.setitem(ANALYSIS.rates, "nil", rate)
    spec = dataclasses.replace(make_spec("black-white", None, 3000, None, None, seed=3, precision=0.05), chunk=64)
    with pytest.raises(SimtoolError, match=r"rate 'nil' that cannot be computed on its results"):
        execute_run(spec, 1, tmp_path / "r", False, None, keep=False, summed=True)
