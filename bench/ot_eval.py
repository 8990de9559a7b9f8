"""Out-Trumped: a search seat against 3 x ``hoarder`` (seats rotated), two line-ups paired deal by
deal on the same deals (the strength table's cell: 4096 deals, seed 11, 2 jobs): win shares, the
paired change with its 95% interval, and CPU seconds of the whole process tree.

    python bench/ot_eval.py BASE OTHER [DEALS=4096] [SEED=11] [JOBS=2] [RULE=VALUE ...]

e.g. ``python bench/ot_eval.py pimc pimc@own=ot-learned 4096 12``.
"""

from __future__ import annotations

import os
import resource
import sys

import numpy as np

import simtool


def cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def wins(spec: str, n: int, seed: int, jobs: int, rules: dict) -> tuple[np.ndarray, float]:
    start = cpu()
    seats = simtool.run("out-trumped", n=n, strategy="hoarder", seats={0: spec}, rotate=True, seed=seed,
                        jobs=jobs, rules=rules or None).seats
    mine = seats.filter(seats["strategy"].cast(str) != "hoarder").sort("deal")
    assert len(mine) == n
    return mine["win"].to_numpy().astype(float), cpu() - start


def main(base: str, other: str, n: int = 4096, seed: int = 11, jobs: int = 2, *rules: str) -> None:
    given = dict(r.split("=", 1) for r in rules)
    a, ta = wins(base, n, seed, jobs, given)
    b, tb = wins(other, n, seed, jobs, given)
    half = lambda x: 1.96 * x.std(ddof=1) / np.sqrt(n)  # noqa: E731
    d = b - a
    load = os.getloadavg()[0]
    print(f"{n} deals, seed {seed}, rules {given or 'default'}, load {load:.1f}")
    print(f"  {base}: {a.mean():.4f} ± {half(a):.4f}, {n / ta:.0f} deals per CPU s")
    print(f"  {other}: {b.mean():.4f} ± {half(b):.4f}, {n / tb:.0f} deals per CPU s")
    print(f"  paired change {100 * d.mean():+.2f} ± {100 * half(d):.2f} points")


if __name__ == "__main__":
    args = sys.argv[1:]
    nums = [int(x) for x in args[2:5]]
    main(args[0], args[1], *nums, *args[5:])
