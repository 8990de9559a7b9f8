"""Hostile round 24: rules under which nothing varies, and the words printed about them."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from simtool import stats
from simtool.analysis import verdicts

from .test_cli import cli

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

ZERO_POINTS = ["--rule", "pip_points=0", "--rule", "jack_points=0", "--rule", "queen_points=0",
               "--rule", "king_points=0"]
"""Trickster with every card worth nothing: every seat scores 0 in every deal, a tie for all."""


def test_duplicate_deals_whose_results_never_vary_are_not_called_too_few(tmp_path):
    # failed before: 300 duplicate deals of a game in which every seat scores 0 every deal read
    # "Luck: unclear. Too few deals to split the variance ... (it takes two or more): unclear; play
    # more deals." in the report's verdicts (and in `simtool review`, from 65,536 deals), beside the
    # page's own "it takes two or more duplicate deals whose results vary"; no number of deals splits
    # a variance of 0. And the bootstrap of those NaN shares printed numpy's "All-NaN slice
    # encountered" warning on stderr.
    y = np.zeros((300, 2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = stats.luck_shares(y)
    assert all(math.isnan(x) for x in table["share_low"]) and all(math.isnan(x) for x in table["share"])
    luck = verdicts.luck_verdict(math.nan, math.nan, math.nan, 300)
    assert luck.word == "unclear" and luck.more is None
    assert "Too few" not in luck.sentence and "play more" not in luck.sentence
    assert "the same in every one of the 300 deals" in luck.sentence
    # one deal is still too few
    assert "Too few deals" in verdicts.luck_verdict(math.nan, math.nan, math.nan, 1).sentence

    out = tmp_path / "tie"
    r = cli("run", "--game", "trickster", "--players", "2", *ZERO_POINTS, "--n", "300", "--seat", "0=safe",
            "--strategy", "random", "--duplicate", "--seed", "1", "--jobs", "1", "-q", "--out", out)
    assert r.exit_code == 0, r.output
    r = cli("report", out, "-o", tmp_path / "tie.html")
    assert r.exit_code == 0, r.output
    page = (tmp_path / "tie.html").read_text()
    assert "Too few deals to split" not in page and "the same in every one of the 300 deals" in page
