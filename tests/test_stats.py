import numpy as np
import polars as pl
import pytest

import simtool
from simtool import stats
from simtool.analysis import of as analysis_of
from simtool.games.black_white import GAME


def test_wilson_known_values():
    lo, hi = stats.wilson(5, 10)
    assert np.allclose([lo, hi], [0.2366, 0.7634], atol=1e-4)
    lo, hi = stats.wilson(0, 20)
    assert lo == 0 and np.isclose(hi, 0.1611, atol=1e-4)


def test_mean_halfwidth():
    # Student's t at 0.975 (tables: 399 df 1.96590, 1 df 12.7062, 9 df 2.26216)
    assert np.isclose(stats.mean_halfwidth(2.0, 400), 1.965927 * 0.1)
    assert np.isclose(stats.mean_halfwidth(1.0, 2), 12.70620 / np.sqrt(2))
    assert np.isclose(stats.mean_halfwidth(1.0, 10), 2.262157 / np.sqrt(10))


def test_students_quantile_agrees_with_scipys_on_both_sides_of_the_expansion():
    from scipy import stats as reference

    df = np.array([1, 2, 3, 7, 29, 30, 31, 45, 100, 399, 2999, 1e5, 1e8])
    for z in (stats.Z95, 2.5):
        exact = reference.t.ppf(reference.norm.cdf(z), df)
        assert np.allclose(stats.student(z, df), exact, rtol=2e-7, atol=0)


def test_a_mean_from_few_deals_gets_students_interval():
    """A mean from 2 deals printed "8.0 ± 7.8", the normal interval, which holds the truth 70% of
    the time from 2 values; Student's on 1 degree of freedom is 6.5 times as wide. With --rotate
    the variance is within strata: a degree of freedom less per stratum."""
    scores = np.array([2.0, 14.0])
    value, low, high = stats.unit_estimate(scores)
    assert value == 8.0 and np.isclose(high - value, 12.70620 * 6.0)
    assert np.isclose(stats.mean_interval(scores)[1], 12.70620 * 6.0)
    rotated = np.array([1.0, 5.0, 2.0, 8.0, 3.0, 3.0])  # strata 0, 1, 0, 1, 0, 1: 3 + 3 units, 4 df
    value, low, high = stats.unit_estimate(rotated, strata=np.arange(6) % 2)
    within = sum(rotated[s::2].var(ddof=1) * 3 for s in (0, 1)) / 36  # var of the mean of 6
    assert np.isclose(high - value, 2.776445 * np.sqrt(within))


def test_seat_summary_matches_a_direct_computation():
    r = simtool.run("black-white", n=3000, players=3, seed=2, strategy="balance")
    table = r.summary()
    seat0 = r.seats.filter(pl.col("seat") == 0)
    row = table.filter(pl.col("seat") == 0).row(0, named=True)
    assert row["n"] == 3000 and row["strategy"] == "balance"
    assert np.isclose(row["score"], seat0["score"].mean())
    half = 1.960755 * seat0["score"].std() / np.sqrt(3000)  # Student's t at 0.975, 2999 df
    assert np.isclose(row["score_high"] - row["score"], half) and np.isclose(row["score"] - row["score_low"], half)
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
    assert analysis_of(GAME).rates.keys() <= set(r.summary().columns)


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
    # with two seats Hotelling's T² is the square of the t statistic of seat 0's share
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


def test_cluster_bootstrap_draws_kept_from_an_earlier_call_give_the_fresh_interval(monkeypatch):
    """The unit draws of a seed and strata sizes are kept for later calls (the metrics of one run
    share them): a later call on other sums gets exactly the interval fresh draws give, and a call
    with other strata sizes in between does not get them."""
    rng = np.random.default_rng(8)
    first, between, second = (rng.random((n, 2)) + [0, 1] for n in (120, 90, 120))
    strata = np.arange(120) % 3

    def ratio(t):
        return t[:, 0] / t[:, 1]

    stats.cluster_bootstrap(first, ratio, strata)  # keeps the draws of three strata of 40 units
    stats.cluster_bootstrap(between, ratio)  # one stratum of 90
    kept = stats.cluster_bootstrap(second, ratio, strata)
    monkeypatch.setattr(stats, "KEPT_DRAWS", 0)  # nothing kept: every call draws afresh
    assert kept == stats.cluster_bootstrap(second, ratio, strata)
    low, high = kept
    assert low < ratio(second.sum(axis=0, keepdims=True))[0] < high


def test_paired_difference_is_narrower_than_independent_when_deals_are_shared():
    rng = np.random.default_rng(5)
    luck = rng.normal(0, 3, 10_000)  # the deal, shared by both runs
    a, b = luck + rng.normal(0.1, 1, 10_000), luck + rng.normal(0, 1, 10_000)
    diff, half = stats.paired_difference(a, b)
    (ma, ha), (mb, hb) = stats.mean_interval(a), stats.mean_interval(b)
    _, low, high = stats.mover_difference((ma, ma - ha, ma + ha), (mb, mb - hb, mb + hb))
    loose = (high - low) / 2
    assert abs(diff - 0.1) < 2 * half and half < loose / 2
    assert np.isclose(half, 1.960201 * np.std(a - b, ddof=1) / 100)  # Student's t, 9999 df


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
    assert best["strategy"] == "a" and best["win"] == 1 and best["skill"] == 1
    assert best["win_high"] == 1 and 0.99 < best["win_low"] < 1  # no spread: Wilson on the deals


def test_panel_reads_seat_rows_per_deal():
    r = simtool.run("black-white", n=500, players=3, seed=2)
    win = stats.panel(r.seats, "win", 3)
    assert win.shape == (500, 3) and np.allclose(win.sum(axis=1), 1)
    with pytest.raises(ValueError):
        stats.panel(r.seats.sort("seat"), "win", 3)


def test_ratio_estimate_weights_rounds_not_matches():
    # one long match with a low rate, many short ones with a high rate
    k, m = np.array([1] + [2] * 99), np.array([100] + [2] * 99)
    rate, low, high = stats.unit_estimate(k, m, share=True)
    assert rate == 199 / 298 and low < rate < high
    # the delta-method variance, by hand
    resid = k - rate * m
    se = np.sqrt((resid ** 2).sum() / (100 * 99)) / m.mean()
    value, low, high = stats.unit_estimate(k, m)
    t = 1.984217  # Student's t at 0.975, 99 df
    assert np.isclose(high - value, t * se) and np.isclose(value - low, t * se)


def test_polars_and_numpy_paths_agree():
    """estimates (seat rows) and unit_estimate (per-unit sums) are one rule."""
    rng = np.random.default_rng(8)
    rows = pl.DataFrame({"deal": np.repeat(np.arange(500), 3), "g": np.tile([0, 0, 1], 500),
                         "x": rng.random(1500) < np.repeat(rng.random(500), 3)})
    est = stats.estimates(rows, {"x": pl.col("x")}, ["g"], strata=None).filter(pl.col("g") == 0).row(0, named=True)
    per_deal = rows.filter(pl.col("g") == 0).group_by("deal").agg(pl.col("x").sum().alias("k"), pl.len().alias("m"))
    value, low, high = stats.unit_estimate(per_deal["k"], per_deal["m"], share=True)
    assert np.allclose([est["value"], est["low"], est["high"]], [value, low, high])
    strata = stats.estimates(rows, {"x": pl.col("x")}, ["g"], strata=4).filter(pl.col("g") == 0).row(0, named=True)
    v2, l2, h2 = stats.unit_estimate(per_deal["k"], per_deal["m"], per_deal["deal"] % 4, share=True)
    assert np.allclose([strata["value"], strata["low"], strata["high"]], [v2, l2, h2])


def test_rows_of_one_deal_are_one_unit():
    """A count table over seat rows: when every seat of a deal has the same value, the
    interval is the one of the deals, not of four times as many independent rows."""
    rng = np.random.default_rng(9)
    value = np.repeat(rng.integers(0, 3, 2000), 4)
    rows = pl.DataFrame({"deal": np.repeat(np.arange(2000), 4), "v": value})
    table = stats.count_distribution(rows, "v", range(3)).row(1, named=True)
    by_deal = stats.wilson((value[::4] == 1).sum(), 2000)
    assert np.isclose(table["share_low"], by_deal[0], atol=1e-3)
    assert np.isclose(table["share_high"], by_deal[1], atol=1e-3)
    assert table["n"] == (value == 1).sum()


def test_rotation_strata_remove_the_seat_effect_from_the_variance():
    # a strategy that mostly wins when it sits in seat 0, rotated: most of its variance per
    # deal comes from the deal's stratum, which rotation fixes by design
    n, p = 3000, 3
    ids = np.arange(n)
    rng = np.random.default_rng(11)
    win = np.where(ids % p == 0, rng.random(n) < 0.95, rng.random(n) < 0.02).astype(float)
    _, low, high = stats.unit_estimate(win, share=True)
    _, slow, shigh = stats.unit_estimate(win, strata=ids % p, share=True)
    assert shigh - slow < (high - low) / 2


def test_tiny_runs_get_honest_intervals_and_no_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = simtool.run("black-white", n=1, seed=2)
        row = r.summary().filter(pl.col("win") == 1).row(0, named=True)
        assert np.isclose(row["win_low"], 0.2065, atol=1e-3) and row["win_high"] == 1  # Wilson on 1 deal
        assert np.isnan(row["score_low"])  # no interval for a mean from one deal
        assert stats.fmt_mean(row["score"], row["score_low"], row["score_high"]).endswith("± n/a")
        t = stats.seat_test(stats.panel(r.seats, "win", 3))
        assert t.p_value == 1.0 and t.df == 0
        assert stats.mean_interval([3.0])[1] != stats.mean_interval([3.0])[1]  # NaN
        r.tables()
    lo, hi = stats.wilson(0, 50)
    assert stats.fmt_rate(0.0, lo, hi) == "0.0% (0.0–7.1)"
    assert "-0.0" not in stats.fmt_rate(0.0, -1e-17, 0.01)


def test_hotelling_f_is_exact_for_small_samples():
    rng = np.random.default_rng(10)
    rejected = np.mean([stats.seat_test(np.eye(3)[rng.integers(0, 3, 30)]).p_value < 0.05
                        for _ in range(2000)])
    assert 0.035 <= rejected <= 0.065


def test_progress_knows_its_total_from_the_start():
    calls = []
    simtool.run("black-white", n=1, seed=1, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 1), (1, 1)]


def test_rotated_match_figures_belong_to_their_seat_and_strategy():
    r = simtool.run("kansas-city", n=600, unit="match", seed=3, strategy="target",
                    seats={0: "greedy"}, rotate=True)
    table = r.summary()
    direct = r.matches.group_by("seat", "strategy").agg(pl.col("win").mean().alias("direct"),
                                                        pl.len().alias("count"))
    joined = table.join(direct, on=["seat", "strategy"])
    assert joined.height == 8 and np.allclose(joined["match_win"], joined["direct"])
    assert (joined["matches"] == joined["count"]).all()
    seat0 = joined.filter(pl.col("seat") == 0).sort("strategy")
    assert seat0["match_win"][0] != seat0["match_win"][1]  # greedy and target at seat 0 differ


def test_result_tables_have_numeric_intervals_for_every_figure():
    r = simtool.run("out-trumped", n=800, seed=2, seats={0: "random"}, rotate=True)
    tables = r.tables()
    assert {"By seat and strategy", "By strategy (seats pooled)", "Seat advantage (deals)",
            "Strategy strength (win share per seat held)", "Rates by seat (deals)",
            "Trump bonus or penalty per hand (seat-hands)"} <= set(tables)
    for title, df in tables.items():
        lows = [c for c in df.columns if c.endswith("_low")]
        assert lows, title
        for low in lows:
            figure = low[: -len("_low")]
            assert df[figure].dtype == pl.Float64 and df[low].dtype == pl.Float64
            ok = df.filter(pl.col(low).is_not_nan())
            assert ((ok[low] <= ok[figure]) & (ok[figure] <= ok[f"{figure}_high"])).all(), (title, figure)
    strength = tables["Strategy strength (win share per seat held)"]
    pooled = tables["By strategy (seats pooled)"]
    both = strength.join(pooled.with_columns(pl.col("strategy").cast(pl.String)), on="strategy")
    assert np.allclose(both["win_low"], both["win_low_right"])  # one rule, whichever table


def test_count_distribution_counted_in_numpy_is_the_streamed_count_exactly(monkeypatch):
    # small frames are counted in numpy, large ones by polars' streaming query: the same numbers
    rng = np.random.default_rng(5)
    rows = pl.DataFrame({"deal": np.repeat(np.arange(300), 4), "x": rng.integers(-6, 13, 1200)})
    small = stats.count_distribution(rows, "x", range(-6, 13))
    monkeypatch.setattr(stats, "COUNTED_IN_NUMPY", 10)
    assert small.equals(stats.count_distribution(rows, "x", range(-6, 13)))
    direct = stats.estimates(rows, {str(v): pl.col("x") == v for v in range(-6, 13)})
    assert small["share_low"].to_list() == direct["low"].to_list()
    assert small["n"].to_list() == [int((rows["x"] == v).sum()) for v in range(-6, 13)]


def test_skill_index_runs_from_minus_one_to_one():
    # before: below chance the edge was scaled by the winning range too: three seats of four that
    # won 15% per seat held read -1.2 (never winning -3.0), under a glossary of 0 = luck, 1 = always
    n = 2000
    codes = np.tile([0, 1, 1, 1], (n, 1))
    never = np.tile([1.0, 0.0, 0.0, 0.0], (n, 1))
    rows = {r["strategy"]: r for r in stats.strategy_strength(never, codes, ["a", "b"]).iter_rows(named=True)}
    assert rows["a"]["skill"] == 1 and rows["b"]["skill"] == -1
    some = np.tile([0.0, 1.0, 0.0, 0.0], (n, 1))
    some[: int(0.55 * n)] = [1.0, 0.0, 0.0, 0.0]  # b's seats win 45% of deals: 15% per seat held
    b = stats.strategy_strength(some, codes, ["a", "b"]).filter(pl.col("strategy") == "b").row(0, named=True)
    assert b["win"] == pytest.approx(0.15) and b["skill"] == pytest.approx((0.15 - 0.25) / 0.25)
    assert stats.skill_index(0.25, 0.25, 0.25) != stats.skill_index(0.25, 0.25, 0.25)  # no range: nan
