"""Built-in strategies, the plugin interface, and how a line-up name becomes a strategy.

A name is one of: a built-in (``simtool strategies`` lists them), a strategy
installed under the ``simtool.strategies`` entry-point group, or a plugin file
``path/to/file.py:name`` where ``name`` is a :class:`Strategy` or a plain
``choose(view, rng)`` function in that file. Any of these may carry parameters:
``NAME@KEY=VALUE,KEY=VALUE`` (see :mod:`strategies.base`), and any may be restricted:
``NAME~RESTRICTION`` (see :mod:`strategies.restrictions`).
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import importlib.util
import inspect
import itertools
import json
import signal
import sys
import threading
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import replace
from importlib.machinery import SourceFileLoader
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from simtool.engine import (
    Expired,
    ImportSettings,
    ProcessEnd,
    deadline,
    not_ending,
    not_forking,
    printing_aside,
    process_kept,
    thread_ended,
)
from simtool.errors import NotForGame, SimtoolError, by_the_user, choices, describe, option, shown, utf8

# nine_lives_belief: exact's reading of the others, offered to pimc@infer
from . import (  # noqa: F401
    basic,
    black_white,
    hearts,
    ismcts,
    kansas_city,
    nine_lives,
    nine_lives_belief,
    out_trumped,
    pimc,
    restrictions,
    trickster,
)
from .base import (
    STRATEGY,
    Param,
    Params,
    Strategy,
    file_identity,
    importing_beside,
    split,
    split_lineup,
    strategy,
    untouched,
)
from .restrictions import Restriction

BUILT_IN: tuple[Strategy, ...] = (
    basic.random, basic.high, basic.low, black_white.balance, black_white.duck,
    kansas_city.target, kansas_city.greedy, trickster.safe, trickster.spoiler,
    out_trumped.hoarder, out_trumped.tricks, out_trumped.ruffer, nine_lives.exact, nine_lives.team, hearts.ducker,
    # clairvoyant last: tests/plugins/seer.py copies BUILT_IN[-1]
    hearts.hunter, ismcts.ismcts, pimc.pimc, pimc.clairvoyant,
)

REFERENCES = frozenset({pimc.clairvoyant.name})
"""Built-in reference players that are not fair: ``clairvoyant`` sees every hidden card. A run
gives it the true deal (:func:`sees_all`); a fair line-up refuses it (:func:`require_fair`)."""

RESTRICTIONS: dict[str, tuple[Restriction, ...]] = {
    "black-white": black_white.RESTRICTIONS, "kansas-city": kansas_city.RESTRICTIONS,
    "trickster": trickster.RESTRICTIONS, "out-trumped": out_trumped.RESTRICTIONS,
    "nine-lives": nine_lives.RESTRICTIONS, "hearts": hearts.RESTRICTIONS,
}
"""Each game's restrictions for restricted play, ``STRATEGY~NAME`` (see :mod:`strategies.restrictions`)."""

__all__ = ["Param", "Params", "STRATEGY", "Strategy", "strategy", "registry", "broken", "resolve",
           "canonical", "split_lineup", "BUILT_IN", "Restriction", "RESTRICTIONS", "REFERENCES",
           "sees_all", "require_fair", "built_in", "recorded", "nested_plugins"]


def sees_all(spec: str) -> bool:
    """Whether the line-up entry ``spec`` (canonical, with any parameters and restrictions) is a
    built-in reference player that sees every card (:data:`REFERENCES`). Decided by the built-in
    registry alone, from the name: a built-in's name always means the built-in (an installed
    strategy of that name is shadowed, a plugin file's is labelled ``FILE.py:NAME``), so no plugin
    can claim it, and nothing a strategy sets or returns counts."""
    head = restrictions.split(spec)[0]
    base = split(head)[0]
    return plugin_file(base) is None and base in REFERENCES


def require_fair(specs, where: str) -> None:
    """Refuse, in one line, a reference player that is not fair among ``specs`` where a fair
    line-up is required (``where`` says which, as in 'a tuning objective')."""
    unfair = [s for s in specs if sees_all(str(s))]
    if unfair:
        raise SimtoolError(f"'{unfair[0]}' sees every hidden card and is not a fair player: it "
                           f"cannot be {where} (a reference only, for simtool run and the top of "
                           f"simtool ladder)")


def registry(game_id: str | None = None) -> dict[str, Strategy]:
    """Every named strategy (built-in and installed), optionally only those that play ``game_id``.

    An installed strategy that fails to load is left out (:func:`broken` lists it). Within an
    ``isolate`` resolution, installed strategies are described by their own processes.
    """
    found = {s.name: s for s in BUILT_IN}
    isolating = _ISOLATING.get() and game_id is not None
    for name, loaded in (_described(game_id) if isolating else _installed()).items():
        if isinstance(loaded, Strategy):
            found.setdefault(name, loaded)
    searchable = game_id is None or _redeals(game_id)
    return {k: s for k, s in found.items()
            if game_id is None or (s.plays(game_id) and (searchable or k not in SEARCHES))}


SEARCHES = frozenset({pimc.pimc.name, pimc.clairvoyant.name})
"""Built-in strategies that play out re-dealt (or the true) worlds: they play only a game that
re-deals what a seat cannot see (``Game.redeals``)."""


def _redeals(game_id: str) -> bool:
    """Whether ``game_id`` re-deals; an unknown game's error is its lookup's, not this one's."""
    from simtool import games

    try:
        return games.get(game_id).redeals
    except SimtoolError:
        return True


def plugin_file(spec: str) -> Path | None:
    """The file of a plugin spec ``path/to/file.py:NAME`` (parameters or not); ``None`` for a
    strategy name."""
    path, sep, _ = split(spec)[0].rpartition(":")
    return Path(path) if sep and (path.endswith(".py") or "/" in path) else None


def broken() -> dict[str, str]:
    """Installed strategies that fail to load, each with the reason; one taking a built-in's name
    under its own key, ``NAME (installed)`` (never loaded: the built-in keeps the name)."""
    found = {name: why for name, why in _installed().items() if isinstance(why, str)}
    built_in = {s.name for s in BUILT_IN}
    for ep in entry_points(group="simtool.strategies"):
        if ep.name in built_in:
            found.setdefault(f"{ep.name} (installed)", _shadows(ep.name, ep.value))
    return found


def _shadows(name: str, value: str) -> str:
    return (f"installed strategy '{name}' (entry point {value}) takes the name of a built-in strategy: "
            f"'{name}' plays the built-in one; give yours another name")


def shadowed(lineup, claimed: dict | None = None) -> list[str]:
    """A line for each built-in strategy of the line-up (entries with parameters and restrictions)
    whose name an installed strategy takes as well: the built-in plays (:func:`resolve`), and a
    designer who installed their own would otherwise think theirs played; and for each installed
    one that several packages declare (the first found plays). ``claimed``: what
    :func:`simtool.games.claims` gave (default: asked now)."""
    from simtool import games

    claimed = (games.claims() if claimed is None else claimed).get("simtool.strategies", {})
    if not claimed:
        return []
    built_in = {s.name for s in BUILT_IN}
    notes = []
    for base in dict.fromkeys(split(restrictions.split(str(entry))[0])[0] for entry in lineup):
        values = claimed.get(base, [])
        if values and base in built_in:
            notes.append(_shadows(base, values[0]))
        elif note := games.declared_twice("strategy", base, values, f"'{base}'"):
            notes.append(note)
    return notes


def _installed() -> dict[str, Strategy | str]:
    """Each installed strategy not shadowed by a built-in: the Strategy, or why it fails to load."""
    from simtool import games

    built_in = {s.name for s in BUILT_IN}
    found: dict[str, Strategy | str] = {}
    for ep in games.declared("simtool.strategies", entry_points):
        if ep.name not in built_in and ep.name not in found:
            try:
                found[ep.name] = _load_entry_point(ep)
            except SimtoolError as exc:
                found[ep.name] = str(exc)
    return found


def _described(game_id: str) -> dict[str, Strategy | str]:
    """:func:`_installed` under ``--isolate``, for ``game_id``: each installed strategy as its own
    process describes it (its module is never imported here), or why it fails to load or does
    not play ``game_id``. Asked only where an error lists the valid strategies."""
    from .isolate import described

    built_in = {s.name for s in BUILT_IN}
    found: dict[str, Strategy | str] = {}
    for ep in entry_points(group="simtool.strategies"):
        if ep.name not in built_in and ep.name not in found:
            try:
                found[ep.name] = described(ep.name, game_id, None)
            except SimtoolError as exc:
                found[ep.name] = str(exc)
    return found


def _load_entry_point(ep) -> Strategy:
    # guarded as a plugin file's import is: a package replacing simtool's code as it is imported
    # was neither named nor put back
    with untouched(f"installed strategy '{ep.name}' (entry point {ep.value}), as it was imported,"), \
            printing_aside(), process_kept() as settings:
        try:
            obj = ep.load()
        except BaseException as exc:  # one broken package must not take every strategy down
            if isinstance(exc, KeyboardInterrupt) and by_the_user():
                raise
            raise SimtoolError(f"installed strategy '{ep.name}' (entry point {ep.value}) failed to "
                               f"load: {describe(exc)}") from None
    # its package is imported once: a second load of the entry point sets nothing
    _imported(f"entry point {ep.value}", *settings)
    from simtool import games

    games.imported(ep)
    found = _as_strategy(obj, ep.name, f"entry point {ep.value}")
    # named as the line-up names it: a package's strategy that calls itself `random` is not random
    return found if found.name == ep.name else replace(found, name=ep.name)


_ISOLATING: ContextVar[bool] = ContextVar("isolating", default=False)
"""Set while an ``isolate`` resolution runs: the strategies a built-in's parameters name (pimc's
``playout``), checked as the parameters are parsed, are isolated too."""


_RECORDED: ContextVar[dict[str, Path] | None] = ContextVar("recorded", default=None)
"""Set while a run resolves its strategies (:func:`recorded`): where each plugin file it recorded
lies, by the path the line-up writes (``bot.py``)."""


@contextmanager
def recorded(files: dict[str, Path]):
    """Resolve a plugin the line-up names by ``files``' key (``bot.py``, as a search's parameter
    ``pimc@playout=bot.py:bot`` writes it) from its value, the file the run recorded: a resume
    from another folder plays the run's file, not one of that name there, or none."""
    token = _RECORDED.set(files)
    try:
        yield
    finally:
        _RECORDED.reset(token)


def nested_plugins(entry: str) -> list[str]:
    """The plugins (``FILE.py:NAME``, with any parameters of their own) that the line-up entry
    ``entry`` names among its parameters, at any depth: ``bot.py:bot`` of
    ``pimc@playout=bot.py:bot``. A parameter's value is a plugin where it names one that exists
    (as a line-up entry's is): no other kind of value a strategy takes is a file's path."""
    found = []
    for value in split(restrictions.split(entry)[0])[1].values():
        value = str(value).strip()
        file = plugin_file(restrictions.split(value)[0])
        if file is not None and file.is_file():
            found.append(value)
            found.extend(nested_plugins(value))
    return found


def resolve(spec: str, game_id: str, file: Path | None = None, isolate: bool | None = None) -> Strategy:
    """The strategy named by ``spec`` for ``game_id``, or a one-line error. ``file``: where a
    plugin's file is now (a resumed run records it as an absolute path). ``isolate``: a plugin
    (a file's or an installed package's strategy, not a built-in) plays in a process of its own
    that receives only its views, and is never imported in this one: its process describes it
    (:mod:`strategies.isolate`); ``None``: as the resolution this one runs within.

    Installed strategies are loaded only when named (or listed): a broken one fails only the
    runs that use it."""
    if isolate is None:
        isolate = _ISOLATING.get()
    token = _ISOLATING.set(isolate)
    try:
        return _resolve(spec, game_id, file, isolate)
    finally:
        _ISOLATING.reset(token)


def _resolve(spec: str, game_id: str, file: Path | None, isolate: bool) -> Strategy:
    spec, found = restrictions.restricted_name(spec, game_id)
    if found:
        return restrictions.wrap(resolve(spec, game_id, file, isolate), found, game_id)
    base, given = split(spec)
    path = plugin_file(base)
    if path is not None and not utf8(str(path)):
        # the tables name the strategy by its file: polars refused the name once a chunk was played
        raise SimtoolError(f"cannot use the strategy plugin {ascii(str(path))[1:-1]}: its file name is not UTF-8 "
                           f"text, which the tables need (they name the strategy by it); rename the file")
    if path is not None and file is None:
        file = (_RECORDED.get() or {}).get(str(path))
    if isolate and (path is not None or (base not in {s.name for s in BUILT_IN} and _entry_point(base))):
        from .isolate import described  # imported only when asked for: it loads subprocess

        # the plugin's own process loads it, parses and checks its parameters for this game
        return described(spec, game_id, file or path)
    if path is not None:
        found = _load_plugin(file or path, base.rpartition(":")[2])
    else:
        found = next((s for s in BUILT_IN if s.name == base), None)
        if found is None:
            ep = _entry_point(base)
            if ep is None:
                valid = choices(sorted(registry(game_id)))
                raise SimtoolError(
                    f"unknown strategy {shown(base, middle=True)}; valid for {game_id}: {valid}, or a plugin "
                    f"FILE.py:NAME"
                )
            found = _load_entry_point(ep)
    if found.name in SEARCHES and found.plays(game_id) and not _redeals(game_id):
        raise NotForGame(
            f"strategy '{found.name}' plays out re-dealt worlds, and {game_id} does not re-deal (its view "
            f"declares no state: docs/new-game.md); valid for {game_id}: {choices(sorted(registry(game_id)))}"
        )
    if not found.plays(game_id):
        raise NotForGame(
            f"strategy '{found.name}' plays {choices(found.games)}, not {game_id}; "
            f"valid for {game_id}: {choices(sorted(registry(game_id)))}"
        )
    resolved = found.with_params(given, game_id)
    if found is pimc.clairvoyant:
        _sealed_playout(resolved)
    return resolved


def _entry_point(name: str):
    """The installed package's entry point named ``name`` (not loaded), or None."""
    return next((e for e in entry_points(group="simtool.strategies") if e.name == name), None)


def built_in(spec: str) -> bool:
    """Whether the line-up entry ``spec`` (with any parameters and restrictions) is a built-in
    strategy, not a plugin's or an installed package's."""
    base = split(restrictions.split(spec)[0])[0]
    return plugin_file(base) is None and base in {s.name for s in BUILT_IN}


def _sealed_playout(found: Strategy) -> None:
    """The play-outs of a reference player run on the true deal: a plugin asked there would see
    every seat's true cards (and could keep them for its own seat), so its play-out policy must
    be built-in."""
    policy = found.values.playout
    if not built_in(policy):
        raise SimtoolError(f"bad parameter playout {policy!r} of strategy '{found.base}': its "
                           f"play-outs run on the true deal, so the play-out policy must be a "
                           f"built-in strategy, not a plugin")


def canonical(spec: str, game_id: str, isolate: bool | None = None) -> str:
    """The line-up entry ``spec`` written canonically (see :meth:`Strategy.with_params`): a
    plugin keeps its path, a strategy's parameters are checked and put in order, and its
    restrictions follow in their game's order. ``isolate``: as :func:`resolve`'s."""
    head, limits = restrictions.restricted_name(spec, game_id)
    head = _defaulted(head, game_id)
    found = resolve(head, game_id, isolate=isolate)
    base = split(head)[0]
    if plugin_file(base) is not None and "@" in base.partition("/")[0]:
        # `runs@x=1/bot.py:n` reads as a plugin only where its file is found: recorded as
        # `./runs@x=1/bot.py:n`, it reads so from any folder (a resume, a report)
        base = f"./{base}"
    return base + found.name[len(found.base):] + "".join(f"~{r.name}" for r in limits)


def _defaulted(head: str, game_id: str) -> str:
    """``default`` (``default@k=v``) as the game's default strategy (with those parameters), as a
    sweep's line-up and a play-out policy read it: a designer writes it in any line-up."""
    name, at, params = head.partition("@")
    if name.strip() != "default":
        return head
    from simtool import games

    default = games.get(game_id).default_strategy
    require_fair([default], f"{game_id}'s default strategy")
    return default + (("," if "@" in default else "@") + params if at else "")


IMPORT_LIMIT: ContextVar[float | None] = ContextVar("simtool_import_limit", default=None)
"""A command's ``--timeout`` (``timeout=``) while it reads its line-up: a plugin file's import
gets as long as one decision (an import that slept for ever hung the command before its first
deal, whatever the limit)."""


@contextmanager
def importing_within(seconds: float | None):
    """Plugin files imported inside take at most ``seconds`` (``None``: no limit)."""
    token = IMPORT_LIMIT.set(seconds)
    try:
        yield
    finally:
        IMPORT_LIMIT.reset(token)


def _import_limit() -> float | None:
    """:data:`IMPORT_LIMIT` where simtool's timer may run: in a main thread, and not inside another
    deadline (whose timer this one would stop)."""
    limit = IMPORT_LIMIT.get()
    if limit is None or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return None
    return limit if signal.getitimer(signal.ITIMER_REAL)[0] == 0 else None


_SET_ON_IMPORT: dict[str, ImportSettings] = {}
"""What each plugin's import set for its play (:class:`simtool.engine.ImportSettings`), by its
module (or entry point): it is imported once a process, its strategies resolved many times."""
_SETTINGS: ContextVar[list[ImportSettings] | None] = ContextVar("simtool_import_settings", default=None)


@contextmanager
def import_settings():
    """A list that gathers, for the plugins resolved inside, what their imports set for their
    play (a run's line-up: applied while its chunks are played)."""
    found: list[ImportSettings] = []
    token = _SETTINGS.set(found)
    try:
        yield found
    finally:
        _SETTINGS.reset(token)


def _imported(key: str, settings: ImportSettings | None = None) -> None:
    if settings is not None and settings != ImportSettings():
        _SET_ON_IMPORT.setdefault(key, settings)
    found, settings = _SETTINGS.get(), _SET_ON_IMPORT.get(key)
    if found is not None and settings is not None and settings not in found:
        found.append(settings)


def _load_plugin(path: Path, attr: str) -> Strategy:
    if not path.is_file():
        if path.exists():  # a folder or a pipe of that name read "not found" beside the ls that lists it
            raise SimtoolError(f"strategy plugin file {path} is not a regular file (a folder, a pipe or a device); "
                               f"expected FILE.py:NAME, NAME a strategy in a Python file")
        raise SimtoolError(f"strategy plugin file not found: {path}")
    module_name = f"simtool_plugin_{abs(hash((str(path.resolve()), *file_identity(path))))}"  # the file as it is now
    module, settings = sys.modules.get(module_name), []
    if module is not None and stale_imports(path):
        # a helper of its own edited since this process imported it (a notebook's next run): kept,
        # the run was refused for the helper's record, with 'start a new run' for advice, the
        # new run itself; imported anew with the edit, as a helper beside it is
        _SET_ON_IMPORT.pop(module_name, None)
        module = None
    if module is None:
        _forget_edited_helpers()
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None:  # a name Python does not import (/etc/passwd:x, notes.txt:x)
            raise SimtoolError(f"strategy plugin {path} is not a Python file; expected FILE.py:NAME")
        module = importlib.util.module_from_spec(spec)
        limit = _import_limit()
        with untouched(f"strategy plugin {path}, as it was imported,"), printing_aside(), importing_beside(path), \
                process_kept() as settings, not_forking(f"strategy plugin {path}, as it was imported,"), \
                not_ending():
            before, asked = set(sys.modules), set()
            try:
                with deadline(limit) if limit else nullcontext(), _watching_imports(asked):
                    spec.loader.exec_module(module)
                thread_ended()
                # before importing_beside takes the helpers beside it out of sys.modules
                new = set(sys.modules) - before
                _IMPORTS[import_key(path)] = own_imports(new | _brought(asked), module, path)
                _IMPORTED_ANEW[import_key(path)] = new
                edited = _edited_before(_IMPORTS[import_key(path)], new)
            except BaseException as exc:  # even SystemExit: a plugin must not end simtool silently
                if isinstance(exc, KeyboardInterrupt) and by_the_user():
                    raise  # its own raise is its error: taken for Ctrl-C, a traceback
                if isinstance(exc, ProcessEnd):
                    raise SimtoolError(f"strategy plugin {path}, as it was imported, called {exc.call}, which would "
                                       f"end simtool's process: a plugin must never end its "
                                       f"process") from None
                if isinstance(exc, Expired):  # the timer's, not the plugin's own raise of Overtime
                    raise SimtoolError(f"strategy plugin {path} took longer than {limit:g} s "
                                       f"({option('timeout', limit)}) to import (the limit covers a plugin's "
                                       f"import as well as each decision); give a longer {option('timeout')}, "
                                       f"or none") from None
                raise SimtoolError(f"strategy plugin {path} failed to load: {describe(exc)}") from None
        if edited:
            raise SimtoolError(f"{edited}, which strategy plugin {path} imports, was imported by this process before "
                               f"the plugin and has been edited since: the plugin would play the version first "
                               f"imported, and record and play the edited one elsewhere (another --jobs, --isolate, "
                               f"a resume); reload it (importlib.reload), or restart the process (a notebook's kernel)")
        sys.modules[module_name] = module
    _imported(module_name, *settings)
    try:  # the plugin's code runs here too: a module __getattr__, a property of its strategy
        with not_ending():
            attr = _plugin_attribute(module, attr, path)
            found = _as_strategy(getattr(module, attr), attr, str(path)) if hasattr(module, attr) else None
            thread_ended()
    except SimtoolError:
        raise
    except BaseException as exc:  # as its import's: its error, in one line (a traceback before)
        if isinstance(exc, KeyboardInterrupt) and by_the_user():
            raise
        raise SimtoolError(f"strategy plugin {path} failed to load: {describe(exc)}") from None
    if found is None:
        # its strategies and its own functions: an imported one (the `strategy` decorator, numpy's)
        # was offered as a strategy the file defines
        names = [n for n, v in vars(module).items() if not n.startswith("_") and (isinstance(v, Strategy) or (
            inspect.isfunction(v) and v.__module__ == module.__name__))]
        raise SimtoolError(f"no strategy '{attr}' in {path}; it defines: {choices(names) or 'nothing callable'}")
    # labelled by its file: a plugin calling itself `random`, or two files' `greedy`, can never
    # be pooled with a built-in or with each other in a table, a report or the ratings
    label = f"{path.name}:{found.name}"
    return replace(found, name=label, label=label)


_IMPORTS: dict[str, dict[str, str]] = {}
"""The user's own modules each plugin file imported as it loaded (:func:`own_imports`), by
:func:`import_key`: its module is imported once a process, its record asked at every run."""


_IMPORTED_ANEW: dict[str, set[str]] = {}
"""The modules each plugin file's import brought into ``sys.modules`` (by :func:`import_key`)."""


def import_key(path: Path) -> str:
    """A plugin file as it is now, the same in every process (an isolated plugin's reports it)."""
    return json.dumps([str(Path(path).resolve()), *file_identity(path)])


def stale_imports(path: Path) -> set[str]:
    """The files of :func:`imports_of` ``path`` no longer as this process imported them."""
    return stale_imports_of(import_key(path))


def stale_imports_of(key: str) -> set[str]:
    """:func:`stale_imports` of the plugin file :func:`import_key` names ``key``."""
    return set(changed_files(_IMPORTS.get(key, {})))


def changed_files(record: dict[str, str]) -> list[str]:
    """The files of ``record`` (file -> SHA-256), in its order, that are no longer the file recorded:
    edited, gone, unreadable, or no regular file (a record edited to name /dev/zero or a pipe read
    for ever)."""
    changed = []
    for file, digest in record.items():
        try:
            if Path(file).is_file() and hashlib.sha256(Path(file).read_bytes()).hexdigest() == digest:
                continue
        except OSError:  # gone or unreadable: not the module imported
            pass
        changed.append(file)
    return changed


def _forget_edited_helpers() -> None:
    """Out of ``sys.modules``, each module a plugin's import brought in whose file has been edited
    since, so that the plugin imported next (that one again, or another importing the same helper:
    a sweep's next cell, a long-lived dask worker's next run) imports the edit. One imported
    before any plugin (the notebook's own) is left to the notebook (:func:`_edited_before`)."""
    for key, names in list(_IMPORTED_ANEW.items()):
        stale = stale_imports_of(key)
        for name in names if stale else ():
            if isinstance(loaded := sys.modules.get(name), ModuleType) and _module_file(loaded) in stale:
                del sys.modules[name]


def _module_file(module: ModuleType) -> str | None:
    """A module's file as :func:`own_imports` records it, or ``None``."""
    file = vars(module).get("__file__")
    try:
        return str(Path(file).resolve()) if isinstance(file, str) else None
    except (OSError, ValueError):
        return None


def imports_of(path: Path) -> dict[str, str]:
    """The user's own modules (file -> SHA-256) the plugin file ``path`` imported as it loaded,
    in this process or its isolated one; ``{}``: none, or not loaded."""
    return dict(_IMPORTS.get(import_key(path), {}))


def imports_reported(found) -> None:
    """An isolated plugin's process's :data:`_IMPORTS` (as :func:`imports_sent` gives it), kept here:
    the run records them as it records an imported plugin's. An untrusted reply: checked."""
    if not isinstance(found, dict):
        return
    for key, files in found.items():
        if isinstance(key, str) and isinstance(files, dict) and all(
                isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            _IMPORTS[key] = dict(files)


def imports_sent() -> dict[str, dict[str, str]]:
    return {key: dict(files) for key, files in _IMPORTS.items()}


@functools.cache
def _installed_roots() -> tuple[Path, ...]:
    """Where code that is not the user's own lies: Python's library, the installed packages,
    simtool and its strategies (an editable install's source tree)."""
    import site
    import sysconfig

    from simtool import engine

    paths = sysconfig.get_paths()
    found = [paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")]
    found += [*getattr(site, "getsitepackages", list)(), site.getusersitepackages()]
    found += [Path(engine.__file__).parent, Path(__file__).parent]
    return tuple(dict.fromkeys(Path(f).resolve() for f in found if f))


_BROUGHT: dict[str, frozenset[str]] = {}
"""Each module imported while a plugin loaded, by name: the modules its import brought into
``sys.modules`` with it (those it imported, at any depth)."""


@contextmanager
def _watching_imports(asked: set[str]):
    """Every module an ``import`` statement of this thread asks for inside gathered in ``asked``,
    and what each brought in with it kept (:data:`_BROUGHT`): a plugin importing a helper that
    another plugin imported first finds it in ``sys.modules``, and was recorded without it (or
    without the helper's own helpers), the record of one plugin depending on which loaded first
    (a sweep's cell of the second, resumed after the helper was edited, played both versions)."""
    original, thread = builtins.__import__, threading.get_ident()

    def watching(name, globals=None, locals=None, fromlist=(), level=0):
        if threading.get_ident() != thread:
            return original(name, globals, locals, fromlist, level)
        before = len(sys.modules)  # a set of its names at every import statement: 0.3 s at a package's thousands
        found = original(name, globals, locals, fromlist, level)
        try:
            full = importlib.util.resolve_name("." * level + name, (globals or {}).get("__package__")) \
                if level else name
        except (ImportError, ValueError, TypeError):
            return found
        wanted = [full, *(f"{full}.{item}" for item in fromlist or () if isinstance(item, str))]
        # added at the end (a dict keeps its order); sys.modules only grows as a module imports
        brought = frozenset(itertools.islice(sys.modules, before, None)) if len(sys.modules) > before else frozenset()
        for each in wanted:
            if each in sys.modules:
                asked.add(each)
                if each in brought:
                    _BROUGHT[each] = brought - {each}
        return found

    builtins.__import__ = watching
    try:
        yield
    finally:
        builtins.__import__ = original


def _brought(asked: set[str]) -> set[str]:
    """``asked`` and what each of them brought in with it as it was first imported."""
    return set(asked).union(*(_BROUGHT.get(name, ()) for name in asked))


def own_imports(names: set[str], module, plugin: Path) -> dict[str, str]:
    """The files (SHA-256) of the user's own modules a plugin's ``module`` imported as it loaded:
    those ``names`` new in ``sys.modules`` and those its names were bound from (a module imported
    before it, by another plugin or a notebook), but Python's, the installed packages', simtool's
    and the plugin's own file. Only its file and the files beside it were recorded: a helper
    package in a subfolder or a module on PYTHONPATH edited before a resume played a second
    version of the strategy in one run, without a word."""
    names = set(names)
    for value in list(vars(module).values()):
        if isinstance(value, ModuleType):
            names.add(value.__name__)
        elif isinstance(value, Strategy) and inspect.isfunction(value.choose):
            names.add(value.choose.__module__)
        elif inspect.isfunction(value) or inspect.isclass(value):
            names.add(value.__module__)
    roots, own = _installed_roots(), Path(plugin).resolve()
    found = {}
    for name in sorted(n for n in names if isinstance(n, str)):
        loaded = sys.modules.get(name)
        file = vars(loaded).get("__file__") if isinstance(loaded, ModuleType) else None
        if not isinstance(file, str):  # built into Python, or a namespace package: no file of its own
            continue
        try:
            path = Path(file).resolve()
            if path == own or not path.is_file() or any(path.is_relative_to(r) for r in roots):
                continue
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        except (OSError, ValueError):  # unreadable, or a name no file has: nothing to record
            continue
    return dict(sorted(found.items()))


def _edited_before(record: dict[str, str], new: set[str]) -> str | None:
    """The file of the first module of ``record`` that this process imported before the plugin
    (not among ``new``) and that has been edited since, or ``None``: a notebook that imported its
    helper, then edited it, ran the plugin on the helper first imported, under the checksum of the
    edited file, and a worker process importing the file played the edit (the same run's figures
    differed by --jobs). Edited: a function of its own (or of its classes) whose code its file no
    longer compiles to; an edit to a constant alone is not seen."""
    if not record:  # most plugins import no module of the user's: a look through sys.modules finds none
        return None
    names = {Path(f).name for f in record}  # resolving every module's path first: 70 ms at 400 modules
    for name, loaded in list(sys.modules.items()):
        # compiled from its file as it was read, only: an extension module's bytes (a SyntaxError from
        # Python 3.12) or a file its loader rewrites (pytest's asserts) read as edited, the file unchanged.
        # A path's last part is text of the path: looked for as such first, a Path made only for those
        # holding one (a Path per module was 14 ms of CPU a plugin's import among 1,500 modules)
        if name in new or not isinstance(loaded, ModuleType) or \
                not isinstance(getattr(vars(loaded).get("__spec__"), "loader", None), SourceFileLoader) or \
                not isinstance(named := vars(loaded).get("__file__"), str) or \
                not any(n in named for n in names) or Path(named).name not in names or \
                (file := _module_file(loaded)) not in record:
            continue
        try:
            tree = compile(Path(file).read_bytes(), vars(loaded)["__file__"], "exec", dont_inherit=True)
        except SyntaxError:  # no longer the module imported, whatever it was
            return file
        except (OSError, ValueError):  # gone or unreadable since: its record says so at the run's next check
            continue
        compiled: dict[str, list] = {}
        todo = [tree]
        while todo:
            code = todo.pop()
            compiled.setdefault(code.co_qualname, []).append(code)
            todo.extend(c for c in code.co_consts if inspect.iscode(c))
        values = list(vars(loaded).values())
        values += [v for c in values if inspect.isclass(c) and c.__module__ == name for v in vars(c).values()]
        for value in values:
            code = getattr(value, "__code__", None) if inspect.isfunction(value) else None
            if code is not None and code.co_filename == vars(loaded)["__file__"] \
                    and code not in compiled.get(code.co_qualname, ()):
                return file
    return None


def _plugin_attribute(module, attr: str, path: Path) -> str:
    """The name in a plugin file's ``module`` that ``FILE.py:attr`` names: ``attr``, or the one
    strategy declaring ``attr`` as its name, the name its tables label it by (`@strategy("spades-basic",
    ...)` on `def basic`: `heuristics.py:spades-basic`, copied from a table, was 'no strategy ...; it
    defines: basic'). Where ``attr`` reads as two strategies, a one-line error: `:b` played the
    function `b` though the tables showed `FILE.py:b` for `a`, declared 'b'."""
    missing = object()
    value = getattr(module, attr, missing)
    declared: dict[int, str] = {}  # by object: an alias (`best = greedy`) is the same strategy
    for name, v in vars(module).items():
        if isinstance(v, Strategy) and v.name == attr and v is not value:
            declared.setdefault(id(v), name)
    if not declared:
        return attr
    if value is missing and len(declared) == 1:
        return next(iter(declared.values()))
    read = [f"{name} (declared '{attr}')" for name in declared.values()]
    if value is missing:
        hint = f"name one by its function ({' or '.join(f'{path}:{name}' for name in declared.values())})"
    else:
        read.insert(0, attr + (f" (declared '{value.name}')" if isinstance(value, Strategy) else ""))
        hint = "rename one, so that no strategy declares another's function name"
    raise SimtoolError(f"'{attr}' in {path} names {len(read)} strategies: {', '.join(read)}; {hint}")


def _as_strategy(obj, name: str, origin: str) -> Strategy:
    choose = obj.choose if isinstance(obj, Strategy) else obj
    # an async or generator function returns no choices when called: its coroutine was refused
    # as "object of shape ()", then Python warned of it in three more lines
    for kind, test in (("an async function", inspect.iscoroutinefunction), ("an async generator",
                       inspect.isasyncgenfunction), ("a generator function", inspect.isgeneratorfunction)):
        if test(choose):
            raise SimtoolError(f"strategy '{name}' in {origin} is {kind}; expected a plain function "
                               f"choose(view, rng) that returns its choices")
    if isinstance(obj, Strategy):
        return obj
    if not callable(obj):
        raise SimtoolError(f"strategy '{name}' in {origin} is not a function choose(view, rng)")
    doc = (obj.__doc__ or "").strip().splitlines()
    return Strategy(name, obj, doc[0] if doc else f"plugin from {origin}", None, origin)
