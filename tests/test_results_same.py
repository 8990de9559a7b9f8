"""The round results' cheaper forms give the very bits of their plain definitions (docs/speed.md,
2026-11-27 (2 cores)): every table stays the same."""

from __future__ import annotations

import numpy as np
import pytest

from simtool import engine
from simtool.games import black_white


@pytest.mark.parametrize("p", [2, 3, 4, 5, 6, 8])
@pytest.mark.parametrize("lower_wins", [False, True])
def test_win_shares_are_each_leaders_float64_quotient_rounded(p, lower_wins):
    rng = np.random.default_rng(p)
    values = rng.integers(-3, 4, (5000, p)).astype(np.int16)  # many ties, of every size
    best = values.min(axis=1) if lower_wins else values.max(axis=1)
    leader = values == best[:, None]
    plain = (leader / leader.sum(axis=1, keepdims=True)).astype(np.float32)
    got = engine.shares(values, lower_wins)
    assert got.dtype == np.float32 and got.shape == values.shape
    assert got.tobytes() == plain.tobytes()


def test_a_float32_share_is_the_float64_one_rounded_for_every_count():
    counts = np.arange(1, 65, dtype=np.uint8)
    assert (np.divide(np.float32(1), counts) == (1.0 / counts.astype(np.float64)).astype(np.float32)).all()


@pytest.mark.parametrize("p", [3, 4])
def test_black_white_scores_balanced_seats_plus_their_tricks_and_the_rest_minus(p):
    rng = np.random.default_rng(p)
    black = rng.integers(0, 7, (4000, p)).astype(np.int8)
    white = rng.integers(0, 7, (4000, p)).astype(np.int8)
    tricks = (black + white).astype(np.int16)
    got = black_white.score(black, white)["score"]
    assert got.dtype == np.int16
    assert got.tobytes() == np.where(black == white, tricks, -tricks).astype(np.int16).tobytes()
