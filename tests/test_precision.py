"""--precision: chunks are added until the headline shares are known to the asked half-width."""

import json

import numpy as np
import polars as pl
import pytest

from simtool import report, stats

from .test_cli import cli, one_line_error

ARGS = ["run", "-g", "kansas-city", "--seed", "2", "-q", "--seat", "0=greedy", "-s", "target",
        "--rotate"]


def test_stops_once_every_headline_share_is_that_precise(tmp_path):
    r = cli(*ARGS, "--precision", "0.003", "-o", tmp_path / "a", "-j", "2")
    assert r.exit_code == 0, r.output
    meta = json.loads((tmp_path / "a" / "run.json").read_text())
    assert meta["n"] % 32768 == 0 and meta["n"] > 65536 and meta["precision_reached"] <= 0.003
    seats = pl.read_parquet(tmp_path / "a" / "seats.parquet")
    assert seats["deal"].n_unique() == meta["n"]
    # the recorded widest interval is what the rows say, and every other is narrower
    rows = seats.with_columns((pl.col("overshoot") > 0).cast(pl.Float64).alias("over"))
    halves = [stats.mean_interval(part[col])[1] for col in ("win", "over")
              for key in ("seat", "strategy") for _, part in rows.group_by(key)]
    assert np.isclose(max(halves), meta["precision_reached"])
    assert "the widest is ±" in report.render([tmp_path / "a"])


def test_same_stopping_point_whatever_the_jobs(tmp_path):
    for jobs in (1, 2):
        assert cli(*ARGS, "--precision", "0.004", "-o", tmp_path / f"j{jobs}", "-j", jobs).exit_code == 0
    one, two = (pl.read_parquet(tmp_path / f"j{j}" / "seats.parquet") for j in (1, 2))
    assert one.equals(two)


def test_the_cap_stops_a_run_that_cannot_get_there(tmp_path):
    r = cli(*ARGS, "--precision", "0.0001", "--n", "40000", "-o", tmp_path / "c")
    assert r.exit_code == 0
    meta = json.loads((tmp_path / "c" / "run.json").read_text())
    assert meta["n"] == 40000 and meta["precision_reached"] > 0.0001 and meta["precision_cap"] == 40000


@pytest.mark.parametrize("value", ["0", "-0.01", "0.5", "lots"])
def test_bad_precision(tmp_path, value):
    r = cli(*ARGS, "--precision", value, "-o", tmp_path / "x")
    assert r.exit_code == 2 and not (tmp_path / "x").exists()
    if value != "lots":
        one_line_error(r, f"bad precision {float(value)}")


def test_an_interrupted_precision_run_resumes_to_the_same_result(tmp_path):
    from simtool.api import execute_run
    from simtool.runner import make_spec

    spec = make_spec("black-white", 3, 10**8, "random", None, None, "deal", 4, False, 0.002)
    execute_run(spec, 1, tmp_path / "whole", False, None, keep=False)

    def stop_after_three(done, total):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute_run(spec, 1, tmp_path / "cut", False, stop_after_three, keep=False)
    assert not (tmp_path / "cut" / "run.json").exists()
    execute_run(None, 2, tmp_path / "cut", False, None, keep=False, resume=True)
    whole, cut = (json.loads((tmp_path / d / "run.json").read_text()) for d in ("whole", "cut"))
    assert cut["resumed_chunks"] == 3 and cut["n"] == whole["n"] > 3 * 32768
    assert pl.read_parquet(tmp_path / "cut" / "seats.parquet").equals(
        pl.read_parquet(tmp_path / "whole" / "seats.parquet"))
