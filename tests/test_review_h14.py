"""Review of hard14 (revh14): interval ends printed on a verdict's threshold of 0 or 1 point
after hard14 made a figure that rounds to 0 lose its sign, each checked on a case whose verdict
is known from the interval."""

from __future__ import annotations

import math
from pathlib import Path


def _version(value: float, low: float, high: float) -> dict:
    """Review questions whose tension figure (the winner behind at half-time) is ``value``."""
    fig = {"value": 1.0, "ci": [0.5, 1.5]}
    return {"seats": {"figure": fig}, "skill": {"figure": fig}, "luck": {"figure": fig},
            "tension": {"figure": {"value": value, "ci": [low, high]}}, "restrictions": [], "match": None,
            "hazards": []}


def test_a_changes_end_near_0_shows_the_side_that_decides_better_or_no_clear_change():
    # tension 30.0% (28.6 to 31.4) then 32.0% (30.6 to 33.4): the difference's lower end is
    # +0.02 points, so "better"; 31.96% (30.56 to 33.36) puts it at -0.02: "no clear change".
    # Before: both read "+2.0 points (0.0 to +4.0)", an end on the 0 that decides the word
    from simtool.analysis import review as answers
    from simtool.reports import review as pages

    def row(after: tuple[float, float, float]) -> dict:
        rows = pages.change_rows({"changes": answers.changes(_version(0.30, 0.286, 0.314), _version(*after))})
        return next(r for r in rows if r["question"] == "tension")

    up, across = row((0.32, 0.306, 0.334)), row((0.3196, 0.3056, 0.3336))
    # "changed": tension has no better side (tests/test_words31.py)
    assert up["change"] == "changed" and up["delta_text"] == "+2.0 points (+0.02 to +4.0)"
    assert across["change"] == "no clear change" and across["delta_text"] == "+2.0 points (-0.02 to +3.9)"
    same = row((0.30, 0.286, 0.314))  # no difference at all: as before
    assert same["delta_text"] == "0.0 points (-2.0 to +2.0)"


def test_a_restriction_costs_end_near_0_shows_the_side_that_decides_costs_or_unclear():
    # an end of +0.02 points (surely a cost) and one of -0.02 (perhaps a gain) both read "2.0
    # pts (0.0 to 4.0)"; the words are the review's since tests/test_words31.py
    from simtool.analysis import restrict

    def said(low: float) -> str:
        row = {"doing": "never upgrading", "strategy": "target", "win_cost": 0.02, "win_cost_low": low,
               "win_cost_high": 0.0398, "deals": 1000}
        return restrict.sentence(row)

    assert said(0.0002).startswith("Never upgrading costs target 2.0 points of win share per seat (95% interval "
                                   "0.02 to 4.0): unclear whether nearly as good or costs")
    assert said(-0.0002).startswith("Never upgrading costs target 2.0 points of win share per seat (95% interval "
                                    "-0.02 to 4.0): unclear")
    assert restrict.fmt_cost(0.02, 0.0002, 0.0398) == "2.0 (0.02 to 4.0)"
    assert restrict.fmt_cost(0.0, 0.0, 0.0) == "0.0 (0.0 to 0.0)"  # on 0: as before


def test_the_ladders_convergence_is_not_rounded_onto_its_1_point():
    # a search's top budget step whose interval ends at +0.996 points over fair has converged
    # (under 1 point with 95% confidence): its sentence read "(-0.4 to +1.0) ..., under 1
    # point", the end on the point it lies below; the review's skill verdict says "0.996"
    from simtool.analysis import ladder

    top = ladder.Rung(2, "pimc@samples=16", "pimc@samples=8", 0.253, 0.246, 0.25996, 0.25, 0.0, Path("t"))
    climbed = ladder.Ladder("black-white", 4, {}, "deal", [top])
    assert ladder.converged(climbed) is True
    assert ladder.convergence(climbed).startswith(
        "Converged: pimc@samples=16 over pimc@samples=8 gains +0.3 pts (-0.4 to +0.996) of win share")
    fair = ladder.Rung(1, "high", "random", 0.2504, 0.23, 0.27, 0.25, 0.0, Path("r"))
    assert ladder.gain_points(fair) == "0.0 pts (-2.0 to +2.0)"  # off both: as before


def test_the_skill_verdicts_doubling_end_near_0_shows_the_side_that_decides_still_gaining():
    # doubling the search's samples "still buys" when its gain is at least 1 point and its lower
    # end above 0 (the ladder's rule): +2.0 points from +0.02 reads "still buys"; from -0.02 "not
    # surely under 1". Both printed "(0.0 to 4.0)", the end on the 0 that decides the words
    from simtool.analysis import verdicts

    def said(low: float) -> str:
        return verdicts.skill_verdict((5.0, 4.0, 6.0), (12.0, 8.0, 16.0), (2.0, low, 3.98), 500).sentence

    assert ("Doubling the search's samples still buys +2.0 points (0.02 to 4.0): surely above 0, and 1 point or "
            "more at its estimate") in said(0.02)
    assert "Doubling the search's samples buys +2.0 points (-0.02 to 4.0), not surely under 1" in said(-0.02)


def test_one_rule_combines_each_end_of_a_difference_for_the_review_and_the_ladder():
    # Newcombe's MOVER, once written out in ladder.price and again in review.changes: the lower
    # end of a - b from a's distance down and b's distance up. 2 of 3 (20.8% to 93.9%) less 0 of
    # 3 (0% to 56.1%): -5.8 to +93.9 points; symmetric intervals: the half-widths in quadrature
    from simtool import stats

    lo1, hi1 = stats.wilson(2, 3)
    lo0, hi0 = stats.wilson(0, 3)
    d, low, high = stats.mover_difference((2 / 3, float(lo1), float(hi1)), (0.0, float(lo0), float(hi0)))
    assert d == 2 / 3 and low == d - math.hypot(d - lo1, hi0) and high == d + math.hypot(hi1 - d, -lo0)
    assert abs(low + 0.0586) < 5e-5 and abs(high - 0.939) < 5e-4
    d, low, high = stats.mover_difference((0.6, 0.55, 0.65), (0.4, 0.36, 0.44))
    half = math.hypot(0.05, 0.04)
    assert max(abs(d - 0.2), abs(low - (0.2 - half)), abs(high - (0.2 + half))) < 1e-12
