import numpy as np
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
