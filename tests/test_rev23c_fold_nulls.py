"""A printed run whose game has a rate null in some rows: the main process adds up the chunks'
sums as polars does, passing over a null (review of mem23's stats.Folded, 2026-11-28)."""

import dataclasses

import polars as pl
from polars.testing import assert_frame_equal

from simtool import games, stats
from simtool.analysis import black_white
from simtool.analysis.summary import summary_sums
from simtool.commands import run as run_command
from simtool.pipeline import executor
from simtool.pipeline.executor import Cell, Plan
from simtool.pipeline.runner import execute, make_spec


def test_a_rate_null_in_a_whole_group_is_folded_as_added_sums_add_it(monkeypatch, tmp_path):
    # seat 0's rows only: its largest and least values are null for seats 1 and 2 in every chunk
    # (polars' road: numpy's refuses a null); before, the second chunk ended the run in a TypeError.
    # Values 0 and 0.5: a rate of numbers is a share within 0 to 1 (a count / 2 is now refused)
    monkeypatch.setitem(black_white.ANALYSIS.rates, "half",
                        pl.when(pl.col("seat") == 0).then((pl.col("black") > 0).cast(pl.Float64) / 2))
    spec = dataclasses.replace(make_spec("black-white", 3, 300, None, None, seed=4), chunk=64)
    plan = Plan("run", (Cell(spec, tmp_path / "r"),), reuse=False)
    (done,) = executor.execute(plan, jobs=1, summed=run_command.summary_sums)
    chunks = [summary_sums(games.get("black-white"), c.seats, None, None) for c in execute(spec, 1, keep=True)]
    assert spec.n_chunks == 5 and chunks[0]["seats", ("seat", "strategy")][0]["Bk4"].null_count() == 2
    for key, (wide, count, modes) in done.summed[0].items():
        added = stats.added_sums([c[key] for c in chunks], key[1])
        keys = [*key[1], "stratum", "block"]
        assert modes == added[2]
        assert_frame_equal(wide.sort(keys), added[0].sort(keys), check_exact=True)
        assert_frame_equal(count.sort(keys[-2:]), added[1].sort(keys[-2:]), check_exact=True)
