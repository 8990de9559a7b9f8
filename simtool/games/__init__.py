"""The game registry: built-in games, plus any installed under the ``simtool.games`` entry point."""

from __future__ import annotations

import functools
import json
import sys
from importlib.metadata import entry_points

import numpy as np

from ..engine import ROUND_CAP as ROUND_CAP  # the safety cap on a match's rounds, for readers of results
from ..engine import Game, View, games_failure, printing_aside
from ..errors import GameError, SimtoolError, by_the_user, choices, describe, shown
from ..options import Option
from .black_white import GAME as BLACK_WHITE
from .hearts import GAME as HEARTS
from .kansas_city import GAME as KANSAS_CITY
from .nine_lives import GAME as NINE_LIVES
from .out_trumped import GAME as OUT_TRUMPED
from .trickster import GAME as TRICKSTER

BUILT_IN: tuple[Game, ...] = (BLACK_WHITE, KANSAS_CITY, TRICKSTER, OUT_TRUMPED, NINE_LIVES, HEARTS)


def registry() -> dict[str, Game]:
    """Every game that can be played: the built-in ones, and each installed one that loads."""
    return {gid: g for gid, g in _found().items() if isinstance(g, Game)}


def broken() -> dict[str, str]:
    """Each installed game that cannot be played: why, in one line (one taking a built-in game's
    name under its own key, ``NAME (installed)``: the built-in game keeps the name)."""
    problems = {gid: g for gid, g in _found().items() if isinstance(g, str)}
    built_in = {g.id for g in BUILT_IN}
    for ep in entry_points(group="simtool.games"):
        if ep.name in built_in:
            problems[f"{ep.name} (installed)"] = _shadows(ep.name, ep.value)
    return problems


def _shadows(game_id: str, value: str) -> str:
    return (f"installed game '{game_id}' (entry point {value}) takes the name of a built-in game: "
            f"--game {game_id} plays the built-in one; give yours another name")


def shadowed(game_id: str, claimed: dict | None = None) -> str | None:
    """The line saying that an installed game takes the name of the built-in game ``game_id``,
    which plays: a designer who installed their own "hearts" would otherwise think it ran; or
    that several installed packages declare ``game_id``, and which one plays. ``claimed``: what
    :func:`claims` gave (default: asked now)."""
    values = (claims() if claimed is None else claimed).get("simtool.games", {}).get(game_id, [])
    if values and game_id in _BY_ID:
        return _shadows(game_id, values[0])
    return declared_twice("game", game_id, values, f"--game {game_id}")


def declared_twice(kind: str, name: str, values: list[str], given: str) -> str | None:
    """The line saying that several installed entry points (``values``, in the order they are
    found) declare the ``kind`` (game, strategy) ``name``: the first plays, silently before."""
    if len(values) < 2:
        return None
    return (f"installed {kind} '{name}' is declared by {len(values)} entry points ({', '.join(values)}): "
            f"{given} plays the first, {values[0]}; uninstall or rename the others")


def claimed_by(group: str) -> dict[str, list[str]]:
    """The names installed packages declare in entry-point ``group``, each with every entry point
    declaring it in the order they are found (the first plays), read once while the installation
    stays as it is (a sweep or a tuning asks at every run)."""
    return claims().get(group, {})


def claims() -> dict[str, dict[str, list[str]]]:
    """:func:`claimed_by` of both groups (``simtool.games``, ``simtool.strategies``) from one look
    at the installation (:func:`_installation`, 0.7 ms of CPU): a run's check of its game and its
    strategies asks both."""
    return _claimed(_installation())


def installed_version(group: str, name: str, imported_as_now: bool = True) -> str | None:
    """What plays the installed game (``simtool.games``) or strategy (``simtool.strategies``)
    ``name``, in a line: its entry point, its package's name and version, and the SHA-256 of its
    module's source (of every ``.py`` file of its top-level package): a run resumed after the
    package changed would join chunks of two versions. Found without importing the module (an
    ``--isolate`` run never imports a plugin here). ``None``: no such entry point.
    ``imported_as_now``: refused where this process imported another version of it
    (:func:`imported`), which it would play."""
    ep = next((e for e in entry_points(group=group) if e.name == name), None)
    if ep is None:
        return None
    now, (module, then) = _version_line(ep), _IMPORTED.get(ep.value, (None, None))
    if imported_as_now and module is not None and sys.modules.get(ep.module) is module and then != now:
        # the process plays the code it imported; the run recorded the source as it is now
        kind = "game" if group == "simtool.games" else "strategy"
        raise SimtoolError(f"installed {kind} '{name}' ({ep.value}) changed since this process imported it: it "
                           f"would play the version it imported and record the new one; restart the process "
                           f"(in a notebook, the kernel) to play the new version, or restore the old")
    return now


_IMPORTED: dict[str, tuple] = {}
"""Each installed entry point this process loaded: its module and :func:`installed_version`'s
line as it was when the module was imported (:func:`imported`)."""


def imported(ep) -> None:
    """Remember what entry point ``ep``, just loaded, was: a notebook's second run after its game's
    module was edited played the module it had imported, and recorded the edited source's SHA-256
    (a resume from a fresh process then played the edited code on the same record). A module
    imported anew (taken out of ``sys.modules`` first) is remembered anew."""
    module = sys.modules.get(ep.module)
    if _IMPORTED.get(ep.value, (None,))[0] is not module:
        _IMPORTED[ep.value] = (module, _version_line(ep))


def _version_line(ep) -> str:
    import hashlib

    dist = getattr(ep, "dist", None)
    package = f" of {dist.name} {dist.version}" if dist is not None else ""
    digest = hashlib.sha256()
    files = _sources(ep.module)
    for path in files:
        digest.update(path.name.encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"unreadable")
    return f"{ep.value}{package}, " + (f"source sha256 {digest.hexdigest()}" if files else "its source not found")


SOURCE_FILES = 500
"""``.py`` files of an installed plugin's package hashed, the first by path: bounded, as a
plugin file's folder is (``simtool.pipeline.runner.BESIDE_FILES``)."""


def _sources(module: str) -> list:
    """The source files of installed module ``module``: the module's own file, or every ``.py``
    file of its top-level package; found by the import system's finders, nothing imported (a
    package's ``__init__`` is never run to find its submodule)."""
    import importlib.machinery
    import importlib.util
    from pathlib import Path

    top = module.split(".")[0]
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: found, not imported
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:  # a package: all of it may be the plugin's code
        found = sorted({f for where in spec.submodule_search_locations for f in Path(where).rglob("*.py")})
        return found[:SOURCE_FILES]
    return [Path(spec.origin)] if spec.has_location and spec.origin else []


def _declares_plugins(folder: str) -> bool:
    """Whether a package installed in ``folder`` may declare a simtool entry point: its
    ``entry_points.txt`` names a ``simtool.`` group. Read directly, 1 ms where the full scan of
    the installed packages' metadata (which the answer "yes" asks for) takes 3 to 5: a run with
    no plugin installed is not slowed to find none."""
    import os

    try:
        with os.scandir(folder or ".") as entries:
            infos = [e.path for e in entries if e.name.endswith((".dist-info", ".egg-info"))]
    except OSError:  # a file (a zip of modules), a folder gone: not where pip installs packages
        return False
    for info in infos:
        try:
            with open(os.path.join(info, "entry_points.txt"), "rb") as f:
                if b"[simtool." in f.read():
                    return True
        except OSError:
            continue
    return False


def _installation() -> tuple:
    """What the installed packages are found in: ``sys.path``, each folder's modification time
    (installing or removing a package changes its folder's) and each package's ``entry_points.txt``'s
    (``setup.py develop`` rewrites an ``.egg-info``'s in place, its folder's time unchanged)."""
    import os

    def stamp(entry: str) -> tuple | None:
        try:
            found = os.stat(entry or ".")
        except (OSError, ValueError):  # a path hook's name, not a folder
            return None
        infos = _infos(entry, found.st_dev, found.st_ino, found.st_mtime_ns)
        if infos is None:  # a file (a zip of modules): its own time says it changed
            return found.st_mtime_ns, ()
        return found.st_mtime_ns, tuple((info, declared_at(points)) for info, points in infos)

    def declared_at(points: str) -> int | None:
        try:
            return os.stat(points).st_mtime_ns
        except OSError:
            return None

    return tuple((entry, stamp(entry)) for entry in sys.path)


@functools.lru_cache(maxsize=64)
def _infos(entry: str, device: int, inode: int, mtime: int) -> tuple[tuple[str, str], ...] | None:
    """The packages' ``.dist-info`` and ``.egg-info`` folders in the folder ``entry`` of ``sys.path``,
    each with the path of its ``entry_points.txt`` (joined once: a quarter of what stat'ing them
    all cost), ``None`` where ``entry`` is not a folder; listed once while the folder (its device
    and inode) keeps its modification time, which installing or removing a package changes:
    listing site-packages and the standard library at every run, strategy and game look-up was
    most of :func:`_installation`'s CPU (1.2 of 2.1 ms a call, measured), which a test session
    asks thousands of times. importlib.metadata, which reads the entry points, keeps its listing
    of a folder by its modification time in the same way."""
    import os

    try:
        with os.scandir(entry or ".") as entries:
            infos = sorted(e.path for e in entries if e.name.endswith((".dist-info", ".egg-info")))
    except OSError:
        return None
    return tuple((info, os.path.join(info, "entry_points.txt")) for info in infos)


@functools.lru_cache(maxsize=1)
def _claimed(installation: tuple) -> dict[str, dict[str, list[str]]]:
    if not any(map(_declares_plugins, (entry for entry, mtime in installation if mtime is not None))):
        return {}
    installed = entry_points()  # one scan for both groups (as long as one group's)
    found: dict[str, dict[str, list[str]]] = {}
    for group in ("simtool.games", "simtool.strategies"):
        for ep in installed.select(group=group):
            found.setdefault(group, {}).setdefault(ep.name, []).append(ep.value)
    return found


def declared(group: str, scan) -> tuple:
    """The entry points of ``group`` that ``scan`` (``importlib.metadata.entry_points``) finds,
    read once while the installation stays as it is (:func:`_installation`): a lookup of an
    installed game or strategy, which a command asks for many times, read every installed
    package's metadata again (8 ms each, 48 files opened)."""
    return _scanned(_installation(), group, scan)


@functools.lru_cache(maxsize=8)
def _scanned(installation: tuple, group: str, scan) -> tuple:
    return tuple(scan(group=group))


def _found() -> dict[str, Game | str]:
    games: dict[str, Game | str] = {g.id: g for g in BUILT_IN}
    for ep in declared("simtool.games", entry_points):
        if ep.name not in games:
            games[ep.name] = _load(ep)
    return games


def _load(ep) -> Game | str:
    """The installed game of entry point ``ep``, or why it cannot be played: one broken package
    must not take every command down (``simtool games``, an unknown game's list of valid ones)."""
    where = f"installed game '{ep.name}' (entry point {ep.value})"
    try:
        with printing_aside():  # a print at its top level: to standard error, as a strategy plugin's
            game = ep.load()
        imported(ep)
    except BaseException as exc:  # even SystemExit at import, and its own KeyboardInterrupt
        if isinstance(exc, KeyboardInterrupt) and by_the_user():
            raise  # its own raise is its error, as a strategy plugin's: taken for Ctrl-C, exit 130
        return f"{where} failed to load: {describe(exc)}"
    if not isinstance(game, Game):
        return f"{where} is a {type(game).__name__}, not a simtool.engine.Game (name the game object)"
    problem = declaration_problem(game)  # first: its id may be a property that raises
    if problem is None and game.id != ep.name:  # runs look a game up by its id
        return f"{where} calls itself {game.id!r}: the entry point's name must be the game's id"
    return f"{where}: {problem}" if problem else game


def declaration_problem(game: Game) -> str | None:
    """Why the game's declared player counts, options or rule options cannot be played, or ``None``."""
    try:
        return _declaration_problem(game)
    # a declaration that is a property raising (players, columns...): `simtool games` and every
    # unknown game's list of valid ones ended in its traceback, and the suite in INTERNALERROR
    except BaseException as exc:  # noqa: BLE001 - the game's code: its one line
        if isinstance(exc, KeyboardInterrupt) and by_the_user():
            raise
        return (f"game {type(game).__name__} ({type(game).__module__}) raised {describe(exc)} as its declarations "
                f"(id, title, players, options, columns...) were read")


def _declaration_problem(game: Game) -> str | None:
    gid = getattr(game, "id", None)
    if not (isinstance(gid, str) and gid.strip()):  # runs, tables and --game name the game by it
        return f"game {type(game).__name__} declares id = {gid!r}: it must be the game's name, such as 'my-game'"
    title = getattr(game, "title", None)
    if not (isinstance(title, str) and title.strip()):  # `simtool games`, run.json and reports show it
        return f"game '{gid}' declares title = {title!r}: it must be the game's name in words, such as 'My Game'"
    default = getattr(game, "default_strategy", None)
    if not (isinstance(default, str) and default.strip()):  # `simtool games` lists it: rich refused an int
        return (f"game '{gid}' declares default_strategy = {default!r}: it must be a strategy's name, such as "
                f"'random'")
    view = getattr(game, "View", None)
    if not (isinstance(view, type) and issubclass(view, View)):  # every decision makes one of them
        return (f"game '{gid}' declares View = {view!r}: it must be a subclass of simtool.engine.View (the class "
                f"of its seats' views), or left out for the plain one")
    actions = getattr(game, "n_actions", None)
    if not (isinstance(actions, int) and 1 <= actions <= 64):  # an option is a bit of a uint64 set
        return f"game '{game.id}' declares n_actions = {actions!r}: a decision's options are 0..63 at most, so 1..64"
    kinds = getattr(game, "decisions", ())
    if not isinstance(kinds, tuple | list) or not all(isinstance(k, str) and k for k in kinds):
        # decisions = "lead" (the comma forgotten) was read letter by letter: pimc's focus='l' was
        # taken, and its refusals listed the letters as the game's kinds
        return (f"game '{gid}' declares decisions = {kinds!r}: it must be a tuple of the kinds its decisions are, "
                f"such as ('lead', 'play') (the comma of a one-kind tuple forgotten?)")
    return player_count_problem(game) or option_problem(game) or column_problem(game) or scoring_problem(game)


def scoring_problem(game: Game) -> str | None:
    """Why the game's ``lower_wins`` or ``total_floor`` cannot be read as declared, or ``None``:
    ``lower_wins = "no"`` was read as true, every deal won by its lowest score without a word."""
    lower = getattr(game, "lower_wins", False)
    if not isinstance(lower, bool | np.bool_):
        return (f"game '{game.id}' declares lower_wins = {lower!r}: it must be True (the lowest score wins) "
                f"or False (the highest)")
    floor = getattr(game, "total_floor", None)
    if floor is not None and (isinstance(floor, bool) or not isinstance(floor, int | np.integer)):
        return (f"game '{game.id}' declares total_floor = {floor!r}: it must be a whole number (the lowest a "
                f"match total falls to) or None")
    return None


ENGINE_COLUMNS = ("deal", "match", "round", "rotation", "seat", "strategy", "score", "tricks", "win",
                  "total", "rounds", "capped", "id")
"""The columns simtool's tables hold for every game: a game's own columns take other names."""


def column_problem(game: Game) -> str | None:
    """Why the game's result columns cannot be tables' columns, or ``None``: a name the engine's
    columns take (a polars DuplicateError, or the game's values silently replaced), a type that
    is not a number or a boolean."""
    for kind, columns in (("columns", game.columns), ("match_columns", game.match_columns)):
        if not isinstance(columns, dict):
            return (f"game '{game.id}' declares {kind} = {columns!r}: it must be a dict of column names and "
                    f"numpy types, such as {{'banks': np.int8}}")
        for name, dtype in columns.items():
            if not (isinstance(name, str) and name.strip()):
                # '' played and was written, and then every reader of the run took its table for a
                # damaged one ("seats.parquet has no '' column")
                return (f"game '{game.id}' declares a column {name!r} in {kind}: a column's name is text, "
                        f"such as 'banks'")
            if name in ENGINE_COLUMNS:
                return (f"game '{game.id}' declares a column '{name}' in {kind}, a name simtool's tables "
                        f"hold already ({', '.join(ENGINE_COLUMNS)}): give it another")
            try:
                # np.longdouble (128 bits) is a float numpy has and the tables do not: polars read
                # it as binary, and the run stopped in a polars traceback at its first chunk
                numeric = np.dtype(dtype).kind in "biuf" and np.dtype(dtype).itemsize <= 8
            except TypeError:
                numeric = False
            if not numeric:
                return (f"game '{game.id}' declares column '{name}' of type {dtype!r}: a column holds numbers "
                        f"or booleans, of 64 bits at most")
    return None


RECORDED = (str, int, float, bool, type(None))
"""The types of a choice's values that a run's record (JSON) reads back as they were."""


def recorded(value) -> bool:
    """Whether a run's record (JSON) of a choice's ``value`` gives it back: one of :data:`RECORDED`,
    or a subclass JSON writes as the text ``--rule`` matches it by (a ``StrEnum``'s or
    ``IntEnum``'s member), never numpy's numbers."""
    if type(value) in RECORDED:
        return True
    return (isinstance(value, str | int | float) and not isinstance(value, np.generic)
            and str(value) == str(json.loads(json.dumps(value))))


def option_problem(game: Game) -> str | None:
    """Why the game's rule options cannot be played as declared, or ``None``: a name given twice
    (``--rule`` could set only one), a name or value ``--rule`` cannot give, a default its own
    values refuse (played unchecked)."""
    declared = getattr(game, "options", None)
    if not isinstance(declared, tuple | list) or not all(isinstance(o, Option) for o in declared):
        shown = f"Option {declared.name!r}, not in a tuple" if isinstance(declared, Option) else repr(declared)
        return (f"game '{game.id}' declares options = {shown}: it must be a tuple of simtool.options.Option, "
                f"such as (Option(...),) (the comma of a one-option tuple forgotten?)")
    names = [o.name for o in game.options]
    # `--rule NAME=VALUE` reads the name up to the first '=' and the value, each stripped, as the
    # first value written so: a name or value it cannot read was never played from the command line
    unsayable = next((name for name in names if not isinstance(name, str) or not name.strip()
                      or name != name.strip() or "=" in name), None)
    if unsayable is not None:
        return (f"game '{game.id}' declares rule option {unsayable!r}: --rule NAME=VALUE cannot name it; give "
                f"it a name without '=' or spaces at its ends, such as 'hand_size'")
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice:
        return f"game '{game.id}' declares rule option '{twice}' twice"
    for o in game.options:
        odd_bound = next((f"{k} = {v!r}" for k, v in (("low", o.low), ("high", o.high), ("step", o.step))
                          if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer)), None)
        if o.low is not None and odd_bound:
            # low=1.5 loaded, and ended in a TypeError where its values are listed (Option.domain's
            # range, which tuning walks)
            return (f"game '{game.id}' declares rule option '{o.name}' with {odd_bound}: a range's low, high and "
                    f"step are whole numbers")
        if o.low is not None and o.step < 1:
            # step 0 ended Option.domain in a ValueError and a negative one left it empty, while
            # --rule read either as 1: `--vary` and tuning had no value to try
            return (f"game '{game.id}' declares rule option '{o.name}' with step = {o.step}: a range's step is a "
                    f"whole number 1 or more")
        if o.auto is None and not (isinstance(o.values, tuple | list) and o.values):
            # its default is its first value: an IndexError as the game loaded took every command
            # that lists the installed games down (`simtool games`, an unknown --game's list)
            return (f"game '{game.id}' declares rule option '{o.name}' with values = {o.values!r}: give its "
                    f"values in a tuple, the default first, such as ('on', 'off')")
        if o.low is None and isinstance(o.values, tuple | list) \
                and (odd := next((v for v in o.values if not recorded(v)), None)) is not None:
            # run.json records the rules as JSON: a tuple read back as a list the option refuses (the
            # finished run's report and metrics refused it), numpy's 3 as the text '3'
            return (f"game '{game.id}' declares rule option '{o.name}' with the value {odd!r} "
                    f"({type(odd).__name__}): a run records its rules as JSON; give text, a number, "
                    f"True, False or None")
        written = [str(v) for v in o.values] if o.low is None and isinstance(o.values, tuple | list) else []
        # the automatic default is read before the values: a value written as it was never given
        written += [str(o.auto)] if o.auto is not None and written else []
        if (odd := next((w for w in written if not w.strip() or w != w.strip()), None)) is not None:
            return (f"game '{game.id}' declares rule option '{o.name}' with the value {odd!r}: --rule "
                    f"{o.name}=VALUE cannot give it; write it without spaces at its ends")
        if (alike := next((w for w in written if written.count(w) > 1), None)) is not None:
            given = ", ".join(map(repr, o.values)) + (f"; auto {o.auto!r}" if o.auto is not None else "")
            return (f"game '{game.id}' declares rule option '{o.name}' with two values written {alike!r} "
                    f"({given}): --rule {o.name}={alike} cannot tell them apart; "
                    f"give each once")
        if o.auto is None:
            try:
                given = o.parse(game.id, o.default)
            except SimtoolError as exc:
                return f"game '{game.id}' declares a default its rule option refuses: {exc}"
            if type(given) is not type(o.default):
                # number("goal", 5.0, ...) played 5.0 by default and 5 once given as --rule goal=5;
                # numpy's 5 was recorded in run.json as the text '5'
                return (f"game '{game.id}' declares rule option '{o.name}' with the default {o.default!r} "
                        f"({type(o.default).__name__}): --rule {o.name}={o.default} gives {given!r} "
                        f"({type(given).__name__}); declare that")
    return None


MOST_PLAYERS = 128
"""The most seats a game may declare: the tables store seat numbers as int8."""


def player_count_problem(game: Game) -> str | None:
    """Why ``game.players`` and ``default_players`` cannot be played, or ``None``: a non-empty
    tuple of player counts holding the default (``players = (4)``, the comma forgotten, is an int)."""
    counts = getattr(game, "players", None)
    if not isinstance(counts, tuple | list) or not counts \
            or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 1 for p in counts):
        return (f"game '{game.id}' declares players = {counts!r}: it must be a non-empty tuple of "
                f"player counts, such as (4,) or (3, 4, 5)")
    if 1 in counts:  # no seat to compare: a verdict of "unclear, about 2,496 more deals would settle it"
        return (f"game '{game.id}' declares players = {tuple(counts)!r}: a game of 1 player has no seats to "
                f"compare, and every figure of simtool compares seats; declare 2 players or more")
    if max(counts) > MOST_PLAYERS:  # the tables number seats as int8: seat 128 was stored as -128
        return (f"game '{game.id}' declares players = {tuple(counts)!r}: the tables hold seats 0..{MOST_PLAYERS - 1}, "
                f"so {MOST_PLAYERS} players at most")
    default = getattr(game, "default_players", None)
    if default not in counts:
        return f"game '{game.id}' declares default_players = {default!r}, not one of its players {tuple(counts)}"
    if type(default) is not int:
        # 3.0 and numpy's 3 equal a count of 3: 3.0 stopped every run in a TypeError, numpy's 3 was
        # recorded in run.json as the text '3', and the finished run could not be read back
        return (f"game '{game.id}' declares default_players = {default!r} ({type(default).__name__}): give it as "
                f"a Python int, one of its players {tuple(counts)}")
    return None


_BY_ID = {g.id: g for g in BUILT_IN}


def get(game_id: str) -> Game:
    # a built-in game wins over an installed one of the same name (registry), so it needs no scan
    # of the installed packages (about 3 ms, and get is asked for in every command many times)
    if game_id in _BY_ID:
        return _BY_ID[game_id]
    found = _found()
    if isinstance(found.get(game_id), str):
        raise SimtoolError(found[game_id])
    games = {gid: g for gid, g in found.items() if isinstance(g, Game)}
    if game_id not in games:
        # a name written as a module or file (as --simtool-game and plugin strategies take them)
        # is a designer's own game: the way to name it is what they lack, not the list
        hint = ("; a game of your own is named by its id once its package is installed (entry points, "
                "docs/new-game.md)" if any(c in game_id for c in ":/") or game_id.endswith(".py") else "")
        raise SimtoolError(f"unknown game {shown(game_id, middle=True)}; valid: {choices(sorted(games))}{hint}")
    return games[game_id]


def _designers(game: Game, what: str, call):
    """``call()``, a piece of ``game``'s own code named ``what``: what it raises of its own is the
    game's one-line error (:func:`simtool.engine.games_failure`; what is not the game's to name goes
    through as it is)."""
    try:
        return call()
    except BaseException as exc:
        failed = games_failure(game, exc)
        if failed is None:
            raise
        raise GameError(f"{failed} in {what}") from exc


def check_rules(game: Game, rules: dict, p: int) -> None:
    """``game.check_rules(rules, p)``, whose refusal is a SimtoolError naming the limit: a
    designer's check_rules that raised anything else ended run, sweep and tune in a traceback, and
    one that returned its reason instead of raising it played the rules it meant to refuse."""
    said = _designers(game, f"check_rules(rules, {p})", lambda: game.check_rules(rules, p))
    if said is not None:
        raise GameError(f"game '{game.id}' check_rules(rules, {p}) returned {shown(said)}; it refuses by raising "
                        f"simtool.errors.SimtoolError (one line naming the limit) and returns None otherwise")


def played(game: Game, rules: dict, p: int) -> dict:
    """``game.played(rules, p)``, the rules as played at ``p`` players: a designer's that raised,
    or returned no dict, ended sweep, tune and review in a traceback."""
    out = _designers(game, f"played(rules, {p})", lambda: game.played(rules, p))
    if not isinstance(out, dict):
        raise GameError(f"game '{game.id}' played(rules, {p}) returned {shown(out)}; it returns the rules as played, "
                        f"a dict (every \"sheet\" value as its number)")
    return out


def check_players(game: Game, players: int | None) -> int:
    if players is None:
        return game.default_players
    if players not in game.players:
        raise SimtoolError(
            f"{game.id} is for {choices(game.players)} players, not {players}"
        )
    return players
