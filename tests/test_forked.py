"""Forked workers: results and errors come back, a dead worker is named, the folder lock stays
with the process that took it."""

import dataclasses
import os
import time

import pytest

from simtool.errors import SimtoolError
from simtool.pipeline import runner
from simtool.pipeline.folders import FolderLock
from simtool.pipeline.forked import ForkPool, WorkerDied

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def square_and_pid(x):
    return x * x, os.getpid()


def refuse(x):
    raise SimtoolError(f"no {x}")


def sleep_then_pid(seconds):
    time.sleep(seconds)
    return os.getpid()


def test_results_come_back_in_order_from_another_process():
    pool = ForkPool(2)
    try:
        futures = [pool.submit(square_and_pid, x) for x in range(6)]
        got = [f.result(timeout=30) for f in futures]
    finally:
        pool.shutdown()
    assert [v for v, _ in got] == [x * x for x in range(6)]
    assert os.getpid() not in {pid for _, pid in got}


def test_an_exception_is_raised_here_and_the_worker_goes_on():
    pool = ForkPool(1)
    try:
        with pytest.raises(SimtoolError, match="no 7"):
            pool.submit(refuse, 7).result(timeout=30)
        assert pool.submit(square_and_pid, 3).result(timeout=30)[0] == 9
    finally:
        pool.shutdown()


def test_a_worker_that_ends_its_process_is_named_with_its_exit_code():
    pool = ForkPool(1)
    try:
        dead = pool.submit(os._exit, 3)
        later = pool.submit(square_and_pid, 2)  # owed by the same worker: fails too, never hangs
        for f in (dead, later):
            with pytest.raises(WorkerDied, match="exit code 3"):
                f.result(timeout=30)
    finally:
        pool.shutdown()


def test_kill_stops_a_busy_worker_at_once():
    pool = ForkPool(1)
    busy = pool.submit(sleep_then_pid, 60)
    start = time.perf_counter()
    pool.shutdown(kill=True)
    assert time.perf_counter() - start < 10
    with pytest.raises(WorkerDied, match="signal 9"):
        busy.result(timeout=1)


def wait_for_then_pid(gate):
    """Busy until ``gate`` exists (the test opens it once it has looked): a worker still playing,
    for as long as the test needs and no longer."""
    deadline = time.monotonic() + 30
    while not os.path.exists(gate) and time.monotonic() < deadline:
        time.sleep(0.005)
    return os.getpid()


def test_a_worker_does_not_keep_the_folder_lock(tmp_path):
    lock = FolderLock(tmp_path)
    gate = tmp_path / "gate"
    pool = ForkPool(1)
    try:
        pool.submit(square_and_pid, 1).result(timeout=30)  # the worker is up (past the fork)
        busy = pool.submit(wait_for_then_pid, gate)
        lock.release()  # as a run does when it ends (or the kernel, when it is killed)
        FolderLock(tmp_path).release()  # free at once, though the worker still plays
        assert not busy.done()
        gate.touch()
        busy.result(timeout=30)
    finally:
        pool.shutdown()


def test_spawned_workers_give_the_same_results_where_fork_is_not_used(monkeypatch):
    from simtool.pipeline import runner
    from simtool.pipeline.runner import execute, make_spec

    spec = make_spec("black-white", n=3 * (1 << 15) + 5, strategy="random", seed=5)
    forked = [c.seats for c in execute(spec, jobs=2)]
    monkeypatch.setattr(runner, "FORK", False)  # loky, as on macOS and Windows
    spawned = [c.seats for c in execute(spec, jobs=2)]
    alone = [c.seats for c in execute(spec, jobs=1)]
    assert all(a.equals(b) and a.equals(c) for a, b, c in zip(forked, spawned, alone, strict=True))


@pytest.mark.parametrize("fork", [True, False])
def test_a_plugin_that_ends_its_worker_is_named_either_way(monkeypatch, fork):
    from simtool.pipeline import runner
    from simtool.pipeline.runner import execute, make_spec

    from .test_hardening_cli import HOSTILE

    monkeypatch.setattr(runner, "FORK", fork)
    spec = make_spec("black-white", n=40_000, strategy="random", seats={1: f"{HOSTILE}:dies"}, seed=2)
    with pytest.raises(SimtoolError, match=r"a worker process ended without a word \(.*\) while "
                                           r"playing the plugin strategies .*hostile.py:dies"):
        list(execute(spec, jobs=2))


@pytest.mark.skipif(not runner.FORK, reason="forked workers are used on Linux only")
def test_a_costly_run_keeps_one_chunk_per_worker_so_the_last_ones_spread(monkeypatch):
    # a search's chunks take seconds: a worker handed two of the last four would finish alone
    # (3 of 4 chunks in one process, measured); each worker holds one at a time, so each plays two
    owed_at_submit = []
    submit = ForkPool.submit

    def counting(self, fn, *args):
        owed_at_submit.append(sum(len(w.owed) for w in self._workers))
        return submit(self, fn, *args)

    monkeypatch.setattr(ForkPool, "submit", counting)
    spec = dataclasses.replace(runner.make_spec("black-white", 3, 64, "random", seed=2), chunk=16)
    assert spec.chunk < runner.chunk_size(spec.unit)  # smaller chunks: a costly line-up's
    assert len(list(runner.execute(spec, 2))) == 4
    assert owed_at_submit and max(owed_at_submit) <= 1


_PLAY = runner._play
"""What a worker plays a chunk with, whether it sends back the play or makes the tables itself
(which it does where this process has not started polars: the test's order decides that)."""


def _killed_at_chunk_3(spec, index, *args):
    if index == 3:
        os.kill(os.getpid(), 9)  # as the kernel's out-of-memory killer would
    return _PLAY(spec, index, *args)


@pytest.mark.skipif(not runner.FORK, reason="forked workers are used on Linux only")
def test_a_worker_the_system_kills_keeps_the_finished_chunks_for_resume(monkeypatch, tmp_path):
    # built-in strategies only, so nothing was wrong with the run (an out-of-memory kill): the
    # chunks played before it stay, and --resume finishes with the tables of an unbroken run
    from simtool.commands.run import execute_run
    from simtool.errors import WorkerLost

    spec = dataclasses.replace(runner.make_spec("black-white", 3, 96, "random", seed=4), chunk=16)
    monkeypatch.setattr(runner, "_play", _killed_at_chunk_3)
    out = tmp_path / "run"
    with pytest.raises(WorkerLost, match=r"killed by signal 9.*finished chunks? (is|are) kept: finish the run "
                                         r"with: simtool run --resume .*run$"):
        execute_run(spec, 2, out, False, None, keep=False)
    # a chunk is finished once its checksums are written, after its tables: the other worker,
    # killed as the run stopped, may have left a table without them, rightly played again
    kept = sorted(p.name for p in (out / "chunks").glob("sums-*.json"))
    assert kept and "sums-000003.json" not in kept and not (out / "chunks" / "seats-000003.parquet").exists()
    assert not (out / "run.json").exists()
    monkeypatch.setattr(runner, "_play", _PLAY)
    resumed = execute_run(None, 2, out, False, None, keep=True, resume=True)
    whole = execute_run(spec, 1, None, False, None, keep=True)
    assert resumed.meta["resumed_chunks"] == len(kept)
    assert resumed.seats.equals(whole.seats)
