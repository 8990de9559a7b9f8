"""Review of left28 (paired rows bounded by the deals that moved) and mem28 (simtool report
read a batch of whole units at a time): rev28."""

import numpy as np
import pytest

from simtool import stats
from simtool.reports import balance


def _figures(after: np.ndarray, before: np.ndarray) -> tuple[balance.Figure, balance.Figure]:
    return tuple(balance.Figure(float(x.mean()), float(x.mean()) - 0.4, float(x.mean()) + 0.4, x, points=True,
                                better="fair") for x in (after, before))


def test_a_run_of_one_deal_that_no_rule_moved_takes_the_rule_of_three_not_every_deal_differs():
    # Kansas City, 1 deal of seed 7, pass_count=3 then 2: seat 2's win, the overshoot rate and the
    # mean score were the same in the one deal; the note said "Where the two runs differ in every
    # one of fewer than 30 deals (... overshoot rate (seats pooled); mean score (all seats))" and
    # combined them as independent; now, as the review's changes bound one unmoved deal, the rule
    # of three: 0.95 of a whole share, named among those no deal moved
    one = np.array([0.0])
    d, _, ends, count, moved = balance.paired_change(*_figures(one, one))
    assert (count, moved) == (1, 0)
    assert ends == pytest.approx((-stats.unseen(1), stats.unseen(1))) and d == 0.0
