"""What ``--isolate`` costs: deals/s of one run with a plugin seat, in-process and isolated.

    python bench/isolate.py [--n 1e5] [--jobs 1] [--repeat 3] [--seats 1] [--plugin lowest]

Black & White 3p, ``--seats`` seats played by a plugin and the others by ``balance``. The plugin:
``lowest`` (``tests/plugins/good.py:lowest_card``, which reads no field of its view) or
``heuristic`` (``tests/plugins/heuristics.py:balance``, the built-in heuristic as a plugin file,
which reads the fields it needs); wall seconds of ``simtool.run`` (the isolated plugin's work is in
other processes), best of ``--repeat``, the two ways taken in turns. Each isolated run starts its
plugin processes afresh (about 0.5 s each), as a command does.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

import simtool
from simtool.pipeline.runner import parse_count

HERE = Path(__file__).resolve().parent
PLUGINS = {"lowest": f"{HERE.parent}/tests/plugins/good.py:lowest_card",
           "heuristic": f"{HERE.parent}/tests/plugins/heuristics.py:balance"}


def cpu() -> float:
    here, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return here.ru_utime + here.ru_stime + children.ru_utime + children.ru_stime


def timed(n: int, jobs: int, seats: int, plugin: str, isolate: bool) -> tuple[float, float]:
    """Wall and CPU seconds of one run (the CPU of its ended plugin processes included)."""
    from strategies import isolate as module

    start, used = time.perf_counter(), cpu()
    simtool.run("black-white", n, players=3, strategy="balance", seed=1, jobs=jobs, isolate=isolate,
                seats={s: PLUGINS[plugin] for s in range(seats)})
    for child in list(module._CHILDREN.values()):  # ended and reaped: its CPU counts
        module._end(child)
    return time.perf_counter() - start, cpu() - used


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="1e5")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--plugin", choices=sorted(PLUGINS), default="lowest")
    args = parser.parse_args(argv)
    n = parse_count(args.n, "--n")
    best = {False: [float("inf")] * 2, True: [float("inf")] * 2}
    for _ in range(args.repeat):
        for isolate in best:
            best[isolate] = [min(a, b) for a, b in zip(best[isolate], timed(n, args.jobs, args.seats,
                                                                            args.plugin, isolate), strict=True)]
    print(f"Black & White 3p, {args.seats} {args.plugin} plugin seat(s), n {n:,}, --jobs {args.jobs}, "
          f"load {os.getloadavg()[0]:.1f}: best of {args.repeat}")
    for isolate, (seconds, cpu_seconds) in best.items():
        per_cpu = f", {n / cpu_seconds:>10,.0f} deals per CPU s" if args.jobs == 1 else ""
        print(f"  {'isolated  ' if isolate else 'in-process'} {seconds:6.2f} s  {n / seconds:>10,.0f} "
              f"deals/s{per_cpu}")


if __name__ == "__main__":
    main()
