"""Wrong figures printed silently: hand-built results whose right answer is known, against the
metrics, the verdicts, the comparisons and the reports (each test failed on the code before its fix)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simtool.analysis import metrics as M


def outcome_run(wins, strategy: str = "random") -> M.Run:
    """A deals-only run of hand-made win shares ``(deals, p)``, one strategy at every seat."""
    wins = np.asarray(wins, float)
    g, p = wins.shape
    seats = pl.DataFrame({"deal": np.repeat(np.arange(g), p), "seat": np.tile(np.arange(p), g),
                          "strategy": [strategy] * (g * p), "win": wins.ravel()})
    meta = {"players": p, "unit": "deal", "n": g, "lineup": [strategy] * p, "rotate": False}
    return M.from_tables("hand-made", meta, seats, None, None)


@pytest.mark.parametrize("deals", [1, 2, 5])
def test_balance_interval_holds_its_value_and_is_not_exact_from_a_few_deals(deals):
    # seat 0 wins every one of 1, 2 or 5 two-player deals: balance 1 - |w0 - w1| = 0. Before:
    # one deal printed 0.0 with the interval [1.0, 1.0] (the missing interval's NaN dropped by
    # max()), two or five deals [0.0, 0.0], as if 2 deals proved the game wholly unbalanced;
    # at 2 players balance is 1 - |2 w0 - 1|, so its interval is advantage_p1's carried through
    run = outcome_run([[1.0, 0.0]] * deals)
    b, a = M.balance(run), M.advantage_p1(run)
    assert b.low <= b.value <= b.high
    assert b.value == 0.0 and b.low == 0.0
    assert b.high == pytest.approx(1.0 if a.low <= 0.5 else 1 - abs(2 * a.low - 1))
    assert b.high > 0.5


def test_balance_of_every_deal_tied_is_not_exactly_one():
    # three deals, each a tie: balance 1; from 3 deals its interval cannot be [1, 1] (before)
    b = M.balance(outcome_run([[0.5, 0.5]] * 3))
    assert b.value == 1.0 and b.high == 1.0 and b.low < 0.5
