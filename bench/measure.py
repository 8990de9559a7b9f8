"""One whole ``simtool`` command as a user types it: wall time, CPU of its main process and of its
workers, and the peak memory of the whole process tree (used by bench.py and scale.py).

Memory is sampled every 0.1 s as three sums over the tree: RSS (what ``top`` shows;
it counts the pages forked workers share with the main process once per process, so it overstates),
PSS (each shared page divided among the processes sharing it: the honest total) and USS (pages
private to one process: a lower bound). The CPU figures are read from the finished main process
before it is reaped (Linux keeps a zombie's counters): its own CPU (every thread), and that of the
workers it waited for. Where a zombie cannot be read, the last sample stands in. The main
process's CPU at the last sample that saw a worker alive splits its work in two: handing out and
recording chunks while the workers play, then the whole tables once they have ended.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

SIMTOOL = str(Path(sys.executable).with_name("simtool"))
MiB = 2**20


@dataclass
class Measured:
    wall: float  # seconds from start to exit
    main_cpu: float  # CPU seconds of the main process (all its threads)
    workers_cpu: float  # CPU seconds of its child processes
    rss: float  # peak MiB, summed over the tree
    pss: float
    uss: float
    main_pss: float  # peak MiB of the main process alone
    processes: int  # most processes seen at once
    main_cpu_played: float  # CPU seconds of the main process when last seen with workers alive
    run: dict  # the run's run.json
    workers_seen: tuple[float, float] | None = None  # seconds from start of the first and last sample with workers
    main_rss: float = 0.0  # peak MiB of the main process alone
    worker_rss: float = 0.0  # peak MiB of the largest worker (any process below the main one)


def measure(args: list[str], memory: bool = True, interval: float | None = None, quiet: bool = True) -> Measured:
    """Run ``simtool ARGS --out TMP --force -q`` (without ``-q`` where not ``quiet``: the run
    prints its tables, read back once the workers end); raise SystemExit if it fails. ``memory``: sample
    the tree's memory every 0.1 s (about 4 ms of CPU a sample, against 2.5 ms every 0.5 s for
    the CPU figures alone, which only stand in where the finished process cannot be read, and
split the main process's CPU at the workers' end); ``interval`` overrides the sampling period."""
    import json

    interval = interval or (0.1 if memory else 0.5)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        proc = psutil.Popen([SIMTOOL, *args, "--out", out, "--force", *(["-q"] if quiet else [])],
                            stdout=subprocess.DEVNULL)
        peak = {"rss": 0, "pss": 0, "uss": 0, "main_pss": 0, "processes": 0, "main_rss": 0, "worker_rss": 0}
        cpu = {"main": 0.0, "children": {}, "played": 0.0}
        seen: list[float] = []
        done = threading.Event()

        def sample():
            while not done.is_set():
                try:
                    times = proc.cpu_times()
                    cpu["main"] = times.user + times.system
                    children = proc.children(recursive=True)
                    for child in children:
                        t = child.cpu_times()
                        cpu["children"][child.pid] = t.user + t.system
                    if children:
                        cpu["played"] = cpu["main"]
                        seen[1:] = [time.perf_counter() - start]
                    if memory:
                        infos = [p.memory_full_info() for p in (proc, *children)]
                        peak["rss"] = max(peak["rss"], sum(i.rss for i in infos))
                        peak["pss"] = max(peak["pss"], sum(getattr(i, "pss", i.uss) for i in infos))
                        peak["uss"] = max(peak["uss"], sum(i.uss for i in infos))
                        peak["main_pss"] = max(peak["main_pss"], getattr(infos[0], "pss", infos[0].uss))
                        peak["processes"] = max(peak["processes"], len(infos))
                        peak["main_rss"] = max(peak["main_rss"], infos[0].rss)
                        peak["worker_rss"] = max(peak["worker_rss"], *(i.rss for i in infos[1:]), 0)
                except psutil.Error:
                    pass
                done.wait(interval)

        sampler = threading.Thread(target=sample)
        sampler.start()
        main_cpu, workers_cpu = _finished_cpu(proc)
        wall = time.perf_counter() - start
        done.set()
        sampler.join()
        code = proc.wait()
        if code != 0:
            raise SystemExit(f"command failed (exit {code}): simtool {' '.join(args)}")
        run = json.loads((Path(out) / "run.json").read_text())
    return Measured(wall, main_cpu if main_cpu is not None else cpu["main"],
                    workers_cpu or sum(cpu["children"].values()), peak["rss"] / MiB, peak["pss"] / MiB,
                    peak["uss"] / MiB, peak["main_pss"] / MiB, peak["processes"], cpu["played"], run,
                    (seen[0], seen[-1]) if seen else None, peak["main_rss"] / MiB, peak["worker_rss"] / MiB)


def _finished_cpu(proc: psutil.Popen) -> tuple[float | None, float]:
    """Wait for ``proc`` to end without reaping it, then its own CPU seconds and those of the
    children it reaped (``None, 0`` where the zombie cannot be read)."""
    if not hasattr(os, "waitid"):
        proc.wait()
        return None, 0.0
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
    try:
        t = proc.cpu_times()
    except psutil.Error:
        return None, 0.0
    return t.user + t.system, t.children_user + t.children_system


def chunks(m: Measured) -> int:
    return -(-m.run["n"] // m.run["chunk"])


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
