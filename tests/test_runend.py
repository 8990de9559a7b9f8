"""The end of a `simtool run` that prints its tables, made cheaper with the same figures bit for
bit (docs/speed.md, 2026-11-27 night, the run's end)."""

import numpy as np
import pytest

from simtool import stats


def _figures():
    rng = np.random.default_rng(11)
    n = 30_001  # odd: no seat of a panel lines up with a power of two
    win = ((rng.integers(0, 3, n) == 0) / rng.integers(1, 4, n)).astype(np.float32)
    score = rng.integers(-13, 14, n).astype(np.int16)
    return [(win, True), (score, False), (np.float32(1 / 3) + np.zeros(n, np.float32), True),
            (np.array([np.nan, 1.0]), False), (score[:1], False), (np.zeros(0), True)]


@pytest.mark.parametrize("case", range(6))
@pytest.mark.parametrize("strata", [None, 3])
def test_counted_units_give_the_figures_of_ones_summed(case, strata):
    k, share = _figures()[case]
    at = None if strata is None else np.arange(len(k)) % strata
    # m given as ones takes the road that summed m, k * m, m * m and m > 0 over every unit
    ones = stats.unit_estimate(k, np.ones(len(k)), at, share=share)
    assert np.array_equal(stats.unit_estimate(k, None, at, share=share), ones, equal_nan=True)


def test_counted_units_sum_two_figures_not_six(monkeypatch):
    calls = []
    real = np.bincount
    monkeypatch.setattr(stats.np, "bincount", lambda *a, **kw: calls.append(len(a)) or real(*a, **kw))
    value, low, high = stats.unit_estimate(np.arange(1_000, dtype=float) % 7)
    assert value == pytest.approx(3.0, abs=0.01) and low < value < high
    assert sorted(calls) == [1, 2, 2]  # the units counted, then k and k * k summed


# the sums of the printed tables, added up from the chunks as the workers played them

import dataclasses  # noqa: E402

import polars as pl  # noqa: E402
from polars.testing import assert_frame_equal  # noqa: E402

from simtool.commands.run import execute_run, summary_tables  # noqa: E402
from simtool.errors import OutOfMemory  # noqa: E402
from simtool.pipeline import runner  # noqa: E402
from simtool.pipeline.folders import load  # noqa: E402
from simtool.pipeline.runner import make_spec  # noqa: E402

RUNS = [("black-white", {}), ("black-white", {"rotate": True, "seats": {0: "random"}}),
        ("black-white", {"players": 4, "duplicate": True, "seats": {1: "random"}}),
        ("black-white", {"unit": "match", "rotate": True, "seats": {2: "random"}}),
        ("kansas-city", {"unit": "match"}), ("nine-lives", {}), ("hearts", {"strategy": "random"}),
        ("trickster", {"strategy": "random"}), ("out-trumped", {"strategy": "random"}),
        ("nine-lives", {"unit": "match", "players": 4})]


def _spec(game, kw, n=301, chunk=64):
    kw = dict(kw)
    spec = make_spec(game, kw.pop("players", None), n, kw.pop("strategy", None), kw.pop("seats", None),
                     unit=kw.pop("unit", "deal"), seed=9, rotate=kw.pop("rotate", False), **kw)
    return dataclasses.replace(spec, chunk=chunk if spec.unit == "deal" else chunk // 4)


def _tables_from(folder, sums, monkeypatch):
    """The printed tables, and how many times rows were summed for them."""
    from simtool import stats

    read = []
    real = stats._fixed_sums
    monkeypatch.setattr(stats, "_fixed_sums", lambda *a: read.append(1) or real(*a))
    meta, seats, matches = load(folder)
    tables = summary_tables(meta, seats, matches, sums)
    monkeypatch.setattr(stats, "_fixed_sums", real)
    return tables, len(read)


@pytest.mark.parametrize("game, kw", RUNS, ids=[f"{g}-{'-'.join(map(str, k))}" for g, k in RUNS])
def test_the_workers_sums_give_the_tables_of_the_rows_read_back(game, kw, tmp_path, monkeypatch):
    # whole matches: chunks of 16, the last of 5 (37, not 61: three chunks add up sums as four do);
    # Nine Lives' chunks of 8, the last of 3: a chunk plays to its longest match, and a match of 4
    # players is many rounds (16 a chunk were 2.2 s of CPU a run, 8 are 1.2)
    match = kw.get("unit") == "match"
    long = match and game == "nine-lives"
    spec = _spec(game, kw, n=19, chunk=32) if long else _spec(game, kw, n=37 if match else 301)
    assert spec.n_chunks > 2  # sums of several chunks added up, the last one short (odd n)
    reread = None
    for jobs in (1, 2):
        result = execute_run(spec, jobs, tmp_path / f"j{jobs}", False, None, keep=False, summed=True)
        assert result.summed and all(v is not None for v in result.summed.values())
        tables, read = _tables_from(result.path, result.summed, monkeypatch)
        if reread is None:
            reread, read_all = _tables_from(result.path, None, monkeypatch)
        # the two tables of seats (and matches) summed by the workers: no row read back for them
        assert read == read_all - len(result.summed)
        assert tables.keys() == reread.keys()
        for title in tables:  # bit for bit, whatever --jobs
            assert_frame_equal(tables[title], reread[title], check_exact=True)


def test_a_quiet_run_sums_nothing(tmp_path):
    result = execute_run(_spec("black-white", {}), 1, tmp_path / "r", False, None, keep=False)
    assert result.summed is None


def test_sums_past_exact_floats_are_summed_again_from_the_rows(monkeypatch):
    from simtool import stats

    # a whole figure whose squares pass 2**53 in the sum: the chunks' float sums are refused by
    # the check the rows' own go through, and the rows summed again in Int128
    rows = pl.DataFrame({"deal": range(40), "seat": [0] * 40, "big": [2**27 + i for i in range(40)]},
                        schema={"deal": pl.Int64, "seat": pl.Int8, "big": pl.UInt32})
    figures = {"big": pl.col("big")}
    given = stats.added_sums([stats.chunk_sums(rows[i:i + 16], figures, [("seat",)], None)[("seat",)]
                              for i in (0, 16, 32)], ["seat"])
    read = []
    real = stats._fixed_sums
    monkeypatch.setattr(stats, "_fixed_sums", lambda *a: read.append(a[2]) or real(*a))
    got = stats.estimates(rows, figures, ["seat"], {"big"}, given=given)
    assert read == [{0: (0, 0, False)}]
    monkeypatch.setattr(stats, "_fixed_sums", real)
    assert_frame_equal(got, stats.estimates(rows, figures, ["seat"], {"big"}), check_exact=True)


def test_a_figure_holding_nan_is_summed_from_the_rows():
    from simtool import stats

    rows = pl.DataFrame({"deal": [0, 1], "seat": [0, 0], "x": [0.5, float("nan")]})
    assert stats.chunk_sums(rows, {"x": pl.col("x")}, [("seat",), ()], None) == {("seat",): None, (): None}
    assert stats.added_sums([None], ["seat"]) is None


_PLAY = runner._play


def _starved_at_chunk_3(spec, index, *args):
    if index == 3:
        raise MemoryError
    return _PLAY(spec, index, *args)


def test_a_resumed_run_reads_back_the_chunks_no_worker_summed(tmp_path, monkeypatch):
    spec, out = _spec("black-white", {"rotate": True, "seats": {0: "random"}}), tmp_path / "r"
    monkeypatch.setattr(runner, "_play", _starved_at_chunk_3)
    with pytest.raises(OutOfMemory):
        execute_run(spec, 1, out, False, None, keep=False, summed=True)
    monkeypatch.setattr(runner, "_play", _PLAY)
    resumed = execute_run(None, 1, out, False, None, keep=False, resume=True, summed=True)
    assert resumed.meta["resumed_chunks"] > 0 and resumed.summed is None
    whole = execute_run(spec, 1, tmp_path / "w", False, None, keep=False, summed=True)
    tables, _ = _tables_from(whole.path, whole.summed, monkeypatch)
    for title, table in _tables_from(out, None, monkeypatch)[0].items():
        assert_frame_equal(table, tables[title], check_exact=True)


# the seat line read a batch of units at a time

from simtool.analysis import summary, verdicts  # noqa: E402


def _outcome(p, units, rng, partners=False, match=False):
    win = np.where(rng.random((units, p)) < 1 / p, 1 / rng.integers(1, 3, (units, p)), 0).astype(np.float32)
    score = rng.integers(-30, 31, (units, p)).astype(np.int16 if not match else np.int32)
    if partners:
        score[:, 2:] = score[:, :2]  # seats 0 and 2, 1 and 3 as partners score
    key = "match" if match else "deal"
    return pl.DataFrame({key: np.repeat(np.arange(units), p), "seat": np.tile(np.arange(p, dtype=np.int8), units),
                         "win": win.ravel(), "total" if match else "score": score.ravel()})


@pytest.mark.parametrize("p, units, rotate, partners, match", [
    (3, 10_007, False, False, False), (3, 10_007, True, False, False), (4, 401, True, True, False),
    (4, 401, False, True, True), (5, 3, True, False, False), (2, 1, False, False, True)])
def test_the_seat_line_read_in_batches_gives_the_figures_of_the_whole(p, units, rotate, partners, match):
    rows = _outcome(p, units, np.random.default_rng(units + p), partners, match)
    meta = {"players": p, "rotate": rotate, "unit": "match" if match else "deal"}
    whole = summary.seat_shares(meta, *((None, rows) if match else (rows, None)))
    score = stats.panel(rows, "total" if match else "score", p)
    # batches that split the strata and the seats' runs anywhere (one unit at a time: over small runs,
    # 401 units as 2,001 were, one past a whole rotation of 4 seats, each unit a collect of its own:
    # 2,001 of them took 1.1 s, 401 take 0.2 s; 150 leaves a short last batch as 1,000 did)
    for batch in (1, 7, 150, 1 << 18) if units <= 401 else (997, 1 << 18):
        table, alike, count = summary.streamed_seat_shares(meta, rows.lazy(), batch)
        assert_frame_equal(table, whole, check_exact=True)  # bit for bit
        assert count == units
        assert verdicts.sides_of(alike, count) == verdicts.partners(score)
    assert (verdicts.partners(score) == [(0, 2), (1, 3)]) == (partners and units >= verdicts.PARTNER_UNITS)


def test_a_seat_line_reads_a_batch_of_units_at_a_time(monkeypatch):
    rows = _outcome(3, 100, np.random.default_rng(1))
    read = []
    real = pl.LazyFrame.collect
    monkeypatch.setattr(pl.LazyFrame, "collect", lambda self, *a, **kw: read.append(real(self).height) or
                        real(self, *a, **kw))
    summary.streamed_seat_shares({"players": 3, "rotate": False}, rows.lazy(), 16)
    assert read == [48] * 6 + [12, 0]
