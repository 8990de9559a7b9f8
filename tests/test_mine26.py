"""A rule that leaves every deal as it was, in the review's changes table."""

import numpy as np
import pytest

from simtool.analysis import review as answers


def _headline_source(win: np.ndarray) -> dict:
    """A review's questions with only the skill figure: the climber's win over a fair 25%."""
    value = 100 * (win.mean() - 0.25)
    return {"seats": {"figure": None}, "skill": {"figure": {"value": value, "ci": [value - 5.0, value + 5.0]}},
            "luck": {"figure": None}, "tension": {"figure": None}, "hazards": [], "restrictions": []}


def test_a_change_no_deal_shows_is_bounded_by_the_rule_of_three():
    # Nine Lives, lives_to_end=5 (whole matches only), 256 search deals played alike in both
    # versions: "skill 27.6 -> 27.6 points (difference 0.0 points (-4.2 to +4.2), independent): no
    # clear change". Each deal's win is within 0 to 1: the rule changes at most 1 - 0.05^(1/256)
    # of the deals unseen, 1.2 points of win share
    rng = np.random.default_rng(1)
    win = rng.integers(0, 2, 256).astype(float)
    before = after = _headline_source(win)
    rows = {r["question"]: r for r in answers.changes(before, after, {"skill": (win, win.copy())})}
    row = rows["skill"]
    three = 100 * (1 - 0.05 ** (1 / 256))
    assert row["interval"] == answers.ALIKE and row["delta"] == 0.0
    assert row["ci"] == pytest.approx([-three, three]) and three == pytest.approx(1.163, abs=1e-3)
    # one deal that differs is no longer "alike", but paired all the same, bounded by the count
    # of deals that differ (test_left28)
    moved = win.copy()
    moved[0] = 1 - moved[0]
    rows = {r["question"]: r for r in answers.changes(_headline_source(moved), before, {"skill": (win, moved)})}
    assert rows["skill"]["interval"] == answers.FEW


def test_a_price_moves_by_up_to_two_wins_a_deal():
    def half(key: str, n: int) -> float:
        alike = np.zeros(n)
        return answers.paired_interval(0.0, alike, alike, 100.0, answers.span(key))[2]

    one = half("skill", 256)
    assert half("hidden information", 256) == pytest.approx(2 * one)
    assert half("restrictions: keep-queen", 100) == pytest.approx(200 * (1 - 0.05 ** 0.01))


def test_a_lead_historys_estimators_are_named_as_they_estimate():
    # ismcts has pimc's samples but reports no estimate of its own: its run.json read "its own
    # play-outs when choosing (16 worlds per option ...)" where every estimate was the observer's;
    # a restricted pimc (which reports) read "observer", and clairvoyant (one world, the true
    # deal, reporting) "observer" too
    from simtool.pipeline import leads

    said = leads.describe("out-trumped", ["ismcts", "ismcts~no-kitty", "pimc@samples=4~no-kitty", "clairvoyant",
                                          "random"], 4)["estimator"]
    assert said["ismcts"].startswith("observer: 16 re-deals") and said["random"].startswith("observer")
    assert said["ismcts~no-kitty"].startswith("its own play-outs when choosing (16 worlds per option")
    assert said["pimc@samples=4~no-kitty"].startswith("its own play-outs when choosing (4 worlds per option")
    assert said["pimc@samples=4~no-kitty"].endswith("otherwise observer: 16 re-deals from the seat's view, "
                                                     "played out by hoarder")
    assert said["clairvoyant"].startswith("its own play-outs when choosing (the true deal alone, play-outs by")
