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


def _skill_source(win: np.ndarray) -> dict:
    value = 100 * (win.mean() - 0.25)
    return {"seats": {"figure": None}, "skill": {"figure": {"value": value, "ci": [value - 5.0, value + 5.0]}},
            "luck": {"figure": None}, "tension": {"figure": None}, "hazards": [], "restrictions": []}


def test_a_review_row_few_deals_moved_says_so_in_its_interval_not_plain_paired():
    # 256 deals of the climber's win, 3 moved: review.json and the console line said "paired on
    # the same deals", as of a row 30 or more moved whose interval is the differences' normal
    # one; its interval is the count's bound (few_moved_half), which the page's legend names
    from simtool.analysis import review as answers

    win = np.random.default_rng(28).integers(0, 2, 256).astype(float)
    label = {}
    for k in (0, 3, answers.PAIRED_LEAST - 1, answers.PAIRED_LEAST):
        moved = win.copy()
        moved[:k] = 1 - moved[:k]
        (row,) = [r for r in answers.changes(_skill_source(win), _skill_source(moved), {"skill": (moved, win)})
                  if r["question"] == "skill"]
        label[k] = row["interval"]
    assert label == {0: answers.ALIKE, 3: answers.FEW, 29: answers.FEW, 30: answers.PAIRED}
    assert answers.FEW == f"paired on the same deals, 1 to {answers.PAIRED_LEAST - 1} differing"


def test_the_docs_name_the_paired_figures_taken_as_independent_as_the_note_does():
    # docs/cli.md and docs/language.md said a figure 1 to 29 deals moved is paired and bounded by
    # their count, and said nothing of one every one of whose fewer than 30 deals moved, which
    # the code combines as independent and the note names
    from pathlib import Path

    note = balance._few_text(["seat 0 edge over fair share"], [], [], "deals")
    assert f"differ in every one of fewer than {balance.PAIRED_LEAST} deals" in note
    root = Path(__file__).resolve().parents[1]
    for name in ("docs/cli.md", "docs/language.md"):
        text = " ".join((root / name).read_text().split())
        assert f"differs in every one of fewer than {balance.PAIRED_LEAST} deals" in text, name
        assert "a duplicate deal" in text and "any copy of it" in text, name
