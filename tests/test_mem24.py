"""Kansas City's overshoot table counted in batches of whole deals as the rows come
(stats.group_estimates), not from every deal grouped at once, which held them all (the printed
tables of 1e7 deals: 1,863 -> 305 MiB summed over the process tree): the same table, to the last
bit, as the deals grouped."""

import polars as pl
import pytest

import simtool
from simtool import stats
from simtool.analysis import kansas_city


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("kc")
    made = {"deals": simtool.run("kansas-city", 900, seed=4, jobs=1, out=base / "d"),
            "five": simtool.run("kansas-city", 500, players=5, seed=4, jobs=1, strategy="random", out=base / "f"),
            "duplicate": simtool.run("kansas-city", 200, seed=4, duplicate=True, jobs=1, out=base / "u"),
            "matches": simtool.run("kansas-city", 30, seed=4, unit="match", jobs=1, out=base / "m")}
    out = {}
    for name, r in made.items():
        keys = ["deal"] if r.meta["unit"] == "deal" else ["match", "round"]
        if r.meta.get("duplicate"):
            keys.insert(1, "rotation")
        out[name] = (r.seats.lazy(), keys, r.meta["players"])
    return out


def _grouped(seats: pl.LazyFrame, keys: list[str], p: int) -> pl.DataFrame:
    """The table as it was made before: every deal grouped, then counted."""
    per_deal = seats.group_by(keys).agg((pl.col("overshoot") > 0).sum().alias("overshooting")).collect()
    spread = stats.count_distribution(per_deal, "overshooting", range(p + 1))
    mean = stats.estimates(per_deal, {"mean": pl.col("overshooting")}, means={"mean"})
    mean = mean.select(pl.col("figure").alias("overshooting"), pl.col("n").cast(pl.Int64),
                       pl.col("value").alias("share"), pl.col("low").alias("share_low"),
                       pl.col("high").alias("share_high"))
    return pl.concat([spread.with_columns(pl.col("overshooting").cast(pl.String)), mean])


CUT = {"deals": 29, "five": 29, "duplicate": 7, "matches": 7}
"""Batches whose ends fall inside a unit (a deal's seat rows lie across two batches). 29 rows, not a
multiple of 4 or 5 seats, end inside a deal three times in four (four in five), as 7 rows do, in a
quarter of the batches (each some 5 ms of CPU: 2.7 s at 7 rows over the 900 deals); a duplicate
deal's unit (4 rotations, 16 rows) keeps 7, fewer rows than the unit, so that a batch may end none."""


@pytest.mark.parametrize("name", ["deals", "five", "duplicate", "matches"])
@pytest.mark.parametrize("cut", [True, False], ids=["cut", "whole"])
def test_the_overshoot_table_is_the_deals_grouped(monkeypatch, runs, name, cut):
    seats, keys, p = runs[name]
    monkeypatch.setattr(stats, "BATCH_ROWS", CUT[name] if cut else stats.BATCH_ROWS)
    ((title, table),) = kansas_city.tables(seats, keys)
    assert title.startswith("Players over the trick limit of ")
    assert table.equals(_grouped(seats, keys, p))
    assert table["overshooting"].to_list() == [*map(str, range(p + 1)), "mean"]
    assert table["n"][-1] == seats.select(pl.struct(keys).n_unique()).collect().item()


@pytest.mark.parametrize("name", ["deals", "duplicate", "matches"])
def test_deals_are_summed_in_batches(monkeypatch, runs, name):
    seats, keys, _ = runs[name]
    monkeypatch.setattr(stats, "BATCH_ROWS", 64)  # a match run's round of 30 matches: 120 rows
    given = []
    estimates = stats.estimates
    monkeypatch.setattr(stats, "estimates", lambda *a, **k: given.append(a[5]) or estimates(*a, **k))
    kansas_city.tables(seats, keys)
    assert given[0] is not None


def test_a_batch_holds_whole_units_of_groups(monkeypatch, runs):
    seats, keys, _ = runs["duplicate"]
    monkeypatch.setattr(stats, "BATCH_ROWS", 7)
    figures = {"over": pl.col("over") > 1, "mean": pl.col("over")}
    aggregates = [(pl.col("overshoot") > 0).sum().alias("over")]
    batched = stats.group_estimates(seats, keys, aggregates, figures, means={"mean"})
    at_once = stats.estimates(seats.group_by(keys).agg(aggregates), figures, means={"mean"})
    assert batched.equals(at_once)
    # the unit is the deal: its four copies (rotations) are one unit of the interval
    assert batched["n"][0] == 4 * 200
    shuffled = seats.collect().sample(fraction=1.0, shuffle=True, seed=1).lazy()
    assert stats.group_estimates(shuffled, keys, aggregates, figures, means={"mean"}).equals(at_once)


def test_the_main_process_makes_one_fold_per_table_not_one_per_chunk(monkeypatch, tmp_path):
    import dataclasses

    from simtool.commands import run as run_command
    from simtool.pipeline import executor
    from simtool.pipeline.runner import make_spec

    made = []
    folding = executor.folding
    monkeypatch.setattr(executor, "folding", lambda: made.append(1) or folding())
    spec = dataclasses.replace(make_spec("black-white", 3, 640, "random", None, seed=2), chunk=64)
    plan = executor.Plan("run", (executor.Cell(spec, tmp_path / "r"),), reuse=False)
    (done,) = executor.execute(plan, jobs=1, summed=run_command.summary_sums)
    keys = len(done.summed[0])
    assert spec.n_chunks == 10 and keys == 2
    assert len(made) == keys  # setdefault made one per table every chunk: 20


@pytest.fixture(scope="module")
def chunked():
    """A match run's seat rows as a run writes them: chunk after chunk (8 matches each), each
    chunk's matches round by round."""
    import dataclasses

    from simtool.pipeline.runner import execute, make_spec

    spec = dataclasses.replace(make_spec("kansas-city", None, 96, "random", None, unit="match", seed=6), chunk=8)
    return pl.concat([c.seats for c in execute(spec, 1, keep=True)])


def test_a_match_runs_rows_are_batched_at_the_ends_of_chunks(monkeypatch, chunked):
    rows = chunked.lazy()
    assert not chunked["match"].is_sorted()
    want = stats._wide_sums(rows, {"win": pl.col("win"), "over": pl.col("overshoot") > 0}, ("seat",), 4, None)
    monkeypatch.setattr(stats, "BATCH_ROWS", 40)  # a round of 8 matches: 32 rows
    batches = list(stats._unit_batches(rows, ("seat",), [pl.col("win")]))
    # before: None, then summed in one query holding every match (a printed match run's tables grew with n)
    assert len(batches) > 5 and all(b is not None for b in batches)
    units = [b["match"].unique().sort().to_list() for b in batches]
    assert sorted(u for us in units for u in us) == list(range(96))  # each match in one batch whole
    assert all(a[-1] < b[0] for a, b in zip(units, units[1:], strict=False))
    got = stats._wide_sums(rows, {"win": pl.col("win"), "over": pl.col("overshoot") > 0}, ("seat",), 4, None)
    for a, b in zip(want, got, strict=True):
        assert a.sort(a.columns).equals(b.sort(b.columns))
    ((_, table),) = kansas_city.tables(rows, ["match", "round"])
    assert table.equals(_grouped(rows, ["match", "round"], 4))


def test_a_cut_a_later_row_refutes_falls_back_to_one_query(monkeypatch, chunked):
    # batches of 7 rows, shorter than a round: a cut within round 0 is refuted by round 1
    rows = chunked.lazy()
    want = stats.estimates(rows, {"win": pl.col("win")}, ("seat",), strata=4)
    monkeypatch.setattr(stats, "BATCH_ROWS", 7)
    batches = list(stats._unit_batches(rows, ("seat",), [pl.col("win")]))
    assert batches[-1] is None and len(batches) > 1
    assert stats.estimates(rows, {"win": pl.col("win")}, ("seat",), strata=4).equals(want)
