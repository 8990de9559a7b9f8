"""The published metrics (simtool.analysis.metrics), each formula on hand-built results and lead
histories whose values are worked out by hand in the comments; line-ups that do not fit are
refused in one line; the API and the review get the same dict."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import polars as pl
import pytest

import simtool
from simtool.analysis import metrics as M
from simtool.errors import SimtoolError

# Two deals of a 3-seat game. Deal 0: seat 0 wins alone. Deal 1: seats 1 and 2 tie for first.
WINS = [[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]]
# Lead history: per deal, per decision (acting seat, every seat's estimate, the acting seat's
# legal options, a search's spread where it reported one)
HISTORY = {
    0: [(0, [0.5, 0.5, 0.5], 3, 0.2),
        (1, [0.25, 0.9, 0.25], 2, None),
        (2, [0.5, 0.75, 0.25], 2, None),
        (0, [1.0, 0.5, 0.0], 1, None)],
    1: [(-1, [1.0, 0.0, 0.5], 4, None),
        (0, [0.75, 0.25, 0.5], 2, 0.4)],
}


def _run(lineup=("pimc", "random", "random"), wins=WINS, history=HISTORY) -> M.Run:
    p = len(lineup)
    seats = pl.DataFrame({
        "deal": np.repeat(np.arange(len(wins)), p), "seat": np.tile(np.arange(p), len(wins)),
        "strategy": list(lineup) * len(wins), "win": np.ravel(wins)})
    rows = []
    for deal, decisions in history.items():
        for i, (acting, est, choices, spread) in enumerate(decisions):
            for s in range(p):
                acts = acting in (s, -1)
                rows.append({"deal": deal, "decision": i, "seat": s, "acting": acting,
                             "estimate": est[s], "own": acts and spread is not None,
                             "choices": choices if acts else None,
                             "spread": spread if acts and lineup[s] == "pimc" else None})
    leads = pl.DataFrame(rows, schema_overrides={"choices": pl.Int8, "spread": pl.Float32})
    meta = {"players": p, "lineup": list(lineup), "unit": "deal", "n": len(wins), "rotate": False,
            "lead_history": {"sampled": len(history), "sample": "all", "estimator": {"pimc": "test"}}}
    return M.from_tables("hand-built", meta, seats, None, leads)


def test_cardstock_drama_and_security_over_the_sole_winners_path():
    # n = 3: d = (1 + 1/2) / 2 = 0.75. Only deal 0 has a sole winner (seat 0); its path through
    # the history: 0.5, 0.25, 0.5 (below d) and 1.0
    assert M.threshold(3) == 0.75 and M.threshold(2) == 0.5
    assert M.drama(_run()).value == pytest.approx((0.5 + math.sqrt(0.5) + 0.5) / 3)
    assert M.security(_run()).value == pytest.approx(1 - 3 / 4)


def test_spread_is_the_mean_of_the_searchs_reported_spreads():
    # and of its forced play (deal 0, decision 3: one option, spread 0), as CardStock records it
    assert M.spread(_run()).value == pytest.approx((0.2 + 0.4 + 0) / 3)


def test_convergence_is_one_minus_half_the_slope_plus_a_half():
    # deal 0: options 3, 2, 2, 1 against 0..3: slope -3/5 -> 1 - (-0.3 + 0.5) = 0.8
    # deal 1: options 4, 2: slope -2 -> 1 - (-1 + 0.5) = 1.5 (the formula has no ceiling)
    assert M.convergence(_run()).value == pytest.approx((0.8 + 1.5) / 2)


def test_ludii_lead_change_counts_changes_of_the_leading_set():
    # deal 0 leaders {0,1,2}, {1}, {1}, {0}: 2 changes over 4 decisions; deal 1 {0}, {0}: none
    assert M.lead_change(_run()).value == pytest.approx((2 / 4 + 0) / 2)


def test_ludii_decisiveness_threshold_and_moves():
    # deal 0: losers 1 and 2 reach 0.9 at most; the winner first exceeds it at decision 3 of 4
    # deal 1: the loser (seat 0) reaches 1.0; the winners never exceed it: 1
    assert M.decisiveness_threshold(_run()).value == pytest.approx((0.9 + 1.0) / 2)
    assert M.decisiveness_moves(_run()).value == pytest.approx((3 / 4 + 1) / 2)


def test_ludii_drama_is_the_leaders_estimate_minus_the_winners():
    # deal 0: 0, 0.9 - 0.25, 0.75 - 0.5, 0 -> 0.225; deal 1 (the winners' mean, as Ludii's Drama.java):
    # 1 - (0 + 0.5) / 2, 0.75 - (0.25 + 0.5) / 2 -> 0.5625
    assert M.drama_ludii(_run()).value == pytest.approx((0.225 + 0.5625) / 2)


def test_ludii_stability_sums_each_seats_variance():
    first = np.var([0.5, 0.25, 0.5, 1.0]) + np.var([0.5, 0.9, 0.75, 0.5]) + np.var([0.5, 0.25, 0.25, 0.0])
    second = np.var([1.0, 0.75]) + np.var([0.0, 0.25]) + np.var([0.5, 0.5])
    assert M.stability(_run()).value == pytest.approx((first + second) / 2)


def test_outcome_metrics_on_known_win_shares():
    run = _run()
    # seat shares 0.5, 0.25, 0.25: the largest gap is 0.25 (one strategy at every seat, or rotated:
    # of pimc in seat 0 among random seats, fixed, they would be the search's strength)
    alike = _run(("random",) * 3)
    assert M.balance(alike).value == pytest.approx(0.75)
    assert M.advantage_p1(alike).value == pytest.approx(0.5)
    for figure in (M.balance, M.advantage_p1):
        with pytest.raises(M.Misfit, match="needs one strategy at every seat, or the line-up rotated"):
            figure(run)
    rotated = dataclasses.replace(run, meta={**run.meta, "rotate": True})
    assert M.advantage_p1(rotated).value == pytest.approx(0.5)
    assert M.drawishness(run).value == pytest.approx(0.5)
    # pimc in seat 0 wins 0.5 of the games at n = 3: (0.5 - 1/3) / (2/3)
    assert M.order(run).value == pytest.approx(0.25)
    # all random, w = 0.5 > 1/3: 3/2 * (1 - 0.5); at w <= 1/n, w * n
    assert M.fairness(_run(("random",) * 3)).value == pytest.approx(0.75)
    assert M.fairness_value(0.2, 4) == pytest.approx(0.8) and M.fairness_value(0.25, 4) == 1


def test_duplicate_gain_against_hand_worked_variances():
    # 2 seats, strategies A and B, 4 deals each played twice (rotation 0: A in seat 0; 1: A in
    # seat 1). A's wins per copy: (1, 0), (1, 0), (1, 1), (0, 0); R = 1/2.
    # duplicate: deal sums 1, 1, 2, 0, residuals 0, 0, 1, -1: variance sum 2 (x 4/3)
    # plain, by rotation: copies 0 are 1, 1, 1, 0 and copies 1 are 0, 0, 1, 0: each 0.75 (x 4/3)
    a = [(1, 0), (1, 0), (1, 1), (0, 0)]
    rows = []
    for deal, copies in enumerate(a):
        for r, won in enumerate(copies):
            for seat in range(2):
                mine = (seat + r) % 2 == 0  # position 0 (A) sits in seat (p - r) mod p
                rows.append({"deal": deal, "rotation": r, "seat": seat, "strategy": "A" if mine else "B",
                             "win": float(won if mine else 1 - won)})
    meta = {"players": 2, "lineup": ["A", "B"], "unit": "deal", "n": 4, "rotate": False, "duplicate": True}
    run = M.from_tables("hand-built", meta, pl.DataFrame(rows), None, None)
    assert M.duplicate_gain(run).value == pytest.approx(1.5 / 2)


def test_fairness_per_seat_and_under_other_play_is_named_as_such():
    # seat shares 0.5, 0.25, 0.25 at n = 3: seat 0 3/2 * 0.5; seats 1 and 2 0.25 * 3
    random = M.compute(_run(("random",) * 3))
    assert {k: round(f.value, 6) for k, f in random.items() if k.startswith("fairness")} == {
        "fairness": 0.75, "fairness (seat 1)": 0.75, "fairness (seat 2)": 0.75}
    searched = M.metrics(_run(("pimc",) * 3))
    assert [k for k in searched if k.startswith("fairness")] == [
        "fairness (pimc play)", "fairness (pimc play, seat 1)", "fairness (pimc play, seat 2)"]
    assert searched["fairness (pimc play)"]["definition"] == (
        "the first seat's win share w under pimc play, n seats: w*n if w <= 1/n, else n/(n-1)*(1-w)")
    with pytest.raises(M.Misfit, match="fairness needs pimc at every seat"):
        M.fairness(_run(), play="pimc")


def test_line_ups_that_do_not_fit_are_refused_in_one_line():
    with pytest.raises(M.Misfit, match="fairness needs all-random play") as e:
        M.fairness(_run())
    assert "\n" not in str(e.value)
    with pytest.raises(M.Misfit, match="order needs one strongest-play seat among random seats"):
        M.order(_run(("random",) * 3))
    with pytest.raises(M.Misfit, match="not a duplicate run"):
        M.duplicate_gain(_run())
    no_leads = _run()
    no_leads.leads = None
    with pytest.raises(M.Misfit, match="recorded no lead histories"):
        M.drama(no_leads)


def test_every_metric_has_its_definition_and_its_interval_holds_its_value():
    figures = M.compute(_run())
    assert set(figures) <= set(M.DEFINITIONS) and "fairness" not in figures  # not all random
    for name, f in figures.items():
        record = f.record(name)
        assert set(record) == {"value", "ci", "estimator", "definition"}
        if None not in record["ci"] and name != "balance":
            assert record["ci"][0] - 1e-9 <= record["value"] <= record["ci"][1] + 1e-9, name


def test_published_hearts_values_are_data():
    ref = M.published("hearts", 4)
    assert ref["values"] == {"order": 0.52, "fairness": 0.87, "convergence": 0.54, "spread": 0.14,
                             "drama": 0.46, "security": 0.34}
    assert ref["games"] == 100 and ref["interval"] is None
    assert M.published("hearts", 5) is None


def test_the_api_reads_run_folders_with_and_without_lead_histories(tmp_path):
    simtool.run("hearts", 300, strategy="random", seed=5, out=tmp_path / "random", jobs=1)
    simtool.run("hearts", 6, seats={0: "pimc@samples=2"}, seed=5, out=tmp_path / "leads", jobs=1,
                lead_history=3)
    plain = simtool.metrics(tmp_path / "random")
    assert {"fairness", "balance", "advantage_p1", "drawishness"} <= set(plain)
    assert "drama" not in plain and "order" not in plain
    both = simtool.metrics([tmp_path / "random", tmp_path / "leads"])
    assert both["fairness"] == plain["fairness"]
    assert {"lead_change", "stability", "convergence", "spread"} <= set(both)
    assert "lead histories of 3 deals" in both["stability"]["estimator"]
    assert M.for_review([tmp_path / "random", tmp_path / "leads"]) == both
    low, high = plain["fairness"]["ci"]
    assert low <= plain["fairness"]["value"] <= high
    with pytest.raises(SimtoolError, match="not a finished run folder"):
        simtool.metrics(tmp_path / "missing")
    assert not math.isnan(both["stability"]["value"])
