"""Hostile tests of ``simtool.metrics``: a damaged run folder is one line, not a traceback."""

from __future__ import annotations

import pytest

import simtool
from simtool.errors import SimtoolError


def test_a_damaged_lead_history_is_one_line(tmp_path):
    out = tmp_path / "r"
    simtool.run("black-white", 64, out=out, seed=3, jobs=1, lead_history=2)
    whole = simtool.metrics(out)
    assert "drama" in whole  # read from the lead history
    leads = out / "leads.parquet"
    leads.write_bytes(leads.read_bytes()[:300])  # a copy cut short: once polars' ComputeError
    with pytest.raises(SimtoolError, match="leads.parquet is not what its run.json records"):
        simtool.metrics(out)


@pytest.mark.parametrize("value", [-1, 2.5, True, "3"])
def test_a_bad_lead_history_says_that_0_means_none(value):
    # -1 once said "expected a whole number, 1 or more" though 0 is taken (none recorded)
    from simtool.pipeline.runner import make_spec

    with pytest.raises(SimtoolError, match=r"bad lead_history .*or 0 or None for none"):
        make_spec("black-white", 3, 10, lead_history=value)
    assert make_spec("black-white", 3, 10, lead_history=0).leads == 0
