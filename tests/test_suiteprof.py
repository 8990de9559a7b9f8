"""Fixed costs every command paid, found by profiling the suite: each test failed on the code
before its fix, and each fix leaves the results as they were."""

from __future__ import annotations

import importlib.metadata
import math

from simtool import games
from simtool.games.black_white import GAME as BLACK_WHITE


def test_an_installed_game_is_looked_up_without_reading_every_package_again(monkeypatch, installed, tmp_path):
    # before: every lookup of a game not built in (a designer's, which each command asks for tens
    # of times) read every installed package's metadata again, 8 ms a lookup
    import copy

    import strategies

    scans = []
    real = importlib.metadata.entry_points
    scan = lambda **kw: scans.append(kw["group"]) or real(**kw)  # noqa: E731
    monkeypatch.setattr(games, "entry_points", scan)
    monkeypatch.setattr(strategies, "entry_points", scan)
    mine = copy.copy(BLACK_WHITE)
    mine.id = "suiteprof-bw"
    installed(mine)
    for _ in range(5):
        assert games.get("suiteprof-bw") is mine
        assert "random" in strategies.registry("suiteprof-bw")
    assert scans.count("simtool.games") == 1 and scans.count("simtool.strategies") == 1, scans
    # a package installed since (a folder put on the path) is read
    monkeypatch.syspath_prepend(str(tmp_path))
    games.get("suiteprof-bw")
    assert scans.count("simtool.games") == 2, scans


def test_a_run_folder_read_again_is_not_scanned_again_until_a_table_changes(tmp_path, monkeypatch):
    # before: every load of a run folder scanned its tables three times to check them, though
    # nothing had changed since the last load (a review loads each of its runs several times)
    import polars as pl
    import pytest

    from simtool.cli import main
    from simtool.errors import SimtoolError
    from simtool.pipeline import folders

    out = tmp_path / "run"
    assert main(["run", "-g", "kansas-city", "-n", "40", "--jobs", "1", "-q", "--seed", "1", "-o", str(out)]) == 0
    scans = []
    real = folders.collect
    monkeypatch.setattr(folders, "collect", lambda *a, **kw: scans.append(a[0]) or real(*a, **kw))
    meta, seats, _ = folders.load(out)
    first = len(scans)
    assert first >= 3
    again, seats_again, _ = folders.load(out)
    assert len(scans) == first and again == meta
    assert seats_again.collect().equals(seats.collect())
    # a table changed since (seats out of order) is checked, and refused, again
    table = pl.read_parquet(out / "seats.parquet")
    table.reverse().write_parquet(out / "seats.parquet")
    with pytest.raises(SimtoolError, match="seats.parquet"):
        folders.load(out)
    assert len(scans) > first


def test_the_luck_bootstrap_draws_its_resamples_once_for_the_same_sizes_and_seed(monkeypatch):
    # before: each luck_shares drew its 1000 multinomial resamples again (88 ms of its 90 at
    # 2,000 deals), though a report asks for the score's and the win's luck of the same run
    import numpy as np

    from simtool import stats

    draws = []
    real = np.random.default_rng
    monkeypatch.setattr(np.random, "default_rng", lambda seed=None: draws.append(seed) or real(seed))
    y = real(3).normal(size=(150, 3, 3))
    first = stats.luck_shares(y, seed=4321)
    again = stats.luck_shares(2 * y, seed=4321)
    assert draws.count(4321) == 1
    assert first.select("share_low", "share_high").to_numpy().round(12).tolist() == \
        again.select("share_low", "share_high").to_numpy().round(12).tolist()  # scaled: the same shares
    assert np.isfinite(first["share_low"].to_numpy()).all()


def test_one_shares_wilson_interval_is_numpys_to_the_bit():
    # before: a verdict's "more deals to settle it" (share_more) bisected over numpy's wilson on
    # one value at a time, 600 calls and 10 ms a share; wilson_one must give the very same bits
    import random

    import numpy as np

    from simtool import stats

    rng = random.Random(5)
    cases = [(0.0, 1.0), (1.0, 1.0), (0.0, 0.3), (0.3, 0.3), (2.5, 7.25), (1e-9, 1e17), (5.0, 1e-12)]
    for _ in range(2000):
        n = rng.choice([rng.random() * 10, rng.randint(1, 10**6), math.exp(rng.uniform(-30, 40))])
        cases.append((n * rng.choice([0.0, 1.0, rng.random(), rng.random() * 1e-4]), n))
    for k, n in cases:
        low, high = stats.wilson(k, n)
        assert stats.wilson_one(k, n) == (float(low), float(high)), (k, n)
        assert all(np.signbit(a) == np.signbit(b) for a, b in zip(stats.wilson_one(k, n), (low, high), strict=True))
