"""Every kind of interval covers the truth 95% of the time (see tests/calibration.py;
`make calibrate` runs five times as many replicates and prints the coverage table)."""

import pytest

from . import calibration

REPLICATES = 200


@pytest.mark.slow
@pytest.mark.parametrize("case", list(calibration.CASES))
def test_coverage_is_95_percent(case):
    rows = calibration.CASES[case](REPLICATES)
    assert rows
    off = [c for c in rows if not c.ok]
    assert not off, "\n" + calibration.table(rows)
