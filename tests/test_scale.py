"""Scale out: a real dask.distributed cluster on 127.0.0.1, lost workers, and resumable runs."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import simtool
from simtool.cli import app

BIN = Path(sys.executable).parent
runner = CliRunner()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two single-threaded workers (no nanny: a killed worker stays dead)."""
    from dask.distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    log = open(tmp_path / "cluster.log", "w")
    procs = [subprocess.Popen([BIN / "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], stdout=log, stderr=log)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(
                [BIN / "dask", "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                 "--host", "127.0.0.1", "--death-timeout", "60"], stdout=log, stderr=log))
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address, procs[1:]
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
        log.close()


def test_a_dask_cluster_gives_the_local_result(cluster, tmp_path):
    address, _ = cluster
    for unit, n in (("deal", "80000"), ("match", "20000")):
        out = tmp_path / unit
        r = runner.invoke(app, ["run", "--game", "kansas-city", "--n", n, "--seed", "3", "--unit", unit,
                                "--backend", "dask", "--scheduler", address, "--out", str(out), "-q"])
        assert r.exit_code == 0, r.output
        local = simtool.run("kansas-city", n=int(n), seed=3, unit=unit, strategy="target", jobs=1)
        assert pl.read_parquet(out / "seats.parquet").equals(local.seats)
        if unit == "match":
            assert pl.read_parquet(out / "matches.parquet").equals(local.matches)
        assert json.loads((out / "run.json").read_text())["backend"] == "dask"


def test_a_sweep_and_a_precision_run_on_the_cluster_give_the_local_results(cluster, tmp_path, monkeypatch):
    address, _ = cluster
    monkeypatch.setenv("SIMTOOL_SCHEDULER", address)  # the variable, not --scheduler
    grid = ["-g", "kansas-city", "-r", "pass_count=3,2", "-l", "greedy,target", "--rotate",
            "--n", "40000", "--seed", "5", "-q"]
    for backend in ("dask", "local"):
        r = runner.invoke(app, ["sweep", *grid, "--backend", backend, "--runs", str(tmp_path / backend),
                                "-o", str(tmp_path / f"{backend}.html")])
        assert r.exit_code == 0, r.output
    cells = sorted(p.name for p in (tmp_path / "local").iterdir() if p.is_dir())
    assert len(cells) == 2 and cells == sorted(p.name for p in (tmp_path / "dask").iterdir() if p.is_dir())
    for cell in cells:
        assert pl.read_parquet(tmp_path / "dask" / cell / "seats.parquet").equals(
            pl.read_parquet(tmp_path / "local" / cell / "seats.parquet"))
    for backend in ("dask", "local"):
        r = runner.invoke(app, ["run", "-g", "black-white", "--precision", "0.004", "--seed", "6", "-q",
                                "--backend", backend, "--out", str(tmp_path / f"precise-{backend}")])
        assert r.exit_code == 0, r.output
    meta = [json.loads((tmp_path / f"precise-{b}" / "run.json").read_text()) for b in ("dask", "local")]
    assert meta[0]["n"] == meta[1]["n"] > 32768 and meta[0]["precision_reached"] == meta[1]["precision_reached"]


def test_a_worker_lost_mid_run_is_retried_and_nothing_counts_twice(cluster):
    address, workers = cluster
    killed = []

    def kill_one(done, total):
        if done == 1 and not killed:
            workers[0].send_signal(signal.SIGKILL)
            killed.append(done)

    r = simtool.run("black-white", n=200_000, seed=11, strategy="balance", backend="dask",
                    scheduler=address, progress=kill_one)
    assert killed and workers[0].wait(timeout=10) == -signal.SIGKILL
    local = simtool.run("black-white", n=200_000, seed=11, strategy="balance", jobs=1)
    assert r.seats.equals(local.seats)
    assert r.seats["deal"].n_unique() == 200_000


def test_resume_after_a_killed_run_gives_the_uninterrupted_result(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([BIN / "simtool", "run", "--n", "1e6", "--seed", "21", "--strategy", "random",
                             "--jobs", "1", "--out", str(out), "-q"], stdout=subprocess.DEVNULL)
    deadline = time.time() + 60
    while len(list((out / "chunks").glob("seats-*.parquet"))) < 3 and time.time() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert not (out / "seats.parquet").exists() and not (out / "run.json").exists()
    done_before = len(list((out / "chunks").glob("seats-*.parquet")))

    r = runner.invoke(app, ["run", "--out", str(out), "-q"])  # not without --resume
    assert r.exit_code == 2 and "holds an interrupted run" in r.stderr and "--resume" in r.stderr
    r = runner.invoke(app, ["run", "--resume", str(out), "--jobs", "2", "-q"])
    assert r.exit_code == 0, r.output
    meta = json.loads((out / "run.json").read_text())
    assert 3 <= meta["resumed_chunks"] == done_before < 31
    full = simtool.run("black-white", n=1_000_000, seed=21, strategy="random", jobs=2)
    assert pl.read_parquet(out / "seats.parquet").equals(full.seats)


@pytest.mark.parametrize("args,needle", [
    (["--backend", "dask"], "--backend dask needs --scheduler"),
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the dask scheduler"),
    (["--backend", "spark"], "unknown backend 'spark'; valid: local, dask"),
])
def test_cluster_input_errors(tmp_path, args, needle):
    r = runner.invoke(app, ["run", "--n", "100", "--out", str(tmp_path / "x"), *args])
    assert r.exit_code == 2 and needle in r.stderr and "\n" not in r.stderr.strip(), r.output
    assert not (tmp_path / "x" / "run.json").exists()


def test_nothing_to_resume(tmp_path):
    r = runner.invoke(app, ["run", "--resume", str(tmp_path)])
    assert r.exit_code == 2 and "nothing to resume" in r.stderr
