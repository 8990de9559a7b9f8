"""Final review of the figures: cases whose answer is known by hand."""

import polars as pl

from simtool.stats import unit_sums


def _sums(frame: pl.DataFrame, figures) -> dict:
    long, _ = unit_sums(frame.lazy(), figures)
    return long.row(0, named=True)


def test_a_ratio_figures_small_m_is_not_rounded_by_its_huge_k():
    # 4 deals of 4 rows (no seat grouping: units summed from rows); k floats near 2**50, so the
    # float sums must drop bits of k, never of m: m is 1 or 2 per row, 6 per deal
    frame = pl.DataFrame({"deal": [d for d in range(4) for _ in range(4)], "seat": [0, 1, 2, 3] * 4,
                          "k": [2.0 ** 50, -(2.0 ** 49), 3.0, 0.5] * 4, "m": [1, 2, 1, 2] * 4},
                         schema_overrides={"m": pl.Int32})
    row = _sums(frame, {"x": (pl.col("k"), pl.col("m"))})
    assert (row["M"], row["MM"], row["C"]) == (24.0, 144.0, 4)  # 4 deals of m = 6
    per_deal = 2.0 ** 50 - 2.0 ** 49 + 3.5
    assert row["K"] == 4 * per_deal and row["KM"] == 4 * 6 * per_deal
