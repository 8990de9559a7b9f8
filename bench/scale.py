"""How one run scales with ``--jobs``, and where the main process becomes the limit (issue 27).

    python bench/scale.py --cores N [--n 1e7] [--game black-white] [--strategy random]

Times ``simtool run --game G --strategy S --n N --jobs J`` for J = 1, 2, 4, ... up to ``--cores``
(and ``--cores`` itself), on any machine. Per run: wall, speed-up over ``--jobs 1``, and the main
process's share of the wall time it is busy (its CPU seconds, every thread, over the wall). With 2
jobs or more the workers play (and, in a fresh ``simtool run``, make and write their chunks'
tables) while the main process hands out chunks and records them; once they have ended it joins
the chunk files into the whole tables. Its CPU up to then, less that of a two-chunk run (the
start-up), over the chunks, is what each chunk costs it while the workers play; the workers' CPU
per chunk over that is how many workers it can keep busy before it saturates: the limit for 32 or
64 workers. Its CPU after the workers ended, the whole tables, is a serial tail, the other limit
of the speed-up (Amdahl). With 1 job the main process plays everything itself. Last, the
machine's own ceiling: what ``--cores`` processes of pure Python get done at once against one
alone (a virtual machine's cores may share physical ones; turbo clocks drop as more are busy).
"""

from __future__ import annotations

import argparse
import os
import time

from measure import chunks, load, measure

SAMPLE = 0.05
"""Seconds between samples of the runs: the first and last that see a worker alive split the wall
and the main process's CPU. The two-chunk run is sampled ten times as often: on a fast machine
its workers live a few tenths of a second."""


def jobs_steps(cores: int) -> list[int]:
    """1, 2, 4, ... below ``cores``, then ``cores``."""
    steps, j = [], 1
    while j < cores:
        steps.append(j)
        j *= 2
    return [*steps, cores]


def command(game: str, strategy: str, n: int, jobs: int) -> list[str]:
    return ["run", "--game", game, "--strategy", strategy, "--n", str(n), "--jobs", str(jobs), "--seed", "1"]


def main(cores: int, n: int, game: str = "black-white", strategy: str = "random") -> None:
    print(f"\n## Jobs scaling: `simtool run --game {game} --strategy {strategy} --n {n:,}` "
          f"({load()} at the start)\n")
    # the least of two: a machine's first commands read simtool and its libraries from disk (on a
    # fresh 16-core machine the start-up's CPU came out above the whole 1e7-deal runs', leaving
    # every run's CPU per chunk at 0)
    # a run no sample saw with workers (0 s) would charge the start-up to every chunk below
    small = min((measure(command(game, strategy, 2 * measure_chunk(game, strategy), 2), memory=False,
                         interval=SAMPLE / 10) for _ in range(2)), key=lambda m: m.main_cpu_played)
    print("| jobs | wall s | speed-up | deals/s | start s | workers s | end s | main CPU s | main busy share "
          "| main CPU per chunk ms | whole tables CPU s | worker CPU per chunk ms | workers the main can feed |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    first, tables = None, {}
    for jobs in jobs_steps(cores):
        m = measure(command(game, strategy, n, jobs), memory=False, interval=SAMPLE)
        tables[jobs] = tables_sum(m.run)
        first = first or m.wall
        k = chunks(m)
        if jobs == 1 or k <= 2:
            tail = f"{'plays every chunk' if jobs == 1 else '-'} | - | - | -"
        else:
            main_chunk = max(m.main_cpu_played - small.main_cpu_played, 0.0) / (k - 2)
            worker_chunk = m.workers_cpu / k
            feeds = f"{worker_chunk / main_chunk:.0f}" if main_chunk > 0 else "-"
            tail = f"{1e3 * main_chunk:.2f} | {m.main_cpu - m.main_cpu_played:.2f} | {1e3 * worker_chunk:.1f} | {feeds}"
        print(f"| {jobs} | {m.wall:.2f} | {first / m.wall:.2f} | {n / m.wall:,.0f} | {phases(m)} | {m.main_cpu:.2f} | "
              f"{m.main_cpu / m.wall:.0%} | {tail} |", flush=True)
    print(f"\n{k:,} chunks of {m.run['chunk']:,}; the two-chunk run's main process (start-up and two "
          f"chunks) took {small.main_cpu_played:.2f} CPU s while its workers played; {load()} at the end")
    print(identical(tables, "--jobs"))
    print(ceiling(cores))


def _spin(start: float, seconds: float, done) -> None:
    """Pure Python from ``start`` for ``seconds``: how many loops this core managed."""
    while time.time() < start:
        pass
    loops, end = 0, start + seconds
    while time.time() < end:
        s = 0
        for i in range(10_000):
            s += i * i
        loops += 1
    done.put(loops)


def ceiling(cores: int, seconds: float = 2.0) -> str:
    """What ``cores`` processes at once get done against one alone, in a sentence: the most any
    ``--jobs`` could speed a run up on this machine. Cores are not always alike or free (a
    virtual machine's may share physical cores, turbo clocks drop as more are busy), and no
    hand-out of chunks gets past this."""
    import multiprocessing

    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    counts = {}
    for k in (1, cores):
        done = context.Queue()
        start = time.time() + 0.5  # every process started, then all begin together
        procs = [context.Process(target=_spin, args=(start, seconds, done)) for _ in range(k)]
        for p in procs:
            p.start()
        counts[k] = sorted(done.get() for _ in procs)
        for p in procs:
            p.join()
    alone, busy = counts[1][0], counts[cores]
    return (f"The machine's ceiling: {cores} processes of pure Python at once did {sum(busy) / alone:.1f} "
            f"times the work of one alone in {seconds:g} s (each {busy[0] / alone:.2f} to {busy[-1] / alone:.2f} "
            f"of it); {load()}.")


def phases(m) -> str:
    """The wall split where the samples first and last saw workers (to the sampling period): the
    start (interpreter, imports, the plan), the workers' play, the end (the whole tables, the
    record). ``-`` where no sample saw a worker (``--jobs 1`` plays in the main process)."""
    if m.workers_seen is None:
        return "- | - | -"
    first, last = m.workers_seen
    return f"{first:.2f} | {last - first:.2f} | {m.wall - last:.2f}"


def tables_sum(run: dict) -> str:
    """One digest of a run's tables: of the SHA-256 of every table file its run.json records (its
    ``played_sha256`` sums the settings played, not the tables)."""
    import hashlib
    import json

    return hashlib.sha256(json.dumps(run["sha256"], sort_keys=True).encode()).hexdigest()


def identical(tables: dict, what: str) -> str:
    """Whether every run wrote the same tables (:func:`tables_sum`), in a sentence."""
    runs = ", ".join(str(k) for k in tables)
    if len(set(tables.values())) == 1:
        return f"Tables identical at {what} {runs} (their files' SHA-256 digest {next(iter(tables.values()))[:16]})."
    return f"TABLES DIFFER across {what} {runs}: " + ", ".join(f"{k} {v[:16]}" for k, v in tables.items())


def measure_chunk(game: str, strategy: str) -> int:
    """Deals in one chunk of this run (from a one-deal run's record)."""
    return measure(command(game, strategy, 1, 1), memory=False, interval=SAMPLE).run["chunk"]


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, required=True, help="largest --jobs to try (this machine's cores)")
    parser.add_argument("--n", type=float, default=1e7, help="deals per run (default 1e7)")
    parser.add_argument("--game", default="black-white")
    parser.add_argument("--strategy", default="random")
    args = parser.parse_args(argv)
    if args.cores < 1:
        parser.error("--cores must be at least 1")
    if args.n < 1 or args.n != int(args.n):
        parser.error("--n must be a whole number of deals, at least 1")
    args.n = int(args.n)
    return args


if __name__ == "__main__":
    args = parse()
    main(args.cores, args.n, args.game, args.strategy)
