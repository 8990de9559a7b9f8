"""Figures of sweep, ladder, restrict and tune recomputed by hand (readthru3): each test asserts
the value worked out from the definition in the docs, where simtool printed another."""

from pathlib import Path

import numpy as np

from simtool import stats
from simtool.analysis import ladder, review, verdicts


def test_a_doubling_that_gains_exactly_one_point_at_five_players_is_still_gaining():
    # docs/review.md: "still gaining when it is at least 1 point and surely above 0". 1,344 wins of
    # 6,400 deals at 5 players are 21.0%, by hand exactly 1 point over the fair 20.0%, and the
    # interval lies above fair; in floats 0.21 - 0.2 < 0.01, which read "not yet clear"
    share, low, high = stats.unit_estimate(np.r_[np.ones(1344), np.zeros(6400 - 1344)], share=True)
    assert share == 1344 / 6400 and low > 0.2
    rung = ladder.Rung(2, "pimc@samples=8", "pimc@samples=4", share, low, high, 1 / 5, 0.0, Path("."))
    climbed = ladder.Ladder("kansas-city", 5, {}, "deal", [rung])
    assert ladder.converged(climbed) is False
    assert ladder.convergence(climbed).startswith(
        "Still gaining: pimc@samples=8 over pimc@samples=4 gains +1.0 pts (+0.02 to +2.0)")
    gain = review.points(share, low, high, 1 / 5)
    assert verdicts.convergence_state(gain) is False
    assert verdicts.skill_verdict((1, 0, 2), (12, 11, 13), gain, 6400).figures["convergence"] == "still gaining"
    # just under 1 point is not on it: 1,343 wins stay unsettled
    share, low, high = stats.unit_estimate(np.r_[np.ones(1343), np.zeros(6400 - 1343)], share=True)
    rung = ladder.Rung(2, "pimc@samples=8", "pimc@samples=4", share, low, high, 1 / 5, 0.0, Path("."))
    assert ladder.converged(ladder.Ladder("kansas-city", 5, {}, "deal", [rung])) is None


def test_a_seat_edge_of_exactly_one_point_at_five_players_lies_in_the_band_above():
    # docs/review.md: "a value on a threshold belongs to the band above". 21.0% at 5 players is
    # by hand an edge of exactly 1 point (slight), read 0.9999999999999981 in floats: 0.5 -> 1.0
    # crossed no verdict line, 1.0 -> 2.0 crossed the 1-point line
    edge = 100 * (1344 / 6400 - 1 / 5)
    assert verdicts.crossed(0.5, edge, verdicts.SEAT_THRESHOLDS) == 1.0
    assert verdicts.crossed(edge, 0.5, verdicts.SEAT_THRESHOLDS) == 1.0
    assert verdicts.crossed(edge, 2.0, verdicts.SEAT_THRESHOLDS) is None
    assert verdicts.crossed(0.5, 0.99, verdicts.SEAT_THRESHOLDS) is None
