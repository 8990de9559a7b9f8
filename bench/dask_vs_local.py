"""The dask backend against local on this machine, in turns (issue 27).

    python bench/dask_vs_local.py [--n 1e7] [--rounds 2] [--jobs 2] [--game black-white] [--strategy random]

Times ``simtool run --game G --strategy S --n N --jobs J`` with ``--backend local`` and with
``--backend dask`` (no ``--scheduler``: the cluster simtool starts on this machine), alternating
which goes first each round so that a change in the machine's load hits both alike. Per run: wall,
the main process's CPU and its workers' (dask's workers are its children too); then the best and
median of each and dask's ratio to local. On a shared machine read the CPU columns: an idle
machine's wall follows them.
"""

from __future__ import annotations

import argparse
import statistics

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


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7, help="deals per run (default 1e7)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each backend (default 2)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of both (default 2)")
    parser.add_argument("--game", default="black-white")
    parser.add_argument("--strategy", default="random")
    args = parser.parse_args(argv)
    if args.n < 1 or args.n != int(args.n):
        parser.error("--n must be a whole number of deals, at least 1")
    if args.rounds < 1 or args.jobs < 1:
        parser.error("--rounds and --jobs must be at least 1")
    args.n = int(args.n)
    return args


if __name__ == "__main__":
    a = parse()
    main(a.n, a.rounds, a.jobs, a.game, a.strategy)
