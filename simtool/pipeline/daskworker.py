"""The embedded dask workers (:mod:`simtool.pipeline.cluster`): forked from one process that
imported dask and simtool once, and ended with the simtool process that started them, however
that one ends.

``python -m simtool.pipeline.daskworker zygote MODULE ...`` is that process, the *zygote*. It
imports polars, the modules named (simtool's runner: numpy, simtool) and distributed's worker,
0.5 s of CPU on a 2-core AMD EPYC, then reads commands on its standard input, one a line:
``["NAME", ARG, ...]`` forks a worker that runs ``dask worker ARG ...`` and joins its scheduler
in some 0.02 s of CPU (a fresh interpreter importing the same took 0.7 s for every worker: 16
of them 9 CPU seconds, 4.7 s of both cores of that machine). It reports on its standard output
``NAME PID`` once forked and ``NAME end CODE LAST-LINE`` once the worker ended and was reaped
(CODE as :attr:`subprocess.Popen.returncode`, LAST-LINE the worker's last line of output).
SIGTERM, or the end of its standard input, kills every worker (SIGKILL: they hold nothing to
save), reaps them, reports them and ends it. Where fork is unsafe for numpy (not Linux:
:data:`FORK`) it imports nothing and starts each worker as ``python -m
simtool.pipeline.daskworker ARG ...`` instead.

The lifeline: every worker and the zygote hold the read end of a pipe whose write end only
simtool holds (its number in ``SIMTOOL_PARENT_PIPE``); the kernel closes that end when simtool
ends, even by ``kill -9``, and a watch then kills the worker's (or the zygote's) process group at
once: workers never outlive simtool, started during its start-up or not. The zygote watches in a
thread only during its imports (fork copies no thread, and a fork beside a running thread may copy
a lock held): afterwards it looks at the lifeline between commands.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import traceback

FORK = hasattr(os, "fork") and sys.platform.startswith("linux")
"""Whether the zygote forks its workers: where that is safe for numpy, as
``simtool.pipeline.runner.FORK`` (which imports this module's caller, so it cannot be asked)."""

PIPE = "SIMTOOL_PARENT_PIPE"
"""The environment variable holding the number of the lifeline's read end."""


def watch(fd: int, stop: int | None = None) -> threading.Thread:
    """Kill this process (and its group, where it leads one: the worker and what it started)
    once ``fd`` reads end-of-file, that is once every holder of the write end has ended. A byte
    written to ``stop`` ends the watch instead."""
    def wait() -> None:
        try:
            while True:
                ready = select.select([fd] if stop is None else [fd, stop], [], [])[0]
                if stop in ready:
                    return
                if not os.read(fd, 64):  # nothing is ever written: a read returns only at the end
                    break
        except OSError:
            pass
        if os.getpgrp() == os.getpid():
            os.killpg(os.getpid(), signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)

    thread = threading.Thread(target=wait, name="simtool-parent-watch", daemon=True)
    thread.start()
    return thread


def dask_worker(args: list[str]) -> int:
    """``dask worker ARGS`` in this process; its exit status."""
    from distributed.cli.dask_worker import main as cli

    from simtool import engine

    engine.elsewhere()  # started afresh where not forked: a plugin ending it is reported by the run
    try:
        cli.main(args=args, prog_name="dask worker")
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 - its last line is what simtool reports
        traceback.print_exc()
    return 1


class Zygote:
    """The zygote's loop: fork a worker per command, report and reap them."""

    def __init__(self, life: int, out: int, fork: bool):
        self.life, self.out, self.fork = life, out, fork
        self.children: dict[int, tuple[str, object]] = {}  # pid: name, log

    def serve(self) -> None:
        # a worker's end, and SIGTERM, wake the loop at once: simtool replaces it as soon as it knows
        self.ended, self.wake = os.pipe()
        os.set_blocking(self.wake, False)
        signal.set_wakeup_fd(self.wake)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        # SIGTERM ends the zygote from this loop only, never between a fork and the record of its
        # child (which it would leave running): blocking it in this thread could not keep it out,
        # as another thread (polars' out-of-core cleaner) takes it and Python runs the handler here
        self.stopping = False
        signal.signal(signal.SIGTERM, lambda *_: setattr(self, "stopping", True))
        pending = b""
        while True:
            if self.stopping:
                self.end()
            ready = select.select([0, self.life, self.ended], [], [])[0]
            if self.life in ready:  # simtool ended
                self.end()
            if self.ended in ready:
                os.read(self.ended, 1 << 10)
            if 0 in ready:
                data = os.read(0, 1 << 16)
                if not data:
                    self.end()
                *lines, pending = (pending + data).split(b"\n")
                for line in lines:
                    name, *args = json.loads(line)
                    self.start(name, args)
            self.reap(os.WNOHANG)

    def start(self, name: str, args: list[str]) -> None:
        log = tempfile.TemporaryFile()
        if not self.fork:
            # not __name__: the zygote runs as ``-m``, its __name__ is "__main__"
            pid = subprocess.Popen([sys.executable, "-m", __spec__.name, *args], stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=log, start_new_session=True, pass_fds=(self.life,),
                                   env=dict(os.environ, **{PIPE: str(self.life)})).pid
        elif (pid := os.fork()) == 0:
            self._worker(args, log.fileno())
        self.children[pid] = (name, log)
        self.report(f"{name} {pid}")

    def _worker(self, args: list[str], log: int) -> None:
        """In the forked child: a session of its own (Ctrl-C is simtool's alone, and simtool's
        kill reaches what it starts), output to its log, the lifeline watched; never returns."""
        code = 1
        try:
            os.setsid()
            signal.set_wakeup_fd(-1)
            for signum in (signal.SIGTERM, signal.SIGCHLD):
                signal.signal(signum, signal.SIG_DFL)
            _null_at(0, os.O_RDONLY)
            os.dup2(log, 1)
            os.dup2(log, 2)
            # what fork copied of the zygote's own: a worker holds the lifeline and its log only
            # (its elder siblings' logs held their space in /tmp after they ended)
            for fd in (self.out, self.ended, self.wake, *(other.fileno() for _, other in self.children.values())):
                os.close(fd)
            watch(self.life)
            code = dask_worker(args)
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:  # noqa: BLE001 - ending anyway
                    pass
            os._exit(code)

    def reap(self, flags: int) -> None:
        while self.children:
            try:
                pid, status = os.waitpid(-1, flags)
            except ChildProcessError:
                return
            if pid == 0:
                return
            name, log = self.children.pop(pid, (None, None))
            if name is not None:
                self.report(f"{name} end {os.waitstatus_to_exitcode(status)} {_last_line(log)}")
                log.close()

    def end(self) -> None:
        for pid in self.children:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:  # not yet its own group (just forked), or gone
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        self.reap(0)
        os._exit(0)

    def report(self, line: str) -> None:
        os.write(self.out, line.encode(errors="replace") + b"\n")


def _last_line(log) -> str:
    log.seek(0)
    lines = [line.strip() for line in log.read().decode(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else "it printed nothing"


def _null_at(fd: int, flags: int) -> None:
    null = os.open(os.devnull, flags)
    os.dup2(null, fd)
    os.close(null)


def zygote(preload: list[str]) -> None:
    out = os.dup(1)  # the reports; fd 1 itself is no one's (each worker's log, once forked)
    _null_at(1, os.O_WRONLY)
    life = int(os.environ.pop(PIPE))
    stop_r, stop_w = os.pipe()
    watcher = watch(life, stop_r)
    fork = FORK
    if fork:
        from simtool.pipeline.forked import polars_forks

        # first: polars imported with nothing of it run yet (no thread of its pool), which each
        # worker shares; imported by the modules below first, a forked child had to try it
        fork = polars_forks()
        for module in preload:  # what each forked worker then has
            importlib.import_module(module)
        import distributed.cli.dask_worker  # noqa: F401

        # what a worker inherits stays out of its garbage collector's walks: the first full
        # collection of each worker walked the zygote's 85,000 objects and wrote to every page
        # that held one, copying it (55 ms of CPU and 18 MiB apiece, measured)
        gc.freeze()
    os.write(stop_w, b"x")
    watcher.join()
    for fd in (stop_r, stop_w):
        os.close(fd)
    Zygote(life, out, fork).serve()


def main() -> None:
    if sys.argv[1:2] == ["zygote"]:
        zygote(sys.argv[2:])
        return
    fd = os.environ.pop(PIPE, None)
    if fd is not None:
        watch(int(fd))
    sys.exit(dask_worker(sys.argv[1:]))


if __name__ == "__main__":
    main()
