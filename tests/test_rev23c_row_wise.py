"""A chunk's sums in numpy only for figures each row of which reads that row alone: a rate of a
window, an aggregate or a constant is summed by polars, as the rows are at a run's end (review
of mem23's stats._numpy_sums, 2026-11-28)."""

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simtool import analysis, games, stats
from simtool.analysis.summary import summary_sums
from simtool.pipeline.runner import execute, make_spec

RATES = {"a deal's most tricks": ("black-white", pl.col("tricks") == pl.col("tricks").max().over("deal")),
         "above the mean": ("black-white", pl.col("tricks") > pl.col("tricks").mean()),
         "a constant": ("nine-lives", pl.lit(True))}


@pytest.mark.parametrize("name", RATES)
def test_a_rate_not_row_by_row_is_summed_as_polars_sums_it(name, monkeypatch):
    game, rate = RATES[name]
    monkeypatch.setitem(analysis.of(games.get(game)).rates, "odd", rate)
    spec = make_spec(game, None, 500, None, {0: "random"}, seed=3)
    (chunk,) = execute(spec, 1, keep=True)
    args = (games.get(game), chunk.seats, None, None)
    # before: a deal's most tricks pooled by strategy 0.897 / 0.089 where the rows give 1.0 / 0.58,
    # and the constant beside nine-lives' column figures a ValueError of numpy's bincount
    got = summary_sums(*args)
    monkeypatch.setattr(stats, "_numpy_sums", lambda *a: None)
    want = summary_sums(*args)
    for (kind, by), (wide, count, modes) in want.items():
        keys = [*by, "stratum", "block"]
        assert got[kind, by][2] == modes
        assert_frame_equal(got[kind, by][0].sort(keys), wide.sort(keys), check_exact=True)
        assert_frame_equal(got[kind, by][1].sort(keys[-2:]), count.sort(keys[-2:]), check_exact=True)


def test_the_games_rates_stay_on_numpys_road():
    for game in games.BUILT_IN:
        assert all(stats._row_wise(rate) for rate in analysis.of(game).rates.values()), game.id
