"""Findings of walk35: the commands a designer reaches from the README past a review
(sweep, tune, restrict, report of two runs on the same deals)."""

from __future__ import annotations

import simtool
from simtool.reports import balance


def analysed(r) -> balance.Analysis:
    return balance.analysis(r.meta, r.seats.lazy(), None)


def test_a_seat_edge_of_seats_held_by_fixed_strategies_is_never_better_for_balance():
    # greedy fixed in seat 1 among target: the seat verdict is "none", a seat's edge is greedy's
    # strength as much as the seat's; pass_count=2 moved it -13.2 -> -11.8 points, once green
    before, after = (analysed(simtool.run("kansas-city", n=10_000, strategy="target", seats={1: "greedy"},
                                          rules=rules, seed=5, jobs=1))
                     for rules in ({}, {"pass_count": 2}))
    c = balance.compare([before, after])
    marks = {name: diffs[0][1] for name, _, diffs in c.rows}
    assert marks["seat 1 edge over fair share"] == "changed"
    assert not {m for name, m in marks.items() if name.startswith("seat ")} & {"better", "worse"}
    assert any("its change is bold, never better or worse for balance" in n for n in c.notes)


def test_restricted_plays_score_change_says_which_side_wins_where_lower_scores_do(tmp_path):
    # Hearts' no-queen-dump: +0.63 points beside a cost of 0.5 read as a gain; the change is the
    # restricted seat's score minus the unrestricted one's, and in Hearts more points lose
    from simtool.cli import _restrict_table

    table, paths = simtool.restrict.measure("hearts", tmp_path / "runs", n=200, seed=4, jobs=1,
                                            restrictions=["keep-queen"])
    _, shown = _restrict_table(table, 4)
    assert [c.header for c in shown.columns][2] == "score change (lower is better)"
    page = balance.render(paths)
    assert "<th>Score change (lower is better)</th>" in page
    assert "A score change is the restricted seat's mean score minus the unrestricted seat's." in page
