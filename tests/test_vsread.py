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


def test_figures_that_differ_never_show_alike_in_the_changes_table():
    """Hearts --vs-rule passing=none (seed 11, quick): the largest seat edge, 0.128 then 0.076
    points, read "0.1 points -> 0.1 points (difference -0.1 points ...)"; Black & White deck=30:
    3.055 then 3.064 rounds a match read "3.1 -> 3.1 (difference +0.01 ...): changed"."""
    from simtool.reports.review import change_rows

    rows = change_rows({"changes": [
        {"question": "seats", "before": 0.1281, "after": 0.0759, "delta": -0.0523, "ci": [-0.2288, 0.1243],
         "better": None, "change": "no clear change", "interval": "paired on the same deals"},
        {"question": "match: rounds", "before": 3.0552, "after": 3.0640, "delta": 0.0088, "ci": [0.0032, 0.0144],
         "better": None, "change": "changed", "interval": "independent"},
        {"question": "match: capped", "before": 0.0, "after": 0.0, "delta": 0.0, "ci": [-0.0003, 0.0003],
         "better": None, "change": "no clear change", "interval": "independent"}]})
    assert [(r["before_text"], r["after_text"]) for r in rows] == [
        ("0.13 points", "0.08 points"), ("3.055", "3.064"), ("0.0%", "0.0%")]
