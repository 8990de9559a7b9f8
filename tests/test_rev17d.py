"""Review of hostile18 (round 17d): declarations a designer would reasonably write that its new
load-time checks refused. Each test failed on the code before its fix."""

from __future__ import annotations

import polars as pl
import pytest

import simtool
import simtool.games
from simtool.analysis import Analysis
from simtool.analysis import of as analysis_of
from simtool.errors import SimtoolError
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
    class Titled(Climb):
        analysis = Analysis(tables=lambda seats, keys, matches=None, rules=None:
                            [(title, seats.select(pl.len()).collect())])

    game = Titled()
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    monkeypatch.setitem(simtool.games._BY_ID, "climb", game)
    tables = simtool.run("climb", n=20, strategy="random", seed=1, jobs=1).tables()
    assert tables[title]["len"].to_list() == [20 * game.default_players]
    assert "By seat and strategy" in tables


@pytest.mark.parametrize("title", [None, 3, " "])
def test_a_game_table_titled_by_no_text_says_so(title, monkeypatch):
    # before: "made a table titled None, a title simtool's tables take": the wrong reason, for a
    # title nobody else takes
    class Titled(Climb):
        analysis = Analysis(tables=lambda seats, keys, matches=None, rules=None:
                            [(title, seats.select(pl.len()).collect())])

    game = Titled()
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    monkeypatch.setitem(simtool.games._BY_ID, "climb", game)
    result = simtool.run("climb", n=20, strategy="random", seed=1, jobs=1)
    with pytest.raises(SimtoolError) as raised:
        result.tables()
    assert str(raised.value) == f"game 'climb' made a table titled {title!r}: a table's title is text, such as 'Banks'"
