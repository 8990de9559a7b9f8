"""An embedded dask worker (:mod:`simtool.pipeline.cluster`) that dies with the simtool process
that started it, however that one ends.

``python -m simtool.pipeline.daskworker ARGS`` is ``python -m dask ARGS`` with a watch started
first, before dask's second of imports: the worker holds the read end of a pipe whose write end
only its parent holds (its number in ``SIMTOOL_PARENT_PIPE``); the kernel closes that end when
the parent ends, even by ``kill -9``, and the watch then kills the worker's process group at
once. Without it a worker started while simtool was killed during the cluster's start-up waited
for a scheduler that would never come (``--death-timeout``) and outlived simtool by a minute.
Only the standard library is imported here, so the watch runs within milliseconds.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading

PIPE = "SIMTOOL_PARENT_PIPE"
"""The environment variable holding the number of the pipe's read end."""


def watch(fd: int) -> threading.Thread:
    """Kill this process (and its group, where it leads one: the worker and what it started)
    once ``fd`` reads end-of-file, that is once every holder of the write end has ended."""
    def wait() -> None:
        try:
            while os.read(fd, 64):  # nothing is ever written: a read returns only at the end
                pass
        except OSError:
            pass
        if os.getpgrp() == os.getpid():
            os.killpg(os.getpid(), signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)

    thread = threading.Thread(target=wait, name="simtool-parent-watch", daemon=True)
    thread.start()
    return thread


def main() -> None:
    fd = os.environ.pop(PIPE, None)
    if fd is not None:
        watch(int(fd))
    sys.argv = ["dask", *sys.argv[1:]]
    runpy.run_module("dask", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
