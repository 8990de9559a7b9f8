"""Coverage of every kind of interval simtool prints, against a known truth.

Each case replicates small runs and counts how often the 95% interval of each figure covers
the truth. Replicates are consecutive blocks of one large run (deals, and matches, are
independent of each other, so blocks are independent runs); the truth is the same figure
over the whole large run (its own error is a few percent of a replicate's interval), or is
known by construction for simulated data and for the seat test's null. The tests assert
each coverage within its binomial tolerance of 95% (of 5% for a test's rejection rate);
``make calibrate`` runs more replicates and prints the table:

    python -m tests.calibration [--replicates 1000]
"""

from __future__ import annotations

import argparse
import functools
import math
import time
from dataclasses import dataclass
from unittest import mock

import numpy as np
import polars as pl

import simtool
from simtool import games, stats
from simtool.analysis import Analysis, summary
from simtool.analysis import of as analysis_of
from simtool.analysis import out_trumped as out_trumped_analysis
from simtool.reports import balance as report

SIGMAS = 3.5
"""Tolerance, in binomial standard errors of the coverage: the suite checks about fifty
figures, so a correct interval fails one of them by chance rarely (0.05% each)."""


@dataclass
class Coverage:
    case: str
    figure: str
    covered: int
    replicates: int
    level: float = 0.95  # the coverage asked for (for a test: 1 - its size)

    @property
    def rate(self) -> float:
        return self.covered / self.replicates

    @property
    def tolerance(self) -> float:
        return SIGMAS * math.sqrt(self.level * (1 - self.level) / self.replicates)

    @property
    def ok(self) -> bool:
        return abs(self.rate - self.level) <= self.tolerance


def covers(low, high, truth) -> np.ndarray:
    low, high, truth = (np.asarray(a, float) for a in (low, high, truth))
    return (low <= truth) & (truth <= high)


def big_run(game: str, n: int, unit: str = "deal", seed: int = 1, rotate: bool = False,
            seat0: str | None = None, rules: tuple = ()) -> simtool.api.Result:
    """The run, played once per process: a rule at its default value names the same run as
    leaving it out (Kansas City's pass_count=3 is the sheet's, which other cases play)."""
    defaults = {o.name: o.default for o in games.get(game).options}
    return _big_run(game, n, unit, seed, rotate, seat0, tuple(sorted((k, v) for k, v in rules if defaults[k] != v)))


@functools.cache
def _big_run(game: str, n: int, unit: str, seed: int, rotate: bool, seat0: str | None,
             rules: tuple) -> simtool.api.Result:
    return simtool.run(game, n, unit=unit, seed=seed, rotate=rotate, jobs=1, rules=dict(rules),
                       seats={0: seat0} if seat0 else None)


def blocks(frame: pl.DataFrame, size: int, count: int) -> list[pl.DataFrame]:
    """The first ``count`` blocks of ``size`` deals (or matches) of a run's rows."""
    key = stats.unit_key(frame)
    parts = frame.filter(pl.col(key) < size * count).with_columns((pl.col(key) // size).alias("_rep")) \
        .partition_by("_rep", maintain_order=True, include_key=False)
    return parts


def direct(rows: pl.DataFrame, by: list[str], figures: dict[str, pl.Expr]) -> pl.DataFrame:
    """The truth: each figure over every row of the large run, as a plain mean per group
    (computed here, not by the code under test)."""
    return rows.group_by(by).agg(**{name: e.cast(pl.Float64).mean() for name, e in figures.items()})


def by_groups(case: str, tables: list[pl.DataFrame], truth: pl.DataFrame, keys: list[str],
              figures: dict[str, str]) -> list[Coverage]:
    """Coverage of ``figures`` (column -> label) per group of ``keys``, pooled over groups."""
    strings = [pl.col(k).cast(pl.String) for k in keys]
    # every replicate's table in one frame, joined to the truth once (a join per table and figure
    # was most of this function's time); a row's coverage does not depend on its neighbours
    rows = pl.concat([t.with_columns(strings).select(*keys, *(f"{c}_{e}" for c in figures for e in ("low", "high")))
                      for t in tables])
    joined = rows.join(truth.select(*strings, *(pl.col(c).alias(f"_truth_{c}") for c in figures)), on=keys)
    groups = truth.height
    out = []
    for column, label in figures.items():
        covered = int(covers(joined[f"{column}_low"], joined[f"{column}_high"], joined[f"_truth_{column}"]).sum())
        # covering events of one replicate's groups are dependent: count replicates, not rows
        out.append(Coverage(case, f"{label} ({groups} groups pooled)", round(covered / groups),
                            round(joined.height / groups)))
    return out


def case_seat_rates_and_means(r: int, deals: int = 1000) -> list[Coverage]:
    """Per seat: win share and overshoot rate (Wilson), mean score (clustered mean); deals."""
    game = games.get("kansas-city")
    run = big_run("kansas-city", deals * r)
    truth = direct(run.seats, ["seat", "strategy"], {"win": pl.col("win"), "score": pl.col("score"),
                                                     "overshoot": analysis_of(game).rates["overshoot"]})
    tables = [summary.seat_summary(game, part.lazy()) for part in blocks(run.seats, deals, r)]
    return by_groups("per seat, deals (Kansas City 4p)", tables, truth, ["seat", "strategy"],
                     {"win": "win share", "overshoot": "overshoot rate (Wilson)", "score": "mean score"})


def case_pooled_strategy_constructed(r: int) -> list[Coverage]:
    """By strategy, seats pooled, where seats of one deal rise together: each deal has a
    chance ``u`` of 2% or 70% (half the deals each), and each of its four seats has the
    outcome with that chance; strategy a holds three seats, b one. Truth: 36%."""
    size, p = 500, 4
    rng = np.random.default_rng(5)
    u = np.where(rng.random(size * r) < 0.5, 0.02, 0.7)
    flag = rng.random((size * r, p)) < u[:, None]
    rows = pl.DataFrame({"deal": np.repeat(np.arange(size * r), p), "seat": np.tile(np.arange(p), size * r),
                         "strategy": np.tile(["a", "a", "a", "b"], size * r), "score": 0, "win": 0.25,
                         "tricks": 0, "flag": flag.reshape(-1)})

    class Constructed:  # what the analysis reads of a game: its rates, the columns they read, its match columns
        id, columns, match_columns = "constructed", {"flag": np.bool_}, {}
        analysis = Analysis(rates={"flag": pl.col("flag")})

    covered = [summary.seat_summary(Constructed, part.lazy(), by=("strategy",)).filter(pl.col("strategy") == "a")
               .select(pl.col("flag_low") <= 0.36, pl.col("flag_high") >= 0.36).row(0)
               for part in blocks(rows, size, r)]
    return [Coverage("by strategy, seats pooled (constructed)", "rate of the strategy at 3 seats",
                     sum(a and b for a, b in covered), r)]


def case_rotated_strategies(r: int, deals: int = 1000) -> list[Coverage]:
    """Rotated Out-Trumped, random against three hoarders: the summary by strategy (seats
    pooled) and the report's strategy strength, both on deals within rotation strata."""
    game = games.get("out-trumped")
    run = big_run("out-trumped", deals * r, rotate=True, seat0="random")
    truth = direct(run.seats, ["strategy"], {"win": pl.col("win"), "score": pl.col("score"),
                                             "out-trumped": analysis_of(game).rates["out-trumped"]})
    parts = blocks(run.seats, deals, r)
    tables = [summary.seat_summary(game, part.lazy(), by=("strategy",), strata=4) for part in parts]
    out = by_groups("by strategy, seats pooled, rotated (Out-Trumped 4p)", tables, truth, ["strategy"],
                    {"win": "win share", "out-trumped": "out-trumped rate", "score": "mean score"})
    names = ["random", "hoarder"]
    strength = []
    for part in parts:
        win = stats.panel(part, "win", 4)
        codes = stats.panel(part.with_columns((pl.col("strategy").cast(pl.String) == "hoarder").cast(pl.Int8)
                                              .alias("code")), "code", 4)
        strength.append(stats.strategy_strength(win, codes, names, stats.panel(part, "deal", 4)[:, 0] % 4))
    out += by_groups("strategy strength, rotated (Out-Trumped 4p)", strength, truth, ["strategy"],
                     {"win": "win share per seat held"})
    return out


def case_differences(r: int, deals: int = 1000) -> list[Coverage]:
    """Kansas City passing 3 or 2 cards: the report's differences of the pooled overshoot
    rate and the mean score, paired (same seed: the same deals) and independent (blocks of
    different deals)."""
    game = games.get("kansas-city")
    runs = [big_run("kansas-city", deals * r, rules=(("pass_count", k),)) for k in (3, 2)]
    figures = [[report.headline_figures(game, part, stats.panel(part, "win", 4), stats.panel(part, "score", 4),
                                        [], None, False)
                for part in blocks(run.seats, deals, r)] for run in runs]
    whole = [report.headline_figures(game, run.seats, stats.panel(run.seats, "win", 4),
                                     stats.panel(run.seats, "score", 4), [], None, False) for run in runs]
    out = []
    for name in ("overshoot rate (seats pooled)", "mean score (all seats)"):
        truth = whole[1][name].value - whole[0][name].value
        paired = independent = 0
        for i in range(r):
            a, b = figures[0][i][name], figures[1][i][name]
            d, h = stats.paired_difference(b.per_row, a.per_row)
            paired += abs(d - truth) <= h
            c = figures[0][(i + 1) % r][name]  # other deals
            _, low, high = stats.mover_difference((b.value, b.low, b.high), (c.value, c.low, c.high))
            independent += low <= truth <= high  # as the balance report takes it
        out += [Coverage("differences (Kansas City, pass 2 - pass 3)", f"{name}, paired", paired, r),
                Coverage("differences (Kansas City, pass 2 - pass 3)", f"{name}, independent", independent, r)]
    return out


def case_whole_matches(r: int, matches: int = 100) -> list[Coverage]:
    """Out-Trumped whole matches, rotated: the pooled out-trumped rate as the report gives it
    (rounds over rounds, matches as units), rates per seat and strategy over rounds, and the
    match figures (win share, total) per seat and strategy."""
    game = games.get("out-trumped")
    size = matches
    run = big_run("out-trumped", size * r, unit="match", rotate=True, seat0="random")
    truth = direct(run.seats, ["seat", "strategy"], {"out-trumped": analysis_of(game).rates["out-trumped"]}).join(
        direct(run.matches, ["seat", "strategy"], {"match_win": pl.col("win"), "total": pl.col("total")}),
        on=["seat", "strategy"])
    seat_parts, match_parts = blocks(run.seats, size, r), blocks(run.matches, size, r)
    tables = [summary.seat_summary(game, s.lazy(), m.lazy(), strata=4)
              for s, m in zip(seat_parts, match_parts, strict=True)]
    out = by_groups("whole matches, rotated (Out-Trumped 4p)", tables, truth, ["seat", "strategy"],
                    {"out-trumped": "out-trumped rate over rounds", "match_win": "match win share",
                     "total": "mean match total"})
    pooled = report.headline_figures(game, run.seats, stats.panel(run.matches, "win", 4),
                                     stats.panel(run.matches, "total", 4), [], None,
                                     True)["out-trumped rate (seats pooled)"]
    covered = 0
    for s, m in zip(seat_parts, match_parts, strict=True):
        f = report.headline_figures(game, s, stats.panel(m, "win", 4), stats.panel(m, "total", 4),
                                    [], None, True)["out-trumped rate (seats pooled)"]
        covered += bool(covers(f.low, f.high, pooled.value))
    out.append(Coverage("ratio estimator over matches (Out-Trumped 4p)", "out-trumped rate, seats pooled",
                        covered, r))
    return out


def count_rows(case: str, tables: list[pl.DataFrame], truth: pl.DataFrame, key: str,
               floor: float = 0.02) -> list[Coverage]:
    """Coverage of each row of a count table whose true share is at least ``floor``: a replicate
    covers a row where its table holds that row once and the row's interval holds the share."""
    # the replicates' tables in one frame (a filter per table and row was most of this function's time)
    rows = pl.concat([t.select(key, "share_low", "share_high").with_columns(_rep=pl.lit(i, pl.Int64))
                      for i, t in enumerate(tables)])
    out = []
    for row in truth.filter(pl.col("share") >= floor).iter_rows(named=True):
        hits = rows.filter(pl.col(key) == row[key])
        once = hits.filter(pl.col("_rep").is_unique())
        covered = int(covers(once["share_low"], once["share_high"], row["share"]).sum())
        out.append(Coverage(case, f"{key} {row[key]}", covered, len(tables)))
    return out


def case_bonus_table(r: int, unit: str = "deal", deals: int = 1000, matches: int = 100) -> list[Coverage]:
    """The Out-Trumped trump bonus table, counted over seat-hands, as the game module builds
    it. The truth is the table's share over the large run: a plain proportion of its rows."""
    size = deals if unit == "deal" else matches
    game = games.get("out-trumped")
    run = big_run("out-trumped", size * r, unit=unit)
    keys = ["deal"] if unit == "deal" else ["match", "round"]
    # over matches the game adds its table of hands per match, which is not read here: it is not
    # built (it was a third of this case's CPU over matches); the bonus table is built as before
    with mock.patch.object(out_trumped_analysis, "to_the_end", lambda *args, **kwargs: pl.DataFrame()):
        truth = analysis_of(game).tables(run.seats.lazy(), keys)[0][1]
        tables = [analysis_of(game).tables(part.lazy(), keys)[0][1] for part in blocks(run.seats, size, r)]
    return count_rows(f"count table: trump bonus per hand, {unit} units (Out-Trumped 4p)", tables, truth, "bonus")


def case_count_tables(r: int, deals: int = 1000, matches: int = 100) -> list[Coverage]:
    """The bonus table over whole matches, and the Kansas City overshoot table (players over
    per deal, and its mean)."""
    out = case_bonus_table(r, "match", matches=matches)
    game = games.get("kansas-city")
    run = big_run("kansas-city", deals * r)
    truth = analysis_of(game).tables(run.seats.lazy(), ["deal"])[0][1]
    tables = [analysis_of(game).tables(part.lazy(), ["deal"])[0][1] for part in blocks(run.seats, deals, r)]
    return out + count_rows("count table: players over the limit (Kansas City 4p)", tables, truth, "overshooting")


def case_seat_test(r: int) -> list[Coverage]:
    """The seat test under a constructed null (every seat equally likely to win; skewed
    scores with equal means), at small n, where a chi-square reference is liberal. (With
    win shares, which take few values, it stays liberal below about 100 deals: 7.6% at 40.)"""
    rng = np.random.default_rng(12)
    out = []
    for what, n, p in (("win shares", 100, 3), ("win shares", 200, 4), ("skewed scores", 40, 3),
                       ("skewed scores", 150, 4)):
        kept = sum(stats.seat_test(np.eye(p)[rng.integers(0, p, n)] if what == "win shares"
                                   else rng.exponential(1.0, (n, p))).p_value >= 0.05 for _ in range(r * 4))
        out.append(Coverage("seat test under the null", f"{what}, {p} seats, n = {n}: not rejected",
                            int(kept), r * 4))
    return out


def _metric_blocks(run, size: int, count: int, duplicate: bool = False):
    """The run as a whole and as ``count`` runs of ``size`` deals, for simtool.analysis.metrics."""
    from simtool.analysis import metrics

    def part(seats, leads, n):
        meta = dict(run.meta, n=n)
        return metrics.from_tables("block", meta, seats, None, leads)

    whole = part(run.seats, run.leads, run.meta["n"])
    leads = blocks(run.leads, size, count) if run.leads is not None else [None] * count
    return whole, [part(s, lead, size) for s, lead in zip(blocks(run.seats, size, count), leads, strict=True)]


def _metric_coverage(case: str, names: list[str], whole, parts) -> list[Coverage]:
    from simtool.analysis import metrics

    out = []
    for name in names:
        # the truth is the value alone: the whole run's own bootstrap interval (the most units,
        # so the most costly draw) is never read, so it is not drawn
        with mock.patch.object(stats, "cluster_bootstrap", lambda *args, **kwargs: (math.nan, math.nan)):
            truth = metrics.FUNCTIONS[name](whole).value
        figures = [metrics.FUNCTIONS[name](p) for p in parts]
        out.append(Coverage(case, name, sum(bool(covers(f.low, f.high, truth)) for f in figures), len(parts)))
    return out


def case_published_metrics(r: int) -> list[Coverage]:
    """The published metrics (simtool.analysis.metrics): the outcome ones on all-random Hearts
    and on one search among random Black & White seats; the estimate-based ones on the lead
    histories of every deal of a Trickster run with a search seat; duplicate_gain on a
    duplicate Black & White run. The truth is each metric over the whole run."""
    hearts = simtool.run("hearts", 400 * r, strategy="random", seed=31, jobs=1)
    out = _metric_coverage("published metrics, all random (Hearts 4p)",
                           ["fairness", "balance", "advantage_p1", "drawishness"],
                           *_metric_blocks(hearts, 400, r))
    size = 100  # at 40 deals, drama's few qualifying decisions per block covered 89%
    # Trickster: its legal options vary with the cards (Black & White's do not, so its convergence
    # is the same in every deal), and its lowest score wins. The search plays its worlds out with
    # random, not Trickster's heuristic: what is tested is the metrics' intervals over whatever
    # estimates a search records, and the heuristic's play-outs were two thirds of this case's CPU
    # (8.3 s against 3.0 s for the run, measured in turns; coverage 0.91-0.99 with it, 0.90-0.96
    # without, and a bound metric's interval that ignores the deals' clustering fails either way)
    search = simtool.run("trickster", size * r, strategy="random",
                         seats={0: "pimc@samples=2,playout=random"},
                         seed=32, lead_history=size * r, jobs=1)
    out += _metric_coverage("published metrics, pimc among random (Trickster 4p)",
                            ["order", "convergence", "spread", "drama", "security", "lead_change",
                             "decisiveness_threshold", "decisiveness_moves", "drama_ludii",
                             "stability"], *_metric_blocks(search, size, r))
    dup = simtool.run("black-white", 200 * r, players=3, seats={0: "balance"}, strategy="random",
                      duplicate=True, seed=33, jobs=1)
    out += _metric_coverage("published metrics, duplicate deals (Black & White 3p)", ["duplicate_gain"],
                            *_metric_blocks(dup, 200, r))
    return out


LUCK_FIXED = 0.1
"""The share of the variance that the strategies' and seats' fixed effects hold in
:func:`luck_deals`."""


def luck_deals(rng: np.random.Generator, deals: int, share: float, p: int = 4) -> np.ndarray:
    """``(deals, p, p)`` duplicate scores (deal, rotation, seat) whose cards explain ``share``
    of the variance by construction: a normal effect of each seat's cards (variance ``share``),
    fixed effects of strategy and seat (spread :data:`LUCK_FIXED`) and normal interplay (the rest
    of a variance of 1 per seat)."""
    fixed = np.random.default_rng(123)
    strategy, seat = fixed.normal(size=p), fixed.normal(size=p) / 2
    cells = np.array([[strategy[(j + k) % p] + seat[j] for j in range(p)] for k in range(p)])
    spread = ((cells - cells.mean(axis=0)) ** 2).mean(axis=0).sum() + ((cells.mean(axis=0) - cells.mean()) ** 2).sum()
    cells *= math.sqrt(LUCK_FIXED * p / spread)
    cards = rng.normal(size=(deals, 1, p)) * math.sqrt(share)
    return cells + cards + rng.normal(size=(deals, p, p)) * math.sqrt(1 - LUCK_FIXED - share)


def case_luck_constructed(r: int, deals: tuple[int, ...] = (stats.LUCK_MIN_DEALS,)) -> list[Coverage]:
    """The luck figure (:func:`stats.luck_shares`, the cards' share) on constructed duplicate
    deals whose share is known, low, moderate and high, at the fewest deals it is printed for
    (docs/metrics.md, "Luck")."""
    out = []
    for n in deals:
        for share in (0.05, 0.3, 0.8):
            rng = np.random.default_rng(n + int(100 * share))
            rows = [stats.luck_shares(luck_deals(rng, n, share), seed=i).row(0, named=True) for i in range(r)]
            out.append(Coverage(f"luck, constructed ({n} deals)", f"cards' share {share:.0%}",
                                int(sum(covers(t["share_low"], t["share_high"], share) for t in rows)), r))
    return out


CASES = {
    "seat": case_seat_rates_and_means,
    "pooled-constructed": case_pooled_strategy_constructed,
    "rotated-strategies": case_rotated_strategies,
    "differences": case_differences,
    "matches": case_whole_matches,
    "bonus-table": case_bonus_table,
    "count-tables": case_count_tables,
    "seat-test": case_seat_test,
    "published-metrics": case_published_metrics,
    "luck-constructed": case_luck_constructed,
}


def table(rows: list[Coverage]) -> str:
    width = max(len(c.case) for c in rows)
    fig = max(len(c.figure) for c in rows)
    lines = [f"{'case':<{width}}  {'figure':<{fig}}  replicates  coverage  tolerance"]
    for c in rows:
        lines.append(f"{c.case:<{width}}  {c.figure:<{fig}}  {c.replicates:>10,}  {c.rate:>8.3f}  "
                     f"{c.level:.2f} ± {c.tolerance:.3f}{'' if c.ok else '  OUT'}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--case", action="append", choices=list(CASES), help="only these cases")
    args = parser.parse_args()
    clock = time.perf_counter()
    rows = [c for name in (args.case or CASES) for c in CASES[name](args.replicates)]
    print(table(rows))
    bad = sum(not c.ok for c in rows)
    print(f"{len(rows) - bad} of {len(rows)} figures within tolerance; {time.perf_counter() - clock:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
