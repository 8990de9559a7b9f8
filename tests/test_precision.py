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
