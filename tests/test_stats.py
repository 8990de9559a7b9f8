import numpy as np
import pytest
import polars as pl

import simtool
from simtool import stats
from simtool.games.black_white import GAME


def test_wilson_known_values():
    lo, hi = stats.wilson(5, 10)
    assert np.allclose([lo, hi], [0.2366, 0.7634], atol=1e-4)
    lo, hi = stats.wilson(0, 20)
    assert lo == 0 and np.isclose(hi, 0.1611, atol=1e-4)


def test_mean_halfwidth():
    assert np.isclose(stats.mean_halfwidth(2.0, 400), 1.959964 * 0.1)


def test_seat_summary_matches_a_direct_computation():
    r = simtool.run("black-white", n=3000, players=3, seed=2, strategy="balance")
    table = r.summary()
    seat0 = r.seats.filter(pl.col("seat") == 0)
    row = table.filter(pl.col("seat") == 0).row(0, named=True)
    assert row["n"] == 3000 and row["strategy"] == "balance"
    assert np.isclose(row["score"], seat0["score"].mean())
    assert np.isclose(row["score_ci"], 1.959964 * seat0["score"].std() / np.sqrt(3000))
    balanced = (seat0["black"] == seat0["white"]).mean()
    assert np.isclose(row["balanced"], balanced)
    assert row["balanced_low"] < balanced < row["balanced_high"]


def test_api_and_cli_give_the_same_tables(tmp_path):
    from typer.testing import CliRunner

    from simtool.cli import app

    r = simtool.run("black-white", n=1500, players=4, seed=8, strategy="duck", jobs=1)
    CliRunner().invoke(app, ["run", "--n", "1500", "--players", "4", "--seed", "8",
                             "--strategy", "duck", "--out", str(tmp_path), "-q"])
    assert r.seats.equals(pl.read_parquet(tmp_path / "seats.parquet"))
    assert r.seats.to_pandas().shape == (6000, 8)
    assert GAME.rates.keys() <= set(r.summary().columns)


def coin_deals(n, p_first, seed):
    """Two seats, one winner per deal: seat 0 wins with probability ``p_first``."""
    first = np.random.default_rng(seed).random(n) < p_first
    return np.stack([first, ~first], axis=1).astype(float)


def test_fair_coin_seat_test_does_not_reject():
    rejected = [stats.seat_test(coin_deals(4000, 0.5, seed)).p_value < 0.05 for seed in range(200)]
    assert 0.01 <= np.mean(rejected) <= 0.10  # about 5% false alarms, as a 5% test should


def test_biased_coin_seat_test_rejects():
    t = stats.seat_test(coin_deals(20_000, 0.52, 1))
    assert t.df == 1 and t.p_value < 1e-4
    # with two seats the Wald statistic is the square of the z test of seat 0's share
    w = coin_deals(20_000, 0.52, 1)[:, 0]
    z = (w.mean() - 0.5) / (w.std(ddof=1) / np.sqrt(len(w)))
    assert np.isclose(t.statistic, z * z)


def test_seat_test_three_seats_uses_their_covariance():
    rng = np.random.default_rng(3)
    winner = rng.choice(3, size=30_000, p=[0.34, 0.33, 0.33])
    fair = np.eye(3)[winner]
    assert stats.seat_test(fair).df == 2 and stats.seat_test(fair).p_value > 0.001
    winner = rng.choice(3, size=30_000, p=[0.36, 0.32, 0.32])
    assert stats.seat_test(np.eye(3)[winner]).p_value < 1e-6
    assert stats.seat_test(np.full((100, 3), 1 / 3)).p_value == 1.0  # no spread at all


def test_bootstrap_agrees_with_the_normal_interval_on_a_large_sample():
    values = np.random.default_rng(4).exponential(2.0, 5000)
    mean, half = stats.mean_interval(values)
    lo, hi = stats.bootstrap_interval(values)
    assert abs(lo - (mean - half)) < 0.02 and abs(hi - (mean + half)) < 0.02
    lo, hi = stats.bootstrap_interval(values, np.median)
    assert lo < np.median(values) < hi


def test_paired_difference_is_narrower_than_independent_when_deals_are_shared():
    rng = np.random.default_rng(5)
    luck = rng.normal(0, 3, 10_000)  # the deal, shared by both runs
    a, b = luck + rng.normal(0.1, 1, 10_000), luck + rng.normal(0, 1, 10_000)
    diff, half = stats.paired_difference(a, b)
    _, loose = stats.independent_difference(*stats.mean_interval(a), *stats.mean_interval(b))
    assert abs(diff - 0.1) < 2 * half and half < loose / 2
    assert np.isclose(half, stats.Z95 * np.std(a - b, ddof=1) / 100)


def test_strategy_strength_clusters_by_deal():
    # seat 0 always wins; strategy 0 sits in seat 0 on even deals, seat 1 on odd ones
    n = 1000
    win = np.tile([1.0, 0.0], (n, 1))
    codes = np.where(np.arange(n)[:, None] % 2 == 0, [[0, 1]], [[1, 0]])
    table = stats.strategy_strength(win, codes, ["a", "b"])
    a = table.filter(pl.col("strategy") == "a").row(0, named=True)
    assert a["win"] == 0.5 and a["chance"] == 0.5 and a["edge"] == 0 and a["skill"] == 0
    codes = np.zeros((n, 2), int)
    codes[:, 1] = 1
    best = stats.strategy_strength(win, codes, ["a", "b"]).row(0, named=True)
    assert best["strategy"] == "a" and best["win"] == 1 and best["skill"] == 1 and best["win_ci"] == 0


def test_panel_reads_seat_rows_per_deal():
    r = simtool.run("black-white", n=500, players=3, seed=2)
    win = stats.panel(r.seats, "win", 3)
    assert win.shape == (500, 3) and np.allclose(win.sum(axis=1), 1)
    with pytest.raises(ValueError):
        stats.panel(r.seats.sort("seat"), "win", 3)


def test_ratio_interval_weights_rounds_not_matches():
    # one long match with a low rate, many short ones with a high rate
    k, m = np.array([1] + [2] * 99), np.array([100] + [2] * 99)
    rate, half = stats.ratio_interval(k, m)
    assert rate == 199 / 298 and half > 0
    rng = np.random.default_rng(6)  # and its interval covers as often as it should
    covered = 0
    for _ in range(400):
        m = rng.integers(1, 30, 200)
        k = rng.binomial(m, 0.3)
        r, h = stats.ratio_interval(k, m)
        covered += abs(r - 0.3) <= h
    assert 0.92 <= covered / 400 <= 0.98
