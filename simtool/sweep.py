"""Sweeps: a grid of games x player counts x rule options x line-ups, run as one job.

Every cell is an ordinary run folder (so ``simtool report`` and notebooks read it as any
other), every cell uses the sweep's seed (cells of one game and player count play the same
deals, and the report pairs their differences deal by deal), and the chunks of all cells
go to one pool of workers, local or dask, so that small cells still use every core.
"""

from __future__ import annotations

import itertools
import json
import math
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from . import games, options
from .api import check_timeout, expected_rows, metadata
from .errors import SimtoolError, choices
from .results import SPEC, RunWriter, run_kind, write_json
from .runner import (
    BACKENDS,
    UNITS,
    RunSpec,
    Task,
    execute_tasks,
    game_of,
    jobs_used,
    make_spec,
    parse_count,
    spec_from_dict,
)

GRID_KEYS = ("games", "players", "rules", "lineups", "n", "seed", "unit", "rotate", "duplicate",
             "ladder", "restrict", "large")
LARGE = 10_000
"""Combinations (games x players x rule values x line-ups) a grid may hold unless it says
``large``: each is at least one run folder, and a grid this size is usually a typo."""


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
    duplicate: bool = False
    ladder: bool = False  # a skill ladder per cell instead of line-ups (see simtool.ladder)
    restrict: bool = False  # restricted play per cell: each restriction's cost (see simtool.restrict)
    large: bool = False  # more than LARGE combinations is meant


def read_toml(path: Path) -> dict:
    """A grid file: top-level keys of :data:`GRID_KEYS`; ``rules`` is a table of lists."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SimtoolError(f"grid file {path} not found") from None
    except UnicodeDecodeError as exc:
        raise SimtoolError(f"grid file {path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
                           f"offset {exc.start}); save it as UTF-8") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SimtoolError(f"cannot read grid file {path}: {exc}") from None
    unknown = set(data) - set(GRID_KEYS)
    if unknown:
        raise SimtoolError(f"unknown key '{sorted(unknown)[0]}' in {path}; valid: {choices(GRID_KEYS)}")
    return data


def make_grid(data: dict) -> Grid:
    """A Grid from a grid file's (or the command line's) values, checked value by value."""
    listed = {k: _values(k, v) for k, v in data.items() if k in ("games", "players", "lineups")}
    if not listed.get("games"):
        raise SimtoolError(f"a sweep needs at least one game; valid: {choices(sorted(games.registry()))}")
    rules = data.get("rules") or {}
    if not isinstance(rules, dict):
        raise SimtoolError("rules must be a table of NAME = [values]")
    listed_rules = list_rules()
    for name, values in rules.items():
        values = values if isinstance(values, list) else [values]
        if not values:
            raise SimtoolError(f"rule '{name}' has no values: the grid would be empty")
        for v in values:
            numbers = name in listed_rules and isinstance(v, list) and all(isinstance(x, int) for x in v)
            if not (isinstance(v, (str, int, float)) or numbers):
                raise SimtoolError(f"bad value {v!r} for rule '{name}'; expected a value such as 2 or \"low\"")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise SimtoolError(f"bad seed {seed!r}; expected a whole number >= 0")
    rotate, duplicate = data.get("rotate", False), data.get("duplicate", False)
    for key, value in (("rotate", rotate), ("duplicate", duplicate)):
        if not isinstance(value, bool):
            raise SimtoolError(f"bad {key} {value!r}; expected true or false")
    unit = data.get("unit", "deal")
    if not isinstance(unit, str):
        raise SimtoolError(f"bad unit {unit!r}; valid: {choices(UNITS)}")
    ladder = data.get("ladder", False)
    if not isinstance(ladder, bool):
        raise SimtoolError(f"bad ladder {ladder!r}; expected true or false")
    if ladder and data.get("lineups"):
        raise SimtoolError("a ladder sweep plays its own line-ups (each rung against the one below); "
                           "leave out lineups, or leave out ladder")
    restrict, large = data.get("restrict", False), data.get("large", False)
    for key, value in (("restrict", restrict), ("large", large)):
        if not isinstance(value, bool):
            raise SimtoolError(f"bad {key} {value!r}; expected true or false")
    if restrict and (ladder or unit != "deal" or duplicate):
        raise SimtoolError("restricted play pairs single deals of its own runs; leave out ladder, "
                           "duplicate and unit = \"match\", or leave out restrict")
    if restrict and any("," in x for x in listed.get("lineups", [])):
        raise SimtoolError("with restrict, lineups name the strategies to restrict, one per entry "
                           "(such as [\"target\", \"greedy\"]), not seat by seat")
    return Grid(games=[_text(g, "games") for g in listed["games"]],
                players=[_count(p) for p in listed.get("players", [])],
                rules={k: [",".join(map(str, x)) if isinstance(x, list) else str(x)
                           for x in (v if isinstance(v, list) else [v])] for k, v in rules.items()},
                lineups=[_text(x, "lineups") for x in listed.get("lineups", [])],
                n=parse_count(data.get("n", 100_000)), seed=seed, unit=unit, rotate=rotate,
                duplicate=duplicate, ladder=ladder, restrict=restrict, large=large)


def _values(key: str, value) -> list:
    if value == []:
        raise SimtoolError(f"{key} = [] lists no values: the grid would be empty (leave {key} "
                           f"out for each game's default)")
    return value if isinstance(value, list) else [value]


def _text(value, key: str) -> str:
    if not isinstance(value, str):
        raise SimtoolError(f"bad {key} {value!r}; expected names in quotes")
    return value


def _count(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimtoolError(f"bad players {value!r}; expected whole numbers such as [4, 5]")
    return value


def lineup(text: str, game, p: int) -> dict[int, str]:
    """``"greedy,target"``: seat 0 greedy, every later seat the last name (target).
    ``default`` names the game's default strategy. A name may carry parameters
    (``target@under=1,mistakes=0.1``): their commas do not separate seats."""
    import strategies

    names = strategies.split_lineup(text)
    if not all(names):
        raise SimtoolError(f"bad line-up {text!r}; expected NAME or NAME,NAME,... (one per seat)")
    if len(names) > p:
        raise SimtoolError(f"line-up {text!r} names {len(names)} seats; {game.id} has {p} players here")
    names = [game.default_strategy + n[len("default"):] if n.partition("@")[0] == "default" else n
             for n in names]
    return {s: names[min(s, len(names) - 1)] for s in range(p)}


def plan(grid: Grid, progress=None) -> tuple[list[RunSpec], list[dict]]:
    """The sweep's runs and what each adds to its ``run.json``: :func:`cells`, or with
    ``ladder`` the rung runs of one skill ladder per game, player count and rule variant; with
    ``restrict`` the runs measuring each restriction of the game's default strategy (or of each
    strategy ``lineups`` names) per game, player count and rule variant. A run that a repeated
    value makes twice (``games = ["black-white", "black-white"]``, ``pass_count = [3, "3"]``,
    the line-ups ``default`` and its strategy's name) is planned once. A grid of more than
    :data:`LARGE` combinations is refused unless it says ``large``, before any is listed.
    ``progress(done, total)``: combinations planned, from time to time."""
    total = size(grid)
    if total > LARGE and not grid.large:
        raise SimtoolError(f"the grid holds {total:,} combinations of games, players, rule values and "
                           f"line-ups, more than {LARGE:,} (each a run folder); narrow it, or give "
                           f"--large (large = true in a grid file) to play them all")
    if not grid.ladder and not grid.restrict:
        specs = cells(grid, progress)
        return _once(specs, [{} for _ in specs])
    from . import ladder, restrict

    seed = grid.seed if grid.seed is not None else int(np.random.SeedSequence().entropy % (1 << 63))
    specs, extra = [], []
    for done, (game_id, p, rules) in enumerate(variants(grid), start=1):
        if grid.ladder:
            more_specs, more_extra = ladder.plan(game_id, p, rules, grid.n, seed, None, grid.unit)
            specs += more_specs
            extra += more_extra
        for name in [] if grid.ladder else grid.lineups or ["default"]:
            name = game_of(game_id).default_strategy + name[len("default"):] \
                if name.partition("@")[0] == "default" else name
            more_specs, more_extra = restrict.plan(game_id, p, rules, grid.n, seed, name)
            specs += more_specs
            extra += more_extra
        _tick(progress, done * max(1, len(grid.lineups)), total)
    return _once(specs, extra)


def size(grid: Grid) -> int:
    """The grid's combinations (games x players x rule values x line-ups), counted, not listed."""
    total = 0
    for game_id in grid.games:
        own = {o.name for o in game_of(game_id).options}
        total += (len(grid.players) or 1) * max(1, len(grid.lineups)) * math.prod(
            len(v) for k, v in grid.rules.items() if k in own)
    return total


def _tick(progress, done: int, total: int) -> None:
    if progress and (done % 1000 == 0 or done == total):
        progress(done, total)


def _once(specs: list[RunSpec], extra: list[dict]) -> tuple[list[RunSpec], list[dict]]:
    """The runs without repeats: the first of equal runs (and equal ``extra``) is kept."""
    kept = {}
    for spec, more in zip(specs, extra, strict=True):
        # repr: the resolved rules of a game come in its options' order, as values of their type
        kept.setdefault((repr(spec), json.dumps(more, sort_keys=True, default=str)), (spec, more))
    return [s for s, _ in kept.values()], [m for _, m in kept.values()]


def variants(grid: Grid):
    """``(game, players, rules)`` of every cell, in grid order; a rule varies only in the games
    that have it."""
    known = {o.name for g in grid.games for o in game_of(g).options}
    for name in grid.rules:
        if name not in known:
            raise SimtoolError(f"unknown rule '{name}' for the games of this sweep; "
                               f"valid: {choices(sorted(known)) or 'none'}")
    for game_id in grid.games:
        g = game_of(game_id)
        own = {k: v for k, v in grid.rules.items() if k in {o.name for o in g.options}}
        for p in grid.players or [g.default_players]:
            p = games.check_players(g, p)
            for values in itertools.product(*own.values()):
                yield g.id, p, dict(zip(own, values, strict=True))


def cells(grid: Grid, progress=None) -> list[RunSpec]:
    """Every combination, in grid order; a rule varies only in the games that have it."""
    seed = grid.seed if grid.seed is not None else int(np.random.SeedSequence().entropy % (1 << 63))
    specs, total = [], size(grid)
    for game_id, p, rules in variants(grid):
        g = game_of(game_id)
        for text in grid.lineups or ["default"]:
            specs.append(make_spec(game_id, p, grid.n, None, lineup(text, g, p), rules, grid.unit,
                                   seed, grid.rotate, duplicate=grid.duplicate))
            _tick(progress, len(specs), total)
    return specs


def folder_name(spec: RunSpec) -> str:
    """A readable folder name for a cell: the rules it sets apart from the defaults (a game has
    many rule options; the name stays short and the same when one is added)."""
    default = {o.name: o.default for o in game_of(spec.game).options}
    parts = [spec.game, f"{spec.players}p",
             *(f"{k}-{v}" for k, v in spec.rules.items() if default.get(k) != v)]
    parts.append("+".join(dict.fromkeys(spec.lineup)) if len(set(spec.lineup)) > 1 else spec.lineup[0])
    return "_".join(parts).replace("/", "-").replace(":", "-")


def folder_names(specs: list[RunSpec]) -> list[str]:
    """Each cell's :func:`folder_name`, made unique (two different cells can share one: a
    plugin's path and a name with '-' for '/'): all but the last of a name get ``_<index>``."""
    names = [folder_name(s) for s in specs]
    left = Counter(names)
    unique = []
    for i, name in enumerate(names):
        left[name] -= 1
        unique.append(f"{name}_{i}" if left[name] else name)
    return unique


SWEEP = "sweep.json"
"""The cells of a sweep, saved in its runs folder first, so that ``--resume`` can finish it."""


def run(specs: list[RunSpec], runs_dir: Path, jobs: int | None = None, force: bool = False,
        backend: str = "local", scheduler: str | None = None, progress=None,
        report: dict | None = None, timeout: float | None = None,
        extra: list[dict] | None = None) -> list[Path]:
    """Play every cell into ``runs_dir/<cell>``. A cell already finished with the same
    specification is kept as it is, an interrupted one is resumed (``force``: both are played
    again). A failure leaves no cell of this sweep looking finished; Ctrl-C keeps every finished
    chunk for ``simtool sweep --resume``. ``report`` (output and title) is saved for the resume;
    ``extra``: per cell, more for its ``run.json`` (a ladder rung says which)."""
    if backend not in BACKENDS:
        raise SimtoolError(f"unknown backend '{backend}'; valid: {', '.join(BACKENDS)}")
    check_timeout(timeout)
    names = folder_names(specs)
    runs_dir = Path(runs_dir)
    extra = extra or [{} for _ in specs]
    check(specs, runs_dir, report, extra, names)
    _open_files(len(specs))
    save(runs_dir, specs, names, report or {}, extra)
    writers, tasks = [], []
    try:
        for spec, name, more in zip(specs, names, extra, strict=True):
            folder = runs_dir / name
            kind = run_kind(folder)
            refile = False
            if not force and kind == "finished" and finished_spec(folder) == spec:
                recorded = _read_json(folder / "run.json", {})
                if all(recorded.get(k) == v for k, v in more.items()):
                    continue
                refile = True  # the same run filed under another ladder: play it again as this one's
            resume = not force and kind == "interrupted" and saved_spec(folder) == spec
            if resume:
                from .runner import check_beside

                check_beside(spec)
            writer = RunWriter(folder, force or refile, spec.as_dict(), resume)
            finished = writer.done(spec.unit, lambda t, i, spec=spec: expected_rows(spec, t, i),
                                   spec.n_chunks) \
                if resume else set()
            writers.append((spec, writer, finished, more))
        tasks = (Task(spec, i, w.parts) for spec, w, finished, _ in writers
                 for i in range(spec.n_chunks) if i not in finished)  # lazily: cells can be huge
        count = sum(spec.n_chunks - len(finished) for spec, _, finished, _ in writers)
        started, clock = datetime.now(UTC), time.perf_counter()
        if progress:  # the bar shows the true total from the start
            progress(0, count)
        played = execute_tasks(tasks, jobs, False, backend, scheduler, count, timeout)
        for done, _ in enumerate(played, start=1):
            if progress:
                progress(done, count)
        wall = time.perf_counter() - clock
        used = jobs_used(jobs, count)
        for spec, w, _, more in writers:
            w.finish(metadata(spec, used, started, wall) | {"backend": backend, "sweep_cells": len(specs)}
                     | more)
    except KeyboardInterrupt:
        for _, w, _, _ in writers:
            if not (w.out / "run.json").exists():
                w.interrupted()
        raise
    except BaseException:
        for _, w, _, _ in writers:
            if not (w.out / "run.json").exists():
                w.abort()
        raise
    return [runs_dir / name for name in names]


def records(specs: list[RunSpec], names: list[str], extra: list[dict]) -> list[dict]:
    """The cells as ``sweep.json`` lists them."""
    return [dict(s.as_dict(), folder=n, extra=e) for s, n, e in zip(specs, names, extra, strict=True)]


def check(specs: list[RunSpec], runs_dir: Path, report: dict | None = None,
          extra: list[dict] | None = None, names: list[str] | None = None) -> None:
    """Every refusal :func:`run` can make before it plays: the runs folder (:func:`check_folder`)
    and the report path (:func:`check_report`); nothing is written. ``names``: the cells'
    :func:`folder_names`, if known."""
    names = names or folder_names(specs)
    check_folder(Path(runs_dir), specs, names, extra or [{} for _ in specs])
    if (report or {}).get("output"):
        check_report(report["output"], runs_dir, names)


def cost(specs: list[RunSpec]) -> str:
    """What a sweep will play, in words: cells, deals (or matches) and chunks."""
    units = {s.unit for s in specs}
    unit = "matches" if units == {"match"} else "deals" if units == {"deal"} else "deals or matches"
    chunks = sum(s.n_chunks for s in specs)
    return (f"{len(specs):,} cell{'s' * (len(specs) != 1)}, {sum(s.n for s in specs):,} {unit} in "
            f"{chunks:,} chunk{'s' * (chunks != 1)}")


def check_report(output: str | Path, runs_dir: Path, names: list[str]) -> None:
    """Refuse a report path the sweep could not write, or that is one of its own files (the runs
    folder, its ``sweep.json``, a cell's folder or tables), before any cell is played."""
    from .report import check_output

    home, where = Path(runs_dir).resolve(), Path(output).resolve()
    if where.parent == home and where.name.startswith(SWEEP):
        raise SimtoolError(f"report {output} would replace the sweep's own {SWEEP}; choose another --out")
    names = set(names)
    cells = [home / a.name for a in (where, *where.parents) if a.parent == home and a.name in names]
    check_output(output, [home, *cells])


def check_folder(runs_dir: Path, specs: list[RunSpec], names: list[str], extra: list[dict]) -> None:
    """Refuse, before anything is written, a runs folder whose ``sweep.json`` is not simtool's,
    or records an unfinished sweep (or ladder, or restricted play) of other cells: its
    ``sweep --resume`` must still finish its own cells. A finished one may be replaced: its
    cells stay, and those the new sweep shares are kept."""
    file = Path(runs_dir) / SWEEP
    if not file.exists():
        return
    data = _read_json(file, None)
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise SimtoolError(f"{file} is not a simtool sweep file; choose another --runs folder")
    if data["cells"] == json.loads(json.dumps(records(specs, names, extra), default=str)):
        return
    if not all(_finished(Path(runs_dir), cell) for cell in data["cells"]):
        raise SimtoolError(f"{runs_dir} holds an unfinished sweep of {len(data['cells']):,} other cells "
                           f"({SWEEP}); finish it with simtool sweep --resume {runs_dir}, choose "
                           f"another --runs folder, or delete {file} to give it up")


def _finished(runs_dir: Path, cell) -> bool:
    try:
        folder = runs_dir / cell["folder"]
        return run_kind(folder) == "finished" and finished_spec(folder) == spec_from_dict(cell)
    except (KeyError, TypeError, ValueError):
        return False


def _open_files(cells: int) -> None:
    """Every cell's folder stays locked (one open file each) while the sweep plays: raise this
    process's limit of open files to what the sweep needs, or refuse a sweep beyond the system's."""
    import resource

    need = cells + 256  # and this process's own files, the workers' pipes
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if need <= soft:
        return
    if hard != resource.RLIM_INFINITY and need > hard:
        raise SimtoolError(f"a sweep of {cells:,} cells holds {need:,} files open, more than this "
                           f"system allows ({hard:,}, ulimit -Hn); split the grid")
    resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


def save(runs_dir: Path, specs: list[RunSpec], names: list[str], report: dict,
         extra: list[dict]) -> None:
    """The sweep's cells in ``runs_dir/sweep.json`` (:func:`check_folder` has made sure it
    replaces no other file, and no unfinished sweep's record)."""
    try:
        runs_dir.mkdir(parents=True, exist_ok=True)
        write_json(runs_dir / SWEEP, {"cells": records(specs, names, extra), "report": report})
    except OSError as exc:
        raise SimtoolError(f"cannot write to runs folder {runs_dir}: {exc.strerror or exc}") from None


def saved(runs_dir: Path) -> tuple[list[RunSpec], dict]:
    """The cells and report settings of the sweep in ``runs_dir``, for ``--resume``; the
    report settings also hold each cell's ``extra`` (see :func:`run`)."""
    file = Path(runs_dir) / SWEEP
    if not file.is_file():
        raise SimtoolError(f"nothing to resume in {runs_dir}: no {SWEEP} from a sweep")
    data = _read_json(file, None)
    try:
        cells = data["cells"]
        return ([spec_from_dict(c) for c in cells],
                dict(data.get("report") or {}, extra=[dict(c.get("extra") or {}) for c in cells]))
    except (KeyError, TypeError, ValueError):
        raise SimtoolError(f"cannot resume {runs_dir}: {SWEEP} is damaged") from None


def finished_spec(folder: Path) -> RunSpec | None:
    meta = _read_json(folder / "run.json", {})
    try:
        return spec_from_dict(meta)
    except (KeyError, TypeError, ValueError):
        return None


def saved_spec(folder: Path) -> RunSpec | None:
    try:
        return spec_from_dict(_read_json(folder / "chunks" / SPEC, {}))
    except (KeyError, TypeError, ValueError):
        return None


def _read_json(path: Path, default):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return default


def parse_list(values: list[str], what: str, sep: str = ",") -> list[str]:
    """``["4,5", "6"]`` to ``["4", "5", "6"]``: repeatable options that also take commas."""
    out = [v.strip() for text in values for v in text.split(sep)]
    if any(not v for v in out):
        raise SimtoolError(f"bad --{what} {values!r}; expected values separated by '{sep}'")
    return out


def list_rules() -> set[str]:
    """The rules whose values are lists of numbers (a score table) in any game."""
    return {o.name for g in games.registry().values() for o in g.options if o.kind == "list"}


def rules_arg(items: list[str]) -> dict[str, list[str]]:
    """``--rule pass_count=2,3`` (repeatable) to ``{"pass_count": ["2", "3"]}``; the values of a
    list rule hold commas, so they are separated by ';' (``score_table=0,5,10;0,5,5``)."""
    return {name: parse_list([value], "rule", ";" if name in list_rules() else ",")
            for name, value in options.parse_assignments(items).items()}
