"""Sweeps: a grid of games x player counts x rule options x line-ups, run as one job.

Every cell is an ordinary run folder (so ``simtool report`` and notebooks read it as any
other), every cell uses the sweep's seed (cells of one game and player count play the same
deals, and the report pairs their differences deal by deal), and the chunks of all cells
go to one pool of workers, local or dask, so that small cells still use every core.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simtool import arguments, games, options
from simtool.errors import GameError, NotForGame, SimtoolError, bad, choices, shown
from simtool.pipeline.runner import UNITS, RunSpec, game_of, make_spec, parse_count

GRID_KEYS = ("games", "players", "rules", "lineups", "n", "seed", "unit", "rotate", "duplicate",
             "ladder", "restrict", "large", "isolate")
LARGE = 10_000
"""Combinations (games x players x rule values x line-ups) a grid may hold unless it says
``large``: each is at least one run folder, and a grid this size is usually a typo."""


@dataclass
class Grid:
    """What a sweep varies. Empty ``players`` or ``lineups``: each game's default."""

    games: list[str]
    players: list[int] = field(default_factory=list)
    rules: dict[str, list[str]] = field(default_factory=dict)  # name -> values, for games having it
    lineups: list[str] = field(default_factory=list)
    n: int = 100_000
    seed: int | None = None
    unit: str = "deal"
    rotate: bool = False
    duplicate: bool = False
    ladder: bool = False  # a skill ladder per cell instead of line-ups (see simtool.ladder)
    restrict: bool = False  # restricted play per cell: each restriction's cost (see simtool.restrict)
    large: bool = False  # more than LARGE combinations is meant
    isolate: bool = False  # plugin strategies play in processes of their own (strategies.isolate)


GRID_BYTES = 1 << 20
"""The most a grid file holds: a grid of every game, rule value and line-up is a few kB; more is
not a grid (``/dev/zero`` given as one would be read for ever)."""


def read_toml(path: Path) -> dict:
    """A grid file: top-level keys of :data:`GRID_KEYS`; ``rules`` is a table of lists."""
    try:
        with open(path, "rb") as file:  # a pipe (`<(...)`) is read too, up to the limit
            raw = file.read(GRID_BYTES + 1)
        if len(raw) > GRID_BYTES:
            raise SimtoolError(f"grid file {path} holds more than {GRID_BYTES // 1024:,} kB, which no grid "
                               f"needs; give a TOML grid file")
        # Notepad's "UTF-8 with BOM" was refused as "Invalid statement (at line 1, column 1)"; the
        # mark is dropped once decoded, so a bad byte's offset stays the file's
        data = tomllib.loads(raw.decode("utf-8").removeprefix("\ufeff"), parse_float=options.Written)
    except FileNotFoundError:
        raise SimtoolError(f"grid file {path} not found") from None
    except UnicodeDecodeError as exc:
        raise SimtoolError(f"grid file {path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
                           f"offset {exc.start}); save it as UTF-8") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SimtoolError(f"cannot read grid file {path}: {exc}") from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise SimtoolError(f"cannot read grid file {path}: values nested too deep") from None
    unknown = set(data) - set(GRID_KEYS)
    if unknown:
        raise SimtoolError(f"unknown key '{sorted(unknown)[0]}' in {path}; valid: {choices(GRID_KEYS)}")
    return data


SEED = options.Value(options.WHOLE, low=0, high=arguments.SEED_MAX)
"""A grid file's seed, read as ``--seed`` reads one (``simtool.cli.SEED``)."""


def _tables_only(name: str, game_ids: list[str]) -> bool:
    """Whether every game of the sweep that has rule ``name`` takes a table of two numbers or more
    for it: a designer's game may take one number (its own ``score_table`` of one number or more,
    or one chosen by number), varied as ``score_table = [1, 2]`` whatever kansas-city takes."""
    found = []
    for game_id in filter(lambda g: isinstance(g, str), game_ids):  # other values are refused below
        try:
            found += [o.items for o in game_of(game_id).options if o.name == name]
        except SimtoolError:  # an unknown game is named where the cells are made
            continue
    return bool(found) and all(items is not None and items[0] > 1 for items in found)


def make_grid(data: dict) -> Grid:
    """A Grid from a grid file's (or the command line's) values, checked value by value."""
    listed = {k: _values(k, v) for k, v in data.items() if k in ("games", "players", "lineups")}
    if not listed.get("games"):
        raise SimtoolError(f"a sweep needs at least one game; valid: {choices(sorted(games.registry()))}")
    rules = data.get("rules") or {}
    if not isinstance(rules, dict):
        raise SimtoolError("rules must be a table of NAME = [values]")
    listed_rules = list_rules()
    for name, values in rules.items():
        values = values if isinstance(values, list) else [values]
        if not values:
            raise SimtoolError(f"rule '{name}' has no values: the grid would be empty")
        if len(values) > 1 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values) \
                and _tables_only(name, listed["games"]):
            # each value of a rule is a cell, and one number is no score table: refused as
            # "bad rule score_table '5'", the grid's brackets unsaid
            table = ", ".join(map(str, values))
            raise SimtoolError(f"rule {name} = [{table}] lists {len(values)} values to vary, each one number, "
                               f"and a {name} is a list of numbers: write {name} = [[{table}]] for one "
                               f"table, [[...], [...]] for several")
        for v in values:
            numbers = name in listed_rules and isinstance(v, list) and \
                all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
            if not (isinstance(v, (str, int, float)) or numbers):
                raise bad(f"rule {name}", v, 'a value such as 2 or "low"')
    seed = data.get("seed")
    if seed is not None:  # as --seed takes it: 1e3 (a float in TOML) and "1_000" too
        seed = SEED.check("seed", seed)
    rotate, duplicate = data.get("rotate", False), data.get("duplicate", False)
    for key, value in (("rotate", rotate), ("duplicate", duplicate)):
        if not isinstance(value, bool):
            raise SimtoolError(f"bad {key} {value!r}; expected true or false")
    if rotate and duplicate:  # every cell recorded rotate: false without a word, as `simtool run` did
        raise SimtoolError("rotate with duplicate: duplicate already plays every deal once per rotation of the "
                           "line-up, so every strategy sits in every seat; leave out rotate")
    unit = data.get("unit", "deal")
    if not isinstance(unit, str):
        raise SimtoolError(f"bad unit {unit!r}; valid: {choices(UNITS)}")
    ladder = data.get("ladder", False)
    if not isinstance(ladder, bool):
        raise SimtoolError(f"bad ladder {ladder!r}; expected true or false")
    if ladder and data.get("lineups"):
        raise SimtoolError("a ladder sweep plays its own line-ups (each rung against the one below); "
                           "leave out lineups, or leave out ladder")
    restrict, large, isolate = data.get("restrict", False), data.get("large", False), data.get("isolate", False)
    for key, value in (("restrict", restrict), ("large", large), ("isolate", isolate)):
        if not isinstance(value, bool):
            raise SimtoolError(f"bad {key} {value!r}; expected true or false")
    if restrict and (ladder or unit != "deal" or duplicate):
        raise SimtoolError("restricted play pairs single deals of its own runs; leave out ladder, "
                           "duplicate and unit = \"match\", or leave out restrict")
    if restrict and any("," in x for x in listed.get("lineups", [])):
        raise SimtoolError("with restrict, lineups name the strategies to restrict, one per entry "
                           "(such as [\"target\", \"greedy\"]), not seat by seat")
    return Grid(games=[_text(g, "games") for g in listed["games"]],
                players=[_count(p) for p in listed.get("players", [])],
                rules={k: [",".join(map(str, x)) if isinstance(x, list) else str(x)
                           for x in (v if isinstance(v, list) else [v])] for k, v in rules.items()},
                lineups=[_text(x, "lineups") for x in listed.get("lineups", [])],
                n=parse_count(data.get("n", 100_000), "n"), seed=seed, unit=unit, rotate=rotate,
                duplicate=duplicate, ladder=ladder, restrict=restrict, large=large, isolate=isolate)


def _values(key: str, value) -> list:
    if value == []:
        raise SimtoolError(f"{key} = [] lists no values: the grid would be empty (leave {key} "
                           f"out for each game's default)")
    return value if isinstance(value, list) else [value]


def _text(value, key: str) -> str:
    if not isinstance(value, str):
        raise SimtoolError(f"bad {key} {value!r}; expected names in quotes")
    return value


def _count(value) -> int:
    """A player count, whole as the command line's ``--players`` reads one (``4.0`` is 4; a float
    this far from any game's count, ``1e400``, is quoted as written, not expanded)."""
    if isinstance(value, options.Written) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimtoolError(f"bad players {shown(value)}; expected whole numbers such as [4, 5]")
    return value


def lineup(text: str, game, p: int) -> dict[int, str]:
    """``"greedy,target"``: seat 0 greedy, every later seat the last name (target).
    ``default`` names the game's default strategy. A name may carry parameters
    (``target@under=1,mistakes=0.1``): their commas do not separate seats."""
    names = _entries(text)
    if len(names) > p:
        raise SimtoolError(f"line-up {text!r} names {len(names)} seats; {game.id} has {p} players here")
    return {s: names[min(s, len(names) - 1)] for s in range(p)}


def _entries(text: str) -> list[str]:
    """The line-up's names, one per seat; an empty one refused."""
    import strategies

    names = strategies.split_lineup(text)
    if not all(names):
        raise SimtoolError(f"bad line-up {text!r}; expected NAME or NAME,NAME,... (one per seat)")
    return names


def plan(grid: Grid, progress=None) -> tuple[list[RunSpec], list[dict]]:
    """The sweep's runs and what each adds to its ``run.json``: :func:`cells`, or with
    ``ladder`` the rung runs of one skill ladder per game, player count and rule variant; with
    ``restrict`` the runs measuring each restriction of the game's default strategy (or of each
    strategy ``lineups`` names) per game, player count and rule variant. A run that a repeated
    value makes twice (``games = ["black-white", "black-white"]``, ``pass_count = [3, "3"]``,
    the line-ups ``default`` and its strategy's name) is planned once. A grid of more than
    :data:`LARGE` combinations is refused unless it says ``large``, before any is listed.
    ``progress(done, total)``: combinations planned, from time to time."""
    total = size(grid)
    if total > LARGE and not grid.large:
        raise SimtoolError(f"the grid holds {total:,} combinations of games, players, rule values and "
                           f"line-ups, more than {LARGE:,} (each a run folder); narrow it, or give "
                           f"--large (large = true in a grid file) to play them all")
    if not grid.ladder and not grid.restrict:
        specs = _isolated(grid, cells(grid, progress))
        return _once(specs, [{} for _ in specs])
    from simtool.commands import ladder, restrict

    seed = grid.seed if grid.seed is not None else int(np.random.SeedSequence().entropy % (1 << 63))
    specs, extra, left_out = [], [], not_for(grid)
    for done, (game_id, p, rules) in enumerate(variants(grid), start=1):
        if grid.ladder:
            more_specs, more_extra = ladder.plan(game_id, p, rules, grid.n, seed, None, grid.unit,
                                                 grid.duplicate)
            specs += more_specs
            extra += more_extra
        for name in [] if grid.ladder else [t for t in grid.lineups or ["default"] if (game_id, t) not in left_out]:
            more_specs, more_extra = restrict.plan(game_id, p, rules, grid.n, seed, name,
                                                  isolate=grid.isolate, sweep=True)
            specs += more_specs
            extra += more_extra
        _tick(progress, done * max(1, len(grid.lineups)), total)
    return _once(_isolated(grid, specs), extra)


def _isolated(grid: Grid, specs: list[RunSpec]) -> list[RunSpec]:
    """The runs, with ``isolate`` where the grid asks for it: the plugins of every cell, line-up,
    ladder rung or restricted strategy play in processes of their own."""
    return [dataclasses.replace(s, isolate=True) for s in specs] if grid.isolate else specs


def size(grid: Grid) -> int:
    """The grid's combinations (games x players x rule values x line-ups), counted, not listed."""
    total = 0
    for game_id in grid.games:
        own = {o.name for o in game_of(game_id).options}
        total += (len(grid.players) or 1) * max(1, len(grid.lineups)) * math.prod(
            len(v) for k, v in grid.rules.items() if k in own)
    return total


def _tick(progress, done: int, total: int) -> None:
    if progress and (done % 1000 == 0 or done == total):
        progress(done, total)


def _once(specs: list[RunSpec], extra: list[dict]) -> tuple[list[RunSpec], list[dict]]:
    """The runs without repeats: the first of equal runs (and equal ``extra``) is kept, rules
    compared as the game plays them."""
    kept = {}
    for spec, more in zip(specs, extra, strict=True):
        # repr: the resolved rules of a game come in its options' order, as values of their type;
        # as played, so that hand_size = ["sheet", 12] (12 being the sheet's at 3p) is one run
        played = dataclasses.replace(spec, rules=games.played(game_of(spec.game), spec.rules, spec.players))
        kept.setdefault((repr(played), json.dumps(more, sort_keys=True, default=str)), (spec, more))
    return [s for s, _ in kept.values()], [m for _, m in kept.values()]


def variants(grid: Grid):
    """``(game, players, rules)`` of every cell, in grid order; a rule varies only in the games
    that have it. In a grid of several games, a cell its game cannot play (a player count or a
    rule value it lacks) is left out (:func:`skipped` says which), unless no cell is
    left; a grid of one game is refused at its first, a mistake about that game."""
    played, why_not = False, {}
    for g, p, rules, why in _combinations(grid):
        if why is None:
            played = True
            yield g.id, p, rules
        elif not _several(grid):
            raise SimtoolError(why)
        why_not.setdefault(why)
    if not played and why_not:
        # every game's reason: the first alone ("black-white is for 2, 3, 4 players, not 6") read
        # as if the other games could play the grid
        raise SimtoolError(f"no cell of this grid can be played: {'; '.join(why_not)}")


def _several(grid: Grid) -> bool:
    return len({game_of(g).id for g in grid.games}) > 1


def skipped(grid: Grid) -> list[str]:
    """The cells :func:`variants` leaves out, each with its reason: ``kansas-city, 3 players:
    kansas-city is for 4, 5 players, not 3`` (the whole grid was refused by it), then the line-ups
    a game's cells leave out (:func:`not_for`)."""
    left_out = not_for(grid)
    seats = [f"{game_id}, {p} players: {why}" for (game_id, p, _text), why in too_long(grid, left_out).items()]
    if not _several(grid):
        return seats
    return [f"{g.id}, {p} players{''.join(f', {k}={v}' for k, v in rules.items())}: {why}"
            for g, p, rules, why in _combinations(grid) if why is not None] + [
        f"{game_id}, line-up {text}: {why}" for (game_id, text), why in left_out.items()] + seats


def too_long(grid: Grid, left_out: dict | None = None) -> dict[tuple[str, int, str], str]:
    """The line-ups that name more seats than a cell's players, by ``(game, players, line-up)``,
    with why: a grid of 4 and 5 players (or of a 3-player and a 4-player game) with a line-up of
    five was refused whole at its first 4-player cell. A line-up no cell can seat is refused.
    ``left_out``: :func:`not_for` of the grid, where the caller has it."""
    if grid.ladder or grid.restrict or not grid.lineups:
        return {}
    # an empty name is refused as such, not counted as a seat ("names 5 seats" of 'random,,duck,duck,duck')
    named = {text: len(_entries(text)) for text in grid.lineups}
    # only the cells of games that play it seat it: duck's 5 seats at Black & White's 3 players and
    # Kansas City's 5 were taken as seated by Kansas City's cell, which not_for leaves out, and the
    # sweep played the line-up nowhere (alone: a plan of no cell, "no run folders given")
    left_out, found, most = not_for(grid) if left_out is None else left_out, {}, {}
    for game_id, p, _rules in variants(grid):
        for text, count in named.items():
            if (game_id, text) in left_out:
                continue
            most[text] = max(most.get(text, 0), p)
            if count > p:
                found[game_id, p, text] = f"line-up {shown(text)} names {count} seats, more than its {p} players"
    for text, count in named.items():
        if count > most[text]:  # not_for refused a line-up whose games have no cell
            whose = " whose game plays it" if any(t == text for _, t in left_out) else ""
            raise SimtoolError(f"line-up {shown(text)} names {count} seats; no cell of this sweep{whose} has "
                               f"that many players (at most {most[text]})")
    return found


def not_for(grid: Grid) -> dict[tuple[str, str], str]:
    """The line-ups (or, with ``restrict``, the strategies) of a grid of several games that one of
    its games cannot play, by ``(game, line-up)``, with why: ``balance`` plays Black & White only,
    and a sweep of Black & White and Kansas City with the line-ups balance and target was refused
    whole. A line-up no game of the grid plays, or whose games have no cell in it, is refused: a
    mistake, not a cell to skip."""
    import strategies

    if not _several(grid) or grid.ladder:
        return {}
    ids, found = list(dict.fromkeys(game_of(g).id for g in grid.games)), {}
    seated, unplayable = {game_id for game_id, _p, _rules in variants(grid)}, {}
    for g, _p, _rules, why in _combinations(grid):
        if why is not None:
            unplayable.setdefault(g.id, why)
    for text in grid.lineups:
        entries = [e for e in strategies.split_lineup(text) if e and e != "default"]
        why = {}
        for game_id in ids:
            try:
                for entry in entries:
                    strategies.canonical(entry, game_id, grid.isolate)
            except NotForGame as exc:
                why[game_id, text] = str(exc)
        if len(why) == len(ids):
            raise SimtoolError(f"no game of this sweep plays line-up {shown(text)}: {'; '.join(why.values())}")
        absent = [g for g in ids if (g, text) not in why and g not in seated]
        if len(why) + len(absent) == len(ids):
            # duck (Black & White's) in a sweep of 5 players: a plan of no cell was written, then
            # "no run folders given"
            raise SimtoolError(f"no cell of this sweep plays line-up {shown(text)}: {'; '.join(why.values())}; "
                               + "; ".join(f"{g} has no cell here: {unplayable[g]}" for g in absent))
        found |= why
    return found


def _combinations(grid: Grid):
    """Every cell of the grid with why its game cannot play it (``None``: it can)."""
    known = {o.name for g in grid.games for o in game_of(g).options}
    for name in grid.rules:
        if name not in known:
            raise SimtoolError(f"unknown rule {shown(name)} for the games of this sweep; "
                               f"valid: {choices(sorted(known)) or 'none'}")
    for game_id in grid.games:
        g = game_of(game_id)
        own = {k: v for k, v in grid.rules.items() if k in {o.name for o in g.options}}
        for p in grid.players or [g.default_players]:
            try:
                p = games.check_players(g, p)
            except SimtoolError as exc:
                yield g, p, {}, str(exc)
                continue
            for values in itertools.product(*own.values()):
                rules = dict(zip(own, values, strict=True))
                try:
                    games.check_rules(g, options.resolve(g, rules), p)
                except GameError:  # a designer's check_rules that crashed: its bug, no limit to skip
                    raise
                except SimtoolError as exc:
                    yield g, p, rules, str(exc)
                    continue
                yield g, p, rules, None


def cells(grid: Grid, progress=None) -> list[RunSpec]:
    """Every combination, in grid order; a rule varies only in the games that have it."""
    seed = grid.seed if grid.seed is not None else int(np.random.SeedSequence().entropy % (1 << 63))
    specs, total, left_out = [], size(grid), not_for(grid)
    long = too_long(grid, left_out)
    for game_id, p, rules in variants(grid):
        g = game_of(game_id)
        for text in [t for t in grid.lineups or ["default"] if (game_id, t) not in left_out
                     and (game_id, p, t) not in long]:
            specs.append(make_spec(game_id, p, grid.n, None, lineup(text, g, p), rules, grid.unit,
                                   seed, grid.rotate, duplicate=grid.duplicate, isolate=grid.isolate))
            _tick(progress, len(specs), total)
    return specs


def cost(specs: list[RunSpec]) -> str:
    """What a sweep will play, in words: cells, deals (or matches) and chunks."""
    units = {s.unit for s in specs}
    total, chunks = sum(s.n for s in specs), sum(s.n_chunks for s in specs)
    # a sweep of one deal said "1 deals"
    unit = ("match" if total == 1 else "matches") if units == {"match"} else \
        ("deal" if total == 1 else "deals") if units == {"deal"} else "deals or matches"
    return (f"{len(specs):,} cell{'s' * (len(specs) != 1)}, {total:,} {unit} in "
            f"{chunks:,} chunk{'s' * (chunks != 1)}")


def parse_list(values: list[str], what: str, sep: str = ",", prefix: str = "") -> list[str]:
    """``["4,5", "6"]`` to ``["4", "5", "6"]``: repeatable options that also take commas. An empty
    value is refused naming the option as given (``prefix``: a rule's ``NAME=``), not as the
    Python list the values came in."""
    out = []
    for text in values:
        parts = [v.strip() for v in text.split(sep)]
        if not all(parts):
            raise SimtoolError(f"bad --{what} {shown(prefix + text)}: an empty value; expected values "
                               f"separated by '{sep}', such as {prefix}{sep.join(('A', 'B'))}")
        out += parts
    return out


def list_rules() -> set[str]:
    """The rules whose values are lists of numbers (a score table) in any game."""
    return {o.name for g in games.registry().values() for o in g.options if o.kind == "list"}


def rules_arg(items: list[str]) -> dict[str, list[str]]:
    """``--rule pass_count=2,3`` (repeatable) to ``{"pass_count": ["2", "3"]}``; the values of a
    list rule hold commas, so they are separated by ';' (``score_table=0,5,10;0,5,5``)."""
    return {name: parse_list([value], "rule", ";" if name in list_rules() else ",", f"{name}=")
            for name, value in options.parse_assignments(items).items()}
