"""A whole command's CPU against another source tree's, in turns, paired: for a change too small to
see in a best-of-3 wall time on a shared machine.

    python bench/turns.py --before DIR [--rounds 10] [--game black-white] [--n 1e6] [--jobs 2]

DIR is a simtool source tree (``git archive COMMIT | tar -x -C DIR``), run through PYTHONPATH with
this environment, as ``bench/ratio.py --before`` does. Each round runs
``simtool run --game G --strategy random --n N --jobs J`` once with this tree and once with DIR,
the order alternating, and takes the CPU seconds of every process of each (user and system, the
workers included) and the wall. It prints the median and least of each, and the median and the
range of the per-round ratio this / before: both runs of a round share the machine's load of
that moment, so the ratio moves much less than either figure. Both trees are byte-compiled first
(``bench/ratio.py``'s ``compiled``): with PYTHONDONTWRITEBYTECODE set every start compiled every
module, 0.13 s of CPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from ratio import compiled, run_cli, sources


def turns(before: Path, rounds: int, game: str, n: int, jobs: int) -> dict[str, list[tuple[float, float]]]:
    """``{"after": [(wall, cpu), ...], "before": [...]}``, one pair a round."""
    compiled(sources() + sources(before))
    runs: dict[str, list[tuple[float, float]]] = {"after": [], "before": []}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        for r in range(rounds):
            order = ("after", "before") if r % 2 == 0 else ("before", "after")
            for which in order:
                runs[which].append(run_cli(game, n, jobs, out, tree=before if which == "before" else None))
    return runs


def report(runs: dict[str, list[tuple[float, float]]]) -> None:
    for which in ("before", "after"):
        walls, cpus = zip(*runs[which], strict=True)
        print(f"{which:6}  CPU s median {statistics.median(cpus):.3f}, least {min(cpus):.3f}; "
              f"wall s median {statistics.median(walls):.3f}, least {min(walls):.3f}")
    ratios = [a[1] / b[1] for a, b in zip(runs["after"], runs["before"], strict=True)]
    print(f"CPU after / before, round by round: median {statistics.median(ratios):.3f} "
          f"({min(ratios):.3f} to {max(ratios):.3f}, {sum(r < 1 for r in ratios)} of {len(ratios)} below 1); "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--game", default="black-white")
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not (args.before / "simtool").is_dir():
        parser.error(f"--before {args.before}: no simtool source tree there (no simtool/ folder)")
    report(turns(args.before, args.rounds, args.game, int(args.n), args.jobs))
