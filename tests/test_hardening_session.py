"""Hostile use of this session's features: chunk files a user or another program changed, pimc's
new parameters given nonsense. Each test failed on the code before its fix."""

from __future__ import annotations

import json

import polars as pl
import pytest

import simtool

from .test_cli import cli
from .test_data_safety import N, interrupted_run


@pytest.mark.parametrize("change", [
    lambda t: t.with_columns(pl.col("score").cast(pl.Int64)),  # another writer's types
    lambda t: t.drop(t.columns[-1]),  # a column less
])
def test_a_chunk_of_another_schema_is_played_again(tmp_path, change, small_chunks):
    # it reads whole with the right rows, yet cannot be joined: before, the resume failed with
    # polars' "data type mismatch ... hint: pass cast_options" and the work was stuck
    out = tmp_path / "run"
    interrupted_run(out, 3)
    chunk = out / "chunks" / "seats-000001.parquet"
    change(pl.read_parquet(chunk)).write_parquet(chunk)
    r = cli("run", "--resume", out, "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "run.json").read_text())["resumed_chunks"] == 2
    whole = simtool.run("black-white", n=N, seed=3, jobs=1, strategy="random")
    assert pl.read_parquet(out / "seats.parquet").equals(whole.seats)


@pytest.mark.parametrize("param", ["own", "playout"])
def test_a_search_is_refused_as_a_play_out_policy(tmp_path, param):
    # before: accepted, and pimc in pimc's play-outs took 60 to 90 times pimc's time (Hearts)
    r = cli("run", "-g", "hearts", "-n", "20", "--seat", f"0=pimc@{param}=pimc", "-q", "-o", tmp_path / "run")
    assert r.exit_code == 2, r.output
    line = r.output.strip()
    assert "\n" not in line
    assert f"bad parameter {param} 'pimc'" in line and "is a search itself" in line
    assert "ducker" in line and "pimc" not in line.split("choose one of:")[1]


def test_a_heuristic_play_out_policy_still_plays(tmp_path):
    r = cli("run", "-g", "hearts", "-n", "20", "--seat", "0=pimc@own=ducker", "--seed", "1", "-q", "--jobs", "1",
            "-o", tmp_path / "run")
    assert r.exit_code == 0, r.output


def test_the_embedded_cluster_has_no_more_workers_than_chunks():
    # before: --jobs 100000 --backend dask started 100000 worker processes for a single chunk
    from simtool.pipeline import cluster

    try:
        r = simtool.run("black-white", n=500, seed=4, strategy="random", backend="dask", jobs=3)
        assert cluster.current().size == 1
        assert r.seats.equals(simtool.run("black-white", n=500, seed=4, strategy="random", jobs=1).seats)
    finally:
        cluster.close_embedded()


def test_strength_refuses_no_cores(tmp_path):
    # before: --jobs 0 ended in a ZeroDivisionError traceback (exit 1) from the time estimate
    from simtool.commands import strength
    from simtool.errors import SimtoolError

    with pytest.raises(SimtoolError, match="bad jobs 0; expected a whole number, 1 or more"):
        strength.measure(tmp_path / "runs", ["black-white"], n=100, jobs=0, say=lambda line: None)
    assert not (tmp_path / "runs").exists()
