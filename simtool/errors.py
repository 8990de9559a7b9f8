"""Errors a user can cause and fix: the CLI prints them as one line and exits 2."""

# the C module: signal.getsignal's conversion of a handler to an enum takes six Python calls,
# beyond the recursion limit a plugin may have lowered to its own depth (tests/test_hardening_round10.py)
import _signal
import opcode
import os
import shlex
from collections.abc import Callable
from contextvars import ContextVar

COMMAND_LINE: ContextVar[bool] = ContextVar("simtool_command_line", default=False)
"""True while a command of the command line runs (``simtool.cli`` sets it, and resets it when the
command ends): an error then names its options (``--timeout``), else the Python API's arguments
(``timeout=``) that the caller gave. A context variable, so that it holds in the command's thread
and the workers it forks, never in another thread of the process calling the Python API (a
module global named the options there while a command ran beside it)."""


def option(name: str, value=None, argument: str | None = None) -> str:
    """A setting as the caller wrote it: ``--timeout 0.3`` on the command line, ``timeout=0.3`` in
    Python (``--timeout`` and ``timeout`` without a value). ``argument``: the Python API's name
    where it is not the option's (``--rule``, ``rules``)."""
    cli = COMMAND_LINE.get()
    shown = f"--{name}" if cli else argument or name.replace("-", "_")
    if value is None:
        return shown
    text = f"{value:g}" if isinstance(value, float) else str(value) if cli else repr(value)
    return f"{shown} {text}" if cli else f"{shown}={text}"


def pasted(path) -> str:
    """A path as a command simtool suggests names it, for the shell to take back whole: "finish
    the run with: simtool run --resume my runs/x", pasted, gave --resume the folder "my" and an
    extra argument "runs/x"."""
    return shlex.quote(str(path))


def forcing() -> str:
    """How a run folder is replaced, as its caller writes it: ``--force`` on the command line,
    ``force=True`` from Python."""
    return option("force") if COMMAND_LINE.get() else option("force", True)


class SimtoolError(Exception):
    """Bad input or a misbehaving plugin; the message names the problem and the valid choices."""


class NotForGame(SimtoolError):
    """A strategy that does not play this game: a sweep of several games skips the cells it would
    play in the others, as it skips a player count one game lacks."""


class PlayError(SimtoolError):
    """A strategy's or a game plugin's error while a run plays: its finished chunks are kept for
    ``--resume`` (the cause may lie outside the code: a ``--timeout`` too short, a file it reads)."""


class StrategyError(PlayError):
    """A strategy raised, or returned something that is not a legal choice."""


class GameError(PlayError):
    """A game from another package raised, or offered no legal option."""


class RateError(SimtoolError):
    """A game's rate that cannot be computed on its results (NaN, beyond 0 to 1, its own code
    raising). A rate reads the played tables and changes none of them: a ``--precision`` run that
    meets it in a later chunk keeps its finished chunks, to finish once the rate is fixed."""


def rate_error(game_id: str, name: str, problem: str) -> RateError:
    """The one line naming the rate ``name`` of game ``game_id`` that has no share, and why."""
    return RateError(f"game '{game_id}' has a rate '{name}' that cannot be computed on its results: "
                     f"{problem} (a rate is a boolean, or a number from 0 to 1, per seat row, such as "
                     f"pl.col('tricks') == 0)")


def null_on(null: int, rows: int) -> str:
    """Why a rate null on some of its rows but not all has no share: whether such a row is a "no"
    or no deal at all is the game's to say (``.fill_null(False)``, or a filter in its rows)."""
    return (f"it is null on {null:,} of its {rows:,} rows (null on every row reads n/a; give the others a value, "
            "such as .fill_null(False))")


class WorkerLost(SimtoolError):
    """A worker process ended while playing built-in strategies only (the system ran out of
    memory, or someone killed it): nothing was wrong with the run, so its finished chunks are
    worth keeping for ``--resume``."""


class OutOfMemory(WorkerLost):
    """The run ran out of memory: the machine's limit, not the run's fault, so its finished chunks
    are kept for ``--resume`` as for a worker the system killed."""


class DiskFull(WorkerLost):
    """The disk filled up (or the user's quota): the machine's limit, not the run's fault, so its
    finished chunks are kept for ``--resume`` once there is room, as for a worker the system
    killed; a full disk while the chunks were joined into the whole tables (which needs as much
    room again) threw away every chunk the run had played."""


class ShadowedWarning(UserWarning):
    """An installed game or strategy takes a built-in's name: the built-in plays (the command line
    shows it as one ``warning:`` line on standard error)."""


_interrupted = False


def interrupt(signum=None, frame=None):
    """Ctrl-C (or SIGTERM) as the command line takes it: KeyboardInterrupt, remembered until the
    command ends. A signal that comes while a finalizer (``__del__``) runs in the main thread
    raises it there, where Python prints "Exception ignored" and drops it: a run went on to the
    end, exit status 0, as if never stopped. The executor raises it again after the next chunk
    (:func:`raise_if_interrupted`)."""
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def _stop_as_processes_do() -> None:
    """In a process forked from a command's (a plugin's multiprocessing pool), SIGTERM and
    Ctrl-C as Python's defaults: :func:`interrupt`, inherited, made a pool's worker raise
    KeyboardInterrupt where ``Pool.terminate()`` meant to end it, sometimes inside the lock of
    the pool's queue, and the pool's ``with`` block waited on it for ever (the run hung as the
    plugin was imported: 3 of 40 runs at load 5). simtool's own workers set their handlers
    themselves."""
    for name, default in (("SIGTERM", _signal.SIG_DFL), ("SIGINT", _signal.default_int_handler)):
        number = getattr(_signal, name)
        if _signal.getsignal(number) is interrupt:
            _signal.signal(number, default)


os.register_at_fork(after_in_child=_stop_as_processes_do)


STOP_SIGNALS = ("SIGINT", "SIGTERM")
"""The signals that stop a command (Ctrl-C, ``kill``): a plugin must leave their handlers alone."""


def stop_handlers() -> list:
    """The handlers of :data:`STOP_SIGNALS` now, for :func:`put_back_stop_handlers`."""
    return [_signal.getsignal(getattr(_signal, name)) for name in STOP_SIGNALS]


def put_back_stop_handlers(before: list) -> None:
    """The handlers ``before`` (:func:`stop_handlers`) again, where code since changed them: a
    plugin that ignored Ctrl-C and SIGTERM as it was imported made a run that neither stopped
    nor said how to resume; only ``kill -9`` ended it. A handler set outside Python (``None``)
    cannot be put back, and stays."""
    for name, handler in zip(STOP_SIGNALS, before, strict=True):
        number = getattr(_signal, name)
        if handler is not None and _signal.getsignal(number) is not handler:
            _signal.signal(number, handler)


def raise_if_interrupted() -> None:
    """Raise the KeyboardInterrupt of an :func:`interrupt` a finalizer swallowed."""
    if _interrupted:
        raise KeyboardInterrupt


def quiet_interrupts(hook: Callable) -> Callable:
    """``hook`` (a ``sys.unraisablehook``) silent on an :func:`interrupt` swallowed where Python
    only prints an exception (a finalizer, an at-fork hook): it is remembered and raised again
    (:func:`raise_if_interrupted`), and the command says it in one line; its traceback, "Exception
    ignored in: <function _count_fork ...>", was printed above that line."""
    def unraisable(info) -> None:
        if not (_interrupted and isinstance(info.exc_value, KeyboardInterrupt)):
            hook(info)
    return unraisable


def by_the_user() -> bool:
    """Whether a KeyboardInterrupt caught now is the user's (Ctrl-C, SIGTERM), not one that code
    (a plugin) raised itself: under simtool's own handler, or where Ctrl-C is ignored (a worker,
    a background job), no signal came unless :func:`interrupt` says so; under any other handler
    (Python's, as from the API) the two cannot be told apart, and the user's is assumed."""
    return _interrupted or _signal.getsignal(_signal.SIGINT) not in (_signal.SIG_IGN, interrupt)


def forget_interrupt() -> None:
    """A command's end: the next one (in this process, as a test's) starts uninterrupted."""
    global _interrupted
    _interrupted = False


def choices(values) -> str:
    return ", ".join(str(v) for v in values)


def shown(value, middle: bool = False) -> str:
    """A value as an error message quotes it: its repr, on one line, cut at 60 characters.
    ``middle``: cut in its middle, for a name that may be a path (a strategy's, a game's): its
    file name is at its end."""
    try:
        # a string's repr is one line already, and its spaces are what was given: collapsed,
        # `--out "  "` was quoted as ' ', one space
        text = repr(value) if isinstance(value, str) else " ".join(repr(value).split())
    except ValueError:  # a whole number past Python's 4300 digits for int-to-text
        text = f"(a whole number of {value.bit_length()} bits)"
    if len(text) <= 60:
        return text
    return text[:28] + "..." + text[-29:] if middle else text[:57] + "..."


def utf8(text: str) -> bool:
    """Whether ``text`` is UTF-8 text: a name decoded from other bytes (an ``LC_ALL=C`` shell's)
    holds surrogates, which a page or a table that is UTF-8 cannot hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def bad(name: str, value, expected: str, where: str = "") -> SimtoolError:
    """The one error for a value a setting cannot take (a rule option, a strategy's parameter, a
    command-line option, an API argument): ``bad NAME VALUE[ where]; expected ...``, naming the
    valid values."""
    return SimtoolError(f"bad {name} {shown(value)}{where}; expected {expected}")


def describe(exc: BaseException) -> str:
    """``Type: message`` on one line, even for an exception whose ``str`` fails."""
    try:
        text = " ".join(str(exc).split())
    except BaseException as failed:  # a plugin's __str__ raising SystemExit ended simtool without a word
        if isinstance(failed, KeyboardInterrupt) and by_the_user():
            raise
        text = "(an exception whose message cannot be printed)"
    # the class's own name, past a metaclass's ``__name__`` property (plugin code, which raised
    # SystemExit: simtool ended without a word)
    name = _TYPE_NAME.__get__(type(exc), type)
    return f"{name}: {text}" if text else name


_TYPE_NAME = type.__dict__["__name__"]


def thrown(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by a ``raise`` statement (a plugin's own ``raise MemoryError``,
    its bug), not by the interpreter or numpy failing to allocate (the machine's limit: the
    innermost frame was then calling, not raising). A ``raise MemoryError(...)`` in the ``except``
    of a failed allocation (``from`` it or not) is the machine's too: "fewer --jobs" is the cure."""
    seen = set()
    while True:  # a loop, not a recursion: a plugin may have lowered the recursion limit
        seen.add(id(exc))
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is None:
            return False
        code = tb.tb_frame.f_code.co_code
        if not (0 <= tb.tb_lasti < len(code) and code[tb.tb_lasti] == opcode.opmap["RAISE_VARARGS"]):
            return False
        exc = exc.__cause__ if exc.__cause__ is not None else exc.__context__
        if not isinstance(exc, MemoryError) or id(exc) in seen:
            return True


def os_problem(path, exc: OSError) -> str:
    """Why ``path`` (a folder) could not be made, in words. A link (the folder itself, or one
    above it) that leads to nothing is named with where it leads: the system says only "File
    exists", of a name where ``ls`` shows nothing to write over."""
    from pathlib import Path

    for place in (Path(path), *Path(path).parents):
        if place.is_symlink() and not place.exists():
            return _dead_link(place)
    return exc.strerror or str(exc)


def _dead_link(link) -> str:
    """Where the link ``link``, which leads to nothing, leads: each link on the way, to the name
    that does not exist or back to one already passed. Its first step alone once named a link
    (``b -> a -> gone``: "b is a link to a, which does not exist", where ``ls`` shows ``a``), and
    each link of a loop as "a link to X, which does not exist"."""
    import os

    hops, place = [link], link
    while place.is_symlink() and len(hops) <= 40:  # the system's own limit is 40 links
        place = place.parent / os.readlink(place)  # a relative target, from the link's folder
        if place in hops:
            way = ", a link to ".join(str(p) for p in hops[1:] + [place])
            return (f"{link} is a link to {way}: a loop of links, which leads nowhere; remove the link "
                    f"or point it at a folder")
        hops.append(place)
    way = ", a link to ".join(str(p) for p in hops[1:])
    return f"{link} is a link to {way}, which does not exist; remove the link or make what it points to"
