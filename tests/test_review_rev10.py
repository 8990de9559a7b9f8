"""What the review of metaudit and left10 found (rev10): each test failed on the code before its fix."""

from __future__ import annotations

import re

import pytest

import simtool
from simtool.errors import SimtoolError
from simtool.options import number

from .designer_games.whist import Whist


@pytest.mark.parametrize("step", [0, -2])
def test_a_range_option_whose_step_is_not_1_or_more_is_a_declaration_problem(step):
    # before: number('target', 30, 1, 200, ..., step=0) loaded (7924461 checked that low, high
    # and step are whole numbers, not that step walks the range): --rule target=31 was taken as
    # if the step were 1, Option.domain ended in "range() arg 3 must not be zero" (step 0) or
    # was empty (step -2), so `--vary target` and tuning had no value to try
    from simtool import games
    from simtool.testing import check_player_counts

    class Stepped(Whist):
        id = "stepped"
        options = (number("target", 30, 1, 200, "total tricks that end the match", step=step),)

    says = (f"game 'stepped' declares rule option 'target' with step = {step}: a range's step is a whole "
            f"number 1 or more")
    assert games.declaration_problem(Stepped()) == says
    with pytest.raises(pytest.UsageError, match="^" + re.escape(says)):
        check_player_counts(Stepped())


def test_a_seat_summary_of_rows_without_their_unit_names_it():
    # before: seats or matches without their unit column (match, else deal) passed the check of
    # 78efd5e and ended in polars' ColumnNotFoundError with the query plan
    from simtool import games
    from simtool.analysis.summary import seat_summary

    run = simtool.run("black-white", n=16, seed=1, strategy="random", jobs=1, unit="match")
    bw = games.get("black-white")
    for seats, matches, says in [
        (run.seats.drop("match"), run.matches, "the seats given lack 'deal' (they hold round, seat, strategy"),
        (run.seats, run.matches.drop("match"), "the matches given lack 'deal' (they hold seat, strategy, total"),
    ]:
        with pytest.raises(SimtoolError, match=re.escape(f"seat summary of game 'black-white': {says}")) as refused:
            seat_summary(bw, seats.lazy(), matches.lazy())
        assert "\n" not in str(refused.value)
