"""Sweeps: a grid of games x player counts x rule options x line-ups, run as one job.

Every cell is an ordinary run folder (so ``simtool report`` and notebooks read it as any
other), every cell uses the sweep's seed (cells of one game and player count play the same
deals, and the report pairs their differences deal by deal), and the chunks of all cells
go to one pool of workers, local or dask, so that small cells still use every core.
"""

from __future__ import annotations

import itertools
import time
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from . import games, options
from .api import metadata
from .errors import SimtoolError, choices
from .results import RunWriter
from .runner import BACKENDS, RunSpec, Task, default_jobs, execute_tasks, make_spec, parse_count

GRID_KEYS = ("games", "players", "rules", "lineups", "n", "seed", "unit", "rotate")


@dataclass
class Grid:
    """What a sweep varies. Empty ``players`` or ``lineups``: each game's default."""

    games: list[str]
    players: list[int] = field(default_factory=list)
    rules: dict[str, list[str]] = field(default_factory=dict)  # name -> values, for games having it
    lineups: list[str] = field(default_factory=list)
    n: int = 100_000
    seed: int | None = None
    unit: str = "deal"
    rotate: bool = False


def read_toml(path: Path) -> dict:
    """A grid file: top-level keys of :data:`GRID_KEYS`; ``rules`` is a table of lists."""
    try:
        data = tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise SimtoolError(f"grid file {path} not found") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SimtoolError(f"cannot read grid file {path}: {exc}") from None
    unknown = set(data) - set(GRID_KEYS)
    if unknown:
        raise SimtoolError(f"unknown key '{sorted(unknown)[0]}' in {path}; valid: {choices(GRID_KEYS)}")
    return data


def make_grid(data: dict) -> Grid:
    """A Grid from a grid file's (or the command line's) values, checked."""
    listed = {k: v if isinstance(v, list) else [v] for k, v in data.items()
              if k in ("games", "players", "lineups")}
    if not listed.get("games"):
        raise SimtoolError(f"a sweep needs at least one game; valid: {choices(sorted(games.registry()))}")
    rules = data.get("rules") or {}
    if not isinstance(rules, dict):
        raise SimtoolError("rules must be a table of NAME = [values]")
    seed = data.get("seed")
    return Grid(games=[str(g) for g in listed["games"]],
                players=[int(p) for p in listed.get("players", [])],
                rules={k: [str(x) for x in (v if isinstance(v, list) else [v])] for k, v in rules.items()},
                lineups=[str(x) for x in listed.get("lineups", [])],
                n=parse_count(data.get("n", 100_000)), seed=None if seed is None else int(seed),
                unit=str(data.get("unit", "deal")), rotate=bool(data.get("rotate", False)))


def lineup(text: str, game, p: int) -> dict[int, str]:
    """``"greedy,target"``: seat 0 greedy, every later seat the last name (target).
    ``default`` names the game's default strategy."""
    names = [n.strip() for n in text.split(",")]
    if not all(names):
        raise SimtoolError(f"bad line-up {text!r}; expected NAME or NAME,NAME,... (one per seat)")
    if len(names) > p:
        raise SimtoolError(f"line-up {text!r} names {len(names)} seats; {game.id} has {p} players here")
    names = [game.default_strategy if n == "default" else n for n in names]
    return {s: names[min(s, len(names) - 1)] for s in range(p)}


def cells(grid: Grid) -> list[RunSpec]:
    """Every combination, in grid order; a rule varies only in the games that have it."""
    seed = grid.seed if grid.seed is not None else int(np.random.SeedSequence().entropy % (1 << 63))
    known = {o.name for g in grid.games for o in games.get(g).options}
    for name in grid.rules:
        if name not in known:
            raise SimtoolError(f"unknown rule '{name}' for the games of this sweep; "
                               f"valid: {choices(sorted(known)) or 'none'}")
    specs = []
    for game_id in grid.games:
        g = games.get(game_id)
        own = {k: v for k, v in grid.rules.items() if k in {o.name for o in g.options}}
        for p in grid.players or [g.default_players]:
            p = games.check_players(g, p)
            for values in itertools.product(*own.values()):
                for text in grid.lineups or ["default"]:
                    specs.append(make_spec(game_id, p, grid.n, None, lineup(text, g, p),
                                           dict(zip(own, values, strict=True)), grid.unit,
                                           seed, grid.rotate))
    return specs


def folder_name(spec: RunSpec) -> str:
    """A readable, unique folder name for a cell."""
    parts = [spec.game, f"{spec.players}p", *(f"{k}-{v}" for k, v in spec.rules.items())]
    parts.append("+".join(dict.fromkeys(spec.lineup)) if len(set(spec.lineup)) > 1 else spec.lineup[0])
    return "_".join(parts).replace("/", "-").replace(":", "-")


def run(specs: list[RunSpec], runs_dir: Path, jobs: int | None = None, force: bool = False,
        backend: str = "local", scheduler: str | None = None, progress=None) -> list[Path]:
    """Play every cell into ``runs_dir/<cell>``; all or nothing: a failure leaves no cell looking
    finished."""
    if backend not in BACKENDS:
        raise SimtoolError(f"unknown backend '{backend}'; valid: {', '.join(BACKENDS)}")
    jobs = jobs or default_jobs()
    names = [folder_name(s) for s in specs]
    for i, name in enumerate(names):  # two cells can share a name only if the grid repeats itself
        if names.count(name) > 1:
            names[i] = f"{name}_{i}"
    writers = []
    try:
        for spec, name in zip(specs, names, strict=True):
            writers.append(RunWriter(Path(runs_dir) / name, force, spec.as_dict()))
        tasks = [Task(spec, i, w.parts) for spec, w in zip(specs, writers, strict=True)
                 for i in range(spec.n_chunks)]
        started, clock = datetime.now(timezone.utc), time.perf_counter()
        if progress:  # the bar shows the true total from the start
            progress(0, len(tasks))
        for done, _ in enumerate(execute_tasks(tasks, jobs, False, backend, scheduler), start=1):
            if progress:
                progress(done, len(tasks))
        wall = time.perf_counter() - clock
        for spec, w in zip(specs, writers, strict=True):
            w.finish(metadata(spec, jobs, started, wall) | {"backend": backend, "sweep_cells": len(specs)})
    except BaseException:
        for w in writers:
            if not (w.out / "run.json").exists():
                w.abort()
        raise
    return [w.out for w in writers]


def parse_list(values: list[str], what: str) -> list[str]:
    """``["4,5", "6"]`` to ``["4", "5", "6"]``: repeatable options that also take commas."""
    out = [v.strip() for text in values for v in text.split(",")]
    if any(not v for v in out):
        raise SimtoolError(f"bad --{what} {values!r}; expected values separated by commas")
    return out


def rules_arg(items: list[str]) -> dict[str, list[str]]:
    """``--rule pass_count=2,3`` (repeatable) to ``{"pass_count": ["2", "3"]}``."""
    return {name: parse_list([value], "rule") for name, value in options.parse_assignments(items).items()}
