"""A report reads its run's rows a batch of whole units at a time (balance.analysis: Reading and
by_units), folding every figure, table, test and chart count, where it collected every row (1e7
Black & White deals: 3,273 -> 201 MiB): the same report however the batches fall, its figures
those of the whole panels (stats.seat_table, strategy_strength, seat_test, headline_figures)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import simtool
from simtool import stats
from simtool.pipeline import runner
from simtool.reports import balance

RUNS = {  # rates (shared or pooled), strategies, strata, duplicate units, matches: chunks of 16
    "rotated deals": ("black-white", 120, {"rotate": True, "seats": {0: "duck"}}),
    "duplicate deals": ("hearts", 40, {"duplicate": True, "seats": {0: "ducker"}}),
    "rotated matches": ("kansas-city", 40, {"unit": "match", "rotate": True, "seats": {0: "target"}}),
    "duplicate matches": ("trickster", 24, {"unit": "match", "duplicate": True, "seats": {1: "safe"}}),
}


@pytest.fixture(scope="module")
def runs():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "CHUNK", 16)
        patch.setattr(runner, "MATCH_CHUNK", 16)
        return {name: simtool.run(game, n=n, strategy="random", seed=28, jobs=1, **kw)
                for name, (game, n, kw) in RUNS.items()}


def analysed(r, rows: int, monkeypatch) -> balance.Analysis:
    monkeypatch.setattr(stats, "BATCH_ROWS", rows)
    return balance.analysis(r.meta, r.seats.lazy(), None if r.matches is None else r.matches.lazy())


@pytest.mark.parametrize("name", RUNS)
def test_a_report_read_in_batches_is_the_report_of_the_whole_rows(runs, name, monkeypatch):
    r = runs[name]
    outcome = r.matches if r.matches is not None else r.seats
    monkeypatch.setattr(stats, "BATCH_ROWS", 40)
    assert len(list(stats._unit_batches(outcome.lazy(), (), [pl.col("win")]))) > 2
    whole, cut = analysed(r, 1 << 20, monkeypatch), analysed(r, 40, monkeypatch)
    for a, b in ((whole.seats, cut.seats), (whole.strategies, cut.strategies), (whole.rates, cut.rates),
                 (whole.held, cut.held), *zip(dict(whole.game_tables).values(), dict(cut.game_tables).values(),
                                              strict=True),
                 *zip(dict(whole.metrics).values(), dict(cut.metrics).values(), strict=True)):
        assert (a is None) == (b is None)
        if a is not None:
            assert_frame_equal(a, b, check_exact=True)
    assert [c for c, _ in whole.metrics] == [c for c, _ in cut.metrics]
    assert list(whole.figures) == list(cut.figures)
    for f, g in zip(whole.figures.values(), cut.figures.values(), strict=True):
        assert (f.value, f.low, f.high, f.scores) == (g.value, g.low, g.high, g.scores)
        assert (f.rows is None) == (g.rows is None)
        if f.rows is not None:
            assert np.array_equal(f.per_row, g.per_row, equal_nan=True)
            assert (f.units is None) == (g.units is None) and (f.units is None or np.array_equal(f.units, g.units))
    for t, u in ((whole.win_test, cut.win_test), (whole.score_test, cut.score_test)):
        assert (t.df, t.n, t.alike) == (u.df, u.n, u.alike)
        assert math.isclose(t.statistic, u.statistic, rel_tol=1e-9) and math.isclose(t.p_value, u.p_value,
                                                                                     rel_tol=1e-9, abs_tol=1e-12)
    assert whole.findings == cut.findings and whole.verdicts == cut.verdicts and whole.sides == cut.sides
    keys = ["seat", "strategy", "total" if r.matches is not None else "score"]
    assert_frame_equal(whole.counts.sort(keys), cut.counts.sort(keys), check_exact=True)
    assert (whole.tally is None) == (r.matches is None)
    assert whole.tally is None or whole.tally.counts == cut.tally.counts  # the tension chart's


@pytest.mark.parametrize("name", RUNS)
def test_the_folded_figures_are_those_of_the_whole_panels(runs, name, monkeypatch):
    r = runs[name]
    cut = analysed(r, 40, monkeypatch)
    by_match = r.matches is not None
    x = balance.panels(r.meta, r.matches if by_match else r.seats, by_match)
    p = r.meta["players"]
    assert_frame_equal(cut.seats, stats.seat_table(x.win, x.score, x.strata, x.units), check_exact=True)
    assert_frame_equal(cut.strategies, stats.strategy_strength(x.win, x.codes, x.names, x.strata, x.units),
                       check_exact=True)
    per_deal = (lambda a: a.reshape(-1, p, p).mean(axis=1)) if x.units is not None else (lambda a: a)
    for t, values in ((cut.win_test, x.win), (cut.score_test, x.score)):
        u = stats.seat_test(per_deal(values))
        assert (t.df, t.n, t.alike) == (u.df, u.n, u.alike) and math.isclose(t.statistic, u.statistic, rel_tol=1e-9)
    whole = balance.headline_figures(cut.game, r.seats, x.win, x.score, x.names, x.codes, by_match, x.strata, x.units)
    assert list(whole) == list(cut.figures)
    for f, g in zip(whole.values(), cut.figures.values(), strict=True):
        fields = [k.name for k in dataclasses.fields(f) if k.name not in ("rows", "units")]
        assert [getattr(f, k) for k in fields] == [getattr(g, k) for k in fields]
        assert (f.per_row is None) == (g.per_row is None)
        if f.per_row is not None:
            assert np.array_equal(f.per_row, g.per_row, equal_nan=True)


def test_rows_in_no_order_of_units_are_read_whole(runs, monkeypatch):
    r = runs["rotated deals"]
    turned = r.seats.sort((pl.col("deal") + 60) % 120, maintain_order=True)  # deals 60.. first
    monkeypatch.setattr(stats, "BATCH_ROWS", 12)
    assert next(b for b in stats._unit_batches(turned.lazy(), (), [pl.col("win")]) if b is None) is None
    a = balance.analysis(r.meta, turned.lazy(), None)
    monkeypatch.setattr(stats, "BATCH_ROWS", 1 << 20)
    whole = balance.analysis(r.meta, turned, None)
    assert a.findings == whole.findings and a.verdicts == whole.verdicts
    assert_frame_equal(a.seats, whole.seats, check_exact=True)
