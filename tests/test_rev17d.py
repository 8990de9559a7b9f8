"""Review of hostile18 (round 17d): declarations a designer would reasonably write that its new
load-time checks refused. Each test failed on the code before its fix."""

from __future__ import annotations

import enum
import json

import numpy as np
import polars as pl
import pytest

import simtool
import simtool.games
from simtool.analysis import Analysis
from simtool.analysis import of as analysis_of
from simtool.errors import SimtoolError
from simtool.options import Option
from tests.test_hostile18 import titled_run
from tests.toy_game import Climb


@pytest.mark.parametrize("kind", ["shared", "risks", "stopped"])
@pytest.mark.parametrize("collection", [set, frozenset])
def test_an_analysis_naming_its_rates_in_a_set_still_loads(kind, collection):
    # before: "declares shared = frozenset({'bank'}) in its analysis: it must be a tuple of its
    # rates (now: 'bank')", naming as wrong the one rate it held; every reader asks only `in`
    class Named(Climb):
        match_columns = {"bank": bool}
        analysis = Analysis(rates={"bank": pl.col("banks") > 0}, **{kind: collection({"bank"})})

    assert getattr(analysis_of(Named()), kind) == collection({"bank"})


@pytest.mark.parametrize("title", ["Seat advantage (bids made)", "Rates by seat (first hand)",
                                   "By seat and strategy, bids made"])
def test_a_game_table_titled_near_simtools_own_is_shown(title, monkeypatch):
    # before: "made a table titled 'Seat advantage (bids made)', a title simtool's tables take",
    # though simtool's are 'Seat advantage (deals)' and '(matches)': titles were refused by their start
    tables = titled_run(monkeypatch, [title]).tables()
    assert tables[title]["len"].to_list() == [20 * Climb.default_players]
    assert "By seat and strategy" in tables


@pytest.mark.parametrize("title", [None, 3, " "])
def test_a_game_table_titled_by_no_text_says_so(title, monkeypatch):
    # before: "made a table titled None, a title simtool's tables take": the wrong reason, for a
    # title nobody else takes
    result = titled_run(monkeypatch, [title])
    with pytest.raises(SimtoolError) as raised:
        result.tables()
    assert str(raised.value) == f"game 'climb' made a table titled {title!r}: a table's title is text, such as 'Banks'"


class Moon(enum.StrEnum):
    ADD = "add"
    OFF = "off"


class Hand(enum.IntEnum):
    SHORT = 3
    LONG = 5


class Mixed(str, enum.Enum):  # noqa: UP042 (the mixin is the point) its text is 'Mixed.ADD', not the 'add' JSON records
    ADD = "add"


@pytest.mark.parametrize("values", [(Moon.ADD, Moon.OFF), (Hand.SHORT, Hand.LONG)])
def test_a_rule_option_of_enum_members_json_gives_back_loads_and_reads_back(values, tmp_path, monkeypatch):
    # before: "declares rule option 'moonx' with the value <Moon.ADD: 'add'> (Moon): a run records
    # its rules as JSON", though run.json records 'off' and --rule reads it back as Moon.OFF
    class Ruled(Climb):
        options = (*Climb.options, Option("moonx", values, "which"))

    game = Ruled()
    assert simtool.games.declaration_problem(game) is None
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    monkeypatch.setitem(simtool.games._BY_ID, "climb", game)
    simtool.run("climb", n=20, strategy="random", seed=1, jobs=1, rules={"moonx": str(values[1])},
                out=tmp_path / "run")
    assert json.loads((tmp_path / "run" / "run.json").read_text())["rules"]["moonx"] == values[1].value
    assert simtool.metrics(tmp_path / "run")  # the finished run's rules read back


@pytest.mark.parametrize("value", [Mixed.ADD, np.float64(0.5), np.str_("add")])
def test_a_rule_value_json_does_not_give_back_is_still_refused(value):
    class Ruled(Climb):
        options = (*Climb.options, Option("moonx", (value, "off"), "which"))

    assert "a run records its rules as JSON" in simtool.games.declaration_problem(Ruled())
