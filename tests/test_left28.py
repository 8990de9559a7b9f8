"""The review's comparison of two rule versions, and the balance report's paired Δ, where the
versions' deals moved in few deals or none (left28)."""

import math

import numpy as np
import pytest

from simtool import stats
from simtool.analysis import review as answers


def _skill_source(win: np.ndarray) -> dict:
    """A review's questions with only the skill figure: the climber's win over a fair 25%."""
    value = 100 * (win.mean() - 0.25)
    return {"seats": {"figure": None}, "skill": {"figure": {"value": value, "ci": [value - 5.0, value + 5.0]}},
            "luck": {"figure": None}, "tension": {"figure": None}, "hazards": [], "restrictions": []}


def test_a_row_a_few_deals_moved_is_bounded_by_their_count_not_combined_as_independent():
    # before: 256 deals, none moved: ± 1.2 points (the rule of three); one moved: the two
    # versions' intervals (± 5.0 each here) combined as independent, ± 7.1; 29 moved, ± 7.1; 30,
    # the paired normal interval, ± 4.2. Now one rule from none up: the deals the change could
    # move unseen, at most Clopper-Pearson's 97.5% bound on their share, each by a whole win
    rng = np.random.default_rng(28)
    win = rng.integers(0, 2, 256).astype(float)
    halves = []
    for k in (0, 1, 3, 10, 29):
        moved = win.copy()
        moved[:k] = 1 - moved[:k]
        (row,) = [r for r in answers.changes(_skill_source(win), _skill_source(moved), {"skill": (moved, win)})
                  if r["question"] == "skill"]
        assert row["interval"] == (answers.ALIKE if k == 0 else answers.FEW), k
        assert row["delta"] == pytest.approx(100 * (moved.mean() - win.mean()))
        halves.append((row["ci"][1] - row["ci"][0]) / 2)
    assert halves == sorted(halves)  # never wider for less evidence of change
    assert [round(h, 2) for h in halves] == [1.16, 1.77, 2.21, 3.16, 4.53]


def test_the_few_moved_rule_covers_the_true_difference_95_times_in_100():
    # 256 deals, each moved by the rule with probability k/256, a moved deal's win by a whole win
    # (the widest a deal can move, where an unseen deal costs most): the row's interval holds
    # k/256 in 95% of samples or more, summed exactly over the count of deals that moved (a
    # simulation of 10,000 samples: 95.2% at k = 3, 98.7% at 10, 96.7% at 29; 100% at 0 and 1).
    # Before (a paired normal interval of the differences) a sample where none moved had an
    # interval of no width: at k = 1, 37% of samples missed
    n = 256
    for k in (1, 3, 10, 29):
        covered = 0.0
        for moved in range(n + 1):
            diff = np.zeros(n)
            diff[:moved] = 1.0
            _, low, high = answers.paired_interval(moved / n, diff, np.zeros(n), 1.0, 1.0)
            if low <= k / n <= high:
                covered += math.comb(n, moved) * (k / n) ** moved * (1 - k / n) ** (n - moved)
        assert covered >= 0.95, (k, covered)


def test_the_report_pairs_a_figure_a_few_deals_moved_by_the_same_rule():
    # Kansas City, 1,000 deals of seed 3 before and after four_bonus=3: seat 0's win moved in 27
    # deals; its Δ read "-0.6 pts ± 3.4 pts", the two runs' intervals combined as independent,
    # where none moved read ± 0.3: now ± 1.2, as the review's changes
    from simtool.reports import balance

    before = np.zeros(1000)
    after = before.copy()
    after[:27:2], after[1:27:2] = 1.0, -1.0
    a, b = (balance.Figure(float(x.mean()), float(x.mean()) - 0.03, float(x.mean()) + 0.03, x, points=True,
                           better="fair") for x in (after, before))
    d, _, ends, count, moved = balance.paired_change(a, b)
    assert (count, moved) == (1000, 27) and ends is not None
    half = stats.few_moved_half(after - before, 1.0)
    assert ends == pytest.approx((d - half, d + half)) and half == pytest.approx(0.0125, abs=5e-4)


def _seat_source(top: int, win: np.ndarray) -> dict:
    """A review's questions with only the seat figure, four seats, ``top`` the largest edge."""
    e = 100 * (win.mean() - 0.25)
    seats = [{"seat": s, "edge_pts": e if s == top else -e / 3} for s in range(4)]
    return {"seats": {"seats": seats, "figure": answers.magnitude(e, e - 6, e + 6)}, "skill": {"figure": None},
            "luck": {"figure": None}, "tension": {"figure": None}, "hazards": [], "restrictions": []}


def test_a_seat_edge_that_changes_side_is_bounded_by_two_wins_less_two_fair_shares():
    # four seats, 200 deals: seat 0 shares the win of 60% of deals with one other seat before,
    # its edge +6.0 points; after, seat 2 shares those seat 0 did not, -6.0. Each deal's value on
    # the side its version's estimate lies, w0 - 1/4 and 1/4 - w2, is alike (w0 + w2 = 1/2), and
    # the row read "every one alike in both" ± 1.49 points, the rule of three times one win; an
    # unseen deal seat 0 wins before and seat 2 after moves it by 2 - 2/4 = 1.5: ± 2.23
    w0 = np.where(np.random.default_rng(5).random(200) < 0.6, 0.5, 0.0)
    w2 = 0.5 - w0
    before, after = _seat_source(0, w0), _seat_source(2, w2)
    (row,) = [r for r in answers.changes(before, after, {"seats": (0.25 - w2, w0 - 0.25)}) if r["question"] == "seats"]
    three = 100 * stats.unseen(200)
    assert row["interval"] == answers.ALIKE and row["delta"] == pytest.approx(0.0, abs=1e-9)
    assert row["ci"] == pytest.approx([-1.5 * three, 1.5 * three]) and f"{1.5 * three:.2f}" == "2.23"
    # another seat on the same side of fair (the seats' roles rotated): a win less a win, one win
    rotated = _seat_source(2, w0)
    (row,) = [r for r in answers.changes(before, rotated, {"seats": (w0 - 0.25, w0 - 0.25)})
              if r["question"] == "seats"]
    assert row["ci"] == pytest.approx([-three, three])


def test_luck_of_two_versions_every_duplicate_deal_of_which_scored_alike_reads_as_the_alike_rows(tmp_path,
                                                                                                monkeypatch):
    # Nine Lives, lives_to_end=5 (whole matches only): every copy of every duplicate deal scores
    # alike in both versions, and the luck row read "26.8% -> 26.8% (difference 0.0 points (-1.9
    # to +1.9), independent)" of 4,096 duplicate deals (the quick review's 65,536: -0.4 to +0.4).
    # The two figures are one; what the rule could change unseen is the rule of three's share of
    # the deals, each moving the seats' variances by up to the squared spread of the scores.
    # Only the luck row is read: the other plays are cut to a few deals (the duplicate play of
    # 4,096 deals took 0.7 s of the review's 10), and the search's plays left out as for a game no
    # search plays (a deal of Nine Lives' search at every seat, in its five plays of each version,
    # was 6 s of the 10; luck is the heuristics' duplicate deals)
    import polars as pl

    from simtool.commands import review as reviews
    from simtool.commands.review import Sizes

    monkeypatch.setattr(reviews, "search_names", lambda game_id: (None, None))
    r = reviews.review("nine-lives", tmp_path / "r", vs_rules={"lives_to_end": 5}, seed=3, jobs=1,
                       sizes=Sizes(deals=8, matches=1, restrictions=8, duplicate=4096, search=1, random=0, leads=0))
    (row,) = [c for c in r["changes"] if c["question"] == "luck"]
    assert row["interval"] == answers.ALIKE and row["delta"] == 0.0 and row["before"] == row["after"]
    # by hand, from one version's scores: deals, copies, seats
    luck = sorted((tmp_path / "r" / "runs" / "luck").glob("*/seats.parquet"))
    y = [pl.read_parquet(f).sort("deal", "rotation", "seat")["score"].to_numpy().astype(float).reshape(-1, 4, 4)
         for f in luck]
    assert len(y) == 2 and np.array_equal(y[0], y[1]) and len(y[0]) == 4096
    u = 1 - 0.05 ** (1 / 4096)
    a = 4 * u * (1 + u) * np.ptp(y[0]) ** 2
    total = sum(y[0][:, :, seat].var() for seat in range(4))
    share = row["before"]
    assert row["ci"] == pytest.approx([-a * (1 + share) / (total + a), a * (1 + share) / (total - a)])
    assert [round(100 * x, 1) for x in row["ci"]] == [-3.9, 4.2]
    # the page's legend said luck's share is always combined as independent, and named no rule
    # for a row 1 to 29 deals moved
    page = " ".join((tmp_path / "r" / "review.html").read_text().split())
    assert "as for luck's share where every duplicate deal scored alike" in page
    assert "where 1 to 29 deals differed, the interval is never narrower than their count allows" in page
