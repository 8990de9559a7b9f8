"""Ratings over many strategies: constructed games with a known order, and a sweep's report."""

import numpy as np

import simtool
from simtool.analysis import ratings
from simtool.reports import balance as report


def seat_table(rng, deals, strengths, p=3):
    """Deals of ``p`` seats, each held by one of the strategies at random (two at least meet):
    the strongest seat wins, except that with probability 0.2 a random seat does."""
    names = list(strengths)
    codes = rng.integers(0, len(names), (deals, p))
    codes[:, 1] = np.where(codes[:, 0] == codes[:, 1], (codes[:, 1] + 1) % len(names), codes[:, 1])
    s = np.array([strengths[n] for n in names], float)[codes]
    key = s + rng.random((deals, p)) * 0.1 + np.where(rng.random((deals, 1)) < 0.2, rng.random((deals, p)) * 10, 0)
    win = (key == key.max(axis=1, keepdims=True)).astype(float)
    return ratings.held(win, codes, names)


def test_a_known_order_is_recovered_with_separated_intervals():
    rng = np.random.default_rng(3)
    tables = [seat_table(rng, 1500, {"strong": 3, "middle": 2, "weak": 1}) for _ in range(2)]
    t = ratings.rate(tables)
    assert t["strategy"].to_list() == ["strong", "middle", "weak"]
    assert t["rating_low"][0] > t["rating_high"][1] and t["rating_low"][1] > t["rating_high"][2]
    assert t.equals(ratings.rate(tables))  # one fixed order: the same report twice


def test_equal_strategies_overlap_whatever_seats_they_hold():
    """One seat of ``a`` against three of ``b``, the winner a uniformly random seat: ``a`` wins a
    quarter of the deals, as it should, and must not be rated below ``b`` for holding fewer seats."""
    rng = np.random.default_rng(4)
    deals = 3000
    codes = np.tile([0, 1, 1, 1], (deals, 1))
    win = np.eye(4)[rng.integers(0, 4, deals)]
    t = ratings.rate([ratings.held(win, codes, ["a", "b"])])
    assert t["rating_low"].max() < t["rating_high"].min()
    assert abs(t["rating"][0] - t["rating"][1]) < 0.5 and set(t["strategy"]) == {"a", "b"}


def test_deals_where_one_strategy_holds_every_seat_are_not_games():
    assert ratings.held(np.eye(3)[[0, 1]], np.zeros((2, 3), int), ["a"]).height == 0
    assert ratings.rate([ratings.held(np.eye(3)[[0, 1]], np.zeros((2, 3), int), ["a"])]) is None


def test_runs_of_a_game_get_a_rating_table_and_chart(tmp_path):
    folders = []
    for i, seats in enumerate(({0: "balance"}, {0: "balance", 1: "high"})):
        folders.append(tmp_path / f"r{i}")
        simtool.run("black-white", n=400, players=3, strategy="random", seats=seats, seed=1,
                    rotate=True, out=folders[-1])
    t = report.rating_table(folders)
    assert t["strategy"][0] == "balance" and {"rating_low", "rating_high"} <= set(t.columns)
    html = report.render(folders)
    assert "Ratings over all runs" in html and "Plackett-Luce" in html


def test_update_is_openskills_plackett_luce_to_the_last_bit():
    """The update written out is openskill's own ``PlackettLuce(tau=0).rate`` for teams of one:
    random ratings, 2 to 7 seats, scores with and without ties (every seat tied too)."""
    from openskill.models import PlackettLuce

    model, rng = PlackettLuce(tau=0), np.random.default_rng(7)
    for trial in range(600):
        p = int(rng.integers(2, 8))
        before = [(float(m), float(s)) for m, s in zip(rng.uniform(15, 35, p), rng.uniform(0.3, 8.4, p), strict=True)]
        scores = [float(s) for s in (rng.random(p) if trial % 2 else rng.integers(0, 3, p) / 2)]
        scores = [1.0] * p if trial % 50 == 0 else scores
        expected = model.rate([[model.rating(mu=m, sigma=s)] for m, s in before], scores=scores)
        assert ratings.update(before, scores) == [(team[0].mu, team[0].sigma) for team in expected]


def test_a_strategy_holding_several_seats_moves_by_numpys_mean_of_their_updates():
    rng = np.random.default_rng(8)
    for k in range(1, 12):
        values = [float(v) for v in rng.uniform(0, 30, k)]
        assert ratings.mean(values) == float(np.mean(values))
