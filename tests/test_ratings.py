"""Ratings over many strategies: constructed games with a known order, and a sweep's report."""

import numpy as np
import polars as pl

import simtool
from simtool import ratings, report


def held_table(rng, deals, strengths):
    """Per deal, each strategy's win share per seat held: the strongest present wins, except
    that with probability 0.2 a random one does."""
    names = list(strengths)
    s = np.array([strengths[n] for n in names], float)
    present = rng.random((deals, len(names))) < 0.8
    present[present.sum(axis=1) < 2] = True
    key = np.where(present, s + np.where(rng.random((deals, 1)) < 0.2, rng.random((deals, len(names))) * 10, 0), -np.inf)
    win = (key == key.max(axis=1, keepdims=True)).astype(float)
    return pl.DataFrame({n: np.where(present[:, i], win[:, i], np.nan) for i, n in enumerate(names)},
                        nan_to_null=True)


def test_a_known_order_is_recovered_with_separated_intervals():
    rng = np.random.default_rng(3)
    tables = [held_table(rng, 1500, {"strong": 3, "middle": 2, "weak": 1}) for _ in range(2)]
    t = ratings.rate(tables)
    assert t["strategy"].to_list() == ["strong", "middle", "weak"]
    # strong wins most of its games: clearly apart; middle and weak mostly tie at zero behind it
    assert t["rating_low"][0] > t["rating_high"][1]
    assert t.equals(ratings.rate(tables))  # one fixed order: the same report twice


def test_equal_strategies_overlap():
    rng = np.random.default_rng(4)
    names = ["a", "b"]
    win = rng.integers(0, 2, 3000).astype(float)
    t = ratings.rate([pl.DataFrame({"a": win, "b": 1 - win})])
    assert t["rating_low"].max() < t["rating_high"].min()
    assert set(t["strategy"]) == set(names)


def test_no_games_between_strategies_gives_no_ratings():
    assert ratings.rate([pl.DataFrame({"a": [1.0, 0.5], "b": [None, None]})]) is None


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
