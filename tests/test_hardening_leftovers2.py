"""Defects the last session's lead noted and left: figures that counted the wrong thing or said
nothing, readers that misread a folder being written, and CLI edges. Each test failed on the code
before its fix."""

from __future__ import annotations

import numpy as np
import pytest

from simtool.analysis import of as analysis_of
from simtool.games import get
from simtool.pipeline.runner import play_chunk

from .conftest import spec


def out_trumped_by_the_sheet(trumps: np.ndarray) -> np.ndarray:
    """Who is out-trumped, per deal and seat, as the sheet says: of the players who took at
    least one trump, those with the fewest, when the most took more."""
    holding = trumps >= 1
    most = np.where(holding, trumps, -1).max(axis=1, keepdims=True)
    fewest = np.where(holding, trumps, 99).min(axis=1, keepdims=True)
    return holding & (trumps == fewest) & (fewest < most)


@pytest.mark.parametrize("rules", [{}, {"trump_bonus": -1, "sole_bonus": -2}, {"penalty": 0},
                                   {"penalty": -1, "wild": "no-trump"}])
def test_out_trumped_rate_counts_the_fewest_holders_whatever_the_points(rules):
    # before: the rate counted a negative bonus: 55.9% at trump_bonus=-1 (the most's bonus), 0.0%
    # at penalty=0 (the out-trumped lose nothing), where the sheet's out-trumped are ~20%
    seats = play_chunk(spec("out-trumped", 4, n=400, rules=rules), 0).seats.sort("deal", "seat")
    trumps = seats["trumps"].to_numpy().reshape(-1, 4).astype(int)
    # no trump suit (a wild roll under no-trump) captures no trumps: nobody is out-trumped there
    expected = out_trumped_by_the_sheet(trumps).ravel()
    rate = analysis_of(get("out-trumped")).rates["out-trumped"]
    counted = seats.select(rate.alias("x"))["x"].to_numpy()
    assert expected.sum() > 50
    assert (counted == expected).all()
