"""The embedded dask cluster's fixed costs at the start and end of a command (issue 27; docs/speed.md,
"2026-11-27 night")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")
pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX sessions and process groups")

ROOT = Path(__file__).resolve().parents[1]

# the installed command's process, up to its options: argv as `simtool ...` gives it
AS_COMMAND = '''
import json, sys
play = sys.argv[3:] == ["play"]
sys.argv = [sys.argv[1] + "/bin/simtool", *json.loads(sys.argv[2])]
import simtool.cli as cli
from simtool.pipeline import cluster

early = cluster._early
print("@@", early[2].pid if early else 0, flush=True)
if play:
    taken = []
    init = cluster.Embedded.__init__

    def adopt(self, size):
        init(self, size)
        taken.append(self.zygote.pid)

    cluster.Embedded.__init__ = adopt
    code = cli.main(sys.argv[1:])
    print("@@", taken[0] if taken else 0, code, flush=True)
'''


def as_command(args: list[str], cwd: Path, play: bool = False) -> tuple[list[str], str]:
    """What AS_COMMAND printed (the zygote's pid as the options are read; then, where it plays
    the command, the pid of the zygote its cluster took and the exit status), and its stderr."""
    r = subprocess.run([sys.executable, "-c", AS_COMMAND, "/venv", json.dumps(args), *["play"] * play], cwd=cwd,
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr[-3000:]
    return [word for line in r.stdout.splitlines() if line.startswith("@@ ") for word in line.split()[1:]], r.stderr


def gone(pid: int, within: float = 5) -> bool:
    ends = time.monotonic() + within
    while True:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        if time.monotonic() >= ends:
            return False
        time.sleep(0.02)


def test_the_zygote_starts_with_the_command_and_the_cluster_takes_it(tmp_path):
    # before: the zygote started once the options were read and simtool's own imports done
    # (0.25-0.3 s here), and only then began its 0.6 s of imports; the workers joined that much later
    (early, taken, code), _ = as_command(["run", "--game", "black-white", "--n", "2000", "--seed", "3", "--jobs", "2",
                                          "--backend", "dask", "--out", str(tmp_path / "dask"), "-q"], tmp_path, True)
    assert int(early) > 0 and taken == early and code == "0"
    assert gone(int(early), 0)  # closed with the cluster, reaped
    # the local run is the tables' reference, not a command's start: played in this process
    from simtool.cli import main

    assert main(["run", "--game", "black-white", "--n", "2000", "--seed", "3", "--jobs", "2", "--out",
                 str(tmp_path / "local"), "-q"]) == 0
    assert (tmp_path / "dask" / "seats.parquet").read_bytes() == (tmp_path / "local" / "seats.parquet").read_bytes()


@pytest.mark.parametrize("args", [["run", "--backend", "local"], ["run"], ["run", "--backend", "dask", "--scheduler",
                                                                           "tcp://127.0.0.1:9"],
                                  ["run", "--backend=dask", "--scheduler=tcp://127.0.0.1:9"], ["run", "--out", "dask"]])
def test_no_zygote_where_the_command_line_asks_for_no_embedded_cluster(tmp_path, args):
    assert as_command(args, tmp_path)[0] == ["0"]


def test_a_refused_command_ends_the_zygote_started_for_it(tmp_path):
    # --n 0 is refused after the zygote began: one line, exit status 2, and the zygote ended,
    # not left importing
    (early, _, code), err = as_command(["run", "--n", "0", "--backend", "dask", "--out", str(tmp_path / "r")],
                                       tmp_path, True)
    assert int(early) > 0 and code == "2" and gone(int(early), 0)
    assert len(err.strip().splitlines()) == 1 and "--n" in err


def test_a_command_ending_kills_its_workers_and_leaves_the_scheduler_to_its_exit():
    # before: the client and the scheduler were closed first, telling every worker to close just
    # before it was killed (0.09 s after the results, 16 workers on 2 cores); now the workers are
    # killed and reaped at once, and the scheduler, a thread of a process about to end, ends with
    # it, or is closed at its exit should it go on
    from simtool.pipeline import cluster

    cluster.close_embedded()
    own = cluster.embedded(2)
    try:
        own.client.wait_for_workers(2, timeout=60)
        pids = [own.zygote.pid, *own.pids()]
        cluster.close_embedded(exiting=True)
        assert all(gone(pid, 0) for pid in pids)
        assert own.scheduler.status.name == "running" and cluster.current() is own
    finally:
        cluster.close_embedded()
    assert cluster.current() is None and own.scheduler.status.name == "closed" and own.life is None


class _Done:
    """A task already played, as a dask future says it."""

    def __init__(self, value):
        self.value = value

    def done(self) -> bool:
        return True

    def result(self):
        return self.value

    def add_done_callback(self, callback) -> None:
        callback(self)


class _Client:
    """A cluster of ``threads`` single-threaded workers that plays each task at once, noting its size."""

    def __init__(self, threads: int):
        self.threads, self.sizes = threads, []

    def nthreads(self) -> dict:
        return {f"tcp://127.0.0.1:{port}": 1 for port in range(self.threads)}

    def submit(self, task, fn, group, pure=True):
        self.sizes.append(len(group))
        return _Done(task(fn, group))

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("count", "threads"), [(306, 16), (3052, 16), (31, 2), (306, 2)])
def test_the_last_tasks_shrink_to_one_chunk_so_that_the_workers_end_together(monkeypatch, count, threads):
    # before: tasks of four chunks to the end (1e7 Black & White deals, 16 workers: 77 tasks of
    # four, a worker still holding one queued behind the one it played while others had nothing
    # left); now they shrink in the last rounds, down to one chunk (docs/speed.md)
    from simtool.pipeline import cluster

    client = _Client(threads)
    monkeypatch.setattr(cluster, "dask_client", lambda address: client)
    played = list(cluster.play(lambda x: x * x, range(count), threads, "tcp://127.0.0.1:1", count,
                               lambda item: True))
    assert played == [(x, x * x) for x in range(count)]  # each once, in order
    full = min(cluster.BATCH, count // (cluster.SPREAD * threads))
    assert client.sizes[0] == full and client.sizes == sorted(client.sizes, reverse=True)
    assert client.sizes[-2 * threads:] == [1] * 2 * threads and sum(client.sizes) == count
    # the full size while every worker thread has TAPER tasks of it left
    kept = (count - cluster.TAPER * threads * full) // full
    assert client.sizes[:kept] == [full] * kept


def test_a_worker_leaves_what_it_inherited_from_the_zygote_out_of_its_garbage_collections():
    # before: each worker's first full collection walked the zygote's 85,000 objects and wrote to
    # every page holding one, copying it from the zygote: 55 ms of CPU and 18 MiB a worker
    import gc

    from simtool.pipeline import cluster

    cluster.close_embedded()
    own = cluster.embedded(2)
    try:
        own.client.wait_for_workers(2, timeout=60)
        counts = own.client.run(lambda: (gc.get_freeze_count(), len(gc.get_objects())))
    finally:
        cluster.close_embedded()
    assert len(counts) == 2 and all(frozen > 20_000 and frozen > 4 * tracked for frozen, tracked in counts.values())


BEFORE_TYPER = '''
import subprocess, sys
sys.argv = ["/venv/bin/simtool", "run", "--backend", "dask"]
seen = []
popen = subprocess.Popen.__init__

def spawned(self, *args, **kwargs):
    seen.append("typer" in sys.modules)
    popen(self, *args, **kwargs)

subprocess.Popen.__init__ = spawned
import simtool.cli
from simtool.pipeline import cluster

cluster.close_embedded()
print(seen)
'''


def test_the_zygote_starts_before_the_command_line_library_is_imported(tmp_path):
    # before: typer's import (35-70 ms) came first, then the zygote's start
    r = subprocess.run([sys.executable, "-c", BEFORE_TYPER], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.stdout.strip() == "[False]", (r.stdout, r.stderr[-2000:])
