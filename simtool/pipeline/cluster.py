"""The dask backend: the cluster at ``--scheduler``, or one of simtool's own on this machine.

``--backend dask`` with no scheduler address starts an *embedded* cluster: a dask scheduler in
this process and ``--jobs`` single-threaded worker processes (``dask worker``, no nanny), kept
for the rest of the process so that the runs of a sweep, a tuning or a review share it, and
closed when the command ends, fails or is interrupted: every worker is killed (SIGKILL, a worker
holds nothing to save), never waited for. The workers are forked by one process, their *zygote*
(:mod:`simtool.pipeline.daskworker`), that imported dask and simtool once: each worker a fresh
interpreter importing them cost a second or more of a core, 16 of them most of a 1e7-deal run's
difference from the local backend. The ``simtool`` command starts the zygote as it starts, where
its command line asks for this cluster (:func:`prestart`), so that its imports run beside the
command's own. A worker also ends on its own within a second of losing the
scheduler, and at once when simtool ends (a pipe only simtool writes closes), so not even a
``kill -9`` of simtool, during the cluster's start-up as well, leaves one behind.

Why not ``LocalCluster``'s own workers: they start through multiprocessing's spawn, which runs
the caller's ``__main__`` again (a script without ``if __name__ == "__main__":`` then fails with
a page of tracebacks), each sits under a nanny process of its own, and Ctrl-C in a terminal
reaches them as well and makes them log. The zygote and these workers run in sessions of their
own, so only simtool sees Ctrl-C and stops them; one that dies is replaced, and dask plays its
chunks again.

Chunks are handed out a few per worker thread at a time, in tasks of up to four, and come back
in order (:func:`play`): the workers make the tables; the embedded cluster's write them too (they
share this machine's disk), a ``--scheduler``'s send them for this process to write.
"""

from __future__ import annotations

import atexit
import errno
import importlib.util
import json
import logging
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from simtool.errors import SimtoolError, describe
from simtool.pipeline import daskworker
from simtool.pipeline.forked import WorkerDied

SCHEDULER_WAIT = 10.0
"""Seconds a dask scheduler has to answer: past it, the run stops with one line. Something that
accepts the connection but never speaks dask would otherwise hang for ever."""

WORKER_WAIT = 10.0
"""Seconds a dask scheduler that answered has then to offer a worker, before the run stops with
one line."""

QUEUED = 2
"""Tasks handed to the cluster per worker thread: one playing, one ready to start, so a worker
never waits for this process; more would only hold finished tables in the workers' memory."""

HEALTH = 0.5
"""Seconds between looks at the embedded workers while waiting for a chunk."""

IDLE = {"distributed.admin.tick.interval": "1s", "distributed.admin.system-monitor.interval": "2s",
        "distributed.worker.profile.enabled": False}
"""The embedded scheduler's and workers' housekeeping: the event loop's health looked at every
second rather than every 20 ms, and the machine's load every 2 s rather than 0.5 s (figures for
a dashboard the embedded cluster does not have). An idle worker then burns 60% less CPU
(measured: 0.7% of a core against 1.8%), beside the chunks of a run and between the runs of a
sweep or a review; how chunks are handed out and played is unchanged. No statistical profiler
either, in the workers (a stack sample every 10 ms: 4 ms of CPU per chunk, measured) nor in the
scheduler, which runs in this process: on Python 3.12 its sampling thread took 2.6 of the 16 CPU
seconds this process spent on a 1e8-deal run on 16 cores (dask starts none on Python 3.11)."""

PORT_TRIES = 3
"""Ports the embedded scheduler tries: the free port picked as its workers start may be taken by
another process (a listening server, or any connection's own port) before the scheduler binds it,
a second later."""

RESTARTS = 8
"""Embedded workers started in place of dead ones before the run stops: dask itself gives up on a
chunk after it took down 3 workers (``distributed.scheduler.allowed-failures``), which takes
restarts to reach with few workers."""


def play(fn: Callable, items: Iterable, jobs: int, scheduler: str | None, count: int,
         batchable: Callable[[object], bool] = lambda item: False) -> Iterator[tuple]:
    """``(item, fn(item))`` for each of the ``count`` items, played on dask, in their order.

    ``scheduler``: the address of a running cluster (every worker thread of it is used, whatever
    ``jobs``); ``None``: the embedded cluster of ``jobs`` workers. Consecutive ``batchable``
    items go to a worker together, up to :data:`BATCH` at a time (see there). A worker lost
    mid-run has its items played again by dask elsewhere; each item is yielded once. Raises
    :class:`~simtool.pipeline.forked.WorkerDied` when workers keep dying.
    """
    own = embedded(jobs, count) if not scheduler else None
    client = own.client if own is not None else dask_client(scheduler)
    finished = False
    pending: deque = deque()
    try:
        slots = max(1, own.size if own is not None else sum(client.nthreads().values()))
        full = max(1, min(BATCH, count // (SPREAD * slots)))
        yield from _in_order(client, fn, iter(items), QUEUED * slots, own, pending,
                             lambda item, handed: tapered(full, count - handed, slots) if batchable(item) else 1)
        finished = True
    finally:
        if own is None:
            if not finished:  # what was handed out is of no use to anyone now
                client.cancel([f for _, f in pending])
            client.close()
        elif not finished:  # an error or Ctrl-C: stop the workers in the middle of their chunks
            close_embedded()


BATCH = 4
"""Items a worker gets at once: dask costs about 4 ms of this process's CPU and 3 ms of the
worker's per task, whatever its size (measured on 2 cores), against some 50 ms to play a chunk
of 32768 deals; four chunks a task make that 2%."""
SPREAD = 4
"""Tasks per worker thread at least: a smaller run gets smaller batches, so no worker idles
while another plays its last four chunks."""


TAPER = 2
"""Tasks per worker thread, at least, in what is left to hand out: the tasks of a run's last
rounds shrink, down to one item, so that the workers end together. With tasks of four to the
end, a worker still had one queued behind the one it played while others had nothing left
(1e7 Black & White deals on 16 workers: 77 tasks, now 134; docs/speed.md, 2026-11-27 night)."""


def tapered(full: int, left: int, slots: int) -> int:
    """Items the next task takes, of at most ``full``, with ``left`` items still to hand out to
    ``slots`` worker threads."""
    return max(1, min(full, left // (TAPER * slots)))


def _in_order(client, fn: Callable, items: Iterator, backlog: int, own: Embedded | None,
              pending: deque, size: Callable[[object, int], int]) -> Iterator[tuple]:
    """Keep ``backlog`` tasks unfinished on the cluster; yield each task's items when it and
    those before it are done. A task takes ``size(first item, items handed out before)`` items."""
    finished = threading.Event()  # set whenever a task is done: time to hand out the next
    left = True
    handed = 0
    while True:
        finished.clear()  # before looking: a task done after the look sets it again
        busy = sum(not f.done() for _, f in pending)
        while left and busy < backlog:
            group = [next(items, _END)]
            while group[-1] is not _END and len(group) < size(group[0], handed):
                group.append(next(items, _END))
            if group[-1] is _END:
                left = False
                group.pop()
                if not group:
                    break
            handed += len(group)
            future = client.submit(_each, fn, group, pure=False)  # pure=False: a key of its own
            future.add_done_callback(lambda _: finished.set())
            pending.append((group, future))
            busy += 1
        while pending and pending[0][1].done():
            group, future = pending.popleft()
            results = _result(future)
            if own is not None:
                own.ever_joined = True  # a worker played it
            yield from zip(group, results, strict=True)
        if not pending and not left:
            return
        if pending and not pending[0][1].done():
            finished.wait(HEALTH)
            if own is not None:
                own.check()


def _each(fn: Callable, items: list) -> list:
    """A worker's task: ``fn`` of each item."""
    try:
        return [fn(item) for item in items]
    except SimtoolError as exc:
        # dask sends an error with the errors it came of (tblib); a plugin's own exception class
        # among them does not unpickle in this process (its module is not imported by that
        # name), which then raised the pickle's bytes, a page of them, exit status 1. The
        # message names the plugin's error already.
        exc.__cause__ = exc.__context__ = None
        raise


_END = object()


def _result(future):
    from distributed.scheduler import KilledWorker

    try:
        return future.result()
    except KilledWorker as exc:
        raise WorkerDied(f"dask gave up on a chunk: {describe(exc)}") from None


# ---- the embedded cluster ---------------------------------------------------------------------

class Worker:
    """An embedded worker, as its zygote reports it."""

    def __init__(self, name: str):
        self.name = name
        self.pid: int | None = None  # once forked
        self.returncode: int | None = None  # once ended, as :attr:`subprocess.Popen.returncode`
        self.last = "it printed nothing"  # its last line of output, once ended


class Embedded:
    """A scheduler in this process and ``size`` single-threaded worker processes of its own,
    forked by a zygote (:mod:`simtool.pipeline.daskworker`) that imported dask and simtool once
    for all of them."""

    def __init__(self, size: int):
        if importlib.util.find_spec("distributed") is None:  # none to start workers with
            _distributed()
        self.size = size
        self.procs: list[Worker] = []
        self.restarts = self.started = 0
        self.ever_joined = False
        self.client = self.scheduler = self.zygote = None
        self.commands: int | None = None  # the zygote's standard input
        self.reports = b""  # the zygote's last report line, while incomplete
        early = _take_early()
        if early is not None:  # started as this process started (prestart): its imports are under way
            self.life, self.lifeline, self.zygote, self.commands, self.zygote_log = early
        else:
            self.life, self.lifeline = _lifeline()
        try:
            for attempt in range(1, PORT_TRIES + 1):
                # the workers start first and wait for their scheduler: the zygote's imports (a
                # second of a core) then run while this process imports dask and starts the scheduler
                self.address = f"tcp://127.0.0.1:{_free_port()}"
                for _ in range(size):
                    self._start()
                # imported (or refused in a line) while the workers import it: before them, it
                # put its 0.2 s before every embedded run's start
                _distributed()
                try:
                    self.scheduler = _scheduler(self.address)
                    break
                except RuntimeError as exc:
                    # the port was free when picked, then another process took it (any
                    # connection's own port) before the scheduler could: the workers, waiting
                    # at it, start again with another
                    if attempt == PORT_TRIES or not _port_taken(exc):
                        raise SimtoolError(f"the dask scheduler of --backend dask cannot start on this machine: "
                                           f"{_cause(exc)}{_dask_settings()}") from None
                    self._kill_workers()
            self.scheduler.scheduler.add_plugin(_joins(self))
            # a worker may have joined as the scheduler started, before the plugin could mark it
            self.joined()
            import dask
            from dask.distributed import Client

            with dask.config.set(IDLE):
                # held before it connects, so that close() closes it however its start ends: one
                # that a Ctrl-C (or SIGTERM) left half-connected was closed by its finalizer once
                # the scheduler's event loop had stopped, and simtool hung 60 s after its last line
                self.client = Client.__new__(Client)
                self.client.__init__(self.scheduler, set_as_default=False)
            self.client.register_worker_callbacks(setup=_steady_malloc)
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        """One more worker, asked of the zygote (started now if there is none)."""
        if self.zygote is None:
            self._start_zygote()
        worker = Worker(f"simtool-{self.started}")
        self.procs.append(worker)
        self.started += 1
        try:
            os.write(self.commands, json.dumps([worker.name, *worker_command(self.address, worker.name)]).encode()
                     + b"\n")
        except BrokenPipeError:  # the zygote ended: check() says why
            pass

    def _start_zygote(self) -> None:
        """The workers' zygote (see :func:`_spawn_zygote`)."""
        self.zygote, self.commands, self.zygote_log = _spawn_zygote(self.life)

    def _read(self) -> bool:
        """Take in what the zygote reported: the workers forked and those ended; whether it has
        ended (its output read to the end)."""
        if self.zygote is None:
            return True
        while True:
            try:
                data = os.read(self.zygote.stdout.fileno(), 1 << 16)
            except BlockingIOError:
                return False
            if not data:
                return True
            *lines, self.reports = (self.reports + data).split(b"\n")
            named = {w.name: w for w in self.procs}
            for line in lines:
                name, _, rest = line.decode(errors="replace").partition(" ")
                worker = named.get(name)
                if worker is None:
                    continue
                if rest.startswith("end "):
                    code, _, worker.last = rest[4:].partition(" ")
                    worker.returncode = int(code)
                else:
                    worker.pid = int(rest)

    def joined(self) -> bool:
        """Whether a worker has joined the scheduler (this process's own: a look, no message;
        one that joined since it started, and has left already, told :func:`_joins`)."""
        self.ever_joined = self.ever_joined or bool(self.scheduler.scheduler.workers)
        return self.ever_joined

    def pids(self) -> list[int]:
        """The worker processes running now."""
        self._read()
        return [w.pid for w in self.procs if w.pid is not None and w.returncode is None]

    def check(self) -> None:
        """Start a worker in place of each that ended; stop the run once too many have, or at
        once when none has ever joined (it cannot start here: its last line says why)."""
        self._read()
        self.joined()  # looked at every time, so that a worker that joined and died is known
        for worker in list(self.procs):
            if worker.returncode is None:
                continue
            how = _how(worker.returncode)
            if not self.joined():
                raise SimtoolError(f"the dask workers of --backend dask cannot start on this machine "
                                   f"({how}): {worker.last}")
            if self.restarts == RESTARTS:
                raise WorkerDied(f"{how}; {RESTARTS} dask workers ended before it: {worker.last}")
            self.restarts += 1
            self.procs.remove(worker)
            self._start()
        code = self.zygote.poll()
        if code is not None:  # killed: no worker can be replaced now
            if not self.joined():
                raise SimtoolError(f"the dask workers of --backend dask cannot start on this machine "
                                   f"({_how(code)}): {_last_line(self.zygote_log)}")
            raise WorkerDied(f"{_how(code)}: the process that starts the dask workers ended")

    def close(self) -> None:
        """Stop the scheduler, then kill every worker: they hold nothing worth waiting for. In
        this order the scheduler never sees a worker vanish, which it would log."""
        if self.client is not None:
            _quietly(self.client.close, timeout=2)
        if self.scheduler is not None:
            _quietly(self.scheduler.close, timeout=2)
        self._kill_workers()
        if self.life is not None:
            _close_lifeline(self.life, self.lifeline)
        self.life = self.lifeline = None

    def _kill_workers(self) -> None:
        """Stop the zygote, which kills its workers (SIGKILL) and reaps them (their CPU is then
        this process's children's); a moment, not a wait for them to finish anything."""
        if self.zygote is None:
            return
        self.zygote.terminate()
        _lifelines.discard(self.commands)
        os.close(self.commands)
        ends = time.monotonic() + 5
        while time.monotonic() < ends:  # its last reports: the workers it killed
            select.select([self.zygote.stdout], [], [], max(0.0, ends - time.monotonic()))
            if self._read():
                break
        try:
            self.zygote.wait(timeout=5)
        except subprocess.TimeoutExpired:  # stuck in the kernel: the system reaps it
            self.zygote.kill()
        self.zygote.stdout.close()
        self.zygote_log.close()
        self.zygote, self.commands, self.reports, self.procs = None, None, b"", []


def _lifeline() -> tuple[int, int]:
    """The workers' lifeline: its read end for the zygote and the workers, its write end held
    here only (never in a forked child), so that the kernel closes it when this process ends,
    however, and the workers end with it."""
    life, lifeline = _pipe()
    _lifelines.add(lifeline)
    return life, lifeline


def _pipe() -> tuple[int, int]:
    """A pipe whose ends are numbered above the standard streams'. Where simtool started with one
    of them closed (``<&-``, ``2>&-``; a daemon's way), a pipe took its number, and the zygote's
    own stream, set up on that number in the child, replaced the lifeline: with standard input
    closed the workers never joined and simtool waited for ever, with standard error closed the
    run stopped, exit status 2."""
    low: list[int] = []  # held open meanwhile, so that the next pipe gets other numbers
    try:
        while True:
            ends = os.pipe()
            if min(ends) > 2:
                return ends
            low.extend(ends)
    finally:
        for fd in low:
            os.close(fd)


def _spawn_zygote(life: int) -> tuple[subprocess.Popen, int, object]:
    """The workers' zygote, in a session of its own: a Ctrl-C typed at simtool is simtool's
    alone (its workers have sessions of their own too); the write end of its standard input,
    which ends it when closed; the file its output goes to, read only to say why it ended."""
    log = tempfile.TemporaryFile()
    src = str(Path(__file__).resolve().parents[2])  # the simtool (and strategies) it must import
    # polars: one thread, as in a forked worker (one worker a core; more would contend)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")])),
               DASK_LOGGING__DISTRIBUTED="error", POLARS_MAX_THREADS=os.environ.get("POLARS_MAX_THREADS", "1"),
               **{daskworker.PIPE: str(life)},
               **{"DASK_" + key.upper().replace(".", "__").replace("-", "_"): str(value)
                  for key, value in IDLE.items()})
    commands, write = _pipe()
    _lifelines.add(write)  # its end, like the lifeline's, ends the zygote and its workers
    try:
        zygote = subprocess.Popen([sys.executable, "-m", daskworker.__name__, "zygote", PRELOAD],
                                  stdin=commands, stdout=subprocess.PIPE, stderr=log,
                                  env=env, start_new_session=True, pass_fds=(life,))
    except BaseException:
        _lifelines.discard(write)
        os.close(write)
        log.close()
        raise
    finally:
        os.close(commands)
    os.set_blocking(zygote.stdout.fileno(), False)
    return zygote, write, log


_early: tuple | None = None
"""The zygote :func:`prestart` started, with its lifeline, until a cluster takes it."""


def prestart() -> None:
    """Start the embedded workers' zygote now, as the ``simtool`` command starts, where its
    command line asks for the embedded cluster: its imports (0.6 s here, a second on a slower
    core, one after another in one process) then run beside this process's own, rather than
    after them, and the workers join that much sooner. Ended with the cluster, or with this
    process if no cluster takes it (a refused option, nothing left to play)."""
    global _early
    if _early is not None or importlib.util.find_spec("distributed") is None:
        return
    life, lifeline = _lifeline()
    try:
        _early = (life, lifeline, *_spawn_zygote(life))
    except OSError:  # no process to spare now: the cluster tries again when it starts
        _close_lifeline(life, lifeline)


def _take_early() -> tuple | None:
    global _early
    early, _early = _early, None
    return early


def _end_early() -> None:
    """End a zygote that :func:`prestart` started and no cluster took."""
    early = _take_early()
    if early is not None:
        life, lifeline, zygote, commands, log = early
        zygote.terminate()  # it forked no worker: nothing to wait for but its own end
        _lifelines.discard(commands)
        os.close(commands)
        try:
            zygote.wait(timeout=5)
        except subprocess.TimeoutExpired:  # stuck in the kernel: the system reaps it
            zygote.kill()
        zygote.stdout.close()
        log.close()
        _close_lifeline(life, lifeline)


def _close_lifeline(life: int, lifeline: int) -> None:
    _lifelines.discard(lifeline)
    for fd in (life, lifeline):
        os.close(fd)


def _joins(cluster: Embedded):
    """A scheduler plugin that marks ``cluster`` joined as a worker joins. A look at the workers
    now missed one that joined, took a chunk and ended before the look (a plugin's
    ``os._exit``): the run then stopped with "the dask workers cannot start on this machine"
    instead of naming the plugin."""
    from distributed.diagnostics.plugin import SchedulerPlugin

    class Joins(SchedulerPlugin):
        name = "simtool-joins"

        def add_worker(self, scheduler, worker: str) -> None:
            cluster.ever_joined = True

    return Joins()


def _how(code: int) -> str:
    return f"killed by signal {-code}" if code < 0 else f"exit code {code}"


def _scheduler(address: str):
    """A dask scheduler only (no workers of LocalCluster's own) at ``address`` on this machine's
    loopback, with no dashboard; its HTTP server on a free port (by default it takes 8787, or
    warns). Raises RuntimeError where it cannot start."""
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set(IDLE):  # read as they start: the rest of this process keeps its own
        return LocalCluster(n_workers=0, processes=True, host="127.0.0.1",
                            scheduler_port=int(address.rpartition(":")[2]), silence_logs=logging.CRITICAL,
                            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})


def _cause(exc: BaseException) -> str:
    """Why dask's "Cluster failed to start" (a traceback of 100 lines before, exit status 1), on
    one line: the first error of its chain that says more than that the start failed."""
    chain, seen = [], set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        chain.append(exc)
        exc = exc.__cause__ or exc.__context__
    for link in reversed(chain):
        text = describe(link)
        if "failed to start" not in text:
            return text
    return describe(chain[0])


def _dask_settings() -> str:
    """The dask settings this process's environment gives (``DASK_...``), where it gives any:
    a nonsense one is the likeliest reason the embedded scheduler cannot start."""
    names = sorted(key for key in os.environ if key.startswith("DASK_"))
    return f" (the environment sets {', '.join(names)})" if names else ""


def _port_taken(exc: BaseException) -> bool:
    """Whether ``exc`` (dask's "Cluster failed to start") came of its port being in use."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno == errno.EADDRINUSE:
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def worker_command(address: str, name: str) -> list[str]:
    """An embedded worker's ``dask worker`` arguments: one thread, no nanny (simtool replaces a
    dead worker itself), no dashboard, no memory limit (simtool's chunks are bounded), on the
    loopback only, giving up if its scheduler is not there within 30 s, and at once when this
    process ends (:mod:`simtool.pipeline.daskworker`); simtool imported as it starts
    (``--preload``; the zygote has it already) rather than at its first chunk."""
    return [address, "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--memory-limit", "0",
            "--death-timeout", "30", "--preload", PRELOAD, "--name", name]


PRELOAD = "simtool.pipeline.runner"
"""What an embedded worker imports as it starts (the zygote before it forks any): simtool,
numpy, and every game and strategy built in."""


_lifelines: set[int] = set()
"""The write ends of the embedded workers' lifelines held by this process."""


def _drop_lifelines() -> None:
    """In a forked child: close its copies of the lifelines, which must end with this process."""
    for fd in _lifelines:
        os.close(fd)
    _lifelines.clear()


os.register_at_fork(after_in_child=_drop_lifelines)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _last_line(log) -> str:
    log.seek(0)
    lines = [line.strip() for line in log.read().decode(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else "it printed nothing"


def _quietly(close: Callable, **kwargs) -> None:
    try:
        close(**kwargs)
    except Exception:  # noqa: BLE001 - closing what is already broken: nothing left to do
        pass


_embedded: Embedded | None = None
_lock = threading.Lock()


def embedded(size: int, items: int | None = None) -> Embedded:
    """The embedded cluster of ``size`` workers, or of ``items`` where fewer (never more workers
    than items to play: ``--jobs 100000`` started 100000 processes for one chunk): the one
    running if it has either size, else a new one (replacing one of another size)."""
    global _embedded
    least = max(1, min(size, items if items is not None else size))
    with _lock:
        if _embedded is not None and _embedded.size not in (size, least):
            _close()
        if _embedded is None:
            _embedded = Embedded(least)
        return _embedded


def current() -> Embedded | None:
    """The embedded cluster running now, if any."""
    return _embedded


def close_embedded(exiting: bool = False) -> None:
    """Stop the embedded cluster, if one is running (the end of a command, an error, Ctrl-C),
    and a zygote started for one that never came.

    ``exiting``: this process ends next (``os._exit``), every result written. Only the workers
    are killed (and reaped): the client and the scheduler, threads of this process, end with it.
    Closing them first took 0.09 s after the results with 16 workers on 2 cores, each worker told
    to close as it was about to be killed. Should the process go on after all, they are closed at
    its exit (atexit) or by the next call."""
    with _lock:
        if exiting and _embedded is not None:
            _embedded._kill_workers()
        else:
            _close()
        _end_early()


atexit.register(close_embedded)  # an API caller's cluster: closed at its exit at the latest


def _close() -> None:
    global _embedded
    cluster, _embedded = _embedded, None
    if cluster is not None:
        cluster.close()


# ---- a cluster of someone else's ----------------------------------------------------------------

def dask_client(address: str):
    """A client of the dask.distributed scheduler at ``address`` with a worker, or a one-line
    error within about :data:`SCHEDULER_WAIT` seconds (no answer) or that and
    :data:`WORKER_WAIT` (no worker)."""
    _distributed()
    from dask.distributed import Client

    wait, workers = SCHEDULER_WAIT, WORKER_WAIT
    box: dict = {}

    def connect() -> None:
        # in a thread of its own: dask's handshake has no time limit of its own
        client = None
        try:
            client = Client(address, timeout=f"{min(wait, 5):g}s", set_as_default=False)
            box["stage"] = "workers"
            client.wait_for_workers(1, timeout=workers)
            client.register_worker_callbacks(setup=_steady_malloc)
            box["client"] = client
        except BaseException as exc:  # noqa: BLE001 - garbage from a non-dask server can be anything
            box["error"] = exc
            if client is not None:
                client.close()
            else:
                _close_half_started(exc)

    thread = threading.Thread(target=connect, name="simtool-dask-connect", daemon=True)
    thread.start()
    thread.join(wait + 1)
    if box.get("stage") == "workers":  # connected: the workers have their own time
        thread.join(workers + 1)
    if "client" in box:
        return box["client"]
    error = box.get("error")
    if box.get("stage") == "workers" and (error is None or isinstance(error, TimeoutError)):
        raise SimtoolError(f"the dask scheduler at {address} has no workers (waited {workers:g} s); "
                           f"start some with: dask worker {address}")
    if error is None:
        raise SimtoolError(f"no answer from a dask scheduler at {address} within {wait:g} s; "
                           f"is a dask scheduler (not another server) listening there?")
    raise SimtoolError(f"cannot reach the dask scheduler at {address}: {describe(error)}")


def _distributed() -> None:
    """Refuse in one line a dask.distributed that is missing, or that does not import (a broken
    install, a ``distributed.py`` of the user's own on ``PYTHONPATH``: its error ended the run in
    a traceback, exit status 1)."""
    spec = importlib.util.find_spec("distributed")
    if spec is None:
        raise SimtoolError("--backend dask needs dask.distributed: pip install 'simtool[cluster]'")
    try:
        import dask.distributed  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - whatever its import raised is its fault, said in a line
        raise SimtoolError(f"--backend dask cannot import dask.distributed (from {spec.origin}): "
                           f"{describe(exc)}") from None


def _close_half_started(exc: BaseException) -> None:
    """Close the dask Client whose start ``exc`` stopped (found in the traceback's frames), here in
    the connecting thread that nobody waits for. Left alone, it lived on in reference cycles until
    a garbage collection closed it in whatever thread ran that, which then waited 10 s for the
    client's IO loop: a process that went on (a test suite, an API caller) stalled at random."""
    from dask.distributed import Client

    for frame, _ in traceback.walk_tb(exc.__traceback__):
        half = frame.f_locals.get("self")
        if isinstance(half, Client):
            _quietly(half.close)
            return


def _steady_malloc() -> None:
    """Keep glibc from returning memory to the system after every free: run on every worker,
    those that join later too (``register_worker_callbacks``).

    dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_ set, which turns off glibc's
    adaptive mmap threshold: every temporary array of a chunk is then a fresh mmap with its
    page faults, and a chunk took 2.3 times as long as in a plain process (0.97 s against
    0.41 s for five 3p Black & White chunks). Raising both thresholds restores the speed.
    """
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if not name:
        return
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_mmap_threshold, 64 << 20)
    mallopt(m_trim_threshold, 256 << 20)
