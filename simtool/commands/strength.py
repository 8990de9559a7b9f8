"""The strength table (``make strength``): the search against each game's default heuristic, at
the default rules and at rule variants, with the reference player and a doubled budget.

Every cell is an ordinary run folder in one plan (``plan.json`` in the runs folder, so
``simtool sweep --resume`` finishes it as well), but the cells are played one after another,
each through the executor on every ``jobs`` core, so that the CPU time each cell takes can be
measured (this process and its workers' ``getrusage``): a cell's speed is then counted in deals
per CPU-second, which the other users of a shared machine do not change. A cell finished before
is kept, an interrupted one resumed; the CPU times measured so far are kept beside the runs
folder (``<runs>.cpu.json``). Each cell records every parameter of its strategies, defaults
included: after a strategy's defaults (or the variants) changed, the plan is replaced, the cells
played otherwise are played again from the start and the others kept (:func:`replace_plan`).
The table itself is read from the folders by :mod:`simtool.analysis.strength`.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from simtool import arguments, games
from simtool.analysis import strength
from simtool.commands.plans import check, make_plan
from simtool.errors import SimtoolError, choices
from simtool.pipeline.executor import PLAN, Plan, execute, hold_plan, plan_record, read_json
from simtool.pipeline.folders import let_go, parse_json, refuse_if_held, run_kind, why, write_together
from simtool.pipeline.runner import RunSpec, make_spec

GAMES = ("black-white", "kansas-city", "trickster", "out-trumped", "nine-lives", "hearts")

VARIANTS: dict[str, tuple[dict, ...]] = {
    # fewer cards (a shorter hand: less to read), and cards left out (more that no one sees)
    "black-white": ({"deck": 30}, {"hand_size": 8}),
    # no passing (nothing learnt of a neighbour's hand), and a higher trick limit
    "kansas-city": ({"pass_count": 0}, {"limit": 4}),
    # a hand collected sooner, and later, than the post's 13 pips
    "trickster": ({"pip_limit": 7}, {"pip_limit": 20}),
    # the kitty auctioned, and the sheet's follow rule read literally
    "out-trumped": ({"kitty": "bid"}, {"follow": "literal"}),
    # a shorter and a longer suit (a deal of 7 and of 11 cards each)
    "nine-lives": ({"ranks": 7}, {"ranks": 11}),
    # no passing, and Omnibus (the jack of diamonds takes 10 points off)
    "hearts": ({"passing": "none"}, {"jack": "on"}),
}
"""Two rule variants of each game besides its default rules, each changing what a search must
reckon with."""

DEALS, QUICK_DEALS, SEED = 4096, 256, 11
"""Deals a cell (4096: a 95% half-width about ±0.015 at a share of 0.4; chunks of the search's
size share 2 cores evenly), a ``--quick`` smoke run's, and the seed (the issue's)."""

CPU_PER_DEAL = {"black-white": 0.0019, "kansas-city": 0.0125, "trickster": 0.0026, "out-trumped": 0.0072,
                "nine-lives": 0.0022, "hearts": 0.0039}
"""For the estimate printed before playing only: CPU-seconds a deal of ``pimc`` at its default budget
took against the default heuristic at the default rules (docs/strength.md of 2026-11-26, 645
CPU-seconds in all); ``clairvoyant`` took about an eighth of it, a doubled budget twice."""

AGAIN = "the same command again (make strength, or python bench/strength.py with the same options)"
"""How an interrupted table goes on: every finished cell is kept, an interrupted one resumed."""

SHARE_OF_PIMC = {"fair": 1.0, "doubled": 2.0, "reference": 0.125}


def searches(game_id: str) -> dict[str, str]:
    """The line-up entry of each role: ``pimc`` at its default budget, ``pimc`` with twice its
    default budget (which may differ by game), and ``clairvoyant``."""
    import strategies

    return {"fair": strategies.canonical("pimc", game_id),
            "doubled": strategies.canonical(doubled(strategies.resolve("pimc", game_id).values.as_dict()), game_id),
            "reference": strategies.canonical("clairvoyant", game_id)}


BUDGETS = ("samples", "focus_samples", "deep", "focus_deep")
"""The parameters that count ``pimc``'s worlds: a doubled budget doubles each that is in use (in
Nine Lives, doubling the samples alone leaves the bid's and the second look's worlds as they were)."""


def doubled(values: dict) -> str:
    """``pimc`` with every count of worlds in ``values`` (its parameters) doubled."""
    return "pimc@" + ",".join(f"{k}={2 * values[k]}" for k in BUDGETS if values.get(k))


def plan(game_ids: list[str] | None = None, n: int = DEALS, seed: int = SEED) -> list[tuple[RunSpec, str]]:
    """Every cell, each with its role: per game (its default player count), at the default rules
    and each of :data:`VARIANTS`, ``pimc`` and ``clairvoyant`` in one seat against the default
    heuristic, seats rotated; at the default rules also the doubled budget."""
    game_ids = list(game_ids or GAMES)
    unknown = [g for g in game_ids if g not in VARIANTS]
    if unknown:
        raise SimtoolError(f"no strength variants for game '{unknown[0]}'; valid: {choices(VARIANTS)}")
    # a game named twice played its cells twice, and the table listed each of its rows twice
    twice = next((g for i, g in enumerate(game_ids) if g in game_ids[:i]), None)
    if twice is not None:
        raise SimtoolError(f"game '{twice}' named twice; give each game once (valid: {choices(VARIANTS)})")
    cells = []
    for game_id in game_ids:
        g = games.get(game_id)
        roles = searches(game_id)
        for rules in ({}, *VARIANTS[game_id]):
            for role in ("fair", "doubled", "reference") if not rules else ("fair", "reference"):
                spec = make_spec(game_id, None, n, g.default_strategy, {0: roles[role]}, rules, "deal", seed,
                                 rotate=True)
                cells.append((spec, role))
    return cells


def estimate(cells: list[tuple[RunSpec, str]], jobs: int) -> float:
    """Wall seconds the cells should take on ``jobs`` idle cores (:data:`CPU_PER_DEAL`): a cell
    of fewer chunks than cores keeps the others idle."""
    return sum(_cpu_guess(spec, role) / min(jobs, spec.n_chunks) for spec, role in cells)


def _cpu_guess(spec: RunSpec, role: str) -> float:
    return spec.n * CPU_PER_DEAL.get(spec.game, 0.01) * SHARE_OF_PIMC[role]


def cpu_now() -> float:
    """CPU-seconds this process and its finished workers have used."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def cpu_file(runs_dir: Path) -> Path:
    """Where the measured CPU times are kept: beside the runs folder, never in it (its files are
    simtool's runs only)."""
    return runs_dir.parent / f"{runs_dir.name}.cpu.json"


def measure(runs_dir: Path, game_ids: list[str] | None = None, n: int = DEALS, seed: int = SEED,
            jobs: int = 2, force: bool = False,
            say: Callable[[str], None] = print) -> tuple[list[strength.Cell], dict]:
    """Play every cell of :func:`plan` into ``runs_dir`` one after another and return the table's
    cells and the context they were measured in. ``say`` gets a line as each cell finishes."""
    arguments.count("jobs", jobs)  # before the estimate divides by it (jobs=0: ZeroDivisionError)
    runs_dir = Path(runs_dir)
    cells = plan(game_ids, n, seed)
    whole = make_plan([s for s, _ in cells], runs_dir, command="strength",
                      extra=[{"strength": role, "params": params(spec)} for spec, role in cells])
    # another command playing there was refused only once the old plan's cells were removed from
    # under it; the folder is then held until every cell is played, as a sweep's is
    refuse_if_held(runs_dir, "command")
    changed = replace_plan(whole, say)
    check(whole, force)
    held = hold_plan(whole)
    try:
        return _measure(whole, cells, changed, runs_dir, n, seed, jobs, force, say)
    finally:
        let_go(held)


def _measure(whole: Plan, cells, changed: set[str], runs_dir: Path, n: int, seed: int, jobs: int, force: bool,
             say: Callable[[str], None]) -> tuple[list[strength.Cell], dict]:
    """:func:`measure` once its runs folder is held."""
    guess = estimate(cells, jobs)
    load = os.getloadavg()
    say(f"{len(cells)} cells of {n:,} deals on {jobs} cores, seed {seed}: about {_duration(guess)} on idle "
        f"cores (load average now {load[0]:.2f}); interrupted, the same command goes on")
    times = _read_cpu(cpu_file(runs_dir))
    started, out, guessed, spent, played = time.perf_counter(), [], 0.0, 0.0, 0
    for i, (cell, (spec, role)) in enumerate(zip(whole.cells, cells, strict=True)):
        before, clock, cpu = _finished(cell.folder), time.perf_counter(), cpu_now()
        # a cell the old plan played otherwise is played afresh, not resumed from its chunks
        (done,) = execute(Plan("strength", (cell,), None, resume=AGAIN), jobs=jobs,
                          force=force or cell.folder.name in changed)
        key = cell.folder.name
        # played now, not kept from an earlier call (a start time to the second once mistook a
        # cell kept in the second it was played for one played again)
        if done.meta != before:
            played += 1
            # a resumed cell's CPU time covers only its last chunks: unknown, not too fast
            times[key] = {"cpu_seconds": None if done.meta.get("resumed_chunks") else cpu_now() - cpu,
                          "spec": repr(spec)}
            _write_cpu(cpu_file(runs_dir), times)
        kept = times.get(key) or {}
        found = strength.cell(cell.folder, role, {o.name: o.default for o in games.get(spec.game).options},
                              kept.get("cpu_seconds") if kept.get("spec") == repr(spec) else None)
        out.append(found)
        guessed += _cpu_guess(spec, role) / min(jobs, spec.n_chunks)
        spent += time.perf_counter() - clock
        say(f"[{i + 1}/{len(cells)}] {strength.fmt(found)}; about {_duration((guess - guessed) * spent / guessed)} "
            f"left")
    end = os.getloadavg()
    context = {"date": datetime.now(UTC).isoformat(timespec="minutes"), "machine": machine(),
               "load": f"{load[0]:.2f}", "load_end": f"{end[0]:.2f}", "seed": seed, "deals": n,
               "jobs": jobs, "runtime": _duration(time.perf_counter() - started),
               "runtime_seconds": round(time.perf_counter() - started, 1), "played": played,
               "kept": len(cells) - played,
               # each cell's own wall time (run.json), whichever call played it
               "cells_wall": _duration(sum(c.wall_seconds for c in out))}
    return out, context


def params(spec: RunSpec) -> dict[str, dict]:
    """Every parameter of each strategy in the line-up, defaults included: a cell played
    before a strategy's defaults changed is then told from one played after, though its
    line-up reads the same (``pimc``)."""
    import strategies

    resolved = {entry: strategies.resolve(entry, spec.game) for entry in dict.fromkeys(spec.lineup)}
    # a strategy without parameters (most heuristics) has no values
    return {entry: s.values.as_dict() if s.values is not None else {} for entry, s in resolved.items()}


def replace_plan(whole: Plan, say: Callable[[str], None]) -> set[str]:
    """Give way to ``whole`` where the runs folder holds an older strength plan (a strategy's
    defaults changed, or the variants): its cells of the same specification and parameters are
    kept, finished or not; the folders of its cells that ``whole`` no longer has are removed, and
    the old ``plan.json`` with them. Says so in one line; returns the cells of ``whole`` whose
    folder held a run of the old plan played otherwise (removed here, played again from the
    start). Only run folders directly in the runs folder are ever removed."""
    file = Path(whole.root) / PLAN
    _clear_aside(Path(whole.root))
    old = read_json(file, None)
    if not isinstance(old, dict) or old.get("command") != "strength" or not isinstance(old.get("cells"), list):
        return set()  # none, or not a strength plan (check_root refuses it as before)
    try:
        before = {c["folder"]: c for c in old["cells"]}
    except (KeyError, TypeError):
        return set()
    cells = json.loads(json.dumps(plan_record(whole)["cells"], default=str))
    if cells == old["cells"]:
        return set()
    now = {c["folder"]: c for c in cells}
    changed = {name for name in now.keys() & before.keys() if now[name] != before[name]}
    gone = [name for name in before.keys() - now.keys() if _own_run(Path(whole.root), name)]
    played = {name for name in now if run_kind(Path(whole.root) / name) in ("finished", "interrupted")}
    # the changed cells' runs go now, not when each is played: after an interruption the new
    # plan.json matches, and an old cell's chunks would otherwise be resumed under it
    _remove(Path(whole.root), [*gone, *(n for n in changed if _own_run(Path(whole.root), n))])
    file.unlink()
    say(f"{file} replaced (a strategy's defaults or the cells changed): {len(played - changed)} cells "
        f"played before kept, {len(played & changed)} played with other settings played again"
        + (f" ({_names(played & changed)})" if played & changed else "")
        + (f", {len(gone)} old cells' folders removed ({_names(gone)})" if gone else ""))
    return changed


ASIDE, MARK = ".removing", "simtool-removes-this-folder"
"""Where old cells' folders go before they are deleted (in the runs folder), and the file that
marks it as simtool's."""


def _remove(root: Path, names: list[str]) -> None:
    """Delete the run folders ``names`` of ``root`` so that Ctrl-C (or a crash) at any moment
    leaves each either whole where it was or in ``root/.removing``, never half deleted in place
    (a half-deleted run is no run: it could neither be kept, played again nor replaced). Each is
    moved there whole (a rename), then the folder is deleted, its mark last; what a stop left
    there is deleted by the next call (:func:`_clear_aside`)."""
    if not names:
        return
    aside = root / ASIDE
    if aside.exists() or aside.is_symlink():  # not simtool's: _clear_aside deleted its own
        raise SimtoolError(f"{aside} is in the way of the old cells' folders, and simtool did not "
                           f"make it; move it out of {root}")
    try:
        aside.mkdir()
        (aside / MARK).touch()
        for name in names:
            os.rename(root / name, aside / name)
    except OSError as exc:
        raise SimtoolError(f"cannot remove the old cells' folders from {root}: {why(exc)}") from None
    _clear_aside(root)


def _clear_aside(root: Path) -> None:
    """Delete ``root/.removing`` where simtool marked it as its own (its mark is deleted last, so
    a deletion cut short is finished here); a folder of that name without the mark is left alone."""
    aside = root / ASIDE
    try:
        if aside.is_dir() and not aside.is_symlink() and not any(aside.iterdir()):
            aside.rmdir()  # stopped before its mark was made: nothing in it to lose
        if aside.is_symlink() or not (aside / MARK).is_file():
            return
        for entry in aside.iterdir():
            if entry.name == MARK:
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        (aside / MARK).unlink()
        aside.rmdir()
    except OSError as exc:
        raise SimtoolError(f"cannot delete {aside}, the old cells' folders set aside: {why(exc)}") from None


def _own_run(root: Path, name) -> bool:
    """Whether the old plan's cell ``name`` is a run folder directly in ``root``: a plan.json
    changed by hand may name any path (``../mine``, ``/home/me/run``), a number, a link."""
    if not isinstance(name, str) or name in ("", ".", "..") or Path(name).name != name:
        return False
    folder = root / name
    return folder.is_dir() and not folder.is_symlink() and run_kind(folder) in ("finished", "interrupted")


def _names(folders) -> str:
    folders = sorted(folders)
    return ", ".join(folders[:3]) + (f" and {len(folders) - 3} more" if len(folders) > 3 else "")


def _finished(folder: Path) -> dict | None:
    """The ``run.json`` of a cell already played into ``folder``, if any."""
    try:
        return parse_json((folder / "run.json").read_text())
    except (OSError, ValueError):
        return None


def _read_cpu(path: Path) -> dict:
    try:
        found = parse_json(path.read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _write_cpu(path: Path, times: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(times, indent=1) + "\n")
    os.replace(tmp, path)


def machine() -> str:
    """The machine in words: processor, cores this process may use, Python."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{model}, {cores} cores, Python {platform.python_version()}"


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


OWN_TABLES = {".md": "# Search strength:", ".json": '{\n "context":', ".csv": "game,variant,role,"}
"""How each file of the table begins as :func:`write` writes it: a file of that name that begins
otherwise is someone else's, never replaced."""


def check_outputs(stem: Path) -> None:
    """Refuse, before any cell is played, a table path whose ``.md``, ``.json`` or ``.csv`` exists
    and is not a strength table simtool wrote (``--out README`` would replace README.md), or is
    a folder, a pipe, a device."""
    for suffix, start in OWN_TABLES.items():
        path = Path(stem).with_suffix(suffix)
        if not (path.exists() or path.is_symlink()):
            continue
        head = b""
        try:
            if path.is_file():  # asked before the open: a pipe's open waits for a writer for ever
                with path.open("rb") as f:
                    head = f.read(len(start.encode()))
        except OSError:
            pass
        if head != start.encode():
            raise SimtoolError(f"{path} exists and is not a strength table simtool wrote; simtool "
                               f"replaces only its own: choose another --out")


def write(cells: list[strength.Cell], context: dict, stem: Path) -> list[Path]:
    """The table as Markdown, JSON and CSV files: ``stem`` with the suffixes ``.md``, ``.json``
    and ``.csv``; the paths written. Each is written whole under a temporary name first, and the
    three renamed into place only once all are written: a full disk or Ctrl-C leaves the table
    as it was, never one file new and another cut short."""
    stem = Path(stem)
    check_outputs(stem)
    files = {stem.with_suffix(".md"): strength.markdown(cells, context),
             stem.with_suffix(".json"): strength.as_json(cells, context),
             stem.with_suffix(".csv"): strength.as_csv(cells)}
    write_together(files, f"the strength table {stem}")
    return list(files)
