"""Verdicts on figures whose answer is known: thresholds exactly at the boundaries, intervals
across them, and win shares drawn with a known seat advantage."""

import numpy as np
import pytest

from simtool import stats
from simtool.analysis import verdicts


def point(seat: int, edge_pts: float, p: int = 4) -> tuple[int, float, float, float]:
    """A seat whose win share is known exactly (an interval of width 0)."""
    share = 1 / p + edge_pts / 100
    return seat, share, share, share


def interval(seat: int, low_pts: float, high_pts: float, p: int = 4) -> tuple[int, float, float, float]:
    fair = 1 / p
    return seat, fair + (low_pts + high_pts) / 200, fair + low_pts / 100, fair + high_pts / 100


@pytest.mark.parametrize("edge, word", [
    (0.0, "fair"), (0.999, "fair"), (-0.999, "fair"), (1.0, "slight"), (-1.0, "slight"),
    (2.999, "slight"), (3.0, "strong"), (-3.0, "strong"), (12.0, "strong")])
def test_seat_thresholds_exactly_at_the_boundaries(edge, word):
    # the other seats at fair: only the seat tested decides (edges need not sum to 0 here)
    shares = [point(0, edge)] + [point(s, 0.0) for s in (1, 2, 3)]
    assert verdicts.seat_verdict(shares, 4, 1000).word == word


@pytest.mark.parametrize("low, high, word, between", [
    (0.2, 0.999, "fair", None), (0.2, 1.0, "unclear", ["fair", "slight"]),
    (1.0, 2.9, "slight", None), (-2.9, -1.0, "slight", None), (-0.5, 1.5, "unclear", ["fair", "slight"]),
    (2.0, 3.5, "unclear", ["slight", "strong"]), (3.0, 9.0, "strong", None), (-9.0, -3.0, "strong", None),
    (0.5, 3.5, "unclear", ["fair", "strong"])])
def test_an_interval_decides_only_when_it_lies_in_one_band(low, high, word, between):
    v = verdicts.seat_verdict([interval(0, low, high), point(1, 0), point(2, 0), point(3, 0)], 4, 1000)
    assert v.word == word
    assert v.figures["unclear_between"] == between
    assert (v.more is not None) == (word == "unclear" and not np.isclose((low + high) / 2, 1.0))


def test_one_seat_surely_strong_decides_whatever_the_others():
    shares = [interval(0, 3.2, 6.0), interval(1, -4.0, 0.5), interval(2, -0.5, 0.5), interval(3, -2, -1.2)]
    v = verdicts.seat_verdict(shares, 4, 500)
    assert v.word == "strong" and v.more is None
    assert v.figures["seat"] == 0


def test_slight_needs_every_seat_below_three_and_one_surely_above_one():
    assert verdicts.seat_verdict([interval(0, 1.2, 2.8, 2), interval(1, -2.9, 0.1, 2)], 2, 100).word == "slight"
    assert verdicts.seat_verdict([interval(0, 1.2, 2.8, 2), interval(1, -3.1, 0.1, 2)], 2, 100).word == "unclear"
    assert verdicts.seat_verdict([interval(0, 0.2, 0.8, 2), interval(1, -0.8, -0.2, 2)], 2, 100).word == "fair"


def test_more_deals_follow_the_square_of_half_width_over_distance():
    # half-width 2, estimate 1 from the threshold: 100 (2/1)^2 = 400 deals in all
    assert verdicts.more_units(100, 2.0, 1.0) == 300
    assert verdicts.more_units(100, 1.0, 2.0) == 1  # settled already: at least one
    assert verdicts.more_units(100, 1.0, 0.0) is None  # on the threshold: nothing settles it
    # seat 0 at 2.0 +- 1.5 points straddles 3: at 1000 (1.5 / 1)^2 = 2250 deals its end lies on 3,
    # still "strong" by the bands; one more and it lies under
    v = verdicts.seat_verdict([interval(0, 0.5, 3.5), point(1, 0), point(2, 0), point(3, 0)], 4, 1000)
    assert v.word == "unclear" and v.more == 1251 and "about 1,251 more deals would settle it" in v.sentence


def test_unclear_more_deals_from_the_seat_past_the_threshold():
    # seat 0 at 3.5 +- 1 (past 3): 1000 (1/0.5)^2 = 4000 in all; seat 1 at -2 +- 1.5 would need more
    v = verdicts.seat_verdict([interval(0, 2.5, 4.5, 2), interval(1, -3.5, -0.5, 2)], 2, 1000)
    assert v.word == "unclear" and v.more == 3000


def test_seat_sentence_names_the_seat_and_its_interval():
    v = verdicts.seat_verdict([point(0, -5 / 3), point(1, -5 / 3), point(2, -5 / 3),
                               (3, 0.30, 0.291, 0.309)], 4, 10_000)
    assert v.sentence == ("Seat 3 wins 30.0% of deals, 5.0 points more than a fair 25.0%: a strong edge "
                          "favouring seat 3 (95% interval 4.1 to 5.9 points).")
    assert v.thresholds == {"slight": 1.0, "strong": 3.0}
    assert v.figures["seats"][3] == {"seat": 3, "share": 0.30, "fair": 0.25, "edge_pts": pytest.approx(5.0),
                                     "ci_pts": [pytest.approx(4.1), pytest.approx(5.9)]}
    against = verdicts.seat_verdict([(0, 0.45, 0.44, 0.46), (1, 0.53, 0.52, 0.54), (2, 0.02, 0.01, 0.03)],
                                    3, 10_000)
    assert against.word == "strong" and "31.3 points less than a fair 33.3%" in against.sentence
    assert "against seat 2" in against.sentence


def test_seat_line_is_one_line_with_word_and_thresholds():
    line = verdicts.seat_line([point(0, 0.2, 2), point(1, -0.2, 2)], 2, 5000)
    assert line.startswith("Seat verdict: fair.") and "\n" not in line and "strong >= 3" in line


def drawn_shares(win_prob: np.ndarray, n: int, seed: int) -> list[tuple[int, float, float, float]]:
    """Win shares of ``n`` deals with one winner drawn per deal from ``win_prob``, with intervals."""
    rng = np.random.default_rng(seed)
    winner = rng.choice(len(win_prob), size=n, p=win_prob)
    win = np.eye(len(win_prob))[winner]
    return [(s, *stats.unit_estimate(win[:, s], share=True)) for s in range(len(win_prob))]


def test_a_built_in_seat_advantage_is_strong_and_equal_seats_fair():
    assert verdicts.seat_verdict(drawn_shares(np.array([0.31, 0.23, 0.23, 0.23]), 20_000, 1), 4, 20_000).word \
        == "strong"
    assert verdicts.seat_verdict(drawn_shares(np.full(4, 0.25), 200_000, 2), 4, 200_000).word == "fair"
    small = verdicts.seat_verdict(drawn_shares(np.full(4, 0.25), 500, 3), 4, 500)
    assert small.word == "unclear" and small.more > 0


@pytest.mark.parametrize("gain, word", [(2.999, "little"), (3.0, "some"), (9.999, "some"), (10.0, "much"),
                                        (-4.0, "little")])
def test_skill_thresholds(gain, word):
    v = verdicts.skill_verdict((1.0, 0.5, 1.5), (gain, gain, gain), (0.2, -0.3, 0.7), 1000)
    assert v.word == word and v.figures["converged"]


def test_skill_is_a_lower_bound_unless_doubling_surely_buys_under_one_point():
    assert verdicts.skill_verdict((1, 0, 2), (12, 11, 13), (0.5, -0.5, 1.0), 100).figures["lower_bound"]
    assert not verdicts.skill_verdict((1, 0, 2), (12, 11, 13), (0.5, 0.0, 0.99), 100).figures["lower_bound"]
    unmeasured = verdicts.skill_verdict((1, 0, 2), (12, 11, 13), None, 100)
    assert unmeasured.figures["lower_bound"] and "lower bound" in unmeasured.sentence
    unclear = verdicts.skill_verdict((1, 0, 2), (9, 7, 11), None, 100)
    assert unclear.word == "unclear" and "unclear whether some or much" in unclear.sentence


@pytest.mark.parametrize("share, word", [(0.299, "low"), (0.3, "moderate"), (0.6, "high")])
def test_luck_thresholds(share, word):
    assert verdicts.luck_verdict(share, share, share, 100).word == word


def test_luck_interval_across_a_threshold_is_unclear():
    v = verdicts.luck_verdict(0.5, 0.4, 0.65, 2000)
    # the interval's end facing 0.6 is 0.15 above the estimate, 0.1 short of it: 2000 (0.15 / 0.1)^2 -
    # 2000 (its half-width, 0.125, once gave 1125, after which the end would still reach 0.62)
    assert v.word == "unclear" and "moderate or high" in v.sentence and v.more == 2501  # 2500: on 0.6


@pytest.mark.parametrize("rate, word", [(0.0, "rare"), (0.0099, "rare"), (0.01, "occasional"),
                                        (0.0999, "occasional"), (0.1, "common")])
def test_hazard_thresholds(rate, word):
    v = verdicts.hazard_verdict("bust", "goes bust", rate, rate, rate, 100)
    assert v.word == word and v.sentence.startswith("Each seat goes bust in ")


@pytest.mark.parametrize("share, word", [(0.0999, "low"), (0.1, "some"), (0.25, "high")])
def test_tension_thresholds(share, word):
    v = verdicts.tension_verdict((share, share, share), (1.0, 0.9, 1.1), (0.6, 0.55, 0.65), 100)
    assert v.word == word


@pytest.mark.parametrize("question, delta, low, high, expected", [
    ("seats", -2.0, -3.0, -1.0, "better"), ("seats", 2.0, 1.0, 3.0, "worse"),
    ("seats", -2.0, -3.0, 0.0, "no clear change"), ("skill", 2.0, 1.0, 3.0, "better"),
    ("skill", -2.0, -3.0, -1.0, "worse"), ("hazards", 0.02, 0.01, 0.03, "worse"),
    ("hazards", -0.02, -0.03, -0.01, "better"), ("tension", 0.05, 0.01, 0.09, "changed"),
    ("tension", 0.05, -0.01, 0.09, "no clear change"), ("luck", 0.1, 0.05, 0.15, "changed"),
    ("restrictions", 2.0, 1.0, 3.0, "better"), ("match:capped", 0.1, 0.05, 0.15, "worse"),
    ("skill", 2.0, float("nan"), float("nan"), "no clear change")])
def test_better_and_worse_go_by_the_question_not_the_sign(question, delta, low, high, expected):
    assert verdicts.change(verdicts.BETTER_WHEN[question], delta, low, high) == expected


@pytest.mark.parametrize("low, high, word", [(-0.5, 0.999, "nearly as good"), (-3.0, -1.0, "nearly as good"),
                                             (1.0, 4.0, "costs"), (0.5, 1.5, "unclear")])
def test_a_crude_rule_costing_under_one_point_is_flagged(low, high, word):
    v = verdicts.restriction_verdict("never upgrading", "target", (low + high) / 2, low, high, 1000)
    assert v.word == word and v.figures["flagged"] == (word == "nearly as good")
    assert v.sentence.startswith("Never upgrading costs target ")


def test_deals_to_come_are_said_as_roughly_as_they_are_known():
    assert [verdicts.rough(c) for c in (1, 1250, 9999, 10_000, 43_210, 987_654, 4_021_115, 12_500_000)] == [
        "1", "1,250", "9,999", "10,000", "43,000", "990,000", "4 million", "12 million"]
    v = verdicts.seat_verdict([interval(0, 0.5, 3.01), point(1, 0), point(2, 0), point(3, 0)], 4, 1_000_000)
    assert v.word == "unclear" and v.more > 1_000_000 and f"about {verdicts.rough(v.more)} more deals" in v.sentence
