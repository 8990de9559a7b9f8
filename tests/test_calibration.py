"""Every kind of interval covers the truth 95% of the time (see tests/calibration.py;
`make calibrate` runs five times as many replicates of the full-size blocks and prints the
coverage table)."""

import pytest

from . import calibration

REPLICATES = 200
FEWER = {"published-metrics": 100, "luck-constructed": 100}
"""Cases whose replicates play searches with lead histories, or bootstrap 1000 times each: half
as many keep the suite's time (a binomial tolerance that widens to match; luck's old interval
covered 54-89% at 100 deals, tests/test_luck_interval.py); `make calibrate` plays them in full."""

SMALLER = {**{case: {"deals": 250} for case in ("seat", "rotated-strategies", "differences", "bonus-table",
                                                 "count-tables")}, "matches": {"matches": 50}}
"""Replicates of 250 deals instead of 1000 (50 matches instead of 100) where the cost is the play.
The power to fail a wrong interval is kept: the tolerance depends on the replicates alone (200:
coverage 0.896 to 1), and an interval that is wrong by a factor on its width (a variance that
treats the seats of a deal, or the rounds of a match, as independent) misses as often at any run size, e.g. one
two-thirds as wide covers 81% and passes with a chance of 0.04% (Bin(200, 0.81) >= 180). Fewer
deals only make the normal approximations harder to pass (measured at 250: every figure 0.935 to
0.96; whole matches at 50: 0.925 to 0.94). The count table over whole matches stays at 100 matches a
replicate: at 50, its rarest bonus row covered 89%."""


@pytest.mark.slow
@pytest.mark.parametrize("case", list(calibration.CASES))
def test_coverage_is_95_percent(case):
    rows = calibration.CASES[case](FEWER.get(case, REPLICATES), **SMALLER.get(case, {}))
    assert rows
    off = [c for c in rows if not c.ok]
    assert not off, "\n" + calibration.table(rows)
