"""``make strength``: the strength table of the README (docs/strength.md, .json, .csv).

One search seat against each game's default heuristic, seats rotated: ``pimc`` at its default
budget and ``clairvoyant`` (the reference, not a fair player) at the default rules and two rule
variants of each game, and ``pimc`` with twice its samples at the default rules; the win share
per seat with its 95% interval and deals/s on 2 cores (from CPU time). About 7 min on 2 idle
cores (645 CPU-seconds; 53 min on the shared machine at load 10-20); ``--quick`` is a smoke run
of a minute or two (written under runs/, not docs/).
Interrupted, the same command goes on where it stopped (simtool.commands.strength). After a change
to a strategy's defaults, it replaces its plan: the cells played otherwise are played again, the
others kept, and one line says which.

    python bench/strength.py [--quick] [--n DEALS] [--seed S] [--jobs 2] [--games g,g] [--force]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simtool.analysis.strength import below
from simtool.commands import strength
from simtool.errors import SimtoolError


class _Parser(argparse.ArgumentParser):
    """argparse's errors on one line, as simtool's are (its usage is ``--help``)."""

    def error(self, message: str):
        self.exit(2, f"error: {message} (python bench/strength.py --help lists the options)\n")


def selected(text: str | None) -> list[str] | None:
    """``--games``: the games named, comma-separated; ``None`` (not given) for every game. A
    selection naming none (``--games ''``, ``--games ,``) is a mistake, not "every game": refused."""
    if text is None:
        return None
    names = [g.strip() for g in text.split(",")]
    if not all(names):
        raise SimtoolError(f"--games {text!r} {'names no game' if not any(names) else 'has an empty name'}; "
                           f"give games comma-separated, or leave --games out for every game "
                           f"(valid: {', '.join(strength.GAMES)})")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{strength.QUICK_DEALS} deals a cell, "
                        "written to runs/strength-quick/ (a smoke run)")
    parser.add_argument("--n", type=int, help=f"deals a cell (default {strength.DEALS:,})")
    parser.add_argument("--seed", type=int, default=strength.SEED)
    parser.add_argument("--jobs", type=int, default=2, help="cores (default 2, the table's)")
    parser.add_argument("--games", help=f"comma-separated (default all: {','.join(strength.GAMES)})")
    parser.add_argument("--runs", type=Path, help="runs folder (default runs/strength, or "
                        "runs/strength-quick/runs with --quick)")
    parser.add_argument("--out", type=Path, help="the table's files, without suffix (default docs/strength, "
                        "or runs/strength-quick/strength with --quick)")
    parser.add_argument("--force", action="store_true", help="play every cell again")
    args = parser.parse_args(argv)
    quick = Path("runs/strength-quick")
    n = args.n if args.n is not None else strength.QUICK_DEALS if args.quick else strength.DEALS
    runs = args.runs or (quick / "runs" if args.quick else Path("runs/strength"))
    out = args.out or (quick / "strength" if args.quick else Path("docs/strength"))
    try:
        games = selected(args.games)
        strength.check_outputs(out)  # before the first cell: a table path that is someone's file
        cells, context = strength.measure(runs, games, n, args.seed, args.jobs, args.force)
        context["command"] = " ".join(["python bench/strength.py", *(argv if argv is not None else sys.argv[1:])])
        written = strength.write(cells, context, out)
    except SimtoolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"interrupted: the finished cells and chunks are kept; go on with {strength.AGAIN}",
              file=sys.stderr)
        return 130
    for path in written:
        print(f"wrote {path}")
    for line in below(cells):
        print(line)
    print(f"{len(cells)} cells ({context['kept']} kept from an earlier call) in {context['runtime']}; "
          f"the cells' own wall time summed {context['cells_wall']}; load average {context['load']} at the start, "
          f"{context['load_end']} at the end" + ("" if below(cells) else "; none below the fair share"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
