"""simtool's forked pool against the standard library's and joblib's, on the work of a real run.

    python bench/pool.py [--n 1e6] [--jobs 2] [--repeat 3]

Each pool plays the chunks of one Black & White 3p run under ``random`` (the play only, the
arrays a worker sends back, as ``simtool run`` hands them out) and the wall time from creating
the pool to the last result is printed, best of ``--repeat``, the pools taken in turns:

- ``forked``: :class:`simtool.pipeline.forked.ForkPool` (workers forked at once, results sent
  back from a thread of their own);
- ``futures``: ``concurrent.futures.ProcessPoolExecutor`` with the fork start method;
- ``loky``: joblib's reusable executor (spawned workers that import everything again).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor

from simtool.pipeline.runner import make_spec, parse_count, play_outcome


def forked(spec, jobs: int) -> float:
    from simtool.pipeline.forked import ForkPool

    start = time.perf_counter()
    pool = ForkPool(jobs)
    for f in [pool.submit(play_outcome, spec, i) for i in range(spec.n_chunks)]:
        f.result()
    pool.shutdown()
    return time.perf_counter() - start


def futures(spec, jobs: int) -> float:
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        for f in [pool.submit(play_outcome, spec, i) for i in range(spec.n_chunks)]:
            f.result()
    return time.perf_counter() - start


def loky(spec, jobs: int) -> float:
    from joblib.externals.loky import get_reusable_executor

    start = time.perf_counter()
    pool = get_reusable_executor(max_workers=jobs, reuse=False)
    for f in [pool.submit(play_outcome, spec, i) for i in range(spec.n_chunks)]:
        f.result()
    pool.shutdown(wait=True)
    return time.perf_counter() - start


POOLS = {"forked": forked, "futures": futures, "loky": loky}


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="1e6")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    return parser.parse_args(argv)


def main(argv=None) -> None:
    args = parse(argv)
    spec = make_spec("black-white", 3, parse_count(args.n, "--n"), "random", seed=1)
    best = {name: float("inf") for name in POOLS}
    for _ in range(args.repeat):
        for name, run in POOLS.items():
            best[name] = min(best[name], run(spec, args.jobs))
    print(f"{spec.n_chunks} chunks of Black & White 3p random, --jobs {args.jobs}, "
          f"load {os.getloadavg()[0]:.1f}: best of {args.repeat} wall seconds")
    for name, wall in best.items():
        print(f"  {name:8s} {wall:6.2f} s")


if __name__ == "__main__":
    main()
