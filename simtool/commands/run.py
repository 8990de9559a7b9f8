"""The Python API: ``simtool.run(...)`` does what ``simtool run`` does and returns the tables."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simtool import arguments, games
from simtool.errors import COMMAND_LINE, SimtoolError, option, pasted
from simtool.pipeline import pilot
from simtool.pipeline.executor import OWNED, Cell, Plan, execute, owner_of, resume_plan
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
    summed: dict | None = field(default=None, repr=False)
    """The sums of the tables ``simtool run`` prints, added up over the chunks as they were
    played (:func:`simtool.analysis.summary.added_summary_sums`), where it asked for them."""

    def summary(self) -> pl.DataFrame:
        """Per seat: mean score, win share and the game's rates, with 95% intervals."""
        from simtool.analysis.summary import seat_summary

        seats, matches = self._frames()
        return seat_summary(games.get(self.spec.game), seats.lazy(), None if matches is None else matches.lazy(),
                            strata=self.spec.strata)

    def tables(self) -> dict[str, pl.DataFrame]:
        """Every table ``simtool run`` prints and the report shows, by title, as polars frames:
        each share or mean ``<figure>`` has numeric ``<figure>_low`` and ``<figure>_high``
        columns (its 95% interval, on deals or matches)."""
        from simtool import stats
        from simtool.reports.balance import analysis

        seats, matches = self._frames()
        tables = summary_tables(self.meta, seats, matches)  # refuses another game's columns by name
        # the seats of each deal (match) read p at a time in seat order, as a run writes them: a
        # frame sorted by score in a notebook reads as the run's; one cut to some seats is refused
        # (it ended in "ValueError: seat rows are not grouped p to a deal in seat order")
        by_match, p = self.meta["unit"] == "match", self.meta["players"]
        key, kind, units = ("match", "matches", "matches") if by_match else ("deal", "seats", "deals")
        keys = [key, "rotation", "seat"] if self.meta.get("duplicate") else [key, "seat"]
        outcome = matches if by_match else seats
        try:
            if missing := [k for k in keys if k not in outcome.columns]:
                raise ValueError(missing)
            outcome = outcome.sort(keys, maintain_order=True)
            stats.panel(outcome, "seat", p)
            # a duplicate deal cut to some rotations ended in numpy's "cannot reshape array"
            if self.meta.get("duplicate") and not (outcome.group_by(key).len()["len"] == p * p).all():
                raise ValueError(key)
        except ValueError:
            raise SimtoolError(f"result.{kind} does not hold one row per {' and '.join(keys)} (seats 0..{p - 1}) "
                               f"of this {p}-player run; give its tables as simtool.run returned them (cut to "
                               f"some {units} is read as it is, cut to some seats or joined with another run's "
                               f"is not)") from None
        seats, matches = (seats, outcome) if by_match else (outcome, matches)
        return tables | analysis(self.meta, seats, matches).frames

    def _frames(self) -> tuple[pl.DataFrame, pl.DataFrame | None]:
        """The tables, refused in one line where a notebook replaced them by what the analyses
        cannot read (a pandas frame, no rows: deep AttributeError or ColumnNotFoundError); a lazy
        frame is collected."""
        out = []
        for kind, rows in (("seats", self.seats), ("matches", self.matches)):
            if isinstance(rows, pl.LazyFrame):
                rows = rows.collect()
            if rows is None and (kind == "seats" or self.meta["unit"] == "match") or \
                    rows is not None and not isinstance(rows, pl.DataFrame):
                given = "None" if rows is None else f"a {type(rows).__module__.partition('.')[0]} {type(rows).__name__}"
                raise SimtoolError(f"result.{kind} is {given}; expected a polars DataFrame, as simtool.run "
                                   f"returned it (pl.from_pandas(...) turns a pandas one back)")
            if rows is not None and rows.is_empty():
                raise SimtoolError(f"result.{kind} holds no rows; give its tables with at least one "
                                   f"{'match' if self.meta['unit'] == 'match' else 'deal'}")
            out.append(rows)
        return out[0], out[1]


def summary_tables(meta: dict, seats, matches, sums: dict | None = None) -> dict[str, pl.DataFrame]:
    """The tables ``simtool run`` prints: by seat and strategy, by strategy, then the game's.
    ``sums``: :attr:`Result.summed`, sums these tables would otherwise read every row for."""
    from simtool.analysis import game_tables
    from simtool.analysis.summary import seat_summary

    game = games.get(meta["game"])
    strata = meta["players"] if meta.get("rotate") else None
    keys = ["deal"] if meta["unit"] == "deal" else ["match", "round"]
    if meta.get("duplicate"):  # a game's tables count per copy of a deal (its units stay the deal)
        keys.insert(1, "rotation")
    seats, matches = seats.lazy(), None if matches is None else matches.lazy()
    pooled = seat_summary(game, seats, matches, ("strategy",), strata, sums)
    return {"By seat and strategy": seat_summary(game, seats, matches, strata=strata, sums=sums),
            "By strategy (seats pooled)": shares_by_rule(pooled, meta["players"]),
            **dict(game_tables(game, seats, keys, matches, meta.get("rules")))}


def shares_by_rule(pooled: pl.DataFrame, players: int) -> pl.DataFrame:
    """``pooled`` with a win share that is ``1/players`` by rule given as exactly that, its interval
    its own value: one strategy at every seat wins each deal's (match's) whole win, ties split, so a
    Wilson interval on the units dressed it up as a measurement (the API's 0.25 (0.232 to 0.269),
    float32 sums and all, where the console prints "1/4 by rule"). A game of one's own that does not
    split its wins keeps its measured share."""
    if pooled.height != 1:
        return pooled
    fair = 1 / players
    exact = [c for c in ("win", "match_win") if c in pooled.columns and abs(pooled[c][0] - fair) < 1e-9]
    return pooled.with_columns(pl.lit(fair).alias(c + end) for c in exact for end in ("", "_low", "_high"))


def rotated_alone(rotate: bool, duplicate: bool) -> None:
    """Refuse ``rotate`` with ``duplicate``: the run recorded ``rotate: false`` without a word
    (the results are alike either way, every copy of a deal seating the line-up one place on)."""
    if rotate is True and duplicate is True:
        def flag(name: str) -> str:
            return option(name) if COMMAND_LINE.get() else option(name, True)

        raise SimtoolError(f"{flag('rotate')} with {flag('duplicate')}: {option('duplicate')} already plays every "
                           f"deal once per rotation of the line-up, so every strategy sits in every seat; give "
                           f"{flag('duplicate')} alone")


@arguments.called("simtool.run")
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
    import strategies

    rotated_alone(rotate, duplicate)
    with strategies.importing_within(arguments.check_timeout(timeout)):  # a plugin's import too
        spec = make_spec(game, players, n, strategy, seats, rules, unit, seed, rotate, duplicate=duplicate,
                         lead_history=lead_history, isolate=isolate)
    if capped := pilot.warning(spec):
        warnings.warn(capped, pilot.CappedWarning, stacklevel=2)
    return execute_run(spec, jobs, out, force, progress, keep=True, backend=backend,
                       scheduler=scheduler, timeout=timeout)


def execute_run(spec: RunSpec | None, jobs, out, force, progress, keep: bool,
                backend: str = "local", scheduler: str | None = None,
                resume: bool = False, timeout: float | None = None, summed: bool = False) -> Result:
    """Play ``spec`` through the executor; write the run folder if ``out``; keep the tables in
    memory if ``keep`` (always without ``out``). ``resume``: the specification is read from the
    interrupted run in ``out``, and only the chunks not yet on disk are played. ``summed``: the
    workers sum what the printed tables need as they play (:attr:`Result.summed`)."""
    folder = arguments.folder("out", out, optional=True)
    if folder is not None and not resume and (owner := owner_of(Path(folder))):
        # force=True replaced a run a review.json answers from (sweep --force no longer does since
        # hostile round 12); a run of its own there sat among the review's. A resume plays on the
        # spec the review wrote, as 'simtool report' of its interrupted run advises
        raise SimtoolError(f"{folder} is in the runs of {OWNED[owner]}, which answers from them; simtool run "
                           f"never plays there: choose another folder")
    plan = resume_plan(folder) if resume else \
        Plan("run", (Cell(spec, folder),), reuse=False, resume=f"simtool run --resume {pasted(folder)}")
    (done,) = execute(plan, jobs=jobs, backend=backend, scheduler=scheduler, force=force, keep=keep,
                      progress=progress, timeout=timeout, tally=tally, summed=summary_sums if summed else None)
    return Result(done.spec, done.meta, done.seats, done.matches, folder, done.leads,
                  None if done.summed is None else added_summary_sums(done.summed))


def tally(*args):
    """:func:`simtool.analysis.summary.tally`, imported by the ``--precision`` run that calls it
    (the statistics are no part of a run's start)."""
    from simtool.analysis.summary import tally as summary_tally

    return summary_tally(*args)


def summary_sums(*args) -> dict:
    """:func:`simtool.analysis.summary.summary_sums`, imported by the worker that calls it."""
    from simtool.analysis.summary import summary_sums as sums

    return sums(*args)


def added_summary_sums(chunks: list[dict]) -> dict:
    from simtool.analysis.summary import added_summary_sums as added

    return added(chunks)
