"""What simtool reads from a game's results beyond scores and win shares: the game's rates (with
their plain words for report sentences) and its own tables.

Game modules hold the rules only; each names its analysis module (``Game.analysis``, a dotted
module path holding ``ANALYSIS``), imported when results are summarised, so that playing deals
never imports polars or the statistics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from simtool.errors import SimtoolError, by_the_user, describe, thrown


def no_tables(seats, keys: list[str], matches=None, rules: dict | None = None) -> list:
    return []


@dataclass(frozen=True)
class Analysis:
    rates: dict[str, Any] = field(default_factory=dict)
    """Summary rates per seat: name -> polars boolean expression over the seat rows."""
    rate_text: dict[str, str] = field(default_factory=dict)
    """Each rate in plain words, completing "a seat ...", for report sentences."""
    risks: tuple[str, ...] = ()
    """The rates that are risks to a seat (an overshoot, a penalty): fewer is better, as
    ``simtool review`` judges a change of rules; the other rates have no better side."""
    shared: tuple[str, ...] = ()
    """The rates that exactly one seat has in every deal (Hearts' queen of spades: someone takes
    it): pooled over every seat of a deal they are 1/p by rule whatever the play, so each seat's
    rate is the figure (the most exposed seat's for a verdict), never the pooled one."""
    stopped: tuple[str, ...] = ()
    """Match columns that are true where a guard other than the round cap stopped a match before
    the game's end (Nine Lives' ``small_deck``): such a match has no length to the end
    (:func:`simtool.analysis.lengths.to_the_end`)."""
    tables: Callable[..., list] = no_tables
    """``tables(seats, keys, matches=None, rules=None)``: game-specific summary tables
    ``(title, polars DataFrame)`` from the lazy seat rows (and match rows with ``--unit match``);
    ``keys`` name the columns that identify one deal (``deal``, or ``match`` and ``round``);
    ``rules`` are the run's rule options."""


NONE = Analysis()


def of(game) -> Analysis:
    """The analysis of ``game``: its ``analysis`` attribute, an :class:`Analysis` or the dotted
    path of a module holding ``ANALYSIS`` (none for a game that names no analysis)."""
    found = getattr(game, "analysis", None)
    if isinstance(found, Analysis) or found is None:
        return _readable(game, found or NONE)
    try:
        analysis = import_module(found).ANALYSIS
        if not isinstance(analysis, Analysis):
            raise TypeError(f"its ANALYSIS is a {type(analysis).__name__}, not a simtool.analysis.Analysis")
    # after the run is written: one line, not a traceback under its summary; SystemExit at its
    # import too (the command ended without a word) and its own KeyboardInterrupt (read as Ctrl-C)
    except BaseException as exc:  # noqa: BLE001 - the game's module: its one line
        if isinstance(exc, KeyboardInterrupt) and by_the_user():
            raise
        raise SimtoolError(f"game '{game.id}' names analysis = {found!r}, which cannot be read: {describe(exc)} "
                           f"(the dotted path of a module holding ANALYSIS, an Analysis, or None)") from exc
    return _readable(game, analysis)


SUMMARY_COLUMNS = frozenset({"seat", "strategy", "n", "tricks", "matches", "rounds", "capped",
                             *(f"{figure}{end}" for figure in ("score", "win", "total", "match_win")
                               for end in ("", "_low", "_high"))})
"""The columns of a run's summary (:func:`simtool.analysis.summary.seat_summary`) beside the
rates': a rate takes its name and the name with ``_low`` and ``_high``."""


TAKEN_TITLES = frozenset({"By seat and strategy", "By strategy (seats pooled)",
                          "Strategy strength (win share per seat held)", "Seat advantage (deals)",
                          "Seat advantage (matches)", "Rates by seat (deals)", "Rates by seat (rounds)"})
"""The titles of the tables simtool makes beside a game's own, by title in ``Result.tables()``
and the report's frames (:attr:`simtool.reports.balance.Analysis.frames`); only these collide:
"Seat advantage (bids made)" is a title of the game's own."""


def game_tables(game, seats, keys: list[str], matches=None, rules: dict | None = None) -> list:
    """The game's own tables (:attr:`Analysis.tables`), once each title is its own: the tables
    are read by title, and a title given twice, or one of simtool's, replaced the other table
    without a word."""
    import polars as pl

    analysis = of(game)
    try:
        made = analysis.tables(seats, keys, matches, rules)
    except SimtoolError:
        raise
    except BaseException as exc:  # noqa: BLE001 - even SystemExit: the command ended without a word
        # simtool's own games keep their traceback (a bug report), as the machine's memory and Ctrl-C do
        if type(game).__module__.startswith("simtool.") or isinstance(exc, MemoryError) and not thrown(exc) \
                or isinstance(exc, KeyboardInterrupt) and by_the_user():
            raise
        raise SimtoolError(f"game '{game.id}' ({type(game).__module__}): its analysis' tables raised "
                           f"{describe(exc)}") from exc
    made = list(made) if isinstance(made, Iterator) else made
    # None or a dict of tables ended in "TypeError: 'NoneType' object is not iterable" or a
    # ValueError unpacking a title; a lazy or pandas frame reached the tables and the report as it was
    if not (isinstance(made, list | tuple) and all(isinstance(m, tuple | list) and len(m) == 2 for m in made)):
        raise SimtoolError(f"game '{game.id}' made its tables as a {type(made).__name__}: its analysis' tables "
                           f"returns a list of (title, polars DataFrame) pairs")
    if (odd := next(((t, f) for t, f in made if not isinstance(f, pl.DataFrame)), None)) is not None:
        kind = f"{type(odd[1]).__module__.partition('.')[0]} {type(odd[1]).__name__}"
        raise SimtoolError(f"game '{game.id}' made its table {odd[0]!r} as a {kind}: a table is a polars DataFrame "
                           f"(.collect() a lazy one)")
    titles = [title for title, _ in made]
    for title in titles:
        if not (isinstance(title, str) and title.strip()):  # it was said to be "a title simtool's tables take"
            raise SimtoolError(f"game '{game.id}' made a table titled {title!r}: a table's title is text, "
                               f"such as 'Banks'")
        if titles.count(title) > 1 or title in TAKEN_TITLES:
            raise SimtoolError(f"game '{game.id}' made a table titled {title!r}, "
                               + ("which it made twice" if titles.count(title) > 1 else "a title simtool's tables take")
                               + ": give each of its tables a title of its own")
    return made


def _readable(game, analysis: Analysis) -> Analysis:
    """``analysis``, once each of its rates reads only columns the game's results hold; one line
    naming the rate otherwise (a column the game returns but never declared: polars'
    ColumnNotFoundError, a traceback after the run was written, or in the middle of a
    ``--precision`` run)."""
    from simtool.games import ENGINE_COLUMNS

    if not isinstance(analysis.rates, dict):  # a list threw the run away in a worker's AttributeError
        raise SimtoolError(f"game '{game.id}' declares its analysis' rates as a {type(analysis.rates).__name__}: they "
                           f"must be a dict of rate names and polars expressions, such as {{'moon': pl.col('moon')}}")
    for kind, names, of_what in (("risks", analysis.risks, analysis.rates), ("shared", analysis.shared, analysis.rates),
                                 ("stopped", analysis.stopped, dict(game.match_columns))):
        if not isinstance(names, tuple | list | set | frozenset) or any(name not in of_what for name in names):
            # read with `in`: shared = "queen" (the comma forgotten) held 'que' too, and a misspelt
            # name named nothing, the rate it meant read as one no seat has every deal; a set is
            # read alike, as every reader only asks `in` or unpacks the names
            what = "match columns" if kind == "stopped" else "rates"
            raise SimtoolError(f"game '{game.id}' declares {kind} = {names!r} in its analysis: it must be a tuple of "
                               f"its {what} (now: {', '.join(map(repr, of_what)) or 'none'})")
    words = analysis.rate_text
    if not (isinstance(words, dict) and all(isinstance(text, str) for text in words.values())):
        # a list or None ended the report in AttributeError: 'list' object has no attribute 'get'
        raise SimtoolError(f"game '{game.id}' declares rate_text = {words!r:.80} in its analysis: it must be a dict "
                           f"of its rates' names and their words, such as {{'moon': 'shoots the moon'}}")
    import polars as pl  # as the results are summarised, never as deals are played

    held = {*ENGINE_COLUMNS, *dict(game.columns)}
    for name, rate in analysis.rates.items():
        if not isinstance(rate, pl.Expr):  # a string or a function: AttributeError under the summary
            raise SimtoolError(f"game '{game.id}' has a rate '{name}' that is a {type(rate).__name__}, not a polars "
                               f"expression: give it as one over the seat rows, such as pl.col('banks') > 0")
        if not (isinstance(name, str) and name.strip()):
            raise SimtoolError(f"game '{game.id}' has a rate named {name!r}: a rate's name is text, such as 'moon'")
        if {name, f"{name}_low", f"{name}_high"} & SUMMARY_COLUMNS:
            # the summary holds each rate beside its own columns: 'score' ended it in polars'
            # DuplicateError, and 'total' showed the rate as the match total without a word
            raise SimtoolError(f"game '{game.id}' has a rate named {name!r}, a name the summary's columns "
                               f"take ({', '.join(sorted(SUMMARY_COLUMNS))}): give it another")
        missing = sorted(set(rate.meta.root_names()) - held)
        if missing:
            raise SimtoolError(f"game '{game.id}' has a rate '{name}' reading {', '.join(map(repr, missing))}, "
                               f"not a column of its results: declare it in the game's columns (now: "
                               f"{', '.join(dict(game.columns)) or 'none'})")
    return analysis
