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


def test_b_tune_match_rounds_is_never_below_what_a_capped_match_already_played(tmp_path):
    # before: 5 and 7 rounds to the end and a match the 200-round cap stopped read 6 rounds, the
    # capped match dropped: a setting whose matches run on looked 6 rounds long, below even the
    # (5 + 7 + 200) / 3 = 70.7 they surely last
    import numpy as np

    from simtool.commands.tune import match_rounds
    from simtool.games import get

    from .test_hardening_leftovers2 import played_matches

    seats, matches = played_matches({0: (5, "reached"), 1: (7, "reached"), 2: (200, "capped")})
    value, low, high = match_rounds(get("out-trumped"), seats, matches, tmp_path)
    assert value == np.mean([5, 7, 200]) and low < value < high
    # a match the deck ran short for (Nine Lives) stopped there: not a length to the end, left out
    seats, matches = played_matches({0: (5, "reached"), 1: (7, "reached"), 2: (200, "capped"), 3: (71, "small")})
    assert match_rounds(get("nine-lives"), seats, matches, tmp_path)[0] == np.mean([5, 7, 200])
    seats, matches = played_matches({0: (5, "reached"), 1: (7, "reached"), 3: (71, "small")})
    assert match_rounds(get("nine-lives"), seats, matches, tmp_path)[0] == 6
