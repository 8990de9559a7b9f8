"""Per-seat and per-strategy summaries of a run, and the shares ``--precision`` watches: the
statistics of :mod:`simtool.stats` applied to a game's own figures (its rates)."""

from __future__ import annotations

import numpy as np
import polars as pl

from simtool import stats
from simtool.analysis import of as analysis_of
from simtool.analysis.rates import computable
from simtool.analysis.verdicts import partners_note, seat_line
from simtool.errors import SimtoolError
from simtool.stats import NULL_ROWS, ROWS, Figures, estimates, unit_key, unit_sums, wide


def _seat_figures(game) -> Figures:
    return {"score": pl.col("score"), "win": pl.col("win"), "tricks": pl.col("tricks"), **analysis_of(game).rates}


MATCH_FIGURES = {"total": pl.col("total"), "match_win": pl.col("win")}

SUMMARY_BY = (("seat", "strategy"), ("strategy",))
"""The groups of the tables ``simtool run`` prints: by seat and strategy, by strategy."""


def summary_sums(game, seats: pl.DataFrame, matches: pl.DataFrame | None, strata: int | None) -> dict:
    """One chunk's sums of the intervals of ``simtool run``'s two tables, by ``(kind, by)``
    (:func:`simtool.stats.chunk_sums`): summed by the worker that played it, they spare the
    run's end a read of every row (docs/speed.md). ``None`` each where the game's analysis cannot
    be read: the run's end says why in one line once the run is written (:func:`analysis_of`),
    where a worker's error threw away the whole run."""
    try:
        figures = _seat_figures(game)
        computable(game, seats.lazy())  # a rate raising here threw the whole run away in its traceback
    except SimtoolError:
        return {(kind, by): None for kind in ("seats", *(("matches",) if matches is not None else ()))
                for by in SUMMARY_BY}
    out = {("seats", by): sums for by, sums in stats.chunk_sums(seats, figures, SUMMARY_BY, strata).items()}
    if matches is not None:
        out |= {("matches", by): sums for by, sums in stats.chunk_sums(matches, MATCH_FIGURES, SUMMARY_BY,
                                                                         strata).items()}
    return out


def added_summary_sums(chunks: list[dict]) -> dict:
    """The chunks' :func:`summary_sums` added up, by ``(kind, by)``; ``None`` for one some chunk
    could not sum."""
    return {key: stats.added_sums([c[key] for c in chunks], key[1]) for key in chunks[0]} if chunks else {}


def seat_summary(game, seats: pl.LazyFrame, matches: pl.LazyFrame | None = None,
                 by: tuple[str, ...] = ("seat", "strategy"), strata: int | None = None,
                 sums: dict | None = None) -> pl.DataFrame:
    """Per seat (or per ``by`` group): rows, mean score and win share, and the game's rates,
    each with its 95% interval on units (deals, or matches). With ``matches``, also the mean
    match total, match win share, rounds played and the share of matches capped.
    ``strata``: ``p`` for a rotated run. ``sums``: :func:`added_summary_sums` of the run's
    chunks, the same sums these rows give.
    """
    by, sums = list(by), sums or {}
    seats = seats.lazy()
    figures = _seat_figures(game)
    _held(game, "seats", seats, [*by, *(c for e in figures.values() for c in e.meta.root_names())])
    unvalued = computable(game, seats, nulls=True)
    long = estimates(seats, figures, by, {"score", "tricks"}, strata, sums.get(("seats", tuple(by))))
    n = long.filter(pl.col("figure") == "score").select(*by, pl.col("n").cast(pl.UInt32))
    out = n.join(wide(long, by), on=by)
    out = out.select(*by, "n", *[c for name in ("score", "win") for c in (name, f"{name}_low", f"{name}_high")],
                     "tricks", *[c for name in analysis_of(game).rates for c in (name, f"{name}_low", f"{name}_high")])
    if matches is not None:
        matches = matches.lazy()
        _held(game, "matches", matches, [*by, "rounds", "capped", "total", "win"])
        m = matches.group_by(by).agg(pl.len().alias("matches"),
                                     pl.col("rounds").cast(pl.Float64).mean().alias("rounds"),
                                     pl.col("capped").mean().alias("capped")).collect(engine="streaming")
        long = estimates(matches, MATCH_FIGURES, by, {"total"}, strata, sums.get(("matches", tuple(by))))
        out = out.join(m.join(wide(long, by), on=by), on=by)
    # a null row adds nothing to a share's count and one to its rows: a rate null on every row
    # was printed as "0.0% (0.0–27.8)", a share of nothing
    out = out.with_columns(pl.lit(float("nan")).alias(c) for name in unvalued
                           for c in (name, f"{name}_low", f"{name}_high"))
    return out.sort(by)


def _held(game, kind: str, rows: pl.LazyFrame, needed: list[str]) -> None:
    """One line naming the columns ``rows`` lack, and the game whose rows they may be: another
    game's seats (or a frame cut short) ended :func:`seat_summary` in polars' ColumnNotFoundError."""
    from simtool import games

    names = rows.collect_schema().names()
    # the unit too (match, else deal), which every interval is on
    missing = [c for c in dict.fromkeys([*needed, unit_key(rows)]) if c not in names]
    if not missing:
        return
    theirs = [g.id for g in games.registry().values() if g.id != game.id and g.columns and set(g.columns) <= set(names)]
    guess = f", the columns of {' or '.join(map(repr, theirs))}: rows of another game?" if theirs else ""
    raise SimtoolError(f"seat summary of game '{game.id}': the {kind} given lack {', '.join(map(repr, missing))} "
                       f"(they hold {', '.join(names)}{guess}); give the {kind} of a run of {game.id} "
                       f"(its result.{kind})")


def precision_figures(game, seats, matches=None) -> list[tuple[pl.LazyFrame, Figures, list[str]]]:
    """The shares ``--precision`` tracks: every share the run's summary prints (win share and
    each rate per seat and strategy, and per strategy with seats pooled; the match win share
    with whole matches), as ``(rows, figures, by)``."""
    out = []
    for by in (["seat", "strategy"], ["strategy"]):
        out.append((seats.lazy(), {"win share": pl.col("win"),
                                   **{f"{name} rate": e for name, e in analysis_of(game).rates.items()}}, by))
        if matches is not None:
            out.append((matches.lazy(), {"match win share": pl.col("win")}, by))
    return out


def tally(game, seats, matches=None, strata: int | None = None,
          block: int | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The sums behind every tracked share of one chunk, per block of ``block`` units, for
    ``--precision``: they add up over chunks (see :func:`widest`). Groups are named
    ``seat 0 (target)`` or ``target``."""
    # polars' traceback from a worker, in the middle of the run; a rate null on some rows too: its
    # nulls were tallied as "no" and the run stopped where the rate, fixed, stops it elsewhere
    unvalued = {f"{name} rate" for name in computable(game, seats.lazy(), nulls=True)}
    parts = []
    for rows, figures, by in precision_figures(game, seats, matches):
        sums, units = unit_sums(rows, figures, by, strata, block)
        label = pl.format("seat {} ({})", "seat", pl.col("strategy").cast(pl.String)) if "seat" in by \
            else pl.col("strategy").cast(pl.String)
        parts.append((sums.select(label.alias("group"), pl.exclude(by)), units))
    # a rate null on every row of this chunk but valued in another is null on some of the run's
    # rows: the run checks the chunks together (:func:`simtool.stats.partly_null`); each
    # chunk's nulls were tallied as "no", and the run refused only at its end
    height = seats.height
    return pl.concat([s for s, _ in parts]).with_columns(
        pl.when(pl.col("figure").is_in(list(unvalued))).then(height).otherwise(0).cast(pl.Int64).alias(NULL_ROWS),
        pl.lit(height, pl.Int64).alias(ROWS)), parts[0][1]




def seat_shares(meta: dict, seats: pl.DataFrame | None, matches: pl.DataFrame | None) -> pl.DataFrame:
    """Each seat's win share (of matches, when the run plays them) and mean score with their 95%
    intervals, as the balance report's seat table: a rotated run stratified by rotation, the
    copies of a duplicate deal one unit."""
    p = meta["players"]
    outcome = matches if matches is not None else seats
    win = stats.panel(outcome, "win", p)
    score = stats.panel(outcome, "total" if matches is not None else "score", p)
    key = stats.panel(outcome, stats.unit_key(outcome), p)[:, 0]
    return stats.seat_table(win, score, key % p if meta.get("rotate") else None,
                            key if meta.get("duplicate") else None)


SEAT_BATCH = 1 << 18
"""Units (deals, or matches) of a run's outcome a streamed seat line reads at a time."""


def streamed_seat_shares(meta: dict, outcome: pl.LazyFrame,
                         batch: int = SEAT_BATCH) -> tuple[pl.DataFrame, np.ndarray, int]:
    """:func:`seat_shares` of a run without ``--duplicate``, read ``batch`` units at a time in
    their order, the same figures bit for bit (each sum folded on as :func:`np.bincount` adds,
    :func:`simtool.stats.folded`); and which seats scored alike in every unit
    (:func:`simtool.analysis.verdicts.sides_of`), and the units read. Reading the whole outcome took 1.1 GB and 2 s
    at 1e7 deals (docs/speed.md)."""
    p, key = meta["players"], stats.unit_key(outcome)
    score_of = "total" if key == "match" else "score"
    strata = p if meta.get("rotate") else 1
    sums = np.zeros((2, 2, p, strata))  # win and score; k and k²; seat; stratum
    count, alike = np.zeros(strata, np.int64), np.ones((p, p), bool)
    columns, start = outcome.select("seat", key, "win", score_of), 0
    while True:
        rows = columns.slice(start * p, batch * p).collect()
        if rows.is_empty():
            break
        start += batch
        win, score = (stats.panel(rows, name, p) for name in ("win", score_of))
        at = stats.panel(rows, key, p)[:, 0] % strata
        for a, b in zip(*np.triu_indices(p, 1), strict=True):
            alike[a, b] &= np.array_equal(score[:, a], score[:, b])
        for v in np.unique(at):
            pick = at == v
            count[v] += pick.sum()
            for f, values in enumerate((win, score)):
                for s in range(p):
                    k = np.asarray(values[pick, s], float)
                    sums[f, 0, s, v] = stats.folded(sums[f, 0, s, v], k)
                    sums[f, 1, s, v] = stats.folded(sums[f, 1, s, v], k * k)
    held = count > 0  # the strata present, in order (np.unique's of every unit's)
    table = []
    for s in range(p):
        w, wl, wh = stats.counted_estimate(sums[0, 0, s, held], sums[0, 1, s, held], count[held].astype(float), True)
        m, ml, mh = stats.counted_estimate(sums[1, 0, s, held], sums[1, 1, s, held], count[held].astype(float), False)
        table.append({"seat": s, "win": w, "win_low": wl, "win_high": wh, "fair": 1 / p,
                      "score": m, "score_low": ml, "score_high": mh})
    return pl.DataFrame(table), alike, int(count.sum())


def streamed_duplicate_shares(meta: dict, outcome: pl.LazyFrame) -> tuple[pl.DataFrame, np.ndarray, int] | None:
    """:func:`streamed_seat_shares` of a ``--duplicate`` run, each deal's copies one unit, read a
    batch of whole deals at a time (:func:`simtool.stats._unit_batches`), the figures of
    :func:`seat_shares` bit for bit (:class:`simtool.stats.UnitFold`); ``None`` where the rows lie
    in no order of deals. Reading the whole outcome held every row and a panel of every copy."""
    p, key = meta["players"], stats.unit_key(outcome)
    score_of = "total" if key == "match" else "score"
    folds = [[stats.UnitFold() for _ in range(p)] for _ in range(2)]  # win and score; seat
    alike, count = np.ones((p, p), bool), 0
    for batch in stats._unit_batches(outcome, (), [pl.col("win"), pl.col(score_of)]):
        if batch is None:
            return None
        win, score = (stats.panel(batch, name, p) for name in ("win", score_of))
        at = np.unique(stats.panel(batch, key, p)[:, 0], return_inverse=True)[1]
        count += int(at.max()) + 1
        for a, b in zip(*np.triu_indices(p, 1), strict=True):
            alike[a, b] &= np.array_equal(score[:, a], score[:, b])
        for f, values in enumerate((win, score)):
            for s in range(p):
                folds[f][s].add(values[:, s], at=at)
    table = []
    for s in range(p):
        w, wl, wh = folds[0][s].estimate(share=True)
        m, ml, mh = folds[1][s].estimate()
        table.append({"seat": s, "win": w, "win_low": wl, "win_high": wh, "fair": 1 / p,
                      "score": m, "score_low": ml, "score_high": mh})
    return pl.DataFrame(table), alike, count


def seats_confounded(meta: dict) -> bool:
    """Seats hold different strategies, always the same ones: a seat's share is its strategy's
    as much as its seat's."""
    return len(set(meta["lineup"])) > 1 and not (meta.get("rotate") or meta.get("duplicate"))


def run_seat_line(meta: dict, table: pl.DataFrame, play: str, sides: list[tuple[int, ...]] = ()) -> str:
    """The one-line seat verdict of a run (``table``: :func:`seat_shares`), or why a run of
    mixed seats not rotated has none; ``sides``: partners the run's scores show
    (:func:`simtool.analysis.verdicts.partners`), said after the verdict."""
    if seats_confounded(meta):
        return ("Seat verdict: none. The seats hold different strategies, always the same ones, so a "
                "seat's share is its strategy's as much as its seat's; run with --rotate to separate them.")
    unit = "matches" if meta["unit"] == "match" else "deals"
    rows = table.select("seat", "win", "win_low", "win_high").rows()
    note = partners_note(sides, rows, unit)
    return seat_line(rows, meta["players"], meta["n"], unit, play) + (f" {note}" if note else "")
