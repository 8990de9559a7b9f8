"""Worker processes forked from this one: they start in milliseconds with everything imported.

A spawned (loky) worker starts a fresh interpreter and imports joblib, numpy, polars and
simtool again: about 1 s of a core before its first chunk, a third of a 1e6-deal run of Black
& White on 2 cores. A forked worker shares what this process has imported and plays at once.

polars runs in a forked child only where this process has not started polars' threads (a fresh
``simtool run`` forks before it loads polars): a child forked after they started has the pool
but not its threads, and its first polars call waits for ever. :func:`polars_forks` tells
which; where it says no, a child plays only (numpy and the strategies) and sends back the
arrays, and this process makes the tables.

Why a pool of simtool's own and not ``concurrent.futures.ProcessPoolExecutor`` with fork, which
is as fast: ``bench/pool.py --n 1e6 --jobs 2 --repeat 5`` (31 chunks of Black & White 3p
``random``, best of 5 wall seconds, pools in turns; 2026-11-26, 2-core AMD EPYC, 23 GiB, Python
3.11, load 3.8 to 4.2 from other sessions) gave forked 0.79 s and 1.59 s, futures 0.80 s and
1.56 s, loky 1.39 s and 2.63 s in two runs. Speed is no reason; behaviour is, on Python 3.11:

- a worker that dies fails only the chunks it owed, and the one-line error names its exit code
  or signal (SIGKILL from the out-of-memory killer, a plugin's ``os._exit(3)``); the executor
  breaks the whole pool with ``BrokenProcessPool`` and no exit code;
- ``shutdown(kill=True)`` stops busy workers at once on Ctrl-C or a failed chunk; the executor
  has no public way to (``kill_workers`` came in 3.14) and waits for a running search chunk;
- ``--timeout``'s SIGALRM must interrupt a strategy blocked in a system call in the worker's
  main thread, so every other thread of a worker blocks signals; the executor's result feeder
  thread does not.

loky stays where fork is unsafe for numpy (not Linux), see ``simtool.pipeline.runner._shared``.
"""

from __future__ import annotations

import gc
import os
import queue
import re
import select
import signal
import sys
import threading
from collections import deque
from concurrent.futures import Future
from multiprocessing.connection import Connection, Pipe, wait


class WorkerDied(Exception):
    """A forked worker ended while it owed results; ``how`` says how (exit code or signal)."""

    def __init__(self, how: str):
        super().__init__(f"a worker process ended ({how})")
        self.how = how


class _Worker:
    def __init__(self, pid: int, conn: Connection):
        self.pid = pid
        self.conn = conn
        self.owed: deque[Future] = deque()  # in the order the tasks were sent


class ForkPool:
    """``workers`` processes forked now, each playing the calls sent to it in order.

    ``submit(fn, *args)`` returns a Future; a thread of this process receives the results as
    they come, so a worker never waits for this process to be free. ``shutdown(kill=True)``
    stops workers in the middle of a call (a failed or interrupted run).
    """

    def __init__(self, workers: int):
        self._lock = threading.Lock()
        self._workers: list[_Worker] = []
        # a worker's garbage collector never visits the objects it inherits (every module this
        # process imported): they stay frozen in the worker, which frees none of them. Here
        # they are unfrozen once the workers are forked.
        gc.freeze()
        try:
            for _ in range(workers):
                here, there = Pipe()
                pid = os.fork()
                if pid == 0:  # pragma: no cover - the child ends in os._exit
                    _serve(there, [w.conn for w in self._workers] + [here])
                there.close()
                self._workers.append(_Worker(pid, here))
        except BaseException:
            self.shutdown(kill=True)
            raise
        finally:
            gc.unfreeze()
        self._reader = threading.Thread(target=self._read, name="simtool-results", daemon=True)
        self._reader.start()

    def submit(self, fn, *args) -> Future:
        future: Future = Future()
        worker = min(self._workers, key=lambda w: len(w.owed))
        with self._lock:
            worker.owed.append(future)
        try:
            worker.conn.send((fn, args))
        except OSError:  # the worker is gone: the reader settles what it owed
            pass
        return future

    def shutdown(self, kill: bool = False, wait: bool = True) -> None:
        for w in self._workers:
            try:
                if kill:
                    os.kill(w.pid, signal.SIGKILL)
                else:
                    w.conn.send(None)  # idle workers end at once; busy ones after their call
            except OSError:
                pass
        if wait and getattr(self, "_reader", None) is not None:
            self._reader.join()
        elif not kill and getattr(self, "_reader", None) is not None:
            _ending.append(self._reader)
        elif kill and getattr(self, "_reader", None) is None:  # never started: reap here
            for w in self._workers:
                os.waitpid(w.pid, 0)

    def _read(self) -> None:
        _main_thread_signals()
        live = {w.conn: w for w in self._workers}
        while live:
            for conn in wait(list(live)):
                worker = live[conn]
                try:
                    ok, value = conn.recv()
                except (EOFError, OSError):
                    del live[conn]
                    conn.close()
                    self._ended(worker)
                    continue
                except Exception as exc:  # noqa: BLE001 - a result that does not unpickle
                    ok, value = False, exc
                with self._lock:
                    future = worker.owed.popleft()
                _settle(future, ok, value)

    def _ended(self, worker: _Worker) -> None:
        _, status = os.waitpid(worker.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        with self._lock:
            owed, worker.owed = list(worker.owed), deque()
        for future in owed:
            _settle(future, False, WorkerDied(how))


def _settle(future: Future, ok: bool, value) -> None:
    if future.done():  # cancelled by a run that stopped
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


_ending: list[threading.Thread] = []
"""The result readers of pools told to end without waiting (:meth:`ForkPool.shutdown`): each
ends once its workers have ended and it has reaped them."""


def wait_ended() -> None:
    """Wait for every worker told to end to have ended and been reaped: a run's workers end
    (their memory torn down, 5 to 40 ms) while its main process joins the tables, and are
    reaped after, so that none outlives the command (nor its CPU time its account)."""
    while _ending:
        _ending.pop().join()


def _serve(conn: Connection, inherited: list[Connection]) -> None:
    """A worker's life: play each call it receives and send back what it returned or raised;
    end when told to, or when this process's end of the pipe closes (it ended, however).

    Results go out from a thread of their own: a chunk's arrays (about 1 MB) fill the pipe,
    and the send waits until the parent's reader thread is scheduled (1-14 ms a chunk under
    load); the next call is played meanwhile.
    """
    code, pid = 0, os.getpid()
    try:
        for c in inherited:  # the other workers' pipes: theirs must close when the parent ends
            c.close()
        # Ctrl-C reaches the whole process group: the parent handles it and ends its workers
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's takes it as Ctrl-C; a worker ends
        replies: queue.SimpleQueue = queue.SimpleQueue()
        sender = threading.Thread(target=_send_all, args=(conn, replies), daemon=True)
        sender.start()
        while True:
            try:
                call = conn.recv()
            except (EOFError, OSError):
                break
            if call is None:
                break
            fn, args = call
            try:
                reply = (True, fn(*args))
            except BaseException as exc:  # noqa: BLE001 - the parent raises it, whatever it is
                reply = (False, exc)
            if os.getpid() != pid:  # a copy the call forked: the pipe is the worker's, not its
                os._exit(1)
            replies.put(reply)
        replies.put(None)
        sender.join()
    except BaseException:  # noqa: BLE001 - a child must never return into the parent's code
        code = 1
    finally:
        os._exit(code)


def _send_all(conn: Connection, replies: queue.SimpleQueue) -> None:
    _main_thread_signals()
    try:
        while (reply := replies.get()) is not None:
            try:
                conn.send(reply)
            except (BrokenPipeError, ConnectionResetError):
                raise
            except MemoryError as exc:  # the parent says so in one line, and keeps the run's chunks
                conn.send((False, exc))
            except Exception as exc:  # noqa: BLE001 - the result or exception does not pickle
                conn.send((False, RuntimeError(f"a worker's result could not be sent back: {exc}")))
    except BaseException:  # noqa: BLE001 - the parent is gone, or nothing goes through: end, so it sees EOF
        os._exit(1)


def _main_thread_signals() -> None:
    """Leave every signal to the main thread: a SIGALRM of ``--timeout`` (engine.deadline) must
    interrupt a strategy blocked in a system call there, not wake this thread."""
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())


PROBE_WAIT = 2.0
"""Seconds a probe child has for a polars call that takes milliseconds: past it, polars'
threads are taken as started (and a run only loses the workers' share of the tables' work)."""
_started = False  # polars' threads, once started in this process, run until it ends


def polars_forks() -> bool:
    """Whether a child forked now may call polars. polars not loaded: yes, and it is imported
    now, so that the children share it (see below). Threads of its pool (named ``polars-N``, or
    its I/O runtime's) among this process's: no. Otherwise a child is forked to try one small
    frame, written and read back, within :data:`PROBE_WAIT`.

    The answer "no" is kept (those threads never end); "yes" is asked again at every pool, as
    the caller may start polars between two runs."""
    global _started
    if _started:
        return False
    module = sys.modules.get("polars")
    if module is None or "__file__" not in vars(module):  # never loaded, or only deferred (simtool.lazy)
        # Imported here, before the fork, every child has it: each worker otherwise imported it
        # for its first table, 0.15 s of CPU apiece (a tenth of a worker's whole 1e6-deal
        # Black & White run). No polars code has run yet, so no pool thread exists: the
        # children may call it without a probe. What the import starts (jemalloc's background
        # threads, the out-of-core cleaner) is as harmless to a child as in a probed process.
        _load_polars()
        return True
    if _polars_threads() or not _probe():
        _started = True
    return not _started


def _load_polars() -> None:
    """Import polars, and ``numpy.ma``, which polars imports at the first table it makes from a
    numpy array (``numpy_to_pyseries`` asks ``np.ma.getmask``), with the garbage collector
    paused: the imports make long-lived objects only (modules, classes, functions), and the
    collections they set off walk every object of the process for nothing (10 of polars' 97 ms
    of CPU). ``numpy.ma`` before the fork costs this process 7 ms once, where each worker paid
    13 ms at its first table (the pages a forked child copies as the import writes them)."""
    from simtool.lazy import load

    paused = gc.isenabled()
    gc.disable()
    try:
        import numpy.ma  # noqa: F401 - imported for the workers, see above

        load("polars")
    finally:
        if paused:
            gc.enable()


def _polars_threads() -> bool:
    try:
        names = [open(f"/proc/self/task/{t}/comm").read().strip() for t in os.listdir("/proc/self/task")]
    except OSError:  # threads gone meanwhile, or no /proc: the probe decides
        return False
    # "polars-ooc-clea(ner)" starts at import and is harmless: children forked beside it work
    return any(re.fullmatch(r"polars-\d+|tokio-rt.*|async-executor.*", n) for n in names)


def _probe() -> bool:
    """Fork a child that builds, groups, writes and reads back a small frame; ``True`` if it did
    within :data:`PROBE_WAIT` seconds."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child ends in os._exit
        code = 1
        try:
            import io

            import polars as pl

            os.environ["POLARS_MAX_THREADS"] = "1"
            buffer = io.BytesIO()
            frame = pl.DataFrame({"a": [1, 2, 2], "b": pl.Series(["x", "y", "y"], dtype=pl.Enum(["x", "y"]))})
            frame.group_by("b").agg(pl.col("a").sum()).write_parquet(buffer)
            buffer.seek(0)
            if pl.read_parquet(buffer).height == 2:
                os.write(write, b"1")
                code = 0
        finally:
            os._exit(code)
    os.close(write)
    try:
        ready, _, _ = select.select([read], [], [], PROBE_WAIT)
        return bool(ready) and os.read(read, 1) == b"1"
    finally:
        os.close(read)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)


def where_polars_may_run(fn):
    """``fn()`` (a JSON result) without starting polars' threads in this process: in a forked
    child where polars may run there (:func:`polars_forks`), here where it may not, or where the
    child did not answer."""
    found = in_child(fn) if polars_forks() else None
    return fn() if found is None else found


def in_child(fn):
    """``fn()`` in a forked child, its result (JSON) sent back; ``None`` if the child did not
    answer (it failed, or was killed). Work that would start polars' threads in this process,
    done where they do no harm (see :func:`polars_forks`)."""
    import json

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child ends in os._exit
        code = 1
        try:
            os.close(read)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is this process's to handle
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            data = json.dumps(fn()).encode()
            with os.fdopen(write, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    try:
        with os.fdopen(read, "rb") as answer:
            data = answer.read()
        _, status = os.waitpid(pid, 0)
        pid = None
    finally:
        if pid is not None:  # interrupted while the child works: it goes too
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    return json.loads(data)
