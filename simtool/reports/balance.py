"""Balance reports: finished run folders turned into one self-contained HTML page.

The page opens with the verdicts of every run (seats, the game's rates, luck, tension: the
words and thresholds of :mod:`simtool.analysis.verdicts`) and ends with a glossary of the terms
it uses. Per game: each run's set-up, its findings in plain sentences, the seat-advantage and
strategy-strength tables with 95% intervals, score distributions (matplotlib bars, inlined as
SVG), the game's own tables with headers in words, and the seat tests (T², F, p) folded away.
Several runs of one game are compared side by side on edges over the fair share; a run's
differences are from the first earlier run of the same line-up, player count and unit (paired
deal by deal when the two share their deals, else each end of the interval from the two runs'
own intervals on that side: Newcombe's method, :func:`simtool.stats.mover_difference`), and an
unlike run has none.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import html
import io
import itertools
import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import polars as pl

from simtool import games, options, stats
from simtool.analysis import game_tables, labels, ratings, summary, tension, verdicts
from simtool.analysis import ladder as ladders
from simtool.analysis import of as analysis_of
from simtool.analysis.review import PAIRED_LEAST
from simtool.errors import SimtoolError, bad, option, os_problem
from simtool.games import ROUND_CAP
from simtool.pipeline.folders import dealt_alike, load, other_deals, read_meta, read_regular, write_together
from simtool.reports import pages


@dataclass
class Figure:
    """One headline figure of a run: its value, 95% interval, and per-deal values for pairing."""

    value: float
    low: float
    high: float
    rows: np.ndarray | Callable[[], tuple[np.ndarray, np.ndarray | None]] | None
    """The per-deal values (:attr:`per_row`), or what reads them with their :attr:`units` when a
    paired comparison first asks (a run's rows read again: a report of one run holds none);
    ``None``: no per-deal value (a ratio over matches), never paired."""
    percent: bool = True
    points: bool = False  # an edge over the fair share, shown in points
    better: str | None = None
    """Which way is better for balance: ``fair`` (closer to 0: a seat's edge), ``lower`` (a
    rate that is a risk to a seat, ``Analysis.risks``), or ``None``: a strategy's edge is its
    skill, another rate may be the game's aim, a mean score is neither."""
    units: np.ndarray | None = None
    """With ``--duplicate``, the deal of each per-row value (a game is one copy of a deal): the
    copies share their cards, so a paired difference is taken per deal (:func:`paired_change`)."""
    scores: tuple[float, float] | None = None
    """A mean score's lowest and highest score of any seat in the run: how far one deal's mean can
    move, where no deal's moved (:func:`paired_change`)."""

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2

    @property
    def per_row(self) -> np.ndarray | None:
        if callable(self.rows):
            self.rows, self.units = self.rows()
        return self.rows


@dataclass
class Analysis:
    """Everything the report shows of one run."""

    path: Path | None
    meta: dict
    game: object
    unit: str  # "deals" or "matches": what win shares count
    seats: pl.DataFrame  # seat table with intervals (stats.seat_table)
    win_test: stats.SeatTest
    score_test: stats.SeatTest
    strategies: pl.DataFrame | None  # stats.strategy_strength, with more than one strategy
    rates: pl.DataFrame  # per seat, each rate with its interval
    game_tables: list[tuple[str, pl.DataFrame]]
    figures: dict[str, Figure]
    seats_strategy: str  # the strategy name at seat 0
    capped: int = 0  # matches stopped by the round cap
    metrics: list[tuple[str, pl.DataFrame]] = field(default_factory=list)  # duplicate, luck, tension
    held: pl.DataFrame | None = None  # ratings.held of the first deals, with several strategies
    sides: list[tuple[int, ...]] = field(default_factory=list)  # partners the scores show (verdicts.partners)
    findings: list[str] = field(default_factory=list)
    verdicts: list[tuple[str, str, str]] = field(default_factory=list)  # (question, word, sentence)
    plots: list[tuple[str, str]] = field(default_factory=list)  # (caption, svg)
    counts: pl.DataFrame | None = None  # Reading.counts, for the charts
    tally: tension.Tally | None = None  # a match run's tension, for its charts
    batches: Callable[[], Iterator[tuple[np.ndarray, dict[str, np.ndarray]] | None]] | None = None
    """What reads each headline figure's per-game values a batch of whole units at a time, for a
    paired comparison (:func:`row_batches`); ``None``: :attr:`Figure.per_row` reads them whole."""

    @property
    def p(self) -> int:
        return self.meta["players"]

    @property
    def rules_page(self) -> str:
        """Where the game's complete rules are: a built-in game's page in simtool's docs/rules/, a
        designer's game's own ``sheet`` (it has no page in simtool's docs)."""
        module = type(self.game).__module__
        if module.startswith("simtool.games."):
            return f"simtool's docs/rules/{self.game.id}.md"
        # nothing checks that a game declares its sheet: without one the sentence ended at "in "
        sheet = getattr(self.game, "sheet", None)
        return f"{sheet}, the sheet of {module}" if sheet else f"its module {module} (the game names no rules sheet)"

    @property
    def mixed(self) -> bool:
        return self.strategies is not None

    @property
    def tables(self) -> list[tuple[str, list[str], list[list[str]]]]:
        """The game's tables as text cells."""
        return [(caption, *worded(df)) for caption, df in self.game_tables]

    @property
    def rate_names(self) -> list[str]:
        return list(analysis_of(self.game).rates)

    @property
    def rate_text(self) -> dict[str, str]:
        """Each rate in words ("goes over the trick limit"), for headers."""
        return analysis_of(self.game).rate_text

    @property
    def frames(self) -> dict[str, pl.DataFrame]:
        """Every table of the report by title, with numeric interval columns."""
        out = {f"Seat advantage ({self.unit})": self.seats}
        if self.strategies is not None:
            out["Strategy strength (win share per seat held)"] = self.strategies
        if self.rate_names:
            out[f"Rates by seat ({'rounds' if self.unit == 'matches' else 'deals'})"] = self.rates
        return out | dict(self.game_tables) | dict(self.metrics)

    @property
    def metric_tables(self) -> list[tuple[str, list[str], list[list[str]]]]:
        return [(caption, *worded(metric_cells(caption, df))) for caption, df in self.metrics]


def worded(df: pl.DataFrame) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """A table's cells with each header as ``(column, words)``: the words for the page, the
    column for what its cells hold (a strategy's name is shown as written)."""
    columns, rows = stats.frame_cells(df)
    return [(c, header(c)) for c in columns], rows


def analyse(path: Path, ladders: list = (), charts: bool = True) -> Analysis:
    """Read a finished run folder and compute what the report shows of it. ``ladders``: the
    skill ladders of the report; one of this run's set-up gives its skill-versus-luck sentence.
    The tables are read a batch of whole units at a time (:func:`by_units`), not collected: a
    report of 1e6 Kansas City matches held every seat row (2.7 GiB)."""
    meta, seats, matches = load(path)
    folder = Path(path)
    try:
        a = analysis(meta, seats, matches, folder, ladders)
    except (pl.exceptions.PolarsError, OSError):
        tables = "seats.parquet" if matches is None else "seats.parquet or matches.parquet"
        raise SimtoolError(f"{folder / tables} is not a readable table (damaged inside); run it again") from None
    if charts:
        a.plots = plots(a)
    return a


class _Unordered(Exception):
    """Rows that lie in no order of units (:func:`by_units`)."""


def by_units(rows: pl.DataFrame | pl.LazyFrame, figures: list[pl.Expr], take):
    """``take(batches)`` of ``rows`` in batches of whole units (:func:`stats._unit_batches`, the
    columns ``figures`` read with what a row is), or of the whole frame in one batch where the rows
    lie in no order of units: what ``take`` folded of the batches before is then thrown away."""
    def batches():
        for batch in stats._unit_batches(rows.lazy(), (), figures):
            if batch is None:
                raise _Unordered
            yield batch

    try:
        return take(batches())
    except _Unordered:
        return take(iter([rows.lazy().collect()]))


def rating_table(paths: list[Path]) -> pl.DataFrame | None:
    """The Python API's ratings over finished run folders of one game (a sweep's cells):
    :func:`ratings.rate` of their deals, as a polars frame with ``rating_low/high``."""
    # one folder's name was read letter by letter ("r is not a finished run folder")
    given = paths
    paths = [] if isinstance(paths, (str, bytes, os.PathLike, dict)) or not hasattr(paths, "__iter__") \
        else list(paths)  # a glob's generator too
    if not paths or not all(isinstance(p, (str, os.PathLike)) for p in paths):
        raise bad("folders", given, "a list of finished run folders (str or pathlib.Path), such as "
                                    "['runs/a', 'runs/b']")
    runs = [analyse(Path(p), charts=False) for p in paths]
    if len({r.game.id for r in runs}) > 1:
        raise SimtoolError("ratings compare the strategies of one game; give the runs of one game")
    return ratings.rate([r.held for r in runs if r.held is not None])


@dataclass
class Panels:
    """A run's outcome rows as ``(units, p)`` arrays: win share and score (match total), the
    rotation stratum of each (``--rotate``), its unit (``--duplicate``: a deal's copies are one),
    the strategies' names and each seat's strategy as a code (``None`` with one strategy)."""

    win: np.ndarray
    score: np.ndarray
    strata: np.ndarray | None
    units: np.ndarray | None
    names: list[str]
    codes: np.ndarray | None


def panels(meta: dict, outcome: pl.DataFrame | pl.LazyFrame, by_match: bool) -> Panels:
    p, key, score_of = meta["players"], stats.unit_key(outcome), "total" if by_match else "score"
    keyed = meta.get("rotate") or meta.get("duplicate")

    def take(batches) -> Panels:
        names, parts = [], []
        for batch in batches:
            strategy = batch["strategy"].cast(pl.String)
            names += [name for name in strategy.unique(maintain_order=True).to_list() if name not in names]
            codes = stats.panel(batch.with_columns(strategy.replace_strict(names, list(range(len(names))),
                                                                           return_dtype=pl.Int8)), "strategy", p)
            parts.append((stats.panel(batch, "win", p), stats.panel(batch, score_of, p),
                          stats.panel(batch, key, p)[:, 0] if keyed else np.zeros(0), codes))
        win, score, unit, codes = (np.concatenate(part) for part in zip(*parts, strict=True))
        return Panels(win, score, unit % p if meta.get("rotate") else None,
                      # with --duplicate a deal's p copies are one unit: every interval sums them first
                      unit if meta.get("duplicate") else None, names, codes if len(names) > 1 else None)

    return by_units(outcome, [pl.col(c) for c in ("win", score_of, "strategy")], take)


def run_metrics(meta: dict, game, seats: pl.DataFrame | pl.LazyFrame, matches: pl.DataFrame | pl.LazyFrame | None,
                x: Panels) -> tuple[list[tuple[str, pl.DataFrame]], list[tuple[int, ...]], tension.Tally | None]:
    """The duplicate, luck and tension tables of a run (``Analysis.metrics``), the partners its
    scores show (``Analysis.sides``), which the tension table reads, and the tension's tally of a
    match run (its charts)."""
    p, out = meta["players"], []
    sides = verdicts.partners(x.score, x.units)
    if x.codes is not None and x.units is not None:
        gain = stats.duplicate_gain({"win": x.win, "score": x.score}, x.codes, x.names, x.units)
        if len(np.unique(x.units)) < GAIN_UNITS:  # how much narrower: the noise of two half-widths
            gain = gain.with_columns(pl.lit(float("nan")).alias(c) for c in ("narrower", "games_ratio"))
        out.append((DUPLICATE_TABLE, gain))
    if x.units is not None:
        out.append((LUCK_TABLE, luck_table(x.win, x.score, p, matches is not None)))
    tally = None
    if matches is not None:
        tally = tension.streamed(seats.lazy(), matches.lazy(), game.lower_wins, game.total_floor, sides)
        if tally is None:  # rows in no order of matches: read whole
            tally = tension.Tally("rotation" in matches.collect_schema().names())
            tally.add(tension.matchwise(seats.lazy().collect(), matches.lazy().collect(), game.lower_wins,
                                        game.total_floor, sides))
        out += tension_tables(tally.summary(), tally.length_table())
    return out, sides, tally


def printed_metrics(meta: dict, seats: pl.DataFrame | pl.LazyFrame, matches: pl.DataFrame | pl.LazyFrame | None
                    ) -> tuple[list[tuple[str, pl.DataFrame]], list[str]]:
    """The duplicate, luck and tension tables of a run and their sentences, as :func:`analysis`
    makes them, without the rest of the report: the per-match rates of its headline figures alone
    grouped every seat row of a printed run of 1e6 Kansas City matches at once (+430 MiB). Read a
    batch of whole units at a time (:func:`streamed_metrics`) where the rows lie in their units'
    order, else whole."""
    game = games.get(meta["game"])
    got = streamed_metrics(meta, game, seats.lazy(), None if matches is None else matches.lazy())
    if got is None:
        seats, matches = seats.lazy().collect(), None if matches is None else matches.lazy().collect()
        got = run_metrics(meta, game, seats, matches,
                          panels(meta, matches if matches is not None else seats, matches is not None))
    metrics, sides, _ = got
    unit = "matches" if matches is not None else "deals"
    return metrics, metric_sentences(metrics, unit, meta.get("n"), game.lower_wins, sides)


def streamed_metrics(meta: dict, game, seats: pl.LazyFrame, matches: pl.LazyFrame | None
                     ) -> tuple[list[tuple[str, pl.DataFrame]], list[tuple[int, ...]], tension.Tally | None] | None:
    """:func:`run_metrics` of a run's frames, the same tables bit for bit, read a batch of whole
    units at a time (:func:`stats._unit_batches`) instead of every row and a numpy panel of every
    unit: each interval's sums folded on (:class:`stats.UnitFold`), the luck split's per group of
    deals (:func:`stats.luck_sums`), the tension table from a row per match. A printed run of 1e6
    Black & White duplicate deals held 733 MiB, of 1e6 Kansas City matches 602 (docs/speed.md).
    ``None`` where the rows lie in no order of units."""
    p, by_match = meta["players"], matches is not None
    outcome = matches if by_match else seats
    key, score_of = stats.unit_key(outcome), "total" if by_match else "score"
    duplicate = bool(meta.get("duplicate"))
    names: list[str] = []
    alike, units = np.ones((p, p), bool), 0
    # per figure and strategy: the interval on the deals (duplicate) and on games stratified by copy (rotate)
    gains: dict[tuple[str, int], tuple[stats.UnitFold, stats.UnitFold]] = {}
    n = outcome.select(pl.len()).collect().item() // (p * p) if duplicate else 0
    luck = {name: stats.luck_sums(np.zeros((0, p, p)), n) for name in (score_of, "win")}
    deals = 0
    mixed = len(set(meta["lineup"])) > 1  # one strategy has no duplicate table: nothing to fold for it

    def luck_batch(win: np.ndarray, score: np.ndarray) -> None:
        nonlocal deals
        for name, values in ((score_of, score), ("win", win)):
            luck[name] = stats.luck_sums(values.reshape(-1, p, p), n, deals, luck[name])
        deals += len(win) // p

    read = (score_of, "win", "strategy") if duplicate else (score_of,)  # partners alone read the scores
    for batch in stats._unit_batches(outcome, (), [pl.col(c) for c in read]):
        if batch is None:
            return None
        score = stats.panel(batch, score_of, p)
        for a, b in zip(*np.triu_indices(p, 1), strict=True):
            alike[a, b] &= np.array_equal(score[:, a], score[:, b])
        if not duplicate:
            units += len(score)
            continue
        win = stats.panel(batch, "win", p)
        at = np.unique(stats.panel(batch, key, p)[:, 0], return_inverse=True)[1]
        units += int(at.max()) + 1
        strategy = batch["strategy"].cast(pl.String)
        names += [name for name in strategy.unique(maintain_order=True).to_list() if name not in names]
        if not mixed:
            luck_batch(win, score)
            continue
        codes = stats.panel(batch.with_columns(strategy.replace_strict(names, list(range(len(names))),
                                                                       return_dtype=pl.Int8)), "strategy", p)
        for figure, k in itertools.product(("win", "score"), range(len(names))):
            if (figure, k) not in gains:
                gains[figure, k] = stats.UnitFold(), stats.UnitFold(p)
                if k:  # a strategy first seen now held no seat of the units read before: k and m 0
                    for fold, like in zip(gains[figure, k], gains[figure, 0], strict=True):
                        fold.count[:] = like.count
        for figure, values in (("win", win), ("score", score)):
            for k in range(len(names)):
                held = codes == k
                k_, m_ = (values * held).sum(axis=1), held.sum(axis=1)
                gains[figure, k][0].add(k_, m_, at=at)
                gains[figure, k][1].add(k_, m_, np.arange(len(k_)) % p)
        luck_batch(win, score)
    sides = verdicts.sides_of(alike, units)
    out = []
    if len(names) > 1 and not mixed:  # strategies the line-up did not name: read whole
        return None
    if duplicate and len(names) > 1:
        gain = stats.gain_table([(figure, name, *(fold.estimate(share=figure == "win") for fold in gains[figure, k]))
                                 for figure in ("win", "score") for k, name in enumerate(names)])
        if units < GAIN_UNITS:  # how much narrower: the noise of two half-widths
            gain = gain.with_columns(pl.lit(float("nan")).alias(c) for c in ("narrower", "games_ratio"))
        out.append((DUPLICATE_TABLE, gain))
    if duplicate:
        out.append((LUCK_TABLE, luck_joined(luck[score_of], luck["win"], p, by_match)))
    tally = None
    if by_match:
        tally = tension.streamed(seats, matches, game.lower_wins, game.total_floor, sides)
        if tally is None:
            return None
        out += tension_tables(tally.summary(), tally.length_table())
    return out, sides, tally


def tension_tables(table: pl.DataFrame, lengths: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    """The tension table and, where short, the match lengths (:func:`tension.analyse`)."""
    out = [(tension.TABLE, table)]
    if lengths.height <= 15:  # longer tails are for the chart
        out.append(("Match length: share of matches by rounds played", lengths))
    return out


def analysis(meta: dict, seats: pl.DataFrame | pl.LazyFrame, matches: pl.DataFrame | pl.LazyFrame | None,
             path: Path | None = None, ladders: list = ()) -> Analysis:
    """What the report shows of a run's tables (but its charts: :func:`plots`); ``ladders`` as for
    :func:`analyse`. Each table is read a batch of whole units at a time where its rows lie in
    their units' order (:func:`by_units`), every figure folded (:class:`Reading`)."""
    game = games.get(meta["game"])
    p, by_match = meta["players"], matches is not None
    outcome = matches if by_match else seats
    rates = analysis_of(game).rates
    score_of = "total" if by_match else "score"
    figures = [pl.col(c) for c in ("win", score_of, "strategy")]
    if not by_match and all(map(stats._row_wise, rates.values())):  # a deal's rates from the same rows
        figures += list(rates.values())

    # first: it refuses a rate that cannot be computed in one line, where the rates read below
    # ended a report of a rate raising on later rows in its traceback
    rate_table = summary.seat_summary(game, seats.lazy(), by=("seat",), strata=p if meta.get("rotate") else None)

    def take(batches) -> Reading:
        reading = Reading(meta, game, by_match, bool(rates) and not by_match and len(figures) > 3)
        for batch in batches:
            reading.add(batch)
        return reading

    read = by_units(outcome, figures, take)
    if not read.rated:
        read_rates(game, seats, functools.partial(read.add_rates, anew=True))
    keys = ["deal"] if matches is None else ["match", "round"]
    if meta.get("duplicate"):  # a game's tables count per copy of a deal (its units stay the deal)
        keys.insert(1, "rotation")
    rate_table = rate_table.select("seat", "n", *[c for name in rates for c in (name, f"{name}_low", f"{name}_high")])
    got = streamed_metrics(meta, game, seats.lazy(), None if matches is None else matches.lazy())
    if got is None:  # rows in no order of units, strategies the line-up does not name: read whole
        seats, matches = seats.lazy().collect(), None if matches is None else matches.lazy().collect()
        got = run_metrics(meta, game, seats, matches, panels(meta, matches if by_match else seats, by_match))
    metrics, sides, tally = got
    several = len(read.names) > 1
    a = Analysis(
        path=path, meta=meta, game=game, unit="matches" if by_match else "deals",
        seats=read.seat_table(), win_test=read.tests[0].test(), score_test=read.tests[1].test(),
        strategies=read.strategy_table() if several else None, rates=rate_table,
        game_tables=game_tables(game, seats.lazy(), keys, None if matches is None else matches.lazy(),
                                meta.get("rules")),
        seats_strategy=read.names[0], sides=sides, metrics=metrics, counts=read.counts, tally=tally,
        figures=read.figures(functools.cache(lambda: headline_rows(meta, game, seats, matches))),
        batches=functools.partial(row_batches, meta, game, seats, matches, read.names),
    )
    if several:
        a.held = ratings.held(*read.first, read.names)
    if matches is not None:
        a.capped = int(matches.lazy().filter(pl.col("seat") == 0).select(pl.col("capped").sum()).collect().item())
    a.findings = findings(a, next((lad for lad in ladders if lad.fits(meta)), None))
    a.verdicts = run_verdicts(a)
    return a


def headline_rows(meta: dict, game, seats: pl.DataFrame | pl.LazyFrame, matches: pl.DataFrame | pl.LazyFrame | None
                  ) -> dict[str, Figure]:
    """:func:`headline_figures` of a run's rows with every per-deal value, read again for a paired
    comparison (:attr:`Figure.rows`)."""
    by_match = matches is not None
    x = panels(meta, matches if by_match else seats, by_match)
    return headline_figures(game, seats, x.win, x.score, x.names if x.codes is not None else [], x.codes, by_match,
                            x.strata, x.units)


def row_batches(meta: dict, game, seats: pl.DataFrame | pl.LazyFrame, matches: pl.DataFrame | pl.LazyFrame | None,
                names: list[str]) -> Iterator[tuple[np.ndarray, dict[str, np.ndarray]] | None]:
    """:func:`headline_rows`' per-game values a batch of whole units at a time (each game's unit,
    and the values of each figure that has them, bit for bit), for a paired comparison that folds
    them (:func:`paired_folds`): a paired page of two runs of 1e6 Black & White deals held 377 MiB.
    ``names``: the run's strategies, in the order :class:`Reading` met them. ``None``, then stop,
    where the rows lie in no order of units or a rate reads other rows than its own."""
    p, by_match = meta["players"], matches is not None
    outcome, score_of = (matches, "total") if by_match else (seats, "score")
    rates, shared, fair = analysis_of(game).rates, analysis_of(game).shared, 1 / p
    figures = [pl.col(c) for c in ("win", score_of, "strategy")]
    if not by_match:  # a match's rates are no mean over units: never paired
        if not all(map(stats._row_wise, rates.values())):
            yield None
            return
        figures += list(rates.values())
    for batch in stats._unit_batches(outcome.lazy(), (), figures):
        if batch is None:
            yield None
            return
        win, score = stats.panel(batch, "win", p), stats.panel(batch, score_of, p)
        out = {f"seat {s} edge over fair share": win[:, s] - fair for s in range(p)}
        if len(names) > 1:
            codes = stats.panel(batch.with_columns(batch["strategy"].cast(pl.String).replace_strict(
                names, list(range(len(names))), return_dtype=pl.Int8)), "strategy", p)
            out |= {f"{name} edge over fair share per seat held": stats.held_share(win, codes, k) - fair
                    for k, name in enumerate(names)}
        for name, (k, _, _) in ({} if by_match else rate_batch(game, batch, p, False)).items():
            if name in shared:
                out |= {f"seat {s} {name} rate over fair share": k[:, s] - fair for s in range(p)}
            else:
                out[f"{name} rate (seats pooled)"] = k.mean(axis=1)
        out[f"{'mean match total' if by_match else 'mean score'} (all seats)"] = score.mean(axis=1)
        yield stats.panel(batch, stats.unit_key(batch), p)[:, 0], out


class Reading:
    """What :func:`analysis` shows of a run's outcome rows (seat rows by deal, match rows by
    match), folded a batch of whole units at a time: each interval as :func:`stats.unit_estimate`
    gives it (:class:`stats.UnitFold`, bit for bit), the seat tests (:class:`stats.SeatFold`), the
    first :data:`ratings.LIMIT` games for the ratings, the charts' counts per seat, strategy and
    score. ``rated``: a deal run's rates read from the same rows (else :meth:`add_rates`)."""

    def __init__(self, meta: dict, game, by_match: bool, rated: bool):
        self.p, self.game, self.by_match, self.rated = meta["players"], game, by_match, rated
        self.rotate, self.duplicate = bool(meta.get("rotate")), bool(meta.get("duplicate"))
        self.score_of = "total" if by_match else "score"
        self.names: list[str] = []
        self.folds: dict[str, stats.UnitFold] = {}  # by figure: seat s win / score, strategy k, rates, mean
        self.held: dict[int, list[int]] = {}  # per strategy: seats held, and games holding one or more
        self.tests = stats.SeatFold(), stats.SeatFold()
        self.games, self.low, self.high = 0, math.inf, -math.inf
        self.first: tuple[np.ndarray, np.ndarray] | None = None
        self.counts: pl.DataFrame | None = None

    def fold(self, name: str, m: bool) -> stats.UnitFold:
        """The fold of figure ``name`` (``m``: its units are of ``m`` each, else one)."""
        if name not in self.folds:
            self.folds[name] = stats.UnitFold(self.p if self.rotate else 1, counted=not (m or self.duplicate))
        return self.folds[name]

    def add(self, batch: pl.DataFrame) -> None:
        p = self.p
        win, score = stats.panel(batch, "win", p), stats.panel(batch, self.score_of, p)
        unit = stats.panel(batch, stats.unit_key(batch), p)[:, 0]
        strata = unit % p if self.rotate else None
        # with --duplicate a deal's p copies are one unit: every interval sums them first
        at = np.unique(unit, return_inverse=True)[1] if self.duplicate else None
        strategy = batch["strategy"].cast(pl.String)
        new = [name for name in strategy.unique(maintain_order=True).to_list() if name not in self.names]
        for k in range(len(self.names), len(self.names) + len(new)):  # no seat of the units before: k and m 0
            self.fold(f"strategy {k}", True).count[:] = self.fold("seat 0 win", False).count
            self.held[k] = [0, 0]
        self.names += new
        codes = stats.panel(batch.with_columns(strategy.replace_strict(self.names, list(range(len(self.names))),
                                                                       return_dtype=pl.Int8)), "strategy", p)
        for s in range(p):
            self.fold(f"seat {s} win", False).add(win[:, s], strata=strata, at=at)
            self.fold(f"seat {s} score", False).add(score[:, s], strata=strata, at=at)
        per_deal = (lambda a: a.reshape(-1, p, p).mean(axis=1)) if self.duplicate else (lambda a: a)
        self.tests[0].add(per_deal(win))
        self.tests[1].add(per_deal(score))
        for k, sums in self.held.items():
            held = codes == k
            seats_held = held.sum(axis=1)
            self.fold(f"strategy {k}", True).add((win * held).sum(axis=1), seats_held, strata, at=at)
            sums[0] += int(seats_held.sum())
            sums[1] += int(np.count_nonzero(seats_held))
        if self.rated:
            self.add_rates([batch])
        mean_score = score.mean(axis=1)
        self.fold("mean", False).add(mean_score, strata=strata, at=at)
        if score.size:
            self.low, self.high = min(self.low, float(score.min())), max(self.high, float(score.max()))
        self.games += len(win)
        if self.games - len(win) < ratings.LIMIT:
            first = (win[:ratings.LIMIT], codes[:ratings.LIMIT])
            self.first = first if self.first is None else tuple(
                np.concatenate([had, more])[:ratings.LIMIT] for had, more in zip(self.first, first, strict=True))
        counted = batch.group_by(pl.col("seat").cast(pl.String), strategy, self.score_of).agg(
            pl.len().cast(pl.Int64))
        self.counts = counted if self.counts is None else pl.concat([self.counts, counted]).group_by(
            "seat", "strategy", self.score_of).agg(pl.col("len").sum())

    def add_rates(self, batches, anew: bool = False) -> None:
        """The rates of batches of whole units of seat rows (a match's rounds are one unit;
        matches differ in length); ``anew``: those folded before thrown away (:func:`by_units`)."""
        p, shared = self.p, analysis_of(self.game).shared
        if anew:
            self.folds = {name: fold for name, fold in self.folds.items() if not name.startswith("rate ")}
        for batch in batches:
            for name, (k, m, unit) in rate_batch(self.game, batch, p, self.by_match).items():
                strata = unit % p if self.rotate else None
                at = np.unique(unit, return_inverse=True)[1] if self.duplicate and not self.by_match else None
                if name in shared:  # seats pooled it is 1/p by rule: each seat's rate is the figure
                    for s in range(p):
                        self.fold(f"rate {name} seat {s}", m is not None).add(
                            k[:, s], None if m is None else m[:, s], strata, at=at)
                elif self.by_match:
                    self.fold(f"rate {name}", True).add(k, m, strata)
                else:  # each seat's flag
                    self.fold(f"rate {name}", True).add(k.sum(axis=1), np.full(len(k), p), strata, at=at)

    def seat_table(self) -> pl.DataFrame:
        """:func:`stats.seat_table`."""
        rows = []
        for s in range(self.p):
            w, wl, wh = self.folds[f"seat {s} win"].estimate(share=True)
            m, ml, mh = self.folds[f"seat {s} score"].estimate()
            rows.append({"seat": s, "win": w, "win_low": wl, "win_high": wh, "fair": 1 / self.p,
                         "score": m, "score_low": ml, "score_high": mh})
        return pl.DataFrame(rows)

    def strategy_table(self) -> pl.DataFrame:
        """:func:`stats.strategy_strength`."""
        rows, p = [], self.p
        for k, name in enumerate(self.names):
            seats, units = self.held[k]
            if not units:
                continue
            share, low, high = self.folds[f"strategy {k}"].estimate(share=True)
            best = 1 / (seats / units)  # a seat held in every unit that holds one
            rows.append({"strategy": name, "seats": seats / self.games, "win": share,
                         "win_low": low, "win_high": high, "chance": 1 / p, "edge": share - 1 / p,
                         "skill": stats.skill_index(share, 1 / p, best)})
        return pl.DataFrame(rows).sort("win", descending=True)

    def figures(self, whole: Callable[[], dict[str, Figure]]) -> dict[str, Figure]:
        """:func:`headline_figures`, their per-deal values read by ``whole`` when asked."""
        p, out = self.p, {}
        fair = 1 / p  # edges over it compare runs of different player counts

        def rows(name: str) -> Callable[[], tuple[np.ndarray, np.ndarray | None]]:
            return lambda: (whole()[name].per_row, whole()[name].units)

        def edge(fold: str, name: str, **kw) -> None:
            v, lo, hi = self.folds[fold].estimate(share=True)
            out[name] = Figure(v - fair, lo - fair, hi - fair, rows(name), points=True, **kw)

        for s in range(p):
            edge(f"seat {s} win", f"seat {s} edge over fair share", better="fair")
        for k, name in enumerate(self.names if len(self.names) > 1 else []):
            edge(f"strategy {k}", f"{name} edge over fair share per seat held")
        risks, shared = analysis_of(self.game).risks, analysis_of(self.game).shared
        for name in analysis_of(self.game).rates:
            if name in shared:
                for s in range(p):
                    edge(f"rate {name} seat {s}", f"seat {s} {name} rate over fair share", better="fair")
                    if self.by_match:
                        out[f"seat {s} {name} rate over fair share"].rows = None
                continue
            label = f"{name} rate (seats pooled)"
            out[label] = Figure(*self.folds[f"rate {name}"].estimate(share=True),
                                None if self.by_match else rows(label), better="lower" if name in risks else None)
        label = f"{'mean match total' if self.by_match else 'mean score'} (all seats)"
        out[label] = Figure(*self.folds["mean"].estimate(), rows(label), percent=False,
                            scores=(self.low, self.high) if self.games else None)
        return out


DUPLICATE_TABLE = "Duplicate deals: strategy strength intervals against --rotate at the same games"


LUCK_TABLE = "Luck against skill: shares of the variance of a seat's result"


def luck_table(win: np.ndarray, score: np.ndarray, p: int, by_match: bool) -> pl.DataFrame:
    """:func:`stats.luck_shares` of the score (match total) and the win share, side by side."""
    sums = (stats.luck_sums(y, len(y)) for y in (values.reshape(-1, p, p) for values in (score, win)))
    return luck_joined(*sums, p, by_match)


def luck_joined(score: np.ndarray, win: np.ndarray, p: int, by_match: bool) -> pl.DataFrame:
    """:func:`luck_table` from the two figures' :func:`stats.luck_sums`: each figure's shares,
    and ``<figure>_unfloored`` (with ``_low``, ``_high``) on the cards' row where the floor at 0
    holds its whole interval (:func:`verdicts.at_floor`), what lay below it
    (:func:`stats.luck_split_unfloored`); null elsewhere."""
    out = None
    for name, sums in (("total" if by_match else "score", score), ("win", win)):
        name += "_share"
        part = stats.luck_split(sums, p, p)
        cards = part.row(0, named=True)
        below = stats.luck_split_unfloored(sums, p, p) if cards["share_high"] == 0 else None
        if not verdicts.at_floor(cards["share_high"], below):
            below = (None,) * 3
        part = part.rename({"share": name, "share_low": f"{name}_low", "share_high": f"{name}_high"})
        part = part.with_columns(pl.Series(f"{name}_unfloored{end}", [x, None, None], pl.Float64)
                                 for x, end in zip(below, ("", "_low", "_high"), strict=True))
        out = part if out is None else out.join(part, on="part", maintain_order="left")
    return out


def luck_floor(column: str, row: dict) -> tuple[float, float, float] | None:
    """What lay below the floor at 0 of a luck table's ``column`` in ``row``, where the floor held
    its whole interval (:func:`luck_joined`); else ``None``."""
    below = tuple(row.get(f"{column}_unfloored{end}") for end in ("", "_low", "_high"))
    return None if below[0] is None else below


def luck_cells(table: pl.DataFrame) -> pl.DataFrame:
    """The luck table as its sentence says it: a share held whole at the floor of 0 reads
    :func:`verdicts.floor_cell`, not "0.0% (0.0–0.0)", a certainty the deals do not give."""
    shares = [c for c in table.columns if c.endswith("_share")]
    rows = []
    for r in table.iter_rows(named=True):
        cells = {"part": r["part"]}
        for c in shares:
            below = luck_floor(c, r)
            cells[c] = stats.fmt_rate(r[c], r[f"{c}_low"], r[f"{c}_high"]) if below is None \
                else verdicts.floor_cell(r[c], below)
        rows.append(cells)
    return pl.DataFrame(rows, schema=dict.fromkeys(("part", *shares), pl.String))


def metric_cells(caption: str, table: pl.DataFrame) -> pl.DataFrame:
    """A table of :func:`run_metrics` as the console and the report show it."""
    return duplicate_cells(table) if caption == DUPLICATE_TABLE else luck_cells(table) if caption == LUCK_TABLE \
        else table


def luck_text(table: pl.DataFrame, unit: str) -> str:
    column = table.columns[1]
    share = {r["part"]: (r[column], r[f"{column}_low"], r[f"{column}_high"]) for r in table.iter_rows(named=True)}
    below = luck_floor(column, table.row(0, named=True))
    one = "match" if unit == "matches" else "deal"
    name = "total" if one == "match" else "score"

    if not math.isfinite(share["cards"][0]):  # one unit, or results that never vary: nothing to split
        return (f"Luck against skill: no split of the variance of a seat's {name} between the cards and "
                f"the play (it takes two or more duplicate {unit} whose results vary).")
    # under LUCK_MIN_DEALS no interval: the sentence said "1.0% (n/a) ... with 95% bootstrap intervals"
    known = all(math.isfinite(low) and math.isfinite(high) for _, low, high in share.values())

    def pct(part: str) -> str:  # to a tenth, as the table beside it ("2% (1–2%)" beside "1.7% (1.0–2.3)")
        # held at the floor of 0, "0.0% (0.0–0.0)" was a certainty the deals do not give: said after
        floored = part == "cards" and below is not None
        return stats.fmt_rate(*share[part]) if known and not floored else f"{stats.percent(share[part][0])}%"

    intervals = (f"with 95% bootstrap intervals over {unit}" if known else
                 f"too few for a 95% interval (it takes {stats.LUCK_MIN_DEALS} or more)")
    floor = "" if below is None else f" The cards' {pct('cards')} is {verdicts.floor_clause(below)}."
    return (f"Luck against skill: the cards decide about {pct('cards')} of a {one}'s {name} under "
            f"these strategies, which strategy holds which seat {pct('strategy and seat')}, and how "
            f"these strategies play these particular cards (and the play's own chance) "
            f"{pct('interplay')}: shares of the variance of a seat's {name}, from the duplicate "
            f"{unit}, {intervals}.{floor}")


def _half(x: float, figure: str) -> str:
    """A half-width of the duplicate table: a win share's in %, a score's in points (none from
    one deal: ``n/a``)."""
    if not math.isfinite(x):
        return "n/a"
    # three figures kept, zeros too: '± 0.073 against ± 0.0716' read as two figures against three
    return f"± {100 * x:.2f}%" if figure.startswith("win") else f"± {f'{x:#.3g}'.rstrip('.')}"


def duplicate_cells(gain: pl.DataFrame) -> pl.DataFrame:
    """The duplicate table as its sentence says it: the table's raw fractions (a win share's
    half-width "0.00777", "narrower by 0.000912") beside the sentence's "± 0.78%", "0% narrower"."""
    def known(x: float, text: str) -> str:  # no interval to narrow (one unit): NaN
        return text if math.isfinite(x) else "n/a"

    return pl.DataFrame([{"figure": r["figure"], "strategy": r["strategy"],
                          "half_duplicate": known(r["half_duplicate"], _half(r["half_duplicate"], r["figure"])),
                          "half_rotate": known(r["half_rotate"], _half(r["half_rotate"], r["figure"])),
                          "narrower": known(r["narrower"], f"{100 * r['narrower']:.0f}%"),
                          "games_ratio": known(r["games_ratio"], f"{r['games_ratio']:.2f}")}
                         for r in gain.iter_rows(named=True)], schema=dict.fromkeys(
        ("figure", "strategy", "half_duplicate", "half_rotate", "narrower", "games_ratio"), pl.String))


def duplicate_text(gain: pl.DataFrame, unit: str, count: int | None = None) -> str:
    """The measured gain of ``--duplicate`` in one sentence (how much narrower only where it was
    measured: from :data:`GAIN_UNITS` deals or more, ``count`` the run's; and where both
    half-widths are known, a rotated one of 0 giving none)."""
    told = count is None or count >= GAIN_UNITS
    parts = [f"{r['strategy']}'s {r['figure']} {_half(r['half_duplicate'], r['figure'])} against "
             f"{_half(r['half_rotate'], r['figure'])}"
             + (f" ({_narrower(r['narrower'])}, worth {r['games_ratio']:.2f} times the games)"
                if told and math.isfinite(r["narrower"]) and math.isfinite(r["games_ratio"]) else "")
             for r in gain.iter_rows(named=True)]
    one = "match" if unit == "matches" else "deal"
    return (f"Duplicate {unit}: every {one} was played once per rotation of the line-up with the "
            f"same cards, so the strategy comparison is paired on the cards. Measured against "
            f"--rotate at the same number of games (each on fresh cards): " + "; ".join(parts) + ". "
            + ("Pairing on the cards narrows an interval as much as the cards decide the result "
               "whoever holds them (the luck split): most for close strategies." if told else
               f"How much narrower is not told from fewer than {GAIN_UNITS} {unit}: the two half-widths' "
               f"ratio is then mostly the noise of each."))


def headline_figures(game, seats, win, score, names, codes, by_match, strata=None,
                     units=None) -> dict[str, Figure]:
    """The figures runs are compared on, each with its per-deal (or per-match) values
    (per game with ``units``, each game's deal under ``--duplicate``)."""
    p = win.shape[1]
    fair = 1 / p  # edges over it compare runs of different player counts
    out = {}
    for s in range(p):
        v, lo, hi = stats.unit_estimate(win[:, s], strata=strata, share=True, units=units)
        out[f"seat {s} edge over fair share"] = Figure(v - fair, lo - fair, hi - fair, win[:, s] - fair,
                                                       points=True, better="fair")
    for k, name in enumerate(names):
        held = codes == k
        v, lo, hi = stats.unit_estimate((win * held).sum(axis=1), held.sum(axis=1), strata, share=True, units=units)
        out[f"{name} edge over fair share per seat held"] = Figure(v - fair, lo - fair, hi - fair,
                                                                  stats.held_share(win, codes, k) - fair,
                                                                  points=True)
    risks, shared = analysis_of(game).risks, analysis_of(game).shared
    for name, (k, m) in (rated(game, seats, p, by_match) or {}).items():
        better = "lower" if name in risks else None
        if name in shared:  # seats pooled it is 1/p by rule: each seat's rate is the figure
            out |= shared_figures(name, k, m, p, strata, units)
        elif by_match:  # a match's rounds are one unit; matches differ in length
            out[f"{name} rate (seats pooled)"] = Figure(*stats.unit_estimate(k, m, strata, share=True), None,
                                                        better=better)
        else:  # k: each seat's flag
            out[f"{name} rate (seats pooled)"] = Figure(*stats.unit_estimate(
                k.sum(axis=1), np.full(len(k), p), strata, share=True, units=units), k.mean(axis=1), better=better)
    mean_score = score.mean(axis=1)
    label = "mean match total" if by_match else "mean score"
    out[f"{label} (all seats)"] = Figure(*stats.unit_estimate(mean_score, strata=strata, units=units), mean_score,
                                         percent=False,
                                         scores=(float(score.min()), float(score.max())) if score.size else None)
    for f in out.values():  # each per-row value is one game: one copy of its deal under --duplicate
        if f.per_row is not None:
            f.units = units
    return out


def rated(game, seats: pl.DataFrame | pl.LazyFrame, p: int, by_match: bool
          ) -> dict[str, tuple[np.ndarray, np.ndarray | None]]:
    """Each of the game's rates per unit, as ``(k, m)``: by match, its rounds' count and rounds,
    each seat's ``(matches, p)`` for a rate one seat has every round (``Analysis.shared``), else
    seats pooled; by deal, each seat's flag ``(deals, p)`` and ``None``. Read a batch of whole
    units at a time (:func:`by_units`); a rate that reads other rows than its own (a window, a
    maximum: :func:`stats._row_wise`) from the whole table."""
    def take(batches) -> dict[str, tuple[np.ndarray, np.ndarray | None]]:
        parts = [rate_batch(game, batch, p, by_match) for batch in batches]
        return {name: (np.concatenate([part[name][0] for part in parts]),
                       None if parts[0][name][1] is None else np.concatenate([part[name][1] for part in parts]))
                for name in parts[0]}

    return read_rates(game, seats, take)


def read_rates(game, seats: pl.DataFrame | pl.LazyFrame, take):
    """``take(batches)`` of the seat rows the game's rates read (:func:`rated`): whole units at a
    time, or the whole table where a rate reads other rows than its own (a window, a maximum:
    :func:`stats._row_wise`). ``None`` where the game has no rates."""
    rates = analysis_of(game).rates
    if not rates:
        return None
    if not all(map(stats._row_wise, rates.values())):
        return take(iter([seats.lazy().collect()]))
    return by_units(seats, list(rates.values()), take)


def rate_batch(game, batch: pl.DataFrame, p: int, by_match: bool
               ) -> dict[str, tuple[np.ndarray, np.ndarray | None, np.ndarray]]:
    """:func:`rated` of a batch of whole units, each with the unit of each row of ``k``."""
    out = {}
    shared = analysis_of(game).shared
    for name, expr in analysis_of(game).rates.items():
        if not by_match:
            flags = stats.panel(batch.select(pl.col("seat"), expr.cast(pl.Float64).alias(name)), name, p)
            out[name] = flags, None, stats.panel(batch, "deal", p)[:, 0]
            continue
        by = ("match", "seat") if name in shared else ("match",)
        # a match's rows lie together, in match order across batches: one pass's groups
        per = batch.group_by(*by, maintain_order=True).agg(expr.sum().alias("k"), pl.len().alias("m"))
        per = per.sort(*by) if name in shared else per
        k, m, unit = (per[c].to_numpy().reshape(-1, p) if name in shared else per[c].to_numpy()
                      for c in ("k", "m", "match"))
        out[name] = k, m, unit[:, 0] if name in shared else unit
    return out


def shared_figures(name: str, k: np.ndarray, m: np.ndarray | None, p: int, strata, units) -> dict[str, Figure]:
    """Each seat's rate of a rate one seat has every deal (``Analysis.shared``), over its fair
    share 1/p, in points: closer to 0 is more even, as a seat's edge (:func:`rated`'s ``k`` and
    ``m``, ``m`` None by deal)."""
    fair, out = 1 / p, {}
    by_match = m is not None
    for s in range(p):
        v, lo, hi = stats.unit_estimate(k[:, s], None if m is None else m[:, s], strata, share=True,
                                        units=None if by_match else units)
        out[f"seat {s} {name} rate over fair share"] = Figure(v - fair, lo - fair, hi - fair,
                                                            None if by_match else k[:, s] - fair,
                                                            points=True, better="fair")
    return out


def top_seat(rates: pl.DataFrame, name: str) -> dict:
    """The seat row of ``rates`` (the report's rates by seat) with the highest ``name``."""
    return rates.sort(name, descending=True).row(0, named=True)


def findings(a: Analysis, ladder=None) -> list[str]:
    """The run's headline findings in plain sentences. With a skill ``ladder`` of this run's
    set-up, skill versus luck is measured by its top rung (a ladder's own rungs keep theirs)."""
    p, unit, out = a.p, a.unit, []
    fair = 1 / p
    seats = a.seats.with_columns((pl.col("win") - pl.col("fair")).abs().alias("gap"))
    far = seats.sort("gap", descending=True).row(0, named=True)
    one = "match" if unit == "matches" else "deal"
    verdict = (f"every {one} sets the seats apart alike, so the seats differ"
               if a.win_test.alike and a.win_test.p_value < 0.05
               else "the seats differ by more than chance" if a.win_test.p_value < 0.05
               else f"every {one} gives every seat the same result, so the seats do not differ"
               if a.win_test.alike and not a.win_test.statistic
               # Out-Trumped 3p, 400 random deals: "Seat 0 wins 38.4% ± 4.7% ... against 33.3%
               # expected: a spread no larger than chance" of an interval that leaves 33.3% out
               # its p-value is the folded statistics' (docs/language.md), not the sentence's
               else (f"its own interval leaves out the fair share, yet among {p} seats one this far off "
                     f"is within chance (the test of all seats together)")
               if a.win_test.df and not far["win_low"] <= fair <= far["win_high"]
               else "a spread no larger than chance" if a.win_test.df
               else f"too few {unit} to tell whether the seats differ")
    confounded = (" Seats play different strategies here, so this mixes seat and strategy "
                  "effects; run with --rotate to separate them.") if a.mixed and not (
                      a.meta.get("rotate") or a.meta.get("duplicate")) else ""
    out.append(f"Seat {far['seat']} wins {stats.fmt_share(far['win'], far['win_low'], far['win_high'])} "
               f"of {unit} against {100 * fair:.1f}% expected: {verdict}." + confounded)
    lo = a.seats.sort("score").row(0, named=True)
    hi = a.seats.sort("score").row(-1, named=True)
    what = "match totals" if a.unit == "matches" else "scores"
    better = " (lower is better)" if a.game.lower_wins else ""
    out.append(f"Mean {what}{better} range from {stats.fmt_mean(lo['score'], lo['score_low'], lo['score_high'])} "
               f"(seat {lo['seat']}) to {stats.fmt_mean(hi['score'], hi['score_low'], hi['score_high'])} "
               f"(seat {hi['seat']}).")
    if a.strategies is None:
        out.append(f"Every seat plays {a.seats_strategy}: differences between seats come from "
                   f"the game's seat order, not from skill.")
    if ladder is not None and "ladder" not in a.meta:
        out.append(ladder_skill(ladder))
    elif a.strategies is not None:
        heuristics = a.strategies.filter(pl.col("strategy") != "random")  # random is the yardstick
        best = (heuristics if heuristics.height else a.strategies).row(0, named=True)
        others = a.strategies.filter(pl.col("strategy") != best["strategy"])
        verdict = ("above" if best["win_low"] > best["chance"] else
                   "below" if best["win_high"] < best["chance"] else "not clearly different from")
        rest = "; ".join(f"{r['strategy']} wins {stats.fmt_share(r['win'], r['win_low'], r['win_high'])}"
                         for r in others.iter_rows(named=True))
        # "heuristic" would misname a search; a player seeing every card is named as one
        shown = best["strategy"] + (labels.NOT_FAIR if best["strategy"] in a.meta.get("not_fair", ()) else "")
        who = f"the strongest strategy here, {shown}," if heuristics.height > 1 else shown
        out.append(f"Skill versus luck: {who} wins {stats.fmt_share(best['win'], best['win_low'], best['win_high'])} "
                   f"of {unit} per seat it holds, {verdict} the {100 * fair:.1f}% of pure chance: "
                   f"{verdicts.signed_points(best['edge'])} points, a skill index of {best['skill']:.2f} "
                   f"(0 = luck alone, 1 = its seats win every time, -1 = never); {rest}."
                   + ("" if a.meta.get("rotate") or a.meta.get("duplicate") else " The line-up was "
                      "not rotated, so seat effects are part of these shares."))
    per = "rounds" if a.unit == "matches" else "deals"
    for name in analysis_of(a.game).rates:
        top = top_seat(a.rates, name)
        text = analysis_of(a.game).rate_text.get(name, f"has {name}")
        if not np.isfinite(top[name]):  # null on every row: "in n/a of deals; most often seat 0, n/a"
            out.append(verdicts.unvalued(name, text, per))
            continue
        if name in analysis_of(a.game).shared:
            low = a.rates.sort(name).row(0, named=True)
            out.append(f"Every {per[:-1]} one seat {text}, so seats pooled it is 1/{a.p} by rule "
                       f"({100 / a.p:.1f}%); most often seat {top['seat']}, "
                       f"{stats.fmt_rate(top[name], top[f'{name}_low'], top[f'{name}_high'])}, least often seat "
                       f"{low['seat']}, {stats.fmt_rate(low[name], low[f'{name}_low'], low[f'{name}_high'])}.")
            continue
        pooled = a.figures[f"{name} rate (seats pooled)"]
        out.append(f"Each seat {text} in {stats.fmt_share(pooled.value, pooled.low, pooled.high)} of {per} "
                   f"(seats pooled); most often seat {top['seat']}, "
                   f"{stats.fmt_rate(top[name], top[f'{name}_low'], top[f'{name}_high'])}.")
    if a.capped:
        n = a.meta["n"] * (a.p if a.meta.get("duplicate") else 1)  # the matches played: every copy
        out.append(f"{a.capped:,} of {n:,} matches ({stats.percent(a.capped / n)}%) hit the "
                   f"{ROUND_CAP}-round cap and were stopped there, each a draw among the seats "
                   f"leading at the cap: their totals and win shares are those at the cap, not "
                   f"of a finished match, so the match figures above depend on the cap.")
    return out + metric_sentences(a.metrics, a.unit, a.meta.get("n"), a.game.lower_wins, a.sides)


def metric_sentences(metrics: list[tuple[str, pl.DataFrame]], unit: str, n: int | None, lower_wins: bool,
                     sides: list[tuple[int, ...]]) -> list[str]:
    """The sentences of the duplicate, luck and tension tables (:func:`run_metrics`)."""
    out = []
    for caption, df in metrics:
        if caption == DUPLICATE_TABLE:
            out.append(duplicate_text(df, unit, n))
        elif caption == LUCK_TABLE:
            out.append(luck_text(df, unit))
        elif caption == tension.TABLE:
            out.append(tension.text(df, lower_wins, sides))
    return out


def run_verdicts(a: Analysis) -> list[tuple[str, str, str]]:
    """The run's answers as ``(question, verdict word, sentence)``, by the thresholds of
    :mod:`simtool.analysis.verdicts`: the seats, each of the game's rates, and with duplicate
    deals luck, with whole matches tension."""
    if summary.seats_confounded(a.meta):
        out = [("Seats", "none", summary.run_seat_line(a.meta, a.seats, "").split("none. ", 1)[1])]
    else:
        shares = a.seats.select("seat", "win", "win_low", "win_high").rows()
        v = verdicts.seat_verdict(shares, a.p, a.meta["n"], a.unit, lineup_text(a.meta))
        note = verdicts.partners_note(a.sides, shares, a.unit)
        out = [("Seats", v.word, f"{v.sentence} {note}" if note else v.sentence)]
    per = "rounds" if a.unit == "matches" else "deals"
    for name in analysis_of(a.game).rates:
        text = analysis_of(a.game).rate_text.get(name, f"has {name}")
        risk = "Risk: how" if name in analysis_of(a.game).risks else "How"
        if name in analysis_of(a.game).shared:  # pooled it is 1/p by rule: each seat's over its fair share
            v = verdicts.shared_verdict(name, text, a.rates.select("seat", name, f"{name}_low", f"{name}_high").rows(),
                                        a.p, a.meta["n"], per, a.unit)
            out.append((f"{risk} often each seat {text}, against its fair share", v.word, v.sentence))
            continue
        f = a.figures[f"{name} rate (seats pooled)"]
        v = verdicts.hazard_verdict(name, text, f.value, f.low, f.high, a.meta["n"], per, a.unit)
        out.append((f"{risk} often a seat {text}", v.word, v.sentence))
    tables = dict(a.metrics)
    if LUCK_TABLE in tables:
        luck = tables[LUCK_TABLE]
        column = luck.columns[1]
        r = luck.filter(pl.col("part") == "cards").row(0, named=True)
        what = "match total" if a.unit == "matches" else "score"
        v = verdicts.luck_verdict(r[column], r[f"{column}_low"], r[f"{column}_high"], a.meta["n"], what, a.unit,
                                  unfloored=luck_floor(column, r))
        out.append(("Luck", v.word, v.sentence))
    if tension.TABLE in tables:
        r = tables[tension.TABLE].row(0, named=True)

        def figure(name: str) -> tuple[float, float, float]:
            return r[name], r[f"{name}_low"], r[f"{name}_high"]

        v = verdicts.tension_verdict(figure("winner_behind_at_half_time"), figure("mean_lead_changes"),
                                     figure("decided_share_of_match"), a.meta["n"], a.sides)
        out.append(("Tension", v.word, v.sentence))
    return out


HEADERS = {
    "matches": "Matches", "mean_rounds": "Rounds per match", "mean_lead_changes": "Lead changes per match",
    "mean_decided_after": "Winner leads for good from round",
    "decided_share_of_match": "Share of the match played when the winner takes the lead for good",
    "winner_behind_after_round_1": "Winner was behind after round 1",
    "winner_behind_at_half_time": "Winner was behind at half-time",
    "mean_margin": "Points between first and second", "n": "Count", "share": "Share", "rate": "Rate",
    "part": "What decides", "score_share": "Share of the score's variance",
    "total_share": "Share of the match total's variance", "win_share": "Share of the win's variance",
    "half_duplicate": "Interval ± with duplicate deals", "half_rotate": "Interval ± with rotated seats",
    "narrower": "Narrower by", "games_ratio": "Worth this many times the games", "figure": "Figure",
    "mean": "Mean", "min": "Lowest", "max": "Highest", "p10": "10th percentile", "p25": "25th percentile",
    "p50": "Median", "p75": "75th percentile", "p90": "90th percentile", "games": "Games met",
    "rating": "Rating", "overshooting": "Players over the limit", "bid": "Bid", "made": "Made",
    "what": "What", "bonus": "Trump bonus", "hands": "Hands", "rounds": "Rounds", "seat": "Seat",
    "strategy": "Strategy",
}
"""Table columns as words, for the page's headers (the tables keep their column names)."""


def header(column: str) -> str:
    """A column's header in words: :data:`HEADERS`, else the name with spaces, capitalised."""
    words = HEADERS.get(column, column.replace("_", " "))
    return words[:1].upper() + words[1:]


GLOSSARY = [
    ("deal", "One hand of the game, dealt and played out; with whole matches, a match is the unit."),
    ("match", "A game played to its end over several deals (rounds); --unit match plays whole matches."),
    ("seat", "A place at the table, numbered from 0 in the order of play; the rules say which leads first."),
    ("line-up", "Which strategy plays at each seat."),
    ("rotated", "The line-up moves one seat each deal, so every strategy sits in every seat equally often."),
    ("duplicate", "Every deal is played once per rotation of the line-up with the same cards, so strategies "
                  "are compared on the same cards."),
    ("win share", "The share of deals (or matches) a seat or strategy wins; a tie splits the win."),
    ("fair share", "The win share every seat would have in a perfectly fair game: 1 / players."),
    ("edge", "Win share minus the fair share, in points: how much a seat (or strategy) wins above or below "
             "its fair share. It compares runs of different player counts."),
    ("pts", "Percentage points: 28% against 25% is an edge of 3 points."),
    ("95% interval", "The range that holds the true figure 19 times in 20, given the deals played; "
                     "written value (low–high) or value ± half-width."),
    ("fair", "Seat verdict: every seat's edge is surely under 1 point."),
    ("slight", "Seat verdict: the largest edge is surely between 1 and 3 points."),
    ("strong", "Seat verdict: the largest edge is surely 3 points or more."),
    ("unclear", "A verdict whose interval reaches across a threshold: more deals would settle it (the "
                "sentence says about how many)."),
    ("rare", "A rate surely under 1%."),
    ("occasional", "A rate surely from 1% to under 10%."),
    ("common", "A rate surely 10% or more."),
    ("tension", "Whether a match stays open: low when its winner was behind at half-time in under 10% of "
                "matches, some from 10% to under 25%, high from 25%."),
    ("luck", "The share of the variance of a seat's result that the cards alone explain: low under 30%, "
             "moderate 30% to under 60%, high from 60%."),
    ("skill index", "A strategy's edge as a share of the most it could have: 0 = luck alone, 1 = its seats "
                    "win every time, -1 = they never win."),
    ("by chance", "The win share a strategy would have with no skill: its fair share."),
    ("rate", "How often something happens to a seat, as a share of deals (or rounds), with seats pooled "
             "unless the table is by seat."),
    ("Δ", "Difference from an earlier run of the same line-up and player count, with its 95% interval "
          "(± where it is symmetric, else its two ends: between independent runs, a share near 0% or 100% "
          "has a lopsided interval, and so has the difference): green where the change is clearly better "
          "for balance (an edge closer to fair, a risk rarer), red where clearly "
          "worse, bold where a figure without a better side clearly changed."),
    ("risk", "A rate that harms the seat it happens to (an overshoot, a penalty): rarer is better."),
    ("paired", "Two runs that share their deals (same seed, n, players, chunk size and simtool and numpy "
               "versions): their difference is taken "
               "deal by deal, which narrows its interval."),
    ("lead change", "A round after which a different seat leads alone."),
    ("margin", "Points between the first and the second at the end of a match."),
    ("interplay", "In the luck split: how these strategies play these particular cards, and the play's own "
                  "chance."),
    ("rating", f"Plackett-Luce (openskill) strength of each strategy, from the first deals where strategies "
               f"meet, {ratings.LIMIT:,} at most, shared evenly among the runs."),
    ("skill ladder", "A chain of strategies of rising strength; each rung plays one seat against the rung "
                     "below."),
    ("restricted play", "A strategy forbidden one kind of choice, against itself unrestricted on the same "
                        "deals: what the choice is worth."),
    ("Hotelling's T²", "A test of whether the seats' mean results differ by more than chance, all seats at "
                       "once (in the statistics sections)."),
    ("F", "The F distribution that Hotelling's T² is read against, with its degrees of freedom."),
    ("p", "p-value: how often chance alone would give a difference at least this large; under 0.05 is "
          "called more than chance."),
]
"""Every term a balance page may use, with its meaning; a page lists those it uses."""


def used_terms(text: str) -> list[tuple[str, str]]:
    """The glossary entries whose term appears in ``text`` (a page's words, tags left out)."""
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    found = []
    for term, meaning in GLOSSARY:
        pattern = (r"(?<![\w-])" + re.escape(term) + r"(?:s|es)?(?![\w-])") if term not in ("F", "p") else \
            (r"\bF\(" if term == "F" else r"\bp [=<]")
        if re.search(pattern, words, 0 if term in ("F", "p", "Δ", "Hotelling's T²") else re.IGNORECASE):
            found.append((term, meaning))
    return found


def seat_test_text(t: stats.SeatTest) -> str:
    if t.alike:  # no covariance to test on: the seats' results are alike in every unit
        return (f"the seats' results differ alike every time (sign test, {stats.fmt_p(t.p_value)})"
                if t.statistic else "no test needed, every seat's result is the same every time")
    if t.df == 0:
        return "too few deals to test"
    return f"Hotelling's T² = {t.statistic:.1f}, F({t.df}, {t.n - t.df}), {stats.fmt_p(t.p_value)}"


def ladder_skill(ladder) -> str:
    """Skill versus luck by the ladder's top rung: the strongest play the report has seen, its
    edge with the interval that puts it above or below chance (as :func:`ladder_rows`)."""
    top = ladder.top
    verdict = ("above" if top.low > top.fair else "below" if top.high < top.fair
               else "not clearly different from")
    return (f"Skill versus luck: the skill ladder's top rung, {top.name}, wins "
            f"{ladders.share_text(top)} of {plural(ladder.unit)} in its one seat against "
            f"{ladder.players - 1} × {top.below} (seats rotated), {verdict} the "
            f"{100 * top.fair:.1f}% of pure chance: {ladders.gain_points(top)}, "
            f"a skill index of {top.skill:.2f} (0 = luck alone, 1 = it wins every time, -1 = never).")


def plural(unit: str) -> str:
    return "matches" if unit == "match" else "deals"


def ladder_rows(ladder) -> list[tuple]:
    """The ladder table's rows: each rung with its edge over the fair share and 95% interval, as
    the CLI's ladder table prints it (:func:`simtool.analysis.ladder.gain_points`). The gain alone
    read "0.0 pts" beside "Pays: yes" for a gain of +0.04 points; the interval, whose lower end
    decides whether a rung pays, is never rounded onto fair."""
    return [(r, ladders.gain_points(r)) for r in ladder.rungs]


def ladder_view(ladder) -> dict:
    """What the report's skill ladder section shows: sentences, chart and table rows."""
    from matplotlib.figure import Figure as Chart

    chart = Chart(figsize=(6.4, 3.0), layout="constrained")
    ax = chart.add_subplot()
    x = list(range(1, len(ladder.rungs) + 1))
    share = np.array([r.share for r in ladder.rungs]) * 100
    ax.errorbar(x, share, yerr=error_bars(share, [100 * r.low for r in ladder.rungs],
                                          [100 * r.high for r in ladder.rungs]),
                fmt="o", color="#2f5d8c", capsize=5, markersize=7,
                label="win share per seat over the rung below, 95% interval")
    fair = 100 * ladder.rungs[0].fair
    ax.axhline(fair, color="#c44e52", linestyle="--", label=f"fair share {fair:.1f}%")
    ax.set(xlabel="rung (against the rung below)", ylabel=f"win share of {plural(ladder.unit)} (%)",
           xticks=x, xlim=(0.5, len(x) + 0.5))
    ax.set_xticklabels([labels.clip(r.name) for r in ladder.rungs], rotation=20, ha="right", fontsize="small")
    ax.legend(frameon=False, fontsize="small")
    rules = ", ".join(f"{k} = {v}" for k, v in options.named(games.get(ladder.game), ladder.rules).items())
    first = read_meta(ladder.rungs[0].folder)
    # chunks of two lengths that cut the n deals alike draw the same deals (60 deals in chunks of
    # 8,192 and of 32,768 were said "not the same deals")
    differ = next(filter(None, (ladders.same_cuts_deals(first, read_meta(r.folder)) for r in ladder.rungs[1:])),
                  None)
    return {"ladder": ladder, "label": f"{ladder.players} players" + (f", {rules}" if rules else ""),
            "deals": "The rungs play the same deals (one seed)" if differ is None else
                     f"The rungs play one seed but not the same deals ({differ}: a costly line-up plays "
                     f"smaller chunks, each drawing its own deals), so each rung stands on its own deals",
            "rows": ladder_rows(ladder),
            "sentences": [ladders.verdict(ladder), ladders.convergence(ladder), ladder_skill(ladder),
                          *filter(None, [ladders.reference_sentence(ladder)])], "svg": svg(chart)}


def plots(a: Analysis) -> list[tuple[str, str]]:
    """(caption, inline SVG) for the run's charts, from what :func:`analysis` counted."""
    from matplotlib.figure import Figure as Chart

    out = []
    chart = Chart(figsize=(5.2, 2.8), layout="constrained")
    ax = chart.add_subplot()
    t = a.seats
    # points, not bars: the axis is zoomed on the fair share, where seat differences show
    yerr = error_bars(t["win"].to_numpy(), t["win_low"].to_numpy(), t["win_high"].to_numpy()) * 100
    ax.errorbar(t["seat"].to_list(), t["win"].to_numpy() * 100, yerr=yerr,
                fmt="o", color="#2f5d8c", capsize=5, markersize=7, label="win share, 95% interval")
    ax.axhline(100 / a.p, color="#c44e52", linestyle="--", label=f"fair share {100 / a.p:.1f}%")
    ax.set(xlabel="seat", ylabel=f"win share of {a.unit} (%)", xticks=t["seat"].to_list(),
           xlim=(-0.5, a.p - 0.5))
    ax.legend(frameon=False, fontsize="small")
    out.append(("Win share by seat, with 95% intervals", svg(chart)))
    column = "total" if a.unit == "matches" else "score"
    what = "match total" if a.unit == "matches" else "score per deal"
    out.append((f"Distribution of the {what} by seat", svg(distribution(a.counts, column, "seat", what))))
    if a.strategies is not None:
        out.append((f"Distribution of the {what} by strategy",
                    svg(distribution(a.counts, column, "strategy", what))))
    if a.tally is not None:
        out += [(caption, svg(chart)) for caption, chart in tension.charts(a.tally)]
    return out


def distribution(counted: pl.DataFrame, column: str, by: str, what: str):
    """Share of rows at each value of ``column`` (binned when the values are many), bars side by
    side for the groups; ``counted``: the rows per value of ``by`` and ``column`` (:attr:`Reading.counts`)."""
    from matplotlib.figure import Figure as Chart

    values = counted[column]
    lo, hi = int(values.min()), int(values.max())
    width = max(1, -(-(hi - lo + 1) // 40))
    binned = counted.select(by, ((pl.col(column) - lo) // width * width + lo).alias("x"), "len")
    counts = binned.group_by(by, "x").agg(pl.col("len").sum()).sort(by, "x")
    chart = Chart(figsize=(5.2, 2.8), layout="constrained")
    ax = chart.add_subplot()
    parts = list(counts.group_by(by, maintain_order=True))
    bar = 0.8 * width / len(parts)  # scores are whole numbers: bars side by side, not joined points
    for i, ((group,), part) in enumerate(parts):
        total = part["len"].sum()
        label = f"seat {group}" if by == "seat" else labels.clip(group)
        centre = part["x"].to_numpy() + (width - 1) / 2  # a bin of width w holds x .. x + w - 1
        add_bars(ax, centre - 0.4 * width + (i + 0.5) * bar, 100 * part["len"].to_numpy() / total, bar,
                 f"C{i}", label)
    ax.autoscale_view()
    ax.set(xlabel=what + (f" (bins of {width})" if width > 1 else ""), ylabel="share (%)")
    ax.legend(frameon=False, fontsize="small")
    return chart


def add_bars(ax, x, heights, width: float, colour: str, label: str) -> None:
    """What ``ax.bar`` draws (bars from 0, centred on ``x``, labelled once, the same "best" legend
    place), a third cheaper per chart: ``bar`` updates the axes' limits bar by bar, here they grow
    once. The caller autoscales after the last group."""
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Rectangle

    # once, not per bar: a cycle colour ("C1") is looked up anew at every use, through the
    # rcParams' whole property cycle, for each bar: about a tenth of a distribution chart's time
    colour = to_rgba(colour)
    left = x - width / 2
    for j, (start, height) in enumerate(zip(left, heights, strict=True)):
        rect = Rectangle((start, 0), width, height, facecolor=colour, label=label if j == 0 else "_nolegend_")
        rect.sticky_edges.y.append(0)  # as ``bar``: the axis starts at the bars' foot, no margin below
        # clipped to the axes, a bar never widens the layout, which found so bar by bar at a cost
        rect.set_in_layout(False)
        ax.add_artist(rect)
    ax.update_datalim(np.column_stack([np.r_[left, left + width], np.r_[np.zeros(len(x)), heights]]))


def error_bars(value, low, high) -> np.ndarray:
    """matplotlib's error bars (below, above) of intervals around ``value``: none where unknown,
    and never negative, as matplotlib refuses them: Wilson's lower bound of a seat that never
    won comes out 1.7e-18 above its share of 0."""
    value = np.asarray(value, float)
    return np.clip(np.nan_to_num(np.stack([value - np.asarray(low, float), np.asarray(high, float) - value])),
                   0, None)


def svg(chart) -> str:
    """The chart as an ``<svg>`` element (text kept as text, no XML prologue). Every text is
    plain: a strategy called ``$\\alpha$`` is shown as written, not as mathtext."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    labels.plain(chart)
    buf = io.StringIO()
    canvas = FigureCanvasSVG(chart)
    layout = chart.get_layout_engine()
    # a fixed salt: matplotlib's SVG ids are random otherwise, and the same runs gave other bytes
    with matplotlib.rc_context({**labels.PLAIN, "svg.hashsalt": "simtool"}):
        # what savefig does, less its first pass: savefig draws the whole figure once, writing
        # nothing, only to run the layout, then draws it for good with the layout held; the layout
        # run alone places every artist the same (the same SVG), and the first drawing was a
        # quarter of the chart's time
        if layout is not None:
            if chart.axes:
                with contextlib.suppress(ValueError):  # as Figure.draw runs a layout
                    layout.execute(chart)
            chart.set_layout_engine("none")
        try:
            canvas.print_svg(buf, metadata={"Date": None})
        finally:
            if layout is not None:
                chart.set_layout_engine(layout)
    text = buf.getvalue()
    return text[text.index("<svg"):]


@dataclass
class Comparison:
    """Several runs of one game side by side: each headline figure per run (win shares as edges
    over the fair share, which a run of another player count shares), and its difference from
    the first earlier run of the same line-up, player count and unit (paired deal by deal when
    the two share their deals). A run with no such earlier run has no differences, and a
    sentence says why."""

    labels: list[str]
    rows: list[tuple[str, list[str], list[tuple[str, str]]]]  # figure, cells, (difference, class)
    references: list[int | None]  # per later run: the 0-based run its differences are from
    paired: list[bool]
    gains: list[list[float]]  # per later run: 1 - paired / independent half-width, per paired figure
    notes: list[str] = field(default_factory=list)  # per later run: what its differences are

    def gain_text(self, run: int) -> str:
        """How much narrower pairing made run ``run``'s (1-based, from 2) differences."""
        gains = np.array(self.gains[run - 2])
        if not len(gains):
            return ""
        median = np.median(gains)
        if median < 0.05:
            return (f" Pairing gained little here (intervals {_narrower(median)} at the median than between "
                    "independent runs): the two rule sets do not share much of each deal's luck.")
        low, high = f"{100 * gains.min():.0f}", f"{100 * gains.max():.0f}"
        # one figure paired, or all alike: "79–79% narrower" read as a range
        span = (f"{high}% narrower" if gains.min() >= 0 and low == high
                else f"{low}–{high}% narrower" if gains.min() >= 0
                else f"from {_narrower(gains.min())} to {_narrower(gains.max())}")
        return f" Pairing made the intervals {span} than between independent runs (median {100 * median:.0f}%)."


def _narrower(gain: float) -> str:
    """``1 - paired / independent`` half-width in words: a paired interval may come out wider."""
    return f"{100 * gain:.0f}% narrower" if gain >= 0 else f"{-100 * gain:.0f}% wider"


def unlike(a: Analysis, b: Analysis) -> str | None:
    """Why run ``b``'s figures cannot be set against run ``a``'s, or ``None``: only runs of the
    same player count, line-up (as seated: listed, rotated or duplicate) and unit are."""
    if a.p != b.p:
        return f"{b.p} players against {a.p} (another fair share, another game)"
    if lineup_text(a.meta) != lineup_text(b.meta):
        return f"another line-up ({lineup_text(b.meta)} against {lineup_text(a.meta)})"
    if a.meta["unit"] != b.meta["unit"]:
        return "whole matches against single deals" if b.unit == "matches" else "single deals against whole matches"
    return None


def change_class(after: Figure, before: Figure, low: float, high: float) -> str:
    """How a difference reads for balance, from its 95% interval ``low`` to ``high`` (of
    ``after - before``): ``better`` or ``worse`` where an edge over the fair share clearly moved
    toward or away from fair (its change in size has an interval wholly on one side of 0), or a
    risk clearly fell or rose; ``changed`` where a figure with no better side clearly changed;
    else ``""``. Never by the sign of the difference alone, nor by a half-width laid symmetrically
    around a difference of lopsided intervals (0 of 3 then 2 of 3 read "worse" on +66.7 ± 46.1
    points, where the interval is -5.9 to +93.9: no clear change).

    An edge's change in size is the difference itself (or its negative) only where both edges
    lie on one side of fair; where an interval reaches across fair, an edge's side is unknown, so
    the paired interval (often far narrower than each edge's own) says nothing about the size:
    then only edges whose possible sizes do not overlap have clearly moved."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return ""
    if after.better == "fair":
        if after.low >= 0 and before.low >= 0:
            return "better" if high < 0 else "worse" if low > 0 else ""
        if after.high <= 0 and before.high <= 0:  # edges below fair grow as they fall
            return "better" if low > 0 else "worse" if high < 0 else ""
        (near_a, far_a), (near_b, far_b) = _sizes(after), _sizes(before)
        return "better" if far_a < near_b else "worse" if near_a > far_b else ""
    if low <= 0 <= high:
        return ""
    if after.better == "lower":
        return "better" if high < 0 else "worse"
    return "changed"


def _sizes(f: Figure) -> tuple[float, float]:
    """The least and the largest size ``|x|`` of an edge ``x`` in the figure's interval."""
    return (0.0 if f.low <= 0 <= f.high else min(abs(f.low), abs(f.high))), max(abs(f.low), abs(f.high))


GAIN_UNITS = 30
"""Deals (or matches; a duplicate deal's copies count once) below which what pairing gained is
not told: the two half-widths' ratio is then mostly the noise of each (2 deals of Kansas City,
before and after ``pass_count=0``, read "intervals 68% wider ... the two rule sets do not share
much of each deal's luck"; 8 duplicate deals, 32 copies, "15% wider")."""


def sided(f: Figure, run: Analysis) -> Figure:
    """``f`` as its change reads in ``run``: a seat's edge has no better side where the seats hold
    different strategies, always the same ones, as the seat verdict has none there (pass_count=2
    against 3 with greedy fixed in seat 1 of target seats marked seat 1's -13.2 -> -11.8 points
    green, "better for balance", for greedy gaining on target)."""
    if f.better == "fair" and summary.seats_confounded(run.meta):
        return replace(f, better=None)
    return f


def compare(runs: list[Analysis]) -> Comparison:
    labels = [run_label(r) for r in runs]
    references = [next((j for j in range(i) if unlike(runs[j], r) is None), None)
                  for i, r in enumerate(runs) if i > 0]
    paired = [j is not None and other_deals(runs[j].meta, r.meta) is None
              for j, r in zip(references, runs[1:], strict=True)]
    folds = [paired_folds(r, runs[j]) if pair else None
             for j, r, pair in zip(references, runs[1:], paired, strict=True)]
    apart = [fold if isinstance(fold, str) else None for fold in folds]  # rows of other deals: independent
    paired = [pair and not other for pair, other in zip(paired, apart, strict=True)]
    names = list(dict.fromkeys(name for r in runs for name in r.figures))
    rows, gains = [], [[] for _ in runs[1:]]
    unpaired, few, alike = ([[] for _ in runs[1:]] for _ in range(3))
    for name in names:
        cells, diffs = [], []
        for r in runs:
            f = r.figures.get(name)
            cells.append("—" if f is None else show(f))
        for i, (r, j, pair) in enumerate(zip(runs[1:], references, paired, strict=True)):
            f, first = r.figures.get(name), None if j is None else runs[j].figures.get(name)
            if f is None or first is None:
                diffs.append(("", ""))
                continue
            # independent runs: each end from the two figures' own distances on that side
            d, low, high = stats.mover_difference((f.value, f.low, f.high), (first.value, first.low, first.high))
            shown = show_change(d, low, high, f.percent)
            if pair and f.rows is not None and first.rows is not None:
                loose = (high - low) / 2
                paired_d, h, ends, count, moved = paired_change(f, first, None if folds[i] is None else folds[i][name])
                if ends is None and moved < PAIRED_LEAST:
                    unpaired[i].append(name)
                    diffs.append((f"Δ from run {j + 1}: {shown}", change_class(sided(f, r), first, low, high)))
                    continue
                if moved == 0:
                    alike[i].append(name)
                elif moved < min(PAIRED_LEAST, count):
                    few[i].append(name)
                d = paired_d
                low, high, shown = d - h, d + h, show_change(d, d - h, d + h, f.percent)
                if ends is not None:
                    (low, high), h = ends, (ends[1] - ends[0]) / 2
                    shown = show_change(d, low, high, f.percent)
                # the gain of pairing compares two intervals of one kind: an interval for differences
                # alike in every deal (Wilson's, stats.alike_interval) is of another, and set against
                # the normal one of independent runs it told of pairing that "gained" -40% on 2 deals
                if (ends is None and loose > 0 and np.isfinite(loose) and np.isfinite(h)
                        and count >= GAIN_UNITS):
                    gains[i].append(1 - h / loose)
            diffs.append((f"Δ from run {j + 1}: {shown}", change_class(sided(f, r), first, low, high)))
        rows.append((name, cells, diffs))
    c = Comparison(labels, rows, references, paired, gains)
    for k, (r, j, pair) in enumerate(zip(runs[1:], references, paired, strict=True), start=2):
        if j is None:
            c.notes.append(f"Run {k} has no Δ: no earlier run has its line-up, player count and unit "
                           f"(against run 1: {unlike(runs[0], r)}), and differences between unlike runs "
                           f"would mislead; its edges over the fair share can still be read side by side.")
        elif pair and dealt_alike(runs[j].meta, r.meta) is False:
            c.notes.append(f"Run {k} has the seed, n, players, chunks and versions of run {j + 1}, but its rules "
                           f"deal other cards ({rules_apart(runs[j].meta, r.meta)}), so it shares no deal with it: "
                           f"the difference is paired deal by deal all the same, where only the random "
                           f"numbers the two deals share, not their cards, can narrow it."
                           f"{_few_text(unpaired[k - 2], few[k - 2], alike[k - 2], r.unit)}"
                           f"{c.gain_text(k)}")
        elif pair:
            c.notes.append(f"Run {k} shares its deals with run {j + 1} (same seed, n, players, chunks and "
                           f"versions): the "
                           f"difference is paired deal by deal."
                           f"{_few_text(unpaired[k - 2], few[k - 2], alike[k - 2], r.unit)}"
                           f"{c.gain_text(k)}")
        else:
            c.notes.append(f"Run {k} does not share its deals with run {j + 1} "
                           f"({apart[k - 2] or other_deals(runs[j].meta, r.meta)}): "
                           f"the difference is between independent samples (each end of its interval from the two "
                           f"runs' own intervals on that side).")
    fixed = [k for k, (r, j) in enumerate(zip(runs[1:], references, strict=True), start=2)
             if j is not None and summary.seats_confounded(r.meta)]
    if fixed:
        c.notes.append(f"Run{'s' if len(fixed) > 1 else ''} {', '.join(map(str, fixed))}: the seats hold "
                       f"different strategies, always the same ones, so a seat's edge is its strategy's as "
                       f"much as its seat's, and its change is bold, never better or worse for balance.")
    return c


def _few_text(unpaired: list[str], names: list[str], alike: list[str], unit: str) -> str:
    """The rows of a paired comparison taken as independent, those few units moved and those
    none moved, in sentences (none: nothing)."""
    text = ""
    if unpaired:
        text += (f" Where the two runs differ in every one of fewer than {PAIRED_LEAST} {unit} "
                 f"({'; '.join(unpaired)}), a paired interval would be too narrow, so those Δ take each end from "
                 f"the two runs' own intervals, as between independent samples.")
    if names:
        text += (f" Where the two runs differ in 1 to {PAIRED_LEAST - 1} {unit} ({'; '.join(names)}), a normal "
                 f"interval of so few differences would be too narrow: the change could move more {unit} than "
                 f"seen, up to Clopper-Pearson's 97.5% bound on their share, each by at most a whole share (a "
                 f"mean score, by the widest spread of scores seen at any seat), and the interval is at least "
                 f"as wide as that allows.")
    if alike:
        text += (f" Where they differ in no {'match' if unit == 'matches' else 'deal'} ({'; '.join(alike)}), "
                 f"the interval bounds the {unit} the change could move unseen, at most 1 - 0.05^(1/n) of "
                 f"them (the rule of three), each by at most a whole share (a mean score, by the widest "
                 f"spread of scores seen at any seat), not ± 0.")
    return text


def rules_apart(a: dict, b: dict) -> str:
    """The rules of ``b`` that differ from ``a``'s: ``deck=30 against 36``."""
    return ", ".join(f"{k}={b['rules'].get(k)} against {a['rules'].get(k)}"
                     for k in dict.fromkeys([*a["rules"], *b["rules"]]) if a["rules"].get(k) != b["rules"].get(k))


def paired_folds(after: Analysis, before: Analysis) -> dict[str, stats.PairedFold] | str | None:
    """The paired differences of every headline figure with per-game values in both runs, read
    from both a batch of whole units at a time, the same games side by side (:attr:`Analysis.batches`,
    :class:`stats.PairedFold`). Runs of one seed, n, chunks and versions hold the same units in
    the same order, checked unit by unit: where they do not, why, in words (a table changed after
    its run); ``None`` where either run's rows lie in no order of units (read whole, by
    :attr:`Figure.per_row`)."""
    if after.batches is None or before.batches is None:
        return None
    names = [name for name, f in after.figures.items()
             if f.rows is not None and before.figures.get(name) is not None and before.figures[name].rows is not None]
    folds = {name: stats.PairedFold() for name in names}
    duplicate, one = bool(after.meta.get("duplicate")), "match" if after.unit == "matches" else "deal"
    sides = [[batches(), np.zeros(0, np.int64), {}, False] for batches in (after.batches, before.batches)]
    while True:
        for side in sides:
            while not len(side[1]) and not side[3]:
                got = next(side[0], False)
                if got is None:
                    return None
                side[1:] = ([], {}, True) if got is False else (got[0], got[1], False)
        (_, a_keys, a_values, _), (_, b_keys, b_values, _) = sides
        m = min(len(a_keys), len(b_keys))
        if not m:
            if len(a_keys) == len(b_keys):
                return folds
            return f"its tables hold {'more' if len(a_keys) else 'fewer'} games than the other's"
        differ = np.flatnonzero(a_keys[:m] != b_keys[:m])
        # each side's batches end with a whole unit: one that goes on in the other's holds more games there
        longer = a_keys if len(a_keys) > m else b_keys if len(b_keys) > m else None
        if len(differ) or longer is not None and longer[m] == longer[m - 1]:
            at = int(differ[0]) if len(differ) else m
            return (f"its tables hold other games in their rows: {one} {int(a_keys[at]):,} where the other "
                    f"holds {one} {int(b_keys[at]):,}" if at < m else
                    f"its tables hold another number of games of {one} {int(a_keys[m - 1]):,} than the other's")
        for name in names:
            folds[name].add(a_values[name][:m], b_values[name][:m], a_keys[:m] if duplicate else None)
        for side in sides:
            side[1], side[2] = side[1][m:], {name: side[2][name][m:] for name in names}


def paired_change(after: Figure, before: Figure, fold: stats.PairedFold | None = None
                  ) -> tuple[float, float, tuple[float, float] | None, int, int]:
    """The difference of two runs' figures on the same deals, paired deal by deal, its 95%
    half-width, the ends of its interval where it is the same in every deal (else ``None``:
    the difference ± the half-width; where none differs, the rule of three's), the deals it is
    taken over and those whose values differ. Under ``--duplicate`` a
    deal's copies are one unit (they share their cards, so their differences move together):
    each deal's mean difference is one value, where taking every copy as a unit of its own made
    the interval up to sqrt(players) times too narrow. ``fold``: the differences folded batch by
    batch (:func:`paired_folds`); else the figures' per-game values read whole."""
    if fold is None:
        fold = stats.PairedFold()
        fold.add(after.per_row, before.per_row, after.units)
    d, h = fold.interval()
    # every copy alike, not only each deal's mean of them: copies that moved and cancelled out
    # (seat 0's win of 2 duplicate deals of Kansas City, pass_count=2, in 5 of 8 games) were
    # said to "differ in no deal", bounded as if the rule had moved none
    # one deal is enough: the review bounds one unmoved deal so, and taking it as independent had
    # the note say the runs "differ in every one" of the deals of a figure neither moved
    if fold.n and not fold.games:
        # no deal differs: the rule changes at most 1 - 0.05^(1/n) of the deals unseen (the rule of
        # three), each moving its value by at most a whole share, or a mean score by the widest
        # spread of scores seen at any seat, as restricted play bounds it: the spread of the deals'
        # means was 0 where every deal's total is fixed (Hearts' 26 points a deal, no moon shot in
        # 60 deals: "0.000 ± 0.000", certain). No spread at all bounds nothing: no interval
        reach = 1.0 if after.percent else _score_spread(after, before, fold.spread)
        half = stats.unseen(fold.n) * reach if reach > 0 else math.nan
        return d, h, (d - half, d + half), fold.n, 0
    if fold.alike():
        # two deals whose rate rose alike read "+25.0 pts ± 0.0 pts", clearly worse; a mean
        # score that fell alike, "-1.250 ± 0.000", clearly changed. Each difference lies within
        # ± 1 (a share) or ± the spread of the values seen (as restricted play's score change)
        return d, h, stats.alike_interval(d, fold.n, 1.0 if after.percent else fold.spread), fold.n, fold.n
    moved = fold.moved
    if 1 < fold.n and moved < min(PAIRED_LEAST, fold.n):
        # the review's rule (review.paired_interval): a normal interval of a few nonzero
        # differences among many zeros is too narrow (4 deals that moved: "+0.01 pts ± 0.01
        # pts"), and the two runs' intervals combined as independent, which stood in for it,
        # jumped from the rule of three's at none moved to all the deals' luck at one: seat 0's
        # edge, 27 of 1,000 deals of Kansas City moved by four_bonus=3, read ± 3.4 pts, now ± 1.2
        half = stats.moved_half(fold.n, moved, lambda: h, 1.0 if after.percent else
                                _score_spread(after, before, fold.spread))
        return d, h, (d - half, d + half), fold.n, moved
    return d, h, None, fold.n, moved


def _score_spread(after: Figure, before: Figure, spread: float) -> float:
    """The widest spread of scores seen at any seat in the two runs, where both figures know
    theirs (:attr:`Figure.scores`); else ``spread``, that of the values seen."""
    if after.scores is None or before.scores is None:
        return spread
    return max(after.scores[1], before.scores[1]) - min(after.scores[0], before.scores[0])


def run_label(r: Analysis) -> str:
    """A run in a few words: players, rules, line-up, unit."""
    m = r.meta
    rules = options.named(games.get(m["game"]), m["rules"])
    parts = [f"{m['players']}p", *(f"{k}={v}" for k, v in rules.items()), lineup_text(m)]
    if m["unit"] == "match":
        parts.append("whole matches")
    return ", ".join(parts)


def lineup_text(meta: dict) -> str:
    """``target at every seat``, or ``1 greedy + 3 target (rotated)``."""
    lineup = meta["lineup"]
    if len(set(lineup)) == 1:
        return f"{lineup[0]} at every seat"
    counts = {name: lineup.count(name) for name in dict.fromkeys(lineup)}
    text = " + ".join(f"{k} {name}" for name, k in counts.items())
    text += (" (duplicate)" if meta.get("duplicate") else " (rotated)" if meta.get("rotate")
             else " (seats as listed)")
    return text + "".join(f"; {name}{labels.NOT_FAIR}" for name in meta.get("not_fair", ()))


def show(f: Figure) -> str:
    if f.points:
        # an edge over the fair share (a seat's, or a seat's rate of the queen) is worded by the
        # seat verdict's 1 and 3 points: never rounded onto one (-0.99 read "-1.0")
        near = verdicts.SEAT_THRESHOLDS if f.better == "fair" else ()
        pts = verdicts.signed_points
        return f"{pts(f.value, near)} pts ({pts(f.low, near)} to {pts(f.high, near)})"
    return stats.fmt_share(f.value, f.low, f.high) if f.percent else stats.fmt_mean(f.value, f.low, f.high)


def show_change(diff: float, low: float, high: float, percent: bool) -> str:
    """A difference between independent runs with its 95% interval: ``+2.0 pts ± 1.0 pts`` where
    the interval is symmetric to a tenth of its half-width (:func:`show_difference`, as a paired
    difference prints), as the report's shares print theirs; else its ends,
    ``+66.7 pts (-5.9 to +93.9)``, as the review's changes table prints a difference, never an
    end rounded onto 0, whose side decides the colour (an end of -0.02 points is not "0.0"
    beside "no clear change")."""
    half = (high - low) / 2
    if not np.isfinite(half) or half <= 0 or abs((high - diff) - (diff - low)) <= 0.2 * half:
        text = show_difference(diff, half, percent)
        # x ± h as printed must keep 0 on the side the interval has it, which marks the change:
        # +0.3 pts ± 0.3 pts (0.01 to 0.59 points, "worse") read as reaching 0
        shown, _, width = text.partition(" ± ")
        x, h = float(shown.split(" ")[0]), float(width.split(" ")[0]) if np.isfinite(half) else np.nan
        if not (np.isfinite(h) and half > 0) or ((x - h > 0) == (low > 0) and (x + h < 0) == (high < 0)):
            return text
    if percent:
        scale, unit, digits = 100, " pts", max(1, min(3, -math.floor(math.log10(100 * half))))
    else:
        scale, unit, digits = 1, "", max(0, min(4, 1 - math.floor(math.log10(half))))

    def end(x: float, near=(0.0,)) -> str:
        return verdicts.fixed(scale * x, near, sign="+", digits=digits)

    return f"{end(diff, ())}{unit} ({end(low)} to {end(high)})"


def show_difference(diff: float, half: float, percent: bool) -> str:
    """A difference with its half-width; signed unless it shows as 0 (a tiny difference either
    way reads "0.0 pts", as :func:`verdicts.signed_points` has it, not "+0.0" one way and "0.0" the other)."""
    text = (stats.fmt_pct(diff, half).replace("%", " pts", 1).replace("%", " pts") if percent
            else stats.fmt_mean(diff, diff - half, diff + half))
    shown = float(text.split(" ")[0])
    return ("+" if diff >= 0 and shown else "") + text


def check_output(out: str | Path, inputs: list[Path], kind: str = "report", flag: str = "out") -> None:
    """Refuse, before any work, a report path that names a folder (an existing one, or a path
    ending in '/'), an input itself, a file of an input or of its ``chunks/``, a file simtool did
    not write as a page of this ``kind`` (:data:`PAGES`), or a place that cannot be written (under
    a file, or a folder this user may not write in). ``flag``: the command's option for the report
    (tune's and restrict's is ``--report``, their ``--out`` a folder)."""
    text, out = os.fspath(out), Path(out)
    again = option(flag, argument="report file")
    if not text.strip():  # `--out " "` wrote a page named ' ' in the working folder
        raise SimtoolError(f"report {text!r} is a blank name; give a file name such as report.html")
    if text.endswith(("/", os.sep)) or out.is_dir():
        raise SimtoolError(f"report {text} is a folder; give a file name such as {out / 'report.html'}")
    # a folder above it that is a link to nothing: resolved, it looked writable, and the write
    # failed at the end ("File exists") after a sweep or ladder had played every cell; the report
    # itself a link to nothing: the page replaced the user's link. First, as a loop of links there
    # made resolve() raise (RuntimeError: Symlink loop)
    broken = next((p for p in (out, *out.parents) if p.is_symlink() and not p.exists()), None)
    if broken is not None:
        raise SimtoolError(f"cannot write report {out}: {os_problem(broken, OSError())}")
    where = out.resolve()
    for folder in inputs:
        folder = folder.resolve()
        if where == folder or where.parent == folder / "chunks" or (
                where.parent == folder and where.name in ("run.json", "seats.parquet", "matches.parquet")):
            raise SimtoolError(f"report {out} would replace {folder.name}'s own files; "
                               f"choose another {again} such as {folder / 'report.html'}")
    if out.exists() and not is_report(out):
        raise SimtoolError(f"{out} exists and is not a simtool report; simtool replaces only its own "
                           f"reports: choose another {again}")
    # a review's or a tuning's page was replaced by a balance report (and the other way about),
    # its review.json left beside a page of something else
    if out.exists() and (found := page_kind(out)) != kind:
        raise SimtoolError(f"{out} is a simtool {PAGES.get(found, found)} page, not a {PAGES[kind]}: simtool "
                           f"replaces a page only with one of its kind; choose another {again}")
    # the only form of a page is HTML: `-o x.json` wrote HTML under a JSON name (and a name with
    # no suffix, a page no browser opens by a double click)
    if out.suffix.lower() not in (".html", ".htm"):
        raise SimtoolError(f"report {out}: a report is an HTML page only; give a name ending in .html "
                           f"(or .htm) for {again}, such as {out.with_name(out.stem + '.html')}")
    base = where.parent
    while not base.exists() and base != base.parent:
        base = base.parent
    if not base.is_dir():
        raise SimtoolError(f"cannot write report {out}: {base} is a file, not a folder")
    if not os.access(base, os.W_OK | os.X_OK):
        raise SimtoolError(f"cannot write report {out}: no permission to write in {base}")


PAGES = {"report": "balance report", "review": "review", "tune": "tuning"}
"""The kinds of page simtool writes, as each says in its ``simtool-page`` meta tag."""


def page_kind(path: Path) -> str:
    """Which of :data:`PAGES` a simtool page is: its meta tag, or for a page written before the
    tag, a review's or a tuning's by its name beside its JSON (a review's by its title alone),
    else a report."""
    head = _head(path)
    if found := re.search(rb'<meta name="simtool-page" content="(\w+)">', head):
        return found[1].decode()
    for kind, page, record in (("review", "review.html", "review.json"), ("tune", "tune.html", "tune.json")):
        if path.name == page and (path.parent / record).is_file():
            return kind
    # a review stopped between renaming its page and its review.json into place left the page
    # alone: its own folder was then refused as holding a balance report
    if path.name == "review.html" and b"<title>Balance review: " in head:
        return "review"
    return "report"


def _head(path: Path) -> bytes:
    """The first 64 kB of a page, opened without waiting: a pipe named as the report was opened
    to be read, and waited for a writer for ever (a link to a terminal, for its input); neither
    is a page, an :class:`OSError` like a file that cannot be read."""
    return read_regular(path, 1 << 16)


def is_report(path: Path) -> bool:
    try:
        head = _head(path)
    except OSError:
        return False
    return head.lstrip().startswith(b"<!DOCTYPE html>") and (
        b'<meta name="generator" content="simtool' in head or b" by simtool " in head)


def rating_section(runs: list[Analysis]) -> dict | None:
    """Ratings over the runs of one game, with several runs where strategies meet."""
    tables = [r.held for r in runs if r.held is not None]
    table = ratings.rate(tables) if len(runs) > 1 and tables else None
    if table is None:
        return None
    return {"table": table, "cells": worded(table), "chart": svg(ratings.chart(table)),
            "rated": sum(t.height for t in ratings.taken(tables)), "limit": ratings.LIMIT}


VERDICTS = {"costs": "costs (1 point or more)", "nearly as good": "nearly as good (under 1 point: flagged)",
            "unclear": "unclear: more deals", "never binds": "never binds (no result changed)"}
"""Each restricted-play verdict as the report's table says it."""


def restricted_views(table: pl.DataFrame) -> list[dict]:
    """The restricted-play sets of one game, each with its rows and sentences."""
    from simtool.analysis import restrict

    views = []
    for (players, rules, strategy), rows in table.group_by(["players", "rules", "strategy"],
                                                           maintain_order=True):
        rows = rows.to_dicts()
        views.append({"label": f"{players} players" + (f", {rules}" if rules else "") + f", {strategy}",
                      "strategy": strategy, "deals": rows[0]["deals"], "rows": rows,
                      "score_heading": restrict.score_heading(rows[0]["game"]).capitalize(),
                      "sentences": [restrict.sentence(r) for r in rows]})
    return views


@functools.cache
def environment():
    """The report's template environment, made once a process (:mod:`simtool.reports.pages`).
    Names are marked with the ``unfair`` players of the page being rendered."""
    import jinja2

    from simtool.analysis import restrict

    env = pages.environment()
    env.filters["pct"] = lambda v: f"{stats.percent(v)}%"
    env.filters["name"] = jinja2.pass_context(
        lambda context, name, limit=labels.LIMIT: labels.html(name, limit, context["unfair"]))
    env.globals.update(fmt_cost=restrict.fmt_cost, restrict_words=restrict.THRESHOLDS_TEXT, verdict_text=VERDICTS,
                       lineup_text=lineup_text, fmt_share=stats.fmt_share, fmt_mean=stats.fmt_mean,
                       fmt_rate=stats.fmt_rate, fmt_p=stats.fmt_p, seat_test_text=seat_test_text,
                       points=verdicts.signed_points, run_label=run_label,
                       # a seat's edge is worded by these (1 and 3 points): never shown rounded onto one
                       seat_thresholds=verdicts.SEAT_THRESHOLDS, rung_share=ladders.share_text)
    return env


def render(paths: list[Path], title: str = "simtool balance report", notes: list[str] = ()) -> str:
    """The HTML report of the finished run folders ``paths``; ``notes`` under its title (the cells
    a sweep left out)."""
    if not paths:
        raise SimtoolError("no run folders given; pass one or more folders written by `simtool run`")
    from simtool.analysis import ladder as ladders
    from simtool.analysis import restrict

    found = ladders.ladders([Path(p) for p in paths])
    # only a whole chain is a ladder the page may judge (where it flattens, its top rung); the
    # rung runs of a part of one are reported as the runs they are
    climbed = [lad for lad in found if ladders.not_whole(lad) is None]
    parts = [lad for lad in found if ladders.not_whole(lad) is not None]
    limits = restrict.costs([Path(p) for p in paths])
    runs = [analyse(Path(p), climbed) for p in paths]
    by_game: dict[str, list[Analysis]] = {}
    for r in runs:
        by_game.setdefault(r.game.id, []).append(r)
    sections = []
    for rs in by_game.values():
        # rungs are compared on their ladder, restricted-play runs with their baseline
        plain = [r for r in rs if "ladder" not in r.meta and "restrict" not in r.meta]
        sections.append({"game": rs[0].game, "runs": rs,
                         "comparison": compare(plain) if len(plain) > 1 else None,
                         "ladders": [ladder_view(lad) for lad in climbed if lad.game == rs[0].game.id],
                         "partial": [f"Rung runs of {ladders.not_whole(lad)}: no ladder verdict; they are "
                                     f"reported as runs below. Give each rung run of the ladder once (the "
                                     f"folders in its --runs folder) for where it flattens."
                                     for lad in parts if lad.game == rs[0].game.id],
                         "ratings": rating_section(rs),
                         "restricted": restricted_views(limits.filter(pl.col("game") == rs[0].game.id))})
    page = {"title": title, "sections": sections, "version": version("simtool"),
            "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "unfair": labels.not_fair(r.meta for r in runs), "runs_key": runs_key(paths), "notes": list(notes)}
    template = environment().get_template("report.html.j2")
    # the glossary lists the terms the page uses: those of the page without it
    return template.render(**page, glossary=used_terms(template.render(**page, glossary=[])))


def write(paths: list[Path], out: str | Path, title: str = "simtool balance report", notes: list[str] = ()) -> Path:
    """Write the report atomically: a reader never sees half a page, and no file but an earlier
    report is ever replaced."""
    check_output(out, [Path(p) for p in paths])
    return write_page(Path(out), render(paths, title, notes))


def runs_key(paths: list[Path]) -> str:
    """Which run folders a page reports, in their order (the first is the one the others are
    compared with): a digest of their full paths, so that a page does not print where the user
    keeps their files."""
    where = "\n".join(os.fspath(Path(p).resolve()) for p in paths)
    return hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def default_page(paths: list[Path]) -> Path:
    """``reports/<run folder's name>.html`` (``reports/A+B.html`` for runs A and B), the page of
    ``simtool report`` without ``-o``: it wrote ``reports/report.html`` whatever it reported,
    replacing the page of other runs written earlier without a word. A page there that reports
    other runs (another folder of the same name, another order) or is no page of these runs at
    all is kept: ``reports/<name>-2.html`` then, and so on, as a sweep's page does."""
    names = [Path(p).resolve().name or "report" for p in paths]
    stem = "+".join(names)
    # a file name has at most 255 bytes, counted as bytes: 80 characters of emoji were 320 (File
    # name too long, for runs any folder holds); `report runs/sweep/*` names dozens, one run
    # names none left out (it read A+0-more)
    if len(os.fsencode(stem)) > 80:
        stem = f"{cut_name(names[0], 60)}+{len(names) - 1}-more" if len(names) > 1 else cut_name(names[0], 80)
    key = runs_key(paths)
    page, i = Path("reports") / f"{stem}.html", 1
    while page.exists() and page_runs(page) != key:
        i += 1
        page = Path("reports") / f"{stem}-{i}.html"
    return page


def cut_name(name: str, most: int) -> str:
    """``name``'s first characters, as many as take at most ``most`` bytes in a file name (never
    half a character's bytes)."""
    while len(os.fsencode(name)) > most:
        name = name[:-1]
    return name


def page_runs(path: Path) -> str | None:
    """The :func:`runs_key` a balance report records, None for any other file (a page written
    before it recorded one, a folder, a pipe: read, it was waited on for ever)."""
    try:
        head = _head(path)
    except OSError:
        return None
    found = re.search(rb'<meta name="simtool-runs" content="(\w+)">', head)
    return found[1].decode() if found else None


def write_page(out: Path, html: str) -> Path:
    """``html`` into ``out`` under a temporary name, renamed once whole; a failure (a full disk)
    or Ctrl-C leaves no temporary file behind."""
    write_together({out: html}, f"report {out}")
    return out
