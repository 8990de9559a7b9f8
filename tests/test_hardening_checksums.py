"""Tables changed by hand (valid parquet, same columns and rows, other values) are not taken as
played: chunk files carry a checksum written with them, checked on ``--resume``, and a finished
run's tables a checksum in its ``run.json``, checked before a plan keeps it. Each test failed on
the code before: the changed values went into the tables, and into every figure printed."""

from __future__ import annotations

import json

import polars as pl
import pytest

import simtool
from simtool.pipeline import executor

from .test_cli import cli
from .test_data_safety import N, interrupted_run

# N is five of the tests' small chunks: at a command's own chunk size the run is one chunk, is
# never stopped after its third, and every test here failed on "DID NOT RAISE KeyboardInterrupt"
pytestmark = pytest.mark.usefixtures("small_chunks", "charts_undrawn")  # no test here looks at a chart


def fresh_seats() -> pl.DataFrame:
    return simtool.run("black-white", n=N, seed=3, jobs=1, strategy="random").seats


def altered(table: pl.DataFrame) -> pl.DataFrame:
    """The same schema and rows, every score changed: reads whole, joins with the others."""
    return table.with_columns(pl.col("score") + 1)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_chunk_changed_by_hand_is_set_aside_and_played_again(tmp_path, jobs):
    out = tmp_path / "run"
    interrupted_run(out, 3)
    chunk = out / "chunks" / "seats-000001.parquet"
    altered(pl.read_parquet(chunk)).write_parquet(chunk, compression="zstd", compression_level=1,
                                                  statistics=False)
    r = cli("run", "--resume", out, "-q", "--jobs", jobs)
    assert r.exit_code == 0, r.output
    assert json.loads((out / "run.json").read_text())["resumed_chunks"] == 2
    assert pl.read_parquet(out / "seats.parquet").equals(fresh_seats())


def test_a_chunk_without_its_checksum_is_played_again(tmp_path):
    # a process killed after writing the tables and before their checksum: not known to be whole
    out = tmp_path / "run"
    interrupted_run(out, 3)
    (out / "chunks" / "sums-000002.json").unlink()
    r = cli("run", "--resume", out, "-q", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "run.json").read_text())["resumed_chunks"] == 2
    assert pl.read_parquet(out / "seats.parquet").equals(fresh_seats())


def test_an_unchanged_resume_keeps_every_chunk_and_the_same_bytes(tmp_path):
    out, whole = tmp_path / "run", tmp_path / "whole"
    interrupted_run(out, 3)
    assert cli("run", "--resume", out, "-q", "--jobs", "1").exit_code == 0
    meta = json.loads((out / "run.json").read_text())
    assert meta["resumed_chunks"] == 3
    simtool.run("black-white", n=N, seed=3, jobs=2, strategy="random", out=whole)
    assert (out / "seats.parquet").read_bytes() == (whole / "seats.parquet").read_bytes()
    assert meta["sha256"] == json.loads((whole / "run.json").read_text())["sha256"]


SWEEP = ["sweep", "-g", "black-white", "-l", "random", "-l", "high", "--n", "2000", "--seed", "5", "-j", "1", "-q"]


def test_a_kept_cell_whose_table_was_changed_is_played_again(tmp_path, monkeypatch):
    runs = tmp_path / "cells"
    assert cli(*SWEEP, "--runs", runs, "-o", tmp_path / "s.html").exit_code == 0
    tables = sorted(runs.rglob("seats.parquet"))
    assert len(tables) == 2
    before = {t: t.read_bytes() for t in tables}
    altered(pl.read_parquet(tables[0])).write_parquet(tables[0])
    real, played = executor.execute_tasks, []

    def counted(tasks, *args, **kw):
        tasks = list(tasks)
        played.extend(t.spec.lineup for t in tasks)
        return real(tasks, *args, **kw)

    monkeypatch.setattr(executor, "execute_tasks", counted)
    assert cli(*SWEEP, "--runs", runs, "-o", tmp_path / "s.html").exit_code == 0
    assert len(played) == 1  # the changed cell's one chunk, not the other cell's
    assert {t: t.read_bytes() for t in tables} == before
    played.clear()
    assert cli(*SWEEP, "--runs", runs, "-o", tmp_path / "s.html").exit_code == 0
    assert played == []  # both intact now: kept


def test_dask_workers_write_the_chunks_and_checksums_local_workers_write(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from simtool.commands.run import execute_run
    from simtool.pipeline import cluster, folders, runner

    spec = runner.make_spec("black-white", None, N, "random", {}, {}, "deal", 3)
    summed = []
    real = folders.checksum
    monkeypatch.setattr(folders, "checksum", lambda data: summed.append(1) or real(data))

    def stop(done, total):
        if done == 3:
            raise KeyboardInterrupt

    try:
        for backend in ("local", "dask"):
            summed.clear()
            with pytest.raises(KeyboardInterrupt):
                execute_run(spec, 2, tmp_path / backend, False, stop, keep=False, backend=backend)
    finally:
        cluster.close_embedded()
    assert summed == []  # a dask worker sums the bytes it encodes: this process only writes them
    local, dask = ({p.name: p.read_bytes() for p in (tmp_path / b / "chunks").glob("*-0*")}
                   for b in ("local", "dask"))
    both = local.keys() & dask.keys()
    assert sum(name.startswith("sums-") for name in both) >= 2
    assert all(local[name] == dask[name] for name in both)
