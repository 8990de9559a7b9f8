"""The Python API's arguments checked by type: a wrong one is one SimtoolError naming the
parameter and what it takes, never a TypeError from deep inside, nor a string read as a flag
(``rotate="no"`` is not true). The command line's options are typed by typer before they get here.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import os
from pathlib import Path

import numpy as np

from .errors import COMMAND_LINE, SimtoolError, bad, option
from .errors import shown as _shown

TIMEOUT_MAX = 365 * 86400
"""The longest ``--timeout``, a year in seconds: the system timer (setitimer) refuses values
between 4e9 and 1e10 s on Linux, and a longer limit would be no limit anyway."""
TIMEOUT_VALID = f"seconds above 0 and at most {TIMEOUT_MAX} (a year), such as 10"
PRECISION_VALID = "a half-width between 0 and 0.5, such as 0.005 for ± 0.5%"


def precision_within(value: float) -> bool:
    return 0 < value < 0.5


def timeout_within(value: float) -> bool:
    return 0 < value <= TIMEOUT_MAX


def called(name: str):
    """A public function, ``name`` as a notebook calls it (``simtool.review.review``), whose
    arguments that it does not take are one SimtoolError naming them and those it takes: Python's
    "TypeError: review() got an unexpected keyword argument 'vs_rule'" named no valid one."""
    def wrap(function):
        signature = inspect.signature(function)

        @functools.wraps(function)
        def call(*args, **kwargs):
            try:
                signature.bind(*args, **kwargs)
            except TypeError as exc:
                takes = ", ".join(signature.parameters)
                unknown = [k for k in kwargs if k not in signature.parameters]
                if not unknown:
                    kinds = [[k for k, p in signature.parameters.items() if (p.kind == p.KEYWORD_ONLY) == by_name]
                             for by_name in (False, True)]
                    order = ", ".join(kinds[0]) + (f", then by name: {', '.join(kinds[1])}" if kinds[1] else "")
                    raise SimtoolError(f"{name}(): {exc}; it takes {order}") from None
                close = difflib.get_close_matches(unknown[0], list(signature.parameters), n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise SimtoolError(f"{name}() takes no argument {unknown[0]!r}{hint}; valid: {takes}") from None
            return function(*args, **kwargs)

        return call

    return wrap


def flag(name: str, value) -> bool:
    """``True`` or ``False`` (numpy's too)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise bad(name, value, "True or False")


def whole(value) -> bool:
    """Whether ``value`` is a whole number (Python's or numpy's), not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def count(name: str, value, default: str | None = None) -> int | None:
    """A whole number of 1 or more; ``None`` where ``default`` says what it then means."""
    if value is None and default:
        return None
    if whole(value) and value >= 1:
        return int(value)
    raise bad(name, value, "a whole number, 1 or more" + (f", or None for {default}" if default else ""))


def text(name: str, value, example: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if isinstance(value, str):
        return value
    raise bad(name, value, f"a string such as {example!r}" + (", or None" if optional else "") + _by_name(value))


def _by_name(value) -> str:
    """For a game or strategy object given where its name goes (a designer's ``GAME``, a decorated
    strategy, in a notebook): the name to give instead, and how a name finds it. Only a game (it
    deals) or a strategy (it is called): a polars Series has a ``name`` too."""
    if not (callable(value) or callable(getattr(value, "deal", None))):
        return ""
    for attr in ("id", "name"):
        named = getattr(value, attr, None)
        if isinstance(named, str):
            return (f": give its name, {named!r}; a game or strategy of your own is found by name once its "
                    "package is installed (entry points, docs/new-game.md), a strategy file as 'FILE.py:NAME'")
    return ""


def number(name: str, value, example: str) -> float | None:
    """A real number, or ``None``."""
    if value is None or (isinstance(value, (int, float, np.integer, np.floating))
                         and not isinstance(value, (bool, np.bool_))):
        return value
    raise bad(name, value, f"a number such as {example}, or None")


def mapping(name: str, value, example: str) -> dict | None:
    """A dict, or ``None`` (its keys and values are checked where they are read)."""
    if value is None or isinstance(value, dict):
        return value
    raise bad(name, value, f"a dict such as {example}, or None")


def names(name: str, value, example: str) -> list[str] | None:
    """A list (or tuple) of strings, or ``None``; a bare string is refused, not read letter by letter."""
    if value is None or (isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value)):
        return value
    raise bad(name, value, f"a list of strings such as {example}, or None")


REPORT_KEYS = ("output", "title")


def report(value) -> dict | None:
    """The ``report`` a plan saves for a resumed command to write: ``output`` (a path) and
    ``title`` (a string), either ``None``; another key (``outptu``) was saved unread, an int path
    a TypeError from pathlib."""
    mapping("report", value, "{'output': 'page.html', 'title': 'mine'}")
    for key, given in (value or {}).items():
        if key not in REPORT_KEYS:
            raise SimtoolError(f"bad report key {_shown(key)}; valid: {', '.join(REPORT_KEYS)}")
        kinds, what = (str, "a string") if key == "title" else ((str, os.PathLike), "a file path (str or pathlib.Path)")
        if given is not None and not isinstance(given, kinds):
            raise bad(f"report {key}", given, f"{what}, or None")
    return value


def folder(name: str, value, optional: bool = False) -> Path | None:
    if value is None and optional:
        return None
    if isinstance(value, (str, os.PathLike)) and any(c in os.fspath(value) for c in "\n\r"):
        # `run -q` prints the folder as one line for a script to read: a line break made it two
        raise bad(name, os.fspath(value), "a folder path without a line break (simtool prints the folder "
                                          "as one line, for scripts to read)")
    if isinstance(value, (str, os.PathLike)) and "\0" in os.fspath(value):
        # no system call takes it: a ValueError traceback from the first os.stat
        raise bad(name, os.fspath(value), "a folder path without a NUL character (no system takes one)")
    if isinstance(value, (str, os.PathLike)) and str(value).strip():
        # "~/runs/x" as a shell would read it: before, a folder named "~" in the working directory
        return Path(value).expanduser()
    # a blank path quoted as the user wrote it (' '), not as pathlib's repr (PosixPath(' '))
    shown_as = os.fspath(value) if isinstance(value, os.PathLike) else value
    if COMMAND_LINE.get():  # "bad out ' '; expected ... (str or pathlib.Path), or None" of `--out " "`
        raise bad(option(name), shown_as, "a folder path, such as runs/first")
    raise bad(name, shown_as, "a folder path (str or pathlib.Path)" + (", or None" if optional else ""))


def callback(name: str, value, signature: str):
    if value is None or callable(value):
        return value
    raise bad(name, value, f"a function {signature}, or None")


def check_timeout(timeout) -> float | None:
    """Seconds a strategy may take over one decision batch: above 0, at most :data:`TIMEOUT_MAX`;
    a Python float (the system timer takes no numpy float32: a TypeError blamed on the strategy)."""
    # compared as a Python float: np.float16 cast TIMEOUT_MAX to inf, so its inf passed (and
    # the system timer's OverflowError was reported instead) with a RuntimeWarning on every call
    seconds = float(timeout) if isinstance(timeout, np.floating) else timeout
    if timeout is not None and (isinstance(timeout, (bool, np.bool_))
                                or not isinstance(timeout, (int, float, np.integer, np.floating))
                                or not timeout_within(seconds)):
        raise SimtoolError(f"bad {option('timeout')} {_shown(timeout)}; expected {TIMEOUT_VALID}")
    return None if timeout is None else float(timeout)


SEED_MAX = 2 ** 128
"""The largest seed: a run's folder records no larger one (``runner.check_spec``), and numpy's
seed sequence keeps 128 bits of entropy; 10**4300 could not even be written into run.json."""


def seed(value) -> int | None:
    if value is None or (whole(value) and 0 <= value <= SEED_MAX):
        return value
    raise bad("seed", value, "a whole number 0..2**128, or None for a fresh one")


def tuning(game, vary, objective, players, rules, lineup, strong, weak, seed_) -> None:
    """The arguments of ``simtool.tune.configure`` that it does not check itself."""
    text("game", game, "kansas-city")
    names("vary", vary, "['pass_count']")
    names("objective", objective, "['seat_spread:min']")
    count("players", players, "the game's default")
    mapping("rules", rules, "{'hands': 'many'}")
    for name, value, example in (("lineup", lineup, "default"), ("strong", strong, "target"),
                                 ("weak", weak, "random")):
        text(name, value, example, optional=True)
    seed(seed_)


def execution(jobs, force, progress, backend, scheduler, signature: str = "progress(done, total)") -> None:
    """The arguments of how runs are played, shared by every API function that plays them
    (each checks its ``timeout`` with :func:`check_timeout`); ``signature``: the call its
    ``progress`` gets."""
    count("jobs", jobs, "every core")
    flag("force", force)
    callback("progress", progress, signature)
    text("backend", backend, "local")
    text("scheduler", scheduler, "tcp://HOST:8786", optional=True)
