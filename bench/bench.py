"""Benchmarks: deals per second, peak memory and scaling. Prints numbers; asserts nothing.

    python bench/bench.py            # `make bench`: ratio, memory, scale (about 5 minutes on 2 cores)
    python bench/bench.py --huge     # and the memory of 1e8 deals (minutes more)
    python bench/bench.py --all      # and the in-process table, whole commands, search, dask (long)
    python bench/bench.py --quick    # smaller n everywhere, one timing each
    python bench/bench.py --only ratio    # one part: ratio, memory, scale, process, commands,
                                          # search or cluster

ratio: the whole CLI against one compiled thread of numba and of C (bench/ratio.py). memory: peak
memory of the whole process tree (main process and workers) of Black & White 3p random runs at
--jobs 2, quiet and printing their tables, as RSS, PSS and USS sums (bench/measure.py says why
three). scale: the --jobs table with the main process's busy share (bench/scale.py; ``--cores``
sets the largest --jobs). process: chunks played in-process (one core, then all cores) for every
game, player count and line-up. commands: whole commands from the shell, as a user types them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from measure import load, measure

import simtool.games
import strategies
from simtool.pipeline.runner import default_jobs, execute, make_spec


def lineups(game) -> list[str]:
    found = strategies.registry(game.id)
    plain = [s for s, found_s in found.items() if found_s.relative_cost() == 1]  # searches: search()
    return ["random", game.default_strategy, *[s for s in plain if s not in ("random", game.default_strategy)]]


def rate(spec, jobs: int) -> float:
    start = time.perf_counter()
    for _ in execute(spec, jobs, keep=False):
        pass
    return spec.n / (time.perf_counter() - start)


def in_process(n: int) -> None:
    cores = default_jobs()
    rate(make_spec("black-white", 3, 200_000, "random", seed=1), cores)  # start the worker pool
    print(f"## In-process deals/s (n = {n:,} per cell; all cores = {cores})\n")
    print(f"| game | players | line-up | 1 core | {cores} cores |")
    print("| --- | --- | --- | --- | --- |")
    for game in simtool.games.registry().values():
        for p in game.players:
            for name in lineups(game):
                spec = make_spec(game.id, p, n, name, seed=1)
                rate(make_spec(game.id, p, 1000, name, seed=1), 1)  # warm imports
                print(f"| {game.id} | {p} | {name} | {rate(spec, 1):,.0f} | {rate(spec, cores):,.0f} |",
                      flush=True)


def whole_command(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MiB, summed over the process tree)."""
    m = measure(args)
    return m.wall, m.rss


MEMORY_RUN = ["run", "--game", "black-white", "--players", "3", "--strategy", "random", "--jobs", "2"]


MEMORY_TARGET = 300
"""Issue 27: peak RSS of the whole process tree at most this many MB for 1e6 deals at --jobs 2,
flat in n (read here as MiB, the stricter)."""


def memory(sizes: list[int]) -> None:
    """Peak memory of the whole process tree for ``sizes`` deals, each run twice: with ``--quiet``
    and printing its tables, as a user types it (its workers then sum what the tables need as they
    play, docs/speed.md). Summed RSS counts the pages the forked workers share with the main
    process once per process; PSS shares them out. Main and worker: each one's own peak RSS."""
    print(f"\n## Memory: `simtool {' '.join(MEMORY_RUN)} --n N` (peaks over the process tree, "
          f"sampled every 0.1 s; issue 27: RSS sum <= {MEMORY_TARGET} at 1e6, flat in n)\n")
    print(f"({load()} at the start; load: the 1-minute load average after the row)\n")
    print("| n | tables | wall s | RSS sum MiB | PSS sum MiB | USS sum MiB | main RSS MiB | largest worker RSS MiB "
          "| main process PSS MiB | processes | load |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        for quiet in (True, False):
            m = measure([*MEMORY_RUN, "--n", str(n)], quiet=quiet)
            print(f"| {n:.0e} | {'--quiet' if quiet else 'printed'} | {m.wall:.1f} | {m.rss:.0f} | {m.pss:.0f} | "
                  f"{m.uss:.0f} | {m.main_rss:.0f} | {m.worker_rss:.0f} | {m.main_pss:.0f} | {m.processes} | "
                  f"{os.getloadavg()[0]:.2f} |", flush=True)


def commands(quick: bool) -> None:
    print("\n## Whole commands from the shell (best of 3 for n = 1e6)\n")
    print("| command | wall s | peak MiB |")
    print("| --- | --- | --- |")
    runs = [
        ["run", "--game", "black-white", "--players", "3", "--n", "1e6", "--strategy", "random"],
        ["run", "--game", "black-white", "--players", "3", "--n", "1e6"],
        ["run", "--game", "black-white", "--players", "3", "--n", "1e5", "--unit", "match"],
        ["run", "--game", "kansas-city", "--n", "1e6", "--strategy", "random"],
        ["run", "--game", "kansas-city", "--n", "1e6"],
        ["run", "--game", "trickster", "--n", "1e6", "--strategy", "random"],
        ["run", "--game", "trickster", "--n", "1e6"],
        ["run", "--game", "out-trumped", "--n", "1e6", "--strategy", "random"],
        ["run", "--game", "out-trumped", "--n", "1e6"],
        ["run", "--game", "out-trumped", "--n", "1e5", "--unit", "match"],
        ["run", "--game", "nine-lives", "--n", "1e6", "--strategy", "random"],
        ["run", "--game", "nine-lives", "--n", "1e6"],
        ["run", "--game", "nine-lives", "--n", "1e5", "--unit", "match", "--strategy", "random"],
        ["run", "--game", "hearts", "--n", "1e6", "--strategy", "random"],
        ["run", "--game", "hearts", "--n", "1e6"],
        ["run", "--game", "hearts", "--n", "1e5", "--unit", "match"],
    ]
    memory = [["run", "--game", "black-white", "--players", "3", "--n", "1e5", "--strategy", "random"],
              ["run", "--game", "black-white", "--players", "3", "--n", "1e7", "--strategy", "random"],
              ["run", "--game", "kansas-city", "--n", "1e7", "--strategy", "random"],
              ["run", "--game", "trickster", "--n", "1e7", "--strategy", "random"]]
    for args in runs if not quick else runs[:1]:
        best = min((whole_command(args) for _ in range(1 if quick else 3)), key=lambda r: r[0])
        print(f"| `simtool {' '.join(args)}` | {best[0]:.2f} | {best[1]:.0f} |", flush=True)
    for args in memory if not quick else memory[:1]:
        wall, peak = whole_command(args)
        print(f"| `simtool {' '.join(args)}` | {wall:.2f} | {peak:.0f} |", flush=True)


SEARCH_TARGETS = {("black-white", 3): 600, ("kansas-city", 4): 150, ("trickster", 4): 150,
                  ("out-trumped", 4): 150, ("nine-lives", 4): 150, ("hearts", 4): 150}
"""Deals/s one ``pimc`` seat (default parameters) against the game's default heuristic must reach,
whole CLI on 2 cores (issue 13)."""


def search(n: int) -> None:
    """One ``pimc`` seat against the game's default heuristic: in-process on one core, and the
    whole command on every core, against the target."""
    cores = default_jobs()
    print(f"\n## Search: one pimc seat, seats rotated (n = {n:,}; whole command on {cores} cores)\n")
    print(f"| game | players | 1 core, in-process | whole command, {cores} cores | target |")
    print("| --- | --- | --- | --- | --- |")
    for (game, p), target in SEARCH_TARGETS.items():
        spec = make_spec(game, p, n, None, {0: "pimc"}, seed=1, rotate=True)
        one = rate(spec, 1)
        wall, _ = whole_command(["run", "--game", game, "--players", str(p), "--seat", "0=pimc",
                                 "--rotate", "--n", str(n), "--seed", "1"])
        print(f"| {game} | {p} | {one:,.0f} | {n / wall:,.0f} | {target} |", flush=True)


def cluster_scaling(n: int) -> None:
    """Deals/s of one run on a local dask cluster of 1 and 2 single-threaded workers."""
    import socket

    from dask.distributed import Client

    import simtool

    print(f"\n## Dask cluster on 127.0.0.1 (black-white 3p random, n = {n:,})\n")
    print("| where | wall s | deals/s |")
    print("| --- | --- | --- |")
    start = time.perf_counter()
    simtool.run("black-white", n=n, players=3, strategy="random", seed=1, jobs=default_jobs())
    wall = time.perf_counter() - start
    print(f"| local, --jobs {default_jobs()} | {wall:.2f} | {n / wall:,.0f} |", flush=True)
    dask = str(Path(sys.executable).with_name("dask"))
    for workers in (1, 2):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        address = f"tcp://127.0.0.1:{port}"
        procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                   "--no-dashboard"], stderr=subprocess.DEVNULL)]
        procs += [subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--no-dashboard",
                                    "--host", "127.0.0.1"], stderr=subprocess.DEVNULL)
                  for _ in range(workers)]
        try:
            with Client(address, timeout="30s") as client:
                client.wait_for_workers(workers, timeout=60)
            start = time.perf_counter()
            simtool.run("black-white", n=n, players=3, strategy="random", seed=1,
                        backend="dask", scheduler=address)
            wall = time.perf_counter() - start
            print(f"| dask, {workers} worker{'s' if workers > 1 else ''} | {wall:.2f} | "
                  f"{n / wall:,.0f} |", flush=True)
        finally:
            for proc in procs:
                proc.terminate()
                proc.wait(timeout=30)


PARTS = ("ratio", "memory", "scale", "process", "commands", "search", "cluster")
DEFAULT_PARTS = PARTS[:3]


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller n, one timing each")
    parser.add_argument("--only", choices=PARTS, help="one part")
    parser.add_argument("--all", action="store_true", help=f"every part ({', '.join(PARTS)})")
    parser.add_argument("--huge", action="store_true", help="memory of 1e8 deals too (minutes)")
    parser.add_argument("--cores", type=int, default=default_jobs(),
                        help=f"largest --jobs of the scale table (default: this machine's {default_jobs()})")
    args = parser.parse_args(argv)
    if args.only and args.all:
        parser.error("--only and --all exclude each other")
    if args.cores < 1:
        parser.error("--cores must be at least 1")
    args.parts = (args.only,) if args.only else PARTS if args.all else DEFAULT_PARTS
    return args


if __name__ == "__main__":
    args = parse()
    quick = args.quick
    if "ratio" in args.parts:
        import ratio

        ratio.main(100_000 if quick else 1_000_000, 1 if quick else 3)
    if "memory" in args.parts:
        memory([10**5, 10**6] if quick else [10**6, 10**7, *([10**8] if args.huge else [])])
    if "scale" in args.parts:
        import scale

        scale.main(args.cores, 10**6 if quick else 10**7)
    if "process" in args.parts:
        in_process(50_000 if quick else 200_000)
    if "commands" in args.parts:
        commands(quick)
    if "search" in args.parts:
        search(4096 if quick else 8192)
    if "cluster" in args.parts:
        cluster_scaling(1_000_000 if quick else 4_000_000)
