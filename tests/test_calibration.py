"""Every kind of interval covers the truth 95% of the time (see tests/calibration.py;
`make calibrate` runs five times as many replicates and prints the coverage table)."""

import pytest

from . import calibration

REPLICATES = 200
FEWER = {"published-metrics": 100}
"""Cases whose replicates play searches with lead histories: half as many keep the suite's time
(a binomial tolerance that widens to match); `make calibrate` plays them in full."""


@pytest.mark.slow
@pytest.mark.parametrize("case", list(calibration.CASES))
def test_coverage_is_95_percent(case):
    rows = calibration.CASES[case](FEWER.get(case, REPLICATES))
    assert rows
    off = [c for c in rows if not c.ok]
    assert not off, "\n" + calibration.table(rows)
