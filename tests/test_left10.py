"""What today's reviewers found and left (left10): each test failed on the code before its fix."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest
import typer

import simtool.cli
from simtool.errors import SimtoolError
from simtool.options import number

from .designer_games.whist import Whist


def _help_texts(cap: str) -> dict[str, str]:
    """The help of run's --n and replay's --precision, of simtool/cli.py as written with
    PRECISION_CAP set to ``cap``."""
    source = Path(simtool.cli.__file__).read_text()
    assert source.count('PRECISION_CAP = "1e8"') == 1
    namespace = {"__name__": "simtool._cli_cap", "__package__": "simtool", "__file__": simtool.cli.__file__}
    exec(compile(source.replace('PRECISION_CAP = "1e8"', f'PRECISION_CAP = "{cap}"'), "cli", "exec"), namespace)
    commands = typer.main.get_command(namespace["app"]).commands
    run = next(p for p in commands["run"].params if p.name == "n")
    replay = next(p for p in commands["replay"].params if p.name == "precision")
    return {"run --n": run.help, "replay --precision": replay.help}


def test_the_precision_cap_s_help_follows_the_constant():
    # before: run --n and replay --precision said "1e8" in words beside PRECISION_CAP, which
    # replay plays: a cap changed there left both helps naming the old one
    for name, text in _help_texts("2e9").items():
        assert "2e9" in text and "1e8" not in text, (name, text)


def test_a_review_takes_numpy_whole_numbers_for_its_sizes(tmp_path):
    # before: Sizes(deals=np.int64(64), ...) was "bad sizes ...; expected ... of whole numbers",
    # though review() takes numpy's whole numbers for players and seed
    from simtool.commands import review

    given = review.Sizes(*map(np.int64, (64, 16, 64, 16, 8)), random=np.int32(0), leads=np.uint8(2))
    assert given == review.Sizes(64, 16, 64, 16, 8, 0, 2)
    assert all(type(v) is int for v in dataclasses.asdict(given).values())
    assert review.sound(given) and json.loads(json.dumps(dataclasses.asdict(given)))["leads"] == 2
    # the sizes pass: the next check, of the backend, is what refuses (before anything is played)
    with pytest.raises(SimtoolError, match="^unknown backend 'none'"):
        review.review("black-white", tmp_path / "r", seed=np.int64(3), sizes=given, backend="none")
    for refused in (np.bool_(True), np.float64(64)):  # numpy's, as Python's True and 64.0 are
        assert not review.sound(review.Sizes(refused, 16, 64, 16, 8))


def test_a_seat_summary_of_another_game_s_rows_names_what_they_lack():
    # before: seat_summary(black-white, a Hearts run's seats) ended in polars' ColumnNotFoundError
    # (a traceback of the query plan), as did seats missing a column or matches missing one
    from simtool import games
    from simtool.analysis.summary import seat_summary

    hearts = simtool.run("hearts", n=64, seed=1, strategy="random", jobs=1)
    whole = simtool.run("black-white", n=16, seed=1, strategy="random", jobs=1, unit="match")
    for game, seats, matches, says in [
        ("black-white", hearts.seats, None, "seat summary of game 'black-white': the seats given lack 'black', "
                                            "'white' (they hold deal, seat, strategy, score, tricks, win, hearts, "
                                            "queen, moon, jack, the columns of 'hearts': rows of another game?); "
                                            "give the seats of a run of black-white (its result.seats)"),
        ("hearts", hearts.seats.drop("score"), None, "the seats given lack 'score' (they hold deal, seat, strategy, "
                                                     "tricks, win, hearts"),
        ("black-white", whole.seats, whole.matches.drop("capped"), "the matches given lack 'capped' (they hold"),
    ]:
        with pytest.raises(SimtoolError, match=re.escape(says)) as refused:
            seat_summary(games.get(game), seats.lazy(), None if matches is None else matches.lazy())
        assert "\n" not in str(refused.value)
    table = seat_summary(games.get("black-white"), whole.seats.lazy(), whole.matches.lazy())
    assert table.height == 3 and "capped" in table.columns  # the rows of the game itself, as before


class _OneKind(Whist):
    id = "one-kind"
    decisions = "lead"  # the comma of ("lead",) forgotten


class _HalfLow(Whist):
    id = "half-low"
    options = (number("target", 30, 1.5, 200, "total tricks that end the match"),)


@pytest.mark.parametrize(("game", "says"), [
    (_OneKind(), "game 'one-kind' declares decisions = 'lead': it must be a tuple of the kinds its decisions are"),
    (_HalfLow(), "game 'half-low' declares rule option 'target' with low = 1.5: a range's low, high and step are "
                 "whole numbers"),
])
def test_decisions_in_a_string_and_a_fractional_range_are_declaration_problems(game, says):
    # before: both loaded, and the conformance suite's check of declarations passed them:
    # decisions = "lead" was read letter by letter (pimc's focus='l' taken for a kind), and
    # low=1.5 ended in a TypeError where the option's values are listed (Option.domain, which
    # tuning walks)
    from simtool import games
    from simtool.testing import check_player_counts

    assert (games.declaration_problem(game) or "").startswith(says)
    with pytest.raises(pytest.UsageError, match="^" + re.escape(says)):
        check_player_counts(game)  # the conformance suite's check of a game it is given
    assert games.declaration_problem(Whist()) is None
