"""The statistics of a run are the same bytes whatever threads, chunks or row order polars sums
them in, and whatever --jobs played the run: every sum behind an estimate is exact, rounded to a
float once (stats._wide_sums). Polars' parallel float sums were not: the same rows gave intervals
differing in their last bits from one call, or one POLARS_MAX_THREADS, to the next (review.json's
seat intervals of an Out-Trumped match review changed between two identical runs)."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

import simtool
from simtool import games, stats
from simtool.analysis import summary


def matches(units: int, rounds: int = 3, p: int = 4, seed: int = 0) -> pl.DataFrame:
    """Seat rows of whole matches, ``rounds`` rounds each, the win of a round split between tied
    leaders as the engine does (float32 1/2, 1/3, 1/4): sums of squares of such shares need more
    bits than a float holds, so the order of a float sum shows in its last bits."""
    rng = np.random.default_rng(seed)
    score = rng.integers(0, 12, (units * rounds, p))
    lead = score == score.max(axis=1, keepdims=True)
    win = (lead / lead.sum(axis=1, keepdims=True)).astype(np.float32)
    return pl.DataFrame({"match": np.repeat(np.arange(units), rounds * p),
                         "round": np.tile(np.repeat(np.arange(rounds), p), units).astype(np.int16),
                         "seat": np.tile(np.arange(p, dtype=np.int8), units * rounds),
                         "score": score.ravel().astype(np.int16),
                         "tricks": rng.integers(0, 9, score.size).astype(np.int8),
                         "win": win.ravel()})


FIGURES = {"win": pl.col("win"), "score": pl.col("score"), "below": pl.col("score") < 3,
           "win per trick": (pl.col("win"), pl.col("tricks"))}


def exact_sums(rows: pl.DataFrame, k: pl.Expr, m: pl.Expr, strata: int | None = None) -> dict:
    """K, M, KK, KM, MM per seat and stratum, summed as fractions (no rounding) over each match's
    k and m, and rounded to a float once."""
    units = rows.group_by("seat", "match").agg(k.cast(pl.Float64).sum().alias("k"), m.cast(pl.Float64).sum().alias("m"))
    out = {}
    for seat, match, k_, m_ in units.iter_rows():
        key = (seat, match % strata if strata else 0)
        k_, m_ = Fraction(k_), Fraction(m_)
        sums = out.setdefault(key, [Fraction(0)] * 5)
        for i, v in enumerate((k_, m_, k_ * k_, k_ * m_, m_ * m_)):
            sums[i] += v
    return {key: [float(v) for v in sums] for key, sums in out.items()}


@pytest.mark.parametrize("strata", [None, 3])
def test_every_sum_is_the_exact_sum_rounded_once(strata):
    # the old float sums were off in the last bits of every seat's sum of squared win shares
    rows = matches(400)
    sums, _ = stats.unit_sums(rows.lazy(), {"win": pl.col("win"), "per trick": (pl.col("win"), pl.col("tricks"))},
                              ["seat"], strata)
    for figure, m in (("win", pl.col("seat").is_not_null()), ("per trick", pl.col("tricks"))):  # m: rows, or tricks
        exact = exact_sums(rows, pl.col("win"), m, strata)
        got = {(r["seat"], r["stratum"]): [r[s] for s in ("K", "M", "KK", "KM", "MM")]
               for r in sums.filter(pl.col("figure") == figure).iter_rows(named=True)}
        assert got == exact, figure


def test_whole_numbers_past_a_floats_53_bits_are_still_summed_exactly():
    # squares of 2**27 + 1 (2**54 + 2**28 + 1) are no float: such a figure is summed in Int128
    rows = pl.DataFrame({"deal": np.arange(300), "seat": np.zeros(300, np.int8),
                         "x": (2**27 + np.arange(300) % 7).astype(np.int64)})
    sums, _ = stats.unit_sums(rows.lazy(), {"x": pl.col("x")}, ["seat"])
    x, row = [int(v) for v in rows["x"]], sums.row(0, named=True)
    assert row["K"] == float(sum(x)) and row["KK"] == float(sum(v * v for v in x))
    # integers and counts stay exact as they were: the counts, the mean score
    e = stats.estimates(matches(50).lazy(), FIGURES, ["seat"], {"score"}).filter(pl.col("figure") == "below")
    rows = matches(50)
    below = [rows.filter((pl.col("seat") == s) & (pl.col("score") < 3)).height for s in range(4)]
    assert e["k"].to_list() == [float(b) for b in below]


def test_a_float_figure_too_large_for_its_fixed_point_is_summed_coarser_and_still_the_same_every_time():
    # 2**30 per unit at 2**-32 would pass an Int128 in the sum of squares: fewer binary places
    rows = pl.DataFrame({"deal": np.arange(2000), "x": np.linspace(2.0**30, 2.0**31, 2000) + 0.1})
    first = stats.estimates(rows.lazy(), {"x": pl.col("x")}, means={"x"})
    again = stats.estimates(rows[np.random.default_rng(0).permutation(2000)].lazy(), {"x": pl.col("x")}, means={"x"})
    assert first.equals(again)
    assert first["value"][0] == pytest.approx(float(sum(Fraction(v) for v in rows["x"]) / 2000), rel=1e-15)


@pytest.mark.parametrize("signs", [[1, -1, 1, -1], [1, 1, 1, 1]])
def test_a_float_figure_whose_rows_add_up_past_a_floats_53_bits_within_a_match_is_summed_coarser(signs):
    # rows near 2**21 in 2**-32 pass 2**53 added up within a match (with the signs mixed, even where
    # the match's sum is small): a float sum of them would round, in the order of the rows
    x = np.tile(signs, 500) * (2.0**21 + np.random.default_rng(2).random(2000))
    rows = pl.DataFrame({"match": np.repeat(np.arange(50), 40), "seat": np.zeros(2000, np.int8), "x": x})
    first, *again = (stats.estimates(rows[order].lazy(), {"x": pl.col("x")}, ["seat"], means={"x"})
                     for order in (np.arange(2000), np.arange(2000)[::-1], np.random.default_rng(0).permutation(2000)))
    assert all(first.equals(other) for other in again)
    assert first["k"][0] == pytest.approx(float(sum(Fraction(v) for v in x)), rel=1e-6)


def test_a_figure_holding_nan_gives_nan_not_an_error():
    rows = pl.DataFrame({"deal": np.arange(10), "x": [1.0, float("nan")] * 5})
    assert np.isnan(stats.estimates(rows.lazy(), {"x": pl.col("x")})["value"][0])


def test_row_order_and_chunks_do_not_change_any_byte():
    rows = matches(2000)
    base = stats.estimates(rows.lazy(), FIGURES, ["seat"], {"score"}).write_csv()
    shuffled = rows[np.random.default_rng(1).permutation(rows.height)]
    chunked = pl.concat([shuffled.slice(i, 997) for i in range(0, rows.height, 997)], rechunk=False)
    for frame in (shuffled, chunked, rows):
        assert stats.estimates(frame.lazy(), FIGURES, ["seat"], {"score"}).write_csv() == base


SCRIPT = """
import sys, polars as pl
from simtool import stats
from tests.test_deterministic_sums import FIGURES
rows = pl.scan_parquet(sys.argv[1])
sys.stdout.write(stats.estimates(rows, FIGURES, ["seat"], {"score"}).write_csv())
sys.stdout.write(stats.estimates(rows, FIGURES, [], {"score"}).write_csv())
"""


def test_any_number_of_polars_threads_gives_the_same_bytes(tmp_path):
    # the old sums of this table took 4 different values in 8 processes of 1 to 8 threads
    path = tmp_path / "seats.parquet"
    matches(2000).write_parquet(path, row_group_size=4096)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outs = {subprocess.run([sys.executable, "-c", SCRIPT, str(path)], capture_output=True, text=True, check=True,
                           cwd=root, env={**os.environ, "POLARS_MAX_THREADS": str(threads)}).stdout
            for threads in (1, 3)}
    rows = pl.scan_parquet(path)
    here = stats.estimates(rows, FIGURES, ["seat"], {"score"}).write_csv() + \
        stats.estimates(rows, FIGURES, [], {"score"}).write_csv()
    assert outs == {here}


def test_a_match_run_summarised_after_one_or_two_jobs_gives_the_same_bytes(tmp_path):
    # Out-Trumped matches split the win of a tie: float shares, the figures that once differed
    tables = []
    for jobs in (1, 2):
        r = simtool.run("out-trumped", n=400, unit="match", seed=11, jobs=jobs, out=tmp_path / f"j{jobs}")
        table = summary.seat_summary(games.get("out-trumped"), r.seats.lazy(), r.matches.lazy(), by=("seat",))
        tables.append(table.write_csv(float_precision=None) + table.write_json())
    assert tables[0] == tables[1]


def test_the_widest_share_is_named_the_same_whatever_order_the_tallies_came_in():
    # two groups of the very same sums: the tie once went to whichever polars summed first
    one = pl.DataFrame({"group": ["seat 0 (a)"], "figure": ["win share"], "stratum": [0], "block": [0],
                        "K": [3.0], "M": [10.0], "KK": [3.0], "KM": [3.0], "MM": [10.0], "C": [10.0]})
    two = one.with_columns(pl.lit("seat 1 (a)").alias("group"))
    units = pl.DataFrame({"stratum": [0], "block": [0], "N": [10.0]})
    names = {stats.widest([(pl.concat(order), units)], 0.01)[2] for order in ((one, two), (two, one))}
    assert names == {"win share of seat 0 (a)"}


def test_the_same_chart_gives_the_same_svg_bytes():
    """matplotlib names the SVG's clip paths and glyphs from a random salt unless one is set: the
    same report drawn twice differed in every id."""
    import matplotlib.pyplot as plt

    from simtool.reports import balance

    def drawn() -> str:
        fig, ax = plt.subplots()
        ax.bar(["seat 0", "seat 1"], [0.4, 0.6], yerr=[[0.05, 0.05], [0.05, 0.05]])
        try:
            return balance.svg(fig)
        finally:
            plt.close(fig)

    first = drawn()
    assert 'id="' in first and drawn() == first


def test_a_figure_holding_nan_leaves_the_other_figures_summed_exactly():
    """A designer's rate holding NaN in some rows had every figure summed as floats, the win
    share's too: its interval changed its last bits from one call (or thread count) to the next."""
    rows = matches(2000).with_columns(odd=pl.when(pl.col("match") % 97 == 0).then(float("nan")).otherwise(0.5))
    alone = stats.estimates(rows.lazy(), FIGURES, ["seat"], {"score"})
    beside = stats.estimates(rows.lazy(), {**FIGURES, "odd": pl.col("odd")}, ["seat"], {"score"})
    assert beside.filter(pl.col("figure") != "odd").equals(alone)
    assert beside.filter(pl.col("figure") == "odd")["value"].is_nan().all()
