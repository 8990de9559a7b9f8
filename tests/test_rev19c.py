"""Review of the merge of runend (6e00dc0): a printed run's tables summed by the workers."""

import dataclasses

import polars as pl
import pytest

from simtool.analysis.black_white import ANALYSIS
from simtool.commands.run import execute_run, summary_tables
from simtool.pipeline.folders import load
from simtool.pipeline.runner import make_spec


def test_a_rate_polars_cannot_evaluate_keeps_the_run_and_fails_at_its_tables(tmp_path, monkeypatch):
    # a designer's rate that polars refuses once it reads the rows (a number compared with text):
    # before the merge the run was written and its tables failed; the workers' sums then failed
    # the chunk, and the whole run played was thrown away
    from simtool.errors import SimtoolError

    monkeypatch.setitem(ANALYSIS.rates, "nil", pl.col("tricks") == "nil")
    spec = dataclasses.replace(make_spec("black-white", None, 301, None, None, seed=3), chunk=64)
    result = execute_run(spec, 1, tmp_path / "r", False, None, keep=False, summed=True)
    assert (tmp_path / "r" / "run.json").exists() and result.meta["n"] == 301
    assert all(v is None for v in result.summed.values())
    meta, seats, matches = load(result.path)
    with pytest.raises(SimtoolError, match="cannot compare string"):
        summary_tables(meta, seats, matches, result.summed)


def test_a_rate_the_game_cannot_read_keeps_the_run_and_is_said_in_one_line_at_its_tables(tmp_path, monkeypatch):
    # a rate naming a column the game never returns: simtool.analysis.of refuses it in one line
    # "after the run is written"; the workers' sums asked for it in the first chunk, and the run
    # played was thrown away
    from simtool.errors import SimtoolError

    monkeypatch.setitem(ANALYSIS.rates, "ghost", pl.col("ghost") > 0)
    spec = dataclasses.replace(make_spec("black-white", None, 301, None, None, seed=3), chunk=64)
    for jobs in (1, 2):
        result = execute_run(spec, jobs, tmp_path / f"r{jobs}", False, None, keep=False, summed=True)
        assert (tmp_path / f"r{jobs}" / "run.json").exists() and result.meta["n"] == 301
        meta, seats, matches = load(result.path)
        with pytest.raises(SimtoolError, match="ghost"):
            summary_tables(meta, seats, matches, result.summed)


def test_a_rate_polars_cannot_compute_is_one_line_naming_it(tmp_path, monkeypatch):
    # polars' ComputeError, several lines of traceback under the printed run (and a report, a review)
    from simtool.errors import SimtoolError

    monkeypatch.setitem(ANALYSIS.rates, "nil", pl.col("tricks") == "nil")
    spec = dataclasses.replace(make_spec("black-white", None, 301, None, None, seed=3), chunk=64)
    result = execute_run(spec, 1, tmp_path / "r", False, None, keep=False, summed=True)
    meta, seats, matches = load(result.path)
    with pytest.raises(SimtoolError, match=r"rate 'nil' that cannot be computed on its results: cannot compare string"):
        summary_tables(meta, seats, matches, result.summed)
