"""Review of hostile18 (round 17d): declarations a designer would reasonably write that its new
load-time checks refused. Each test failed on the code before its fix."""

from __future__ import annotations

import polars as pl
import pytest

from simtool.analysis import Analysis
from simtool.analysis import of as analysis_of
from tests.toy_game import Climb


@pytest.mark.parametrize("kind", ["shared", "risks", "stopped"])
@pytest.mark.parametrize("collection", [set, frozenset])
def test_an_analysis_naming_its_rates_in_a_set_still_loads(kind, collection):
    # before: "declares shared = frozenset({'bank'}) in its analysis: it must be a tuple of its
    # rates (now: 'bank')", naming as wrong the one rate it held; every reader asks only `in`
    class Named(Climb):
        match_columns = {"bank": bool}
        analysis = Analysis(rates={"bank": pl.col("banks") > 0}, **{kind: collection({"bank"})})

    assert getattr(analysis_of(Named()), kind) == collection({"bank"})
