"""Whole CLI against one compiled thread playing the same rules (issue 27's yardstick; issue 12's C).

    python bench/ratio.py [--n 1e6] [--repeat 3] [--game black-white] [--jobs 2] [--before DIR]
    python bench/bench.py --only ratio

For each game at its default player count two compiled single-threaded loops play whole deals
with every seat choosing uniformly among its legal options, as simtool's ``random`` does:
``bench/numba_ref.py`` (numba ``@njit``, the yardstick of issue 27, which asks for a ratio of 1.0
or less) and ``bench/compiled/<game>.c`` (plain C, ``gcc -O2``, issue 12's yardstick; faster
than the numba loops). This script times each loop for ``n`` deals (numba compiled beforehand,
so the compiler is never timed), times
``simtool run --game G --strategy random --n N --jobs 2 --out TMP --force --quiet``, and
prints one table: deals/s of each, the ratio (CLI wall / compiled wall for the same n), the
CPU ratio (CPU seconds of every CLI process / of the loop: steadier on a busy machine) and the
load average. Best of ``repeat`` wall times each, all taken in turns so that every best comes
from the quieter moments of a shared machine. Without numba or without a C compiler that
column says so and the other stands alone.

``--before DIR``: also time the CLI on the source tree in DIR (an older commit, such as
``git archive COMMIT | tar -x -C DIR``; run through PYTHONPATH with this environment), in
the same turns, and print its ratio too (against numba, or C without numba).

The same run checks the loops: every seat's mean score, tricks, rate and win share from each
compiled loop must agree with the CLI run's tables within sampling error (``max |z|``).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl
from measure import load

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "compiled"
SIMTOOL = str(Path(sys.executable).with_name("simtool"))

C_GAMES = ("black-white", "kansas-city", "trickster", "out-trumped", "nine-lives")
"""The games with a C loop in ``bench/compiled/``."""

TARGET = 1.0
"""The ratio against the numba loop every game must reach (issue 27)."""

Z_LIMIT = 4.5
"""Largest |z| of the agreement check that counts as agreement: 16 to 20 figures per game, so
a sound loop stays below it but for about one run in ten thousand."""


def compile_loops(build: Path, games=C_GAMES) -> dict[str, Path] | None:
    """Each game's loop compiled into ``build``; ``None`` without a C compiler."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        return None
    found = {}
    for game in games:
        source = SOURCES / f"{game.replace('-', '_')}.c"
        binary = build / source.stem
        subprocess.run([cc, "-O2", "-o", str(binary), str(source), "-lm"], check=True)
        found[game] = binary
    return found


def children_cpu() -> float:
    """CPU seconds of every finished child process so far (their own children included)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_loop(binary: Path, n: int, seed: int = 1) -> tuple[float, float, dict[str, list[float]]]:
    """Wall and CPU seconds of the whole process, and per-seat figures (``score``,
    ``score_sd``, ``tricks``, ``tricks_sd``, ``rate``, ``win``: one list entry per seat)."""
    cpu, start = children_cpu(), time.perf_counter()
    out = subprocess.run([str(binary), str(n), str(seed)], check=True, capture_output=True,
                         text=True).stdout
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    figures: dict[str, list[float]] = {}
    for line in out.splitlines():
        words = line.split()
        if words[0] != "seat":
            continue
        for name, value in zip(["score", "score_sd", "tricks", "tricks_sd", "rate", "win"],
                               [words[3], words[4], words[6], words[7], words[9], words[11]], strict=True):
            figures.setdefault(name, []).append(float(value))
    return wall, cpu, figures


def cli_env(tree: Path | None) -> dict[str, str] | None:
    """The environment the command runs in (``tree``: simtool's sources there, through PYTHONPATH)."""
    return dict(os.environ, PYTHONPATH=str(tree)) if tree else None


def sources(tree: Path | None = None) -> list[Path]:
    """The folders of the simtool and strategies packages that ``simtool`` imports in that
    environment (the installed ones, those on PYTHONPATH, or ``tree``'s; ``-P``: not the current
    folder's, which the command does not see either)."""
    code = "import simtool, strategies; print(simtool.__path__[0]); print(strategies.__path__[0])"
    shown = subprocess.run([sys.executable, "-P", "-c", code], check=True, capture_output=True, text=True,
                           env=cli_env(tree)).stdout
    return [Path(line) for line in shown.split()]


def compiled(folders: list[Path]) -> None:
    """Byte-compile ``folders`` as an installed package is: with PYTHONDONTWRITEBYTECODE set
    (and no ``__pycache__`` yet), every start of the command compiled every module it imports,
    0.3 s and more that a user never pays."""
    import compileall

    for folder in folders:
        compileall.compile_dir(folder, quiet=1)


def run_cli(game: str, n: int, jobs: int, out: Path, seed: int = 1,
            tree: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (all its processes) of the whole command, as a user types it
    (``tree``: simtool's sources there instead of the installed ones)."""
    env = cli_env(tree)
    cpu, start = children_cpu(), time.perf_counter()
    subprocess.run([SIMTOOL, "run", "--game", game, "--strategy", "random", "--n", str(n),
                    "--jobs", str(jobs), "--seed", str(seed), "--out", str(out), "--force",
                    "--quiet"], check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start, children_cpu() - cpu


def simtool_figures(game_id: str, seats: pl.DataFrame) -> dict[str, list[float]]:
    """Per seat: mean and sd of score, tricks, the game's (first) rate and the win share."""
    import simtool.games
    from simtool.analysis import of as analysis_of

    rate = next(iter(analysis_of(simtool.games.get(game_id)).rates.values()))
    by_seat = seats.group_by("seat").agg(
        pl.col("score").mean().alias("score"), pl.col("score").std().alias("score_sd"),
        pl.col("tricks").mean().alias("tricks"), pl.col("tricks").std().alias("tricks_sd"),
        rate.mean().alias("rate"), pl.col("win").mean().alias("win"),
        pl.col("win").std().alias("win_sd"), pl.len().alias("n")).sort("seat")
    return {c: by_seat[c].to_list() for c in by_seat.columns if c != "seat"}


def agreement(compiled: dict[str, list[float]], n_compiled: int, ours: dict[str, list[float]]) -> float:
    """Largest |z| over seats and figures (score, tricks, rate, win) between the two samples.

    The compiled loop prints the sds of score and tricks; a rate's variance is p(1 - p); the
    win share's sd is taken from simtool's sample for both sides (the loop does not print it).
    """
    worst = 0.0
    for s in range(len(ours["score"])):
        n = ours["n"][s]
        for name, sd_c, sd_s in (("score", compiled["score_sd"][s], ours["score_sd"][s]),
                                 ("tricks", compiled["tricks_sd"][s], ours["tricks_sd"][s]),
                                 ("rate", math.sqrt(compiled["rate"][s] * (1 - compiled["rate"][s])),
                                  math.sqrt(ours["rate"][s] * (1 - ours["rate"][s]))),
                                 ("win", ours["win_sd"][s], ours["win_sd"][s])):
            se = math.sqrt(sd_c**2 / n_compiled + sd_s**2 / n)
            diff = compiled[name][s] - ours[name][s]
            worst = max(worst, abs(diff) / se if se > 0 else (0.0 if diff == 0 else math.inf))
    return worst


def numba_loops():
    """bench/numba_ref.py, or ``None`` where numba is not installed (``pip install -e '.[bench]'``)."""
    if importlib.util.find_spec("numba") is None:
        return None
    import numba_ref

    return numba_ref


def run_numba(numba_ref, game: str, n: int, seed: int = 1) -> tuple[float, float, dict[str, list[float]]]:
    """Wall and CPU seconds of one compiled numba call (compiled beforehand), and its per-seat
    figures as ``run_loop`` gives them."""
    cpu, start = time.process_time(), time.perf_counter()
    sums = numba_ref.LOOPS[game](n, seed)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return wall, cpu, numba_ref.figures(sums, n)


def games_to_time(only: str | None, numba_ref) -> list[str]:
    """The five games with C loops, then any other registered game with a numba loop (Hearts)."""
    import simtool.games

    extra = [g for g in (numba_ref.LOOPS if numba_ref else ()) if g not in C_GAMES and g in simtool.games.registry()]
    return [g for g in (*C_GAMES, *extra) if only in (None, g)]


def best(runs: list[tuple]) -> tuple[float, float]:
    """The least wall and the least CPU seconds of ``runs`` (each ``(wall, cpu, ...)``)."""
    return min(r[0] for r in runs), min(r[1] for r in runs)


def main(n: int = 1_000_000, repeat: int = 3, jobs: int = 2, only: str | None = None,
         before: Path | None = None) -> None:
    import simtool.games

    numba_ref = numba_loops()
    games = games_to_time(only, numba_ref)
    print(f"\n## Whole CLI (--jobs {jobs}) against one compiled thread, `--strategy random`, "
          f"n = {n:,} (best of {repeat}; {load()} at the start)\n")
    for tree, what in ((None, "the CLI"), *(((before, "--before"),) if before else ())):
        found = sources(tree)
        compiled(found)
        print(f"{what} runs simtool from {found[0]}\n")
    if numba_ref is None:
        print("numba is not installed (`pip install -e '.[bench]'`): no numba column\n")
    else:
        numba_ref.warm_up(games)  # compiled (or loaded from its cache) before any timing
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "bin").mkdir()
        loops = compile_loops(Path(tmp) / "bin", [g for g in games if g in C_GAMES])
        if loops is None:
            print("no C compiler (gcc or cc) on this machine: no C column\n")
        then = " ratio before | CPU ratio before |" if before else ""
        print(f"| game | players | CLI deals/s | numba deals/s | ratio | CPU ratio | C deals/s | ratio to C "
              f"| CPU ratio to C |{then} load | check max abs z, numba / C |")
        print("| --- | --- |" + " --- |" * (9 + 2 * bool(before)))
        for game in games:
            out = Path(tmp) / "runs" / game
            numba, c, cli, old = [], [], [], []
            for seed in range(1, repeat + 1):  # in turns: each best from the quieter moments
                if numba_ref:
                    numba.append(run_numba(numba_ref, game, n, seed))
                if loops and game in loops:
                    c.append(run_loop(loops[game], n, seed))
                if before:
                    old.append(run_cli(game, n, jobs, out, tree=before))
                cli.append(run_cli(game, n, jobs, out))
            ours = simtool_figures(game, pl.read_parquet(out / "seats.parquet"))
            cli_wall, cli_cpu = best(cli)
            cells = [f"{n / cli_wall:,.0f}"]
            checks = []
            for runs in (numba, c):
                if runs:
                    wall, cpu = best(runs)
                    z = agreement(min(runs, key=lambda r: r[0])[2], n, ours)
                    cells.append(f"{n / wall:,.0f} | {cli_wall / wall:.2f} | {cli_cpu / cpu:.2f}")
                    checks.append(f"{z:.1f} ({'agrees' if z < Z_LIMIT else 'DISAGREES'})")
                else:
                    cells.append("- | - | -")
                    checks.append("-")
            if before:
                wall, cpu = best(numba or c)
                old_wall, old_cpu = best(old)
                cells.append(f"{old_wall / wall:.2f} | {old_cpu / cpu:.2f}")
            print(f"| {game} | {simtool.games.get(game).default_players} | {' | '.join(cells)} | "
                  f"{os.getloadavg()[0]:.2f} | {' / '.join(checks)} |", flush=True)
    print(f"\nratio: CLI wall / compiled wall for the same n (target: {TARGET:.1f} or less against numba, "
          f"issue 27); CPU ratio: CPU seconds of every CLI process / of the loop; load: 1-minute load "
          f"average after the row ({load()} at the end)")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    import simtool.games

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e6, help="deals per timing (default 1e6)")
    parser.add_argument("--repeat", type=int, default=3, help="timings of each, best taken (default 3)")
    parser.add_argument("--jobs", type=int, default=2, help="the CLI's --jobs (default 2)")
    parser.add_argument("--game", default=None, choices=list(simtool.games.registry()),
                        help="one game (default: every game with a compiled loop)")
    parser.add_argument("--before", type=Path, default=None,
                        help="source tree of an older commit to time in the same turns")
    args = parser.parse_args(argv)
    if args.n < 1 or args.n != int(args.n):
        parser.error(f"--n must be a whole number of deals, at least 1 (got {args.n:g})")
    if args.repeat < 1 or args.jobs < 1:
        parser.error("--repeat and --jobs must be at least 1")
    if args.before is not None and not (args.before / "simtool").is_dir():
        parser.error(f"--before {args.before}: no simtool source tree there (no simtool/ folder)")
    if args.game and not games_to_time(args.game, numba_loops()):
        parser.error(f"--game {args.game}: no compiled loop plays it (numba loops: "
                     f"{'numba not installed' if numba_loops() is None else ', '.join(numba_loops().LOOPS)})")
    args.n = int(args.n)
    return args


if __name__ == "__main__":
    args = parse()
    main(args.n, args.repeat, args.jobs, args.game, args.before)
