"""``simtool tune``: search a game's rule options towards a designer's targets with optuna.

A tuning lives in one folder: ``tune.json`` (what is searched and how), ``study.db`` (the
optuna study, SQLite: run the same command again, or ``--resume DIR``, to go on after an
interruption, with the trials an unbroken tuning makes, and again with a larger ``--trials`` to
extend it with the trials an unbroken tuning of that many makes; ``optuna.load_study(study_name="tune",
storage="sqlite:///DIR/study.db")`` reads it, a ``?`` or ``%`` in DIR written ``%3F`` or ``%25``)
and ``runs/`` (every trial's plain run folders, which ``simtool report`` reads). The folder is
locked while a tuning writes it. Every trial plays the same seed, so trials are compared on the
same deals. The best few trials are then measured again on fresh deals at a larger n, with the
sheet's defaults, before one is called best: the trial that looked best on n deals is partly
lucky, its re-measure is not.

A combination of varied values the game cannot play (``Game.check_rules``: more cards than the
deck...) is skipped: its trial is pruned, with the reason kept in the study; a tuning none of
whose combinations can be played is refused before it starts.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Callable
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass
from decimal import Decimal
from pathlib import Path

import numpy as np
import polars as pl

from simtool import arguments, games, options, stats
from simtool.analysis import of as analysis_of
from simtool.analysis.lengths import to_the_end
from simtool.analysis.summary import seat_summary
from simtool.analysis.tuning import advice, setting, sheet_defaults, trials_of
from simtool.commands import plans
from simtool.commands.plans import play as run_cells
from simtool.commands.sweep import lineup as parse_lineup
from simtool.errors import GameError, SimtoolError, bad, choices, option, os_problem, pasted, shown
from simtool.games import ROUND_CAP
from simtool.pipeline import folders
from simtool.pipeline.folders import PLAYED_BY, FolderLock, load, parse_json, write_json
from simtool.pipeline.runner import MAX_COUNT, RunSpec, make_spec, parse_count

STUDY = "tune"
CONFIG = "tune.json"
FIGURES = ("seat_spread", "first_seat_edge", "skill", "match_rounds")
DEFAULT_DIRECTION = {"seat_spread": "min", "skill": "max"}
DEFAULT_TARGET = {"first_seat_edge": 0.0}
"""A signed figure named bare means "make it fair": minimised, seat 0 losing badly would look best."""
TARGETS = {"seat_spread": (0, 1, "a seat spread's target is between 0 and 1"),
           "first_seat_edge": (-1, 1, "the first seat's edge's target is between -1 and 1"),
           "skill": (0, 1, "skill's target (a win share) is between 0 and 1"),
           "match_rounds": (1, ROUND_CAP, f"a match lasts 1 to {ROUND_CAP} rounds")}
"""The values each figure can take: a target outside them (``match_rounds=-5``) is refused."""
CONFIRM = 3
"""Trials re-measured before one is called best (single objective; with several, the Pareto
front's first few)."""
CONFIRM_FACTOR = 4
"""The re-measure plays this many times the trials' n: intervals half as wide."""
SEARCH = 100_000
"""Combinations tried, at most, to find one the game can play before a tuning starts."""


@dataclass(frozen=True)
class Objective:
    """One target: a figure, minimised or maximised, or its distance to ``target`` minimised."""

    figure: str
    direction: str  # "min" or "max"
    target: float | None = None

    @property
    def label(self) -> str:
        return f"{self.figure}={self.target:g}" if self.target is not None else f"{self.figure}:{self.direction}"

    @property
    def optuna_direction(self) -> str:
        return "minimize" if self.direction == "min" else "maximize"


def parse_objective(game, text: str) -> Objective:
    """``seat_spread[:min|:max]``, ``first_seat_edge`` (``=0``), ``skill:max``, ``RATE=TARGET``,
    ``match_rounds=N``: a figure of the balance report, for ``game``."""
    shared = analysis_of(game).shared
    known = (*FIGURES, *[r for r in analysis_of(game).rates if r not in shared])
    body, colon, direction = text.strip().partition(":")
    direction = direction.strip()  # 'seat_spread: min' as 'seat_spread = 0' is: spaces around it
    figure, eq, target = (part.strip() for part in body.partition("="))
    if figure in shared:  # every deal one seat has it: pooled over the seats no rule moves it
        raise SimtoolError(f"{figure} is 1/p by rule (every deal one seat has it, so pooled over the seats "
                           f"no rule changes it): not a target; valid: {choices(known)}")
    if figure not in known:
        raise SimtoolError(f"unknown objective '{figure}' for {game.id}; valid: {choices(known)}")
    if colon and direction not in ("min", "max"):  # 'seat_spread:' was taken as the default silently
        raise SimtoolError(f"bad objective {text!r}; a direction is :min or :max")
    if eq:
        try:
            value = float(target)
            if value == 0 and Decimal(target) != 0:  # 1e-400: not 0, though a float reads 0
                value = math.nan
        except (ValueError, ArithmeticError):
            value = math.nan
        if not math.isfinite(value):
            such = 10 if figure == "match_rounds" else 0.5  # a target the figure can reach
            raise SimtoolError(f"bad objective {text!r}; expected {figure}=NUMBER, such as {figure}={such}")
        if direction == "max":
            raise SimtoolError(f"bad objective {text!r}; a target is approached (its distance "
                               f"minimised), so :max does not apply")
        if figure in analysis_of(game).rates and not 0 <= value <= 1:
            raise SimtoolError(f"bad objective {text!r}; a rate's target is between 0 and 1")
        low, high, what = TARGETS.get(figure, (-math.inf, math.inf, ""))
        if not low <= value <= high:  # a figure that cannot reach it: a typo, not a goal
            raise SimtoolError(f"bad objective {text!r}; {what}")
        return Objective(figure, "min", value)
    if not direction and figure in DEFAULT_TARGET:
        return Objective(figure, "min", DEFAULT_TARGET[figure])
    direction = direction or DEFAULT_DIRECTION.get(figure)
    if direction is None:
        raise SimtoolError(f"objective '{figure}' needs a target or a direction: {figure}=0.5, "
                           f"{figure}:min or {figure}:max")
    return Objective(figure, direction)


@dataclass(frozen=True)
class Config:
    """Everything that fixes a tuning's trials: a resumed tuning must be given the same."""

    game: str
    players: int
    vary: dict  # name -> list of values
    rules: dict  # the options not varied, as fixed (sheet defaults unless --rule)
    objectives: list  # labels, as parsed
    trials: int
    n: int
    lineup: str
    strong: str
    weak: str
    seed: int
    unit: str

    def objective_list(self) -> list[Objective]:
        g = games.get(self.game)
        return [parse_objective(g, o) for o in self.objectives]


@arguments.called("simtool.tune.configure")
def configure(game: str, vary: list[str], objective: list[str], players: int | None = None,
              trials: int = 60, n=100_000, lineup: str | None = None, strong: str | None = None,
              weak: str = "random", seed: int | None = None, rules: dict | None = None) -> Config:
    """Check every input of a tuning (one-line errors) and return its configuration."""
    arguments.tuning(game, vary, objective, players, rules, lineup, strong, weak, seed)
    g = games.get(game)
    p = games.check_players(g, players)
    space = options.parse_vary(g, vary)
    fixed = options.resolve(g, rules)
    clash = sorted(set(space) & set(rules or {}))
    if clash:
        raise SimtoolError(f"rule {clash[0]} is both varied and fixed with "
                           f"{option('rule', argument='rules')}; give one")
    if not objective:
        raise SimtoolError(f"give at least one {option('objective')}, such as seat_spread:min")
    parsed = [parse_objective(g, o) for o in objective]
    for text, o in zip(objective, parsed, strict=True):
        # seat 0's win share minus 1/p: `first_seat_edge=1` (meant as 1 point) aimed every trial
        # at an edge of 100 points, which no seat can have
        if o.figure == "first_seat_edge" and o.target is not None and not -1 / p <= o.target <= 1 - 1 / p:
            raise SimtoolError(f"bad objective {text!r}; the first seat's edge (its win share minus a fair "
                               f"{1 / p:g}) at {p} players lies between {-1 / p:g} and {1 - 1 / p:g}; "
                               f"an edge of 1 point is first_seat_edge=0.01")
    labels = [o.label for o in parsed]
    if len(set(labels)) < len(labels):
        raise SimtoolError(f"an {option('objective')} is given twice; give each once")
    # seat_spread:min with seat_spread:max (or two targets of one rate): a Pareto front on which
    # every trial lies, "recommended" as if it answered something
    figures = [o.figure for o in parsed]
    if twice := next((f for f in figures if figures.count(f) > 1), None):
        raise SimtoolError(f"{option('objective')} {twice} is given twice, as "
                           f"{' and '.join(o.label for o in parsed if o.figure == twice)}; give each figure one goal")
    if not arguments.whole(trials) or not 1 <= trials <= MAX_COUNT:  # numpy's too, as simtool.run takes its n
        raise SimtoolError(f"bad {option('trials')} {shown(trials)}; expected a whole number, 1 or more "
                           f"(at most 2^63 - 1)")
    count = parse_count(n)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 62))
    strong = strong or g.default_strategy
    unit = "match" if any(o.figure == "match_rounds" for o in parsed) else "deal"
    lineup = lineup or "default"
    import strategies

    # a tuning reads the rules' balance under fair play: a player that sees every card would tune
    # the rules for a game nobody plays
    strategies.require_fair([*strategies.split_lineup(lineup), strong, weak], "in a tuning's "
                            f"{option('lineup')}, {option('strong')} or {option('weak')}")
    # plain ints, as tune.json holds them: numpy's players=np.int64(4) was written as '4', and the
    # tuning refused its own tune.json as damaged
    config = Config(g.id, int(p), {k: list(v) for k, v in space.items()},
                    {k: v for k, v in fixed.items() if k not in space}, labels, int(trials), count,
                    lineup, strong, weak, int(seed), unit)
    # building a trial's runs checks the line-up and strategies now, not after the first trial
    built = trial_specs(config, first_playable(config), count, config.seed)
    # as played: `default`, or a parameter at its default, names the same strategy
    if "skill" in built and len(set(built["skill"].lineup)) == 1:
        raise SimtoolError(f"skill compares two strategies; {option('strong')} and {option('weak')} are both "
                           f"{built['skill'].lineup[0]}")
    return config


def trial_specs(config: Config, params: dict, n: int, seed: int) -> dict[str, RunSpec]:
    """The runs one trial plays: ``main`` (the line-up) unless skill is the only figure wanted,
    and ``skill`` (one strong seat among weak ones, seats rotated) if skill is wanted."""
    g = games.get(config.game)
    rules = {**config.rules, **params}
    figures = {o.figure for o in config.objective_list()}
    specs = {}
    if figures - {"skill"}:
        seats = parse_lineup(config.lineup, g, config.players)
        specs["main"] = make_spec(g.id, config.players, n, None, seats, rules, config.unit, seed)
    if "skill" in figures:
        specs["skill"] = make_spec(g.id, config.players, n, config.weak, {0: config.strong}, rules,
                                   config.unit, seed, rotate=True)
    return specs


def unplayable(config: Config, params: dict) -> str | None:
    """Why the game cannot be played with ``params`` (and the fixed rules), or ``None``."""
    g = games.get(config.game)
    try:
        games.check_rules(g, options.resolve(g, {**config.rules, **params}), config.players)
    except GameError:  # the game's check_rules is broken: no refusal of these values
        raise
    except SimtoolError as exc:
        return str(exc)
    return None


def combinations(config: Config) -> list[dict]:
    """Every combination of the varied values, in the order of the --vary values, each setting
    once: a value that plays as another (``sheet`` and its number) is measured at its first."""
    seen, out = set(), []
    for values in itertools.product(*config.vary.values()):
        params = dict(zip(config.vary, values, strict=True))
        key = setting(config, params) if unplayable(config, params) is None else values
        if key not in seen:
            seen.add(key)
            out.append(params)
    return out


def first_playable(config: Config) -> dict:
    """The first combination of the varied values the game can play; refuses the tuning (one
    line, the first reason) when there is none."""
    why = None
    for values in itertools.islice(itertools.product(*config.vary.values()), SEARCH):
        params = dict(zip(config.vary, values, strict=True))
        why_not = unplayable(config, params)
        if why_not is None:
            return params
        why = why or why_not
    some = "" if space_size(config) <= SEARCH else f" (of the first {SEARCH:,} tried)"
    raise SimtoolError(f"no combination of the {option('vary')} values can be played{some}: {why}")


def space_size(config: Config) -> int:
    return math.prod(len(v) for v in config.vary.values())


def sampler_name(config: Config) -> str:
    """Grid when every combination fits in the trials (each is measured once, none twice);
    else TPE for one objective and NSGA-II for several."""
    if space_size(config) <= config.trials:
        return "grid"
    return "tpe" if len(config.objectives) == 1 else "nsga2"


def trial_seed(config: Config, ordinal: int) -> int:
    """The sampler's seed for the study's ``ordinal``-th trial (counting finished ones): a
    function of the tuning's seed and the trial alone, however often the tuning was stopped."""
    return int(np.random.SeedSequence([config.seed, ordinal]).generate_state(1)[0])


def sampler_for(config: Config, study, ordinal: int, grid: list[dict] | None = None):
    """A fresh sampler for trial ``ordinal``, seeded by :func:`trial_seed`: what it draws depends
    on the study's finished trials only, never on a state left by earlier trials of this process,
    so a resumed tuning draws what an unbroken one draws. The grid takes the first combination
    (in the order of the --vary values) no finished trial has measured; ``grid``: the
    :func:`combinations` of ``config``, where the caller has them (they take a game lookup per
    combination, some 5 ms each)."""
    import warnings

    import optuna

    seed, name = trial_seed(config, ordinal), sampler_name(config)
    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if name == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed)
    done = [{k: t.params.get(k) for k in config.vary} for t in finished(study)]
    point = next(params for params in (combinations(config) if grid is None else grid) if params not in done)
    with warnings.catch_warnings():  # optuna calls it experimental; it only hands the point over
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        return optuna.samplers.PartialFixedSampler(point, optuna.samplers.RandomSampler(seed=seed))


def distributions(config: Config) -> dict:
    """Each varied option as optuna sees it: consecutive whole numbers as an integer range (so
    TPE learns from their order), anything else as categories."""
    from optuna.distributions import CategoricalDistribution, IntDistribution

    out = {}
    for name, values in config.vary.items():
        ints = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        if ints and values == list(range(values[0], values[-1] + 1)):
            out[name] = IntDistribution(values[0], values[-1])
        else:
            out[name] = CategoricalDistribution(values)
    return out


# ---- measuring one trial ----------------------------------------------------------------------

Measure = dict[str, tuple[float, float, float]]
"""Figure (or objective label) -> (value, low, high): the 95% interval of each."""


def _wins(meta: dict, seats, matches, by: tuple[str, ...]) -> pl.DataFrame:
    """Win share per ``by`` group with its interval: of matches when the run plays matches."""
    game = games.get(meta["game"])
    strata = meta["players"] if meta.get("rotate") else None
    table = seat_summary(game, seats, matches, by, strata)
    col = "match_win" if matches is not None else "win"
    return table.select(*by, pl.col(col).alias("win"), pl.col(f"{col}_low").alias("low"),
                        pl.col(f"{col}_high").alias("high"))


def measure_main(folder: Path) -> Measure:
    """Every figure of a line-up run: seat spread, first-seat edge, the game's pooled rates and,
    for matches, the mean match length."""
    meta, seats, matches = load(folder)
    game = games.get(meta["game"])
    p = meta["players"]
    w = _wins(meta, seats, matches, ("seat",)).sort("seat")
    win, low, high = (w[c].to_numpy() for c in ("win", "low", "high"))
    out: Measure = {
        # the spread's interval: as wide as the seats' own 95% intervals allow, at both ends
        "seat_spread": (float(win.max() - win.min()), float(max(0.0, low.max() - high.min())),
                        float(high.max() - low.min())),
        "first_seat_edge": (float(win[0] - 1 / p), float(low[0] - 1 / p), float(high[0] - 1 / p)),
    }
    if analysis_of(game).rates:
        rates = stats.estimates(seats, dict(analysis_of(game).rates)).rows(named=True)
        out |= {r["figure"]: (r["value"], r["low"], r["high"]) for r in rates}
    if matches is not None:
        out["match_rounds"] = match_rounds(game, seats, matches, folder)
    return out


def match_rounds(game, seats, matches, folder: Path) -> tuple[float, float, float]:
    """Mean rounds of the matches that reached the game's end, with its interval: what the
    match-length tables count (:func:`to_the_end`). A match another guard stopped (Nine Lives'
    small deck) is left out. Where the round cap stopped some, those would have gone on past
    it: they count at the cap with the rest, a mean the true one is at least (the matches
    that got there alone are the short ones: 5, 7 and a capped match read 6 rounds, a
    setting whose matches run on as the best for a target of 6). None got there: no length
    to tune on, refused."""
    stopped = analysis_of(game).stopped
    lengths = to_the_end(seats, matches, "rounds", stopped).row(0, named=True)
    capped = lengths[f"capped at {ROUND_CAP} rounds"]
    if "mean" not in lengths:
        raise SimtoolError(f"no match of {folder} reached the game's end (all {lengths['matches']:,} stopped, "
                           f"{capped:,} by the {ROUND_CAP}-round cap): "
                           f"match_rounds has no length to tune on there; narrow the ranges that make "
                           f"matches this long")
    if capped:
        lengths = to_the_end(seats, matches.with_columns(pl.lit(False).alias("capped")), "rounds",
                             stopped).row(0, named=True)
    return lengths["mean"], lengths["mean_low"], lengths["mean_high"]


def measure_skill(folder: Path) -> Measure:
    """The strong strategy's win share per seat it holds, seats rotated (fair share: 1/p)."""
    meta, seats, matches = load(folder)
    w = _wins(meta, seats, matches, ("strategy",))
    r = w.filter(pl.col("strategy") == meta["lineup"][0]).row(0, named=True)
    return {"skill": (r["win"], r["low"], r["high"])}


def score(objective: Objective, figure: tuple[float, float, float]) -> tuple[float, float, float]:
    """The objective's value with its interval: the figure itself, or its distance to the target
    (the nearest and farthest points of the figure's interval from it)."""
    value, low, high = figure
    if objective.target is None:
        return figure
    t = objective.target
    near = 0.0 if low <= t <= high else min(abs(low - t), abs(high - t))
    return abs(value - t), near, max(abs(low - t), abs(high - t))


def folder_key(params: dict, n: int, seed: int) -> str:
    """The trial's folder name: its values as written where a file name takes them, else with a
    digest of the whole, so that two values written alike there (a game's ``x/y`` and ``x:y``,
    both ``x-y``; a score table's ``0,5`` and a choice ``0-5``) get folders of their own, and a
    long one fits (:func:`plans.short`)."""
    text = "_".join(f"{k}-{v}" for k, v in params.items()) + f"_n{n}_s{seed}"
    key = re.sub(r"[^A-Za-z0-9_.=-]", "-", text)
    if key == text:
        return plans.short(key)
    return plans.short(f"{key}-{hashlib.sha256(text.encode()).hexdigest()[:12]}")


def measure(config: Config, out: Path, params: dict, n: int, seed: int, jobs, backend: str,
            scheduler: str | None) -> tuple[Measure, dict[str, str]]:
    """Play (or find already played) the runs of ``params`` and return every objective's value
    with its interval, and the run folders."""
    specs = trial_specs(config, params, n, seed)
    folder = out / "runs" / folder_key(params, n, seed)
    # a trial's runs are finished by going on with the tuning (the next start measures the trial
    # cut off), never by `sweep --resume` of its folder, and a tuning has no --force
    paths = run_cells(list(specs.values()), folder, jobs, False, backend, scheduler, command="tune",
                      again=f"a new {arguments.option('out', argument='out folder')}")
    runs = dict(zip(specs, paths, strict=True))
    figures: Measure = {}
    if "main" in runs:
        figures |= measure_main(runs["main"])
    if "skill" in runs:
        figures |= measure_skill(runs["skill"])
    values = {}
    for o in config.objective_list():
        if o.figure not in figures:  # match_rounds of a deal run cannot happen: unit is match then
            raise SimtoolError(f"objective {o.label} has no figure in this run")
        values[o.label] = score(o, figures[o.figure])
    return values, {k: str(v.relative_to(out)) for k, v in runs.items()}


# ---- the study --------------------------------------------------------------------------------

def storage_url(out: Path) -> str:
    # the address's parser reads "?" as the start of its query and decodes "%41" as "A": a folder
    # t?x had its study written as the file t beside it, and t%41x looked for tAx
    path = str((out / "study.db").resolve()).replace("%", "%25").replace("?", "%3F")
    return f"sqlite:///{path}"


def check_folder(out: Path) -> None:
    """Refuse a tuning folder that is a file, or holds files but no tuning (a user's own
    ``study.db``, ``tune.html`` or anything else): simtool tunes into a new or empty folder, or
    goes on with the tuning whose ``tune.json`` is there."""
    out = Path(out)
    folders.native(out)  # a name the study and the tables cannot take: refused before a file is written
    if not out.exists() or (out / CONFIG).is_file():
        return
    if not out.is_dir():
        raise SimtoolError(f"tuning folder {out} is a file; choose a folder for {option('out')}")
    if any(out.iterdir()):
        raise SimtoolError(f"tuning folder {out} is not empty and holds no simtool tuning (no {CONFIG}); "
                           f"choose a new or empty folder (simtool never writes over other files)")


def save_config(out: Path, config: Config) -> None:
    file = out / CONFIG
    if file.exists():
        saved = read_config(out)
        check_versions(out)
        if saved != config:
            mine, theirs = asdict(config), asdict(saved)
            diff = [k for k in mine if mine[k] != theirs[k]]
            if diff != ["trials"]:
                again = option("resume", pasted(out)) if arguments.COMMAND_LINE.get() else \
                    f"simtool.tune.tune(simtool.tune.read_config({str(out)!r}), {str(out)!r})"
                verb = "differs" if len(diff) == 1 else "differ"
                raise SimtoolError(f"{out} holds a tuning with other settings ({', '.join(diff)} {verb}); "
                                   f"resume it with {again}, or choose another {option('out')}")
            check_extension(out, saved, config)
            write_json(file, record(config))  # the re-measures of the old count no longer stand
        return
    out.mkdir(parents=True, exist_ok=True)
    write_json(file, record(config))


def record(config: Config, **more) -> dict:
    """``tune.json``: the configuration and the versions that measure its trials."""
    return asdict(config) | {PLAYED_BY: folders.played_by()} | more


def measured_by(out: Path) -> dict | None:
    """The versions that measured the tuning's trials: ``tune.json`` says (since 2026-11-26), else
    the first trial run's ``run.json``; ``None`` where neither does."""
    made = parse_json((out / CONFIG).read_text()).get(PLAYED_BY)
    if made is None:
        for meta in sorted((out / "runs").glob("*/*/run.json")):
            try:
                made = parse_json(meta.read_text()).get("versions")
            except (OSError, ValueError, AttributeError):
                continue  # a damaged run is played again by its plan, under this version
            if made is not None:
                break
    return made


def check_versions(out: Path) -> None:
    """A tuning goes on only under the versions that measured its trials: the trials of two
    versions in one study, and a best chosen among them, are a tuning no one version makes."""
    made = measured_by(out)
    if isinstance(made, dict) and not folders.played_now({"versions": made}):
        said = folders.versions_said
        raise SimtoolError(f"cannot go on with the tuning in {out}: its trials were measured by {said(made)}, "
                           f"this is {said(folders.played_by())}; one tuning plays one version: go on with that "
                           f"version, or choose another {option('out')} for a new tuning")


def check_extension(out: Path, saved: Config, config: Config) -> None:
    """Another --trials goes on with the study as an unbroken tuning of that many trials would
    have made it (each trial's sampler depends on the trials before it, never on the count), so
    it is refused only where that tuning would differ: a count that changes the sampler (a grid
    covers a small space, TPE or NSGA-II draws from a large one), or one below the trials made."""
    before, after = sampler_name(saved), sampler_name(config)
    if before != after:
        raise SimtoolError(f"{out} holds a tuning of {saved.trials} trials drawn by the {before} sampler; "
                           f"{config.trials} trials would use the {after} sampler from the first trial, "
                           f"so they cannot go on from these: give {option('trials')} "
                           f"{'below' if after == 'grid' else 'at least'} {space_size(config)}, or "
                           f"choose another {option('out')}")
    made = made_trials(out)
    if after != "grid" and made > config.trials:
        raise SimtoolError(f"{out} holds {made} finished trials already, more than "
                           f"{option('trials', config.trials)}; give {option('trials')} {made} or more, or choose "
                           f"another {option('out')}")


def made_trials(out: Path) -> int:
    """Finished (measured or skipped) trials of the study in ``out``; 0 before it exists."""
    if not (Path(out) / "study.db").is_file():
        return 0
    try:
        trials = study_trials(out)
    except SimtoolError:  # a study not begun; a damaged one is refused when it is opened
        return 0
    return sum(t.state.name in ("COMPLETE", "PRUNED") for t in trials)


def read_config(out: Path) -> Config:
    file = Path(out) / CONFIG
    if not file.is_file():
        raise SimtoolError(f"nothing to resume in {out}: no {CONFIG} from a tuning")
    try:
        data = parse_json(file.read_text())
        data.pop("confirmed", None)
        # a game's options added since the tuning began hold their defaults (as they did then)
        newer = {o.name: o.default for o in games.get(data["game"]).options if o.name not in data["vary"]}
        data["rules"] = newer | data["rules"]
        config = Config(**{k: data[k] for k in Config.__dataclass_fields__})
    except (KeyError, TypeError, ValueError, AttributeError):
        raise SimtoolError(f"cannot resume {out}: {CONFIG} is damaged") from None
    odd = next((name for name, ok in _sound(config).items() if not ok), None)
    if odd is not None:  # a value simtool never writes: "n": "200" would play 200200200200 deals
        raise SimtoolError(f"cannot resume {out}: {CONFIG} is damaged ('{odd}' is "
                           f"{getattr(config, odd)!r}, which no tuning writes)")
    known = [o.name for o in games.get(config.game).options]
    stray = next((name for name in [*config.vary, *config.rules] if name not in known), None)
    if stray is not None:  # its game edited (another game's folder): its rules would crash a trial
        raise SimtoolError(f"cannot resume {out}: {CONFIG} is damaged (rule '{stray}' is not "
                           f"{config.game}'s; valid: {choices(known)})")
    return config


def check_config(config: Config) -> None:
    """A configuration changed since :func:`configure` checked it (``dataclasses.replace(config,
    trials=0)``) is refused as a ``tune.json`` read back is: ``trials=0`` ended in an IndexError,
    ``players=9`` in the game's KeyError, each after the tuning's folder was made."""
    odd = next((name for name, ok in _sound(config).items() if not ok), None)
    if odd is None:
        g = games.get(config.game)
        games.check_players(g, config.players)
        # objectives=["nope"] was refused only after tune.json was written into the new folder;
        # vary={"hand_size": [10, 99]} tuned a value no rule takes, each trial of it "skipped"
        for objective in config.objectives:
            parse_objective(g, objective)
        for name, values in {**config.vary, **{k: [v] for k, v in config.rules.items()}}.items():
            for value in values:
                options.resolve(g, {name: value})
        # as configure() refuses it: rules={'hand_size': 32} at 3 players skipped every trial, then
        # was refused with tune.json and study.db written, advising to go on with more trials
        first_playable(config)
        return
    raise SimtoolError(f"bad config: its {odd} {getattr(config, odd)!r} is none that simtool.tune.configure "
                       f"makes; make the tuning with configure(game, vary, objective, ...), which checks it")


def _sound(config: Config) -> dict[str, bool]:
    """Each setting of a ``tune.json`` read back: whether it is of a kind a tuning writes."""
    def whole(value, low: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= low

    return {"players": whole(config.players, 1), "trials": whole(config.trials, 1), "n": whole(config.n, 1),
            "seed": whole(config.seed, 0), "unit": config.unit in ("deal", "match"),
            "vary": isinstance(config.vary, dict) and bool(config.vary)
            and all(isinstance(v, list) and v for v in config.vary.values()),
            "rules": isinstance(config.rules, dict),
            "objectives": isinstance(config.objectives, list) and bool(config.objectives)
            and all(isinstance(o, str) for o in config.objectives),
            **{name: isinstance(getattr(config, name), str) for name in ("lineup", "strong", "weak")}}


@contextmanager
def database(out: Path):
    """The study's database errors (not SQLite, damaged, a full disk) as one line naming it."""
    import sqlite3

    import optuna
    import sqlalchemy.exc

    try:
        yield
    except (sqlite3.Error, sqlalchemy.exc.SQLAlchemyError, optuna.exceptions.StorageInternalError) as exc:
        raise SimtoolError(f"cannot use the tuning's study {Path(out) / 'study.db'}: {_cause(exc)}") from None


def _cause(exc: BaseException) -> str:
    """SQLite's own words (``database or disk is full``), under optuna's and SQLAlchemy's."""
    import sqlite3

    seen = exc
    while seen is not None:
        if isinstance(seen, sqlite3.Error):
            return str(seen)
        seen = getattr(seen, "orig", None) or seen.__cause__ or seen.__context__
    return str(exc).splitlines()[0]


def check_database(out: Path) -> None:
    """Refuse a ``study.db`` that is not SQLite, is damaged (a truncated copy) or holds no
    optuna study named ``tune`` (or other ones), before optuna writes into it."""
    import sqlite3
    from urllib.request import pathname2url

    db = Path(out) / "study.db"
    if not db.exists():
        return
    try:  # read-write: a journal left by a killed process is rolled back, as optuna would
        with closing(sqlite3.connect(f"file:{pathname2url(folders.native(db.resolve()))}?mode=rw", uri=True)) as c:
            health = c.execute("pragma quick_check").fetchone()[0]
            tables = {name for (name,) in c.execute("select name from sqlite_master where type = 'table'")}
            studies = [name for (name,) in c.execute("select study_name from studies")] if "studies" in tables else []
    except sqlite3.Error as exc:
        raise SimtoolError(f"cannot use the tuning's study {db}: {exc}; move it away to start the "
                           f"study afresh (finished runs are kept), or choose another {option('out')}") from None
    if health != "ok":
        raise SimtoolError(f"cannot use the tuning's study {db}: it is damaged ({health})")
    if tables and "studies" not in tables:
        raise SimtoolError(f"{db} is an SQLite database but holds no optuna study; choose another {option('out')}")
    if studies and studies != [STUDY]:
        raise SimtoolError(f"{db} holds the optuna studies {', '.join(map(repr, studies))}, not a simtool "
                           f"tuning's '{STUDY}' alone; choose another {option('out')}")


def check_study(config: Config, study, out: Path) -> None:
    """Refuse a study named ``tune`` that another tuning made: other directions or options."""
    dists = distributions(config)
    directions = [d.name.lower() for d in study.directions]
    why = None
    if directions != [o.optuna_direction for o in config.objective_list()]:
        why = f"directions {', '.join(directions)}"
    for t in study.get_trials(deepcopy=False):
        for name, d in t.distributions.items():
            if why is None and dists.get(name) != d:
                why = f"trial {t.number} varies {name} over {d}"
        # the directions and options alike, another tuning's figures passed as this one's: of
        # another objective (the page failed on them), or at another n (shown and ranked as ours)
        measured = list(t.user_attrs.get("intervals", config.objectives))
        if why is None and measured != config.objectives:
            why = f"trial {t.number} measured {', '.join(map(str, measured))}"
        if why is None and t.user_attrs.get(SETTINGS, settings_key(config)) != settings_key(config):
            why = f"trial {t.number} measured with other settings than {CONFIG}'s"
    if why:
        raise SimtoolError(f"{Path(out) / 'study.db'} holds another tuning's study ({why}); "
                           f"choose another {option('out')}")


SETTINGS = "settings"
"""A trial's user attribute: :func:`settings_key` of the tuning that measured it (none before
2026-11-28)."""


def settings_key(config: Config) -> str:
    """The SHA-256 of what fixes a trial's figures: the configuration but its count of trials."""
    fixed = {k: v for k, v in asdict(config).items() if k != "trials"}
    return hashlib.sha256(json.dumps(fixed, sort_keys=True, default=str).encode()).hexdigest()


def open_study(config: Config, out: Path):
    """The study in ``out``, checked. A trial a hard stop cut off before it drew all its values
    is dropped (the next trial draws them again, as it would have); one that drew them all is
    still RUNNING and is measured next, its run folders resumed."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # our errors are one line
    check_database(out)
    study = optuna.create_study(study_name=STUDY, storage=storage_url(out), load_if_exists=True,
                                directions=[o.optuna_direction for o in config.objective_list()])
    check_study(config, study, out)
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        if set(t.params) != set(config.vary):
            study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
    return study


def finished(study) -> list:
    """Trials measured, or skipped as unplayable."""
    from optuna.trial import TrialState

    return study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED))


def lock(out: Path):
    """Hold the tuning folder for this process (see :class:`simtool.results.FolderLock`): a
    second tuning there is refused before it reads or writes anything of the first's."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        return FolderLock(out)
    except SimtoolError:
        raise SimtoolError(f"tuning folder {out} is in use by another simtool tune; wait for it to "
                           f"end, or choose another {option('out')}") from None
    except OSError as exc:
        raise SimtoolError(f"cannot write to tuning folder {out}: {os_problem(out, exc)}") from None


@arguments.called("simtool.tune.tune")
def tune(config: Config, out: str | Path, jobs: int | None = None, backend: str = "local",
         scheduler: str | None = None, on_trial: Callable[[int, int], None] | None = None) -> dict:
    """Run (or go on with) the tuning ``config`` in ``out`` and return its summary
    (see :func:`summary`). ``on_trial(done, total)`` is called after each trial. Stopped in any
    way and run again, it goes on with the trials an unbroken tuning would have made."""
    if not isinstance(config, Config):  # before its folder is made: a dict once failed in dataclasses
        raise bad("config", config, "a tuning made by simtool.tune.configure(game, vary, objective, ...)")
    check_config(config)
    arguments.execution(jobs, False, None, backend, scheduler)
    arguments.callback("on_trial", on_trial, "on_trial(done, total)")
    out = arguments.folder("out", out)
    check_folder(out)
    held = lock(out)
    try:
        with database(out):
            save_config(out, config)
            study = open_study(config, out)
            play(config, out, study, jobs, backend, scheduler, on_trial)
            check_measured(config, study)
            confirmed = confirm(config, out, study, jobs, backend, scheduler)
            write_json(out / CONFIG, record(config, sampler=sampler_name(config), confirmed=confirmed))
            return summary(out)
    finally:
        held.release()


def play(config: Config, out: Path, study, jobs, backend, scheduler, on_trial) -> None:
    """The trials still to make: the grid covers every combination once (a skipped one counts
    as done), another sampler makes ``config.trials``. Each trial's sampler is fresh
    (:func:`sampler_for`); an error or Ctrl-C while a trial is measured leaves it RUNNING, to be
    measured by the next start."""
    import optuna

    dists = distributions(config)
    grid = combinations(config) if sampler_name(config) == "grid" else None  # once, not per trial
    total = len(grid) if grid is not None else config.trials
    while (done := len(finished(study))) < total:
        study.sampler = sampler_for(config, study, done, grid)
        cut_off = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,))
        trial = optuna.trial.Trial(study, cut_off[0]._trial_id) if cut_off else study.ask()
        params = {k: trial.suggest_int(k, d.low, d.high) if hasattr(d, "low")
                  else trial.suggest_categorical(k, d.choices) for k, d in dists.items()}
        trial.set_user_attr(SETTINGS, settings_key(config))
        why = unplayable(config, params)
        if why is not None:
            trial.set_user_attr("unplayable", why)
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        else:
            values, runs = measure(config, out, params, config.n, config.seed, jobs, backend, scheduler)
            trial.set_user_attr("intervals", {k: [v[1], v[2]] for k, v in values.items()})
            trial.set_user_attr("runs", runs)
            study.tell(trial, [values[k][0] for k in config.objectives])
        if on_trial:
            on_trial(done + 1, total)


def check_measured(config: Config, study) -> None:
    """Refuse a tuning whose every trial drew a combination the game cannot play: it has nothing
    to choose from, and its page said "holds no finished trial yet; go on with simtool tune
    --resume", which went on with nothing and said it again."""
    from optuna.trial import TrialState

    if study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        return
    why, size = skipped(finished(study)), space_size(config)
    # more trials go on with this sampler only below the space's size (check_extension)
    more = (f"go on with a larger {option('trials')} (below {size:,})" if config.trials + 1 < size
            else f"tune into another {option('out')} with {option('trials', size)} (each combination once)")
    raise SimtoolError(f"none of the {len(why)} trials could be played: each drew a combination the game "
                       f"cannot play (first: {why[0]}); narrow the {option('vary')} ranges to what it plays, "
                       f"or {more}")


def candidates(config: Config, study) -> list:
    """The trials worth a second look: the best few (one objective) or the Pareto front."""
    import optuna

    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    if len(config.objectives) == 1:
        sign = 1 if config.objective_list()[0].direction == "min" else -1
        ranked, keep = sorted(done, key=lambda t: sign * t.values[0]), CONFIRM
    else:
        ranked, keep = sorted(study.best_trials, key=lambda t: t.number), 2 * CONFIRM
    firsts = {}  # a setting drawn twice (or as sheet and as its number) is one candidate
    for t in ranked:
        firsts.setdefault(setting(config, {k: t.params[k] for k in config.vary}), t)
    return list(firsts.values())[:keep]


def confirm(config: Config, out: Path, study, jobs, backend, scheduler) -> list[dict]:
    """Measure the candidates and the sheet's defaults again on fresh deals (another seed) at
    :data:`CONFIRM_FACTOR` times n; the best is chosen on these figures. A candidate whose
    setting is the defaults' is measured once, as the defaults, with its trial named in
    ``trials``."""
    defaults = sheet_defaults(config)
    points = {setting(config, defaults): {"label": "defaults", "params": defaults, "trials": []}} \
        if unplayable(config, defaults) is None else {}
    for t in candidates(config, study):
        params = {k: t.params[k] for k in config.vary}
        point = points.setdefault(setting(config, params), {"label": f"trial {t.number}",
                                                            "params": params, "trials": []})
        point["trials"].append(t.number)
    # the next seed, the largest one's being 0 (its + 1 was refused as "bad seed", a number not typed)
    n, seed = config.n * CONFIRM_FACTOR, (config.seed + 1) % (arguments.SEED_MAX + 1)
    measured = []
    for point in points.values():
        values, runs = measure(config, out, point["params"], n, seed, jobs, backend, scheduler)
        measured.append(point | {"n": n, "seed": seed, "runs": runs,
                                 "values": {k: list(v) for k, v in values.items()}})
    return measured


def best(config: Config, confirmed: list[dict]) -> list[dict]:
    """Among the re-measured trials (the defaults too where a candidate trial had their
    setting): the best one, or with several objectives those no other re-measured trial beats on
    every objective (the Pareto front)."""
    rows = [c for c in confirmed if trials_of(c)]
    objectives = config.objective_list()

    def key(c, o):
        v = c["values"][o.label][0]
        return v if o.direction == "min" else -v

    if len(objectives) == 1:
        return sorted(rows, key=lambda c: key(c, objectives[0]))[:1]
    return [c for c in rows
            if not any(all(key(d, o) <= key(c, o) for o in objectives)
                       and any(key(d, o) < key(c, o) for o in objectives) for d in rows)]


def trials_frame(out: Path, trials: list | None = None) -> pl.DataFrame:
    """Every trial of the study in ``out``: number, state, each varied option, and each
    objective's value with ``_low`` and ``_high``. ``trials``: the study's, read already."""
    config = read_config(out)
    rows = []
    for t in study_trials(out) if trials is None else trials:
        row = {"trial": t.number, "state": t.state.name}
        row |= {k: str(t.params.get(k)) for k in config.vary}
        spans = t.user_attrs.get("intervals", {})
        for i, label in enumerate(config.objectives):
            value = t.values[i] if t.values else None
            low, high = spans.get(label, [None, None])
            row |= {label: value, f"{label}_low": low, f"{label}_high": high}
        rows.append(row)
    schema = {"trial": pl.Int64, "state": pl.String, **{k: pl.String for k in config.vary},
              **{f"{o}{s}": pl.Float64 for o in config.objectives for s in ("", "_low", "_high")}}
    return pl.DataFrame(rows, schema=schema, orient="row")


def summary(out: Path) -> dict:
    """A finished tuning: its configuration, sampler, trials, re-measures and best settings."""
    out = Path(out)
    config = read_config(out)
    data = parse_json((out / CONFIG).read_text())
    confirmed = data.get("confirmed") or []
    chosen = best(config, confirmed) if confirmed else []
    trials = study_trials(out)  # read once: each read opens the database anew (tens of ms)
    return {"folder": out, "config": config, "sampler": sampler_name(config), "trials": trials_frame(out, trials),
            "confirmed": confirmed, "best": chosen, "skipped": skipped(trials),
            "recommendation": advice(config, trials, confirmed, chosen, played_tables(out, trials))}


def played_tables(out: Path, trials: list) -> dict[int, tuple | None]:
    """Trial number -> the checksums of its runs' tables (``run.json``'s ``sha256``): what it
    played; ``None`` where its runs are gone (deleted to save room: its figures alone then tell)."""
    found = {}
    for t in trials:
        runs = t.user_attrs.get("runs") or {}
        try:
            found[t.number] = tuple((name, tuple(sorted(folders.read_meta(out / path).get("sha256", {}).items())))
                                    for name, path in sorted(runs.items()))
        except SimtoolError:
            found[t.number] = None
    return found


def skipped(trials: list) -> list[str]:
    """Why each skipped trial (a combination the game cannot play) was skipped, in trial order."""
    return [t.user_attrs["unplayable"] for t in trials if "unplayable" in t.user_attrs]


def study_trials(out: Path) -> list:
    """Every trial of the study in ``out``, read (never created) with one-line errors."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # our errors are one line
    if not (Path(out) / "study.db").is_file():
        raise SimtoolError(f"no study.db in {out}: not a tuning folder")
    with database(out):
        check_database(out)
        try:
            study = optuna.load_study(study_name=STUDY, storage=storage_url(out))
        except KeyError:  # optuna's word for a study not there
            raise SimtoolError(f"{Path(out) / 'study.db'} holds no study yet: the tuning has not "
                               f"started") from None
        return study.get_trials(deepcopy=False)


def check_report(out: str | Path, folder: Path) -> None:
    """Refuse a report path that could not be written, or is one of the tuning's own files
    (``study.db``, ``tune.json``, anything under ``runs/``), before a trial is played."""
    from simtool.reports.balance import check_output

    where, home = Path(out).resolve(), Path(folder).resolve()
    runs = home / "runs"
    if where.parent == home and where.name.startswith(("study.db", CONFIG)) or runs in (where, *where.parents):
        raise SimtoolError(f"report {out} would replace the tuning's own files; choose another "
                           f"--report such as {Path(folder) / 'tune.html'}")
    # another tuning's tune.html was replaced by this one's page (a review's folder likewise),
    # its tune.json left beside a page of other trials; a folder this tuning lies in is another's
    # only for a page put straight into it
    other = next((a for a in where.parents if a != home and (a == where.parent or a not in home.parents)
                  and any((a / record).is_file() for record in (CONFIG, "review.json"))), None)
    if other is not None:
        whose = "tuning" if (other / CONFIG).is_file() else "review"
        raise SimtoolError(f"report {out} would go into another {whose}'s folder ({other}), which "
                           f"answers from its own files; choose another --report such as "
                           f"{Path(folder) / 'tune.html'}")
    check_output(out, [Path(folder)], "tune", "report")
