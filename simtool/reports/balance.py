"""Balance reports: finished run folders turned into one self-contained HTML page.

Per game: each run's set-up, its findings in plain sentences, the seat-advantage and
strategy-strength tables with 95% intervals, score distributions (matplotlib, inlined as
SVG), and the game's own tables. Several runs of one game are compared side by side,
with differences paired deal by deal when the runs share their deals (same seed, n and
player count).
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import polars as pl

from simtool import games, options, stats
from simtool.analysis import labels, ratings, summary, tension
from simtool.analysis import of as analysis_of
from simtool.errors import SimtoolError
from simtool.games import ROUND_CAP
from simtool.pipeline.folders import collect, load


@dataclass
class Figure:
    """One headline figure of a run: its value, 95% interval, and per-deal values for pairing."""

    value: float
    low: float
    high: float
    per_row: np.ndarray | None  # None: no per-deal value (a ratio over matches), never paired
    percent: bool = True

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2


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
    findings: list[str] = field(default_factory=list)
    plots: list[tuple[str, str]] = field(default_factory=list)  # (caption, svg)

    @property
    def p(self) -> int:
        return self.meta["players"]

    @property
    def mixed(self) -> bool:
        return self.strategies is not None

    @property
    def tables(self) -> list[tuple[str, list[str], list[list[str]]]]:
        """The game's tables as text cells."""
        return [(caption, *stats.frame_cells(df)) for caption, df in self.game_tables]

    @property
    def rate_names(self) -> list[str]:
        return list(analysis_of(self.game).rates)

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
        return [(caption, *stats.frame_cells(df)) for caption, df in self.metrics]


def analyse(path: Path, ladders: list = (), charts: bool = True) -> Analysis:
    """Read a finished run folder and compute what the report shows of it. ``ladders``: the
    skill ladders of the report; one of this run's set-up gives its skill-versus-luck sentence."""
    meta, lazy_seats, lazy_matches = load(path)
    folder = Path(path)
    seats = collect(folder / "seats.parquet", lazy_seats)
    matches = None if lazy_matches is None else collect(folder / "matches.parquet", lazy_matches)
    a = analysis(meta, seats, matches, folder, ladders)
    if charts:
        a.plots = plots(a, seats, matches)
    return a


def rating_table(paths: list[Path]) -> pl.DataFrame | None:
    """The Python API's ratings over finished run folders of one game (a sweep's cells):
    :func:`ratings.rate` of their deals, as a polars frame with ``rating_low/high``."""
    runs = [analyse(Path(p), charts=False) for p in paths]
    if len({r.game.id for r in runs}) > 1:
        raise SimtoolError("ratings compare the strategies of one game; give the runs of one game")
    return ratings.rate([r.held for r in runs if r.held is not None])


def analysis(meta: dict, seats: pl.DataFrame, matches: pl.DataFrame | None,
             path: Path | None = None, ladders: list = ()) -> Analysis:
    """What the report shows of a run's tables (but its charts); ``ladders`` as for
    :func:`analyse`."""
    game = games.get(meta["game"])
    p = meta["players"]
    outcome = matches if matches is not None else seats
    win = stats.panel(outcome, "win", p)
    score = stats.panel(outcome, "total" if matches is not None else "score", p)
    strata = stats.panel(outcome, stats.unit_key(outcome), p)[:, 0] % p if meta.get("rotate") else None
    # with --duplicate a deal's p copies are one unit: every interval sums them first
    units = stats.panel(outcome, stats.unit_key(outcome), p)[:, 0] if meta.get("duplicate") else None
    names = outcome["strategy"].cast(pl.String).unique(maintain_order=True).to_list()
    codes = strategies = gain = None
    if len(names) > 1:
        codes = stats.panel(outcome.with_columns(pl.col("strategy").cast(pl.String).replace_strict(
            names, list(range(len(names))), return_dtype=pl.Int8)), "strategy", p)
        strategies = stats.strategy_strength(win, codes, names, strata, units)
        if units is not None:
            gain = stats.duplicate_gain({"win": win, "score": score}, codes, names, units)
    per_deal = (lambda a: a.reshape(-1, p, p).mean(axis=1)) if units is not None else (lambda a: a)
    keys = ["deal"] if matches is None else ["match", "round"]
    if meta.get("duplicate"):  # a game's tables count per copy of a deal (its units stay the deal)
        keys.insert(1, "rotation")
    rates = summary.seat_summary(game, seats.lazy(), by=("seat",), strata=p if meta.get("rotate") else None)
    rates = rates.select("seat", "n", *[c for name in analysis_of(game).rates
                                        for c in (name, f"{name}_low", f"{name}_high")])
    a = Analysis(
        path=path, meta=meta, game=game,
        unit="matches" if matches is not None else "deals",
        seats=stats.seat_table(win, score, strata, units), win_test=stats.seat_test(per_deal(win)),
        score_test=stats.seat_test(per_deal(score)), strategies=strategies, rates=rates,
        game_tables=analysis_of(game).tables(seats.lazy(), keys, None if matches is None else matches.lazy(),
                                             meta.get("rules")),
        seats_strategy=names[0],
        figures=headline_figures(game, seats, win, score, names if codes is not None else [],
                                 codes, matches is not None, strata, units),
    )
    if codes is not None:
        a.held = ratings.held(win[:ratings.LIMIT], codes[:ratings.LIMIT], names)
    if gain is not None:
        a.metrics.append((DUPLICATE_TABLE, gain))
    if units is not None:
        a.metrics.append((LUCK_TABLE, luck_table(win, score, p, matches is not None)))
    if matches is not None:
        _, table, lengths = tension.analyse(seats, matches, game.lower_wins)
        a.metrics.append((tension.TABLE, table))
        if lengths.height <= 15:  # longer tails are for the chart
            a.metrics.append(("Match length: share of matches by rounds played", lengths))
    if matches is not None:
        a.capped = int(matches.filter(pl.col("seat") == 0)["capped"].sum())
    a.findings = findings(a, next((lad for lad in ladders if lad.fits(meta)), None))
    return a


DUPLICATE_TABLE = "Duplicate deals: strategy strength intervals against --rotate at the same games"


LUCK_TABLE = "Luck against skill: shares of the variance of a seat's result"


def luck_table(win: np.ndarray, score: np.ndarray, p: int, by_match: bool) -> pl.DataFrame:
    """:func:`stats.luck_shares` of the score (match total) and the win share, side by side."""
    out = None
    for name, values in (("total" if by_match else "score", score), ("win", win)):
        name += "_share"
        part = stats.luck_shares(values.reshape(-1, p, p)).rename(
            {"share": name, "share_low": f"{name}_low", "share_high": f"{name}_high"})
        out = part if out is None else out.join(part, on="part", maintain_order="left")
    return out


def luck_text(table: pl.DataFrame, unit: str) -> str:
    column = table.columns[1]
    share = {r["part"]: (r[column], r[f"{column}_low"], r[f"{column}_high"]) for r in table.iter_rows(named=True)}
    one = "match" if unit == "matches" else "deal"
    name = "total" if one == "match" else "score"

    def pct(part: str) -> str:
        v, lo, hi = share[part]
        return f"{100 * v:.0f}% ({100 * lo:.0f}–{100 * hi:.0f}%)"

    return (f"Luck against skill: the cards decide about {pct('cards')} of a {one}'s {name} under "
            f"these strategies, which strategy holds which seat {pct('strategy and seat')}, and how "
            f"these strategies play these particular cards (and the play's own chance) "
            f"{pct('interplay')}: shares of the variance of a seat's {name}, from the duplicate "
            f"{unit}, with 95% bootstrap intervals over {unit}.")


def duplicate_text(gain: pl.DataFrame, unit: str) -> str:
    """The measured gain of ``--duplicate`` in one sentence."""
    def half(x: float, figure: str) -> str:
        return f"± {100 * x:.2f}%" if figure.startswith("win") else f"± {x:.3g}"

    parts = [f"{r['strategy']}'s {r['figure']} {half(r['half_duplicate'], r['figure'])} against "
             f"{half(r['half_rotate'], r['figure'])} ({100 * r['narrower']:.0f}% narrower, worth "
             f"{r['games_ratio']:.2f} times the games)" for r in gain.iter_rows(named=True)]
    one = "match" if unit == "matches" else "deal"
    return (f"Duplicate {unit}: every {one} was played once per rotation of the line-up with the "
            f"same cards, so the strategy comparison is paired on the cards. Measured against "
            f"--rotate at the same number of games (each on fresh cards): " + "; ".join(parts) + ". "
            "Pairing on the cards narrows an interval as much as the cards decide the result "
            "whoever holds them (the luck split): most for close strategies.")


def headline_figures(game, seats, win, score, names, codes, by_match, strata=None,
                     units=None) -> dict[str, Figure]:
    """The figures runs are compared on, each with its per-deal (or per-match) values
    (per game with ``units``, each game's deal under ``--duplicate``)."""
    p = win.shape[1]
    out = {}
    for s in range(p):
        out[f"seat {s} win share"] = Figure(*stats.unit_estimate(win[:, s], strata=strata, share=True, units=units),
                                            win[:, s])
    for k, name in enumerate(names):
        held = codes == k
        out[f"{name} win share per seat"] = Figure(
            *stats.unit_estimate((win * held).sum(axis=1), held.sum(axis=1), strata, share=True, units=units),
            stats.held_share(win, codes, k))
    for name, expr in analysis_of(game).rates.items():
        if by_match:  # a match's rounds are one unit; matches differ in length
            per_match = seats.group_by("match", maintain_order=True).agg(expr.sum().alias("k"),
                                                                          pl.len().alias("m"))
            out[f"{name} rate (seats pooled)"] = Figure(*stats.unit_estimate(
                per_match["k"].to_numpy(), per_match["m"].to_numpy(), strata, share=True), None)
        else:
            flags = stats.panel(seats.select(pl.col("seat"), expr.cast(pl.Float64).alias(name)), name, p)
            out[f"{name} rate (seats pooled)"] = Figure(*stats.unit_estimate(
                flags.sum(axis=1), np.full(len(flags), p), strata, share=True, units=units), flags.mean(axis=1))
    mean_score = score.mean(axis=1)
    label = "mean match total" if by_match else "mean score"
    out[f"{label} (all seats)"] = Figure(*stats.unit_estimate(mean_score, strata=strata, units=units), mean_score,
                                         percent=False)
    return out


def findings(a: Analysis, ladder=None) -> list[str]:
    """The run's headline findings in plain sentences. With a skill ``ladder`` of this run's
    set-up, skill versus luck is measured by its top rung (a ladder's own rungs keep theirs)."""
    p, unit, out = a.p, a.unit, []
    fair = 1 / p
    seats = a.seats.with_columns((pl.col("win") - pl.col("fair")).abs().alias("gap"))
    far = seats.sort("gap", descending=True).row(0, named=True)
    verdict = ("the seats differ by more than chance" if a.win_test.p_value < 0.05
               else "a spread no larger than chance" if a.win_test.df
               else f"too few {unit} to tell whether the seats differ")
    confounded = (" Seats play different strategies here, so this mixes seat and strategy "
                  "effects; run with --rotate to separate them.") if a.mixed and not (
                      a.meta.get("rotate") or a.meta.get("duplicate")) else ""
    out.append(f"Seat {far['seat']} wins {stats.fmt_share(far['win'], far['win_low'], far['win_high'])} "
               f"of {unit} against {100 * fair:.1f}% expected: {verdict}"
               + (f" ({seat_test_text(a.win_test)})." if a.win_test.df else ".") + confounded)
    lo = a.seats.sort("score").row(0, named=True)
    hi = a.seats.sort("score").row(-1, named=True)
    what = "match totals" if a.unit == "matches" else "scores"
    better = " (lower is better)" if a.game.lower_wins else ""
    out.append(f"Mean {what}{better} range from {stats.fmt_mean(lo['score'], lo['score_low'], lo['score_high'])} "
               f"(seat {lo['seat']}) to {stats.fmt_mean(hi['score'], hi['score_low'], hi['score_high'])} "
               f"(seat {hi['seat']}); {stats.fmt_p(a.score_test.p_value)} for equal seat means.")
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
                   "below" if best["win_high"] < best["chance"] else "no different from")
        rest = "; ".join(f"{r['strategy']} wins {stats.fmt_share(r['win'], r['win_low'], r['win_high'])}"
                         for r in others.iter_rows(named=True))
        who = (f"the best heuristic, {best['strategy']}," if heuristics.height > 1
               else best["strategy"])
        out.append(f"Skill versus luck: {who} wins {stats.fmt_share(best['win'], best['win_low'], best['win_high'])} "
                   f"of {unit} per seat it holds, {verdict} the {100 * fair:.1f}% of pure chance: "
                   f"{100 * best['edge']:+.1f} points, a skill index of {best['skill']:.2f} "
                   f"(0 = luck alone, 1 = its seats win every time); {rest}."
                   + ("" if a.meta.get("rotate") or a.meta.get("duplicate") else " The line-up was "
                      "not rotated, so seat effects are part of these shares."))
    per = "rounds" if a.unit == "matches" else "deals"
    for name in analysis_of(a.game).rates:
        pooled = a.figures[f"{name} rate (seats pooled)"]
        top = a.rates.sort(name, descending=True).row(0, named=True)
        text = analysis_of(a.game).rate_text.get(name, f"has {name}")
        out.append(f"A seat {text} in {stats.fmt_share(pooled.value, pooled.low, pooled.high)} of {per} "
                   f"(seats pooled); most often seat {top['seat']}, "
                   f"{stats.fmt_rate(top[name], top[f'{name}_low'], top[f'{name}_high'])}.")
    if a.capped:
        n = a.meta["n"]
        out.append(f"{a.capped:,} of {n:,} matches ({100 * a.capped / n:.1f}%) hit the "
                   f"{ROUND_CAP}-round cap and were stopped there, each a draw among the seats "
                   f"leading at the cap: their totals and win shares are those at the cap, not "
                   f"of a finished match, so the match figures above depend on the cap.")
    return out + metric_findings(a)


def metric_findings(a: Analysis) -> list[str]:
    """The sentences of the duplicate, luck and tension tables."""
    out = []
    for caption, df in a.metrics:
        if caption == DUPLICATE_TABLE:
            out.append(duplicate_text(df, a.unit))
        elif caption == LUCK_TABLE:
            out.append(luck_text(df, a.unit))
        elif caption == tension.TABLE:
            out.append(tension.text(df, a.game.lower_wins))
    return out


def seat_test_text(t: stats.SeatTest) -> str:
    if t.df == 0:
        return "too few deals to test"
    return f"Hotelling's T² = {t.statistic:.1f}, F({t.df}, {t.n - t.df}), {stats.fmt_p(t.p_value)}"


def ladder_skill(ladder) -> str:
    """Skill versus luck by the ladder's top rung: the strongest play the report has seen."""
    top = ladder.top
    verdict = ("above" if top.low > top.fair else "below" if top.high < top.fair
               else "no different from")
    return (f"Skill versus luck: the skill ladder's top rung, {top.name}, wins "
            f"{stats.fmt_share(top.share, top.low, top.high)} of {plural(ladder.unit)} in its one seat against "
            f"{ladder.players - 1} × {top.below} (seats rotated), {verdict} the "
            f"{100 * top.fair:.1f}% of pure chance: {100 * (top.share - top.fair):+.1f} points, "
            f"a skill index of {top.skill:.2f} (0 = luck alone, 1 = it wins every time).")


def plural(unit: str) -> str:
    return "matches" if unit == "match" else "deals"


def ladder_view(ladder) -> dict:
    """What the report's skill ladder section shows: sentences, chart and table rows."""
    from matplotlib.figure import Figure as Chart

    from simtool.analysis import ladder as ladders

    chart = Chart(figsize=(6.4, 3.0), layout="constrained")
    ax = chart.add_subplot()
    x = list(range(1, len(ladder.rungs) + 1))
    share = np.array([r.share for r in ladder.rungs]) * 100
    ax.errorbar(x, share, yerr=[share - [100 * r.low for r in ladder.rungs],
                                [100 * r.high for r in ladder.rungs] - share],
                fmt="o", color="#2f5d8c", capsize=5, markersize=7,
                label="win share per seat over the rung below, 95% interval")
    fair = 100 * ladder.rungs[0].fair
    ax.axhline(fair, color="#c44e52", linestyle="--", label=f"fair share {fair:.1f}%")
    ax.set(xlabel="rung (against the rung below)", ylabel=f"win share of {plural(ladder.unit)} (%)",
           xticks=x, xlim=(0.5, len(x) + 0.5))
    ax.set_xticklabels([labels.clip(r.name) for r in ladder.rungs], rotation=20, ha="right", fontsize="small")
    ax.legend(frameon=False, fontsize="small")
    rules = ", ".join(f"{k} = {v}" for k, v in options.named(games.get(ladder.game), ladder.rules).items())
    return {"ladder": ladder, "label": f"{ladder.players} players" + (f", {rules}" if rules else ""),
            "sentences": [ladders.verdict(ladder), ladders.convergence(ladder), ladder_skill(ladder),
                          *filter(None, [ladders.reference_sentence(ladder)])], "svg": svg(chart)}


def plots(a: Analysis, seats: pl.DataFrame, matches: pl.DataFrame | None) -> list[tuple[str, str]]:
    """(caption, inline SVG) for the run's charts."""
    from matplotlib.figure import Figure as Chart

    out = []
    chart = Chart(figsize=(5.2, 2.8), layout="constrained")
    ax = chart.add_subplot()
    t = a.seats
    # points, not bars: the axis is zoomed on the fair share, where seat differences show
    yerr = np.nan_to_num(np.stack([t["win"] - t["win_low"], t["win_high"] - t["win"]]) * 100)
    ax.errorbar(t["seat"].to_list(), t["win"].to_numpy() * 100, yerr=yerr,
                fmt="o", color="#2f5d8c", capsize=5, markersize=7, label="win share, 95% interval")
    ax.axhline(100 / a.p, color="#c44e52", linestyle="--", label=f"fair share {100 / a.p:.1f}%")
    ax.set(xlabel="seat", ylabel=f"win share of {a.unit} (%)", xticks=t["seat"].to_list(),
           xlim=(-0.5, a.p - 0.5))
    ax.legend(frameon=False, fontsize="small")
    out.append(("Win share by seat, with 95% intervals", svg(chart)))
    rows, column = (matches, "total") if matches is not None else (seats, "score")
    what = "match total" if matches is not None else "score per deal"
    out.append((f"Distribution of the {what} by seat", svg(distribution(rows, column, "seat", what))))
    if a.strategies is not None:
        out.append((f"Distribution of the {what} by strategy",
                    svg(distribution(rows, column, "strategy", what))))
    if matches is not None:
        out += [(caption, svg(chart)) for caption, chart in
                tension.charts(tension.per_match(seats, matches, a.game.lower_wins))]
    return out


def distribution(rows: pl.DataFrame, column: str, by: str, what: str):
    """Share of rows at each value of ``column`` (binned when the values are many), one line per group."""
    from matplotlib.figure import Figure as Chart

    values = rows[column]
    lo, hi = int(values.min()), int(values.max())
    width = max(1, -(-(hi - lo + 1) // 40))
    binned = rows.select(pl.col(by).cast(pl.String), ((pl.col(column) - lo) // width * width + lo).alias("x"))
    counts = binned.group_by(by, "x").len().sort(by, "x")
    chart = Chart(figsize=(5.2, 2.8), layout="constrained")
    ax = chart.add_subplot()
    for (group,), part in counts.group_by(by, maintain_order=True):
        total = part["len"].sum()
        label = f"seat {group}" if by == "seat" else labels.clip(group)
        ax.plot(part["x"].to_numpy(), 100 * part["len"].to_numpy() / total, marker="o",
                markersize=3, linewidth=1.2, label=label)
    ax.set(xlabel=what + (f" (bins of {width})" if width > 1 else ""), ylabel="share (%)")
    ax.legend(frameon=False, fontsize="small")
    return chart


def svg(chart) -> str:
    """The chart as an ``<svg>`` element (text kept as text, no XML prologue). Every text is
    plain: a strategy called ``$\\alpha$`` is shown as written, not as mathtext."""
    import matplotlib

    labels.plain(chart)
    buf = io.StringIO()
    with matplotlib.rc_context(labels.PLAIN):
        chart.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


@dataclass
class Comparison:
    """Several runs of one game side by side: each headline figure per run, and its
    difference from the first run (paired deal by deal when the runs share their deals)."""

    labels: list[str]
    rows: list[tuple[str, list[str], list[tuple[str, bool]]]]  # figure, cells, (difference, clear)
    paired: list[bool]
    gains: list[list[float]]  # per later run: 1 - paired / independent half-width, per paired figure

    def gain_text(self, run: int) -> str:
        """How much narrower pairing made run ``run``'s (1-based, from 2) differences."""
        gains = np.array(self.gains[run - 2])
        if not len(gains):
            return ""
        if np.median(gains) < 0.05:
            return (" Pairing gained little here (intervals "
                    f"{100 * np.median(gains):.0f}% narrower at the median than between independent "
                    "runs): the two rule sets do not share much of each deal's luck.")
        return (f" Pairing made the intervals {100 * gains.min():.0f}–{100 * gains.max():.0f}% narrower "
                f"than between independent runs (median {100 * np.median(gains):.0f}%).")


def compare(runs: list[Analysis]) -> Comparison:
    base = runs[0]
    labels = [run_label(r) for r in runs]
    paired = [shares_deals(base, r) for r in runs[1:]]
    names = list(dict.fromkeys(name for r in runs for name in r.figures))
    rows, gains = [], [[] for _ in runs[1:]]
    for name in names:
        cells, diffs = [], []
        for r in runs:
            f = r.figures.get(name)
            cells.append("—" if f is None else show(f.value, f.low, f.high, f.percent))
        first = base.figures.get(name)
        for i, (r, pair) in enumerate(zip(runs[1:], paired, strict=True)):
            f = r.figures.get(name)
            if f is None or first is None:
                diffs.append(("—", False))
                continue
            d, h = stats.independent_difference(f.value, f.half, first.value, first.half)
            if pair and f.per_row is not None and first.per_row is not None:
                both = np.isfinite(f.per_row) & np.isfinite(first.per_row)
                loose = h
                d, h = stats.paired_difference(f.per_row[both], first.per_row[both])
                if loose > 0 and np.isfinite(loose) and np.isfinite(h):
                    gains[i].append(1 - h / loose)
            diffs.append((show_difference(d, h, f.percent), abs(d) > h))
        rows.append((name, cells, diffs))
    return Comparison(labels, rows, paired, gains)


def shares_deals(a: Analysis, b: Analysis) -> bool:
    keys = ("seed", "n", "unit", "players")
    return all(a.meta[k] == b.meta[k] for k in keys) and a.meta.get("duplicate") == b.meta.get("duplicate")


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


def show(value: float, low: float, high: float, percent: bool) -> str:
    return stats.fmt_share(value, low, high) if percent else stats.fmt_mean(value, low, high)


def show_difference(diff: float, half: float, percent: bool) -> str:
    sign = "+" if diff >= 0 else ""
    if percent:
        return sign + stats.fmt_pct(diff, half).replace("%", " pts", 1).replace("%", " pts")
    return sign + stats.fmt_mean(diff, diff - half, diff + half)


def check_output(out: str | Path, inputs: list[Path]) -> None:
    """Refuse, before any work, a report path that names a folder (an existing one, or a path
    ending in '/'), an input itself, a file of an input or of its ``chunks/``, a file simtool did
    not write as a report, or a place that cannot be written (under a file, or a folder this
    user may not write in)."""
    text, out = os.fspath(out), Path(out)
    if text.endswith(("/", os.sep)) or out.is_dir():
        raise SimtoolError(f"report {text} is a folder; give a file name such as {out / 'report.html'}")
    where = out.resolve()
    for folder in inputs:
        folder = folder.resolve()
        if where == folder or where.parent == folder / "chunks" or (
                where.parent == folder and where.name in ("run.json", "seats.parquet", "matches.parquet")):
            raise SimtoolError(f"report {out} would replace {folder.name}'s own files; "
                               f"choose another --out such as {folder / 'report.html'}")
    if out.exists() and not is_report(out):
        raise SimtoolError(f"{out} exists and is not a simtool report; simtool replaces only its own "
                           f"reports: choose another --out")
    base = where.parent
    while not base.exists() and base != base.parent:
        base = base.parent
    if not base.is_dir():
        raise SimtoolError(f"cannot write report {out}: {base} is a file, not a folder")
    if not os.access(base, os.W_OK | os.X_OK):
        raise SimtoolError(f"cannot write report {out}: no permission to write in {base}")


def is_report(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
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
    return {"table": table, "cells": stats.frame_cells(table), "chart": svg(ratings.chart(table))}


VERDICTS = {"costs": "costs", "helps": "helps (the strategy misuses this choice)",
            "nothing": "a rule nobody needs to think about", "unclear": "unclear: more deals"}
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
                      "sentences": [restrict.sentence(r) for r in rows]})
    return views


def render(paths: list[Path], title: str = "simtool balance report") -> str:
    """The HTML report of the finished run folders ``paths``."""
    import jinja2

    if not paths:
        raise SimtoolError("no run folders given; pass one or more folders written by `simtool run`")
    from simtool.analysis import ladder as ladders
    from simtool.analysis import restrict

    climbed = ladders.ladders([Path(p) for p in paths])
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
                         "ratings": rating_section(rs),
                         "restricted": restricted_views(limits.filter(pl.col("game") == rs[0].game.id))})
    env = jinja2.Environment(loader=jinja2.PackageLoader("simtool.reports", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: f"{100 * v:.1f}%"
    unfair = labels.not_fair(r.meta for r in runs)
    env.filters["name"] = lambda name, limit=labels.LIMIT: labels.html(name, limit, unfair)
    env.globals.update(fmt_cost=restrict.fmt_cost, narrow=restrict.NARROW, verdict_text=VERDICTS,
                       lineup_text=lineup_text, fmt_share=stats.fmt_share, fmt_mean=stats.fmt_mean,
                       fmt_rate=stats.fmt_rate, fmt_p=stats.fmt_p, seat_test_text=seat_test_text)
    return env.get_template("report.html.j2").render(
        title=title, sections=sections, generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        version=version("simtool"))


def write(paths: list[Path], out: str | Path, title: str = "simtool balance report") -> Path:
    """Write the report atomically: a reader never sees half a page, and no file but an earlier
    report is ever replaced."""
    check_output(out, [Path(p) for p in paths])
    return write_page(Path(out), render(paths, title))


def write_page(out: Path, html: str) -> Path:
    """``html`` into ``out`` under a temporary name, renamed once whole; a failure (a full disk)
    leaves no temporary file behind."""
    tmp = out.with_name(f".{out.name}.tmp")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(html, encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise SimtoolError(f"cannot write report {out}: {exc.strerror or exc}") from None
    return out
