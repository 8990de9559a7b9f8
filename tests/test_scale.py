"""Scale out: a real dask.distributed cluster on 127.0.0.1, lost workers, and resumable runs."""

from __future__ import annotations

import json
import os
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
from simtool.pipeline import cluster

from .conftest import SMALL, smaller_chunks

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

BIN = Path(sys.executable).parent
runner = CliRunner()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


QUIET = {
    # the tests' own cluster, as the embedded one: no statistical profiler (a stack sample every
    # 10 ms), the event loop's health looked at once a second, not every 20 ms, and the machine's
    # load every 2 s: an idle scheduler and worker then burn a fifth of the CPU they did
    "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
    "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
    "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "2s",
}


@pytest.fixture(scope="class")
def remote(tmp_path_factory):
    """A scheduler (in this process, reached over TCP as any other: a `dask scheduler` process
    took two seconds of CPU to start) and two single-threaded worker processes (no nanny: a
    killed worker stays dead), shared by the tests of a class. At its end the workers are killed,
    not waited for, and then the scheduler, left without workers, closed: closing a dask cluster
    politely took 2 to 17 s per test, and an idle one kept burning CPU to the end of the module."""
    import logging

    import dask
    from dask.distributed import Client, LocalCluster

    log = open(tmp_path_factory.mktemp("cluster") / "cluster.log", "w")
    env = dict(os.environ, **QUIET)
    with dask.config.set(cluster.IDLE):  # QUIET's for a scheduler, as the embedded one has them
        scheduler = LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                                 silence_logs=logging.CRITICAL,
                                 scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})
    address, procs = scheduler.scheduler_address, []
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(
                [BIN / "dask", "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                 "--host", "127.0.0.1", "--death-timeout", "60"], stdout=log, stderr=log, env=env))
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address, procs
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
        scheduler.close(timeout=5)
        log.close()


@pytest.fixture(scope="class")
def embedded():
    """The tests' embedded cluster (``--backend dask`` without a scheduler, ``--jobs 2``): started by
    the first of them, reused by the others, and killed at the end of their class (not left idle,
    burning CPU, to the end of the module)."""
    yield
    cluster.close_embedded()


class TestARunningCluster:
    """On the tests' own cluster (``--scheduler``), started for this class alone."""

    def test_a_dask_cluster_gives_the_local_result(self, remote, tmp_path, small_chunks):
        address, _ = remote
        for unit, n in (("deal", "5000"), ("match", "1250")):  # three chunks, two chunks
            out = tmp_path / unit
            r = runner.invoke(app, ["run", "--game", "kansas-city", "--n", n, "--seed", "3", "--unit", unit,
                                    "--backend", "dask", "--scheduler", address, "--out", str(out), "-q"])
            assert r.exit_code == 0, r.output
            local = simtool.run("kansas-city", n=int(n), seed=3, unit=unit, strategy="target", jobs=1)
            assert pl.read_parquet(out / "seats.parquet").equals(local.seats)
            if unit == "match":
                assert pl.read_parquet(out / "matches.parquet").equals(local.matches)
            assert json.loads((out / "run.json").read_text())["backend"] == "dask"

    def test_a_sweep_and_a_precision_run_on_the_cluster_give_the_local_results(self, remote, tmp_path, monkeypatch):
        address, _ = remote
        monkeypatch.setenv("SIMTOOL_SCHEDULER", address)  # the variable, not --scheduler
        grid = ["-g", "kansas-city", "-r", "pass_count=3,2", "-l", "greedy,target", "--rotate",
                "--n", "2500", "--seed", "5", "-q"]  # two chunks a run
        for backend in ("dask", "local"):
            with smaller_chunks():
                r = runner.invoke(app, ["sweep", *grid, "--backend", backend, "--runs", str(tmp_path / backend),
                                        "-o", str(tmp_path / f"{backend}.html")])
            assert r.exit_code == 0, r.output
        cells = sorted(p.name for p in (tmp_path / "local").iterdir() if p.is_dir())
        assert len(cells) == 2 and cells == sorted(p.name for p in (tmp_path / "dask").iterdir() if p.is_dir())
        for cell in cells:
            assert pl.read_parquet(tmp_path / "dask" / cell / "seats.parquet").equals(
                pl.read_parquet(tmp_path / "local" / cell / "seats.parquet"))
        for backend in ("dask", "local"):  # 3392 deals: it stops within the second chunk
            with smaller_chunks():
                r = runner.invoke(app, ["run", "-g", "black-white", "--precision", "0.016", "--seed", "6", "-q",
                                        "--backend", backend, "--out", str(tmp_path / f"precise-{backend}")])
            assert r.exit_code == 0, r.output
        meta = [json.loads((tmp_path / f"precise-{b}" / "run.json").read_text()) for b in ("dask", "local")]
        assert meta[0]["n"] == meta[1]["n"] > 2048 and meta[0]["precision_reached"] == meta[1]["precision_reached"]


@pytest.fixture(scope="module")
def unbroken():
    """The seats of the 400,000 random Black & White deals of seed 21 played in one go: what the
    killed-and-resumed runs below must give (played once for both)."""
    return simtool.run("black-white", n=400_000, seed=21, strategy="random", jobs=2).seats


def test_resume_after_a_killed_run_gives_the_uninterrupted_result(tmp_path, unbroken):
    out = tmp_path / "run"
    proc = subprocess.Popen([BIN / "simtool", "run", "--n", "4e5", "--seed", "21", "--strategy", "random",
                             "--jobs", "1", "--out", str(out), "-q"], stdout=subprocess.DEVNULL)
    deadline = time.time() + 300  # seconds on an idle machine: only a hang waits this long
    # a chunk is finished once its checksums are written, after its tables: a kill between the two
    # leaves a table that is rightly played again
    while len(list((out / "chunks").glob("sums-*.json"))) < 3 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=60) == -signal.SIGKILL  # killed mid-run, not ended on its own
    assert not (out / "seats.parquet").exists() and not (out / "run.json").exists()
    done_before = len(list((out / "chunks").glob("sums-*.json")))

    r = runner.invoke(app, ["run", "--out", str(out), "-q"])  # not without --resume
    assert r.exit_code == 2 and "holds an interrupted run" in r.stderr and "--resume" in r.stderr
    r = runner.invoke(app, ["run", "--resume", str(out), "--jobs", "2", "-q"])
    assert r.exit_code == 0, r.output
    meta = json.loads((out / "run.json").read_text())
    assert 3 <= meta["resumed_chunks"] == done_before < 13  # 13 chunks of 32768 deals
    assert pl.read_parquet(out / "seats.parquet").equals(unbroken)


@pytest.mark.parametrize("args,needle", [
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the dask scheduler"),
    (["--backend", "spark"], "unknown backend 'spark'; valid: local, dask"),
])
def test_cluster_input_errors(tmp_path, args, needle, monkeypatch):
    monkeypatch.setattr(cluster, "SCHEDULER_WAIT", 0.5)  # a refused connection is retried that long
    r = runner.invoke(app, ["run", "--n", "100", "--out", str(tmp_path / "x"), *args])
    assert r.exit_code == 2 and needle in r.stderr and "\n" not in r.stderr.strip(), r.output
    assert not (tmp_path / "x" / "run.json").exists()


def test_nothing_to_resume(tmp_path):
    r = runner.invoke(app, ["run", "--resume", str(tmp_path)])
    assert r.exit_code == 2 and "nothing to resume" in r.stderr


# ---- the embedded cluster: --backend dask without --scheduler ------------------------------------

def same_files(a: Path, b: Path) -> list[Path]:
    """Every table under ``a`` is under ``b`` too, byte for byte, and no other."""
    tables = sorted(p.relative_to(a) for p in a.rglob("*.parquet"))
    assert tables and tables == sorted(p.relative_to(b) for p in b.rglob("*.parquet"))
    for name in tables:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    return tables


@pytest.fixture
def ladder_without_search(monkeypatch):
    """A ladder's default rungs without the search rungs: its plumbing, at heuristic speed."""
    from simtool.commands import ladder

    monkeypatch.setattr(ladder, "PIMC_SAMPLES", ())


EVERY_COMMAND = {  # each command that takes --backend, at the least work that plays a few runs (restrict
    # without its optional report: a page made afterwards from the very tables compared here, as
    # reports play no game, and five sixths of the command's CPU; sweep and ladder always write one)
    "sweep": ["sweep", "-g", "kansas-city", "-r", "pass_count=3,2", "--n", "3000", "--seed", "5",
              "--runs", "{out}", "-o", "{out}.html"],
    "ladder": ["ladder", "-g", "kansas-city", "--n", "2000", "--seed", "11", "--runs", "{out}",
               "-o", "{out}.html"],
    "restrict": ["restrict", "-g", "kansas-city", "--strategy", "greedy", "--n", "2000", "--seed", "4",
                 "--out", "{out}"],
    "tune": ["tune", "--game", "kansas-city", "--vary", "pass_count", "--objective", "seat_spread",
             "--n", "500", "--trials", "2", "--seed", "3", "--out", "{out}"],
}


class TestTheEmbeddedCluster:
    """On one embedded cluster of two workers, started by the first of these tests and stopped after
    the last."""

    @pytest.mark.parametrize("unit,n", [("deal", "4375"), ("match", "187")])
    def test_the_embedded_cluster_writes_the_local_tables_byte_for_byte(self, embedded, small_chunks, tmp_path,
                                                                         unit, n):
        running = cluster.current().size if cluster.current() is not None else None  # from another test
        for backend in ("dask", "local"):
            r = runner.invoke(app, ["run", "-g", "kansas-city", "--n", n, "--seed", "3", "--unit", unit,
                                    "--jobs", "2", "--backend", backend, "--out", str(tmp_path / backend), "-q"])
            assert r.exit_code == 0, r.output
        names = same_files(tmp_path / "dask", tmp_path / "local")
        assert {p.name for p in names} == {"seats.parquet"} | ({"matches.parquet"} if unit == "match" else set())
        assert json.loads((tmp_path / "dask" / "run.json").read_text())["backend"] == "dask"
        # --jobs 2 starts 2 workers for the 3 chunks of 4375 deals; the one chunk of 187 matches needs
        # one, and a cluster of 1 or 2 already running (tests run in any order) is kept for it
        assert cluster.current().size == (2 if unit == "deal" else running if running in (1, 2) else 1)

    @pytest.mark.parametrize("command", EVERY_COMMAND)
    def test_every_command_plays_on_the_embedded_cluster_as_on_this_machine(self, embedded, ladder_without_search,
                                                                           tmp_path, command):
        for backend in ("dask", "local"):
            args = [a.replace("{out}", str(tmp_path / backend)) for a in EVERY_COMMAND[command]]
            r = runner.invoke(app, [*args, "--jobs", "2", "--backend", backend, "-q"])
            assert r.exit_code == 0, r.output
        assert len(same_files(tmp_path / "dask", tmp_path / "local")) >= 2

    def test_a_review_plays_every_run_on_the_embedded_cluster(self, embedded, tmp_path):
        """Each run plays as on this machine (the tests above); a review, the slowest command, is
        played once, to see that every run of it went to the cluster (Black & White: its one search
        deal a third of Kansas City's CPU, and two restrictions to play)."""
        from simtool.commands import review

        sizes = review.Sizes(deals=512, matches=16, restrictions=256, duplicate=16, search=1, random=256)
        review.review("black-white", tmp_path, seed=2, jobs=2, sizes=sizes, backend="dask")
        backends = [json.loads(p.read_text())["backend"] for p in tmp_path.rglob("run.json")]
        assert len(backends) >= 4 and set(backends) == {"dask"}

    def test_the_embedded_workers_write_their_own_chunk_files(self, embedded, small_chunks, tmp_path, monkeypatch):
        """They share this machine's disk, so the tables neither travel to this process nor are
        written by it (docs/speed.md), also into a folder named relative to where this process is
        now, a folder the workers, started elsewhere, find all the same."""
        from simtool.pipeline import runner as runs

        def not_here(*args, **kwargs):
            raise AssertionError("a chunk file written by the simtool process")

        local = tmp_path / "local"
        assert runner.invoke(app, ["run", "-g", "kansas-city", "--n", "4375", "--seed", "3", "--jobs", "2",
                                   "--out", str(local), "-q"]).exit_code == 0
        monkeypatch.setattr(runs, "write_chunk", not_here)
        # the workers start here, before the move: started by the run after it (this test alone),
        # they worked in tmp_path, and a folder relative to this process was theirs too
        cluster.embedded(2)
        monkeypatch.chdir(tmp_path)
        r = runner.invoke(app, ["run", "-g", "kansas-city", "--n", "4375", "--seed", "3", "--jobs", "2",
                                "--backend", "dask", "--out", "dask", "-q"])
        assert r.exit_code == 0, r.output
        assert [p.name for p in same_files(tmp_path / "dask", local)] == ["seats.parquet"]

    def test_the_scheduler_in_this_process_runs_no_statistical_profiler(self):
        """A stack sample every 10 ms, in the process every worker waits on (dask starts it on
        Python 3.12 and later, with the setting on)."""
        import dask

        with dask.config.set(cluster.IDLE):
            assert dask.config.get("distributed.worker.profile.enabled") is False

    def test_a_worker_killed_mid_run_is_replaced_and_each_chunk_counted_once(self, embedded, small_chunks):
        n, killed, seen = 300_000 // SMALL, [], []  # ten chunks

        def kill_one(done, total):
            seen.append((done, total))
            if done == 1 and not killed:
                killed.append(cluster.current().pids()[0])
                os.kill(killed[0], signal.SIGKILL)

        r = simtool.run("black-white", n=n, seed=11, strategy="balance", backend="dask", jobs=2, progress=kill_one)
        local = simtool.run("black-white", n=n, seed=11, strategy="balance", jobs=1)
        chunks = -(-n // r.spec.chunk)
        assert killed and seen[-1] == (chunks, chunks) > (1, chunks)  # killed with chunks still to play
        assert killed[0] not in cluster.current().pids() and cluster.current().restarts == 1
        assert r.seats.height == n * 3 and r.seats["deal"].n_unique() == n
        assert (r.seats["deal"] // r.spec.chunk).n_unique() == chunks
        assert r.seats.equals(local.seats)


def simtool_with_workers(args: list[str], until=lambda: False) -> tuple[subprocess.Popen, set[int], str]:
    """Run the simtool command, collecting the pids of the dask workers it starts, until it ends or
    ``until()``; then Ctrl-C it (SIGINT, as a terminal sends) and let it end."""
    import psutil

    proc = subprocess.Popen([BIN / "simtool", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    workers: set[int] = set()
    deadline = time.time() + 120
    while proc.poll() is None and not until() and time.time() < deadline:
        try:  # forked by the zygote, the one child of simtool's started as simtool.pipeline.daskworker
            workers.update(w.pid for c in psutil.Process(proc.pid).children()
                           if "simtool.pipeline.daskworker" in c.cmdline() for w in c.children())
        except psutil.Error:  # ended, or a child ended, while looked at
            pass
        time.sleep(0.02)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc, workers, err


def test_ctrl_c_and_the_end_of_a_command_leave_no_dask_worker_behind(tmp_path, unbroken):
    import psutil

    out, n = tmp_path / "run", 400_000  # 13 chunks: stopped after 2
    proc, workers, err = simtool_with_workers(
        ["run", "--n", str(n), "--seed", "21", "--strategy", "random", "--jobs", "2", "--backend", "dask",
         "--out", str(out), "-q"], until=lambda: len(list((out / "chunks").glob("sums-*.json"))) >= 2)
    assert proc.returncode == 130 and "interrupted" in err and "--resume" in err, err
    assert len(workers) == 2 and not any(map(psutil.pid_exists, workers))
    assert not (out / "run.json").exists()

    proc, workers, err = simtool_with_workers(["run", "--resume", str(out), "--backend", "dask", "--jobs", "2", "-q"])
    assert proc.returncode == 0, err
    assert len(workers) == 2 and not any(map(psutil.pid_exists, workers))
    assert json.loads((out / "run.json").read_text())["resumed_chunks"] >= 2
    assert n == 400_000 and pl.read_parquet(out / "seats.parquet").equals(unbroken)


def test_embedded_workers_that_cannot_start_are_one_line(tmp_path, monkeypatch):
    cluster.close_embedded()
    monkeypatch.setattr(cluster, "worker_command", lambda address, name: [address, "--no-dask-worker-here"])
    r = runner.invoke(app, ["run", "--n", "1000", "--backend", "dask", "--jobs", "2", "--out", str(tmp_path / "r"),
                            "-q"])
    assert r.exit_code == 2 and "\n" not in r.stderr.strip(), r.output
    assert "dask workers of --backend dask cannot start" in r.stderr and "--no-dask-worker-here" in r.stderr
    assert cluster.current() is None and not (tmp_path / "r" / "run.json").exists()


def test_the_embedded_scheduler_takes_another_port_when_its_own_was_taken_meanwhile(monkeypatch):
    # its port is picked free as the workers start, and bound a second later: another process
    # (any connection's own port) may take it between the two, and the cluster failed to start
    taken = [socket.create_server(("127.0.0.1", 0)) for _ in range(cluster.PORT_TRIES)]
    ports = [s.getsockname()[1] for s in taken]
    picks, pick = iter(ports[:1]), cluster._free_port
    monkeypatch.setattr(cluster, "_free_port", lambda: next(picks, None) or pick())
    started, start = [], cluster.Embedded._start

    def recorded(self):
        start(self)
        started.append(self.procs[-1])

    monkeypatch.setattr(cluster.Embedded, "_start", recorded)
    try:
        own = cluster.Embedded(1)
        try:
            assert own.address != f"tcp://127.0.0.1:{ports[0]}"
            assert own.scheduler.scheduler_address == own.address and own.procs == started[1:]
            # it waited at the lost port, or its zygote was stopped before it was forked
            assert started[0].returncode == -signal.SIGKILL or started[0].pid is None
            assert own.client.wait_for_workers(1, timeout=60) is None and own.pids() == [started[1].pid]
        finally:
            own.close()
        picks, started[:] = iter(ports), []  # taken every time: one line, every worker killed
        monkeypatch.setattr(cluster, "_free_port", lambda: next(picks))
        with pytest.raises(cluster.SimtoolError, match="scheduler of --backend dask cannot start on this machine: "
                                                        ".*in use"):
            cluster.Embedded(1)
        assert len(started) == cluster.PORT_TRIES
        assert all(p.returncode == -signal.SIGKILL or p.pid is None for p in started)
    finally:
        for s in taken:
            s.close()


def test_a_dask_worker_sends_the_bytes_of_the_chunk_files_a_local_run_writes(tmp_path):
    from simtool.pipeline import runner as runners

    spec = runners.make_spec("kansas-city", n=3000, seed=3, unit="match")
    task = runners.Task(spec, 0, tmp_path, keep=False)
    chunk, encoded = runners._play_task(task)
    assert chunk.seats is None and sorted(encoded) == ["matches", "seats"]
    runners.play_task(task)  # as a local worker writes them
    for name, data in encoded.items():
        assert (tmp_path / f"{name}-000000.parquet").read_bytes() == data
