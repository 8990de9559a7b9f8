"""Audit 30: a verdict's figure never shows on an end of its interval it is not on."""

from __future__ import annotations

from simtool.analysis import verdicts
from simtool.reports import review as pages

# Out-Trumped, quick review (hoarder at every seat): hazards, tension and match shape
BELOW_ZERO = (0.022647857666015625, 0.02233091071170802, 0.022969197423243888)
OUT_TRUMPED = (0.2782033284505208, 0.27763393186877816, 0.278773442139571)


def test_a_hazard_rate_never_shows_on_an_end_it_is_not_on():
    # failed before: "in 2.3% of deals (95% interval 2.2% to 2.3%)" and "27.8% (... 27.8% to 27.9%)"
    v = verdicts.hazard_verdict("below-zero", "scores below zero", *BELOW_ZERO, 196_608)
    assert "in 2.26% of deals (95% interval 2.23% to 2.30%)" in v.sentence
    v = verdicts.hazard_verdict("out-trumped", "is out-trumped", *OUT_TRUMPED, 196_608)
    assert "in 27.82% of deals (95% interval 27.76% to 27.88%)" in v.sentence
    assert pages.figure_text(*OUT_TRUMPED, "%", 100) == "27.82% (95% interval 27.76 to 27.88%)"


def test_a_mean_never_shows_on_an_end_it_is_not_on():
    # failed before: "1.7 lead changes (1.7 to 1.8)" and "6.9 rounds (95% interval 6.8 to 6.9)"
    assert verdicts.mean_span(1.732421875, 1.6828671385722112, 1.7819766114277888) == ("1.73", "1.68 to 1.78")
    assert verdicts.mean_span(6.891927083333333, 6.839239301482396, 6.9446148651842705) == ("6.89", "6.84 to 6.94")
    # apart already, or on its end: one decimal, as before
    assert verdicts.mean_span(5.60, 5.54, 5.66) == ("5.6", "5.5 to 5.7")
    assert verdicts.mean_span(3.0, 3.0, 3.2) == ("3.0", "3.0 to 3.2")
    # the capped share 0.0% is on its lower end: one decimal, as before
    v = verdicts.match_verdict((6.891927083333333, 6.839239301482396, 6.9446148651842705),
                               (0.0, 0.0, 0.0012489131420209726), 3072, 200)
    assert v.sentence.startswith("A match lasts 6.89 rounds (95% interval 6.84 to 6.94); 0.0% of matches "
                                 "(95% interval 0.0% to 0.1%)")


def test_a_crude_rules_cost_never_shows_on_an_end_it_is_not_on():
    # failed before: Trickster's no-collect "costs safe 0.1 points ... (95% interval 0.1 to 0.2)"
    v = verdicts.restriction_verdict("never collecting by choice", "safe", 0.14483133950307092,
                                     0.10449396522461164, 0.18516871378153021, 65_536)
    assert "costs safe 0.14 points of win share per seat (95% interval 0.10 to 0.19)" in v.sentence
