"""The end of a `simtool run` that prints its tables, made cheaper with the same figures bit for
bit (docs/speed.md, 2026-11-27 night, the run's end)."""

import numpy as np
import pytest

from simtool import stats


def _figures():
    rng = np.random.default_rng(11)
    n = 30_001  # odd: no seat of a panel lines up with a power of two
    win = ((rng.integers(0, 3, n) == 0) / rng.integers(1, 4, n)).astype(np.float32)
    score = rng.integers(-13, 14, n).astype(np.int16)
    return [(win, True), (score, False), (np.float32(1 / 3) + np.zeros(n, np.float32), True),
            (np.array([np.nan, 1.0]), False), (score[:1], False), (np.zeros(0), True)]


@pytest.mark.parametrize("case", range(6))
@pytest.mark.parametrize("strata", [None, 3])
def test_counted_units_give_the_figures_of_ones_summed(case, strata):
    k, share = _figures()[case]
    at = None if strata is None else np.arange(len(k)) % strata
    # m given as ones takes the road that summed m, k * m, m * m and m > 0 over every unit
    ones = stats.unit_estimate(k, np.ones(len(k)), at, share=share)
    assert np.array_equal(stats.unit_estimate(k, None, at, share=share), ones, equal_nan=True)


def test_counted_units_sum_two_figures_not_six(monkeypatch):
    calls = []
    real = np.bincount
    monkeypatch.setattr(stats.np, "bincount", lambda *a, **kw: calls.append(len(a)) or real(*a, **kw))
    value, low, high = stats.unit_estimate(np.arange(1_000, dtype=float) % 7)
    assert value == pytest.approx(3.0, abs=0.01) and low < value < high
    assert sorted(calls) == [1, 2, 2]  # the units counted, then k and k * k summed
