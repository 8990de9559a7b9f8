"""The ``simtool`` command line."""

# No ``from __future__ import annotations`` here: typer builds the click command anew at every call
# of ``app`` (and every ``CliRunner.invoke``) and would then eval each option's ``Annotated[...]``
# string again, half the build's CPU; evaluated once at import, they are only read.
import dataclasses
import errno
import io
import os
import re
import signal
import sys
import threading
import warnings
from datetime import datetime
from pathlib import Path
from typing import Annotated, Optional


def _stopped_loading(signum, frame) -> None:
    os.write(2, b"interrupted; no result was written\n")
    os._exit(130)


# Ctrl-C (SIGTERM) in the half second the installed command's modules load, before its own
# handler (_main) is set: Python's traceback of the import under way, or for SIGTERM a silent end
_LOADING = [(signum, signal.signal(signum, _stopped_loading)) for signum in (signal.SIGINT, signal.SIGTERM)
            if Path(sys.argv[0]).stem == "simtool" and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signum) in (signal.default_int_handler, signal.SIG_DFL)]

from .lazy import defer  # noqa: E402

defer("polars")  # before the modules below import it: see simtool.lazy
# numpy's OpenBLAS starts a thread per core at import, which spins a while for work that a run
# never gives it (10-20 ms of CPU on 2 cores, more on many): simtool runs one process per core
# and multiplies only small matrices. Before numpy is imported; a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _embedded_dask_asked(argv: list[str]) -> bool:
    """Whether the command line of the installed ``simtool`` command asks for the dask cluster
    simtool starts itself: ``--backend dask`` and no ``--scheduler``, on it or in the environment
    (the option's ``SIMTOOL_SCHEDULER``, read as click reads it: empty is unset)."""
    if not argv or Path(argv[0]).stem != "simtool":  # a caller's own process (tests, the API)
        return False
    if os.environ.get("SIMTOOL_SCHEDULER"):
        return False
    args = argv[1:]
    dask = any(a == "--backend=dask" or (a == "--backend" and args[i + 1:i + 2] == ["dask"])
               for i, a in enumerate(args))
    return dask and not any(a == "--scheduler" or a.startswith("--scheduler=") for a in args)


if _embedded_dask_asked(sys.argv):
    # its workers' zygote imports simtool and dask for 0.6 s (a second on a slow core) before a
    # worker can start: begun now, beside this process's imports below (0.3-0.5 s), rather than
    # once they and the options are done (docs/speed.md, 2026-11-27 night)
    from simtool.pipeline import cluster as _cluster

    _cluster.prestart()

import typer  # noqa: E402 - after the zygote's start (typer: 35-70 ms)

# what a run needs before its workers start, and no more: the tables, statistics and the dask
# cluster are imported by the functions that use them
from simtool.commands.run import execute_run, rotated_alone  # noqa: E402
from simtool.pipeline.runner import MAX_COUNT, MOST_PLAYERS, make_spec, parse_count, played_lineup  # noqa: E402
from simtool.pipeline.runner import replay as replay_deal  # noqa: E402

from . import arguments, games, options  # noqa: E402
from .errors import (  # noqa: E402
    ShadowedWarning,
    SimtoolError,
    bad,
    choices,
    describe,
    forget_interrupt,
    interrupt,
    pasted,
    quiet_interrupts,
    shown,
    utf8,
)
from .games import ROUND_CAP  # noqa: E402
from .pipeline import pilot  # noqa: E402

PRECISION_CAP = "1e8"
"""``--n`` of a ``--precision`` run given none: its cap, which ``replay`` must cut chunks at as
the run did."""


def _plain_options() -> None:
    """Read text, lists of text and paths as typer does, without pydantic.

    typer (0.29) coerces every option's value, given or default, through a pydantic adapter it
    builds on first use: importing pydantic and building the adapters took about 0.1 s of CPU
    at every start of the command, before a run's workers could start. Text needs no
    coercion, a list of texts is a list, a path is made a ``Path`` first, then passes
    through typer's own path checks, and an option with its own parser gets its text parsed
    by it (as typer does, less the adapter); any other value (a number, a flag given as text, an
    annotation typer handles otherwise) still goes to typer's coercion, built on first use as
    before. Where typer's internals are not as expected here, typer is left as it is."""
    try:
        from typer._coercion import build_runtime_param
        from typer._param_types import coerce_cli_path
        from typer.core import _TyperParameter
    except ImportError:
        return
    if not callable(getattr(_TyperParameter, "get_runtime_param", None)):
        return

    class Plain:
        def __init__(self, descriptor):
            self.descriptor, self.real = descriptor, None

        def coerce(self, value, param, ctx):
            info, kind = self.descriptor.parameter_info, self.descriptor.annotation
            multi = param.multiple or param.nargs == -1
            if value is None:  # as typer: nothing given and no default
                return () if multi else None
            if info.parser is not None and self.descriptor.file_annotation is None and not multi \
                    and isinstance(value, (str, os.PathLike)):  # simtool's own parsers (folder_option)
                return info.parser(value)
            if info.parser is None and self.descriptor.file_annotation is None:
                if kind is str and type(value) is str and not multi:
                    return value
                if kind == list[str] and multi and isinstance(value, (list, tuple)) \
                        and all(type(v) is str for v in value):
                    return list(value)
                if kind is Path and info.path_type is None and type(value) is str and value and not multi:
                    return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
            if self.real is None:
                self.real = build_runtime_param(self.descriptor)
            return self.real.coerce(value, param=param, ctx=ctx)

    def get_runtime_param(self):
        if self._runtime_param is None:
            self._runtime_param = Plain(self.type_descriptor)
        return self._runtime_param

    _TyperParameter.get_runtime_param = get_runtime_param


_plain_options()


def _each_option_once() -> None:
    """An option that takes one value, given twice (``run -s random -s high``), is refused in
    one line naming it: click keeps the last silently, and the run would play a line-up other
    than the one the user read first. A flag repeated (``-q -q``) means the same and passes;
    ``--rotate --no-rotate`` contradict and are refused too. Repeatable options (``--rule``,
    ``--seat``) append and are not concerned. The check sits where click's parser stores an
    option's value (typer's copy of it); where that is not as expected, click's own behaviour
    stays (tests/test_hardening_round4.py says so)."""
    try:
        from typer._click.exceptions import BadOptionUsage
        from typer._click.parser import _Option, _ParsingState
    except ImportError:
        return
    real = getattr(_Option, "process", None)
    if not callable(real) or not hasattr(_ParsingState([]), "opts"):
        return

    def process(self, value, state) -> None:
        dest = getattr(self, "dest", None)
        if dest in state.opts and (self.action == "store" or (self.action == "store_const"
                                                              and state.opts[dest] != self.const)):
            core = self.obj
            names = [o for o in (*core.opts, *core.secondary_opts) if o.startswith("--")] or list(core.opts)
            name = "/".join(names)
            given = self.const if self.action == "store_const" else value
            raise BadOptionUsage(name, f"{name} given twice ({state.opts[dest]!r} and {given!r}); give it once")
        real(self, value, state)

    _Option.process = process


_each_option_once()

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                  no_args_is_help=True, help="Monte Carlo balance analysis for trick-taking games.")
PLAIN = {"markup": False, "emoji": False}
"""Consoles print text as it is: a strategy named ``[bold]`` or ``:smile:`` is shown so."""


class _OnFirstUse:
    """A rich object made when first used: rich takes 40-60 ms of imports, which a
    ``simtool run --quiet`` (that prints one line) then never pays before its workers start."""

    def __init__(self, make):
        self._make, self._made = make, None

    @property
    def console(self):
        """The rich object itself (to hand to rich)."""
        if self._made is None:
            self._made = self._make()
        return self._made

    def __getattr__(self, name: str):
        return getattr(self.console, name)


def _stdout_console():
    from rich.console import Console

    console = Console(**PLAIN)
    # piped or captured: room for the whole table rather than 80 columns
    return _on_broken_pipe(_some_width(console) if console.is_terminal else Console(width=160, **PLAIN))


def _stderr_console():
    from rich.console import Console

    return _on_broken_pipe(_some_width(Console(stderr=True, **PLAIN)))


def _on_broken_pipe(console):
    """``console``, which goes quiet once its reader has gone (``simtool strategies | head -1``)
    and lets the command end as it would have: rich's own answer sent the rest of stdout (even
    for the stderr console) to nowhere and exited with status 1 in the middle of the command."""
    def gone() -> None:
        console.quiet = True
        _discard(console.file)

    console.on_broken_pipe = gone
    return console


def _discard(stream) -> None:
    """What is still to be written to ``stream``, whose reader has gone, goes nowhere (as
    ``/dev/null``), so no later write or the flush at exit fails on it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # no file descriptor (a test's captured stream)
        pass


def _reader_gone(stream) -> bool:
    """Whether ``stream`` is a pipe whose reader has closed it (the pipe reports an error)."""
    import select

    try:
        poll = select.poll()
        poll.register(stream.fileno(), 0)  # an error is reported whatever events are asked
        return any(event & select.POLLERR for _, event in poll.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def _some_width(console):
    """``console``, or one 80 columns wide where it has none: rich takes ``COLUMNS=0`` at its word
    and prints nothing, so a terminal so set showed no table, no verdict and no error line."""
    if console.width >= 1:
        return console
    from rich.console import Console

    return Console(width=80, stderr=console.stderr, **PLAIN)


out = _OnFirstUse(_stdout_console)
err = _OnFirstUse(_stderr_console)


def verbatim(console, text: str) -> None:
    """``text`` printed as written: no markup read, nothing highlighted, no line cut at the console's
    width (a terminal wraps it on screen). A path longer than the width was cut in two, neither half
    one to copy or open; a one-line error or a seed broke across lines a script reads."""
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def Table(*args, **kwargs):  # noqa: N802 - rich's Table, imported when a command first makes one
    from rich.table import Table as RichTable

    return RichTable(*args, **kwargs)


def said(problem: str) -> int:
    """``problem`` on standard error, as simtool's one line; the exit status that goes with it."""
    verbatim(err, f"error: {one_line(problem)}")
    return 2


def fail(problem: str) -> typer.Exit:
    return typer.Exit(said(problem))


ONE_LINE = "a path without a line break (simtool prints it as one line, for scripts to read)"


def one_line_path(flag: str):
    """A callback refusing a report path with a line break, named as the option the user gave:
    simtool prints the report it wrote as one line, for scripts to read (a report's path was
    printed as two lines). Folder options check it in their parser (:func:`folder_option`)."""

    def check(value):
        if value is not None and any(c in os.fspath(value) for c in "\n\r"):
            raise fail(str(bad(flag, os.fspath(value), ONE_LINE)))
        if value is not None and not os.fspath(value):
            # as ' ' is refused where the page is written: '' (an unset $PAGE) was taken for no
            # -o, the page written at its default place (restrict: none written), exit 0
            raise fail(f"report {os.fspath(value)!r} is a blank name; give a file name such as report.html")
        return value

    return check


def _fresh(stem: str) -> Path:
    """``runs/STEM-<timestamp>``, the default folder of a command, never one already there: two
    commands in one second (a loop in a script) would otherwise meet in one folder, the second
    refused with advice (--force) that would replace the first's results."""
    folder = Path("runs") / f"{stem}-{datetime.now():%Y%m%d-%H%M%S}"
    fresh, i = folder, 1
    while fresh.exists():
        i += 1
        fresh = folder.with_name(f"{folder.name}-{i}")
    return fresh


def _report_of(runs: Path, command: str) -> Path:
    """``reports/<runs folder's name>.html``, the default report of a sweep's or a ladder's runs:
    two commands at once write distinct runs folders (:func:`_fresh`), and so distinct pages
    (both wrote reports/sweep.html, the first's user reading a page of the other's runs); a
    tuning's is in its folder already, restricted play writes none unless asked. A page there
    that is not the one the runs folder's ``plan.json`` names is another runs folder's of the same
    name (``--runs exp1/kc``, then ``--runs exp2/kc``), which the second replaced without a word:
    ``reports/<name>-2.html`` then, and so on."""
    from simtool.commands.plans import resumed
    from simtool.reports.balance import cut_name

    try:
        own = resumed(Path(runs)).settings.get("output")
    except SimtoolError:  # no plan there yet, or one a reader refuses: no page of its own
        own = None
    # a folder's name may take all of a file name's 255 bytes, which "-2.html" then overflows
    name = cut_name(Path(runs).resolve().name or command, 200)
    page, i = Path("reports") / f"{name}.html", 1
    while page.exists() and (own is None or page.resolve() != Path(own).resolve()):
        i += 1
        page = Path("reports") / f"{name}-{i}.html"
    return page


def _count(n: int, noun: str) -> str:
    """``1 cell``, ``8 cells``: a sweep of one cell, a tuning of one trial, are said so."""
    return f"{n:,} {noun}{'s' * (n != 1)}"


def one_line(text: str) -> str:
    """An error message on one line whatever it quotes: a character that is not printable in a
    name the user gave (a newline, a terminal's escape sequence) is written as Python escapes it
    (``\\n``, ``\\x1b``), so the message neither breaks into lines nor moves the cursor."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def checked(flag: str, value: options.Value):
    """A callback that reads an option's text as ``value`` before the command starts: the one
    check and error of rule options and strategies' parameters (``bad --jobs '0'; expected ...``)."""

    def check(text: str | None):
        try:
            return None if text is None else value.check(flag, text)
        except SimtoolError as exc:
            raise fail(str(exc)) from None

    return check


def number(flag: str, valid: str, within):
    """A callback that reads an option's text as a number (``0.5``, ``1e-3``) in the range
    ``within`` accepts, refused otherwise as every option is: quoted as the user typed it (typer
    said "Input should be a valid number, unable to parse string as a number", the valid values
    unsaid; a range checked after reading quoted 1e-400 as "0.0", 0e5 as "0.0", Infinity as "inf")."""

    def read(text: str | None) -> float | None:
        try:
            value = None if text is None else float(text)
        except ValueError:
            value = float("nan")
        if value is not None and not within(value):
            raise fail(str(bad(flag, text, valid))) from None
        return value

    return read


# The options that mean the same in every command taking them, each declared once here; a
# command gives its own default in its signature (``game: Game = "black-white"``), none to require it.
Game = Annotated[str, typer.Option("--game", "-g", help="Game id (see `simtool games`).")]
Players = Annotated[Optional[str], typer.Option("--players", "-p", help="Player count (default: the game's).")]
Rules = Annotated[list[str], typer.Option("--rule", "-r", help="Rule option: name=value. Repeatable.")]
Strategy = Annotated[Optional[str], typer.Option("--strategy", "-s", help="Strategy at every seat: a name "
                                                 "('default': the game's own) or FILE.py:NAME, with "
                                                 "parameters NAME@KEY=VALUE,... if it takes any.")]
Seats = Annotated[list[str], typer.Option("--seat", help="Override one seat: 0=balance or "
                                          "0=balance@mistakes=0.1. Repeatable.")]
Rotate = Annotated[bool, typer.Option("--rotate", help="Move the line-up one seat per deal, so every "
                                      "strategy sits in every seat equally often.")]
Duplicate = Annotated[bool, typer.Option("--duplicate", help="Play every deal (match) once per rotation "
                                         "of the line-up with the same cards: paired strategy "
                                         "comparisons, the cards' luck cancels out. --n counts the "
                                         "deals; each is played p times.")]
Unit = Annotated[Optional[str], typer.Option("--unit", help="deal, or match (whole matches).")]
N = Annotated[Optional[str], typer.Option("--n", "-n", help="Deals (or matches) per run (a cell, a rung, a "
                                         "trial): 1e6, 1000000, 1_000_000.")]
SEED, JOBS = options.Value(options.WHOLE, low=0, high=arguments.SEED_MAX), options.Value(options.WHOLE, low=1)
WHOLE = options.Value(options.WHOLE)
"""A whole number written as --n takes one (``1e3``, ``1_000``); the command checks its range."""
LEAD_HISTORY, TRIALS = options.Value(options.WHOLE, low=0, high=MAX_COUNT), options.Value(options.WHOLE, high=MAX_COUNT)
"""--lead-history's range checked here: the API's own check named ``lead_history`` and ``None``;
both at most the largest count (1e400 was written into run.json and tune.json, 400 digits long)."""
Seed = Annotated[Optional[str], typer.Option("--seed", metavar="<int>", callback=checked("--seed", SEED),
                                             help="Seed (default: fresh, recorded).")]
Jobs = Annotated[Optional[str], typer.Option("--jobs", "-j", metavar="<int>", callback=checked("--jobs", JOBS),
                                             help="Processes (default: all cores).")]
Force = Annotated[bool, typer.Option("--force", help="Play again, replacing the run folders already there.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar, tables or verdicts.")]
def _backend_and_scheduler(ctx: typer.Context, param: typer.CallbackParam, value):
    """Whichever of ``--backend`` and ``--scheduler`` click reads second checks the pair: a
    ``--scheduler`` given to a local run was dropped without a word, the run played on this
    machine, not on the cluster named (``SIMTOOL_SCHEDULER`` set for dask runs is no such slip)."""
    other = "scheduler" if param.name == "backend" else "backend"
    if other in ctx.params:
        given = {param.name: value, other: ctx.params[other]}
        if (given["backend"] == "local" and given["scheduler"] is not None
                and ctx.get_parameter_source("scheduler").name == "COMMANDLINE"):
            raise SimtoolError(f"--scheduler {shown(given['scheduler'])} needs --backend dask (--backend local, the "
                               f"default, plays on this machine's processes); add --backend dask, or leave "
                               f"--scheduler out")
    return value


Backend = Annotated[str, typer.Option("--backend", callback=_backend_and_scheduler,
                                      help="local (--jobs processes on this machine) or dask "
                                      "(the cluster at --scheduler; without one, a dask cluster of "
                                      "--jobs workers started on this machine for the command).")]
Scheduler = Annotated[Optional[str], typer.Option("--scheduler", envvar="SIMTOOL_SCHEDULER",
                                                  callback=_backend_and_scheduler,
                                                  help="dask scheduler address, tcp://HOST:PORT "
                                                  "(--backend dask; default: a cluster of its own).")]
_precision = number("--precision", arguments.PRECISION_VALID, arguments.precision_within)


def _timeout(ctx: typer.Context, text: str | None) -> float | None:
    """``--timeout`` as a number; one in range also limits a plugin file's import until the
    command ends (``strategies.IMPORT_LIMIT``): the line-up is read before the first deal."""
    value = number("--timeout", arguments.TIMEOUT_VALID, arguments.timeout_within)(text)
    if value is not None:
        import strategies

        token = strategies.IMPORT_LIMIT.set(value)
        # on the command line's own context: the command's is never closed when a later option
        # is refused (`--timeout 1 --jobs 0`), and the limit outlived it, killing a plugin's
        # import in the next Python call of the process, which gave none
        ctx.find_root().call_on_close(lambda: strategies.IMPORT_LIMIT.reset(token))
    return value


Timeout = Annotated[Optional[str], typer.Option("--timeout", metavar="<float>", callback=_timeout,
                                                help="Stop if a strategy takes longer than this many seconds "
                                                "over one decision, a designer's game over one step of "
                                                "its play, or a plugin file longer to import "
                                                "(default: no limit).")]
def folder_option(option: str):
    """The parser of a folder option: its text as a path, a blank one refused (as a Path, typer
    took ``--out ""`` for ``Path("")``, the working folder, where ``simtool run`` wrote its run),
    and one with a line break (simtool prints the folder as one line; the Python API's own check
    named ``out`` even for ``--resume``)."""
    def parse(text: str | os.PathLike) -> Path:  # a Path when main() is given one (tests, scripts)
        text = os.fspath(text)
        if not text.strip():
            raise bad(option, text, "a folder path, such as runs/first")
        if any(c in text for c in "\n\r"):
            raise bad(option, text, ONE_LINE)
        return Path(text)
    return parse


def _grid_file(text: str | os.PathLike) -> Path:
    """A sweep's grid file: a blank one refused (typer took ``sweep ""`` for ``Path("")``, refused
    as "cannot read grid file .: Is a directory", a folder the user never named)."""
    if not os.fspath(text).strip():
        raise bad("grid file", os.fspath(text), "a TOML file such as grid.toml")
    return Path(text)


Report = Annotated[Optional[str], typer.Option("--out", "-o", callback=one_line_path("--out"),
                                               help="HTML report to write, a file name (a "
                                               "folder is refused; default reports/RUN.html after "
                                               "the run folder, reports/A+B.html for runs A and B, "
                                               "or for a sweep or a ladder reports/RUNS.html after "
                                               "its runs folder).")]
def _title(text: str | None) -> str | None:
    """``--title`` as a page's text: bytes that are not UTF-8 (an ``LC_ALL=C`` shell's) made a page
    that is not UTF-8, though it says it is."""
    if text is not None and not utf8(text):
        raise bad("--title", text, "UTF-8 text (the page is UTF-8)")
    return text


Title = Annotated[Optional[str], typer.Option("--title", callback=_title, help="Report title.")]
Runs = Annotated[Optional[Path], typer.Option("--runs", parser=folder_option("--runs"), metavar="<path>",
                                              help="Folder for its run folders (default "
                                              "runs/COMMAND-...-<timestamp>).")]


def _version(given: bool) -> None:
    if given:
        from importlib.metadata import version

        out.print(f"simtool {version('simtool')}", markup=False, highlight=False)
        raise typer.Exit(0)


@app.callback()
def _options(ctx: typer.Context,
             version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                          help="Print simtool's version and exit.")) -> None:
    """Monte Carlo balance analysis for trick-taking games."""
    # errors name this command's options (--timeout), not the Python API's arguments, until it ends
    token = arguments.COMMAND_LINE.set(True)
    ctx.call_on_close(lambda: arguments.COMMAND_LINE.reset(token))


def command_list(group) -> str:
    """What bare ``simtool`` prints: how to call it, then every command on a line of its own with
    the first clause of its help (click's own list runs them together when piped, and cuts the
    help at 45 characters)."""
    rows = []
    for name in group.list_commands(None):
        command = group.get_command(None, name)
        if command is None or command.hidden:
            continue
        text = re.sub(r" \([^)]*\)", "", " ".join((command.help or "").split()))  # asides left out
        first = re.split(r"[.:;] ", text)[0].rstrip(".")
        rows.append((name, first))
    width = max(len(name) for name, _ in rows)
    lines = ["Usage: simtool COMMAND [OPTIONS]   (simtool COMMAND --help for its options)",
             "Monte Carlo balance analysis for trick-taking games.", "", "Commands:"]
    lines += [f"  {name.ljust(width)}  {text}" for name, text in rows]
    lines += ["", "Options: --version (print the version), --help"]
    return "\n".join(lines)


def interrupted(how_to_go_on: str | None) -> typer.Exit:
    """Ctrl-C: say how to go on from what was kept (when anything was), exit status 130."""
    verbatim(err, f"interrupted; {how_to_go_on or NOTHING_KEPT}")
    _SAID.append(True)
    return typer.Exit(130)


NOTHING_KEPT = "no result was written"
_SAID = []
"""Set by :func:`interrupted`: the command said how it stopped."""


def _plan_stamp(folder: Path | None) -> tuple | None:
    """Which ``plan.json`` ``folder`` holds (None: none), to tell whether a command wrote one."""
    try:
        stat = os.stat(Path(folder) / "plan.json") if folder else None
    except OSError:
        return None
    return stat and (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def _plan_kept(folder: Path | None, before: tuple | None, resume: Path | None, how: str) -> str | None:
    """How to go on from an interrupted sweep, ladder or restricted play: ``how`` where its plan
    is saved (a resume's, or one this command wrote), else nothing: interrupted while it planned,
    it offered ``--resume`` of a folder that did not exist, or held another plan."""
    now = _plan_stamp(folder)
    return how if now is not None and (resume or now != before) else None


def lineup_args(seat: list[str]) -> dict[str, str]:
    return options.parse_assignments(seat, "seat")


RESUME_KEEPS = {"game": "--game", "n": "--n", "players": "--players", "strategy": "--strategy",
                "precision": "--precision", "seat": "--seat", "rule": "--rule", "rotate": "--rotate",
                "duplicate": "--duplicate", "lead_history": "--lead-history", "isolate": "--isolate",
                "unit": "--unit", "seed": "--seed", "out_dir": "--out", "force": "--force"}
"""Options that fix a run's results: a resumed run keeps its own, so giving one is a mistake."""


def flags_given(ctx: typer.Context, names: dict[str, str]) -> list[str]:
    """The flags among ``names`` (parameter -> flag) that the user gave, not left at their default."""
    return [flag for name, flag in names.items()
            if ctx.get_parameter_source(name).name in ("COMMANDLINE", "ENVIRONMENT")]


RESUME_FIELDS = {"--n": "n", "--seed": "seed", "--rule": "rules", "--strategy": "lineup", "--seat": "lineup",
                 "--unit": "unit", "--rotate": "rotate", "--precision": "precision", "--duplicate": "duplicate",
                 "--lead-history": "leads", "--isolate": "isolate"}
"""The field of a run's specification each flag of :data:`RESUME_KEEPS` sets (but --game,
--players, --out and --force)."""


def _changed_on_resume(folder: Path, given: list[str], **flags) -> list[str]:
    """The flags among ``given`` whose values differ from the settings the interrupted run in
    ``folder`` started with: ``run --resume DIR --game black-white --n 2000 --seed 3``, the run's
    own settings again, was refused as if they changed. Each given flag is read over the saved
    settings (a ``--rule`` or ``--seat`` over the run's others), as a fresh run reads it. All of
    them where the folder holds no settings to compare with (its resume says why)."""
    from simtool.pipeline.executor import saved_spec, with_new_options

    saved = saved_spec(folder) if given else None
    if saved is None or saved.game not in games.registry():
        return given
    saved = with_new_options(saved)
    changed = []
    if "--game" in given and games.get(flags["game"]).id != saved.game:
        changed.append("--game")
    if "--players" in given and _players(flags["players"], saved.game) != saved.players:
        changed.append("--players")
    if "--out" in given and Path(flags["out"]).resolve() != Path(folder).resolve():
        changed.append("--out")
    if "--force" in given:  # no setting: it would replace the run's chunks
        changed.append("--force")
    if not set(given) & set(RESUME_FIELDS):
        return changed
    kept = {f: f not in given for f in RESUME_FIELDS}
    seats = {} if not kept["--strategy"] else dict(enumerate(saved.lineup))
    seats |= {int(k) if k.strip().isdigit() else k: v for k, v in flags["seats"].items()}
    try:
        spec = _resumed_spec(saved, kept, flags, seats)
    except SimtoolError:  # a value no run could start with (a rule of another game) is no run's own
        return changed + [f for f in RESUME_FIELDS if f in given]
    def setting(of, name: str):
        return played_lineup(of) if name == "lineup" else getattr(of, name)

    return changed + [f for f, name in RESUME_FIELDS.items()
                      if f in given and setting(spec, name) != setting(saved, name)]


def _resumed_spec(saved, kept: dict[str, bool], flags: dict, seats: dict):
    """The specification of :func:`_changed_on_resume`'s flags read over the ``saved`` one."""
    def value(flag: str):
        field = RESUME_FIELDS[flag]  # a flag's value is passed under its field's name
        return getattr(saved, field) if kept[flag] else flags[field]

    return make_spec(saved.game, saved.players, value("--n"), None if kept["--strategy"] else flags["strategy"],
                     seats, {**saved.rules, **flags["rules"]}, value("--unit"), value("--seed"), value("--rotate"),
                     value("--precision"), value("--duplicate"), value("--lead-history"), value("--isolate"))


@app.command()
def run(
    ctx: typer.Context,
    game: Game = "black-white",
    n: Optional[str] = typer.Option(None, "--n", "-n", help="Deals (or matches): 1e6, 1000000, "
                                    f"1_000_000 (default 1e5; with --precision, the cap: {PRECISION_CAP})."),
    players: Players = None,
    strategy: Strategy = None,
    precision: Optional[str] = typer.Option(None, "--precision", metavar="<float>",
                                            callback=_precision,
                                            help="Add chunks until every "
                                              "headline share (win shares and rates by seat and by "
                                              "strategy) is known to ± this (0.005 = ± 0.5%)."),
    seat: Seats = [],
    rule: Rules = [],
    rotate: Rotate = False,
    duplicate: Duplicate = False,
    unit: Unit = "deal",
    lead_history: Optional[str] = typer.Option(None, "--lead-history", metavar="K",
                                               callback=checked("--lead-history", LEAD_HISTORY),
                                               help="Record every seat's estimated standing at "
                                               "each decision of the first K deals (matches) of "
                                               "each chunk, for the published metrics "
                                               "(`simtool.metrics`; docs/metrics.md)."),
    seed: Seed = None,
    jobs: Jobs = None,
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", parser=folder_option("--out"), metavar="<path>",
                                           help="Run folder (default runs/<game>-<timestamp>)."),
    force: Force = False,
    quiet: Quiet = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    resume: Optional[Path] = typer.Option(None, "--resume", parser=folder_option("--resume"), metavar="<path>",
                                          help="Finish the interrupted run in "
                                          "this folder (its own settings, which other flags may only "
                                          "repeat; --jobs, --backend, --scheduler and --timeout apply)."),
    timeout: Timeout = None,
    isolate: bool = typer.Option(False, "--isolate", help="Play each plugin strategy in a process "
                                 "of its own that receives only its views: for strategies you do "
                                 "not trust (docs/trust.md). Same results, slower."),
):
    """Simulate deals or matches, print a per-seat summary and write the run folder."""
    folder = resume  # until the run's is named: a Ctrl-C as a plugin is imported keeps nothing
    try:
        changed = resume and _changed_on_resume(
            resume, flags_given(ctx, RESUME_KEEPS), game=game, n=n, players=players, strategy=strategy,
            seats=lineup_args(seat), rules=options.parse_assignments(rule), unit=unit, seed=seed, rotate=rotate,
            precision=precision, duplicate=duplicate, leads=lead_history, isolate=isolate, out=out_dir)
        if changed:
            raise SimtoolError(f"--resume {resume} finishes the run with the settings it started with; "
                               f"{', '.join(changed)} cannot change (only --jobs, "
                               f"--backend, --scheduler and --timeout may)")
        rotated_alone(rotate, duplicate)
        count = n if n is not None else (PRECISION_CAP if precision else "1e5")
        spec = None if resume else make_spec(game, _players(players, game), count, strategy, lineup_args(seat),
                                              options.parse_assignments(rule), unit, seed, rotate,
                                              precision, duplicate, lead_history, isolate)
        if spec is not None and (capped := pilot.warning(spec)):
            verbatim(err, f"warning: {capped}; the run goes on")
        folder = resume or out_dir or _fresh(spec.game)
        with _progress(quiet) as bar:
            task = bar.add_task(f"{spec.game} {spec.players}p" if spec else f"resuming {folder}", total=None)
            result = execute_run(spec, jobs, folder, force,
                                 lambda done, total: bar.update(task, completed=done, total=total),
                                 keep=False, backend=backend, scheduler=scheduler,
                                 resume=resume is not None, timeout=timeout, summed=not quiet)
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise interrupted(folder and f"finish the run with: simtool run --resume {pasted(folder)}") from None
    if result.meta.get("left_alone"):
        verbatim(err, f"note: {folder} holds files simtool did not write, left as they were and not "
                      f"read: {', '.join(result.meta['left_alone'])}")
    if not quiet:
        show_summary(folder, result.summed)
    else:  # the folder as it is, never wrapped, and without loading rich for one line
        import polars as pl

        from simtool.analysis.rates import check_rates
        from simtool.pipeline.folders import native

        try:  # a rate that cannot be computed: exit 2, as the printed run's summary says it
            check_rates(games.get(result.meta["game"]),
                        pl.scan_parquet(native(result.path / "seats.parquet"), glob=False))
        except SimtoolError as exc:
            raise fail(str(exc)) from None
        print_path(result.path)
    _FINISHED.append(True)


class _NoBar:
    """What a progress bar that shows nothing does (``--quiet``, or no terminal), without rich."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def add_task(self, *args, **kwargs) -> int:
        return 0

    def update(self, *args, **kwargs) -> None:
        return None


def print_path(path: Path) -> None:
    """``path`` on a line of its own, as the file system spells it where the terminal's encoding
    cannot (``PYTHONIOENCODING=ascii`` and a folder named ``é``): the run is finished and
    written, its one line must not end it in a traceback; nor a standard output closed (`>&-`)."""
    if sys.stdout is None:
        return
    try:
        str(path).encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        sys.stdout.flush()
        sys.stdout.buffer.write(os.fsencode(path) + b"\n")
        sys.stdout.buffer.flush()
    else:
        print(path)


def _progress(quiet: bool):
    if quiet or not err.is_terminal:  # rich's bar would be disabled: it shows nothing either
        return _NoBar()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                    TextColumn("chunks"), TimeRemainingColumn(), console=err.console, transient=True)


def show_summary(folder: Path, sums: dict | None = None) -> None:
    from simtool.commands.run import summary_tables
    from simtool.pipeline.folders import load

    meta, seats, matches = load(folder)
    game = games.get(meta["game"])
    rate = meta["n"] / meta["wall_seconds"] if meta["wall_seconds"] else float("nan")
    unit = meta["unit"] + "es" if meta["unit"] == "match" else meta["unit"] + "s"
    defaults = {o.name: str(o.default) for o in game.options}
    changed = ", ".join(f"{k}={v}" for k, v in meta["rules"].items() if str(v) != defaults.get(k))
    # a designer's title (or rule value) holding a newline or U+202E broke the title in two, or
    # turned it right to left: written out, as an error line writes them
    title = one_line(f"{meta['title']}: {meta['players']} players, " + (f"rules {changed}, " if changed else "")
                     + f"{meta['n']:,} {unit}, seed {meta['seed']}, {meta['wall_seconds']:.2f} s "
                       f"({rate:,.0f} {unit}/s)")
    tables = summary_tables(meta, seats, matches, sums)
    table = tables["By seat and strategy"]
    # above the table, never wrapped: as its title, wrapped to the table's width, "(73,964 deals/s)"
    # broke onto a line of its own, and a script reading the seed could meet half of it
    verbatim(out, title)
    out.print(_summary_table(None, game, table, ("seat", "strategy"), matches is not None))
    pooled = tables["By strategy (seats pooled)"]
    # one strategy holds every seat: a rate one seat has every deal is 1/p there by rule, and so
    # is its win share (each deal's, round's and match's win sums to one: ties split it, and a
    # match capped at the round limit goes to its leaders on totals), which a Wilson interval on
    # the units would dress up as a measurement
    by_rule = f"1/{meta['players']} by rule" if pooled.height == 1 else None
    # and said so only where the table holds exactly that (a game of one's own may not split wins)
    wins_by_rule = by_rule if by_rule and all(
        abs(pooled[c][0] - 1 / meta["players"]) < 1e-9 for c in ("win", "match_win") if c in pooled.columns) else None
    out.print(_summary_table("By strategy (seats pooled)", game, pooled, ("strategy",), matches is not None, by_rule,
                             wins_by_rule))
    for caption, extra_table in list(tables.items())[2:]:
        out.print(_frame_table(caption, extra_table))
    if meta.get("duplicate") or matches is not None:
        from simtool.reports.balance import metric_cells, printed_metrics

        metrics, sentences = printed_metrics(meta, seats, matches)
        for caption, extra_table in metrics:  # the duplicate and luck tables as their sentences say them
            out.print(_frame_table(caption, metric_cells(caption, extra_table)))
        for sentence in sentences:
            out.print(sentence, markup=False, highlight=False)
    notes = [f"95% intervals on {unit} (each {meta['unit']}'s seats"
             f"{' and rounds' if matches is not None else ''} are one unit); a tie splits the win"]
    if meta.get("precision"):
        from .analysis.verdicts import fixed

        # in % as the shares above and the report are: "± 0.0169" beside "34.4% (32.3–36.5)"
        # read as a hundredth of a point; never shown on the target it is not on
        reached = meta["precision_reached"] <= meta["precision"]
        target, widest = 100 * meta["precision"], 100 * meta["precision_reached"]
        notes.append(f"--precision {meta['precision']:g} (± {target:.3g}%) tracks every share printed "
                     f"above: {meta['n']:,} {unit} "
                     + (f"brought the widest to ± {fixed(widest, [target], digits=2)}%"
                        if reached else f"(the cap) left the widest at ± {fixed(widest, [target], digits=2)}%")
                     + f" ({meta['precision_widest']})")
    if matches is not None and table["capped"].max() > 0:
        from . import stats

        notes.append(f"{stats.percent(table['capped'].max(), 2)}% of matches hit the {ROUND_CAP}-round cap")
    notes += [f"{name} sees every hidden card: a reference, not a fair player" for name in meta.get("not_fair", ())]
    verbatim(out, f"{'; '.join(notes)}. Results: {folder}")
    verbatim(out, _seat_line(meta, seats, matches))


def _seat_line(meta: dict, seats, matches) -> str:
    from simtool import stats
    from simtool.analysis.summary import run_seat_line, seat_shares, streamed_duplicate_shares, streamed_seat_shares
    from simtool.analysis.verdicts import partners, sides_of
    from simtool.reports.balance import lineup_text

    # the outcome's four columns read (a match run's seats are no part of its seat line), a batch
    # of units at a time where each row is a unit's
    outcome = seats if matches is None else matches
    if not meta.get("duplicate"):
        table, alike, units = streamed_seat_shares(meta, outcome)
        return run_seat_line(meta, table, lineup_text(meta), sides_of(alike, units))
    streamed = streamed_duplicate_shares(meta, outcome)
    if streamed is not None:
        table, alike, units = streamed
        return run_seat_line(meta, table, lineup_text(meta), sides_of(alike, units))
    score = "score" if matches is None else "total"
    outcome = outcome.select("seat", stats.unit_key(outcome), "win", score).collect()
    table = seat_shares(meta, *((outcome, None) if matches is None else (None, outcome)))
    units = stats.panel(outcome, stats.unit_key(outcome), meta["players"])[:, 0]
    return run_seat_line(meta, table, lineup_text(meta), partners(stats.panel(outcome, score, meta["players"]), units))


def _summary_table(title: str | None, game, table, keys: tuple[str, ...], with_matches: bool,
                   by_rule: str | None = None, wins_by_rule: str | None = None) -> Table:
    """``by_rule``: the cell of each rate of ``Analysis.shared`` (one seat has it every deal) where
    the rows pool every seat, in place of a share that is the rules', not a measurement;
    ``wins_by_rule``: the same for the win shares."""
    from . import stats
    from .analysis import of as analysis_of

    t = Table(title=title, title_justify="left")
    score = "mean score (lower is better)" if game.lower_wins else "mean score"
    for col in (*keys, score, "win share", game.tricks_label, *analysis_of(game).rates):
        t.add_column(col, justify="right")
    if with_matches:
        for col in ("match total", "match win share", "rounds"):
            t.add_column(col, justify="right")
    for r in table.iter_rows(named=True):
        cells = [str(r[k]) for k in keys]
        cells += [stats.fmt_mean(r["score"], r["score_low"], r["score_high"]),
                  wins_by_rule or stats.fmt_rate(r["win"], r["win_low"], r["win_high"]), f"{r['tricks']:.2f}"]
        cells += [by_rule if by_rule and k in analysis_of(game).shared else
                  stats.fmt_rate(r[k], r[f"{k}_low"], r[f"{k}_high"]) for k in analysis_of(game).rates]
        if with_matches:
            cells += [stats.fmt_mean(r["total"], r["total_low"], r["total_high"]),
                      wins_by_rule or stats.fmt_rate(r["match_win"], r["match_win_low"], r["match_win_high"]),
                      f"{r['rounds']:.2f}"]
        t.add_row(*cells)
    return t


def _frame_table(caption: str, df) -> Table:
    from simtool.reports.balance import worded

    t = Table(title=caption, title_justify="left")
    headers, rows = worded(df)  # the report's headers: words, not column names
    for _, words in headers:
        t.add_column(words, justify="right")
    for row in rows:
        t.add_row(*row)
    return t


@app.command()
def report(
    # a blank one ("$RUN" unset) was the working folder, reported if it was a run's
    runs: list[Path] = typer.Argument(..., parser=folder_option("run folder"),
                                      help="Finished run folders (several runs of one game "
                                      "are compared side by side)."),
    output: Report = None,
    title: Title = "simtool balance report",
):
    """Write one self-contained HTML balance report of finished runs."""
    from simtool.reports import balance as reports

    try:
        _each_once(runs)
        output = reports.default_page(runs) if output is None else output
        written = reports.write(runs, output, title)
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    verbatim(out, str(written))


def _each_once(runs: list[Path]) -> None:
    """A run folder named twice (``report a a``, ``report a ./a``) would be compared with itself,
    and the page could not tell its two columns apart: refused, naming it."""
    seen: dict[Path, Path] = {}
    for path in runs:
        again = seen.setdefault(path.resolve(), path)
        if again is not path:
            spelled = f" (as {again} and {path})" if str(again) != str(path) else ""
            raise SimtoolError(f"run folder {path} given twice{spelled}; give each run once")


SWEEP_GRID = {"grid_file": "GRID_FILE", "game": "--game", "players": "--players", "rule": "--rule",
              "lineup": "--lineup", "n": "--n", "seed": "--seed", "unit": "--unit",
              "rotate": "--rotate", "duplicate": "--duplicate", "ladder": "--ladder", "restrict": "--restrict",
              "large": "--large", "isolate": "--isolate", "runs_dir": "--runs", "force": "--force"}


@app.command()
def sweep(
    ctx: typer.Context,
    grid_file: Optional[Path] = typer.Argument(None, parser=_grid_file,
                                               help="TOML grid file (see README); the "
                                               "options below override its keys."),
    game: list[str] = typer.Option([], "--game", "-g", help="Games, comma-separated or repeated."),
    players: list[str] = typer.Option([], "--players", "-p", help="Player counts: 4,5."),
    rule: list[str] = typer.Option([], "--rule", "-r", help="Rule values to vary: pass_count=2,3."),
    lineup: list[str] = typer.Option([], "--lineup", "-l", help="A line-up: NAME (every seat) or "
                                     "NAME,NAME,... (seat by seat, the last fills the rest); "
                                     "'default' is the game's default strategy. Repeatable."),
    n: Optional[str] = typer.Option(None, "--n", "-n", help="Deals (or matches) per cell: 1e6, 1000000, "
                                    "1_000_000 (default: the grid file's n, else 1e5)."),
    seed: Seed = None,
    unit: Unit = None,
    rotate: Optional[bool] = typer.Option(None, "--rotate/--no-rotate", help="Rotate line-ups."),
    duplicate: Optional[bool] = typer.Option(None, "--duplicate/--no-duplicate",
                                             help="Play every deal once per rotation of the line-up."),
    ladder: Optional[bool] = typer.Option(None, "--ladder/--no-ladder", help="A skill ladder in "
                                          "every cell instead of line-ups (see simtool ladder)."),
    restrict: Optional[bool] = typer.Option(None, "--restrict/--no-restrict", help="Restricted play "
                                            "in every cell: what each restriction costs the game's "
                                            "default strategy, or each --lineup NAME (see simtool restrict)."),
    large: Optional[bool] = typer.Option(None, "--large/--no-large", help="Play a grid of more than "
                                         "10,000 combinations (refused without it: usually a typo)."),
    isolate: Optional[bool] = typer.Option(None, "--isolate/--no-isolate", help="Play each plugin "
                                           "strategy in a process of its own that receives only its "
                                           "views (docs/trust.md). Same results, slower."),
    jobs: Jobs = None,
    runs_dir: Runs = None,
    output: Report = None,
    title: Title = None,
    force: Force = False,
    quiet: Quiet = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    timeout: Timeout = None,
    resume: Optional[Path] = typer.Option(None, "--resume", parser=folder_option("--resume"), metavar="<path>",
                                          help="Finish the interrupted sweep whose "
                                          "cells are in this folder (its own grid; only --jobs, "
                                          "--backend, --scheduler, --timeout, --out and --title apply)."),
):
    """Run a grid of games x players x rules x line-ups and write one report comparing every cell."""
    from simtool.commands import plans
    from simtool.commands import sweep as sweeps
    from simtool.pipeline.executor import execute
    from simtool.reports import balance as reports

    folder = resume or runs_dir
    before = _plan_stamp(folder)  # a plan already there is not this command's to resume
    try:
        if resume:
            changed = flags_given(ctx, SWEEP_GRID)
            if changed:
                raise SimtoolError(f"--resume {resume} finishes the sweep with the grid it started "
                                   f"with; {', '.join(changed)} cannot change (only --jobs, --backend, "
                                   f"--scheduler, --timeout, --out and --title may)")
            resumed = plans.resumed(resume)
            specs, saved = [c.spec for c in resumed.cells], resumed.settings
        else:
            data = sweeps.read_toml(grid_file) if grid_file else {}
            if n is not None:  # named --n here; the grid file's key n below
                parse_count(n)
            given = {"games": sweeps.parse_list(game, "game"), "lineups": lineup, "n": n, "seed": seed,
                     "unit": unit, "rotate": rotate, "duplicate": duplicate, "ladder": ladder,
                     "restrict": restrict, "large": large, "isolate": isolate,
                     "rules": sweeps.rules_arg(rule)}
            if players:
                given["players"] = [_whole(v, "players") for v in sweeps.parse_list(players, "players")]
            if isinstance(data.get("rules"), dict):  # --rule overrides the file's rule of its name only
                given["rules"] = data["rules"] | given["rules"]
            data |= {k: v for k, v in given.items() if v not in (None, [], {})}
            grid = sweeps.make_grid(data)
            with _progress(quiet) as bar:
                task = bar.add_task(f"planning {_count(sweeps.size(grid), 'combination')}", total=None)
                specs, extra = sweeps.plan(grid, lambda done, total: bar.update(task, completed=done,
                                                                                total=total))
            saved = {"extra": extra, "skipped": sweeps.skipped(grid)}
            folder = runs_dir or _fresh("sweep")
        output = output or saved.get("output") or _report_of(folder, "sweep")
        title = title or saved.get("title", "simtool sweep")
        left_out = saved.get("skipped") or []
        if resume:  # its cells in the folders it named, whatever simtool would name them now
            plan = dataclasses.replace(resumed, settings={"output": str(output), "title": title,
                                                          **({"skipped": left_out} if left_out else {})})
        else:
            plan = plans.make_plan(specs, folder, {"output": str(output), "title": title,
                                                   **({"skipped": left_out} if left_out else {})}, saved["extra"])
        plans.check(plan, force)
        for note in left_out:  # the whole grid was refused for one game's missing player count
            verbatim(err, f"note: skipped {note}")
        if not quiet:  # before the first deal: a grid can be larger than its author meant
            verbatim(out, f"sweep: {sweeps.cost(specs)}, seed {specs[0].seed}, into {folder}")
        with _progress(quiet) as bar:
            task = bar.add_task(f"sweep of {_count(len(specs), 'cell')}", total=None)
            done = execute(plan, jobs=jobs, backend=backend, scheduler=scheduler, force=force, timeout=timeout,
                           progress=lambda done, total: bar.update(task, completed=done, total=total))
        paths = [d.cell.folder for d in done]
        written = reports.write(paths, output, title, [f"Skipped {note}." for note in left_out])
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise interrupted(_plan_kept(folder, before, resume, f"finished chunks are kept: finish the sweep "
                                                             f"with simtool sweep --resume {pasted(folder)}")) from None
    verbatim(out, f"{_count(len(paths), 'cell')} in {folder}; report {written}")


def _players(text: str | None, game: str) -> int | None:
    if text is None:
        return None
    try:
        count = options.read_whole(text)
    except ValueError:
        count = 0
    g = games.get(game)
    valid = choices(g.players)
    if count >= 1 and count not in g.players:
        # named as written: `1e400` is one short line, its 401 digits were not
        raise SimtoolError(f"{g.id} is for {valid} players, not {text.strip()}")
    if count >= 1:
        return count
    raise bad("--players", text, f"one of {valid}", f" for {game}")


TUNE_KEEPS = {"game": "--game", "players": "--players", "vary": "--vary", "objective": "--objective",
              "n": "--n", "lineup": "--lineup", "strong": "--strong",
              "weak": "--weak", "seed": "--seed", "rule": "--rule", "out_dir": "--out"}


@app.command()
def tune(
    ctx: typer.Context,
    game: Game = "kansas-city",
    players: Players = None,
    vary: list[str] = typer.Option([], "--vary", help="A rule option to search: NAME (all its "
                                   "values), NAME=A..B (whole numbers) or NAME=a,b,c. Repeatable."),
    objective: list[str] = typer.Option([], "--objective", help="seat_spread[:min|:max], "
                                        "first_seat_edge (bare: =0, fair; or :min|:max), RATE=TARGET (overshoot=0.5), "
                                        "skill[:max], match_rounds=N. Repeatable: several make a "
                                        "Pareto front."),
    trials: str = typer.Option("60", "--trials", metavar="INTEGER", callback=checked("--trials", TRIALS),
                               help="Trials (a space this small or smaller is "
                               "covered by a grid, each point once). Run again with more to extend "
                               "the study."),
    n: N = "1e5",
    lineup: Optional[str] = typer.Option(None, "--lineup", "-l", help="NAME or NAME,NAME,... "
                                         "(default: the game's default strategy at every seat)."),
    strong: Optional[str] = typer.Option(None, "--strong", help="skill: the stronger strategy "
                                         "(default: the game's default)."),
    weak: str = typer.Option("random", "--weak", help="skill: the weaker strategy."),
    rule: Rules = [],
    seed: Seed = None,
    jobs: Jobs = None,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", parser=folder_option("--out"), metavar="<path>",
                                           help="Tuning folder: study.db, "
                                           "tune.json, runs/ (default runs/tune-<game>-<timestamp>)."),
    report_file: Optional[str] = typer.Option(None, "--report", callback=one_line_path("--report"),
                                              help="HTML report to write "
                                              "(default: tune.html in the tuning folder)."),
    resume: Optional[Path] = typer.Option(None, "--resume", parser=folder_option("--resume"), metavar="<path>",
                                          help="Go on with the tuning in this "
                                          "folder (its own settings; a larger --trials extends it)."),
    quiet: Quiet = False,
):
    """Search rule options towards targets (optuna; Pareto front for several objectives) and
    write a tuning report."""
    from simtool.commands import tune as tuning
    from simtool.reports import tune as tune_report

    folder = resume or out_dir
    try:
        if resume:
            changed = flags_given(ctx, TUNE_KEEPS)
            if changed:
                raise SimtoolError(f"--resume {resume} goes on with the settings it started with; "
                                   f"{', '.join(changed)} cannot change")
            config = tuning.read_config(resume)
            if ctx.get_parameter_source("trials").name == "COMMANDLINE":  # extend (or finish) it
                if trials < 1:
                    raise SimtoolError(f"bad --trials {trials}; expected 1 or more")
                config = dataclasses.replace(config, trials=trials)
        else:
            if seed is None and out_dir is not None and (out_dir / tuning.CONFIG).is_file():
                seed = tuning.read_config(out_dir).seed  # the same command again goes on with it
            config = tuning.configure(game, vary, objective, _players(players, game), trials, n,
                                      lineup, strong, weak, seed, options.parse_assignments(rule))
            folder = out_dir or _fresh(f"tune-{config.game}")
        report_file = report_file or folder / "tune.html"
        tuning.check_folder(folder)  # every output is checked before the first trial
        tuning.check_report(report_file, folder)
        with _progress(quiet) as bar:
            task = bar.add_task(f"tuning {config.game} ({tuning.sampler_name(config)} sampler)", total=None)
            result = tuning.tune(config, folder, jobs, backend, scheduler,
                                 lambda done, total: bar.update(task, completed=done, total=total))
        written = tune_report.write(result, report_file)
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise interrupted(folder and f"finished trials are kept in {folder}/study.db: go on with "
                                     f"simtool tune --resume {pasted(folder)}") from None
    if not quiet:
        out.print(_tune_table(result))
    skipped = result["skipped"]
    if skipped:
        one = len(skipped) == 1
        out.print(f"{_count(len(skipped), 'trial')} skipped: the game cannot be played with "
                  f"{'its' if one else 'their'} values ({'' if one else 'first: '}{skipped[0]})",
                  markup=False, highlight=False)
    verbatim(out, f"{_count(result['trials'].height, 'trial')} in {folder}; report {written}")
    verbatim(out, result["recommendation"])


def _tune_table(result: dict) -> Table:
    from simtool.analysis.tuning import measured, values_text

    config = result["config"]
    again = result["confirmed"][0]["n"] if result["confirmed"] else config.n
    t = Table(title=f"Tuning {config.game} {config.players}p, seed {config.seed}, {result['sampler']} sampler: "
                    f"the best trials and the sheet's defaults re-measured on {again:,} fresh "
                    f"{'matches' if config.unit == 'match' else 'deals'} "
                    f"(95% intervals)", title_justify="left")
    for col in ("settings", *config.vary, *(measured(o) for o in config.objective_list())):
        t.add_column(col, justify="right")
    best = {c["label"] for c in result["best"]}
    for c in result["confirmed"]:
        name = c["label"] + (f" = trial {', '.join(map(str, c['trials']))}" if c["label"] == "defaults"
                             and c.get("trials") else "") + (" (best)" if c["label"] in best else "")
        t.add_row(name, *values_text(config, c["params"]),
                  *[tune_cell(*c["values"][o]) for o in config.objectives])
    return t


def tune_cell(value: float, low: float, high: float) -> str:
    return f"{value:.4f} [{low:.4f}, {high:.4f}]"


LADDER_PLAN = {"game": "--game", "players": "--players", "rule": "--rule", "rungs": "--rungs", "n": "--n",
               "seed": "--seed", "unit": "--unit", "runs_dir": "--runs", "force": "--force",
               "duplicate": "--duplicate", "reference": "--reference"}
RESTRICT_PLAN = {"game": "--game", "strategy": "--strategy", "restrictions": "--restrictions",
                 "players": "--players", "rule": "--rule", "n": "--n", "seed": "--seed", "runs_dir": "--out",
                 "force": "--force"}


def _resume(ctx: typer.Context, command: str, folder: Path, fixed: dict[str, str], jobs, backend, scheduler,
            timeout, quiet: bool, output: str | None, title: str | None) -> tuple[list[Path], str | None, str | None]:
    """Finish the ladder or restricted play (``command``) whose plan is saved in ``folder``, with
    its own settings, as ``sweep --resume`` finishes a sweep; return its cells' folders, and the
    report's file and title (those it saved unless given now)."""
    from simtool.commands import plans
    from simtool.pipeline.executor import execute, finishing
    from simtool.pipeline.folders import refuse_if_held

    changed = flags_given(ctx, fixed)
    if changed:
        what = "restricted play" if command == "restrict" else command  # "finishes the restrict" before
        raise SimtoolError(f"--resume {folder} finishes the {what} with the settings it started with; "
                           f"{', '.join(changed)} cannot change (only --jobs, --backend, --scheduler, "
                           f"--timeout and the report's file and title may)")
    # before the command it holds is named: its own resume, advised, would meet the writer's lock
    refuse_if_held(folder, "command")
    plan = plans.resumed(folder)
    if plan.command != command:
        raise SimtoolError(f"{folder} holds the runs of simtool {plan.command}, not of simtool {command}; "
                           f"finish them with {finishing(plan.command, folder)}")
    output, title = (value if flags_given(ctx, {name: name}) else plan.settings.get(name, value)
                     for name, value in (("output", output), ("title", title)))
    # as sweep --resume: the report checked before a deal is played, and saved with the plan for
    # the next resume
    plan = dataclasses.replace(plan, settings={"output": str(output), "title": title} if output else {})
    plans.check(plan)
    with _progress(quiet) as bar:
        task = bar.add_task(f"{command} of {_count(len(plan.cells), 'run')}", total=None)
        done = execute(plan, jobs=jobs, backend=backend, scheduler=scheduler, timeout=timeout,
                       progress=lambda done, total: bar.update(task, completed=done, total=total))
    return [d.cell.folder for d in done], output, title


@app.command()
def ladder(
    ctx: typer.Context,
    game: Game = "black-white",
    players: Players = None,
    rule: Rules = [],
    rungs: Optional[str] = typer.Option(None, "--rungs", help="The chain, weakest first: "
                                        "NAME,NAME,... (parameters allowed: pimc@samples=8). "
                                        "Default: random, the game's heuristics with its default "
                                        "last, then pimc@samples=4..64 if pimc is installed."),
    n: N = "2e4",
    seed: Seed = None,
    unit: Unit = "deal",
    jobs: Jobs = None,
    runs_dir: Runs = None,
    output: Report = None,
    title: Title = "simtool skill ladder",
    force: Force = False,
    quiet: Quiet = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    timeout: Timeout = None,
    duplicate: Duplicate = False,
    reference: Optional[bool] = typer.Option(None, "--reference/--no-reference", help="Add the "
                                             "reference rung atop the chain: clairvoyant (the top "
                                             "search on the true deal; not a fair player) in the "
                                             "top rung's seat, against the same rung below: what "
                                             "knowing the hidden cards is worth. Default: when "
                                             "the top rung is pimc."),
    resume: Optional[Path] = typer.Option(None, "--resume", parser=folder_option("--resume"), metavar="<path>",
                                          help="Finish the interrupted ladder whose runs are in this "
                                          "folder (its own rungs; only --jobs, --backend, --scheduler, "
                                          "--timeout, --out and --title apply)."),
):
    """Climb a chain of strategies of rising strength: each rung plays one seat against the
    rung below at every other seat, seats rotated; shows where more skill stops paying, whether
    the search has converged, and (reference rung) what seeing every card is worth."""
    import strategies as registry
    from simtool.analysis.ladder import convergence, reference_sentence, verdict
    from simtool.analysis.ladder import ladders as read_ladders
    from simtool.commands import ladder as ladders
    from simtool.pipeline.folders import load
    from simtool.reports import balance as reports

    folder = resume or runs_dir
    before = _plan_stamp(folder)  # a plan already there is not this command's to resume
    try:
        if resume:
            paths, output, title = _resume(ctx, "ladder", resume, LADDER_PLAN, jobs, backend, scheduler, timeout,
                                           quiet, output or _report_of(resume, "ladder"), title)
            (climbed,) = read_ladders(paths)
        else:
            chain = registry.split_lineup(rungs) if rungs is not None else None
            folder = runs_dir or _fresh(f"ladder-{games.get(game).id}")
            output = output or _report_of(folder, "ladder")
            with _progress(quiet) as bar:
                task = bar.add_task(f"ladder of {game}")
                climbed, paths = ladders.climb(
                    game, folder, players=_players(players, game), rules=options.parse_assignments(rule), n=n,
                    seed=seed, rungs=chain, unit=unit, jobs=jobs, force=force, backend=backend, scheduler=scheduler,
                    progress=lambda done, total: bar.update(task, completed=done, total=total),
                    report={"output": output, "title": title}, timeout=timeout, duplicate=duplicate,
                    reference=reference)
        written = reports.write(paths, output, title)
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise interrupted(_plan_kept(folder, before, resume, "finished chunks are kept: finish the ladder with "
                                                             f"simtool ladder --resume {pasted(folder)}")) from None
    if not quiet:
        out.print(_ladder_table(climbed, load(paths[0])[0]))
        for sentence in (verdict(climbed), convergence(climbed), reference_sentence(climbed)):
            if sentence:
                out.print(sentence, markup=False, highlight=False)
    verbatim(out, f"{_count(len(paths), 'rung run')} in {folder}; report {written}")


def _ladder_table(climbed, meta: dict) -> Table:
    from . import stats

    rules = ", ".join(f"{k}={v}" for k, v in options.named(games.get(meta["game"]), meta["rules"]).items())
    unit = "matches" if meta["unit"] == "match" else "deals"
    from simtool.analysis.ladder import gain_points, share_text

    # a ladder of whole matches duplicates matches: "200 matches per rung, ..., duplicate deals"
    how = f"duplicate {unit} (each once per rotation)" if meta.get("duplicate") else "seats rotated"
    t = Table(title=f"Skill ladder: {meta['game']} {meta['players']}p{', ' + rules if rules else ''}, "
                    f"{meta['n']:,} {unit} per rung, seed {meta['seed']}, {how}",
              title_justify="left")
    for col in ("rung", "strategy", "against", "win share per seat", "fair", "edge over fair (95%)", "pays"):
        t.add_column(col, justify="right")
    for r in climbed.rungs:
        t.add_row(str(r.rung), r.name, f"{climbed.players - 1} × {r.below}",
                  share_text(r), f"{100 * r.fair:.1f}%", gain_points(r), r.verdict)
    ref = climbed.reference
    if ref is not None:
        t.add_row("ref", f"{ref.name} (not fair)", f"{climbed.players - 1} × {ref.below}",
                  stats.fmt_share(ref.share, ref.low, ref.high), f"{100 * ref.fair:.1f}%", gain_points(ref),
                  "reference", end_section=False)
    return t


@app.command()
def restrict(
    ctx: typer.Context,
    game: Game = "kansas-city",
    strategy: Optional[str] = typer.Option(None, "--strategy", "-s", help="The strategy to restrict "
                                           "(parameters allowed; default: the game's default)."),
    restrictions: Optional[str] = typer.Option(None, "--restrictions", help="NAME,NAME,... "
                                               "(default: every restriction of the game; "
                                               "`simtool strategies --game G` lists them)."),
    players: Players = None,
    rule: Rules = [],
    n: N = "2e4",
    seed: Seed = None,
    jobs: Jobs = None,
    runs_dir: Optional[Path] = typer.Option(None, "--out", "-o", parser=folder_option("--out"), metavar="<path>",
                                            help="Folder for the run folders "
                                            "(default runs/restrict-<game>-<timestamp>)."),
    output: Optional[str] = typer.Option(None, "--report", callback=one_line_path("--report"),
                                         help="HTML report to write (default: none)."),
    title: Title = "simtool restricted play",
    force: Force = False,
    quiet: Quiet = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    timeout: Timeout = None,
    resume: Optional[Path] = typer.Option(None, "--resume", parser=folder_option("--resume"), metavar="<path>",
                                          help="Finish the interrupted restricted play whose runs are in "
                                          "this folder (its own strategy and restrictions; only --jobs, "
                                          "--backend, --scheduler, --timeout, --report and --title apply)."),
):
    """Measure what each restriction costs a strategy: restricted at one seat against itself
    unrestricted at that seat, on the same deals, seats rotated (Jaffe et al.'s restricted play)."""
    from simtool.analysis.restrict import THRESHOLDS_TEXT, sentence
    from simtool.commands import restrict as restricted
    from simtool.reports import balance as reports

    folder = resume or runs_dir
    before = _plan_stamp(folder)  # a plan already there is not this command's to resume
    try:
        if resume:
            paths, output, title = _resume(ctx, "restrict", resume, RESTRICT_PLAN, jobs, backend, scheduler,
                                           timeout, quiet, output, title)
            table = restricted.costs(paths)
        else:
            names = restrictions.split(",") if restrictions is not None else None
            folder = runs_dir or _fresh(f"restrict-{games.get(game).id}")
            with _progress(quiet) as bar:
                task = bar.add_task(f"restricted play of {game}")
                table, paths = restricted.measure(
                    game, folder, players=_players(players, game), rules=options.parse_assignments(rule),
                    n=n, seed=seed, strategy=strategy, restrictions=names, jobs=jobs, force=force,
                    backend=backend, scheduler=scheduler,
                    progress=lambda done, total: bar.update(task, completed=done, total=total),
                    report={"output": output, "title": title} if output else None, timeout=timeout)
        written = reports.write(paths, output, title) if output else None
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        again = f"simtool restrict --resume {pasted(folder)}"
        raise interrupted(_plan_kept(folder, before, resume, f"finished chunks are kept: finish the restricted "
                                                             f"play with {again}")) from None
    if not quiet:
        from simtool.pipeline.folders import read_meta

        title, shown = _restrict_table(table, read_meta(paths[0])["seed"])
        # above the table, never wrapped: as its title, wrapped to the table's width, the seed's
        # number fell to the next line ("seed\n3631165605384430999") for a script reading it
        verbatim(out, title)
        out.print(shown)
        for row in table.iter_rows(named=True):
            out.print(sentence(row), markup=False, highlight=False)
        out.print(THRESHOLDS_TEXT, markup=False, highlight=False)
    verbatim(out, f"{len(paths)} runs in {folder}" + (f"; report {written}" if written else ""))


def _restrict_table(table, seed: int) -> tuple[str, Table]:
    """The restricted-play table's title line and the table."""
    from simtool.analysis.restrict import fmt_cost, score_heading

    from . import stats

    first = table.row(0, named=True)
    title = (f"Restricted play: {first['game']} {first['players']}p{', ' + first['rules'] if first['rules'] else ''}, "
             f"{first['strategy']}, {first['deals']:,} paired deals, seed {seed}")
    t = Table()
    # headed in points as the review's tables are: cells of "0.5 pts" beside sentences of "0.5 points"
    for col in ("restriction", "win share cost (points)", score_heading(first["game"]), "deals changed", "verdict"):
        t.add_column(col, justify="right")
    for r in table.iter_rows(named=True):
        t.add_row(r["restriction"], fmt_cost(r["win_cost"], r["win_cost_low"], r["win_cost_high"]),
                  stats.fmt_mean(r["score_change"], r["score_change_low"], r["score_change_high"]),
                  f"{stats.percent(r['changed'])}%", r["verdict"])  # as the HTML report's pct
    return title, t


def _whole(text: str, what: str) -> int:
    try:
        count = options.read_whole(text)
    except ValueError:
        raise SimtoolError(f"bad --{what} {text.strip()!r}; expected whole numbers such as 4,5") from None
    if count > MOST_PLAYERS:  # named as written: `1e400` is one short line, its 401 digits were not
        raise SimtoolError(f"bad --{what} {text.strip()!r}; no game is for more than {MOST_PLAYERS} players")
    return count


@app.command("games")
def list_games():
    """List the games, their player counts and rule options."""
    t = Table(title="Games")
    # rows read "3, 0, 1, 2" and "sheet (3 at 4p, ...) or 1..14" as well as "2 (-10..10)": a header
    # of "default (valid values)" read the first two wrongly
    for col in ("game", "title", "players", "rule options: the default first, then the valid values",
                "default strategy"):
        t.add_column(col)
    for g in games.registry().values():
        rules = "\n".join(f"{o.name}: {o.describe()}" for o in g.options) or "none"
        players = ", ".join(f"[{p}]" if p == g.default_players else str(p) for p in g.players)
        t.add_row(g.id, g.title, players, rules, g.default_strategy)
    out.print(t)
    for problem in games.broken().values():
        out.print(f"not playable: {problem}", markup=False, highlight=False)


@app.command("strategies")
def list_strategies(game: Annotated[Optional[str], typer.Option("--game", "-g",
                                                                help="Only those for this game.")] = None,
                    fields: bool = typer.Option(False, "--fields",
                                                help="List the fields of the game's views instead.")):
    """List the strategies (built-in and installed) with one line each."""
    import strategies as registry

    try:
        if game is not None:
            found = games.get(game)
        elif fields:
            raise SimtoolError(f"--fields needs --game; valid: {', '.join(sorted(games.registry()))}")
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    if fields:
        from .engine import field_table

        t = Table(title=f"What a strategy's view holds in {game} (m = deals in the view, p = seats)")
        for col in ("field", "dtype", "meaning"):
            t.add_column(col)
        for row in field_table(found):
            t.add_row(*row)
        out.print(t)
        return
    t = Table(title="Strategies" + (f" for {game}" if game else ""))
    for col in ("strategy", "games", "description", "parameters (NAME@KEY=VALUE,...)"):
        t.add_column(col)
    for s in registry.registry(game).values():
        shown = s.name + ("\n(reference: NOT a fair player)" if s.name in registry.REFERENCES else "")
        t.add_row(shown, ", ".join(s.games) if s.games else "any", s.description,
                  "\n".join(p.describe() for p in s.params) or "none", end_section=True)
    for name, why in registry.broken().items():
        t.add_row(name, "?", f"broken: {why}", "?")
    out.print(t)
    limits = {g: rs for g, rs in registry.RESTRICTIONS.items() if (game is None or g == found.id) and rs}
    if limits:
        r = Table(title="Restrictions (STRATEGY~NAME; simtool restrict measures their cost)")
        for col in ("restriction", "game", "the restricted player"):
            r.add_column(col)
        for g, rs in limits.items():
            for x in rs:
                r.add_row(x.name, g, x.description)
        out.print(r)
    else:  # a designer's game: an empty table read as if its rows were lost
        out.print(f"Restrictions: none for {found.id if game is not None else 'any game'} (simtool restrict has "
                  f"nothing to measure)", markup=False, highlight=False)
    out.print("Plugins: --strategy path/to/file.py:NAME (see README). Parameters: "
              "--strategy target@under=1,mistakes=0.1. Restricted: --seat 0=target~no-upgrade",
              markup=False)


QUESTION_LABELS = {"pilot": "pricing the game's plays (counted, never timed)",
                   "seats": "seats: is the game fair to every seat?",
                   "skill": "skill: does the strongest play gain?", "luck": "luck: how much do the cards decide?",
                   "restrictions": "restricted play: does crude play do nearly as well?",
                   "match": "tension and match shape: whole matches", "writing the review": "writing the review"}
"""What the progress bar says while each question of a review is played."""


@app.command()
def review(
    game: Game,
    out_dir: Annotated[Path, typer.Option(
        "--out", "-o", parser=folder_option("--out"), metavar="<path>",
        help="Folder for review.html, review.json and the runs.")],
    players: Players = None,
    rule: Rules = [],
    effort: Optional[str] = typer.Option(None, "--effort", help="quick (about a minute on 2 cores, the "
                                         "default), standard (about five) or thorough (about half an "
                                         "hour); with --baseline, the baseline's unless given."),
    vs_rule: list[str] = typer.Option([], "--vs-rule", help="Also review the rules with this change "
                                      "(name=value, repeatable), one seed: the same deals unless the change "
                                      "deals other cards (a deck size); and show what changes."),
    # a blank one was the working folder (an unset "$BASE"), compared with if it held a review
    baseline: Optional[Path] = typer.Option(None, "--baseline", parser=folder_option("--baseline"),
                                            metavar="<path>", help="The folder of an earlier review "
                                            "to compare with."),
    seed: Seed = None,
    jobs: Jobs = None,
    quiet: Quiet = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
):
    """Answer a designer's questions in words: seat fairness, skill, luck, tension, hazards,
    crude play and match shape, each with a verdict, a sentence and its 95% interval."""
    from simtool.commands import review as reviews

    try:
        with _progress(quiet) as bar:
            task = bar.add_task(QUESTION_LABELS["pilot"], total=None)

            def shown(question: str, done: int, total: int) -> None:
                bar.update(task, description=QUESTION_LABELS.get(question, question), completed=done,
                           total=total or None)

            result = reviews.review(
                game, out_dir, players=_players(players, game), rules=options.parse_assignments(rule),
                effort=effort, vs_rules=options.parse_assignments(vs_rule, "vs-rule") if vs_rule else None,
                baseline=baseline, seed=seed, jobs=jobs, progress=shown, backend=backend, scheduler=scheduler)
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:  # stopped in its pilot, before runs/: it said chunks were kept there
        raise interrupted(f"finished chunks are kept in {out_dir}/runs: run the same simtool review "
                          f"again to go on" if (out_dir / "runs").is_dir() else None) from None
    if not quiet:  # the seed it chose, where --seed was left out, plays it again
        out.print(f"review: {result['game']} {result['players']}p, seed {result['seed']}", markup=False,
                  highlight=False)
        for line in reviews.summary_lines(result):
            verbatim(out, line)
    verbatim(out, f"review {out_dir / 'review.html'} and {out_dir / 'review.json'}")
    _FINISHED.append(True)


REPLAY_READS = {"seed": "--seed", "game": "--game", "n": "--n", "players": "--players", "strategy": "--strategy",
                "seat": "--seat", "rule": "--rule", "rotate": "--rotate", "duplicate": "--duplicate",
                "precision": "--precision"}
"""The settings of ``simtool replay`` that ``--run`` reads from the run folder instead."""


@app.command()
def replay(
    ctx: typer.Context,
    run_dir: Optional[Path] = typer.Option(None, "--run", parser=folder_option("--run"), metavar="<path>",
                                           help="The run folder, whose own settings it replays with (run.json, "
                                           "or an unfinished run's chunks/spec.json): give only --deal or "
                                           "--match with it."),
    seed: Optional[str] = typer.Option(None, "--seed", metavar="<int>", callback=checked("--seed", SEED),
                                       help="The run's seed (without --run)."),
    game: Game = "black-white",
    deal: Optional[str] = typer.Option(None, "--deal", metavar="INTEGER", callback=checked("--deal", WHOLE),
                                       help="Deal number to write out."),
    match: Optional[str] = typer.Option(None, "--match", metavar="INTEGER", callback=checked("--match", WHOLE),
                                        help="Match number (whole matches)."),
    n: Optional[str] = typer.Option(None, "--n", "-n",
                                    help="The run's n (default: one that ends after this deal's chunk)."),
    players: Players = None,
    strategy: Strategy = None,
    seat: Seats = [],
    rule: Rules = [],
    rotate: Rotate = False,
    duplicate: Duplicate = False,
    precision: Optional[str] = typer.Option(None, "--precision", metavar="<float>",
                                            callback=_precision,
                                            help="The run's --precision: its chunks were cut for "
                                            f"its cap (--n, default {PRECISION_CAP}), not the deals it kept."),
):
    """Write out one deal (or match) of a run play by play, with its results (of a duplicate run:
    the play of the first copy, the results of all)."""
    try:
        if (deal is None) == (match is None):
            raise SimtoolError("give exactly one of --deal N or --match N")
        number = deal if deal is not None else match
        unit = "deal" if deal is not None else "match"
        if not 0 <= number < MAX_COUNT:
            # quoted short: --deal 1e400 was quoted in its 401 digits
            raise SimtoolError(f"bad --{unit} {shown(number)}; expected a {unit} number 0 to {MAX_COUNT - 1}")
        if run_dir is not None:
            if given := flags_given(ctx, REPLAY_READS):  # the folder's value or the flag's: never guessed
                raise SimtoolError(f"--run {run_dir} replays with the run's own settings, which its folder holds; "
                                   f"drop {', '.join(given)}")
            from simtool.commands.replay import replay_run

            lines = replay_run(run_dir, unit, number)
        else:
            lines = _replayed(seed, game, unit, number, n, players, strategy, seat, rule, rotate, duplicate,
                              precision)
    except SimtoolError as exc:
        raise fail(str(exc)) from None
    verbatim(out, "\n".join(lines))


def _replayed(seed, game, unit, number, n, players, strategy, seat, rule, rotate, duplicate, precision) -> list[str]:
    """``simtool replay`` of a run given by its settings, typed again."""
    if seed is None:
        raise SimtoolError("give --run DIR (a run folder), or the run's --seed S and its other settings")
    if duplicate and unit == "match" and games.get(game).deal_reads_match:
        # make_spec's refusal named --unit deal, which replay has not
        raise SimtoolError(f"{games.get(game).id} deals each round from the match so far, so the copies of a "
                           f"duplicate match cannot get the same cards; a duplicate run of it plays "
                           f"single deals: give --deal N instead of --match")
    rotated_alone(rotate, duplicate)  # no run plays both: it replayed one --duplicate alone without a word
    if n is not None:  # -n '' was taken for no --n and played as a run of one deal
        parse_count(n)
    if precision is not None and n is None:
        # as `simtool run --precision` plays: the run.json's n (the deals kept, 1024) cut chunk 0
        # to 1024 deals, which drew other cards than the run's whole first chunk did
        n = PRECISION_CAP
    spec = make_spec(game, _players(players, game), n or 1, strategy, lineup_args(seat),
                     options.parse_assignments(rule), unit, seed, rotate, precision, duplicate=duplicate)
    if n is None:  # a chunk's deals depend on its size: the whole chunk holding this deal
        spec = dataclasses.replace(spec, n=min((number // spec.chunk + 1) * spec.chunk, MAX_COUNT))
    lines = replay_deal(spec, number)
    if n is None:  # a run of fewer deals cut this chunk short: other deals, silently, unless said
        lines.insert(1, f"as a run of --n {spec.n} or more played it (a run of fewer played other deals: "
                        f"give its --n)")
    return lines


_FINISHED = []
"""Set by a command whose every file is written, closed and renamed into place: the process
may end without tearing down its modules."""


def main(argv: list[str] | None = None) -> int:
    """Entry point: usage errors become one line and exit status 2, as our own errors do."""
    _replace_what_cannot_be_shown()
    if (closed := _output_closed(sys.argv[1:] if argv is None else argv)) is not None:
        return said(closed)
    if argv is None:  # the installed command's own descriptors (a caller's are its own)
        _results_apart()
    code = _main(argv)
    try:  # what is left in the buffer: a reader gone (`| head -1`) is no failure of the command
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _discard(sys.stdout)
    except OSError as exc:  # disk full (`> /dev/full`): a traceback and exit status 120 at the end
        _discard(sys.stdout)
        if code == 0:  # not yet said (a failure the command met itself is already its one line)
            code = said(os_problem(exc))
    if argv is None and _FINISHED:  # the installed command, not a caller in this process
        # a normal teardown (modules, polars' and numpy's threads) took 0.2 to 0.5 s after the
        # results were on disk
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None: started with the stream closed (`>&-`)
                stream.flush()
        os._exit(code)
    return code


READ_ONLY = ("games", "strategies", "replay")
"""The commands whose one product is what they print (``--help`` and ``--version`` too)."""


def _output_closed(args: list[str]) -> str | None:
    """Why a command that only prints cannot run, started with standard output closed (``>&-``):
    ``simtool games >&-`` printed nowhere and exited 0. A command that writes files (``run``) still
    runs: its results are on disk."""
    if sys.stdout is not None:
        return None
    words = [a for a in args if not a.startswith("-")]
    if not args or "--help" in args or "--version" in args or (words and words[0] in READ_ONLY):
        what = " ".join(["simtool", *words[:1], *[a for a in args if a in ("--help", "--version")][:1]])
        return f"standard output is closed, so what `{what}` prints would be lost; run it with its output open"
    return None


def _replace_what_cannot_be_shown() -> None:
    """A terminal whose encoding lacks a character of a table (``±``, rich's box lines) or of a
    name shows ``?`` for it: a strict stream raised UnicodeEncodeError, a traceback after the
    results were written (``PYTHONIOENCODING=ascii``, a Latin-1 or code-page console)."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) in ("strict", "surrogateescape") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def _results_apart() -> None:
    """What the command prints on a descriptor of its own, and descriptor 1 pointed at standard
    error: a plugin's output below Python's ``sys.stdout`` (``os.write(1, ...)``, C code, a program
    it starts) came out among what the command prints (``simtool run -q``: its folder alone, for
    scripts to read); a ``print`` already goes to standard error (``engine._Aside``)."""
    stream = sys.stdout
    try:
        if stream is None or stream.fileno() != 1:
            return
        os.fstat(2)  # started with standard error closed: left as it is
        stream.flush()
        kept = os.dup(1)  # not inherited: a program a plugin starts gets descriptor 1, the errors
    except (AttributeError, OSError, ValueError):  # no descriptor (a stream a caller replaced)
        return
    os.dup2(2, 1)
    # buffered as Python buffered it: under ``python -u`` or PYTHONUNBUFFERED each line went out as
    # printed, in its place among standard error's lines (a block buffer held it back to the end)
    unbuffered = stream.write_through
    sys.stdout = io.TextIOWrapper(open(kept, "wb", buffering=0 if unbuffered else -1),  # noqa: SIM115 - for the whole command
                                  encoding=stream.encoding, errors=stream.errors,
                                  line_buffering=stream.line_buffering, write_through=unbuffered)


_terminated = interrupt
"""The handler of SIGTERM, and of Ctrl-C, while a command runs: KeyboardInterrupt, remembered."""


def _main(argv: list[str] | None) -> int:
    # SIGTERM (`kill`, `timeout`, a batch system's stop) is taken as Ctrl-C: the finished chunks
    # kept, one line saying how to go on (it ended the process silently, exit status -15)
    # A SIGTERM its parent ignores (nohup-like launchers) stays ignored; a handler set outside
    # Python (getsignal: None) cannot be put back, so it is left alone too. Ctrl-C's own handler
    # is replaced only where it is Python's: both are remembered (errors.interrupt), so that one
    # a finalizer swallowed still stops the run.
    main_thread = threading.current_thread() is threading.main_thread()
    own = main_thread and signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, None)
    own_int = main_thread and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    before = signal.signal(signal.SIGTERM, _terminated) if own else None
    before_int = signal.signal(signal.SIGINT, _terminated) if own_int else None
    forget_interrupt()
    unraisable = sys.unraisablehook
    sys.unraisablehook = quiet_interrupts(unraisable)
    returned = False
    try:
        code = _command(argv)
        returned = True
        return code
    finally:  # the end of the command, whichever way it ended, is the end of its dask cluster
        late = _put_back([(signal.SIGTERM, before)] * own + [(signal.SIGINT, before_int)] * own_int)
        sys.unraisablehook = unraisable
        forget_interrupt()
        cluster = sys.modules.get("simtool.pipeline.cluster")
        if cluster is not None:  # never imported: no cluster was started
            # the installed command with its results written ends in os._exit next (main)
            cluster.close_embedded(exiting=returned and argv is None and bool(_FINISHED) and late is None)
        if late is not None:
            raise late


def _put_back(handlers: list) -> KeyboardInterrupt | None:
    """Put back each ``(signal, handler)`` however many Ctrl-Cs come meanwhile, and return the
    last one's KeyboardInterrupt: a second Ctrl-C as a command ended left its handler installed
    and the interrupt remembered, and the next run in this process stopped at its first chunk."""
    late = None
    for signum, handler in handlers:
        while True:
            try:
                signal.signal(signum, handler)
                break
            except KeyboardInterrupt as exc:
                late = exc
    return late


POLARS_THREADS_MAX = 1024
"""The most threads ``POLARS_MAX_THREADS`` may ask polars for: 5,000 kept a run of 500 deals
going for over a minute on 2 cores (1,024: 3 s, unset: 0.4 s)."""


def _polars_threads() -> None:
    """Refuse a ``POLARS_MAX_THREADS`` that polars cannot use, before anything reads it: ``0``
    made polars panic as a run made its first table (a Rust backtrace, exit status 1, no
    result), ``-1`` or ``abc`` printed polars' "illegal value" warning among the results, and a
    count in the thousands made a run of a second last minutes."""
    value = os.environ.get("POLARS_MAX_THREADS")
    if value is None:
        return
    if re.fullmatch(r"\s*\+?[0-9]+\s*", value) is None or not 1 <= int(value) <= POLARS_THREADS_MAX:
        raise bad("POLARS_MAX_THREADS", value, f"a whole number of threads from 1 to {POLARS_THREADS_MAX}, or "
                  f"leave it unset (polars then takes one per core)", " in the environment")


def _command(argv: list[str] | None) -> int:
    _SAID.clear()
    try:
        _polars_threads()
        with warnings.catch_warnings():  # each command says what it plays (its own registry of warnings)
            warnings.simplefilter("default", ShadowedWarning)
            shown_before = warnings.showwarning
            warnings.showwarning = lambda message, category, *rest: _warn(message, category, shown_before, *rest)
            code = app(args=argv, prog_name="simtool", standalone_mode=False)
    except typer.Exit as done:
        return done.exit_code
    except (typer.TyperException, SimtoolError) as exc:  # click's usage errors, and ours
        message = _usage(exc) if isinstance(exc, typer.TyperException) else str(exc)
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare simtool: the command list, exit 0
            try:
                verbatim(out, command_list(typer.main.get_command(app)))
            except BrokenPipeError:  # `| head -1`, as for the listings
                _discard(sys.stdout)
            except OSError as failed:  # `> /dev/full`: raised from this handler, a traceback
                return said(os_problem(failed))
            return 0
        return said(message)
    except (KeyboardInterrupt, typer.Abort):
        err.print(f"interrupted; {NOTHING_KEPT}", markup=False)
        return 130
    except SystemExit as exc:  # click ends with status 1 on a pipe's EPIPE (printing help, say)
        pipe = exc.__context__
        if not (isinstance(pipe, OSError) and pipe.errno == errno.EPIPE and _reader_gone(sys.stdout)):
            raise
        # the reader of a listing or help has gone (`| head -1`): quietly done, as Unix tools end
        _discard(sys.stdout)
        return 0
    except OSError as exc:  # a path the system refuses where no command looked for it first
        return said(os_problem(exc))
    except RuntimeError as exc:  # pathlib's resolve() before Python 3.13: links that point in a circle
        if not str(exc).startswith("Symlink loop from "):
            raise
        return said(f"{str(exc).replace('Symlink loop from', 'symbolic links loop from')}; a path must lead to a "
                    f"file or folder")
    except MemoryError as exc:  # outside a run's play (see api.out_of_memory): nothing to keep
        verbatim(err, f"error: out of memory ({describe(exc)}); run with fewer --jobs, or give "
                      f"simtool more memory")
        return 2
    if code == 130 and not _SAID:  # Ctrl-C where no command said it (replay, report): typer's
        err.print(f"interrupted; {NOTHING_KEPT}", markup=False)  # exit status alone, silent
    return code if isinstance(code, int) else 0


def _warn(message, category, shown_before, *rest) -> None:
    """A :class:`ShadowedWarning` as one line on standard error (Python's own shows the line of
    code that warned); any other warning as Python shows it."""
    if issubclass(category, ShadowedWarning):
        verbatim(err, f"warning: {one_line(str(message))}")
    else:
        shown_before(message, category, *rest)


def os_problem(exc: OSError) -> str:
    """What the system refused, in a line: its reason and the path (cut to 60 characters), and
    for a name too long, what to do."""
    where = f" ({shown(exc.filename)})" if exc.filename is not None else ""
    hint = "; choose a shorter path (a file or folder name takes at most 255 bytes)" \
        if exc.errno == errno.ENAMETOOLONG else ""
    return f"{exc.strerror or describe(exc)}{where}{hint}"


def _usage(exc: typer.TyperException) -> str:
    """The framework's message, completed with the valid choices it leaves out."""
    message = " ".join(exc.format_message().split())
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return message
    command = ctx.command
    # "Missing command": `simtool --` (or `simtool -q`'s like) named none of them
    if message.startswith(("No such command", "Missing command")) and hasattr(command, "list_commands"):
        return f"{message} valid: {choices(sorted(command.list_commands(ctx)))}"
    if message.startswith("No such option"):
        names = sorted(o for p in command.get_params(ctx) for o in getattr(p, "opts", ())
                       if o.startswith("--"))
        return f"{exc.message}; valid: {choices(names)}"
    return message


for _signum, _handler in _LOADING:  # loaded: the command's own handlers from here (_main)
    signal.signal(_signum, _handler)

if __name__ == "__main__":
    sys.exit(main())
