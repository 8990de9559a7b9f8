"""Runs: a validated specification, cut into fixed chunks, played in parallel.

Chunk ``i`` covers deals (or matches) ``i*chunk .. (i+1)*chunk-1`` and draws its
random numbers from ``SeedSequence(seed, spawn_key=(i, stream))``, so the
result depends only on the specification, never on ``--jobs`` or the machine.
The shuffle and the players draw from separate streams: two line-ups run with
one seed play the same deals, which makes their comparison a paired one.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import hashlib
import json
import os
import random
import stat
import sys
import threading
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from simtool import arguments, games, options
from simtool.engine import (
    Context,
    Lineup,
    Outcome,
    elsewhere,
    not_ending,
    play_deals,
    play_matches,
    process_state,
    with_settings,
)
from simtool.errors import (
    GameError,
    ShadowedWarning,
    SimtoolError,
    StrategyError,
    WorkerLost,
    choices,
    raise_if_interrupted,
    shown,
)
from simtool.pipeline.folders import encode_chunk, most_tricks, polars_dtype, write_chunk

CHUNK = 1 << 15
MATCH_CHUNK = 1 << 14  # a chunk holds every round of its matches: half the size, as fast (measured)
UNITS = ("deal", "match")
BLOCKS = 32
"""``--precision`` looks at the intervals after every ``chunk / BLOCKS`` deals (or matches):
fine enough for where a run stops to mean something, while whole chunks are played."""


MIN_CHUNK = 1 << 8
LARGEST_CHUNK = max(CHUNK, MATCH_CHUNK)
"""The largest chunk simtool makes: a saved specification of a larger one was changed by hand."""


def chunk_size(unit: str, cost: float = 1.0) -> int:
    """Deals (or matches) per chunk: halved for every doubling of the line-up's ``cost`` (work per
    deal relative to a heuristic), so that a search's run of 2e4 deals still spreads over every
    core. A power of two: a chunk of the smaller size never straddles one of the larger."""
    size = CHUNK if unit == "deal" else MATCH_CHUNK
    while cost > 1 and size > MIN_CHUNK:
        size, cost = size // 2, cost / 2
    return size


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's results."""

    game: str
    players: int
    rules: dict
    lineup: tuple[str, ...]  # strategy name or plugin spec, per seat
    unit: str
    n: int
    seed: int
    chunk: int = CHUNK
    rotate: bool = False  # move the line-up one seat per deal (see engine.Lineup)
    precision: float | None = None  # stop once the headline shares are this precise; n is the cap
    plugins: dict = field(default_factory=dict)  # plugin spec -> {"path": absolute, "sha256": ...}
    duplicate: bool = False  # play each deal (match) once per rotation of the line-up, same cards
    leads: int = 0  # lead histories of the first `leads` deals (matches) of each chunk; 0: none
    isolate: bool = False  # plugins play in processes of their own (strategies.isolate): the same
    # results, but kept with the run so that resuming it never plays an untrusted plugin in-process

    @property
    def copies(self) -> int:
        """Times each deal (or match) is played: once per rotation with ``duplicate``."""
        return self.players if self.duplicate else 1

    @property
    def n_chunks(self) -> int:
        return -(-self.n // self.chunk)

    def bounds(self, index: int) -> tuple[int, int]:
        start = index * self.chunk
        return start, min(self.chunk, self.n - start)

    @property
    def block(self) -> int:
        return max(1, self.chunk // BLOCKS)

    @property
    def strata(self) -> int | None:
        """With ``--rotate``, deal ``i`` sits in stratum ``i mod p`` (its line-up's rotation).
        With ``--duplicate`` every deal holds every rotation: no strata."""
        return self.players if self.rotate and not self.duplicate else None

    def as_dict(self) -> dict:
        return asdict(self)


def make_spec(game: str = "black-white", players: int | None = None, n: int = 10_000,
              strategy: str | None = None, seats: dict | None = None, rules: dict | None = None,
              unit: str = "deal", seed: int | None = None, rotate: bool = False,
              precision: float | None = None, duplicate: bool = False,
              lead_history: int | None = None, isolate: bool = False) -> RunSpec:
    """Check every input and build the specification; errors name the valid choices.
    ``lead_history``: record the lead histories of the first that many deals (or matches) of
    each chunk (:mod:`simtool.pipeline.leads`); ``None`` or 0: none."""
    g = game_of(arguments.text("game", game, "black-white"))
    p = games.check_players(g, arguments.count("players", players, "the game's default"))
    arguments.text("strategy", strategy, "random", optional=True)
    arguments.mapping("seats", seats, "{0: 'balance'}")
    arguments.mapping("rules", rules, "{'hand_size': 10}")
    arguments.text("unit", unit, "deal")
    rotate, duplicate = arguments.flag("rotate", rotate), arguments.flag("duplicate", duplicate)
    isolate = arguments.flag("isolate", isolate)
    arguments.number("precision", precision, "0.005")
    leads = 0 if lead_history is None else lead_history
    # at most the largest count: a 400-digit lead_history (--lead-history 1e400) was written into run.json
    if not (arguments.whole(leads) and 0 <= leads <= MAX_COUNT):  # 0, as None, records none
        raise arguments.bad("lead_history", lead_history, "a whole number of deals (or matches) per chunk, "
                            "at most 2^63 - 1, or 0 or None for none")
    leads = int(leads)
    if leads and not g.redeals:
        raise SimtoolError(f"{g.id} cannot re-deal what a seat does not see, so it has no lead "
                           f"histories; run it without {arguments.option('lead-history')}")
    resolved_rules = options.resolve(g, rules)
    games.check_rules(g, resolved_rules, p)
    if unit not in UNITS:
        raise SimtoolError(f"unknown unit {shown(unit)}; valid: {choices(UNITS)}")
    n = parse_count(n)
    if arguments.seed(seed) is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))
    import strategies

    if strategy is None:  # a default is a fair player, whatever a plugin game declares
        strategies.require_fair([g.default_strategy], f"{g.id}'s default strategy")
    lineup = [g.default_strategy if strategy is None else strategy] * p
    given = set()
    for seat, name in (seats or {}).items():
        try:
            s = int(seat) if isinstance(seat, str) or arguments.whole(seat) else -1
        except ValueError:
            s = -1
        if not 0 <= s < p:
            raise SimtoolError(f"bad seat {seat!r} for {p} players; valid: {choices(range(p))}")
        if s in given:
            raise SimtoolError(f"seat {s} given twice; give each seat once")
        if not isinstance(name, str):  # str(None), str(a function): "unknown strategy 'None'"
            raise arguments.bad(f"seats[{seat!r}]", name, "a strategy's name such as 'balance' or "
                                "'FILE.py:NAME' (a strategy object is given by its file and name)")
        given.add(s)
        lineup[s] = name
    if precision is not None and not arguments.precision_within(precision):
        raise SimtoolError(f"bad {arguments.option('precision')} {precision!r}; expected {arguments.PRECISION_VALID}")

    if strategy is None and len(given) < p:  # the game's own declaration, not a name the user gave
        try:
            strategies.canonical(str(g.default_strategy), g.id, isolate)
        except SimtoolError as exc:
            raise SimtoolError(f"game '{g.id}' declares default_strategy = {g.default_strategy!r}, which cannot "
                               f"play it ({exc}): give {arguments.option('strategy')}, or fix the game") from None
    if strategy is not None and len(given) == p:
        # it plays no seat, yet a misspelt or wrong game's name passed without a word
        strategies.canonical(str(strategy), g.id, isolate)
    # one name per strategy; under --isolate a plugin is described by its own process, never
    # imported in this one
    lineup = [strategies.canonical(str(name), g.id, isolate) for name in lineup]
    if duplicate and unit == "match" and g.deal_reads_match:
        raise SimtoolError(f"{g.id} deals each round from the match so far, so the copies of a "
                           f"duplicate match cannot get the same cards; use {arguments.option('duplicate')} with "
                           f"{arguments.option('unit', 'deal')}")
    spec = RunSpec(g.id, p, resolved_rules, tuple(lineup), unit, n, int(seed), chunk_size(unit),
                   rotate and not duplicate, precision, plugin_files(lineup), duplicate, leads, isolate)
    most_tricks(g, resolved_rules, p)  # a designer's that raises or is no count: refused before anything plays
    found = resolve_lineup(spec)  # fail now, not in a worker
    warn_shadowed(spec)
    cost = max(s.relative_cost() for s in found.strategies)
    chunk = chunk_size(unit, cost)
    # a duplicate chunk holds p copies of each deal: as many rows as a plain chunk
    return dataclasses.replace(spec, chunk=max(1, chunk // p) if duplicate else chunk,
                               plugins=with_imports(spec.plugins))


def with_imports(plugins: dict) -> dict:
    """``plugins`` (:func:`plugin_files`), each loaded, with the user's own modules it imported
    (``imports``: file -> SHA-256; :func:`strategies.own_imports`) but those recorded beside it:
    a resume (a replay) then plays the helpers it started with, or stops. Left out where there are
    none, as a run.json written before 2026-11-29 has none."""
    import strategies

    out = {}
    for name, plugin in plugins.items():
        folder = Path(plugin["path"]).parent
        imports = {f: digest for f, digest in strategies.imports_of(Path(plugin["path"])).items()
                   if not (Path(f).parent == folder and Path(f).name in plugin.get("beside", {}))}
        out[name] = {**plugin, "imports": imports} if imports else plugin
    return out


def as_recorded(spec: RunSpec, found: RunSpec | None) -> RunSpec:
    """``spec`` without the ``imports`` of each plugin that ``found`` (a cell's folder's run)
    records without them: a run written before 2026-11-29 is the same run, trusted as then (a sweep
    run again after the upgrade refused every finished cell of a plugin importing a helper)."""
    if found is None or not spec.plugins:
        return spec
    plugins = {name: {k: v for k, v in plugin.items() if k != "imports"}
               if isinstance(found.plugins.get(name), dict) and "imports" not in found.plugins[name] else plugin
               for name, plugin in spec.plugins.items()}
    return spec if plugins == spec.plugins else dataclasses.replace(spec, plugins=plugins)


def changed_import(plugin: dict) -> str | None:
    """The first module of a plugin's ``imports`` that is not the file it recorded, or ``None``."""
    import strategies

    # none recorded before 2026-11-29
    return next(iter(strategies.changed_files(plugin.get("imports", {}))), None)


def warn_shadowed(spec: RunSpec) -> None:
    """A :class:`ShadowedWarning` for the run's game and each of its strategies that an installed
    package also names: the built-in plays, as documented, and the user is told so."""
    import strategies

    claimed = games.claims()  # one look at the installation for the game and the strategies
    for note in filter(None, (games.shadowed(spec.game, claimed), *strategies.shadowed(spec.lineup, claimed))):
        warnings.warn(note, ShadowedWarning, stacklevel=3)


MAX_COUNT = (1 << 63) - 1
"""The most deals (or matches) of one run: deal numbers are int64 in the tables."""
MOST_PLAYERS = 64
"""The most players a run's folder may record: more than any game declares."""


def parse_count(text, name: str | None = None) -> int:
    """A positive whole number of deals: ``1e6``, ``1000000`` or ``1_000_000`` (an underscore only
    between digits, as in Python). An error names it ``name`` (a plan file's key), else as the
    caller gave it: ``--n`` on the command line, ``n`` in Python."""
    if isinstance(text, str) and name is None and not arguments.COMMAND_LINE.get():
        # n="50" played 50 deals where seed="3" and players="3" were refused: Python takes numbers
        raise SimtoolError(f"bad n {shown(text)}; expected a whole number of deals (or matches), 1 or "
                           f"more, such as 1_000_000 or 1e6, not a string")
    name = name or arguments.option("n")
    value = None
    if isinstance(text, (int, np.integer)) and not isinstance(text, bool):
        value = int(text)
    elif isinstance(text, np.floating) and not isinstance(text, float):
        # numpy's float32 (float16, longdouble) was refused where its float64, a Python float, was taken
        value = int(text) if np.isfinite(text) and text == np.trunc(text) else None
    elif isinstance(text, (str, float)):
        try:  # exactly the number written: 1.00000000000000001e17 is not 1e17
            value = options.read_whole(str(text))
        except ValueError:  # not whole, not a number, or an infinity (1e999 in Python)
            pass
    if value is None or not 0 < value <= MAX_COUNT:
        raise SimtoolError(f"bad {name} {shown(text)}; expected a positive whole number such as 1e6, 1000000 "
                           f"or 1_000_000, of deals (or matches) up to {MAX_COUNT} (2^63 - 1, the largest "
                           f"deal or match number the tables can hold)")
    return value


def plugin_files(lineup) -> dict:
    """Where each plugin of a line-up lives, what it holds and what lies beside it (see
    :func:`beside`): a run (and its resume, from any working directory) plays exactly that file
    with those files, or stops."""
    import strategies

    found = {}
    # a search's play-out policy (pimc@playout=bot.py:bot) plays as much as a seat's strategy
    for name in dict.fromkeys(n for entry in lineup for n in (entry, *strategies.nested_plugins(entry))):
        file = strategies.plugin_file(name)
        if file is not None and file.is_file():
            found[name] = {"path": str(file.resolve()), "sha256": file_hash(file),
                           "beside": beside(file)}
    return found


def played_lineup(spec: RunSpec) -> list[str]:
    """``spec``'s line-up with each plugin's file written as the absolute path it was read from:
    ``./bot.py:bot`` and ``/home/me/bot.py:bot`` play one strategy (a resume given the run's own
    plugin, spelt from another folder, was refused as another line-up)."""
    import strategies

    out = []
    for entry in spec.lineup:
        written = strategies.split(entry)[0].rpartition(":")[0]
        out.append(spec.plugins[entry]["path"] + entry[len(written):] if entry in spec.plugins else entry)
    return out


def recorded_files(plugins: dict) -> dict[str, Path]:
    """Each plugin file a run recorded (its ``plugins``), by the path its line-up writes (see
    :func:`strategies.recorded`)."""
    import strategies

    return {str(strategies.plugin_file(name)): Path(plugin["path"]) for name, plugin in plugins.items()}


def file_hash(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


BESIDE_FILES = 200
"""Files recorded beside a plugin, the first by name: a plugin kept in a crowded folder (a home
folder) costs a bounded scan."""
BESIDE_HASHED = 16 << 20
"""Bytes up to which a file beside a plugin is recorded by its SHA-256; a larger one by its size
and modification time (hashing gigabytes of data at every start would cost seconds)."""


def beside(plugin: Path) -> dict[str, str]:
    """The files a plugin may read beside it (weights, tables, a helper module), by name: every
    non-hidden regular file of its folder but itself and this process's own output (a log it is
    redirected to), the first :data:`BESIDE_FILES` by name; see :func:`file_digest`."""
    plugin = Path(plugin).resolve()
    ours = {(s.st_dev, s.st_ino) for s in map(_fd_stat, _own_output()) if s is not None}
    try:
        names = sorted(n for n in os.listdir(plugin.parent) if not n.startswith(".") and n != plugin.name)
    except OSError:  # a folder that cannot be listed: nothing there a plugin could find by name either
        return {}
    found = {}
    for name in names:
        if len(found) == BESIDE_FILES:
            break
        path = plugin.parent / name
        try:
            info = path.stat()
            if stat.S_ISREG(info.st_mode) and (info.st_dev, info.st_ino) not in ours:
                found[name] = file_digest(path)
        except OSError:  # gone, or unreadable, since it was listed: nothing a plugin could read
            continue
    return found


def _own_output() -> set[int]:
    """The descriptors this process writes its output to: 1 and 2, and where the command moved
    its results off descriptor 1 (cli._results_apart), the one ``sys.stdout`` writes to now (a
    log it is appended to, ``>> log`` beside the plugin, was recorded, and the next sweep over the
    same runs refused every cell: "files beside ... changed: log")."""
    found = {1, 2}
    for stream in (sys.stdout, sys.stderr):
        try:
            found.add(stream.fileno())
        except (AttributeError, OSError, ValueError):  # no descriptor (a stream a caller replaced)
            continue
    return found


def _fd_stat(fd: int) -> os.stat_result | None:
    try:
        return os.fstat(fd)
    except OSError:  # closed, or not a file: nothing of ours to leave out
        return None


def file_digest(path: Path) -> str:
    """``sha256:HEX``, or ``SIZE bytes, modified NS`` past :data:`BESIDE_HASHED` bytes."""
    info = path.stat()
    return _digest(str(path), info.st_size, info.st_mtime_ns)


@functools.lru_cache(maxsize=1024)
def _digest(path: str, size: int, mtime_ns: int) -> str:
    """Cached by size and time: a sweep or a tuning records the same folder for every run."""
    if size > BESIDE_HASHED:
        return f"{size} bytes, modified {mtime_ns}"
    return "sha256:" + file_hash(Path(path))


def check_beside(spec: RunSpec) -> None:
    """A resumed run's plugins find the files beside them as the run started with them: a plugin
    may read them, and one run plays one version. Files added since are not the run's."""
    if changed := beside_changed(spec):
        raise SimtoolError(changed)


def beside_changed(spec: RunSpec) -> str | None:
    """:func:`check_beside`'s error, or ``None``."""
    for plugin in spec.plugins.values():
        path = Path(plugin["path"])
        changed = []
        for name, digest in plugin.get("beside", {}).items():  # none recorded by older versions
            try:
                now = file_digest(path.parent / name)
            except OSError:
                now = None
            if now != digest:
                changed.append(name)
        if changed:
            shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            return (f"{shown} beside strategy plugin {path} changed or went since the run started (a plugin "
                    f"may read the files beside it); one run plays one version of them: restore them, or start "
                    f"a new run")
    return None


def resolve_lineup(spec: RunSpec) -> Lineup:
    import strategies

    unique = list(dict.fromkeys(spec.lineup))
    # checked again for every chunk: a strategy's error, so a file edited or moved while the run
    # plays keeps the chunks finished before it for a resume (they were all taken back)
    for name, plugin in spec.plugins.items():
        path = Path(plugin["path"])
        if not path.is_file():
            raise StrategyError(f"strategy plugin {name} of this run is no longer at {path}; "
                                f"put the file back to go on")
        if file_hash(path) != plugin["sha256"]:
            raise StrategyError(f"strategy plugin {path} has changed since the run started; one run "
                                f"plays one version of it: restore the file, or start a new run")
        if (module := changed_import(plugin)) is not None:
            raise StrategyError(f"{module}, which strategy plugin {path} imports, has changed or gone since "
                                f"the run started (or since this process imported it); one run plays one "
                                f"version of it: restore the file, or start a new run")
    found, own = [], []
    for name in unique:
        with strategies.import_settings() as settings, strategies.recorded(recorded_files(spec.plugins)):
            found.append(strategies.resolve(name, spec.game, Path(spec.plugins[name]["path"])
                                            if name in spec.plugins else None, spec.isolate))
        own.append(tuple(settings))
    shared = tuple(dict.fromkeys(s for mine in own for s in mine))
    # a plugin among a built-in's parameters (pimc@playout=FILE.py:NAME) set its entry's own too
    if shared and sum(bool(mine) or s.origin != "built-in" for s, mine in zip(found, own, strict=True)) > 1:
        # each plugin's own, around its own decisions: applied to the whole chunk, one plugin's
        # import settings were every plugin's (two versions of a bot, each setting BOT_STYLE at
        # import, both played the last one's style; --isolate played each its own)
        found = [dataclasses.replace(s, choose=with_settings(s.choose, mine)) if mine else s
                 for s, mine in zip(found, own, strict=True)]
        shared = ()
    labels: dict[str, str] = {}
    for name, s in zip(unique, found, strict=True):
        if s.name in labels:  # the tables would pool two strategies under one name
            raise SimtoolError(f"line-up entries {labels[s.name]} and {name} would both be "
                               f"'{s.name}' in the tables; spell a plugin the same way at every "
                               f"seat, and give two strategies two names")
        labels[s.name] = name
    # the true deal only for the built-in reference player, decided by the built-in registry
    return Lineup(found, np.array([unique.index(name) for name in spec.lineup]),
                  spec.rotate or spec.duplicate, tuple(strategies.sees_all(name) for name in unique),
                  shared)


@dataclass
class Chunk:
    """The tables of one chunk: ``seats`` rows, and ``matches`` rows for whole matches."""

    index: int
    seats: pl.DataFrame
    matches: pl.DataFrame | None = None
    trace: list[str] = field(default_factory=list)
    tally: tuple[pl.DataFrame, pl.DataFrame] | None = None  # the sums --precision watches
    cell: int = 0  # which run of a plan the chunk belongs to (see simtool.pipeline.executor)
    leads: pl.DataFrame | None = None  # lead-history rows, where the run records them
    summed: dict | None = None  # the sums of the run's printed tables (Task.summed)


def play_chunk(spec: RunSpec, index: int, trace_id: int | None = None,
               parts: Path | None = None, keep: bool = True,
               timeout: float | None = None, trace_views: bool = False) -> Chunk:
    """Play chunk ``index``. With ``parts``, write its tables there; without ``keep``, return
    them only as files. ``trace_views``: the trace of ``trace_id`` also records what each acting
    seat's view showed."""
    return play_task(Task(spec, index, parts, keep), timeout, trace_id, trace_views)


def play_task(task: Task, timeout: float | None = None, trace_id: int | None = None,
              trace_views: bool = False) -> Chunk:
    """Play one task's chunk, write its tables to the task's ``parts`` and tally them."""
    spec = task.spec
    game, lineup = game_of(spec.game), resolve_lineup(spec)
    outcome, trace = _play(spec, task.index, game, lineup, trace_id, timeout, trace_views)
    return _tabulate(task, game, lineup, outcome, trace)


def play_in_worker(task: Task, timeout: float | None = None) -> Chunk:
    """What a forked worker does with a chunk where polars may run in it: play it, make its
    tables, write them to the task's folder and tally them (as :func:`play_task`).

    polars uses one thread there (unless ``POLARS_MAX_THREADS`` says otherwise): the worker is
    one of ``--jobs`` processes, one a core, and more threads would only contend with the other
    workers. The threads polars starts take the signal mask of the thread that starts them, so
    the tables are made with every signal blocked: a ``--timeout``'s SIGALRM must go to the
    worker's main thread, to interrupt a strategy blocked in a system call
    (:mod:`simtool.pipeline.forked`)."""
    import signal

    os.environ.setdefault("POLARS_MAX_THREADS", "1")
    spec = task.spec
    game, lineup = game_of(spec.game), resolve_lineup(spec)
    outcome, trace = _play(spec, task.index, game, lineup, None, timeout, False)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    try:
        return _tabulate(task, game, lineup, outcome, trace)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def play_outcome(spec: RunSpec, index: int, timeout: float | None = None) -> tuple[Outcome, list[str]]:
    """What a forked worker does with chunk ``index``: the play only (numpy arrays), no tables.
    polars must not run in a process forked from one whose polars threads may be running."""
    return _play(spec, index, game_of(spec.game), resolve_lineup(spec), None, timeout, False)


def _play(spec: RunSpec, index: int, game, lineup: Lineup, trace_id: int | None,
          timeout: float | None, trace_views: bool) -> tuple[Outcome, list[str]]:
    start, count = spec.bounds(index)
    deal_rng, play_rng = (
        np.random.Generator(np.random.PCG64(np.random.SeedSequence(spec.seed, spawn_key=(index, s))))
        for s in (0, 1)
    )
    # with --duplicate the engine's ids number the games, copy r of deal i being i*p + r: the
    # line-up then rotates as with --rotate, one place per copy
    c = spec.copies
    import strategies

    ctx = Context(game.id, spec.seed, spec.n * c, spec.unit, start * c + np.arange(count * c, dtype=np.int64),
                  trace_id=trace_id, timeout=timeout, trace_views=trace_views,
                  resolve=_resolver(spec), copies=c)
    if spec.leads:
        from simtool.pipeline.leads import STREAM, Recorder

        observer_rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
            spec.seed, spawn_key=(index, STREAM))))
        ctx.leads = Recorder(game, lineup, (start + spec.leads) * c, observer_rng, ctx.resolve)
    play = play_deals if spec.unit == "deal" else play_matches
    plugins = [s.name for s in lineup.strategies if s.origin != "built-in"]
    who = f"strategy {', '.join(plugins)}" if plugins else "a strategy of this run"
    # the game's own copy of the rules: a game writing into match.rules changed the spec's, and
    # so the rules run.json records and the next chunk this process played
    rules = copy.deepcopy(spec.rules)
    # the guards against a plugin (simtool's code put back, the global generators seeded, the
    # process's state restored) where one plays: a built-in game among built-in strategies runs
    # none of the code they watch for, and they cost 0.4 ms a chunk (1% of Black & White's)
    guarded = not _built_in(spec)
    with (strategies.untouched(f"{who}, while it played,") if guarded else contextlib.nullcontext()), \
            (seeded_globals(spec.seed, index) if guarded else contextlib.nullcontext()), \
            (not_ending() if guarded else contextlib.nullcontext()):
        for settings in lineup.settings:  # what a plugin's import set for its play, put back with the rest
            settings.apply()
        outcome = play(game, spec.players, rules, lineup, count * c, deal_rng, play_rng, ctx, spec.duplicate)
    if rules != spec.rules:
        unset = object()
        name = next(k for k in sorted({*rules, *spec.rules}, key=str)
                    if rules.get(k, unset) != spec.rules.get(k, unset))
        raise GameError(f"game '{game.id}' changed its rules as it played (rule {name} was "
                        f"{shown(spec.rules.get(name))}, then {shown(rules.get(name))}): a game reads match.rules, "
                        f"never writes them; its conformance suite: python -m pytest --simtool-game {game.id}")
    if ctx.leads is not None:
        outcome.leads = ctx.leads.frame()
    return outcome, ctx.trace


@functools.cache
def _isolating() -> Callable:
    """``strategies.resolve`` for an ``--isolate`` run's play-outs: one object, so that a search
    that looks its policy up once per resolver does so once per process."""
    import strategies

    return functools.partial(strategies.resolve, isolate=True)


def _resolver(spec: RunSpec) -> Callable:
    """How a chunk of ``spec`` resolves the strategies a search names as it plays. A run that
    recorded plugin files (a seat's, or one among a search's parameters: pimc@playout=bot.py:bot)
    resolves them from where it recorded them (checked before each chunk), once: a save
    of the file while the chunk plays leaves the chunk to the version it began with, and the
    next chunk refuses the file (:func:`resolve_lineup`), as for a seat's plugin."""
    import strategies

    # by what the run recorded, not by the files found from here: a resume from another folder
    # finds no bot.py there, and its play-outs looked for one (strategy plugin file not found)
    if not spec.plugins:
        return _isolating() if spec.isolate else strategies.resolve
    return _pinned(json.dumps(spec.plugins, sort_keys=True), spec.isolate)


@functools.lru_cache(maxsize=64)
def _pinned(plugins: str, isolate: bool) -> Callable:
    """A resolver for the recorded ``plugins`` (their JSON, so that a file recorded anew, edited
    between two runs of one process, is resolved anew): one object, as :func:`_isolating`'s."""
    import strategies

    files = recorded_files(json.loads(plugins))
    fresh = _isolating() if isolate else strategies.resolve

    @functools.cache
    def pinned(name: str, game_id: str):
        with strategies.recorded(files):
            return strategies.resolve(name, game_id, isolate=isolate)

    def resolve(name: str, game_id: str):
        # only what the run recorded is pinned: a file a plugin names as it plays (play_out(c,
        # "pol/pol.py:p")) is in no key of this cache, and a notebook's next run, the file edited
        # between, played the version of its first run
        file = strategies.plugin_file(name)
        return pinned(name, game_id) if file is not None and str(file) in files else fresh(name, game_id)

    return resolve


GLOBALS_STREAM = 2
"""The stream (after the shuffle's 0 and the players' 1) that seeds the global generators."""


@contextmanager
def seeded_globals(seed: int, index: int) -> Iterator[None]:
    """numpy's and Python's global generators seeded from chunk ``index``'s own stream while it
    is played, then put back as they were: a plugin drawing from them (``np.random.random``,
    ``random.random``) instead of its ``rng`` plays the same for any ``--jobs`` and every time.
    The working directory and the file mode mask are put back too: a plugin's ``os.chdir`` made
    the chunk's tables go to (and a relative ``--out`` be looked for in) another folder, an error
    blaming the path; its ``os.umask(0o777)`` made every table of the run unreadable (mode 000).
    So are the environment (``POLARS_MAX_THREADS=0`` made polars panic as it made the tables),
    the recursion limit (60 broke the next import) and standard output and error (closed, the
    run ended in "lost sys.stderr", exit status 1): all in :func:`simtool.engine.process_state`.
    One chunk at a time in a process (:data:`_GLOBALS`)."""
    with _GLOBALS:
        state = np.random.SeedSequence(seed, spawn_key=(index, GLOBALS_STREAM)).generate_state(4)
        saved = np.random.get_state(), random.getstate()
        process = process_state()
        np.random.seed(state)
        random.seed(int.from_bytes(state.tobytes(), "little"))
        try:
            yield
        finally:
            np.random.set_state(saved[0])
            random.setstate(saved[1])
            process()


_GLOBALS = threading.RLock()
"""Held while a chunk plays with the global generators seeded (:func:`seeded_globals`): two runs
in threads of one process (a notebook's) seeded them in turns, and each run's plugin drew the
other's numbers."""


def _globals_anew() -> None:
    """A forked worker's own lock: one forked while another thread of the parent played a chunk
    inherited the lock held by a thread it does not have, and waited for it for ever."""
    global _GLOBALS
    _GLOBALS = threading.RLock()


os.register_at_fork(after_in_child=_globals_anew)


def _tabulate(task: Task, game, lineup: Lineup, outcome: Outcome, trace: list[str]) -> Chunk:
    spec = task.spec
    seats, matches = tables(game, spec, lineup, outcome)
    leads = lead_table(spec, outcome.leads) if outcome.leads is not None else None
    if task.parts is not None:
        write_chunk(task.parts, task.index, seats=seats, matches=matches, leads=leads)
    sums = task.tally(game, seats, matches, spec.strata, spec.block) if task.tally else None
    summed = task.summed(game, seats, matches, spec.strata) if task.summed else None
    if not task.keep:
        seats = matches = leads = None
    return Chunk(task.index, seats, matches, trace, sums, task.cell, leads, summed)


def lead_table(spec: RunSpec, cols: dict[str, np.ndarray]) -> pl.DataFrame:
    """A chunk's lead-history rows (see :mod:`simtool.pipeline.leads`): ``deal`` (or ``match``
    and ``round``), ``rotation`` with ``--duplicate``, then ``decision, seat, acting, estimate,
    own, choices, spread`` (``choices`` and ``spread`` null where they do not apply)."""
    c = spec.copies
    key = [pl.Series(spec.unit, cols["id"] // c, dtype=pl.Int64)]
    if spec.duplicate:
        key.append(pl.Series("rotation", cols["id"] % c, dtype=pl.Int8))
    if spec.unit == "match":
        key.append(pl.Series("round", cols["round"], dtype=pl.Int16))
    return pl.DataFrame([
        *key, pl.Series("decision", cols["decision"], dtype=pl.Int16),
        pl.Series("seat", cols["seat"], dtype=pl.Int8), pl.Series("acting", cols["acting"], dtype=pl.Int8),
        pl.Series("estimate", cols["estimate"], dtype=pl.Float32), pl.Series("own", cols["own"], dtype=pl.Boolean),
        pl.Series("choices", cols["choices"], dtype=pl.Int8),
        pl.Series("spread", cols["spread"], dtype=pl.Float32).fill_nan(None),
    ]).with_columns(pl.when(pl.col("choices") >= 0).then("choices").alias("choices"))


def game_of(game_id: str):
    """``games.get``, without scanning the installed packages' entry points for a built-in game
    (which the registry prefers anyway): the scan took 10-30 ms each time."""
    return next((g for g in games.BUILT_IN if g.id == game_id), None) or games.get(game_id)


def tables(game, spec: RunSpec, lineup: Lineup, outcome: Outcome):
    """Flatten ``(rows, p)`` arrays into one row per deal (or match round) and seat."""
    p = spec.players
    names = [lineup.strategies[k].name for k in lineup.seats]
    strategy_at = pl.Series("strategy", names, dtype=pl.Enum(list(dict.fromkeys(names))))

    def frame(cols: dict[str, np.ndarray], key: list[tuple[str, str, object]], values):
        rows = cols["id"].shape[0]
        seat = np.tile(np.arange(p, dtype=np.int8), rows)
        position = (seat + np.repeat(cols["id"] % p, p)) % p if spec.rotate or spec.duplicate else seat
        c = spec.copies
        data = [pl.Series(name, np.repeat(cols[src] // c if name in ("deal", "match") and c > 1 else cols[src], p),
                          dtype=dt) for name, src, dt in key]
        if spec.duplicate:
            data.insert(1, pl.Series("rotation", np.repeat(cols["id"] % p, p), dtype=pl.Int8))
        # indexing by a numpy array: the same column as ``gather``, which runs a lazy query (a
        # third of the time: 0.11 against 0.33 ms a chunk of 32768 deals of 3 seats)
        data += [pl.Series("seat", seat), strategy_at[position]]
        data += [pl.Series(name, cols[name].reshape(-1), dtype=dt) for name, dt in values]
        return pl.DataFrame(data)

    results = {"score": pl.Int16, "tricks": pl.Int8, "win": pl.Float32,
               **{name: polars_dtype(dtype) for name, dtype in game.columns.items()}}
    if spec.unit == "deal":
        seats = frame(outcome.rounds, [("deal", "id", pl.Int64)], results.items())
        return seats, None
    seats = frame(outcome.rounds, [("match", "id", pl.Int64), ("round", "round", pl.Int16)],
                  results.items())
    matches = frame(outcome.matches, [("match", "id", pl.Int64)],
                    [("total", pl.Int32), ("win", pl.Float32), ("rounds", pl.Int16),
                     ("capped", pl.Boolean),
                     *((name, polars_dtype(dtype)) for name, dtype in game.match_columns.items())])
    return seats, matches


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


BACKENDS = ("local", "dask")


def execute(spec: RunSpec, jobs: int | None = None, parts: Path | None = None,
            keep: bool = True, todo: Iterable[int] | None = None, backend: str = "local",
            scheduler: str | None = None, count: int | None = None,
            timeout: float | None = None) -> Iterator[Chunk]:
    """Play the chunks ``todo`` (default: all; ``count`` of them) of one run, yielding them in
    chunk order."""
    if todo is None:
        todo, count = range(spec.n_chunks), spec.n_chunks
    tasks = (Task(spec, i, parts, keep) for i in todo)
    yield from execute_tasks(tasks, jobs, backend, scheduler, count, timeout)


@dataclass(frozen=True)
class Task:
    """One chunk of one run: the folder its tables go to (``None``: kept in memory only),
    whether the tables come back (``keep``), the sums ``--precision`` watches (``tally``, see
    :data:`simtool.pipeline.executor.Tally`), which run of a plan it belongs to, and the sums
    of the tables the run prints (``summed``, see :data:`simtool.pipeline.executor.Summed`)."""

    spec: RunSpec
    index: int
    parts: Path | None = None
    keep: bool = True
    tally: Callable | None = None
    cell: int = 0
    summed: Callable | None = None


def jobs_used(jobs: int | None, count: int) -> int:
    """Processes for ``count`` chunks: never more than there are chunks to play."""
    return max(1, min(jobs or default_jobs(), count))


def execute_tasks(tasks: Iterable[Task], jobs: int | None = None,
                  backend: str = "local", scheduler: str | None = None,
                  count: int | None = None, timeout: float | None = None) -> Iterator[Chunk]:
    """Play chunks of one or several runs (a sweep), yielding them in the order of ``tasks``.

    ``tasks`` may be a lazy iterable of ``count`` tasks: workers take them as they become free,
    so a run of any size is planned in bounded memory.
    ``local``: worker processes on this machine. ``dask``: the dask cluster at ``scheduler``, or
    without one a cluster of ``jobs`` workers started here (:mod:`simtool.pipeline.cluster`).
    ``timeout``: seconds a strategy may take over one decision batch (see engine.deadline).
    """
    if count is None:
        tasks = list(tasks)
        count = len(tasks)
    if not count:
        return
    if backend == "dask":
        yield from _on_dask(tasks, jobs or default_jobs(), scheduler, count, timeout)
        return
    jobs = jobs_used(jobs, count)
    if jobs == 1:
        yield from (play_task(t, timeout) for t in tasks)
        return
    from simtool.pipeline.forked import WorkerDied

    seen: dict[str, None] = {}  # the strategies handed to workers so far, to name in a crash
    try:
        yield from _shared(tasks, jobs, timeout, seen)
    except WorkerDied as exc:
        raise _worker_died(list(seen), exc.how) from None


FORK = hasattr(os, "fork") and sys.platform.startswith("linux")
"""Workers are forked where that is safe for numpy (Linux); elsewhere loky spawns them."""


def _shared(tasks: Iterable[Task], jobs: int, timeout: float | None,
            seen: dict[str, None]) -> Iterator[Chunk]:
    """Play ``tasks`` on worker processes, yielding them in order.

    On Linux ``jobs`` forked workers (:mod:`simtool.forked`) play, starting at once. Where
    polars may run in them (this process has not started its threads, see
    :func:`simtool.pipeline.forked.polars_forks`, as in a fresh ``simtool run``), each worker
    makes its chunk's tables, writes them to the run's ``chunks/`` and tallies them, and sends
    back only that it is done (and the tables where they are kept): this process only hands out
    chunks and records them, 0.4 ms of CPU a chunk against the 60 ms a worker plays it (a 1e7
    Black & White run, bench/scale.py), so it can feed about 150 workers. Otherwise the
    workers send back the play (numpy arrays) and this process makes and writes every table
    (9 ms a chunk of Black & White).

    Each worker keeps two chunks queued, or one of a costly line-up's smaller
    chunks: a search's chunk takes seconds, and a worker given more would be left with several
    of the last ones while the others idle. Elsewhere loky spawns ``jobs - 1`` workers (a second
    of imports each) and this process plays a chunk itself whenever they have theirs queued; only
    chunks of built-in games and strategies are played here: a plugin that ends its process
    (os._exit, a crash) must take down a worker, not the run.
    """
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    from simtool.pipeline.forked import WorkerDied

    if FORK:
        from simtool.pipeline.forked import ForkPool, polars_forks

        workers = jobs
        tables_there = polars_forks()  # asked before the fork: the answer is this process's state
        pool = ForkPool(workers)
    else:
        from joblib.externals.loky import get_reusable_executor
        from joblib.externals.loky.process_executor import TerminatedWorkerError

        workers = jobs - 1
        # spawned, the workers import simtool afresh: a plugin ending one is reported as a forked one's is
        pool = get_reusable_executor(max_workers=workers, initializer=elsewhere)
    here = not FORK and (timeout is None or threading.current_thread() is threading.main_thread())
    pending: deque = deque()  # in task order: (task, a worker's Future or a Chunk played here)

    def submit(t: Task) -> tuple[Task, Future]:
        seen.update(dict.fromkeys(t.spec.lineup))
        if FORK and not tables_there:
            return t, pool.submit(play_outcome, t.spec, t.index, timeout)
        return t, pool.submit(play_in_worker if FORK else play_task, t, timeout)

    def result(t: Task, done: Future | Chunk) -> Chunk:
        if isinstance(done, Chunk):
            return done
        if FORK:
            if tables_there:
                return done.result()
            return _tabulate(t, game_of(t.spec.game), resolve_lineup(t.spec), *done.result())
        try:
            return done.result()
        except TerminatedWorkerError as exc:
            codes = " ".join(str(exc).split()).rpartition("exit codes of the workers are ")[2]
            raise WorkerDied(codes.partition(" ")[0].rstrip(".") or "no exit code") from None

    def ready(entry) -> bool:
        return not isinstance(entry[1], Future) or entry[1].done()

    # one chunk more per worker until this process has made a table: its first loads polars
    # (0.15 s, see simtool.lazy), long enough for a worker with two chunks to run dry
    extra = workers

    def backlog(t: Task) -> int:
        return workers if t.spec.chunk < chunk_size(t.spec.unit) else 2 * workers + extra

    try:
        for t in tasks:
            queued = [f for _, f in pending if isinstance(f, Future) and not f.done()]
            if len(queued) < backlog(t):
                pending.append(submit(t))
            elif here and _built_in(t.spec):
                pending.append((t, play_task(t, timeout)))
                extra = 0
            else:
                wait(queued, return_when=FIRST_COMPLETED)
                pending.append(submit(t))
            while pending and ready(pending[0]):
                yield result(*pending.popleft())
                extra = 0
        while pending:
            yield result(*pending.popleft())
    except BaseException:
        for _, f in pending:
            if isinstance(f, Future):
                f.cancel()
        # a failed or interrupted run stops its workers too, as joblib's Parallel did
        if FORK:
            pool.shutdown(kill=True)
        else:
            pool.shutdown(wait=False, kill_workers=True)
        raise
    if FORK:
        # every result is in: the workers end while this process joins the tables, reaped
        # after (simtool.pipeline.forked.wait_ended)
        pool.shutdown(wait=False)


def _built_in(spec: RunSpec) -> bool:
    """Whether the run plays a built-in game with built-in strategies only."""
    return any(g.id == spec.game for g in games.BUILT_IN) and all(map(built_in_strategy, spec.lineup))


def built_in_strategy(name: str) -> bool:
    """Whether the line-up entry ``name`` is a built-in strategy, restricted or not, with no
    plugin among its parameters (a search's play-out policy may name one)."""
    import strategies
    from strategies import restrictions

    base, given = strategies.split(restrictions.split(name)[0])
    found = next((s for s in strategies.BUILT_IN if s.name == base), None)
    if found is None:
        return False
    # a strategy parameter names a plugin by its file, or an installed package's by its name
    names_strategy = {p.name for p in found.params if p.kind == strategies.STRATEGY}
    return all(strategies.built_in(str(value)) or value == strategies.base.PLAYOUT
               for key, value in given.items() if key in names_strategy)


def _worker_died(names: list[str], how: str) -> SimtoolError:
    # a stop signal sent to the whole process group (Ctrl-C, `timeout`, a batch system's stop)
    # ends the workers too, and one's end may be seen before the command's own interrupt, which
    # a handler inside an at-fork hook or a finalizer only remembers: it is that interrupt (the
    # chunks kept, the resume named), not a worker lost to memory
    raise_if_interrupted()
    suspects = [n for n in names if not built_in_strategy(n)]
    if suspects:
        # the plugin's error (or the system's, as below): its run keeps the finished chunks
        return StrategyError(f"a worker process ended without a word ({how}) while playing the "
                             f"plugin strategies {choices(suspects)}: a plugin must return, never "
                             f"end its process (os._exit, a crash in compiled code)")
    return WorkerLost(f"a worker process ended without a word ({how}) while playing built-in "
                      f"strategies only: the system may have run out of memory")


def _on_dask(tasks: Iterable[Task], jobs: int, scheduler: str | None, count: int,
             timeout: float | None) -> Iterator[Chunk]:
    """Play ``tasks`` on dask, yielding them in order. A ``scheduler``'s workers need not share
    this machine's disk: they return their chunk files' bytes (or, where this process keeps the
    tables, the tables) and this process writes them. The embedded cluster's workers do share it,
    and write their chunk files themselves, as forked workers do (:func:`_written_there`). Dask
    reruns the chunk of a lost worker; each chunk index is yielded once, so nothing is counted
    twice (a chunk written twice is written the same, whole, by rename)."""
    from simtool.pipeline import cluster
    from simtool.pipeline.forked import WorkerDied

    if timeout is not None:
        raise SimtoolError(f"{arguments.option('timeout')} needs {arguments.option('backend', 'local')}: "
                           f"dask workers run strategies in threads, which cannot be interrupted")
    seen: dict[str, None] = {}  # the strategies handed to workers so far, to name in a crash

    def handed(ts: Iterable[Task]) -> Iterator[Task]:
        for t in ts:
            seen.update(dict.fromkeys(t.spec.lineup))
            # an embedded worker started in another folder than this process is in now (the
            # Python API's caller may have changed it since) finds the run's folder all the same
            yield t if scheduler or t.parts is None else dataclasses.replace(t, parts=t.parts.absolute())

    try:
        # chunks of the full size go to a worker a few at a time; a costly line-up's smaller
        # chunks take seconds each, one at a time, so that the last ones spread over every worker
        for task, (chunk, encoded) in cluster.play(_play_task if scheduler else _written_there, handed(tasks),
                                                   jobs, scheduler, count,
                                                   lambda t: t.spec.chunk >= chunk_size(t.spec.unit)):
            if encoded is not None:
                write_chunk(task.parts, chunk.index, **encoded)
            elif task.parts is not None and scheduler:
                write_chunk(task.parts, chunk.index, seats=chunk.seats, matches=chunk.matches,
                            leads=chunk.leads)
            yield chunk if task.keep else Chunk(chunk.index, None, None, tally=chunk.tally, cell=task.cell)
    except WorkerDied as exc:
        raise _worker_died(list(seen), exc.how) from None


def _written_there(task: Task) -> tuple[Chunk, None]:
    """An embedded dask worker's chunk: played, its files written and its tables tallied there
    (:func:`play_task`), since the worker shares this machine's disk. Neither the tables' bytes
    nor their writing pass through this process, which every worker waits on: at 1e8 Black &
    White deals on 16 cores they took 4.6 ms of its CPU per chunk against 1.9 ms with forked
    workers, and its threads were busy for 16 of the run's 40 s (docs/speed.md)."""
    return play_task(task), None


def _play_task(task: Task) -> tuple[Chunk, dict[str, bytes] | None]:
    """A dask worker's chunk. Where this process only writes its tables, the worker encodes
    them as the chunk files' bytes: a third of the tables' size to send, and this process, which
    every worker waits on, saves the encoding (6 ms of its 8 ms per chunk of 32768 deals)."""
    chunk = play_task(dataclasses.replace(task, parts=None, keep=True))
    if task.keep or task.parts is None:
        return chunk, None
    tables = {"seats": chunk.seats, "matches": chunk.matches, "leads": chunk.leads}
    encoded = {name: encode_chunk(table) for name, table in tables.items() if table is not None}
    return Chunk(chunk.index, None, None, tally=chunk.tally, cell=task.cell), encoded


def spec_from_dict(data: dict) -> RunSpec:
    """The RunSpec saved in a run folder, every value checked as simtool writes it: a file
    changed by hand (``"chunk": 0``, ``"n": "70000"``, ``"duplicate": "yes"``, a lineup of
    another length) is a ValueError naming the value, never a traceback from deep in the play
    nor a run resumed with settings no command could give."""
    lineup = data["lineup"]
    if not isinstance(lineup, list | tuple):
        raise ValueError(f"lineup {shown(lineup)} is not a list of strategies")
    spec = RunSpec(data["game"], data["players"], data["rules"], tuple(lineup), data["unit"],
                   data["n"], data["seed"], data["chunk"], data.get("rotate", False),
                   data.get("precision"), data.get("plugins", {}), data.get("duplicate", False),
                   data.get("leads", 0), data.get("isolate", False))
    _check_saved(spec)
    return spec


def _check_saved(spec: RunSpec) -> None:
    def within(name: str, low: int, high: int) -> None:
        value = getattr(spec, name)
        if not arguments.whole(value) or not low <= value <= high:
            raise ValueError(f"{name} {shown(value)} is not a whole number {low}..{high}")

    if not isinstance(spec.game, str):
        raise ValueError(f"game {shown(spec.game)} is not a game's name")
    within("players", 1, MOST_PLAYERS)
    within("n", 1, MAX_COUNT)
    within("seed", 0, arguments.SEED_MAX)
    within("chunk", 1, LARGEST_CHUNK)
    within("leads", 0, MAX_COUNT)
    for name in ("rotate", "duplicate", "isolate"):
        if not isinstance(getattr(spec, name), bool):
            raise ValueError(f"{name} {shown(getattr(spec, name))} is not true or false")
    if spec.unit not in UNITS:
        raise ValueError(f"unit {shown(spec.unit)} is not one of {choices(UNITS)}")
    precision = spec.precision
    if precision is not None and not (isinstance(precision, int | float) and not isinstance(precision, bool)
                                      and 0 < precision < 0.5):
        raise ValueError(f"precision {shown(precision)} is not a half-width between 0 and 0.5")
    if not isinstance(spec.plugins, dict) or not isinstance(spec.rules, dict):
        raise ValueError("plugins and rules are not tables")
    for name, plugin in spec.plugins.items():
        # read as written by plugin_files before any play: {"x": 1} ended replay --run in a TypeError
        # none beside nor imported recorded by older versions
        beside, imports = (plugin.get("beside", {}), plugin.get("imports", {})) if isinstance(plugin, dict) \
            else (None, None)
        if not (isinstance(plugin, dict) and all(isinstance(plugin.get(k), str) for k in ("path", "sha256"))
                and all(isinstance(d, dict) and all(isinstance(v, str) for v in d.values())
                        for d in (beside, imports))):
            raise ValueError(f"plugin {shown(name)} is {shown(plugin)}, not its file's path, sha256 and the files "
                             f"beside it, and the modules it imports")
    if len(spec.lineup) != spec.players or not all(isinstance(x, str) for x in spec.lineup):
        raise ValueError(f"lineup {shown(list(spec.lineup))} is not {spec.players} strategies")
    try:
        g = game_of(spec.game)
        games.check_players(g, spec.players)
        resolved = options.resolve(g, spec.rules)
    except SimtoolError as exc:
        raise ValueError(str(exc)) from None
    # a float of plan.json is read with its text (options.Written), still the float a game's choice is
    changed = [k for k, v in spec.rules.items()
               if resolved[k] != v or type(resolved[k]) is not (float if isinstance(v, options.Written) else type(v))]
    if changed:
        raise ValueError(f"rule {changed[0]} {shown(spec.rules[changed[0]])} is not a value it takes")


def replay(spec: RunSpec, number: int, views: bool = False) -> list[str]:
    """Deal (or match) ``number`` of ``spec`` written out play by play with its results
    (``views``: and what each acting seat's view showed)."""
    return replayed(spec, number, views)[0]


def replayed(spec: RunSpec, number: int, views: bool = False
             ) -> tuple[list[str], pl.DataFrame, pl.DataFrame | None]:
    """:func:`replay`'s lines, and the rows it wrote them from: the seat rows of ``number``, and
    of a match its match rows."""
    if not 0 <= number < spec.n:
        raise SimtoolError(f"bad {arguments.option(spec.unit, number)}; this run has {spec.unit} numbers "
                           f"0..{spec.n - 1} ({arguments.option('n', spec.n)})")
    chunk = play_chunk(spec, number // spec.chunk, trace_id=number * spec.copies,  # the first copy
                       trace_views=views)
    key = "deal" if spec.unit == "deal" else "match"
    rows = chunk.seats.filter(pl.col(key) == number)
    rules = options.named(games.get(spec.game), spec.rules)
    lines = [f"{spec.game} {spec.players}p, rules {rules}, seed {spec.seed}, {key} {number}",
             f"line-up: {', '.join(spec.lineup)}"
             + (f" (rotated {number % spec.players} places: seat s plays position "
                f"(s + {number % spec.players}) mod {spec.players})" if spec.rotate else ""),
             *chunk.trace, "results:"]
    shown = [c for c in rows.columns if c not in (key, "strategy")]
    lines += ["  " + "  ".join(f"{c}={_fmt(v)}" for c, v in zip(shown, r, strict=True))
              for r in rows.select(shown).rows()]
    final = None
    if chunk.matches is not None:
        final = chunk.matches.filter(pl.col("match") == number)
        lines.append("match:")
        lines += ["  " + "  ".join(f"{c}={_fmt(v)}" for c, v in zip(final.columns[1:], r[1:], strict=True))
                  for r in final.rows()]
    return lines, rows, final


def _fmt(v) -> str:
    return f"{v:.3g}" if isinstance(v, float) else str(v)
