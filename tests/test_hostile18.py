"""Hostile round 18: a designer's own game module and the Python API of notebooks. Each test
failed on the code before its fix."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import polars as pl
import pytest

import simtool
import simtool.games
from simtool import bits
from simtool.analysis import Analysis
from simtool.analysis import of as analysis_of
from simtool.engine import Decision, Game, RoundState
from simtool.errors import SimtoolError
from simtool.options import Option, number
from tests.toy_game import Climb


@dataclass
class Picks(RoundState):
    p: int
    picks: np.ndarray

    @property
    def n(self):
        return self.picks.shape[0]


class Many(Game):
    """Every seat at once picks 0 or 1 and scores its pick: a game for any number of seats."""

    id = "many"
    title = "Many seats"
    sheet = "tests/test_hostile18.py"
    players = (2, 128)
    default_players = 2
    n_actions = 2

    def deal(self, rng, match, rnd):
        return Picks(match.p, np.zeros((match.n, match.p), np.int16))

    def play(self, s):
        s.picks[:] = yield Decision("pick", None, np.full((s.n, s.p), bits.of((0, 1)), np.uint64))
        return {"score": s.picks.copy(), "tricks": np.zeros((s.n, s.p), np.int8)}

    def match_over(self, match, rnd):
        return np.full(match.n, rnd >= 1)

    def invariants(self, s):
        return {}


def test_a_game_of_more_seats_than_the_tables_number_is_refused_as_it_loads(monkeypatch):
    # before: players = (2, 130) loaded, and a 130-player run stored seats 128 and 129 as -128 and
    # -127 (int8) in its tables, its summary listing seat -128, without a word
    class TooMany(Many):
        players = (2, 130)

    assert simtool.games.declaration_problem(TooMany()) == (
        "game 'many' declares players = (2, 130): the tables hold seats 0..127, so 128 players at most")
    game = Many()
    assert simtool.games.declaration_problem(game) is None
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    monkeypatch.setitem(simtool.games._BY_ID, "many", game)
    seats = simtool.run("many", n=2, players=128, strategy="random", seed=1, jobs=1).seats
    assert seats["seat"].to_list() == list(range(128)) * 2


@pytest.mark.parametrize("values,says", [
    # before: it loaded and played, and its run.json recorded lay = [1, 2]: the finished run's
    # report, metrics and resume refused it ("bad rule lay [1, 2] for climb; expected one of (1, 2), (3, 4)")
    (((1, 2), (3, 4)), "with the value (1, 2) (tuple)"),
    # before: run.json recorded the rule as the text '3', not the number played
    ((np.int64(3), np.int64(2)), "with the value np.int64(3) (int64)"),
])
def test_a_rule_value_a_runs_record_cannot_read_back_is_refused_as_the_game_loads(values, says):
    class Odd(Climb):
        options = (Option("lay", values, "a value JSON does not give back"),)

    assert simtool.games.declaration_problem(Odd()) == (
        f"game 'climb' declares rule option 'lay' {says}: a run records its rules as JSON; give text, "
        f"a number, True, False or None")


def test_rule_values_a_record_reads_back_still_load():
    class Plain(Climb):
        options = (Option("lay", ("a", 2, 0.5, True, None), "values JSON gives back"),)

    assert simtool.games.declaration_problem(Plain()) is None


def test_a_column_wider_than_the_tables_hold_is_refused_as_the_game_loads(monkeypatch):
    # before: columns = {"banks": np.longdouble} loaded, and the run stopped at its first chunk in
    # polars' "InvalidOperationError: casting from Int16 to FixedSizeBinary(8) not supported"
    class Wide(Climb):
        columns = {"banks": np.longdouble}

    if np.dtype(np.longdouble).itemsize <= 8:
        pytest.skip("numpy's longdouble is 64 bits on this machine")
    assert simtool.games.declaration_problem(Wide()) == (
        "game 'climb' declares column 'banks' of type <class 'numpy.longdouble'>: a column holds numbers or "
        "booleans, of 64 bits at most")
    assert simtool.games.declaration_problem(Climb()) is None


@pytest.mark.parametrize("default", [3.0, np.int64(3)])
def test_a_default_player_count_that_is_no_int_is_refused_as_the_game_loads(default):
    # before: 3.0 and numpy's 3 equal the count 3 and loaded; 3.0 stopped every run in "TypeError:
    # can't multiply sequence by non-int of type 'float'", and numpy's 3 was recorded in run.json as
    # '3': the finished run could not be read back ("'players' is '3', not a whole number")
    class Odd(Climb):
        default_players = default

    assert simtool.games.declaration_problem(Odd()) == (
        f"game 'climb' declares default_players = {default!r} ({type(default).__name__}): give it as a Python "
        f"int, one of its players (2, 3, 4)")


@pytest.mark.parametrize("default,gives", [
    # before: loaded; the default run played 5.0 and --rule goal=5 played 5, two rules alike
    (5.0, "--rule goal=5.0 gives 5 (int)"),
    # before: loaded; run.json recorded the default as the text '5'
    (np.int64(5), "--rule goal=5 gives 5 (int)"),
])
def test_a_whole_number_option_whose_default_is_no_int_is_refused_as_the_game_loads(default, gives):
    class Odd(Climb):
        options = (*Climb.options, number("goal", default, 1, 10, "a whole number"))

    assert simtool.games.declaration_problem(Odd()) == (
        f"game 'climb' declares rule option 'goal' with the default {default!r} ({type(default).__name__}): "
        f"{gives}; declare that")


@pytest.mark.parametrize("name", ["", " ", 1])
def test_a_column_without_a_name_is_refused_as_the_game_loads(name):
    # before: columns = {"": np.int8} loaded and played, its run folder written; then metrics,
    # report and resume took the finished run for a damaged one ("seats.parquet has no '' column;
    # the table is damaged, not this game's, ...: run it again")
    class Unnamed(Climb):
        columns = {"banks": np.int8, name: np.int8}

    assert simtool.games.declaration_problem(Unnamed()) == (
        f"game 'climb' declares a column {name!r} in columns: a column's name is text, such as 'banks'")


@pytest.mark.parametrize("name", ["total", "score", "match_win_low", "n"])
def test_a_rate_named_as_a_summary_column_is_refused_not_shown_in_its_place(name, monkeypatch):
    # before: a rate named 'total' took the summary's 'total' column (0.06, its share of seats that
    # banked, shown as the mean match total; the total moved to 'total_right'); 'score' and 'n'
    # ended summary() in polars' DuplicateError
    class Named(Climb):
        analysis = Analysis(rates={name: pl.col("banks") > 0})

    game = Named()
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    monkeypatch.setitem(simtool.games._BY_ID, "climb", game)
    result = simtool.run("climb", n=20, unit="match", strategy="random", seed=1, jobs=1)
    with pytest.raises(SimtoolError, match=rf"^game 'climb' has a rate named '{name}', a name the summary's "
                                           r"columns take \(capped, match_win, .*\): give it another$"):
        result.summary()


def test_a_rate_with_a_name_of_its_own_is_summarised():
    summary = simtool.run("hearts", n=20, strategy="random", seed=1, jobs=1).summary()
    assert {"moon", "moon_low", "moon_high", "queen"} <= set(summary.columns)


def titled_run(monkeypatch, titles):
    """A 20-deal run of the toy game whose own tables are titled ``titles``, each the row count."""
    class Titled(Climb):
        analysis = Analysis(tables=lambda seats, keys, matches=None, rules=None:
                            [(title, seats.select(pl.len()).collect()) for title in titles])

    game = Titled()
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    monkeypatch.setitem(simtool.games._BY_ID, "climb", game)
    return simtool.run("climb", n=20, strategy="random", seed=1, jobs=1)


@pytest.mark.parametrize("titles,says", [
    # before: Result.tables()["By seat and strategy"] was the game's table, simtool's summary gone
    (("By seat and strategy",), "a title simtool's tables take"),
    (("Seat advantage (deals)",), "a title simtool's tables take"),  # the report's, likewise
    # before: the first 'Banks' table was dropped without a word
    (("Banks", "Banks"), "which it made twice"),
])
def test_a_game_table_titled_as_another_is_refused_not_put_in_its_place(titles, says, monkeypatch):
    result = titled_run(monkeypatch, titles)
    with pytest.raises(SimtoolError) as raised:
        result.tables()
    assert str(raised.value) == (f"game 'climb' made a table titled {titles[0]!r}, {says}: give each of its "
                                 f"tables a title of its own")


@pytest.mark.parametrize("kind,names,says", [
    # before: read with `in`, "banked" (the comma forgotten) held the rate 'bank' too
    ("shared", "banked", "shared = 'banked' in its analysis: it must be a tuple of its rates (now: 'banked', 'bank')"),
    # before: a misspelt name was no rate, and the rate it meant was pooled over the seats (1/p by
    # rule for a shared one: read balanced whatever the play)
    ("shared", ("banekd",), "shared = ('banekd',) in its analysis"),
    ("risks", ("banekd",), "risks = ('banekd',) in its analysis"),
    ("stopped", ("banked",), "stopped = ('banked',) in its analysis: it must be a tuple of its match columns "
                             "(now: none)"),
])
def test_an_analysis_naming_what_the_game_has_not_is_refused(kind, names, says):
    class Named(Climb):
        analysis = Analysis(rates={"banked": pl.col("banks") > 0, "bank": pl.col("banks") > 1}, **{kind: names})

    says_first = re.escape(f"game 'climb' declares {kind} = {names!r} in its analysis")
    with pytest.raises(SimtoolError, match=says_first) as raised:
        analysis_of(Named())
    assert says in str(raised.value)


@pytest.mark.parametrize("rate,kind", [("banks > 0", "str"), (lambda seats: seats, "function")])
def test_a_rate_that_is_no_polars_expression_is_one_line(rate, kind):
    # before: AttributeError: 'str' object has no attribute 'meta', a traceback under simtool run's
    # summary, after the run folder was written
    class Written(Climb):
        analysis = Analysis(rates={"banked": rate})

    with pytest.raises(SimtoolError, match=rf"^game 'climb' has a rate 'banked' that is a {kind}, not a polars "
                                           r"expression: give it as one over the seat rows"):
        analysis_of(Written())


@pytest.mark.parametrize("made,says", [
    # before: TypeError: 'NoneType' object is not iterable
    (lambda seats: None, "made its tables as a NoneType: its analysis' tables returns a list of (title, "
                         "polars DataFrame) pairs"),
    # before: ValueError: too many values to unpack (expected 2)
    (lambda seats: {"Banks": seats.select(pl.len()).collect()}, "made its tables as a dict"),
    # before: Result.tables()["Banks"] was a LazyFrame, beside DataFrames
    (lambda seats: [("Banks", seats.select(pl.len()))], "made its table 'Banks' as a polars LazyFrame: a table "
                                                         "is a polars DataFrame (.collect() a lazy one)"),
])
def test_game_tables_of_another_shape_are_one_line(made, says, monkeypatch):
    class Made(Climb):
        analysis = Analysis(tables=lambda seats, keys, matches=None, rules=None: made(seats))

    game = Made()
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    monkeypatch.setitem(simtool.games._BY_ID, "climb", game)
    result = simtool.run("climb", n=20, strategy="random", seed=1, jobs=1)
    with pytest.raises(SimtoolError, match=f"^game 'climb' {re.escape(says)}"):
        result.tables()
