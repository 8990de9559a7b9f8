"""The tuning report: one self-contained HTML page (the balance report's look) of a tuning
folder: best settings against the sheet's defaults, the Pareto front, each varied option's
effect on each objective, and every trial."""

from __future__ import annotations

import functools
import os
import re
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import polars as pl

from simtool import games, options
from simtool.analysis import labels
from simtool.analysis import tuning as tune
from simtool.errors import SimtoolError, pasted
from simtool.reports import pages
from simtool.reports.balance import check_output, error_bars, svg, write_page


def _chart(width: float, height: float):
    """A figure of its own, outside pyplot: writing a report leaves a notebook's backend and its
    inline plots as they were (pyplot with ``matplotlib.use("Agg")`` switched them off)."""
    from matplotlib.figure import Figure

    chart = Figure(figsize=(width, height), layout="tight")  # laid out in svg(), where every text is plain
    return chart, chart.add_subplot()


def _errors(frame: pl.DataFrame, label: str):
    value = frame[label].to_numpy()
    return value, error_bars(value, frame[f"{label}_low"].to_numpy(), frame[f"{label}_high"].to_numpy())


def pareto_plot(trials: pl.DataFrame, objectives: list[str], front: set[int]) -> str:
    """The first two objectives of every trial with their intervals; the Pareto front joined."""
    a, b = objectives[:2]
    chart, ax = _chart(6, 4)
    for on, colour, name in ((False, "#9aa5b1", "trial"), (True, "#2f5d8c", "Pareto front")):
        part = trials.filter(pl.col("trial").is_in(list(front)) == on).sort(a)
        if part.height == 0:
            continue
        x, xerr = _errors(part, a)
        y, yerr = _errors(part, b)
        ax.errorbar(x, y, xerr=xerr, yerr=yerr, fmt="o-" if on else "o", color=colour, markersize=4,
                    linewidth=1, elinewidth=.8, capsize=2, label=name)
    ax.set(xlabel=a, ylabel=b)
    ax.legend(frameon=False, fontsize="small")
    return svg(chart)


def effect_plot(trials: pl.DataFrame, option: str, values: list, label: str, default, merged=None) -> str:
    """One objective against one option's values: every trial with its interval (trials at one
    value are spread sideways), the sheet's default value marked; ``merged``: the number a
    ``sheet`` among the values plays."""
    chart, ax = _chart(5, 3.4)
    # the number ``sheet`` plays is one setting with it: measured as ``sheet``, it has no place of its own
    names = [str(v) for v in values if v != merged or trials.filter(pl.col(option) == str(v)).height]
    for i, name in enumerate(names):
        part = trials.filter(pl.col(option) == name)
        if part.height == 0:
            continue
        y, yerr = _errors(part, label)
        x = i + np.linspace(-.15, .15, part.height) if part.height > 1 else np.array([float(i)])
        ax.errorbar(x, y, yerr=yerr, fmt="o", color="#2f5d8c", markersize=4, elinewidth=.8, capsize=2)
    if str(default) in names:
        ax.axvspan(names.index(str(default)) - .4, names.index(str(default)) + .4, color="#d9e2ec",
                   zorder=0, label="sheet default")
        ax.legend(frameon=False, fontsize="small")
    ax.set_xticks(range(len(names)), [labels.clip(name) for name in names])
    ax.set(xlabel=option, ylabel=label)
    return svg(chart)


def cell(values) -> str:
    value, low, high = values
    return f"{value:.4f} [{low:.4f}, {high:.4f}]"


@functools.cache
def environment():
    """The tuning page's template environment, made once a process: a game's rule value is
    clipped in a table cell, as a strategy's name is on the balance report (the whole in its
    tooltip)."""
    env = pages.environment()
    env.filters["name"] = labels.html
    return env


def against_defaults(objective, values, base) -> str:
    """One objective of a best setting against the sheet's defaults, judged as the page's
    recommendation judges it (:func:`simtool.analysis.tuning.difference`: the difference's 95%
    interval), not by whether the two intervals overlap: two intervals can overlap while their
    difference surely is not 0, and the page said "no clear difference" above a recommendation
    calling the same setting clearly better."""
    (v, lo, hi), (dv, dlo, dhi) = values, base
    d, half, word = tune.difference(values, base, objective)
    said = {"same": "no clear difference", "better": "clearly better", "worse": "clearly worse"}[word]
    return (f"{v:.4f} [{lo:.4f}, {hi:.4f}] against the defaults' {dv:.4f} [{dlo:.4f}, {dhi:.4f}]: {said} "
            f"(difference {d:+.4f} ± {half:.4f})")


def figure_words(config) -> str:
    """What each objective's figure is, and in what unit: the page prints them as fractions
    (seat_spread 0.0312, skill 0.5094), where a review speaks of points (an edge of 2.2 points,
    skill +29.7 points of a search over random): the same words, other figures."""
    said = []
    for o in config.objective_list():
        what = {"seat_spread": "the largest seat's win share less the smallest's",
                "first_seat_edge": f"seat 0's win share less the fair 1/{config.players}",
                "skill": f"{config.strong}'s win share per seat at one seat among {config.weak} (fair: "
                         f"1/{config.players})",
                "match_rounds": "the mean rounds of a match that reached the game's end"}.get(
            # a match run's rate is of its seats' rounds, as its hazard verdict says it
            o.figure, f"the game's rate {o.figure}, a share of "
                      f"{'rounds of matches' if config.unit == 'match' else 'deals'}, seats pooled")
        unit = ("rounds" if o.figure == "match_rounds" else
                "a fraction: 0.031 is 3.1 points of win share" if o.figure in ("seat_spread", "first_seat_edge")
                else "a fraction: 0.509 is 50.9%")
        target = f"; its distance to {o.target:g} is minimised" if o.target is not None else ""
        said.append(f"{o.figure}: {what}, {unit}{target}")
    return "; ".join(said)


def render(s: dict, title: str | None = None, where: str = ".") -> str:
    """The page of a tuning's summary (``simtool.commands.tune.summary``); ``where``: the tuning's
    folder from the page's folder ("." where the page lies in it, as ``tune.html`` does)."""
    config, trials, folder = s["config"], s["trials"], s["folder"]
    done = trials.filter(pl.col("state") == "COMPLETE")
    if done.height == 0:
        raise SimtoolError(f"{folder} holds no finished trial yet; go on with simtool tune --resume {pasted(folder)}")
    game = games.get(config.game)
    defaults = {o.name: o.default for o in game.options}
    best = {c["label"] for c in s["best"]}
    front = {t for c in s["best"] for t in tune.trials_of(c)}
    charts = []
    if len(config.objectives) > 1:
        charts.append((f"Pareto front: {config.objectives[0]} against {config.objectives[1]} "
                       f"(every trial, 95% intervals; the front of the re-measured trials joined)",
                       pareto_plot(done, config.objectives, front)))
    played = dict(zip(config.vary, tune.setting(config, tune.sheet_defaults(config)), strict=True))
    for option, values in config.vary.items():
        merged = played[option] if "sheet" in values else None
        for label in config.objectives:
            charts.append((f"{label} by {option} (every trial with its 95% interval)",
                           effect_plot(done, option, values, label, defaults[option], merged)))
    confirmed = [{"label": c["label"] + (f" = trial {', '.join(map(str, tune.trials_of(c)))}"
                                         if c["label"] == "defaults" and tune.trials_of(c) else ""),
                  "best": c["label"] in best,
                  "params": tune.values_text(config, c["params"]),
                  "values": [cell(c["values"][o]) for o in config.objectives]}
                 for c in s["confirmed"]]
    base = next((c for c in s["confirmed"] if c["label"] == "defaults"), None)
    findings = []
    for c in s["best"]:
        settings = tune.setting_text(config, c["params"])
        parts = []
        for o, objective in zip(config.objectives, config.objective_list(), strict=True):
            v, lo, hi = c["values"][o]
            parts.append(f"{o} " + (against_defaults(objective, c["values"][o], base["values"][o]) if base
                                    else f"{v:.4f} [{lo:.4f}, {hi:.4f}]"))
        findings.append(f"Best ({c['label']}): {settings}: " + "; ".join(parts) + ".")
    rows = []
    for r in trials.sort("trial").iter_rows(named=True):
        vals = ["—" if r[o] is None else cell((r[o], r[f"{o}_low"], r[f"{o}_high"]))
                for o in config.objectives]
        rows.append([str(r["trial"]), r["state"].lower(), *[r[k] for k in config.vary], *vals])
    env = environment()
    source = env.loader.get_source(env, "report.html.j2")[0]
    style = re.search(r"<style>(.*?)</style>", source, re.S).group(1)  # one look for every report
    again = s["confirmed"][0]["n"] if s["confirmed"] else config.n
    return env.get_template("tune.html.j2").render(
        dealing=dealing(game, config),
        title=title or f"simtool tuning: {game.title}", style=style, config=config, game=game,
        sampler=s["sampler"], findings=findings, recommendation=s["recommendation"],
        confirmed=confirmed, again=again, charts=charts,
        units="matches" if config.unit == "match" else f"{config.unit}s",
        rows=rows, total=trials.height, where=where, complete=done.height, figures=figure_words(config),
        fixed=", ".join(f"{k}={v}" for k, v in options.named(game, config.rules).items()) or "none",
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), version=version("simtool"))


def dealing(game, config) -> list[str]:
    """The varied rules whose values deal other cards from one seed (Black & White's deck): the
    page said "every trial plays the same deals" of trials of deck=30 and deck=36."""
    from simtool.pipeline.folders import dealt_alike

    base = {**options.resolve(game, None), **config.rules}

    def meta(name: str, value) -> dict:
        return {"game": game.id, "players": config.players, "rules": {**base, name: value}}

    return [name for name, values in config.vary.items()
            if any(dealt_alike(meta(name, values[0]), meta(name, v)) is False for v in values[1:])]


def write(s: dict, out: str | Path, title: str | None = None) -> Path:
    """Write the report of the tuning summary ``s`` atomically (a reader never sees half a page)."""
    check_output(out, [Path(s["folder"])], "tune", "report")
    # a --report elsewhere (make demo's reports/tune.html) said "study.db next to this page"
    where = os.path.relpath(Path(s["folder"]).resolve(), Path(out).resolve().parent)
    return write_page(Path(out), render(s, title, where))
