"""Review of the hostile21 merge: what it refused that was right before."""

import pytest

from simtool.commands import sweep as sweeps
from simtool.errors import SimtoolError
from simtool.options import Option, numbers
from tests import toy_game


class _ShortTables(toy_game.Climb):
    id = "climb-short-tables"
    options = (*toy_game.Climb.options, numbers("score_table", "3", (1, 3), 0, 9, "points by trick"))


class _ScoreSheet(toy_game.Climb):
    id = "climb-score-sheet"
    options = (*toy_game.Climb.options, Option("score_table", (1, 2), "which table of the sheet"))


@pytest.mark.parametrize("game, read", [(_ShortTables, ["1", "2"]), (_ScoreSheet, [1, 2])])
def test_a_score_table_of_single_numbers_varies_where_the_sweeps_game_takes_one(installed, game, read):
    # a designer's score_table of one number or more (or one chosen by number) varied over
    # [1, 2]: refused as "write score_table = [[1, 2]]", kansas-city's tables said of another game
    installed(game())
    grid = sweeps.make_grid({"games": [game.id], "rules": {"score_table": [1, 2]}, "n": 10})
    assert [s.rules["score_table"] for s in sweeps.cells(grid)] == read


def test_kansas_citys_score_table_of_single_numbers_is_still_told_to_nest():
    with pytest.raises(SimtoolError, match=r"write score_table = \[\[5, 5, 5, 0\]\]"):
        sweeps.make_grid({"games": ["kansas-city"], "rules": {"score_table": [5, 5, 5, 0]}})


def test_a_game_that_is_no_name_beside_a_score_table_of_numbers_is_refused_in_one_line():
    with pytest.raises(SimtoolError, match="bad games"):
        sweeps.make_grid({"games": [["kansas-city"]], "rules": {"score_table": [5, 5, 5, 0]}})


PATH_GIVEN = "/home/alice/projects/trick-balance/strategies/experimental/greedy_v2.py"


@pytest.mark.parametrize("flag, said", [("--strategy", "unknown strategy '"), ("--game", "unknown game '")])
def test_a_long_path_given_for_a_name_keeps_its_file_name_in_the_error(capsys, flag, said):
    # cut at 60 from its start, the path read '/home/alice/projects/trick-balance/strategies/experiment...':
    # the file it named, and its .py without :NAME, were what was cut
    from simtool import cli

    assert cli.main(["run", flag, PATH_GIVEN, "-n", "10"]) == 2
    err = capsys.readouterr().err
    assert said + "/home/alice/" in err and "greedy_v2.py'" in err, err


def test_a_name_of_thousands_of_characters_is_still_quoted_short(capsys):
    from simtool import cli

    assert cli.main(["run", "--strategy", "a" * 5000 + "z", "-n", "10"]) == 2
    err = capsys.readouterr().err
    assert "'aaa" in err and "az'" in err and len(err) < 300, err
