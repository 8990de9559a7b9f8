"""The strategy interface every built-in and plugin strategy follows.

A strategy is a function ``choose(view, rng) -> choices``. ``view`` holds, for
the ``m`` deals where this strategy's seat must decide, only what that seat may
know (see the game's View class), plus ``view.kind`` (which decision),
``view.legal`` (uint64 sets of legal options, see ``simtool.bits``) and
``view.mask`` (the same as a boolean ``(m, n_actions)`` table). It returns one
legal option number per deal, an integer array of shape ``(m,)``.

A strategy may declare parameters (:class:`Param`); it is then called
``choose(view, rng, params)`` with ``params.NAME`` for each of them. A line-up
names it with its parameters as ``NAME@KEY=VALUE,KEY=VALUE`` (no shell needs
quotes around that); :meth:`Strategy.with_params` checks them.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import FunctionType, MappingProxyType, ModuleType

import numpy as np

from simtool import bits
from simtool.errors import (
    NotForGame,
    SimtoolError,
    by_the_user,
    choices,
    describe,
    put_back_stop_handlers,
    stop_handlers,
)
from simtool.options import CHOICE, NUMBER, TEXT, WHOLE, Value

KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Param:
    """One parameter a strategy takes: ``kind`` is int, float, str or :data:`STRATEGY`; numbers
    may have a ``low``..``high`` range (inclusive), text a list of ``values``. What it takes is
    its :attr:`value`, checked as rule options are (:class:`simtool.options.Value`)."""

    name: str
    kind: type | str
    default: object
    help: str
    low: float | None = None
    high: float | None = None
    values: tuple[str, ...] | None = None
    by_game: tuple[tuple[str, object], ...] = ()
    """Defaults that differ by game, as (game id, value) pairs."""

    @property
    def value(self) -> Value:
        if self.values is not None:
            return Value(CHOICE, choices=self.values)
        if self.kind is str:
            return Value(TEXT)
        return Value(WHOLE if self.kind is int else NUMBER, self.low, self.high)

    def valid(self) -> str:
        """The valid values in a few words: ``a whole number 0..3``."""
        if self.kind == STRATEGY:
            return "a strategy of the game, or FILE.py:NAME ('default': the game's default)"
        return self.value.valid()

    def parse(self, owner: str, text, game_id: str | None = None) -> object:
        """``text`` (a string from a line-up, or a typed value from Python) as this parameter's
        value, or a one-line error naming the valid values. A strategy is checked as playing
        ``game_id`` and written canonically."""
        if self.kind == STRATEGY:
            return self._strategy(owner, str(text).strip(), game_id)
        return self.value.check(f"parameter {self.name}", text, f" of strategy '{owner}'")

    def _strategy(self, owner: str, text: str, game_id: str | None) -> str:
        # 'playout' (the search's own play-out policy) only where it is this parameter's default:
        # pimc@playout=playout named no strategy, and failed at the first decision it searched
        if game_id is None or (text == PLAYOUT and PLAYOUT in (self.default, *dict(self.by_game).values())):
            return text
        import strategies
        from simtool import games

        if text == "default":
            default = games.get(game_id).default_strategy
            strategies.require_fair([default], f"{game_id}'s default strategy")
            return default
        try:
            strategies.require_fair([text], "a strategy's parameter (a play-out policy)")
            spec = strategies.canonical(text, game_id)
            _no_search(spec, game_id)
            return spec
        except SimtoolError as exc:  # a policy one game lacks: a sweep of several games skips its cells
            kind = NotForGame if isinstance(exc, NotForGame) else SimtoolError
            raise kind(f"bad parameter {self.name} {text!r} of strategy '{owner}': {exc}") from None

    def default_for(self, game_id: str | None):
        """The default value in ``game_id`` (a strategy default may be the game's default)."""
        default = dict(self.by_game).get(game_id, self.default)
        if self.kind == STRATEGY:
            return self._strategy("", str(default), game_id)
        return default

    def describe(self) -> str:
        others = "".join(f", {fmt(value)} in {game}" for game, value in self.by_game)
        return f"{self.name}: {self.valid()}, default {fmt(self.default)}{others}; {self.help}"


def _no_search(spec: str, game_id: str) -> None:
    """Refuse a search (a strategy that takes a play-out policy itself) as a play-out policy: it
    would run a whole search at every imagined move of every world (pimc in pimc's play-outs: 60
    to 90 times the work, measured on Hearts), a cost no estimate of the run foresees."""
    import strategies

    def searches(strategy) -> bool:
        return any(p.kind == STRATEGY for p in strategy.params)

    if searches(strategies.resolve(strategies.restrictions.restricted_name(spec, game_id)[0], game_id)):
        fit = sorted(name for name, s in strategies.registry(game_id).items()
                     if not searches(s) and not strategies.sees_all(name))
        raise SimtoolError(f"'{spec}' is a search itself and cannot play a search's play-outs; "
                           f"choose one of: {choices(fit)}")


STRATEGY = "strategy"
"""The kind of a parameter whose value names another strategy (a search's play-out policy)."""
PLAYOUT = "playout"
"""A strategy parameter's value that names no strategy but the search's own play-out policy."""


def fmt(value) -> str:
    """A parameter value as a line-up writes it: ``0.1``, ``3``, ``target``."""
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


class Params:
    """A strategy's parameter values, read as attributes (``params.samples``)."""

    def __init__(self, values: dict):
        self.__dict__["_values"] = MappingProxyType(dict(values))

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        raise AttributeError("parameters are fixed for the whole run")

    def as_dict(self) -> dict:
        return dict(self._values)

    def __repr__(self) -> str:
        return f"Params({', '.join(f'{k}={v!r}' for k, v in self._values.items())})"

    def __reduce__(self):  # the default would look up _values through __getattr__ before it exists
        return Params, (dict(self._values),)


@dataclass(frozen=True)
class Strategy:
    name: str
    choose: Callable[..., np.ndarray]
    description: str
    games: tuple[str, ...] | None = None  # None: plays any game
    origin: str = "built-in"
    params: tuple[Param, ...] = ()
    values: Params | None = None  # the parameters' values; None: the defaults
    cost: Callable[[Params], float] | None = None  # work per deal relative to a heuristic
    check: Callable[[Params, str | None], None] | None = None
    """Refuses (one line) values that are each valid but do nothing together, or name what
    the game (its id, ``None``: not known) does not have."""
    label: str | None = None
    """The name without parameters where the name cannot say it: a plugin file's ``FILE.py:NAME``
    (a file ``a@k=v.py`` read back as strategy ``a`` with ``k=v.py:NAME``)."""
    reports: str | None = None
    """When its choices report the seat's estimated standing from its own play-outs (pimc's
    search; a lead history takes them as the seat's own estimates): ``"always"``, ``"restricted"``
    (only as ``NAME~RESTRICTION``, where it runs pimc's search), or ``None``: never."""

    def __post_init__(self):
        # ("kansas-city") without its comma is a string: read as its letters, it played any game
        # whose id is a piece of it, and isolated (sent as a list of letters) none
        games = self.games
        if games is not None and not isinstance(games, str):
            try:
                games = tuple(games)
            except TypeError:
                games = (games,)
            if not all(isinstance(g, str) for g in games):
                raise TypeError(f"strategy '{self.name}': games must be game ids (text, as `simtool "
                                f"games` lists them) or None for any game, not {self.games!r}")
            if not games:
                # it played no game at all: "strategy 'x' plays , not hearts" when run
                raise ValueError(f"strategy '{self.name}': games is empty, so it plays no game; give game ids "
                                 f"(as `simtool games` lists them), or None for any game")
        if games is not None and any(not g.strip() for g in ((games,) if isinstance(games, str) else games)):
            # games="" played no game, as games=[] did: "strategy 'x' plays , not hearts" when run
            raise ValueError(f"strategy '{self.name}': games holds an empty id ({self.games!r}), which no game has; "
                             f"give game ids (as `simtool games` lists them), or None for any game")
        object.__setattr__(self, "games", (games,) if isinstance(games, str) else games)

    def relative_cost(self) -> float:
        """Work per deal relative to a plain heuristic (1): a run's chunks shrink by it, so that a
        costly strategy's run still spreads over every core (see ``simtool.runner.chunk_size``)."""
        if self.cost is None:
            return 1.0
        try:  # a plugin's own code: what it raises is its one-line error, not a traceback
            return float(self.cost(self.values or self.defaults()))
        except BaseException as exc:  # even SystemExit, as its import's: it must not end simtool silently
            if isinstance(exc, KeyboardInterrupt) and by_the_user():
                raise
            raise SimtoolError(f"strategy '{self.name}' could not give its cost: {describe(exc)}") from None

    def __call__(self, view, rng: np.random.Generator) -> np.ndarray:
        if self.params:
            return self.choose(view, rng, self.values or self.defaults())
        return self.choose(view, rng)

    def plays(self, game_id: str) -> bool:
        return self.games is None or game_id in self.games

    @property
    def base(self) -> str:
        """The name without parameters (a plugin's file name may hold an ``@``)."""
        return self.label or split(self.name)[0]

    def defaults(self) -> Params:
        return Params({p.name: p.default for p in self.params})

    def params_listed(self) -> str:
        """Its parameters as an error lists them: ``mistakes (a number 0..1)``, ``;``-separated."""
        return "; ".join(f"{p.name} ({p.valid()})" for p in self.params)

    def with_params(self, given: dict, game_id: str | None = None) -> Strategy:
        """This strategy with the parameters ``given`` (text or typed values), checked, for
        ``game_id``; named canonically: parameters in declared order, those at their default
        left out, so that ``x@a=1`` and ``x@a=1,b=<b's default>`` are one strategy, one name."""
        if not given and not self.params:
            return self
        if not self.params:
            raise SimtoolError(f"strategy '{self.base}' takes no parameters (given "
                               f"{choices(given)}); write it as plain '{self.base}'")
        known = {p.name: p for p in self.params}
        for key in given:
            if key not in known:
                raise SimtoolError(f"unknown parameter '{key}' for strategy '{self.base}'; valid: "
                                   + self.params_listed())
        values = {p.name: p.parse(self.base, given[p.name], game_id) if p.name in given
                  else p.default_for(game_id) for p in self.params}
        if self.check is not None:
            try:  # a plugin's own code: what it raises is its one-line error, as its cost's is
                self.check(Params(values), game_id)
            except SimtoolError:
                raise
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt) and by_the_user():
                    raise
                raise SimtoolError(f"strategy '{self.base}' could not check its parameters: {describe(exc)}") from None
        shown = [f"{p.name}={fmt(values[p.name])}" for p in self.params
                 if values[p.name] != p.default_for(game_id)]
        return replace(self, name=self.base + ("@" + ",".join(shown) if shown else ""),
                       values=Params(values))


MISTAKES = Param("mistakes", float, 0.0, "chance per decision of playing a uniformly random legal "
                 "option instead: 0 is the heuristic itself, 1 is random play; a dial for less "
                 "careful players", 0.0, 1.0)
"""A parameter any heuristic can take: its play with a share of careless decisions."""


def forced(view) -> np.ndarray | None:
    """The one legal option of every deal, where every deal of the batch has just one (the last
    trick of a round, a follow with a single card of the suit in every deal), else None. A
    heuristic that draws no random numbers returns it without asking its questions: the engine
    would accept nothing else, so the choices stay the same. A search plays the last trick of
    every play-out: 7 to 19% of the default heuristics' play-out batches are such (measured,
    1024 deals of each game, one pimc seat)."""
    legal = view.legal
    others = legal - np.uint64(1)
    others &= legal  # the set less its lowest member: empty for a set of one
    return None if others.any() else bits.lowest(legal)


def with_mistakes(view, rng, rate: float, choice: np.ndarray) -> np.ndarray:
    """``choice``, except in a share ``rate`` of the deals a uniformly random legal option. At
    rate 0 it draws nothing, so the heuristic plays exactly as without the parameter."""
    if rate <= 0:
        return choice
    careless = rng.random(len(view)) < rate
    return np.where(careless, bits.uniform(view.legal, rng, view.n_actions), choice)


def strategy(name: str, description: str, games: tuple[str, ...] | None = None,
             params: tuple[Param, ...] = (), cost: Callable[[Params], float] | None = None,
             check: Callable[[Params, str | None], None] | None = None, reports: str | None = None):
    """Decorator that turns ``choose(view, rng)`` into a named :class:`Strategy`; with
    ``params``, ``choose(view, rng, params)``. ``cost(params)``: the work per deal relative to
    a plain heuristic, for a search (its runs are cut into smaller chunks)."""

    # `simtool strategies` lists both: a number there ended it in rich's traceback for every strategy
    if not (isinstance(name, str) and name.strip()):
        raise SimtoolError(f"a strategy declares the name {name!r}: a strategy's name is text, such as 'greedy'")
    if not isinstance(description, str):
        raise SimtoolError(f"strategy '{name}' declares the description {description!r}: it is text, one line "
                           f"saying how it plays")
    if (problem := params_problem(tuple(params))) is not None:
        raise SimtoolError(f"strategy '{name}' declares {problem}")

    def wrap(choose):
        return Strategy(name, choose, description, games, params=tuple(params), cost=cost, check=check,
                        reports=reports)

    return wrap


KINDS = {int: "int", float: "float", str: "str"}
"""The kinds of parameter besides :data:`STRATEGY`, each with the Python types its values take."""


def params_problem(params: tuple[Param, ...]) -> str | None:
    """Why declared parameters cannot be played as declared, or ``None``: a default its own range
    or values refuse (2.0 for a share 0..1, "3" for an int, 'z' among 'x', 'y') reached the
    strategy unchecked; a name given twice, or one ``NAME@KEY=VALUE`` cannot write, could not be
    set; a kind simtool does not read (bool) refused every value given."""
    names = [p.name for p in params]
    for p in params:
        if not (isinstance(p.name, str) and p.name.isidentifier()):
            return (f"a parameter named {p.name!r}: NAME@KEY=VALUE cannot give it; name it as Python does, "
                    f"such as 'samples'")
        if names.count(p.name) > 1:
            return f"parameter '{p.name}' twice; give each once"
        if p.kind == STRATEGY:
            continue
        if p.kind not in KINDS:
            return (f"parameter '{p.name}' of kind {getattr(p.kind, '__name__', p.kind)!r}: a parameter is int, "
                    f"float, str or STRATEGY")
        for default in (p.default, *(value for _, value in p.by_game)):
            whole = isinstance(default, int) and not isinstance(default, bool)
            typed = whole if p.kind is int else (whole or isinstance(default, float)) if p.kind is float \
                else isinstance(default, str)
            try:
                read = p.value.parse(default) if typed else None
            except (TypeError, ValueError, OverflowError):
                typed = False
            if not typed or read != default:
                return f"parameter '{p.name}' with the default {default!r}, which it refuses: {p.valid()}"
    return None


def file_identity(file) -> tuple:
    """A plugin file as it is now (inode, size, modification time), and each helper module beside
    it (:func:`helpers`, by name, inode, size and time), or ``()`` where there is none (gone: its
    loader says so in its own words): a plugin edited between two runs of one process (a
    notebook's) played the code imported first, under the checksum of the edited file, so its
    module (and an isolated plugin's process) is keyed by this too; an edited helper alike."""
    try:
        info = Path(file).stat() if file is not None else None
    except OSError:
        return ()
    if info is None:
        return ()
    found = []
    for helper in helpers(Path(file)):
        try:
            kept = helper.stat()
        except OSError:  # gone since it was listed: nothing to import
            continue
        found.append((helper.name, kept.st_ino, kept.st_size, kept.st_mtime_ns))
    return (info.st_ino, info.st_size, info.st_mtime_ns, *found)


HELPERS = 200
"""Helper modules keyed beside a plugin, the first by name (as its run records at most 200 files
beside it): a plugin in a crowded folder costs a bounded scan."""


def helpers(plugin: Path) -> list[Path]:
    """The modules a plugin may import from its folder (``import mylib`` for ``mylib.py`` beside
    it): every non-hidden ``.py`` file there but itself, the first :data:`HELPERS` by name. Its
    file's folder, a symlink's target's, as :func:`importing_beside` imports from."""
    plugin = plugin.resolve()
    try:
        names = sorted(n for n in os.listdir(plugin.parent)
                       if n.endswith(".py") and not n.startswith(".") and n != plugin.name)
    except OSError:  # a folder that cannot be listed: nothing to import from it either
        return []
    return [plugin.parent / name for name in names[:HELPERS]]


@contextmanager
def importing_beside(plugin: Path) -> Iterator[None]:
    """The plugin's folder first on ``sys.path`` while its module runs, as ``python bot.py`` puts
    its script's folder, so that ``import mylib`` finds ``mylib.py`` beside it; then off it again,
    and the modules imported from the folder out of ``sys.modules`` (each still the plugin's,
    by the names it bound): another plugin's ``mylib.py`` in another folder is then its own, not
    the first one imported, and a helper edited since is imported anew with the plugin (see
    :func:`file_identity`). A helper must be imported as the plugin is, not later from a
    strategy's call (the folder is no longer on the path). One plugin at a time per process
    (:data:`_IMPORTING`)."""
    folder = plugin.resolve().parent
    with _IMPORTING:
        before = set(sys.modules)
        sys.path.insert(0, str(folder))
        try:
            yield
        finally:
            if str(folder) in sys.path:
                sys.path.remove(str(folder))
            new = set(sys.modules) - before
            ours = {name for name in new if "." not in name and _from(sys.modules[name], folder)}
            for name in new:
                if name.partition(".")[0] in ours:
                    del sys.modules[name]


_IMPORTING = threading.RLock()
"""Held while a plugin is imported: sys.path and sys.modules are the process's, so two threads
importing plugins at once (a dask worker's threads playing two chunks) had both folders on the
path, and one plugin's ``import mylib`` took the other's. Reentrant: a plugin may load another as
it is imported."""


def _from(module, folder: Path) -> bool:
    """Whether ``module`` is a module or a package of ``folder`` itself."""
    origin = Path(getattr(module, "__file__", None) or "/")
    return origin.parent == folder or (origin.name == "__init__.py" and origin.parent.parent == folder)


def split(entry: str) -> tuple[str, dict[str, str]]:
    """A line-up entry ``NAME@k=v,k=v`` (or ``FILE.py:NAME@k=v``) as its strategy and its
    parameters as text. A path may hold ``@`` too (and a parameter's value a plugin's path), so
    the parameters follow the first ``@`` after a strategy: a name without ``/`` or ``:``, or
    a path ending in ``.py:NAME`` (the last ``@`` read ``x=1~y/bot.py:NAME`` of a folder
    ``runs:2@x=1~y`` as a parameter); and only where what follows has the shape ``k=v,...``. An
    ``@`` within a plugin file that exists (``runs@x=1/bot.py:NAME``) is its path's."""
    inside = plugin_path_end(entry)
    for at in (i for i, c in enumerate(entry) if c == "@" and i > inside):
        head, tail = entry[:at], entry[at + 1:]
        if not _strategy(head):
            continue
        pairs = [pair.partition("=") for pair in tail.split(",")]
        if all(eq and KEY.fullmatch(k.strip()) for k, eq, _ in pairs):
            return head, _given(entry, pairs)
        if "/" not in tail and ":" not in tail:  # not an '@' inside a plugin's path
            raise SimtoolError(f"bad strategy {entry!r}: expected NAME@KEY=VALUE,KEY=VALUE after the '@'"
                               f"{_keys_of(head)}")
    return entry, {}


def _keys_of(name: str) -> str:
    """A built-in's parameters, as a malformed ``NAME@...`` error lists them (``balance@mistakes``
    named no key ``balance`` takes); nothing for a plugin, which is not imported for an error."""
    import strategies

    found = next((s for s in strategies.BUILT_IN if s.name == name), None)
    if found is None:
        return ""
    if not found.params:
        return f"; '{name}' takes no parameters"
    return f"; {name}'s parameters: {found.params_listed()}"


def plugin_path_end(entry: str) -> int:
    """The length of the plugin file ``entry`` begins with, where that file exists: the longest
    prefix that ends in ``.py``, is followed by ``:`` and is a file (``runs@x=1/bot.py`` of
    ``runs@x=1/bot.py:n@k=1``); 0 where there is none."""
    end = 0
    for found in re.finditer(r"\.py:", entry):
        try:
            if Path(entry[:found.start() + 3]).is_file():
                end = found.start() + 3
        except (OSError, ValueError):  # a name too long, or holding a NUL: not a file
            pass
    return end


PLUGIN_NAME = re.compile(r"[A-Za-z_][\w.-]*")
"""The NAME of ``FILE.py:NAME``: a function of the file, or the name a strategy declares there
(``spades-basic``), which need not be an identifier."""


def _strategy(head: str) -> bool:
    """Whether ``head`` can name a strategy: a name, or a plugin's ``FILE.py:NAME``."""
    _, dot_py, name = head.rpartition(".py:")
    return ("/" not in head and ":" not in head) or bool(dot_py and PLUGIN_NAME.fullmatch(name))


def _given(entry: str, pairs: list[tuple[str, str, str]]) -> dict[str, str]:
    given: dict[str, str] = {}
    for key, _, value in pairs:
        key, value = key.strip(), value.strip()
        if not value:
            raise SimtoolError(f"bad strategy {entry!r}: parameter '{key}' has no value; "
                               f"expected NAME@KEY=VALUE,KEY=VALUE")
        if key in given:
            raise SimtoolError(f"bad strategy {entry!r}: parameter '{key}' given twice")
        given[key] = value
    return given


def split_lineup(text: str) -> list[str]:
    """``pimc@samples=8,playout=target,balance`` as its entries ``pimc@samples=8,playout=target``
    and ``balance``: a comma-separated piece of the form ``key=value`` continues the parameters
    of the entry before it (a strategy name never holds ``=``), unless it begins with a plugin file
    that exists (``a=b/bot.py:NAME``: the path's, as :func:`split` reads it)."""
    entries: list[str] = []
    for piece in text.split(","):
        piece = piece.strip()
        key, eq, _ = piece.partition("=")
        if entries and eq and "@" in entries[-1] and KEY.fullmatch(key.strip()) and not plugin_path_end(piece):
            entries[-1] += "," + piece
        else:
            entries.append(piece)
    return entries


OWN_PACKAGES = ("simtool", "strategies")
"""The packages whose code a plugin must leave as it is (see :func:`untouched`)."""


def own_code() -> dict[tuple[object, str], tuple[object, str]]:
    """Every function and class that simtool's and the built-in strategies' modules define
    (not those they import), and each built-in strategy's ``choose``: ``(owner, attribute) ->
    (value, its name)``. Made again only where a module of theirs holds other objects than at
    the last call, or a built-in strategy another ``choose`` (:data:`_LAST`): a run asks at every
    chunk, and making the table of ~1000 entries took 2 ms in a test process, most of it hashing
    its keys."""
    modules = [(name, module) for name, module in list(sys.modules.items())
               if module is not None and name.partition(".")[0] in OWN_PACKAGES]
    held = [(name, module, tuple(vars(module)), tuple(map(id, vars(module).values()))) for name, module in modules]
    # a strategy's choose is its own attribute, not its module's: one changed is read afresh too
    # (its key, a frozen dataclass, is hashed by its choose: a kept table no longer finds it)
    if not _LAST or _LAST[0] != held or any(key[0].choose is not choose for key, choose in _LAST[3]):
        found = _read(modules)
        strategies = [(key, value) for key, (value, _) in found.items() if not isinstance(key[0], ModuleType)]
        _LAST[:] = held, [list(vars(module).values()) for _, module in modules], found, strategies
    return _LAST[2].copy()


_LAST: list = []
""":func:`own_code`'s last table and what it was read from: each module's name, the module, its
attribute names and the ids of their values (held here, so that no id is taken by another
object meanwhile: the same ids under the same names are the same objects), and the strategies'
keys with the ``choose`` each had. Changed in place: a new object here would make this module's
own ids differ each time."""


CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")
"""A module-level name :func:`own_code` watches whatever it holds: ``ROUND_CAP``, ``BUILT_IN``,
``CARD_RANK`` (a plugin's ``simtool.engine.ROUND_CAP = 2`` capped every match at 2 rounds,
while the summary spoke of the 200-round cap)."""


def _read(modules: list[tuple[str, ModuleType]]) -> dict[tuple[object, str], tuple[object, str]]:
    """:func:`own_code`'s table of ``modules`` (name, module), looked through."""
    found = {}
    for name, module in modules:
        for attr, value in list(vars(module).items()):
            if isinstance(value, (FunctionType, type)) and getattr(value, "__module__", None) == name \
                    or CONSTANT.fullmatch(attr) and not isinstance(value, ModuleType):
                found[module, attr] = value, f"{name}.{attr}"
            elif isinstance(value, Strategy):
                found[value, "choose"] = value.choose, f"{name}.{attr}.choose"
    return found


_GONE = object()
"""What a name a plugin deleted holds, for :func:`untouched`."""


def _kept(now, was) -> bool:
    """Whether ``now`` is ``was``, or a number or text equal to it (``ROUND_CAP = 200`` set again)."""
    if now is was:
        return True
    plain = (int, float, str, bytes, bool)
    return type(now) is type(was) and isinstance(was, plain) and now == was


@contextmanager
def untouched(who: str) -> Iterator[None]:
    """simtool's own code (:func:`own_code`) as it was before ``who`` ran, put back after it,
    whatever happened; one replaced (a plugin's ``simtool.engine._checked = ...``, at import or
    while it plays) is then the one-line error naming ``who`` and it: otherwise the run played
    on, its illegal moves unchecked, into tables that looked complete. ``who`` ends the
    sentence ``... replaced NAME``: ``strategy plugin x.py, as it was imported,``."""
    before, handlers = own_code(), stop_handlers()
    try:
        yield
    finally:
        put_back_stop_handlers(handlers)  # Ctrl-C and kill stop the run as before
        replaced = []
        for (owner, attr), (value, name) in before.items():
            if not _kept(vars(owner).get(attr, _GONE), value):  # replaced, or deleted
                (setattr if isinstance(owner, ModuleType) else object.__setattr__)(owner, attr, value)
                replaced.append(name)
    if replaced:
        raise SimtoolError(f"{who} replaced {', '.join(replaced[:3])}{' ...' if len(replaced) > 3 else ''}: a "
                           f"strategy must leave simtool's code as it is (it is put back; docs/trust.md)")
