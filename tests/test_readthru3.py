"""Figures of sweep, ladder, restrict and tune recomputed by hand (readthru3): each test asserts
the value worked out from the definition in the docs, where simtool printed another."""

from pathlib import Path

import numpy as np
import pytest

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


def test_a_report_difference_no_deal_shows_is_not_certain(tmp_path, charts_undrawn):
    # Kansas City, 1,000 deals of seed 3 before and after four_bonus=3: the bonus moves scores,
    # not play, so no deal's overshoot changes (and each seat's win changes in fewer than 30 deals). Before,
    # the paired Δ of the overshoot rate read "0.0 pts ± 0.0 pts", certain from deals that do not
    # differ, and the seat edges' few differences "± 0.6 pts"; by hand, as the review's changes
    # (docs/review.md, PAIRED_LEAST), each end from the two runs' own intervals: 0 ± hypot
    import math
    import re

    import polars as pl

    from simtool.analysis.review import PAIRED_LEAST
    from simtool.reports import balance

    from .test_cli import cli

    a, b, page = tmp_path / "a", tmp_path / "b", tmp_path / "page.html"
    for folder, rule in ((a, []), (b, ["--rule", "four_bonus=3"])):
        r = cli("run", "-g", "kansas-city", "-n", "1000", "--seed", "3", "-j", "1", "-q", "-o", folder, *rule)
        assert r.exit_code == 0, r.output
    over = [(pl.read_parquet(f / "seats.parquet")["overshoot"] > 0).to_numpy() for f in (a, b)]
    assert (over[0] == over[1]).all()  # no deal's overshoot differs
    win = [pl.read_parquet(f / "seats.parquet")["win"].to_numpy().reshape(-1, 4) for f in (a, b)]
    assert 0 < (win[0] != win[1]).sum(axis=0).max() < PAIRED_LEAST  # each seat's win differs in a few deals
    k = over[0].reshape(-1, 4).sum(axis=1).astype(float)
    rate, low, high = stats.unit_estimate(k, np.full(len(k), 4.0), share=True)
    half = math.hypot(rate - low, high - rate)  # the two runs' own intervals, as if independent
    r = cli("report", a, b, "-o", page)
    assert r.exit_code == 0, r.output
    text = page.read_text()
    row = re.search(r"overshoot rate \(seats pooled\).*?</tr>", text, re.S).group(0)
    # no deal's overshoot differs: the rule of three, at most 1 - 0.05^(1/1000) of the deals (0.30
    # points) moved unseen, each by at most a whole share; as if independent it read ± 1.1
    three = 100 * (1 - 0.05 ** (1 / 1000))
    assert f"Δ from run 1: 0.0 pts ± {three:.1f} pts" in row and "± 0.0 pts" not in row
    assert f"{three:.1f}" == "0.3" and f"{100 * half:.1f}" == "1.1"
    # the seat edges' few moved deals: bounded by their count (test_left28), not as independent
    assert "Where the two runs differ in 1 to 29 deals (seat 0 edge over fair share" in text
    assert "Where they differ in no deal (overshoot rate (seats pooled)), the interval bounds" in text
    runs = [balance.analyse(f, charts=False) for f in (a, b)]
    assert balance.compare(runs).gains == [[]]  # no figure of these two is paired: nothing gained told


def test_what_pairing_gained_on_one_figure_is_one_figure_not_a_range():
    # before: "Pairing made the intervals 79–79% narrower" where one figure of a pair was paired
    from simtool.reports import balance

    text = balance.Comparison(["a", "b"], [], [0], [True], [[0.79]]).gain_text(2)
    assert "Pairing made the intervals 79% narrower than between independent runs (median 79%)." in text
    assert "20–60% narrower" in balance.Comparison(["a", "b"], [], [0], [True], [[0.2, 0.6, 0.5]]).gain_text(2)


def test_a_tuning_of_whole_matches_says_matches_and_its_rates_rounds():
    # before: "re-measured on 1,200 fresh matchs" and "below-zero: the game's rate below-zero, a
    # share of matchs, seats pooled", of a rate taken over each seat's rounds (checked by hand:
    # the flags of every seat-round of the re-measure over their count)
    from simtool.cli import _tune_table
    from simtool.commands import tune
    from simtool.reports.tune import figure_words

    config = tune.configure("out-trumped", ["goal=40,50"], ["match_rounds=5", "below-zero=0.02"], n=300, seed=5)
    assert config.unit == "match"
    assert "below-zero: the game's rate below-zero, a share of rounds of matches, seats pooled" in figure_words(config)
    values = {"match_rounds=5": [1.86, 1.80, 1.92], "below-zero=0.02": [0.01, 0.005, 0.015]}
    result = {"config": config, "confirmed": [{"n": 1200, "label": "defaults", "params": {"goal": 50},
                                               "trials": [], "values": values}], "sampler": "grid", "best": []}
    assert "re-measured on 1,200 fresh matches (95% intervals)" in str(_tune_table(result).title)
    deals = tune.configure("out-trumped", ["goal=40,50"], ["below-zero=0.02"], n=300, seed=5)
    assert "a share of deals, seats pooled" in figure_words(deals)


def test_a_sixth_lost_in_every_deal_is_not_certain_from_float32_shares():
    # seats.parquet stores win as float32: at 6 players a restriction that costs a sixth in each
    # of three deals (1/2 -> 1/3, 1/3 -> 1/6, 1/6 -> 0) read 0.16666666 to 0.16666667, which
    # stats.alike took for differences that vary: "16.7 pts (16.7 to 16.7)", certain from 3 deals;
    # by hand, as for the same sixths in float64, Wilson's on 3 deals of the share (1/6 + 1) / 2
    from simtool.analysis.restrict import paired_cost

    stored = np.float32
    restricted = np.array([1 / 3, 1 / 6, 0], dtype=stored).astype(float)
    free = np.array([1 / 2, 1 / 3, 1 / 6], dtype=stored).astype(float)
    assert stats.alike(free - restricted)
    low, high = stats.wilson((1 / 6 + 1) / 2 * 3, 3)
    mean, half = paired_cost(free, restricted, 1.0)
    assert mean == np.float64(free - restricted).mean()
    assert half == pytest.approx(max(mean - (2 * low - 1), (2 * high - 1) - mean), rel=1e-12) and half > 0.8
    assert not stats.alike(np.array([1 / 6, 1 / 6 + 1 / 60]))  # shares a tie splits stay apart


def test_a_front_holding_the_sheet_and_settings_no_different_says_what_would_tell_them_apart():
    # docs/language.md: several objectives, "where none is clearly either, the --n that would tell
    # the clearest difference measured apart". Before: with the sheet's defaults on the front
    # beside a setting not clearly different on any objective, the sheet's own entry counted
    # against "none", and the answer read "the choice is the designer's". By hand: skill
    # +0.0050 ± hypot(0.01, 0.01) = 0.0141 is the clearest; 4,000 deals (h/d)^2 x 1.1 = 35,200
    # re-measured deals, a trial's n a quarter of that: --n 8800, re-measures of 35,200
    from simtool.analysis.tuning import recommendation
    from simtool.commands import tune

    config = tune.configure("kansas-city", ["pass_count=2,3"], ["seat_spread:min", "skill:max"], n=1000, seed=3)
    base = {"label": "defaults", "params": {"pass_count": 3}, "trials": [1], "n": 4000,
            "values": {"seat_spread:min": [0.030, 0.020, 0.040], "skill:max": [0.500, 0.490, 0.510]}}
    other = {"label": "trial 0", "params": {"pass_count": 2}, "trials": [0], "n": 4000,
             "values": {"seat_spread:min": [0.032, 0.022, 0.042], "skill:max": [0.505, 0.495, 0.515]}}
    text = recommendation(config, [base, other], [base, other])
    assert "pass_count=2 (not clearly different from the sheet)" in text
    assert text.endswith(" None can be told from the sheet at this budget: to tell the clearest difference measured "
                         "apart (pass_count=2 on skill:max, +0.0050 ± 0.0141), tune again with --n 8800 or more "
                         "(now 1,000; a new --out), so that the re-measures play 35,200 deals each.")
    assert "the choice is the designer's" not in text
