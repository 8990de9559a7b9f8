"""The sums of many rows are taken in batches of whole units (stats._fixed_sums): the very sums,
bit for bit, of one query over every row, which held each unit's sums at once (3.9 GB in the
main process for the printed tables of 1e7 Out-Trumped deals)."""

import numpy as np
import polars as pl
import polars.selectors as cs
import pytest

import simtool
from simtool import stats


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("batches")
    # the sums are compared bit for bit and each batch of 7 rows is one more query: 200 deals and
    # 100 duplicate deals still cut 115 and 100 batches (more than 50), 4 blocks of 64 and 4
    # strata; 600 and 300 cut 343 and 300 batches to show the same
    made = {"deals": simtool.run("out-trumped", 200, seed=3, jobs=1, out=base / "d"),
            "matches": simtool.run("kansas-city", 40, seed=3, unit="match", jobs=1, out=base / "m"),
            "duplicate": simtool.run("black-white", 100, seed=3, duplicate=True, jobs=1, out=base / "u")}
    return {name: r.seats for name, r in made.items()}


FIGURES = {"win": pl.col("win"), "below": pl.col("score") < 0, "score": pl.col("score"),
           "per trick": (pl.col("score"), pl.col("tricks"))}


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort(frame.columns)


@pytest.mark.parametrize("name", ["deals", "matches", "duplicate"])
@pytest.mark.parametrize(("by", "strata", "block"), [((), None, None), (("seat",), 4, None), (("seat",), None, 64)])
def test_batches_of_units_give_the_sums_of_all_rows_at_once(monkeypatch, runs, name, by, strata, block):
    rows, means = runs[name].lazy(), ("score", "per trick")
    whole = stats._wide_sums(rows, FIGURES, by, strata, block)
    estimated = stats.estimates(rows, FIGURES, by, means, strata)
    # batches of 7 rows: a deal's 4 seat rows (a match's rounds) lie across two batches
    monkeypatch.setattr(stats, "BATCH_ROWS", 7)
    batches = list(stats._unit_batches(rows, by, [pl.col("win")]))
    # a match run writes a chunk's matches round by round: a cut within a round of more than 7
    # rows is refuted by the next round, summed at once (tests/test_mem24.py: batches of chunks)
    assert batches[-1] is None if name == "matches" else len(batches) > 50 and all(b is not None for b in batches)
    batched = stats._wide_sums(rows, FIGURES, by, strata, block)
    for a, b in zip(whole, batched, strict=True):
        assert _sorted(a).equals(_sorted(b))
    assert stats.estimates(rows, FIGURES, by, means, strata).equals(estimated)


def test_rows_out_of_unit_order_are_summed_at_once(monkeypatch, runs):
    rows = runs["deals"]
    shuffled = rows.sample(fraction=1.0, shuffle=True, seed=1).lazy()
    monkeypatch.setattr(stats, "BATCH_ROWS", 7)
    monkeypatch.setattr(stats, "HELD_ROWS", 100)  # no cut within 100 rows: no order of units
    assert list(stats._unit_batches(shuffled, (), [pl.col("win")]))[-1] is None
    # a unit's rows in several batches would have been summed as several units (4x the units)
    wide, count = stats._wide_sums(shuffled, FIGURES, (), None, None)
    assert int(count["N"].sum()) == 200
    monkeypatch.undo()
    assert _sorted(wide).equals(_sorted(stats._wide_sums(rows.lazy(), FIGURES, (), None, None)[0]))


def test_each_unit_is_in_one_batch_whole(monkeypatch, runs):
    monkeypatch.setattr(stats, "BATCH_ROWS", 5)
    rows = runs["duplicate"].lazy()
    batches = list(stats._unit_batches(rows, (), [pl.col("score")]))
    units = [b["deal"].unique().to_list() for b in batches]
    assert sorted(u for us in units for u in us) == list(range(100))  # each deal in one batch only
    assert sum(b.height for b in batches) == runs["duplicate"].height
    assert set(batches[0].columns) == {"deal", "rotation", "seat", "score"}  # only what the sums read
    assert np.all([b["deal"].is_sorted() for b in batches])


@pytest.mark.parametrize("figure", [pl.sum_horizontal(pl.all().exclude("deal", "c")) - pl.col("seat"),
                                    pl.sum_horizontal(pl.col("^[ab]$")),
                                    pl.sum_horizontal(cs.by_dtype(pl.Int32)), pl.nth(2) + pl.nth(3),
                                    pl.struct(pl.all()).struct.field("a") + pl.col("b")],
                         ids=["all", "regex", "dtype", "nth", "struct of all"])
def test_a_figure_picking_columns_but_by_name_reads_every_column(monkeypatch, figure):
    # root_names() names none of the columns a selector picks: the batches held only deal and
    # seat, so pl.all() summed seat alone (a figure of 0 in every row here) and a regex raised
    n = 40
    rows = pl.DataFrame({"deal": np.repeat(np.arange(n // 4), 4), "seat": np.tile(np.arange(4), n // 4).astype(np.int8),
                         "a": pl.Series(np.arange(n) % 7, dtype=pl.Int32),
                         "b": pl.Series(np.arange(n) % 5 - 2, dtype=pl.Int32),
                         "c": np.arange(n) * 1.5}).lazy()
    monkeypatch.setattr(stats, "BATCH_ROWS", 7)
    for by in ((), ("seat",)):
        got = stats._wide_sums(rows, {"x": figure}, by, None, None)
        want = stats._wide_sums(rows, {"x": pl.col("a") + pl.col("b")}, by, None, None)
        for a, b in zip(got, want, strict=True):
            assert _sorted(a).equals(_sorted(b))


def test_rows_of_one_batch_are_summed_in_one_query(runs):
    # the last unit was split off as a batch of its own even where no batch came after it: every
    # small frame (a test's, a review's) summed in two queries and added up, twice the time
    rows = runs["deals"].lazy()
    batches = list(stats._unit_batches(rows, (), [pl.col("win")]))
    assert [b.height for b in batches] == [runs["deals"].height]
    assert list(stats._unit_batches(rows.head(0), (), [pl.col("win")])) == []


def test_a_figure_reading_other_rows_is_summed_at_once(monkeypatch, runs):
    # seat rows of deals by seat are summed in one select: a maximum reads every row given, so a
    # batch's maximum made another figure (the seats that took the most tricks of the whole run)
    rows = runs["deals"].lazy()
    figures = {"most": pl.col("tricks") == pl.col("tricks").max(), "win": pl.col("win")}
    whole = stats._wide_sums(rows, figures, ("seat",), None, None)
    monkeypatch.setattr(stats, "BATCH_ROWS", 7)
    batched = stats._wide_sums(rows, figures, ("seat",), None, None)
    for a, b in zip(whole, batched, strict=True):
        assert _sorted(a).equals(_sorted(b))
