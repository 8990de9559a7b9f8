"""The Python API: ``simtool.run(...)`` does what ``simtool run`` does and returns the tables."""

from __future__ import annotations

import dataclasses
import math
import platform
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import polars as pl

from . import arguments, games, pilot, stats
from .analysis import of as analysis_of
from .arguments import check_timeout
from .errors import OutOfMemory, SimtoolError, WorkerLost, describe
from .results import RunWriter
from .runner import (
    BACKENDS,
    RunSpec,
    check_beside,
    execute,
    game_of,
    jobs_used,
    make_spec,
    resolve_lineup,
    spec_from_dict,
)


@dataclass
class Result:
    """A finished run: its specification, metadata and tables (polars DataFrames)."""

    spec: RunSpec
    meta: dict
    seats: pl.DataFrame
    matches: pl.DataFrame | None = None
    path: Path | None = None

    def summary(self) -> pl.DataFrame:
        """Per seat: mean score, win share and the game's rates, with 95% intervals."""
        return stats.seat_summary(games.get(self.spec.game), self.seats.lazy(),
                                  None if self.matches is None else self.matches.lazy(),
                                  strata=self.spec.strata)

    def tables(self) -> dict[str, pl.DataFrame]:
        """Every table ``simtool run`` prints and the report shows, by title, as polars frames:
        each share or mean ``<figure>`` has numeric ``<figure>_low`` and ``<figure>_high``
        columns (its 95% interval, on deals or matches)."""
        from .report import analysis

        return summary_tables(self.meta, self.seats, self.matches) | \
            analysis(self.meta, self.seats, self.matches).frames


def summary_tables(meta: dict, seats, matches) -> dict[str, pl.DataFrame]:
    """The tables ``simtool run`` prints: by seat and strategy, by strategy, then the game's."""
    game = games.get(meta["game"])
    strata = meta["players"] if meta.get("rotate") else None
    keys = ["deal"] if meta["unit"] == "deal" else ["match", "round"]
    if meta.get("duplicate"):  # a game's tables count per copy of a deal (its units stay the deal)
        keys.insert(1, "rotation")
    seats, matches = seats.lazy(), None if matches is None else matches.lazy()
    return {"By seat and strategy": stats.seat_summary(game, seats, matches, strata=strata),
            "By strategy (seats pooled)": stats.seat_summary(game, seats, matches, ("strategy",), strata),
            **dict(analysis_of(game).tables(seats, keys, matches, meta.get("rules")))}


def run(game: str = "black-white", n=10_000, *, players: int | None = None,
        strategy: str | None = None, seats: dict | None = None, rules: dict | None = None,
        unit: str = "deal", seed: int | None = None, jobs: int | None = 1,
        out: str | Path | None = None, force: bool = False,
        progress: Callable[[int, int], None] | None = None, backend: str = "local",
        scheduler: str | None = None, rotate: bool = False, duplicate: bool = False,
        timeout: float | None = None) -> Result:
    """Simulate ``n`` deals (or matches, ``unit="match"``) and return their tables.

    ``strategy`` sits at every seat unless ``seats`` (``{seat: name}``) overrides
    it; a name may carry parameters, ``"target@under=1"``; ``rotate`` moves the line-up one seat per
    deal. With ``out``, the run folder is also
    written (as ``simtool run --out``).
    ``backend="dask"`` runs the chunks on the dask.distributed cluster at ``scheduler``.
    ``timeout``: seconds a strategy may take over one decision batch before the run stops
    with an error naming it and the deal (default: no limit).
    """
    spec = make_spec(game, players, n, strategy, seats, rules, unit, seed, rotate, duplicate=duplicate)
    if capped := pilot.warning(spec):
        warnings.warn(capped, pilot.CappedWarning, stacklevel=2)
    return execute_run(spec, jobs, out, force, progress, keep=True, backend=backend,
                       scheduler=scheduler, timeout=timeout)


def execute_run(spec: RunSpec | None, jobs, out, force, progress, keep: bool,
                backend: str = "local", scheduler: str | None = None,
                resume: bool = False, timeout: float | None = None) -> Result:
    """Play ``spec``; write the run folder if ``out``; keep the tables in memory if ``keep``.

    ``resume``: ``spec`` is read from the interrupted run in ``out``, and only the chunks
    not yet on disk are played.
    """
    arguments.execution(jobs, force, progress, backend, scheduler)
    check_timeout(timeout)
    arguments.folder("out", out, optional=True)
    if backend not in BACKENDS:
        raise SimtoolError(f"unknown backend '{backend}'; valid: {', '.join(BACKENDS)}")
    writer = RunWriter(Path(out), force, None if resume else spec.as_dict(), resume) \
        if out is not None else None
    finished: set[int] = set()
    if resume:
        try:
            spec = resumed_spec(writer)
            finished = writer.done(spec.unit, lambda name, i: expected_rows(spec, name, i), spec.n_chunks)
        except BaseException:
            writer.abort()
            raise
    started = datetime.now(UTC)
    clock = time.perf_counter()
    kept: dict[str, list[pl.DataFrame]] = {"seats": [], "matches": []}
    try:
        parts = writer.parts if writer else None
        tallies: dict[int, tuple[pl.DataFrame, pl.DataFrame]] = {}
        planned = spec.n_chunks if not spec.precision else min(spec.n_chunks, FIRST_BATCH)
        played, done, used = 0, len(finished), 1
        if progress:
            progress(done, planned)
        while True:
            # lazily: a run of 2^63 deals has far more chunks than memory could list
            todo = (i for i in range(played, planned) if i not in finished)
            count = planned - played - sum(played <= i < planned for i in finished)
            used = max(used, jobs_used(jobs, count))
            chunks = execute(spec, jobs, parts, keep or not writer, todo, backend, scheduler,
                             count, timeout)
            for chunk in chunks:
                if keep or not writer:
                    kept["seats"].append(chunk.seats)
                    if chunk.matches is not None:
                        kept["matches"].append(chunk.matches)
                if chunk.tally is not None:
                    tallies[chunk.index] = chunk.tally
                done += 1
                if progress:
                    progress(done, planned)
            played = planned
            if not spec.precision:
                break
            for i in finished - tallies.keys():  # resumed: chunks an earlier process played
                if i < played:
                    tallies[i] = stats.tally(games.get(spec.game), *writer.read_chunk(i, spec.unit),
                                             spec.strata, spec.block)
            block, half, figure = stats.widest([tallies[i] for i in range(played)], spec.precision)
            if half <= spec.precision or played == spec.n_chunks:
                break
            planned = next_batch(played, half, spec.precision, spec.n_chunks)
        wall = time.perf_counter() - clock
        limit = None
        if spec.precision:
            cap = spec.n
            spec = dataclasses.replace(spec, n=min(cap, (block + 1) * spec.block))
            limit = ("deal" if spec.unit == "deal" else "match", spec.n)
            precision = {"precision": spec.precision, "precision_cap": cap,
                         "precision_reached": half, "precision_widest": figure,
                         "precision_tracks": "every share the summary prints (win shares and rates "
                                             "per seat and strategy, and per strategy)"}
        else:
            precision = {}
        meta = metadata(spec, used, started, wall) | {"backend": backend,
                                                       "resumed_chunks": len(finished)} | precision
        if writer:
            meta = writer.finish(meta, limit)
    except KeyboardInterrupt:
        if writer:  # finished chunks stay on disk: `simtool run --resume DIR` completes the run
            writer.interrupted()
        raise
    except (WorkerLost, MemoryError) as exc:
        lost = exc if isinstance(exc, WorkerLost) else out_of_memory(exc)
        if not writer:
            raise lost from None
        # the hours a long run played are not thrown away for a worker the system killed
        writer.interrupted()
        raise type(lost)(f"{lost}; the finished chunks are kept: finish the run with: "
                         f"simtool run --resume {writer.out}") from None
    except BaseException:
        if writer:
            writer.abort()
        raise
    if resume and keep:
        return Result(spec, meta, pl.read_parquet(writer.out / "seats.parquet"),
                      pl.read_parquet(writer.out / "matches.parquet") if spec.unit == "match" else None,
                      writer.out)
    if writer and not keep:
        return Result(spec, meta, None, None, writer.out)
    seats = pl.concat(kept["seats"])
    matches = pl.concat(kept["matches"]) if kept["matches"] else None
    if limit:
        seats = seats.filter(pl.col(limit[0]) < limit[1])
        matches = None if matches is None else matches.filter(pl.col(limit[0]) < limit[1])
    return Result(spec, meta, seats, matches, writer.out if writer else None)


def out_of_memory(exc: MemoryError) -> OutOfMemory:
    return OutOfMemory(f"out of memory ({describe(exc)}); run with fewer --jobs, or give the run "
                       f"more memory")


def resumed_spec(writer: RunWriter) -> RunSpec:
    """The specification an interrupted run saved, checked as a new one would be (its plugin
    files, and the files beside them, must still be there, unchanged)."""
    try:
        spec = spec_from_dict(writer.spec())
    except (KeyError, TypeError, ValueError) as exc:
        raise SimtoolError(f"cannot resume {writer.out}: its saved specification is damaged "
                           f"({type(exc).__name__}: {exc})") from None
    resolve_lineup(spec)
    check_beside(spec)
    # a run saved before some numbers of its game were rule options played the sheet's values
    missing = {o.name: o.default for o in games.get(spec.game).options if o.name not in spec.rules}
    return dataclasses.replace(spec, rules={**spec.rules, **missing}) if missing else spec


def expected_rows(spec: RunSpec, table: str, index: int) -> int | None:
    """Rows of a whole chunk file: one per deal (or match) and seat; a match's rounds vary."""
    if spec.unit == "match" and table == "seats":
        return None
    return spec.bounds(index)[1] * spec.players * spec.copies


FIRST_BATCH = 2
"""Chunks played before ``--precision`` first looks at the intervals (then at every block of
them). Fixed, not the number of jobs, so that where a run stops never depends on ``--jobs``."""


def next_batch(played: int, half: float, target: float, n_chunks: int) -> int:
    """Chunks to have played after the next batch: a half-width shrinks as one over the square
    root of the deals, so aim 10% past the estimate; at least one more chunk, at most the cap."""
    needed = math.ceil(played * (half / target) ** 2 * 1.1)
    return min(n_chunks, max(played + 1, needed))


def metadata(spec: RunSpec, jobs: int, started: datetime, wall: float) -> dict:
    game = game_of(spec.game)
    return {
        "game": spec.game,
        "title": game.title,
        "players": spec.players,
        "rules": spec.rules,
        "lineup": list(spec.lineup),
        "rotate": spec.rotate,
        "duplicate": spec.duplicate,
        "unit": spec.unit,
        "n": spec.n,
        "seed": spec.seed,
        "chunk": spec.chunk,
        "precision": spec.precision,
        "plugins": spec.plugins,
        "jobs": jobs,
        "started": started.isoformat(timespec="seconds"),
        "wall_seconds": round(wall, 3),
        "versions": {
            # the imported modules' own versions: each metadata look-up scans the install (20-70 ms)
            "simtool": version("simtool"),
            "numpy": np.__version__,
            "polars": pl.__version__,
            "python": platform.python_version(),
            # joblib runs the dask backend (and spawned workers off Linux); a forked or
            # single-process run never imports it, and looking its version up took 20 ms
            **({"joblib": sys.modules["joblib"].__version__} if "joblib" in sys.modules else {}),
        },
    }
