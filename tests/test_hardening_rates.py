"""Hardening: the figures the per-game analysis, restricted play and the published metrics print,
each checked on a case whose answer is known (hard9)."""

from __future__ import annotations

import pytest

from simtool.analysis import restrict as costs
from simtool.commands import restrict


def test_a_restriction_no_deal_reacts_to_is_bounded_by_the_rule_of_three_not_exact(tmp_path):
    """No kitty rule: the restriction cannot bind, no deal differs. 200 paired deals cannot show a
    cost exactly 0 (the old interval was [0, 0] and the verdict 'nothing'): at most 1 - 0.05^(1/200)
    = 1.5% of such deals could differ at 95%, each by at most 1 in win share."""
    table, _ = restrict.measure("out-trumped", tmp_path / "ot", n=200, seed=2, restrictions=["no-kitty"], jobs=1)
    row = table.row(0, named=True)
    bound = 1 - 0.05 ** (1 / 200)
    assert row["changed"] == 0 and row["win_cost"] == 0
    assert (row["win_cost_low"], row["win_cost_high"]) == pytest.approx((-bound, bound))
    assert row["score_change"] == 0 and row["score_change_high"] > 0
    assert row["verdict"] == "unclear"  # ± 1.5 points reaches past the 1 point of 'nothing'
    assert "too few deals to tell" in costs.sentence(row)
