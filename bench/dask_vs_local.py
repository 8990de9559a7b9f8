"""The dask backend against local on this machine, in turns (issue 27).

    python bench/dask_vs_local.py [--n 1e7] [--rounds 2] [--jobs 2] [--game black-white] [--strategy random]
    python bench/dask_vs_local.py --start [--rounds 3] [--jobs 2]

Times ``simtool run --game G --strategy S --n N --jobs J`` with ``--backend local`` and with
``--backend dask`` (no ``--scheduler``: the cluster simtool starts on this machine), alternating
which goes first each round so that a change in the machine's load hits both alike. Per run: wall,
the main process's CPU and its workers' (dask's workers are its children too); then the best and
median of each and dask's ratio to local. On a shared machine read the CPU columns: an idle
machine's wall follows them.

``--start`` times only the embedded cluster's start: a fresh Python that imports simtool's dask
backend, starts the cluster of ``--jobs`` workers, waits until every worker has joined and closes
it; wall to the last join, and the CPU of the whole process tree (its processes reaped in turn).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

from measure import load, measure
from scale import identical, tables_sum


def main(n: int, rounds: int, jobs: int, game: str, strategy: str) -> None:
    print(f"\n## dask against local: `simtool run --game {game} --strategy {strategy} --n {n:,} "
          f"--jobs {jobs}` ({load()} at the start)\n")
    print("| round | backend | wall s | main CPU s | workers CPU s | CPU s |")
    print("| --- | --- | --- | --- | --- | --- |")
    walls: dict[str, list[float]] = {"local": [], "dask": []}
    cpus: dict[str, list[float]] = {"local": [], "dask": []}
    tables = {}
    for k in range(rounds):
        for backend in ("local", "dask") if k % 2 == 0 else ("dask", "local"):
            m = measure(["run", "--game", game, "--strategy", strategy, "--n", str(n), "--jobs", str(jobs),
                         "--seed", "7", "--backend", backend], memory=False)
            walls[backend].append(m.wall)
            tables[f"{backend} (round {k})"] = tables_sum(m.run)
            cpus[backend].append(m.main_cpu + m.workers_cpu)
            print(f"| {k} | {backend} | {m.wall:.2f} | {m.main_cpu:.2f} | {m.workers_cpu:.2f} | "
                  f"{m.main_cpu + m.workers_cpu:.2f} |", flush=True)
    print()
    for what, values in (("wall", walls), ("CPU", cpus)):
        best = {b: min(v) for b, v in values.items()}
        median = {b: statistics.median(v) for b, v in values.items()}
        print(f"{what}: local best {best['local']:.2f} s, median {median['local']:.2f} s; dask best "
              f"{best['dask']:.2f} s, median {median['dask']:.2f} s; dask / local "
              f"{best['dask'] / best['local']:.2f} (best), {median['dask'] / median['local']:.2f} (median)")
    print(identical(tables, "--backend"))
    print(f"\n{load()} at the end")


STARTING = """
import sys, time
t = time.perf_counter()
from simtool.pipeline import cluster
own = cluster.embedded(int(sys.argv[1]))
own.client.wait_for_workers(own.size, timeout=120)
print(time.perf_counter() - t)
cluster.close_embedded()
"""


def start(rounds: int, jobs: int) -> None:
    print(f"\n## the embedded cluster's start, {jobs} workers ({load()} at the start)\n")
    print("| round | wall to the last join s | CPU s (whole tree) |")
    print("| --- | --- | --- |")
    for k in range(rounds):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, "-c", STARTING, str(jobs)], capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = sum(getattr(after, f) - getattr(before, f) for f in ("ru_utime", "ru_stime"))
        print(f"| {k} | {float(out.stdout.split()[-1]):.2f} | {cpu:.2f} |", flush=True)
        time.sleep(1)
    print(f"\n{load()} at the end")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7, help="deals per run (default 1e7)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each backend (default 2)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of both (default 2)")
    parser.add_argument("--game", default="black-white")
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--start", action="store_true", help="time only the embedded cluster's start")
    args = parser.parse_args(argv)
    if args.n < 1 or args.n != int(args.n):
        parser.error("--n must be a whole number of deals, at least 1")
    if args.rounds < 1 or args.jobs < 1:
        parser.error("--rounds and --jobs must be at least 1")
    args.n = int(args.n)
    return args


if __name__ == "__main__":
    a = parse()
    if a.start:
        start(a.rounds, a.jobs)
    else:
        main(a.n, a.rounds, a.jobs, a.game, a.strategy)
