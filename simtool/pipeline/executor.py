"""The one executor: every command's runs are played here, in chunks, into their folders.

A :class:`Plan` lists its :class:`Cell` runs (a run specification and the folder it goes to)
and, for several runs, the root folder that holds them. :func:`execute` plays a plan: it locks
and checks every folder before any work, keeps what an earlier attempt finished, hands the
chunks of every cell to one backend (in this process, local worker processes, or dask),
writes each cell's tables and ``run.json`` last, and on Ctrl-C, a worker the system killed or a
strategy's error keeps the finished chunks for a resume. ``simtool run`` is a plan of one cell; ``sweep``,
``ladder``, ``restrict``, ``tune`` and ``review`` plan several, so resume, kill and
worker-death behave the same for all of them.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import os
import platform
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import polars as pl

from simtool import arguments, games
from simtool.arguments import check_timeout
from simtool.engine import WHERE
from simtool.errors import (
    GameError,
    OutOfMemory,
    PlayError,
    RateError,
    SimtoolError,
    WorkerLost,
    describe,
    forcing,
    option,
    os_problem,
    pasted,
    raise_if_interrupted,
    shown,
)
from simtool.pipeline import forked
from simtool.pipeline.folders import (
    HOLDER,
    SPEC,
    FolderLock,
    RunWriter,
    hold,
    lacking_columns,
    let_go,
    native,
    parse_json,
    played_now,
    read_record,
    recorded_columns,
    refuse_if_held,
    run_kind,
    simtool_version,
    tables_intact,
    write_json,
)
from simtool.pipeline.runner import (
    BACKENDS,
    RunSpec,
    Task,
    as_recorded,
    beside_changed,
    check_beside,
    execute_tasks,
    game_of,
    jobs_used,
    resolve_lineup,
    spec_from_dict,
    warn_shadowed,
)

PLAN = "plan.json"
"""A plan of several runs, saved in its root folder before any of them is played."""


@dataclass(frozen=True)
class Cell:
    """One run of a plan: what to play, where its folder is (``None``: tables in memory only)
    and what more its ``run.json`` records (which ladder rung, which restriction...)."""

    spec: RunSpec
    folder: Path | None
    record: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """What a command plays. ``root``: the folder holding a plan of several runs (its
    ``plan.json``); ``None`` for a single run. ``reuse``: cells already finished with the same
    specification are kept and interrupted ones resumed (a plan of several runs), rather than
    refused without ``--force`` (``simtool run``). ``settings``: what the command saves to go on
    later (a report's file and title); ``resume``: the command that finishes it; ``again``: how
    to play it again from scratch (a tuning has no ``--force``)."""

    command: str
    cells: tuple[Cell, ...]
    root: Path | None = None
    reuse: bool = True
    settings: dict = field(default_factory=dict)
    resume: str = ""
    again: str = "--force"


def replaying(plan: Plan) -> str:
    """How ``plan``'s cells are played again from scratch, as its caller writes it: ``--force`` on
    the command line, ``force=True`` from Python, else the plan's own words (a new folder)."""
    if plan.again != "--force":
        return plan.again
    return forcing()


@dataclass
class Finished:
    """A played cell: its specification (``n`` where ``--precision`` stopped), ``run.json``
    and, when kept, its tables."""

    cell: Cell
    spec: RunSpec
    meta: dict
    seats: pl.DataFrame | None = None
    matches: pl.DataFrame | None = None
    leads: pl.DataFrame | None = None
    summed: list[dict] | None = None  # the chunks' Summed, added up, where this process played them all


Tally = Callable[..., "tuple[pl.DataFrame, pl.DataFrame]"]  # a string: polars stays deferred (simtool.lazy)
"""``tally(game, seats, matches, strata, block)``: the sums ``--precision`` watches in one
chunk (``simtool.analysis.summary.tally``); the command that plans a precision run gives it."""

Summed = Callable[..., dict]
"""``summed(game, seats, matches, strata)``: the sums of the tables a run prints, of one chunk
(``simtool.analysis.summary.summary_sums``), made by the worker that played it; given by a
command that prints them. Its values are :data:`simtool.stats.Parts` (or ``None``), which the
main process adds up as they come (:class:`simtool.stats.Folded`)."""

Progress = Callable[[int, int], None]


def folding():
    """A :class:`simtool.stats.Folded`, imported by the process that adds up the sums."""
    from simtool import stats

    return stats.Folded()


def execute(plan: Plan, *, jobs: int | None = None, backend: str = "local", scheduler: str | None = None,
            force: bool = False, keep: bool = False, progress: Progress | None = None,
            timeout: float | None = None, tally: Tally | None = None,
            summed: Summed | None = None) -> list[Finished]:
    """Play every cell of ``plan``; return them in plan order. ``keep``: return the tables too
    (always, for a cell without a folder). ``force``: play every cell again, replacing its
    folder. ``progress(done, total)`` counts chunks; ``timeout`` bounds a strategy's decision.
    A failure leaves nothing of this plan looking finished; Ctrl-C, a worker the system
    killed and a strategy's (or game plugin's) error keep every finished chunk for ``plan.resume``.
    ``summed``: each chunk's sums of the printed tables, kept in ``Finished.summed``."""
    arguments.execution(jobs, force, progress, backend, scheduler)
    timeout = check_timeout(timeout)
    if backend not in BACKENDS:
        raise SimtoolError(f"unknown backend {shown(backend)}; valid: {', '.join(BACKENDS)}")
    if any(c.spec.precision for c in plan.cells) and tally is None:
        raise SimtoolError("a --precision run needs the figures it tracks (tally)")
    for folder in (plan.root, *(c.folder for c in plan.cells)):
        if folder is not None:
            native(folder)  # a name the table writer cannot take: one line before anything is written
    held = hold_plan(plan) if plan.root is not None else None
    try:
        return _execute(plan, jobs, backend, scheduler, force, keep, progress, timeout, tally, summed)
    finally:
        if held is not None:
            let_go(held)


def _execute(plan: Plan, jobs, backend, scheduler, force: bool, keep: bool, progress, timeout, tally,
             summed) -> list[Finished]:
    """:func:`execute` once the plan's root is saved and held."""
    runs = _open(plan, force)
    try:
        started, clock = datetime.now(UTC), time.perf_counter()
        used = _play(runs, jobs, backend, scheduler, keep, progress, timeout, tally, summed)
        wall = time.perf_counter() - clock
        finished = [r.finish(used, started, wall, backend, len(plan.cells)) for r in runs]
        forked.wait_ended()  # the workers ended meanwhile
        # the sums' frames made once the workers are gone: the polars code they touch is no
        # part of the run's peak
        return [dataclasses.replace(f, summed=[{k: v.parts() for k, v in f.summed.items()}])
                if f.summed is not None else f for f in finished]
    except KeyboardInterrupt:
        for r in runs:
            r.interrupted()
        raise
    except (WorkerLost, MemoryError) as exc:
        lost = exc if isinstance(exc, WorkerLost) else out_of_memory(exc)
        # the hours a long run played are not thrown away for a worker the system killed; a disk
        # full before the first chunk was finished said "the finished chunks are kept" of none
        kept = sum(r.keep_played() for r in runs)
        if not kept:
            raise lost from None
        raise type(lost)(f"{lost}; {chunks_kept(kept)}: finish the "
                         f"{plan.command} with: {plan.resume}") from None
    except PlayError as exc:
        each = [r.keep_played() for r in runs]
        kept = sum(each)
        if not kept:
            raise
        exc = type(exc)(folder_hint(str(exc), [r for r, k in zip(runs, each, strict=True) if k]))
        # a plan's finished chunks are the hours a user waited for: a strategy (or a game plugin)
        # failing later (a --timeout too short, a file it reads, a rare case it cannot play) took
        # them all back
        what = "game" if isinstance(exc, GameError) else "strategy"
        raise type(exc)(f"{exc}; {chunks_kept(kept)}, the "
                        f"{plan.command} unfinished: with the {what} unchanged (the cause lay elsewhere: "
                        f"a --timeout too short, a file it reads), finish it with: {plan.resume}; a "
                        f"changed {what} plays it again with {replaying(plan)}") from None
    except RateError as exc:
        # only --precision computes a rate while it plays (its tally): a rate breaking in a later
        # chunk (NaN from deal 70,000) took back every finished chunk, where a plain run kept them
        kept = sum(r.keep_played() for r in runs)
        if not kept:
            raise
        raise RateError(f"{exc}; {chunks_kept(kept)}, the "
                        f"{plan.command} unfinished: a rate reads the chunks' results and changes none of "
                        f"them, so once it is fixed, finish it with: {plan.resume}") from None
    except BaseException:
        for r in runs:
            r.abort()
        raise


def chunks_kept(kept: int) -> str:
    """``3 finished chunks are kept``: what a plan stopped by an error keeps, for its resume."""
    return f"{kept:,} finished chunk{'s are' if kept > 1 else ' is'} kept"


def folder_hint(message: str, kept: list[_Run]) -> str:
    """``message`` with the failed deal it names (:data:`simtool.engine.WHERE`) named by its run's
    folder, where that folder stays (``kept``: the runs whose chunks are kept) and the seed and n
    are of that one run alone: the run's settings typed again were the hint's "other options",
    which its folder holds."""
    for r in kept:
        spec = r.spec
        said = re.escape(WHERE.format(seed=spec.seed, n=spec.n, unit=spec.unit, number="@", copy="%",
                                      duplicate=" --duplicate" * (spec.copies > 1)))
        found = re.search(said.replace("@", r"(\d+)").replace("%", r"( \(its copy [^)]*\))?"), message)
        if found and r.cell.folder is not None and not any(
                o is not r and (o.spec.seed, o.spec.n, o.spec.unit, o.spec.copies)
                == (spec.seed, spec.n, spec.unit, spec.copies) for o in kept):
            folder = pasted(r.cell.folder)
            return message.replace(found[0], f"{spec.unit} {found[1]}{found[2] or ''} of the run in {folder}: "
                                             f"`simtool replay --run {folder} --{spec.unit} {found[1]}` writes it out")
    return message


class _Run:
    """A cell being played: its writer (``None`` without a folder, or for a cell kept as it
    was), the chunks on disk from before, the chunks planned so far and, with ``--precision``,
    the sums it watches."""

    def __init__(self, cell: Cell, writer: RunWriter | None, spec: RunSpec, done: set[int], kept: dict | None):
        self.cell, self.writer, self.spec, self.done = cell, writer, spec, done
        self.kept_meta = kept  # run.json of a cell finished before, kept as it is
        self.planned = 0
        self.tallies: dict[int, tuple[pl.DataFrame, pl.DataFrame]] = {}
        self.summed: dict = {}  # the chunks' sums (Summed) added up as they come: a stats.Folded each
        self.summed_at: set[int] = set()  # the chunks summed
        self.tables: dict[str, list[pl.DataFrame]] = {"seats": [], "matches": [], "leads": []}
        self.stop: tuple[int, float, str] | None = None  # --precision: (block, half-width, figure)
        self.closed = kept is not None

    @property
    def parts(self) -> Path | None:
        return self.writer.parts if self.writer else None

    def first_batch(self) -> int:
        return self.spec.n_chunks if not self.spec.precision else min(self.spec.n_chunks, FIRST_BATCH)

    def todo(self, upto: int) -> tuple[Iterator[int], int]:
        """The chunks ``planned..upto`` not on disk yet, lazily (a run of 2^63 deals has far more
        chunks than memory could list), and how many they are."""
        start, done = self.planned, self.done
        count = upto - start - sum(start <= i < upto for i in done)
        return (i for i in range(start, upto) if i not in done), count

    def precise(self, tally: Tally) -> bool:
        """Whether the watched shares are precise enough after the chunks played (or the cap is
        reached); else plan the next batch."""
        spec = self.spec
        for i in self.done - self.tallies.keys():  # a resumed run: chunks an earlier process played
            if i < self.planned:
                self.tallies[i] = tally(games.get(spec.game), *self.writer.read_chunk(i, spec.unit),
                                        spec.strata, spec.block)
        tallies = [self.tallies[i] for i in range(self.planned)]
        partly_null(spec.game, tallies)
        self.stop = widest(tallies, spec.precision)
        return self.stop[1] <= spec.precision or self.planned == spec.n_chunks

    def finish(self, jobs: int, started: datetime, wall: float, backend: str, cells: int) -> Finished:
        if self.kept_meta is not None:
            return Finished(self.cell, self.spec, self.kept_meta, *self._read())
        spec, limit, precision = self.spec, None, {}
        if spec.precision:
            block, half, figure = self.stop
            cap = spec.n
            spec = dataclasses.replace(spec, n=min(cap, (block + 1) * spec.block))
            limit = ("deal" if spec.unit == "deal" else "match", spec.n)
            precision = {"precision": spec.precision, "precision_cap": cap, "precision_reached": half,
                         "precision_widest": figure,
                         "precision_tracks": "every share the summary prints (win shares and rates per "
                                             "seat and strategy, and per strategy)"}
        meta = metadata(spec, jobs, started, wall) | {"backend": backend, "resumed_chunks": len(self.done)} \
            | ({"plan_cells": cells} if cells > 1 else {}) | precision | self.cell.record
        if self.writer is not None:
            meta = self.writer.finish(meta, limit)
        self.closed = True
        # a resumed run's earlier chunks were summed by no one: its tables are read back for them
        summed = self.summed if len(self.summed_at) == spec.n_chunks else None  # made frames in _execute
        return Finished(self.cell, spec, meta, *self._gathered(limit), summed)

    def _gathered(self, limit) -> tuple[pl.DataFrame | None, ...]:
        if self.done and self.tables["seats"] is not None:  # resumed: the earlier chunks are on disk only
            return self._read()
        if not self.tables["seats"]:
            return None, None, None
        found = [pl.concat(self.tables[name]) if self.tables[name] else None
                 for name in ("seats", "matches", "leads")]
        if limit:
            found = [None if t is None else t.filter(pl.col(limit[0]) < limit[1]) for t in found]
        return tuple(found)

    def _read(self) -> tuple[pl.DataFrame | None, ...]:
        if self.tables["seats"] is None or self.cell.folder is None:  # tables not wanted
            return None, None, None
        out = self.cell.folder
        return (pl.read_parquet(native(out / "seats.parquet"), glob=False),
                pl.read_parquet(native(out / "matches.parquet"), glob=False) if self.spec.unit == "match" else None,
                pl.read_parquet(native(out / "leads.parquet"), glob=False) if self.spec.leads else None)

    def interrupted(self) -> None:
        if self.writer is not None and not self.closed:
            self.writer.interrupted()

    def keep_played(self) -> int:
        """After a strategy's error: keep the whole chunks on disk (their checksums written last,
        by whichever process played them) for a resume, the folder unfinished as after Ctrl-C,
        and return how many; a run with none is taken back."""
        if self.writer is None or self.closed:
            return 0
        parts = self.writer.parts
        try:
            kept = sum((parts / f"sums-{i:06d}.json").is_file()
                       for i in self.writer.chunk_files("seats", self.spec.n_chunks))
        except OSError:  # chunks/ gone or unreadable: nothing a resume could find
            kept = 0
        if kept:
            self.writer.interrupted()
        else:
            self.abort()
        return kept

    def abort(self) -> None:
        if self.writer is not None and not self.closed:
            self.writer.abort()


def _open(plan: Plan, force: bool) -> list[_Run]:
    """Every cell's writer, folders checked and locked before any work: a cell finished before
    with the same specification is kept, an interrupted one resumed (with ``plan.reuse``)."""
    open_files(len(plan.cells))
    # a cell another process writes was met only as it was opened: a forced plan had cleared the
    # finished runs of the cells before it, for a command then refused
    for cell in plan.cells:
        if cell.folder is not None and cell.folder.is_dir():
            try:
                FolderLock(cell.folder).release()
            except OSError:  # a folder it cannot open: named where its writer takes the lock
                pass
    runs: list[_Run] = []
    finished = [(c.folder, recorded_columns(games.get(c.spec.game), c.spec.unit)) for c in plan.cells
                if plan.reuse and not force and c.folder is not None and c.spec is not RESUMED
                and (c.folder / "run.json").is_file()]
    lacking = lacking_columns(finished)
    again = None if plan.again == "--force" else f"in {plan.again}"
    try:
        for cell in plan.cells:
            runs.append(_open_cell(cell, plan.reuse, force, lacking, again))
    except BaseException:
        for r in runs:
            r.abort()
        raise
    return runs


def open_files(cells: int) -> None:
    """Every cell's folder stays locked (one open file each) while a plan plays: raise this
    process's limit of open files to what the plan needs, or refuse a plan beyond the system's."""
    import resource

    need = cells + 256  # and this process's own files, the workers' pipes
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if need <= soft:
        return
    if hard != resource.RLIM_INFINITY and need > hard:
        raise SimtoolError(f"a plan of {cells:,} runs holds {need:,} files open, more than this "
                           f"system allows ({hard:,}, ulimit -Hn); split it")
    resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


def _open_cell(cell: Cell, reuse: bool, force: bool, lacking: set[Path] = frozenset(),
               again: str | None = None) -> _Run:
    spec, folder = cell.spec, cell.folder
    if folder is None:
        return _Run(cell, None, spec, set(), None)
    if spec is RESUMED:  # `simtool run --resume`: the folder says what to play
        writer = RunWriter(folder, False, None, resume=True)
        return _resumed(cell, writer, lambda: resumed_spec(writer))
    kind = run_kind(folder)
    if not reuse:
        return _Run(cell, RunWriter(folder, force, spec.as_dict(), False, again), spec, set(), None)
    replace = force
    found = finished_spec(folder) if kind == "finished" else saved_spec(folder) if kind == "interrupted" else None
    if found is not None and found == as_recorded(spec, found):  # kept or resumed as it was recorded
        spec = found
    if not force and kind == "finished" and found == spec:
        recorded = read_json(folder / "run.json", {})
        if all(recorded.get(k) == v for k, v in cell.record.items()) and tables_intact(folder, recorded) \
                and played_now(recorded) and folder not in lacking:
            return _Run(cell, None, spec, set(), recorded)
        # filed under another ladder or question, its tables changed, or written by an earlier
        # simtool of the same version number without a column this one records: play it again
        replace = True
    if not force and kind == "interrupted" and found == spec:
        check_beside(spec)
        return _resumed(cell, RunWriter(folder, False, spec.as_dict(), True, again), lambda: spec)
    return _Run(cell, RunWriter(folder, replace, spec.as_dict(), False, again), spec, set(), None)


def _resumed(cell: Cell, writer: RunWriter, spec_of: Callable[[], RunSpec]) -> _Run:
    """A cell going on from the chunks an interrupted attempt left (only whole ones count)."""
    try:
        spec = spec_of()
        done = writer.done(spec.unit, lambda name, i: expected_rows(spec, name, i), spec.bounds, spec.n_chunks,
                           leads=bool(spec.leads), columns=recorded_columns(games.get(spec.game), spec.unit))
    except BaseException:
        writer.abort()
        raise
    return _Run(dataclasses.replace(cell, spec=spec), writer, spec, done, None)


RESUMED = RunSpec("", 0, {}, (), "deal", 1, 0)
"""The specification of :func:`resume_plan`'s cell: read from the folder once it is locked."""


RESUMES = ("sweep", "ladder", "restrict")
"""The commands whose ``--resume DIR`` finishes the plan saved in ``DIR``."""

OWNED = {"review": "a review (review.json)", "tune": "a tuning (tune.json)", "strength": "a strength table"}
"""Commands whose plans' runs belong to a record of their own: no other command's plan takes their
folder, finished or not (a finished sweep's, ladder's or restricted play's gives way to another)."""


def owner_of(folder: Path) -> str | None:
    """The command of :data:`OWNED` whose plan's runs folder ``folder`` is in (a review's, a
    tuning's, a strength table's), else ``None``."""
    found = read_json(Path(folder).parent / PLAN, None)
    owner = found.get("command") if isinstance(found, dict) else None
    return owner if isinstance(owner, str) and owner in OWNED else None


def finishing(command: str, root: Path) -> str:
    """What finishes the plan of ``command`` saved in ``root``, as an error or Ctrl-C advises it:
    the command's own ``--resume`` (a ladder's, not ``sweep --resume``); a tuning's or a review's
    (whose plans lie in ``OUT/runs/NAME``) by its own folder; any other plan (the strength
    table's) by ``sweep --resume``, which finishes every saved plan."""
    root = Path(root)
    if command == "tune":
        return f"simtool tune --resume {pasted(root.parent.parent)}"
    if command == "review":
        return f"the same simtool review (--out {pasted(root.parent.parent)}) again"
    return f"simtool {command if command in RESUMES else 'sweep'} --resume {pasted(root)}"


def resume_plan(folder: Path, command: str = "run") -> Plan:
    """The plan that finishes the interrupted run in ``folder`` (``simtool run --resume``)."""
    return Plan(command, (Cell(RESUMED, Path(folder)),), reuse=False,
                resume=f"simtool run --resume {pasted(folder)}")


def _play(runs: list[_Run], jobs, backend, scheduler, keep: bool, progress: Progress | None,
          timeout, tally: Tally | None, summed: Summed | None) -> int:
    """Play the cells' chunks in rounds: every chunk of every cell in one pool at first, then
    further batches of the ``--precision`` cells whose shares are not yet precise enough.
    Returns the most worker processes used at once."""
    live = [r for r in runs if not r.closed]
    targets = {id(r): r.first_batch() for r in live}
    total = sum(targets[id(r)] - len([i for i in r.done if i < targets[id(r)]]) for r in live)
    done_chunks, used = 0, 1
    if progress:
        progress(0, total)
    for r in live:
        if r.writer is not None and not r.spec.precision:  # where --precision stops is not known yet
            r.writer.join_as_played(r.done)
    while live:
        plans = [(r, *r.todo(targets[id(r)])) for r in live]
        count = sum(n for _, _, n in plans)
        used = max(used, jobs_used(jobs, count))
        tasks = (Task(r.spec, i, r.parts, keep or r.writer is None or bool(r.spec.precision),
                      tally if r.spec.precision else None, k,
                      None if r.spec.precision else summed)  # --precision stops within a chunk
                 for k, (r, todo, _) in enumerate(plans) for i in todo)
        for chunk in execute_tasks(tasks, jobs, backend, scheduler, count, timeout):
            r = plans[chunk.cell][0]
            if r.writer is not None:
                r.writer.played(chunk.index)
            if chunk.seats is not None and (keep or r.writer is None):
                r.tables["seats"].append(chunk.seats)
                if chunk.matches is not None:
                    r.tables["matches"].append(chunk.matches)
                if chunk.leads is not None:
                    r.tables["leads"].append(chunk.leads)
            if chunk.tally is not None:
                r.tallies[chunk.index] = chunk.tally
            if chunk.summed is not None and chunk.index not in r.summed_at:
                r.summed_at.add(chunk.index)
                for key, parts in chunk.summed.items():
                    if key not in r.summed:  # setdefault made (and dropped) a fold per key every chunk
                        r.summed[key] = folding()
                    r.summed[key].add(parts)
            done_chunks += 1
            if progress:
                progress(done_chunks, total)
            raise_if_interrupted()  # a Ctrl-C a finalizer swallowed: the run stops here
        for r in live:
            r.planned = targets[id(r)]
            if not (keep or r.writer is None):
                r.tables["seats"] = None  # not wanted: the finished run is read from its folder if asked
        live = [r for r in live if r.spec.precision and not r.precise(tally)]
        for r in live:
            targets[id(r)] = next_batch(r.planned, r.stop[1], r.spec.precision, r.spec.n_chunks)
            total += targets[id(r)] - r.planned - sum(r.planned <= i < targets[id(r)] for i in r.done)
    return used


FIRST_BATCH = 2
"""Chunks played before ``--precision`` first looks at the intervals (then at every block of
them). Fixed, not the number of jobs, so that where a run stops never depends on ``--jobs``."""


def next_batch(played: int, half: float, target: float, n_chunks: int) -> int:
    """Chunks to have played after the next batch: a half-width shrinks as one over the square
    root of the deals, so aim 10% past the estimate; at least one more chunk, at most the cap."""
    try:
        needed = math.ceil(played * (half / target) ** 2 * 1.1)
    except OverflowError:  # a target so small (--precision 1e-300) that no float holds the deals
        return n_chunks
    return min(n_chunks, max(played + 1, needed))


def widest(tallies: list[tuple[pl.DataFrame, pl.DataFrame]], target: float) -> tuple[int, float, str]:
    from simtool import stats

    return stats.widest(tallies, target)


def partly_null(game_id: str, tallies: list[tuple[pl.DataFrame, pl.DataFrame]]) -> None:
    from simtool import stats

    stats.partly_null(game_id, tallies)


def out_of_memory(exc: MemoryError) -> OutOfMemory:
    return OutOfMemory(f"out of memory ({describe(exc)}); run with fewer {option('jobs')}, or give "
                       f"the run more memory")


def resumed_spec(writer: RunWriter) -> RunSpec:
    """The specification an interrupted run saved, checked as a new one would be (its plugin
    files must still be there, unchanged)."""
    try:
        spec = spec_from_dict(writer.spec())
    except (KeyError, TypeError, ValueError) as exc:
        raise SimtoolError(f"cannot resume {writer.out}: its saved specification is damaged "
                           f"({type(exc).__name__}: {exc})") from None
    # as the user left them, before the plugins' imports run here: a helper writing its log beside
    # the plugin as it is imported made every resume refuse the log it had just written
    changed = beside_changed(spec)
    resolve_lineup(spec)
    warn_shadowed(spec)
    if changed:
        raise SimtoolError(changed)
    return with_new_options(spec)


def with_new_options(spec: RunSpec) -> RunSpec:
    """A run saved before some numbers of its game were rule options played the sheet's values."""
    missing = {o.name: o.default for o in games.get(spec.game).options if o.name not in spec.rules}
    return dataclasses.replace(spec, rules={**spec.rules, **missing}) if missing else spec


def expected_rows(spec: RunSpec, table: str, index: int) -> int | None:
    """Rows of a whole chunk file: one per deal (or match) and seat; a match's rounds vary, and
    so do the decisions of a lead history."""
    if (spec.unit == "match" and table == "seats") or table == "leads":
        return None
    return spec.bounds(index)[1] * spec.players * spec.copies


def not_fair(lineup) -> list[str]:
    """The line-up's entries that are reference players, not fair ones (``strategies.sees_all``)."""
    import strategies

    return [name for name in dict.fromkeys(lineup) if strategies.sees_all(name)]


def metadata(spec: RunSpec, jobs: int, started: datetime, wall: float) -> dict:
    game = game_of(spec.game)
    return {
        "game": spec.game,
        "title": game.title,
        "players": spec.players,
        # copies: the spec's own dicts, shared, changed the record when a caller edited
        # result.spec.rules to play a variant (simtool.metrics then took two rule sets for one)
        "rules": copy.deepcopy(spec.rules),
        "lineup": list(spec.lineup),
        "rotate": spec.rotate,
        "duplicate": spec.duplicate,
        "isolate": spec.isolate,  # a resumed or re-planned run plays its plugins as this one did
        "unit": spec.unit,
        "n": spec.n,
        "seed": spec.seed,
        "chunk": spec.chunk,
        "precision": spec.precision,
        "plugins": copy.deepcopy(spec.plugins),
        **(lead_record(spec) if spec.leads else {}),
        # reference players that see every hidden card: every table and report marks them
        **({"not_fair": unfair} if (unfair := not_fair(spec.lineup)) else {}),
        "jobs": jobs,
        "started": started.isoformat(timespec="seconds"),
        "wall_seconds": round(wall, 3),
        "versions": {
            # the imported modules' own versions: each metadata look-up scans the install (20-70 ms)
            "simtool": simtool_version(),
            "numpy": np.__version__,
            "polars": loaded_version("polars"),
            "python": platform.python_version(),
            # joblib spawns the workers off Linux and dask.distributed plays --backend dask; a
            # forked or single-process run imports neither, and looking a version up took 20 ms
            **({"joblib": sys.modules["joblib"].__version__} if "joblib" in sys.modules else {}),
            **({"distributed": sys.modules["distributed"].__version__} if "distributed" in sys.modules else {}),
        },
    }


def loaded_version(name: str) -> str:
    """A module's version: its own where it is imported, else the installed one's. A forked run's
    main process never makes a table, so polars is loaded only in its workers (simtool.lazy):
    importing it here to read the number took 0.15 s of CPU at the end of every run, against
    2 ms for the look-up (the same installation, the same version)."""
    module = sys.modules.get(name)
    if module is not None and "__file__" in vars(module):  # imported, not only deferred
        return module.__version__
    return version(name)


def lead_record(spec: RunSpec) -> dict:
    """What ``run.json`` says of a run's lead histories: how many deals (or matches) of which
    chunks, and each line-up strategy's estimator and budget (:mod:`simtool.pipeline.leads`)."""
    from simtool.pipeline import leads

    per = min(spec.leads, spec.chunk)
    sampled = spec.n // spec.chunk * per + min(per, spec.n % spec.chunk)
    units = "deals" if spec.unit == "deal" else "matches"
    return {"leads": spec.leads, "lead_history": {
        "sampled": sampled, "sample": sample_text(spec.leads, spec.chunk, units),
        **leads.describe(spec.game, list(spec.lineup), spec.leads)}}


def sample_text(leads: int, chunk: int, units: str) -> str:
    """Which deals (matches) have lead histories, in words: a K of a chunk or more is each whole
    chunk (it said "the first 1000000 deals of each chunk of 32768", more than a chunk holds)."""
    return f"every one of the {units} of each chunk" if leads >= chunk else \
        f"the first {leads:,} {units} of each chunk of {chunk:,}"


# ---- plans of several runs --------------------------------------------------------------------

def plan_record(plan: Plan) -> dict:
    """``plan.json``: the cells, and the report's settings with its path made whole, beside the
    folder it was written in (``root``): a page named from the working folder was another folder's
    page once the plan was resumed from elsewhere."""
    report = dict(plan.settings)
    if isinstance(report.get("output"), str):
        report["output"] = os.path.abspath(report["output"])
    return {"command": plan.command, "root": str(Path(plan.root).resolve()),
            "cells": [dict(c.spec.as_dict(), folder=c.folder.name, extra=c.record) for c in plan.cells],
            "report": report}


def check_root(plan: Plan) -> None:
    """Refuse, before anything is written, a root folder that holds someone's files, a file of
    the plan's name that is not simtool's, or another plan with runs left to finish (its
    ``sweep --resume`` must still finish them). A finished plan gives way to a new one, which
    keeps the runs they share (a longer ladder)."""
    root, file = Path(plan.root), Path(plan.root) / PLAN
    if root.exists() and not root.is_dir():
        raise SimtoolError(f"{root} is a file, not a folder for the runs; choose another folder")
    # a plan another command is playing there was "unfinished: finish it with sweep --resume, or
    # delete plan.json to give it up", while it played on
    refuse_if_held(root, "command")  # a sweep, ladder, restricted play or review: its record says
    if not file.exists():
        # what a plan killed as it took the folder leaves (the temporary names of write_json) is
        # simtool's: it was "not empty and holds no simtool plan" for good
        ours = (HOLDER, f"{HOLDER}.tmp", f"{PLAN}.tmp")
        if root.exists() and not all(run_kind(p) is not None for p in root.iterdir() if p.name not in ours):
            raise SimtoolError(f"{root} is not empty and holds no simtool plan; choose a new or empty "
                               f"folder (simtool never writes over other files)")
        return
    found = read_json(file, None)
    if not isinstance(found, dict) or not isinstance(found.get("cells"), list):
        raise SimtoolError(f"{file} is not a simtool plan; choose another folder")
    owner = found.get("command")
    if isinstance(owner, str) and owner in OWNED and owner != plan.command:  # a list: TypeError, unhashable
        # a finished review's (tuning's) runs gave way to a sweep, and the refusal of a cell of
        # other settings offered --force, which replaced the runs its review.json answers from
        # an unfinished one's advice kept: how to finish it
        left = [c for c in found["cells"] if not _finished(root, c)]
        finish = f" (to finish its runs: {finishing(owner, root)})" if left else ""
        raise SimtoolError(f"{root} holds the runs of {OWNED[owner]}, which answers from them; simtool "
                           f"{plan.command} never plays into them: choose another folder{finish}")
    if _comparable(found) == _comparable(plan_record(plan)):
        return
    left = [c for c in found["cells"] if not _finished(root, c)]
    if left:
        what = found.get("command")
        what = what if what in (*RESUMES, "tune", "review", "strength") else "sweep"  # as a resume reads it
        raise SimtoolError(f"{root} holds an unfinished {what} of {len(found['cells']):,} other runs "
                           f"({len(left):,} left); finish it with {finishing(what, root)}, choose "
                           f"another folder, or delete {file} to give it up")


def _finished(root: Path, cell) -> bool:
    try:
        folder = root / cell["folder"]
        found = finished_spec(folder) if run_kind(folder) == "finished" else None
        return found is not None and found == as_recorded(spec_from_dict(cell), found)
    except (KeyError, TypeError, ValueError):
        return False


def hold_plan(plan: Plan) -> FolderLock:
    """The plan's cells in ``root/plan.json`` before anything is played, so that a resume can
    finish it (:func:`check_root` first); the root is locked until the plan ends (:func:`let_go`)."""
    check_root(plan)
    lock = None
    try:
        plan.root.mkdir(parents=True, exist_ok=True)
        lock = hold(plan.root, "command")  # refused where another began since the check
        write_json(plan.root / PLAN, plan_record(plan))
        return lock
    except OSError as exc:
        if lock is not None:
            let_go(lock)
        raise SimtoolError(f"cannot write to folder {plan.root}: {os_problem(plan.root, exc)}") from None
    except BaseException:
        if lock is not None:
            let_go(lock)
        raise


def _comparable(record: dict) -> tuple:
    """A plan record without what a resume may change (the report's file and title)."""
    return record.get("command", "sweep"), json.dumps(record.get("cells"), sort_keys=True, default=str)


def saved_plan(root: Path) -> Plan:
    """The plan saved in ``root``, to finish it (``simtool sweep --resume``)."""
    file = Path(root) / PLAN
    if not file.is_file():
        raise SimtoolError(f"nothing to resume in {root}: no {PLAN} from a sweep, ladder, "
                           f"restricted play or review")
    try:
        data = parse_json(file.read_text(), written=True)
    except (OSError, ValueError):
        data = None
    cells: list[Cell] = []
    try:
        for c in data["cells"]:
            cells.append(Cell(spec_from_dict(c), Path(root) / c["folder"], dict(c.get("extra") or {})))
        command = data.get("command", "sweep")
        settings = dict(data.get("report") or {})
        # the report's path and title, read as text by every command that finishes the plan
        # ("output": 5 failed in pathlib, a traceback)
        if any(not isinstance(settings.get(key, ""), str) for key in ("output", "title")):
            raise TypeError("report")
        if data.get("root") not in (None, str(Path(root).resolve())):
            # a copy (or a move) of the folder: its page is the original's, which a resume of
            # the copy replaced with the copy's without a word; the command's default page instead
            settings.pop("output", None)
        # --resume takes no --force, which a cell played with other settings was told to give
        again = f"a new folder, or in {root} once that folder is moved out of it"
        return Plan(command, tuple(cells), Path(root), settings=settings, resume=finishing(command, root),
                    again=again)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # the value spec_from_dict names, as the file writes it: "cell 1: n 1e400 is not ..."
        why = f": cell {len(cells) + 1}: {exc}" if isinstance(exc, ValueError) and str(exc) else ""
        raise SimtoolError(f"cannot resume {root}: {PLAN} is damaged{why}") from None


def finished_spec(folder: Path) -> RunSpec | None:
    try:
        return spec_from_dict(read_json(folder / "run.json", {}))
    except (KeyError, TypeError, ValueError):
        return None


def saved_spec(folder: Path) -> RunSpec | None:
    try:
        return spec_from_dict(read_json(folder / "chunks" / SPEC, {}))
    except (KeyError, TypeError, ValueError):
        return None


def read_json(path: Path, default):
    try:  # a pipe named plan.json was waited on for ever
        return parse_json(read_record(path))
    except (OSError, ValueError):
        return default
