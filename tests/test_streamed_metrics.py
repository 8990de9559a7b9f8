"""A printed duplicate or match run reads its duplicate, luck and tension tables and its seat line a
batch of whole units at a time (docs/speed.md, 2026-11-28 afternoon): the very tables of the rows
read whole, bit for bit, however the batches fall; rows in no order of units are read whole."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import simtool
from simtool import stats
from simtool.analysis import summary, tension, verdicts
from simtool.pipeline import runner
from simtool.reports import balance


@pytest.mark.parametrize("game, n, kw", [
    ("black-white", 150, {"duplicate": True, "seats": {0: "balance"}}),
    ("black-white", 150, {"unit": "match"}),
    ("kansas-city", 150, {"unit": "match", "rotate": True, "seats": {0: "target"}}),
    # their matches last long (a chunk's rows run to thousands): 4 and 5 chunks, each last one part-full.
    # Nine Lives' 76 matches make 3 batches of its 4-seat match rows (37 matches in 150 rows: 74 made 2);
    # 100 played 7 chunks, each to its longest match (5.3 s of CPU)
    ("trickster", 60, {"unit": "match", "duplicate": True, "seats": {1: "safe"}}),
    ("nine-lives", 76, {"unit": "match"})])
def test_the_tables_read_in_batches_are_those_of_the_whole_rows(game, n, kw, monkeypatch):
    # chunks of 16 matches (deals), each played once per seat with --duplicate; batches of 150 rows
    # hold a round of a chunk's matches (written round by round) and cut the chunks' rows in many
    monkeypatch.setattr(runner, "CHUNK", 16)
    monkeypatch.setattr(runner, "MATCH_CHUNK", 16)
    r = simtool.run(game, n=n, strategy="random", seed=27, **kw)
    a = balance.analysis(r.meta, r.seats, r.matches)
    monkeypatch.setattr(stats, "BATCH_ROWS", 150)
    cuts = [b.height for b in stats._unit_batches((r.matches if r.matches is not None else r.seats).lazy(), (),
                                                  [pl.col("win")])]
    assert len(cuts) > 2
    seats, matches = r.seats.lazy(), None if r.matches is None else r.matches.lazy()
    metrics, sides, _ = balance.streamed_metrics(r.meta, a.game, seats, matches)
    assert [c for c, _ in metrics] == [c for c, _ in a.metrics] and sides == a.sides
    for (_, streamed), (_, whole) in zip(metrics, a.metrics, strict=True):
        assert_frame_equal(streamed, whole, check_exact=True)
    if r.meta.get("duplicate"):
        outcome = r.matches if r.matches is not None else r.seats
        table, alike, units = summary.streamed_duplicate_shares(r.meta, outcome.lazy())
        assert_frame_equal(table, summary.seat_shares(r.meta, *((None, outcome) if r.matches is not None
                                                                else (outcome, None))), check_exact=True)
        assert units == n
        assert verdicts.sides_of(alike, units) == a.sides


def test_rows_in_no_order_of_units_are_read_whole(monkeypatch):
    r = simtool.run("black-white", n=40, strategy="random", seed=3, duplicate=True, seats={0: "balance"})
    a = balance.analysis(r.meta, r.seats, None)
    # whole deals (their 3 copies of 3 seats), deals 20 to 39 first, in batches of 2 deals: deal 0
    # comes after deals 20 and 21 were given
    turned = r.seats.sort((pl.col("deal") + 20) % 40, maintain_order=True)
    monkeypatch.setattr(stats, "BATCH_ROWS", 18)
    assert balance.streamed_metrics(r.meta, a.game, turned.lazy(), None) is None
    assert summary.streamed_duplicate_shares(r.meta, turned.lazy()) is None
    metrics, sentences = balance.printed_metrics(r.meta, turned.lazy(), None)
    whole, _, _ = balance.run_metrics(r.meta, a.game, turned, None, balance.panels(r.meta, turned, False))
    assert [c for c, _ in metrics] == [c for c, _ in whole] and len(metrics) == 2
    assert all(t.equals(u) for (_, t), (_, u) in zip(metrics, whole, strict=True))


def test_the_luck_sums_of_batches_add_up_to_those_of_every_deal():
    y = np.random.default_rng(5).normal(size=(4_999, 3, 3))
    whole = stats.luck_sums(y, len(y))
    sums = stats.luck_sums(y[:0], len(y))
    for start in range(0, len(y), 700):
        sums = stats.luck_sums(y[start:start + 700], len(y), start, sums)
    assert np.array_equal(sums, whole)


@pytest.fixture(scope="module")
def tallied():
    """Each game's run of the tally test, played once for both ways of counting its lengths: they
    differ in how the rows are read, after the run (a second Nine Lives run was 1.1 s of CPU)."""
    played = {}

    def run(game, kw):
        if game not in played:
            played[game] = simtool.run(game, n=300, strategy="random", seed=8, unit="match", **kw)
        return played[game]

    return run


@pytest.mark.parametrize("numpy_counts", [True, False])
@pytest.mark.parametrize("game, kw", [("trickster", {"duplicate": True, "seats": {0: "safe"}}), ("nine-lives", {})])
def test_the_tension_tally_of_batches_is_the_summary_of_every_match(monkeypatch, tallied, numpy_counts, game, kw):
    r = tallied(game, kw)
    rows = tension.matchwise(r.seats, r.matches, simtool.games.get(game).lower_wins)
    if not numpy_counts:  # the length table of more rows than stats.COUNTED_IN_NUMPY, counted by polars
        monkeypatch.setattr(stats, "COUNTED_IN_NUMPY", 0)
    whole, lengths = tension.summary(rows), tension.lengths(rows)
    assert lengths.height > 1 or game == "trickster"  # Trickster's matches last 4 rounds
    tally = tension.Tally("duplicate" in kw)
    for start in range(0, 300, 37):  # whole matches: each of its copies
        tally.add(rows.filter(pl.col("match").is_between(start, start + 36)))
    assert_frame_equal(tally.summary(), whole, check_exact=True)
    assert_frame_equal(tally.length_table(), lengths, check_exact=True)
