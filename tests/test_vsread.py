"""The changes table of ``simtool review --vs-rule`` / ``--baseline`` checked against real runs:
each row's figure, difference, interval and word as a designer reads them (docs/review.md,
"Comparing two versions")."""

from __future__ import annotations

from simtool.analysis import review as answers


def questions(restrictions: list[dict]) -> dict:
    """The least of a review's answers that the changes table reads: only crude play measured."""
    return {"seats": {"figure": None}, "skill": {}, "luck": {"figure": None}, "tension": {"figure": None},
            "hazards": [], "restrictions": restrictions}


def crude(cost: float, low: float, high: float, changed: float) -> dict:
    return {"name": "keep-queen", "cost_pts": cost, "ci_pts": [low, high], "changed": changed}


def test_a_crude_rule_that_never_binds_under_one_version_is_no_better_or_worse():
    """Hearts, --vs-rule passing=none (seed 11, quick): keep-queen cost ducker 2.3 points
    (2.1 to 2.4) with passing, and changed no result without it (its own sentence: "says nothing
    of whether crude play pays"); the row read 2.3 -> 0.0, "worse" for balance. Out-Trumped's
    no-kitty under kitty=none -> bid read "better" the same way."""
    before = questions([crude(2.262, 2.145, 2.380, 0.233)])
    after = questions([crude(0.0, -0.0023, 0.0023, 0.0)])
    (row,) = answers.changes(before, after)
    assert (row["change"], row["better"]) == ("changed", None)
    (row,) = answers.changes(after, before)
    assert (row["change"], row["better"]) == ("changed", None)
    # where it binds under both, a crude rule that costs more is still better for balance
    (row,) = answers.changes(before, questions([crude(0.858, 0.781, 0.936, 0.108)]))
    assert (row["change"], row["better"]) == ("worse", False)
