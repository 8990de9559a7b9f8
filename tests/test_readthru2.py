"""Figures of simtool's answers recomputed by hand where a read-through found them wrong."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from simtool.analysis import metrics as M


def _four_seat_run(estimates: list[float]) -> M.Run:
    """One 4-seat deal that seat 0 wins alone, every seat deciding at once at every decision,
    seat 0's estimates as given (the others' 0.0); estimates stored as float32, as leads.parquet
    stores them."""
    p = 4
    seats = pl.DataFrame({"deal": [0] * p, "seat": list(range(p)), "strategy": ["pimc"] * p,
                          "win": [1.0, 0.0, 0.0, 0.0]})
    rows = [{"deal": 0, "decision": i, "seat": s, "acting": -1, "estimate": e if s == 0 else 0.0,
             "own": False, "choices": 2, "spread": None}
            for i, e in enumerate(estimates) for s in range(p)]
    leads = pl.DataFrame(rows, schema_overrides={"estimate": pl.Float32, "choices": pl.Int8,
                                                 "spread": pl.Float32, "decision": pl.Int16})
    meta = {"players": p, "lineup": ["pimc"] * p, "unit": "deal", "n": 1, "rotate": False,
            "lead_history": {"sampled": 1, "sample": "all", "estimator": {"pimc": "test"}}}
    return M.from_tables("hand-built", meta, seats, None, leads)


def test_a_winner_estimated_exactly_at_the_drama_threshold_is_not_below_it():
    # 4 seats: d = (1 + 2/3) / 2 = 5/6, the standing of a seat tied for first with one other, an
    # estimate the search reports often. The winner stood at d twice, at 1.0 once, and below d
    # once (0.5): security 1 - 1/4 = 0.75 (/work/shared/METRICS.md: "at or above d"), drama
    # sqrt(5/6 - 0.5) / 1. Float32 storage read 5/6 as 0.83333331 < d: 0.25 and 0.19 before.
    run = _four_seat_run([5 / 6, 5 / 6, 1.0, 0.5])
    assert M.threshold(4) == pytest.approx(5 / 6)
    assert M.security(run).value == pytest.approx(0.75)
    assert M.drama(run).value == pytest.approx(math.sqrt(5 / 6 - 0.5))
    # at 6 seats d = 0.9, not a float32 either; an estimate truly below d still counts
    assert M.threshold(6) == pytest.approx(0.9)
    assert np.float32(M.threshold(4) - 1e-4) < M.threshold(4)
    below = _four_seat_run([5 / 6 - 1e-4, 1.0])
    assert M.security(below).value == pytest.approx(0.5)


def test_a_pooled_rate_is_worded_as_each_seats_not_as_how_often_some_seat_has_it():
    # The review's rate is seats pooled: the mean over seats of "this seat had it this deal". A
    # quick review of Hearts (seed 3) read "A seat shoots the moon (takes every penalty card) in
    # 0.53% of deals": the moon was shot in 2.1% of those deals (only one seat can shoot it in a
    # deal, so the pooled rate is a quarter of it), and Kansas City's overshoot, some seat in every
    # deal (14 tricks, a limit of 3 at 4 seats), read "A seat goes over the trick limit in 35.5%".
    from simtool.analysis import verdicts

    v = verdicts.hazard_verdict("moon", "shoots the moon (takes every penalty card)", 0.0053, 0.0052, 0.0054, 10**6)
    assert v.sentence.startswith("Each seat shoots the moon (takes every penalty card) in 0.53% of deals ")
    assert not v.sentence.startswith("A seat")
