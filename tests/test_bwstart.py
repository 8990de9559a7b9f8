"""The end of a `simtool run` that prints its tables: a seat's interval without strata sorts
nothing (docs/speed.md, 2026-11-27 late night)."""

import numpy as np
import pytest

from simtool import stats


def _samples():
    rng = np.random.default_rng(27)
    n = 5_000
    win = (rng.integers(0, 3, n) == 0) / rng.integers(1, 4, n).astype(np.float32)  # shares like 1/j
    score = rng.integers(-13, 14, n).astype(float)
    tricks = rng.integers(0, 14, n).astype(float)
    return [(win, None, True, None), (score, None, False, None), (score, tricks, False, None),
            (win, None, True, rng.integers(0, n // 3, n)), (score[:1], None, False, None),
            (np.zeros(40), None, True, None)]


@pytest.mark.parametrize("case", range(6))
def test_one_stratum_gives_the_same_figures_as_sorted_zeros(case):
    k, m, share, units = _samples()[case]
    # strata all 0 (one per unit) take the road through np.unique that strata=None took before
    count = len(k) if units is None else len(np.unique(units))
    sorted_zeros = stats.unit_estimate(k, m, strata=np.zeros(count), share=share, units=units)
    # bit for bit, NaN where the figure has none (one unit)
    assert np.array_equal(stats.unit_estimate(k, m, share=share, units=units), sorted_zeros, equal_nan=True)


def test_one_stratum_sorts_nothing(monkeypatch):
    calls = []
    real = np.unique
    monkeypatch.setattr(stats.np, "unique", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    score = np.arange(1_000, dtype=float) % 7
    value, low, high = stats.unit_estimate(score)
    assert calls == []
    assert value == pytest.approx(score.mean()) and low < value < high
    stats.unit_estimate(score, strata=np.arange(1_000) % 3)  # strata of a rotated run still sort
    assert calls == [1]
