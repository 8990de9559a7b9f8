"""--rotate: every position of the line-up sits in every seat equally often."""

import dataclasses

import numpy as np
import polars as pl
import pytest

import simtool
from simtool.pipeline.runner import play_chunk

from .conftest import spec


@pytest.mark.parametrize("unit", ["deal", "match"])
def test_rotated_deal_plays_the_line_up_moved_by_its_number(unit):
    """``high`` and ``low`` use no randomness, so deal i of a rotated run is deal i of the
    unrotated run whose line-up is moved ``i mod p`` places; the deals are the same (one seed).
    Only a match's first round is dealt alike: later rounds deal to the matches still going."""
    base = ["high", "low", "low"]
    game, n = ("black-white", 90) if unit == "deal" else ("out-trumped", 30)
    kw = dict(game=game, players=3, n=n, unit=unit, seed=11)
    key = "deal" if unit == "deal" else "match"
    rotated = play_chunk(dataclasses.replace(spec(lineup=base, **kw), rotate=True), 0).seats
    for r in range(3):
        moved = [base[(s + r) % 3] for s in range(3)]
        plain = play_chunk(spec(lineup=moved, **kw), 0).seats
        pick = (pl.col(key) % 3 == r) & (pl.col("round") == 0 if unit == "match" else True)
        assert rotated.filter(pick).drop("strategy").equals(plain.filter(pick).drop("strategy"))
        assert rotated.filter(pick)["strategy"].cast(str).to_list() == \
            plain.filter(pick)["strategy"].cast(str).to_list()


def test_every_strategy_sits_in_every_seat_equally_often():
    r = simtool.run("black-white", n=3000, players=3, seed=4, seats={0: "balance"},
                    strategy="random", rotate=True)
    counts = r.seats.filter(pl.col("strategy") == "balance").group_by("seat").len().sort("seat")
    assert counts["len"].to_list() == [1000, 1000, 1000]
    per_deal = r.seats.group_by("deal").agg((pl.col("strategy") == "balance").sum())
    assert (per_deal["strategy"] == 1).all()


def test_rotation_is_the_same_whatever_the_jobs(tmp_path):
    kw = dict(n=70_000, players=4, seed=5, seats={1: "target"}, strategy="random", rotate=True)
    one = simtool.run("kansas-city", jobs=1, **kw).seats
    two = simtool.run("kansas-city", jobs=2, **kw).seats
    assert one.equals(two)
    assert np.allclose(one.group_by("seat").agg(pl.col("strategy") == "target").sort("seat")
                       ["strategy"].list.eval(pl.element().mean()).explode(), 0.25, atol=1e-4)
