"""Hearts' "Hands with a moon" read from the seat rows as they come (one seat at most takes every
penalty card, so a hand's seats add up to its moon, over its one row of seat 0), not from the rows
grouped by hand first, which held every hand (the printed tables of 1e7 deals: 886 -> 292 MiB):
the same table, to the last bit, as the hands grouped."""

import polars as pl
import pytest

import simtool
from simtool import stats
from simtool.analysis import hearts


@pytest.mark.parametrize("kwargs", [{"n": 3000}, {"n": 800, "duplicate": True}, {"n": 40, "unit": "match"}])
def test_the_moon_table_is_the_hands_grouped(tmp_path, kwargs):
    r = simtool.run("hearts", seed=2, jobs=1, out=tmp_path / "run", **kwargs)
    keys = ["deal"] if r.meta["unit"] == "deal" else ["match", "round"]
    if r.meta.get("duplicate"):
        keys.insert(1, "rotation")
    seats = r.seats.lazy()
    (table,) = [t for title, t in hearts.tables(seats, keys, None if r.matches is None else r.matches.lazy(),
                                                r.meta["rules"]) if title == "Hands with a moon"]
    per_hand = seats.group_by(keys).agg(pl.col("moon").max())
    grouped = stats.estimates(per_hand, {"a seat takes every penalty card": pl.col("moon") > 0})
    assert table["n"][0] == grouped["k"][0] > 0
    assert table["out_of"][0] == grouped["n"][0] == per_hand.select(pl.len()).collect().item()
    assert (table["share"][0], table["share_low"][0], table["share_high"][0]) == \
        (grouped["value"][0], grouped["low"][0], grouped["high"][0])
