"""The Python API: ``simtool.run(...)`` does what ``simtool run`` does and returns the tables."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simtool import arguments, games
from simtool.pipeline import pilot
from simtool.pipeline.executor import Cell, Plan, execute, resume_plan
from simtool.pipeline.runner import RunSpec, make_spec


@dataclass
class Result:
    """A finished run: its specification, metadata and tables (polars DataFrames)."""

    spec: RunSpec
    meta: dict
    seats: pl.DataFrame
    matches: pl.DataFrame | None = None
    path: Path | None = None
    leads: pl.DataFrame | None = None
    """Lead histories, where the run recorded them (``lead_history``)."""

    def summary(self) -> pl.DataFrame:
        """Per seat: mean score, win share and the game's rates, with 95% intervals."""
        from simtool.analysis.summary import seat_summary

        return seat_summary(games.get(self.spec.game), self.seats.lazy(),
                                  None if self.matches is None else self.matches.lazy(),
                                  strata=self.spec.strata)

    def tables(self) -> dict[str, pl.DataFrame]:
        """Every table ``simtool run`` prints and the report shows, by title, as polars frames:
        each share or mean ``<figure>`` has numeric ``<figure>_low`` and ``<figure>_high``
        columns (its 95% interval, on deals or matches)."""
        from simtool.reports.balance import analysis

        return summary_tables(self.meta, self.seats, self.matches) | \
            analysis(self.meta, self.seats, self.matches).frames


def summary_tables(meta: dict, seats, matches) -> dict[str, pl.DataFrame]:
    """The tables ``simtool run`` prints: by seat and strategy, by strategy, then the game's."""
    from simtool.analysis import of as analysis_of
    from simtool.analysis.summary import seat_summary

    game = games.get(meta["game"])
    strata = meta["players"] if meta.get("rotate") else None
    keys = ["deal"] if meta["unit"] == "deal" else ["match", "round"]
    if meta.get("duplicate"):  # a game's tables count per copy of a deal (its units stay the deal)
        keys.insert(1, "rotation")
    seats, matches = seats.lazy(), None if matches is None else matches.lazy()
    return {"By seat and strategy": seat_summary(game, seats, matches, strata=strata),
            "By strategy (seats pooled)": seat_summary(game, seats, matches, ("strategy",), strata),
            **dict(analysis_of(game).tables(seats, keys, matches, meta.get("rules")))}


def run(game: str = "black-white", n=10_000, *, players: int | None = None,
        strategy: str | None = None, seats: dict | None = None, rules: dict | None = None,
        unit: str = "deal", seed: int | None = None, jobs: int | None = 1,
        out: str | Path | None = None, force: bool = False,
        progress: Callable[[int, int], None] | None = None, backend: str = "local",
        scheduler: str | None = None, rotate: bool = False, duplicate: bool = False,
        timeout: float | None = None, lead_history: int | None = None,
        isolate: bool = False) -> Result:
    """Simulate ``n`` deals (or matches, ``unit="match"``) and return their tables.

    ``strategy`` sits at every seat unless ``seats`` (``{seat: name}``) overrides
    it; a name may carry parameters, ``"target@under=1"``; ``rotate`` moves the line-up one seat per
    deal. With ``out``, the run folder is also
    written (as ``simtool run --out``).
    ``backend="dask"`` runs the chunks on the dask.distributed cluster at ``scheduler``, or
    without one on a cluster of ``jobs`` workers started on this machine and kept for the next
    call until the process ends (:mod:`simtool.pipeline.cluster`).
    ``timeout``: seconds a strategy may take over one decision batch before the run stops
    with an error naming it and the deal (default: no limit).
    ``lead_history``: record every seat's estimated standing at each decision of the first that
    many deals (matches) of each chunk (``Result.leads``, ``leads.parquet``), from which
    ``simtool.metrics`` computes the published estimate-based metrics.
    ``isolate``: every plugin strategy plays in a process of its own that receives only its
    views (docs/trust.md); the results are the same.
    """
    spec = make_spec(game, players, n, strategy, seats, rules, unit, seed, rotate, duplicate=duplicate,
                     lead_history=lead_history, isolate=isolate)
    if capped := pilot.warning(spec):
        warnings.warn(capped, pilot.CappedWarning, stacklevel=2)
    return execute_run(spec, jobs, out, force, progress, keep=True, backend=backend,
                       scheduler=scheduler, timeout=timeout)


def execute_run(spec: RunSpec | None, jobs, out, force, progress, keep: bool,
                backend: str = "local", scheduler: str | None = None,
                resume: bool = False, timeout: float | None = None) -> Result:
    """Play ``spec`` through the executor; write the run folder if ``out``; keep the tables in
    memory if ``keep`` (always without ``out``). ``resume``: the specification is read from the
    interrupted run in ``out``, and only the chunks not yet on disk are played."""
    folder = arguments.folder("out", out, optional=True)
    plan = resume_plan(folder) if resume else \
        Plan("run", (Cell(spec, folder),), reuse=False, resume=f"simtool run --resume {folder}")
    (done,) = execute(plan, jobs=jobs, backend=backend, scheduler=scheduler, force=force, keep=keep,
                      progress=progress, timeout=timeout, tally=tally)
    return Result(done.spec, done.meta, done.seats, done.matches, folder, done.leads)


def tally(*args):
    """:func:`simtool.analysis.summary.tally`, imported by the ``--precision`` run that calls it
    (the statistics are no part of a run's start)."""
    from simtool.analysis.summary import tally as summary_tally

    return summary_tally(*args)
