"""The published balance metrics, under their published names, each with a 95% interval.

CardStock's (fairness, order, convergence, spread, drama, security), Ludii's (balance,
advantage_p1, drawishness, lead_change, decisiveness_threshold, decisiveness_moves, drama_ludii,
stability) and duplicate_gain, computed from finished run folders (or a run's tables): analysis
never plays a game. ``docs/metrics.md`` defines each one, with its source and where simtool
departs from it; :data:`DEFINITIONS` holds the same one-line formulas for the review and the API.

The outcome metrics read the win shares of ``seats.parquet`` (``matches.parquet`` for whole
matches); the estimate-based ones read the lead history (``leads.parquet``, recorded with
``--lead-history``; see :mod:`simtool.pipeline.leads`), and name its estimator and budget
beside every figure. Intervals are on the independent unit, the deal or the match (every copy
of a ``--duplicate`` deal and every decision of a history in its unit), within the strata of
``--rotate``: shares through :func:`simtool.stats.unit_estimate`, carried through the metric's
formula; everything else by the clustered bootstrap :func:`simtool.stats.cluster_bootstrap`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

import numpy as np
import polars as pl

from simtool import stats
from simtool.arguments import called, whole
from simtool.errors import SimtoolError, bad, shown
from simtool.pipeline.folders import load, native

CARDSTOCK = "CardStock (mgoadric/cardstock, CardStock/Scoring/; blog post on its heuristics)"
LUDII = "Ludii (Ludeme/Ludii, Evaluation/src/metrics/)"
AIVAT = "after AIVAT (Burch et al., AAAI 2018): plain variance over duplicate variance"


@dataclass(frozen=True)
class Definition:
    """A metric as ``docs/metrics.md`` defines it: its formula on one line, its meaning in plain
    words (for the review), its source, and what it reads."""

    name: str
    formula: str
    meaning: str
    source: str
    needs: str  # "outcome", "leads" or "duplicate"


DEFINITIONS = {d.name: d for d in (
    Definition("fairness", "first seat's win share w under all-random play, n seats: w*n if w <= 1/n, "
               "else n/(n-1)*(1-w)", "1: the first seat wins its fair share when nobody plays well",
               CARDSTOCK, "outcome"),
    Definition("order", "win share a of one strongest-play seat among random seats: (a - 1/n)/(1 - 1/n)",
               "how far good play beats random play: 0 no better than chance, 1 wins every game",
               CARDSTOCK, "outcome"),
    Definition("convergence", "per game, slope b of a least-squares line through the acting seat's "
               "number of legal options against the decision number; mean over games of 1 - (b/2 + 0.5)",
               "above 0.5: choices narrow as the game goes on", CARDSTOCK, "leads"),
    Definition("spread", "at each decision of a search seat, its best option's estimated standing "
               "minus its worst (0 with one legal option); mean over those decisions",
               "how much a decision matters: 0 every option is as good", CARDSTOCK, "leads"),
    Definition("drama", "d = (1 + (n-2)/(n-1))/2; per game, over the decisions at which the sole "
               "winner's estimate is below d, sum(sqrt(d - estimate)) / their count (0 if none); mean over games",
               "how far behind the eventual winner looked when it looked behind", CARDSTOCK, "leads"),
    Definition("security", "per game, 1 - (decisions at which the sole winner's estimate is below d) / "
               "(the game's decisions); mean over games", "share of the game the eventual winner looked safely ahead",
               CARDSTOCK, "leads"),
    Definition("balance", "1 - max over pairs of seats |w_a - w_b|, w a seat's win share (ties split)",
               "1: every seat wins as often", LUDII, "outcome"),
    Definition("advantage_p1", "seat 0's win share (ties split)", "how often the first seat wins",
               LUDII, "outcome"),
    Definition("drawishness", "share of games with no sole winner (tied for first)",
               "how often a game ends tied for first", LUDII, "outcome"),
    Definition("lead_change", "per game, decisions at which the set of seats with the highest "
               "estimate differs from the previous decision's, over the decisions; mean over games",
               "how often the lead changes hands", LUDII, "leads"),
    Definition("decisiveness_threshold", "per game, the highest estimate ever reached by a seat "
               "that did not win any share; mean over games",
               "how high a loser's hopes went", LUDII, "leads"),
    Definition("decisiveness_moves", "per game, the first decision (0-based) at which a winner's "
               "estimate exceeds that threshold, over the decisions (1 if never); mean over games",
               "how early the winner is clear: 0 from the start, 1 never", LUDII, "leads"),
    Definition("drama_ludii", "per game, mean over decisions of the highest estimate minus the "
               "eventual winner's (the mean of the winners', where several share the win); mean over games",
               "how far the eventual winner trailed the leader on average", LUDII, "leads"),
    Definition("stability", "per game, the sum over seats of the variance of the seat's estimate "
               "over the decisions; mean over games", "0: standings never move", LUDII, "leads"),
    Definition("duplicate_gain", "variance of line-up position 0's win share with each game its own "
               "unit, stratified by rotation, over its variance with each duplicate deal the unit",
               "how many times fewer deals the duplicate design needs for the same interval",
               AIVAT, "duplicate"),
)}

CARDSTOCK_METRICS = ("order", "fairness", "convergence", "spread", "drama", "security")
"""CardStock's metrics in its table's order."""
CARDSTOCK_TABLE = {
    "source": "CardStock's summary page (mgoadric/cardstock, gh-pages/leads.md, as of June 2023)",
    "players": 4, "games": 100,
    "note": "4 players, 100 games per experiment mode, no interval published",
    "values": {game: dict(zip(CARDSTOCK_METRICS, row, strict=True)) for game, row in (
        ("Agram", (0.28, 0.96, 0.56, 0.05, 0.27, 0.27)),
        ("Pairs", (0.56, 0.92, 0.50, 0.21, 0.41, 0.24)),
        ("Ninety-Eight", (0.91, 0.68, 0.50, 0.37, 0.39, 0.60)),
        ("Stealing Bundles", (0.36, 0.88, 0.51, 0.14, 0.51, 0.19)),
        ("Hearts", (0.52, 0.87, 0.54, 0.14, 0.46, 0.34)),
        ("LAMA", (0.48, 0.96, 0.58, 0.17, 0.49, 0.26)))},
}
"""CardStock's published table, every game of it: a designer's game set beside six published card
games (:func:`among`), not beside Hearts alone. The values as its page prints them (two decimals)."""

PUBLISHED = {
    ("hearts", 4): {
        "source": "CardStock blog, mgoadric/cardstock gh-pages/leads.md",
        "games": CARDSTOCK_TABLE["games"], "interval": None,
        "note": "100 games per experiment mode, no interval published",
        "values": CARDSTOCK_TABLE["values"]["Hearts"],
    },
}
"""Published values by (game, players), with their sample size; CardStock prints no interval."""


def among(name: str, value: float | None, low: float | None = None, high: float | None = None) -> str | None:
    """Where a figure of CardStock's metric ``name`` stands among the games of
    :data:`CARDSTOCK_TABLE`, in words: between which two (by the estimate), and which published
    values lie within its 95% interval (``low`` to ``high``): the games this figure alone cannot
    tell it from. ``None`` for a metric the table has not (Ludii's, a seat's fairness)."""
    table = CARDSTOCK_TABLE["values"]
    if value is None or not math.isfinite(value) or name not in CARDSTOCK_METRICS:
        return None
    by_value: dict[float, list[str]] = {}
    for game, values in sorted(table.items(), key=lambda item: item[1][name]):
        by_value.setdefault(values[name], []).append(game)

    def at(v: float) -> str:
        return " and ".join(by_value[v])

    below = [v for v in by_value if v < value]
    above = [v for v in by_value if v > value]
    if value in by_value:
        where = f"level with {at(value)} ({value:.2f})"
    elif not below:
        where = f"below all {len(table)} games (the lowest: {at(above[0])}, {above[0]:.2f})"
    elif not above:
        where = f"above all {len(table)} games (the highest: {at(below[-1])}, {below[-1]:.2f})"
    else:
        where = f"between {at(below[-1])} ({below[-1]:.2f}) and {at(above[0])} ({above[0]:.2f})"
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return f"{where}; no interval"
    within = [game for v, games in by_value.items() if low <= v <= high for game in games]
    return f"{where}; within its interval: {', '.join(within)}" if within else \
        f"{where}; no published game within its interval"


def definition(name: str) -> Definition:
    """The definition of a metric, or of a variant named after it (``fairness (pimc play, seat 2)``:
    CardStock's formula on that seat's win share under that play, and said so)."""
    base, _, variant = name.partition(" (")
    found = DEFINITIONS[base]
    if base != "fairness" or not variant:
        return found
    parts = variant.removesuffix(")").split(", ")  # as fairness_names writes them
    seat = next((part for part in parts if part.startswith("seat ")), "the first seat")
    play = next((f"under {part}" for part in parts if part.endswith(" play")), "under all-random play")
    return Definition(name, f"{seat}'s win share w {play}, n seats: w*n if w <= 1/n, else n/(n-1)*(1-w)",
                      f"1: {seat} wins its fair share {play}", found.source, found.needs)


def published(game: str, players: int) -> dict | None:
    """The published reference values for a game and player count, or ``None``."""
    return PUBLISHED.get((game, players))


class Misfit(SimtoolError):
    """A run whose line-up (or design) does not fit the metric asked for."""


@dataclass(frozen=True)
class Figure:
    value: float
    low: float
    high: float
    estimator: str

    def record(self, name: str) -> dict:
        """The review's and the API's entry: ``{value, ci, estimator, definition}``."""
        return {"value": _num(self.value), "ci": [_num(self.low), _num(self.high)],
                "estimator": self.estimator, "definition": definition(name).formula}


def _num(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), 6)


# ---- a run's outcomes and lead histories ------------------------------------------------------

@dataclass
class Run:
    """What the metrics read of one run: per game (a deal or match, or one copy of a duplicate
    one) its seats' win shares and strategies, the unit it belongs to, and the lead history."""

    name: str
    meta: dict
    keys: pl.DataFrame  # per game: the unit column and, with --duplicate, rotation
    wins: np.ndarray  # (games, p) win shares
    strategy: np.ndarray  # (games, p) strategy name per seat
    unit: np.ndarray  # (games,) the independent unit (deal or match number)
    leads: pl.DataFrame | None
    # its lead histories as arrays, made once: every estimate-based metric reads them
    histories: Histories | None = field(default=None, repr=False, compare=False)

    @property
    def p(self) -> int:
        return self.meta["players"]

    @property
    def strata(self) -> np.ndarray | None:
        """Per unit of :meth:`units`, its ``--rotate`` stratum."""
        rotate = self.meta.get("rotate") and not self.meta.get("duplicate")
        return self.units() % self.p if rotate else None

    def units(self) -> np.ndarray:
        return np.unique(self.unit)

    def lineup(self) -> list[str]:
        return list(self.meta["lineup"])


def read(source) -> Run:
    """A finished run folder (a path), or a run's tables (an object with ``meta``, ``seats``,
    ``matches`` and ``leads``, as ``simtool.run`` returns)."""
    if isinstance(source, Run):
        return source
    if isinstance(source, (str, Path)):
        folder = Path(source).expanduser()  # "~/runs/x" as a shell reads it, as simtool.run(out=...) does
        meta, seats, matches = load(folder)
        leads = None
        if meta.get("leads"):
            path = folder / "leads.parquet"
            if not path.is_file():
                raise SimtoolError(f"{path} is missing, though run.json says the run recorded lead "
                                   f"histories; the run folder is incomplete: run it again")
            try:
                leads = pl.read_parquet(native(path), glob=False)
            except (pl.exceptions.PolarsError, OSError):  # as a damaged seats table: one line
                raise SimtoolError(f"{path} is not a readable table (damaged inside); run it again") from None
        # only what the metrics read: a large run's other columns stay on disk
        wanted = [c for c in ("deal", "match", "rotation", "seat", "strategy", "win")
                  if c in seats.collect_schema().names()]
        if meta["unit"] == "match":
            return from_tables(str(folder), meta, None, matches.select(
                [c for c in wanted if c in matches.collect_schema().names()]).collect(), leads)
        return from_tables(str(folder), meta, seats.select(wanted).collect(), None, leads)
    if not all(hasattr(source, name) for name in ("meta", "seats", "matches")):
        # a table (result.seats) lacks the run's record, which says who played and how
        given = f"a table ({type(source).__name__})" if _is_table(source) else shown(source)
        raise SimtoolError(f"bad source {given}; expected a finished run folder (str or pathlib.Path) "
                           f"or a result of simtool.run")
    name = str(getattr(source, "path", None) or "the run")
    frames = {"seats": source.seats, "matches": source.matches, "leads": getattr(source, "leads", None)}
    # a notebook's lazy, pandas or cut frames: polars' TypeError, AttributeError or ColumnNotFoundError
    frames = {k: v.collect() if isinstance(v, pl.LazyFrame) else v for k, v in frames.items()}
    unit = "match" if source.meta.get("unit") == "match" else "deal"
    rows = frames["matches" if unit == "match" else "seats"]
    wanted = [unit, *(["rotation"] if source.meta.get("duplicate") else []), "seat", "strategy", "win"]
    for kind, frame in frames.items():
        if frame is not None and not isinstance(frame, pl.DataFrame):
            raise SimtoolError(f"metrics: {name}'s {kind} is a {type(frame).__module__.partition('.')[0]} "
                               f"{type(frame).__name__}; expected a polars DataFrame, as simtool.run returned it")
    if rows is None or (missing := [c for c in wanted if c not in rows.columns]):
        raise SimtoolError(f"metrics: {name}'s {'matches' if unit == 'match' else 'seats'} lack "
                           f"{', '.join(missing) if rows is not None else 'every column'} (the metrics read "
                           f"{', '.join(wanted)}); give the tables as simtool.run returned them")
    return from_tables(name, source.meta, frames["seats"], frames["matches"], frames["leads"])


def _is_table(value) -> bool:
    """A polars or pandas frame or column (asking a LazyFrame for ``columns`` resolves its schema)."""
    return type(value).__name__ in ("DataFrame", "LazyFrame", "Series")


def from_tables(name: str, meta: dict, seats: pl.DataFrame | None, matches: pl.DataFrame | None,
                leads: pl.DataFrame | None) -> Run:
    """A :class:`Run` from a run's tables: the seat rows of deals, or the match rows of whole
    matches (the other may be ``None``), and the lead history if any."""
    p = meta["players"]
    rows = matches if meta["unit"] == "match" else seats
    key = "match" if meta["unit"] == "match" else "deal"
    keys = [key, "rotation"] if meta.get("duplicate") else [key]
    rows = rows.sort(*keys, "seat")
    try:
        wins = stats.panel(rows, "win", p).astype(float)
    except ValueError:  # a Result whose table was cut to some seats, or two runs' tables joined
        raise SimtoolError(f"metrics: {name}'s table does not hold one row per {key} and seat (0..{p - 1}); give "
                           f"a run folder, or a run's tables as simtool.run returned them (a table cut to some "
                           f"{key}s is read as it is, cut to some seats or joined with another run's is not)") from None
    strategy = stats.panel(rows.with_columns(pl.col("strategy").cast(pl.String)), "strategy", p)
    game_keys = rows.filter(pl.col("seat") == 0).select(keys)
    return Run(name, meta, game_keys, wins, strategy, game_keys[key].to_numpy(), leads)


# ---- outcome metrics --------------------------------------------------------------------------

def _share(run: Run, k: np.ndarray, m: np.ndarray | None = None, z: float = stats.Z95):
    return stats.unit_estimate(k, m, run.strata, share=True, units=run.unit, z=z)


def _outcome(run: Run, what: str) -> str:
    units = "matches" if run.meta["unit"] == "match" else "deals"
    # counted in the tables read: a Result cut to its first 100 deals was "400 deals" (run.json's n)
    return (f"{what}: {len(run.units()):,} {units} of {_lineup(run)} ({run.name}); "
            f"interval on {units}" + (", duplicate copies together" if run.meta.get("duplicate") else ""))


def _lineup(run: Run) -> str:
    names = run.lineup()
    if len(set(names)) == 1:
        return f"{names[0]} at every seat"
    return "line-up " + ", ".join(names) + (" (rotated)" if run.meta.get("rotate") else "")


def fairness_value(w: float, n: int) -> float:
    """CardStock's fairness of a first-seat win share ``w`` at ``n`` seats (1 at ``w = 1/n``)."""
    return w * n if w <= 1 / n else n / (n - 1) * (1 - w)


def fairness(source, seat: int = 0, play: str = "random") -> Figure:
    """CardStock's fairness: the first seat's win share under all-random play; ``seat`` and
    ``play`` (a strategy at every seat) give the same formula for another seat or another play,
    which :func:`compute` names as such (``fairness (pimc play, seat 2)``)."""
    run = read(source)
    if not isinstance(play, str):
        raise bad("play", play, "a strategy's name such as 'random'")
    # seat -1 was numpy's last seat under the label "seat -1", seat 3 of 3 an IndexError
    if not whole(seat) or not 0 <= seat < run.p:
        raise bad("seat", seat, f"a seat of {run.name}'s {run.p} players, 0 to {run.p - 1}")
    seat = int(seat)
    if set(run.lineup()) != {play}:
        mode = "all-random play (CardStock's first mode)" if play == "random" else f"{play} at every seat"
        raise Misfit(f"fairness needs {mode}; {run.name} plays {_lineup(run)}: run it with "
                     f"--strategy {play}")
    n = run.p
    w, low, high = _share(run, run.wins[:, seat])
    ends = [fairness_value(low, n), fairness_value(high, n)]
    # the formula peaks at w = 1/n: an interval of w holding 1/n reaches fairness 1
    top = 1.0 if low <= 1 / n <= high else max(ends)
    return Figure(fairness_value(w, n), min(ends), top, _outcome(run, f"seat {seat}'s win share"))


def fairness_names(run: Run) -> dict[str, tuple[int, str]]:
    """Every fairness a run with one strategy at every seat gives: name -> (seat, play). Only
    seat 0 under random play is CardStock's ``fairness``; the others say their seat and play."""
    plays = set(run.lineup())
    if len(plays) != 1:
        return {}
    play = plays.pop()
    found = {}
    for seat in range(run.p):
        parts = ([] if play == "random" else [f"{play} play"]) + ([f"seat {seat}"] if seat else [])
        found["fairness" + (f" ({', '.join(parts)})" if parts else "")] = (seat, play)
    return found


def order(source) -> Figure:
    """CardStock's order: the win share of one strongest-play seat among random seats."""
    run = read(source)
    names = run.lineup()
    strong = [s for s in names if s != "random"]
    if len(strong) != 1 or names.count("random") != run.p - 1:
        raise Misfit(f"order needs one strongest-play seat among random seats (CardStock's second "
                     f"mode); {run.name} plays {_lineup(run)}: run it with --strategy random "
                     f"--seat 0=pimc")
    held = run.strategy == strong[0]
    a, low, high = _share(run, (run.wins * held).sum(axis=1), held.sum(axis=1))
    e = 1 / run.p
    scale = lambda x: (x - e) / (1 - e)  # noqa: E731 - increasing: the interval maps end to end
    return Figure(scale(a), scale(low), scale(high), _outcome(run, f"win share of {strong[0]}"))


def _seats_alike(run: Run, name: str) -> None:
    """Refuse a seat figure of Ludii's (the same agent in every seat) from a fixed line-up of
    several strategies: ``advantage_p1`` of pimc in seat 0 among random seats was pimc's win share
    (0.496 at 3 players), the search's strength, not the first seat's advantage."""
    if len(set(run.lineup())) > 1 and not (run.meta.get("rotate") or run.meta.get("duplicate")):
        raise Misfit(f"{name} needs one strategy at every seat, or the line-up rotated (Ludii plays the "
                     f"same agent in every seat); {run.name} plays {_lineup(run)}: run it with one "
                     f"--strategy, or with --rotate")


def advantage_p1(source) -> Figure:
    run = read(source)
    _seats_alike(run, "advantage_p1")
    return Figure(*_share(run, run.wins[:, 0]), _outcome(run, "seat 0's win share"))


def drawishness(source) -> Figure:
    run = read(source)
    return Figure(*_share(run, (run.wins.max(axis=1) < 1).astype(float)),
                  _outcome(run, "games without a sole winner"))


def balance(source) -> Figure:
    """Ludii's balance. Its interval: Bonferroni-adjusted intervals of every pairwise difference
    of seat win shares (they hold together 95% of the time), carried through ``1 - max |.|``:
    the estimate's own bootstrap cannot reach the true value 1 of an exactly balanced game."""
    run = read(source)
    _seats_alike(run, "balance")
    p = run.p
    pairs = [(a, b) for a in range(p) for b in range(a + 1, p)]
    z = NormalDist().inv_cdf(1 - 0.025 / len(pairs))
    strata = run.strata
    near, far, gap = 0.0, 0.0, 0.0
    for a, b in pairs:
        # a difference of two win shares lies in [-1, 1], so (d + 1) / 2 is a share: simtool's
        # interval for shares keeps 1 or 2 deals, or a pair whose difference never varies (one
        # seat wins every deal), as wide as they are (a normal interval had width 0 there, or none)
        half, lo, hi = stats.unit_estimate((run.wins[:, a] - run.wins[:, b] + 1) / 2, None, strata,
                                           share=True, units=run.unit, z=z)
        diff, low, high = 2 * half - 1, 2 * lo - 1, 2 * hi - 1
        gap = max(gap, abs(diff))
        far = max(far, abs(low), abs(high))
        near = max(near, 0.0 if low <= 0 <= high else min(abs(low), abs(high)))
    return Figure(1 - gap, 1 - far, 1 - near,
                  _outcome(run, "seat win shares (pairwise differences, Bonferroni)"))


def duplicate_gain(source) -> Figure:
    """Plain over duplicate variance of the win share of line-up position 0's strategy."""
    run = read(source)
    names = run.lineup()
    if not run.meta.get("duplicate") or len(set(names)) < 2:
        raise Misfit(f"duplicate_gain needs a --duplicate run of two or more strategies; {run.name} "
                     f"is {'a duplicate run of one strategy' if run.meta.get('duplicate') else 'not a duplicate run'}")
    p = run.p
    held = run.strategy == names[0]
    k, m = (run.wins * held).sum(axis=1), held.sum(axis=1).astype(float)
    rotation = run.keys["rotation"].to_numpy()
    units, at = np.unique(run.unit, return_inverse=True)
    # per deal: the sums of its copies together (duplicate), and of each copy alone by rotation
    sums = np.zeros((len(units), 6 * (p + 1)))
    K, M = np.bincount(at, k, len(units)), np.bincount(at, m, len(units))
    sums[:, :6] = np.stack([K, M, K * K, K * M, M * M, (M > 0)], axis=1)
    for r in range(p):
        copy = rotation == r
        kr = np.bincount(at[copy], k[copy], len(units))
        mr = np.bincount(at[copy], m[copy], len(units))
        sums[:, 6 * (r + 1):6 * (r + 2)] = np.stack([kr, mr, kr * kr, kr * mr, mr * mr, mr > 0], axis=1)

    def gain(t: np.ndarray) -> np.ndarray:
        t = np.atleast_2d(t)
        ones = t[:, 5:6]
        _, dup, *_ = stats._estimate(*(t[:, i:i + 1] for i in range(6)), ones)
        per = t[:, 6:].reshape(len(t), p, 6)
        _, rot, *_ = stats._estimate(*(per[:, :, i] for i in range(6)), per[:, :, 5])
        # a duplicate variance of rounding noise is none: safe against five spoilers won exactly
        # one copy of every deal of Trickster, and the resamples whose sums came out 1e-17 instead
        # of 0 read "duplicate_gain - (no value), 2279595471273984.5 to 3572445227589304.5"
        dup = np.where(dup <= 1e-12 * rot, 0.0, dup)
        with np.errstate(divide="ignore", invalid="ignore"):
            return rot / dup

    value = float(gain(sums.sum(axis=0))[0])
    low, high = _bootstrap(sums, gain)
    return Figure(value, low, high, _outcome(run, f"win share of {names[0]}, plain against duplicate"))


def _bootstrap(sums, statistic, strata=None) -> tuple[float, float]:
    """:func:`stats.cluster_bootstrap`, but no interval (NaN, NaN) where every resample gives the
    same value: units that do not vary (two identical games, or a strategy that plays every deal
    alike) show no variation to resample, and a zero-width interval would call an unbounded figure
    known exactly from them. Identical games still give resamples a rounding apart (their sums
    are added in another order), so the ends are compared to within that."""
    low, high = stats.cluster_bootstrap(sums, statistic, strata)
    return (math.nan, math.nan) if math.isclose(low, high, rel_tol=1e-9, abs_tol=1e-12) else (low, high)


# ---- estimate-based metrics -------------------------------------------------------------------

@dataclass
class Histories:
    """A run's lead histories as arrays: one row per decision, games in order."""

    game: np.ndarray  # (T,) index into the run's games
    t: np.ndarray  # (T,) decision number within its game
    est: np.ndarray  # (T, p) estimated standing per seat
    acting: np.ndarray  # (T,) acting seat, -1 every seat at once
    choices: np.ndarray  # (T,) mean legal options of the acting seat(s)
    spread: np.ndarray  # (T, p) a search's spread of option estimates (NaN elsewhere)
    forced: np.ndarray  # (T, p) the seat chose, with one legal option
    moves: np.ndarray  # (G,) decisions per game
    games: np.ndarray  # (G,) index into the run's games (rows of Run.wins)


def histories(run: Run) -> Histories:
    """The run's lead histories as arrays: sorted and checked once per run, then shared (read-only)
    by every metric of it (the sort was most of a metric's time)."""
    if run.histories is None:
        run.histories = _histories(run)
    return run.histories


def _histories(run: Run) -> Histories:
    if run.leads is None:
        raise Misfit(f"{run.name} recorded no lead histories: run it again with --lead-history K")
    p = run.p
    keys = list(run.keys.columns)
    order = [*keys, *(["round"] if "round" in run.leads.columns else []), "decision", "seat"]
    leads = run.leads.sort(order)
    if leads.height % p or not np.array_equal(leads["seat"].to_numpy().reshape(-1, p),
                                              np.broadcast_to(np.arange(p), (leads.height // p, p))):
        raise SimtoolError(f"{run.name}: the lead history does not hold every seat at every decision")
    per = leads.filter(pl.col("seat") == 0).select(keys).with_row_index("_row")
    found = per.join(run.keys.with_row_index("_game"), on=keys, how="left").sort("_row")["_game"]
    if found.null_count():
        raise SimtoolError(f"{run.name}: the lead history names games the run's tables do not hold")
    game_of = found.to_numpy()
    starts = np.flatnonzero(np.r_[True, game_of[1:] != game_of[:-1]])
    moves = np.diff(np.r_[starts, len(game_of)])
    game = np.repeat(np.arange(len(starts)), moves)
    t = np.arange(len(game_of)) - np.repeat(starts, moves)
    choices = leads["choices"].cast(pl.Float64).fill_null(np.nan).to_numpy().reshape(-1, p)
    counted = np.isfinite(choices).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):  # a decision no seat acted at: NaN
        acting_choices = np.nansum(choices, axis=1) / counted
    arrays = [game, t, leads["estimate"].cast(pl.Float64).to_numpy().reshape(-1, p),
              leads["acting"].to_numpy()[::p].astype(np.int64), acting_choices,
              leads["spread"].cast(pl.Float64).fill_null(np.nan).to_numpy().reshape(-1, p),
              choices == 1, moves, game_of[starts]]
    for a in arrays:  # shared by the metrics: none may change another's
        a.setflags(write=False)
    return Histories(*arrays)


def _lead_estimator(run: Run, what: str, interval: str) -> str:
    lh = run.meta.get("lead_history", {})
    units = "matches" if run.meta["unit"] == "match" else "deals"
    how = "; ".join(f"{name}: {text}" for name, text in lh.get("estimator", {}).items())
    return (f"{what}, lead histories of {lh.get('sampled', '?')} {units} ({lh.get('sample', '')}) "
            f"of {_lineup(run)} ({run.name}); estimates: {how}; interval: {interval} over {units}")


def _by_unit(run: Run, h: Histories, columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
    """Per-game columns summed per independent unit: the rows the bootstrap draws."""
    units, at = np.unique(run.unit[h.games], return_inverse=True)
    sums = np.stack([np.bincount(at, np.nan_to_num(c), len(units)) for c in columns], axis=1)
    strata = units % run.p if run.strata is not None else None
    return sums, strata


def _ratio(run: Run, h: Histories, num: np.ndarray, den: np.ndarray, what: str,
           bound: float | None = 1.0, flip: bool = False) -> Figure:
    """``sum num / sum den`` over games (``1 -`` that with ``flip``), with its 95% interval on
    units. A figure whose per-game values lie between 0 and ``bound`` gets simtool's interval
    for shares on the scaled values (Wilson on the effective sample size, which stays honest
    where a small run's games do not vary at all, as a bootstrap would not); an unbounded one
    (``bound=None``) the clustered percentile bootstrap."""
    games_unit = run.unit[h.games]
    if bound is not None:
        # the strata of the units holding histories, in np.unique order as unit_estimate sums them
        strata = np.unique(games_unit) % run.p if run.strata is not None else None
        value, low, high = (bound * x for x in stats.unit_estimate(
            np.nan_to_num(num) / bound, den, strata, share=True, units=games_unit))
    else:
        sums, strata = _by_unit(run, h, [num, den])

        def stat(t):
            with np.errstate(divide="ignore", invalid="ignore"):
                return t[:, 0] / t[:, 1]

        value = float(stat(sums.sum(axis=0, keepdims=True))[0])
        low, high = _bootstrap(sums, stat, strata)
    if flip:
        value, low, high = 1 - value, 1 - high, 1 - low
    interval = "share interval" if bound is not None else "bootstrap"
    return Figure(value, low, high, _lead_estimator(run, what, interval))


def _mean_over_games(run: Run, h: Histories, per_game: np.ndarray, what: str,
                     bound: float | None = 1.0) -> Figure:
    valid = np.isfinite(per_game)
    return _ratio(run, h, np.where(valid, per_game, 0.0), valid.astype(float), what, bound)


def _winners(run: Run, h: Histories) -> tuple[np.ndarray, np.ndarray]:
    """Per game of the histories: its sole winner (-1 where the win is shared) and which seats
    won any share ``(G, p)``."""
    wins = run.wins[h.games]
    sole = np.where(wins.max(axis=1) == 1, wins.argmax(axis=1), -1)
    return sole, wins > 0


def _group_max(values: np.ndarray, h: Histories) -> np.ndarray:
    starts = np.r_[0, np.cumsum(h.moves)[:-1]]
    return np.maximum.reduceat(values, starts)


def _group_sum(values: np.ndarray, h: Histories) -> np.ndarray:
    return np.bincount(h.game, values, len(h.moves))


def threshold(n: int) -> float:
    """CardStock's drama threshold as its blog defines it: ``(1 + (n-2)/(n-1)) / 2``."""
    return (1 + (n - 2) / (n - 1)) / 2


# leads.parquet stores estimates as float32: a standing of exactly d (5/6, two seats tied for
# first at 4 seats; 0.9 at 6) reads back a hair under d, and would count as below it. Distinct
# estimates (means of scaled ranks over the worlds) lie much further apart than this.
AT_D = 1e-6


def _below_d(est: np.ndarray, d: float) -> np.ndarray:
    return est < d - AT_D


def _winner_path(run: Run, h: Histories) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CardStock's "winning player's path through the lead history": per game, whether it has a
    sole winner; per decision, that winner's estimate (at every decision of the game, whoever
    acted: the blog's lead history holds every player's estimate at each decision, and its
    security divides by "the total number of moves in the game") and whether it is below d."""
    sole, _ = _winners(run, h)
    w = sole[h.game]
    est = h.est[np.arange(len(w)), np.maximum(w, 0)]
    return sole >= 0, est, (w >= 0) & _below_d(est, threshold(run.p))


def drama(source) -> Figure:
    run = read(source)
    h = histories(run)
    has_winner, est, below = _winner_path(run, h)
    d = threshold(run.p)
    depth = _group_sum(np.where(below, np.sqrt(np.maximum(d - est, 0)), 0.0), h)
    count = _group_sum(below.astype(float), h)
    # a game whose winner never dips below d has drama 0 (CardStock's analysis and Drama.cs's
    # comment), and counts as such in the mean over games
    per_game = np.where(count > 0, depth / np.maximum(count, 1), 0.0)
    return _mean_over_games(run, h, np.where(has_winner, per_game, np.nan),
                            f"per game, the sole winner's estimates below d = {d:.3f} at every decision",
                            bound=math.sqrt(d))


def security(source) -> Figure:
    run = read(source)
    h = histories(run)
    has_winner, _, below = _winner_path(run, h)
    per_game = 1 - _group_sum(below.astype(float), h) / h.moves
    return _mean_over_games(run, h, np.where(has_winner, per_game, np.nan),
                            f"per game, the decisions at which the sole winner stood at or above "
                            f"d = {threshold(run.p):.3f}")


def spread(source) -> Figure:
    run = read(source)
    h = histories(run)
    got = np.isfinite(h.spread)
    if not got.any():
        raise Misfit(f"spread needs a search seat's own estimates of its options; {run.name} "
                     f"plays {_lineup(run)}: put pimc in a seat")
    # CardStock's AI records every decision it makes, a forced one too (its one move is its best
    # and its worst: spread 0, in the mean); simtool's search reports none where it has no choice
    strategy = run.strategy[h.games][h.game]
    forced = h.forced & np.isin(strategy, np.unique(strategy[got]))
    per_game_sum = _group_sum(np.where(got, h.spread, 0).sum(axis=1), h)
    per_game_count = _group_sum((got | forced).sum(axis=1).astype(float), h)
    return _ratio(run, h, per_game_sum, per_game_count, "a search's option estimates at its decisions")


def convergence(source) -> Figure:
    run = read(source)
    h = histories(run)
    y, t = h.choices, h.t.astype(float)
    ok = np.isfinite(y)
    n = _group_sum(ok.astype(float), h)
    st, sy = _group_sum(np.where(ok, t, 0), h), _group_sum(np.where(ok, y, 0), h)
    stt, sty = _group_sum(np.where(ok, t * t, 0), h), _group_sum(np.where(ok, t * y, 0), h)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (sty - st * sy / n) / (stt - st * st / n)
    per_game = np.where(n >= 2, 1 - (slope / 2 + 0.5), np.nan)
    return _mean_over_games(run, h, per_game, "the acting seat's legal options per decision", bound=None)


def _leaders(h: Histories) -> np.ndarray:
    top = h.est.max(axis=1, keepdims=True)
    return ((h.est == top) * (1 << np.arange(h.est.shape[1]))).sum(axis=1)


def lead_change(source) -> Figure:
    run = read(source)
    h = histories(run)
    leaders = _leaders(h)
    changed = np.r_[False, (leaders[1:] != leaders[:-1]) & (h.game[1:] == h.game[:-1])]
    return _mean_over_games(run, h, _group_sum(changed.astype(float), h) / h.moves,
                            "the seats with the highest estimate at each decision")


def _threshold_per_game(run: Run, h: Histories) -> np.ndarray:
    _, won = _winners(run, h)
    losers = ~won[h.game]
    best = _group_max(np.where(losers, h.est, -np.inf).max(axis=1), h)
    return np.where(np.isfinite(best), best, np.nan)


def decisiveness_threshold(source) -> Figure:
    run = read(source)
    h = histories(run)
    return _mean_over_games(run, h, _threshold_per_game(run, h),
                            "the highest estimate of a seat that won nothing")


def decisiveness_moves(source) -> Figure:
    run = read(source)
    h = histories(run)
    limit = _threshold_per_game(run, h)
    _, won = _winners(run, h)
    top = np.where(won[h.game], h.est, -np.inf).max(axis=1)
    above = top > limit[h.game]
    first = np.minimum.reduceat(np.where(above, h.t, np.iinfo(np.int64).max),
                                np.r_[0, np.cumsum(h.moves)[:-1]])
    per_game = np.where(first < h.moves, first / h.moves, 1.0)
    per_game = np.where(np.isfinite(limit), per_game, np.nan)
    return _mean_over_games(run, h, per_game, "the first decision a winner's estimate passes "
                                              "the decisiveness threshold")


def drama_ludii(source) -> Figure:
    run = read(source)
    h = histories(run)
    _, won = _winners(run, h)
    # Ludii's Drama.java averages the gap over every highest-ranked player: a shared win is not
    # read at its best winner alone
    won = won[h.game]
    gap = h.est.max(axis=1) - (h.est * won).sum(axis=1) / won.sum(axis=1)
    return _mean_over_games(run, h, _group_sum(gap, h) / h.moves,
                            "the highest estimate minus the eventual winners' mean, per decision")


def stability(source) -> Figure:
    run = read(source)
    h = histories(run)
    n = h.moves[:, None].astype(float)
    s1 = np.stack([_group_sum(h.est[:, s], h) for s in range(run.p)], axis=1)
    s2 = np.stack([_group_sum(h.est[:, s] ** 2, h) for s in range(run.p)], axis=1)
    var = np.maximum(s2 / n - (s1 / n) ** 2, 0).sum(axis=1)
    return _mean_over_games(run, h, var, "each seat's estimates over the game (population variance)",
                            bound=None)


FUNCTIONS: dict[str, Callable[..., Figure]] = {
    "fairness": fairness, "order": order, "convergence": convergence, "spread": spread,
    "drama": drama, "security": security, "balance": balance, "advantage_p1": advantage_p1,
    "drawishness": drawishness, "lead_change": lead_change,
    "decisiveness_threshold": decisiveness_threshold, "decisiveness_moves": decisiveness_moves,
    "drama_ludii": drama_ludii, "stability": stability, "duplicate_gain": duplicate_gain,
}


def compute(source) -> dict[str, Figure]:
    """Every metric whose line-up and records fit the run, by name (in :data:`DEFINITIONS`'s
    order); the others are left out."""
    run = read(source)
    found = {name: fairness(run, seat, play) for name, (seat, play) in fairness_names(run).items()}
    for name, function in FUNCTIONS.items():
        if name == "fairness":
            continue
        try:
            found[name] = function(run)
        except Misfit:
            continue
    return found


@called("simtool.metrics")
def metrics(sources) -> dict[str, dict]:
    """``name -> {value, ci, estimator, definition}`` for a run folder (or a run's tables), or for
    several (each metric from the first of them whose line-up fits it: an all-random run for
    fairness, one search among random seats for order, a run with lead histories for the rest).
    ``ci`` is the 95% interval ``[low, high]`` (``None`` where it cannot be had)."""
    # a table is one source (refused as such by read), not a list of its columns
    one = isinstance(sources, (str, Path)) or hasattr(sources, "meta") or _is_table(sources)
    if not one and (not isinstance(sources, Iterable) or isinstance(sources, (bytes, Mapping))):  # metrics(5)
        # quoted as every bad value is (errors.bad): a dict of results was its whole repr, tables and all
        raise bad("sources", sources, "a finished run folder (str or pathlib.Path), a result of simtool.run, "
                                      "or a list of them")
    runs = [sources] if one else list(sources)
    if not runs:
        raise SimtoolError("metrics: give a finished run folder, or a list of them")
    read_runs = [read(run) for run in runs]
    _one_game(read_runs)
    found: dict[str, dict] = {}
    for run in read_runs:
        for name, figure in compute(run).items():
            found.setdefault(name, figure.record(name))
    order = list(DEFINITIONS)
    return dict(sorted(found.items(), key=lambda kv: (order.index(kv[0].partition(" (")[0]), kv[0])))


def _game_of(run: Run) -> str:
    """A run's game as the metrics compare runs: the game, its player count and its rules."""
    rules = ", ".join(f"{k}={v}" for k, v in sorted(run.meta.get("rules", {}).items()))
    return f"{run.meta.get('game')} at {run.p} players ({rules or 'no rule options'})"


def _one_game(runs: list[Run]) -> None:
    """Refuse runs of several games, player counts or rules: each metric taken from the first run
    it fits made one dict of figures from two games (fairness at 3 players, 'fairness (seat 3)'
    from a 4-player run)."""
    first = _game_of(runs[0])
    other = next((run for run in runs if _game_of(run) != first), None)
    if other is not None:
        raise SimtoolError(f"metrics are of one game: {runs[0].name} is {first}, {other.name} is "
                           f"{_game_of(other)}; give the runs of one game, player count and rules "
                           f"(or each run alone)")


def for_review(folders: Iterable, root: Path | None = None) -> dict[str, dict]:
    """The review's ``metrics`` entry: :func:`metrics` of its run folders, each folder named
    from ``root`` (the review's own folder), so that a review reads the same wherever it ran."""
    found = metrics(list(folders))
    if root is None:
        return found
    prefix = f"{Path(root)}{os.sep}"
    return {name: {**entry, "estimator": entry["estimator"].replace(prefix, "")} for name, entry in found.items()}
