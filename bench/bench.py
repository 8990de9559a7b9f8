"""Benchmarks: deals per second and peak memory. Prints numbers; asserts nothing.

    python bench/bench.py            # everything (a few minutes on 2 cores)
    python bench/bench.py --quick    # smaller n, no 1e7 memory run
    python bench/bench.py --only search   # the pimc search against its speed targets
    python bench/bench.py --only ratio    # whole CLI against compiled C loops (bench/ratio.py)

Part 1 plays chunks in-process (one core, then all cores through joblib) for every
game, player count and line-up. Part 2 times whole commands from the shell, as a user
types them, with the peak memory of the whole process tree (main process + workers).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

import simtool.games
import strategies
from simtool.runner import default_jobs, execute, make_spec

SIMTOOL = str(Path(sys.executable).with_name("simtool"))


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
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        proc = psutil.Popen([SIMTOOL, *args, "--out", out, "--force", "-q"], stdout=subprocess.DEVNULL)
        peak = 0
        done = threading.Event()

        def sample():
            nonlocal peak
            while not done.is_set():
                try:
                    tree = [proc, *proc.children(recursive=True)]
                    peak = max(peak, sum(p.memory_info().rss for p in tree))
                except psutil.Error:
                    pass
                time.sleep(0.02)

        t = threading.Thread(target=sample)
        t.start()
        code = proc.wait()
        wall = time.perf_counter() - start
        done.set()
        t.join()
        if code != 0:
            raise SystemExit(f"command failed: simtool {' '.join(args)}")
        return wall, peak / 2**20


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


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=("process", "commands", "search", "ratio", "cluster"))
    args = parser.parse_args()
    if args.only in (None, "process"):
        in_process(50_000 if args.quick else 200_000)
    if args.only in (None, "commands"):
        commands(args.quick)
    if args.only in (None, "search"):
        search(4096 if args.quick else 8192)
    if args.only in (None, "ratio"):
        import ratio

        ratio.main(100_000 if args.quick else 1_000_000, 1 if args.quick else 3)
    if args.only in (None, "cluster"):
        cluster_scaling(1_000_000 if args.quick else 4_000_000)
