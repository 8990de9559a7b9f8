"""A paired page folds its two runs' per-game differences a batch of whole units at a time
(balance.paired_folds, stats.PairedFold), where it read each run's per-deal values whole (two 1e6
Black & White runs, deck=36 against 30: 377 MiB): the same page however the batches fall, in
either run, as the values read whole gave it."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

import simtool
from simtool import stats
from simtool.pipeline import runner
from simtool.reports import balance

PAIRS = {  # rates (shared or pooled), strategies, strata, duplicate units, matches: chunks of 16
    "rotated deals": ("black-white", 120, {"rotate": True, "seats": {0: "duck"}}, {"deck": 30}),
    "duplicate deals": ("hearts", 40, {"duplicate": True, "seats": {0: "ducker"}}, {"jack": "on"}),
    "rotated matches": ("kansas-city", 40, {"unit": "match", "rotate": True, "seats": {0: "target"}},
                        {"pass_count": 2}),
    "duplicate matches": ("trickster", 24, {"unit": "match", "duplicate": True, "seats": {1: "safe"}},
                          {"pip_limit": 10}),
}


@pytest.fixture(scope="module")
def pairs():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "CHUNK", 16)
        patch.setattr(runner, "MATCH_CHUNK", 16)
        return {name: [simtool.run(game, n=n, strategy="random", seed=31, jobs=1, rules=rules, **kw)
                       for rules in (None, changed)]
                for name, (game, n, kw, changed) in PAIRS.items()}


def analysed(r) -> balance.Analysis:
    return balance.analysis(r.meta, r.seats.lazy(), None if r.matches is None else r.matches.lazy())


def one_unit_at_a_time(batches):
    """``batches`` cut again, each batch into one batch per unit: the other run's cuts fall elsewhere."""
    def cut():
        for got in batches():
            keys, values = got
            starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1], True])
            for a, b in zip(starts[:-1], starts[1:], strict=True):
                yield keys[a:b], {name: v[a:b] for name, v in values.items()}
    return cut


def page(runs: list[balance.Analysis]) -> tuple:
    c = balance.compare(runs)
    return c.rows, c.notes, c.paired, c.gains


@pytest.mark.parametrize("name", PAIRS)
def test_a_paired_page_folded_in_batches_is_the_page_of_the_values_read_whole(pairs, name, monkeypatch):
    monkeypatch.setattr(stats, "BATCH_ROWS", 40)
    before, after = (analysed(r) for r in pairs[name])
    assert before.batches is not None and after.batches is not None
    assert len(list(before.batches())) > 2
    # the values folded are those the page read whole, bit for bit: the two ways cannot drift apart
    keys, values = zip(*before.batches(), strict=True)
    for figure, f in before.figures.items():
        if f.rows is not None:
            assert np.array_equal(np.concatenate([v[figure] for v in values]), f.per_row, equal_nan=True)
            assert f.units is None or np.array_equal(np.concatenate(keys), f.units)
    folds = balance.paired_folds(after, before)
    assert isinstance(folds, dict) and folds  # every paired figure folded
    folded = page([before, after])
    after.batches = one_unit_at_a_time(after.batches)
    assert page([before, after]) == folded
    whole = [analysed(r) for r in pairs[name]]
    for a in whole:
        a.batches = None  # the values read whole (Figure.per_row), as before
    assert page(whole) == folded
    assert folded[2] == [True]  # paired, and its Δ shown
    assert all(diff.startswith("Δ from run 1") for _, _, diffs in folded[0] for diff, _ in diffs)


def test_tables_that_hold_other_games_are_not_paired_and_the_note_says_why(pairs, monkeypatch):
    monkeypatch.setattr(stats, "BATCH_ROWS", 40)
    r0, r1 = pairs["rotated deals"]
    before = analysed(r0)
    # a deal's rows gone from the later run's table, whose run says it holds the same deals
    after = balance.analysis(r1.meta, r1.seats.filter(pl.col("deal") != 50).lazy(), None)
    c = balance.compare([before, after])
    assert c.paired == [False]
    note = next(n for n in c.notes if n.startswith("Run 2 does not share its deals with run 1"))
    assert "its tables hold other games in their rows: deal 51 where the other holds deal 50" in note
    short = balance.analysis(r1.meta, r1.seats.filter(pl.col("deal") < 100).lazy(), None)
    assert "its tables hold fewer games than the other's" in balance.compare([before, short]).notes[0]


@pytest.mark.parametrize("cuts", [(1,), (7, 300), (999,), (2, 3, 5, 1000)])
def test_a_fold_of_differences_is_the_same_to_the_last_bit_however_they_are_cut(cuts):
    rng = np.random.default_rng(31)
    after = rng.normal(size=1001).astype(np.float32)
    before = np.where(rng.random(1001) < 0.3, after, rng.normal(size=1001).astype(np.float32))
    after[5], before[9] = np.nan, np.inf  # left out, as the values read whole leave them
    units = np.repeat(np.arange(1001), 1)
    one = stats.PairedFold()
    one.add(after, before)
    folded = stats.PairedFold()
    for a, b in zip((0, *cuts), (*cuts, 1001), strict=True):
        folded.add(after[a:b], before[a:b], units[a:b] if a % 2 else None)
    assert dataclasses.astuple(Fold(one)) == dataclasses.astuple(Fold(folded))
    keep = np.isfinite(after) & np.isfinite(before)
    diff = (after - before)[keep].astype(float)
    d, h = stats.mean_interval(diff)
    assert math.isclose(one.interval()[0], d, rel_tol=1e-12) and math.isclose(one.interval()[1], h, rel_tol=1e-12)
    exact = sum(map(Fraction, diff.tolist()))  # the mean to its last bit: the exact sum, rounded once
    assert one.interval()[0] == float(exact / len(diff))
    assert (one.n, one.moved) == (999, int(np.count_nonzero(diff)))
    assert one.spread == float(np.ptp(np.concatenate([after[keep], before[keep]])))


def test_a_duplicate_deals_copies_fold_into_one_unit_their_mean_difference():
    after = np.array([1.0, 0.0, 0.5, 0.5, 1.0, 1.0])
    before = np.array([0.0, 1.0, 0.5, 0.5, 0.0, 0.0])
    fold = stats.PairedFold()
    fold.add(after, before, np.array([7, 7, 8, 8, 9, 9]))
    # deal 7's copies moved and cancelled out: moved all the same; deal 8 did not move
    assert (fold.n, fold.games, fold.moved) == (3, 4, 2)
    assert np.allclose(fold.interval(), stats.mean_interval([0.0, 0.0, 1.0]), rtol=1e-15, atol=0)


@dataclasses.dataclass
class Fold:
    """What a :class:`stats.PairedFold` holds, to compare two."""

    n: int
    games: int
    moved: int
    total: int
    squares: int
    ends: tuple

    def __init__(self, f: stats.PairedFold):
        self.n, self.games, self.moved, self.total, self.squares = f.n, f.games, f.moved, f.sum, f.squares
        self.ends = (f.low, f.high, f.least, f.most)
