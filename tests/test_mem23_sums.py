"""A chunk's sums of the printed tables made in numpy, not by a polars group-by: the same frames
bit for bit, and a worker that keeps less memory (issue 27's memory line; docs/speed.md,
2026-11-28)."""

import subprocess
import sys
import textwrap

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simtool import games, stats
from simtool.analysis.summary import summary_sums
from simtool.pipeline.runner import execute, make_spec

RUNS = [("black-white", {}), ("black-white", {"rotate": True, "seats": {0: "random"}}),
        ("black-white", {"players": 4, "duplicate": True, "seats": {1: "random"}}),
        ("black-white", {"players": 2, "strategy": "random"}),
        ("black-white", {"unit": "match", "rotate": True, "seats": {2: "random"}}),
        ("kansas-city", {}), ("kansas-city", {"unit": "match"}), ("trickster", {"rotate": True}),
        ("out-trumped", {"seats": {1: "random"}, "rotate": True}), ("out-trumped", {"unit": "match"}),
        ("nine-lives", {}), ("nine-lives", {"unit": "match", "players": 4}),
        ("hearts", {"strategy": "random"}), ("hearts", {"unit": "match", "rotate": True})]


def _chunk(game, kw, n):
    kw = dict(kw)
    spec = make_spec(game, kw.pop("players", None), n, kw.pop("strategy", None), kw.pop("seats", None),
                     unit=kw.pop("unit", "deal"), seed=7, rotate=kw.pop("rotate", False), **kw)
    return spec, next(iter(execute(spec, 1, keep=True)))


def _by_polars(monkeypatch, *args):
    with monkeypatch.context() as m:
        m.setattr(stats, "_numpy_sums", lambda *a: None)
        return summary_sums(*args)


def _same(got: dict, want: dict) -> None:
    assert got.keys() == want.keys()
    for (kind, by), parts in want.items():
        if parts is None:
            assert got[kind, by] is None
            continue
        keys = [*by, "stratum", "block"]
        assert got[kind, by][2] == parts[2]
        assert_frame_equal(got[kind, by][0].sort(keys), parts[0].sort(keys), check_exact=True)
        assert_frame_equal(got[kind, by][1].sort(keys[-2:]), parts[1].sort(keys[-2:]), check_exact=True)


@pytest.mark.parametrize("game, kw", RUNS, ids=[f"{g}-{'-'.join(map(str, k))}" for g, k in RUNS])
def test_numpy_sums_are_polars_sums_bit_for_bit(game, kw, monkeypatch):
    spec, chunk = _chunk(game, kw, 97 if kw.get("unit") == "match" else 701)
    args = (games.get(game), chunk.seats, chunk.matches, spec.strata)
    taken = []
    real = stats._numpy_sums
    monkeypatch.setattr(stats, "_numpy_sums", lambda *a: taken.append(real(*a)) or taken[-1])
    got = summary_sums(*args)
    assert taken and all(t is not None for t in taken)  # every built-in game's tables: numpy's road
    _same(got, _by_polars(monkeypatch, *args))


def test_a_chunk_runs_no_polars_query(monkeypatch):
    # what each chunk's group-by left behind in a worker (40-55 MiB) came from polars' engine
    spec, chunk = _chunk("black-white", {"rotate": True}, 500)
    monkeypatch.setattr(pl, "collect_all", lambda *a, **kw: pytest.fail("a polars query per chunk"))
    assert all(v is not None for v in summary_sums(games.get("black-white"), chunk.seats, None, 3).values())


def _rows(**columns):
    n = len(next(iter(columns.values())))
    return pl.DataFrame({"deal": range(n), "seat": [i % 2 for i in range(n)], **columns},
                        schema_overrides={"seat": pl.Int8})


FALLBACKS = {
    "float of many values": (_rows(x=[i / 7 for i in range(3000)]), {"x": pl.col("x")}),
    "value past 2**53": (_rows(x=[2.0 ** 30, 1.0] * 20), {"x": pl.col("x")}),
    "squares past 2**53": (_rows(x=pl.Series([2**27 + i for i in range(40)], dtype=pl.UInt32)), {"x": pl.col("x")}),
    "a null": (_rows(x=[1, None, 3, 4]), {"x": pl.col("x")}),
    "NaN": (_rows(x=[0.5, float("nan")]), {"x": pl.col("x")}),
    "an m": (_rows(x=[1, 0, 1, 1]), {"x": (pl.col("x"), pl.col("x") + 1)}),
    "Int64 figure": (_rows(x=pl.Series([2**40, 3] * 5, dtype=pl.Int64)), {"x": pl.col("x")}),
}


@pytest.mark.parametrize("case", FALLBACKS)
def test_what_numpy_cannot_prove_exact_polars_sums(case, monkeypatch):
    rows, figures = FALLBACKS[case]
    got = stats.chunk_sums(rows, figures, [("seat",), ()], 2)
    with monkeypatch.context() as m:
        m.setattr(stats, "_numpy_sums", lambda *a: None)
        want = stats.chunk_sums(rows, figures, [("seat",), ()], 2)
    _same({("seats", by): v for by, v in got.items()}, {("seats", by): v for by, v in want.items()})


def test_a_float_figure_of_few_values_is_summed_exactly_past_float_squares(monkeypatch):
    # wins of 1 at 2**-32 are 2**32, whose squares (2**64) no float sum holds: a * 2**18 + b does
    wins = pl.Series([1.0, 0.5, 1 / 3, 0.0] * 5000, dtype=pl.Float32)
    monkeypatch.setattr(pl, "collect_all", lambda *a, **kw: pytest.fail("summed by polars"))
    got = stats.chunk_sums(_rows(x=wins), {"x": pl.col("x")}, [("seat",)], None)[("seat",)][0]
    k = [int(v) for v in (wins.cast(pl.Float64) * 2.0**32).round().to_list()]
    for seat in (0, 1):
        row = got.filter(pl.col("seat") == seat)
        assert row["K0"][0] == sum(k[seat::2]) and row["KK0"][0] == sum(v * v for v in k[seat::2])


_GROWTH = """
import sys
import polars as pl
from simtool import games, stats
from simtool.analysis.summary import summary_sums
from simtool.pipeline.runner import execute, make_spec
if sys.argv[1] == "polars":
    stats._numpy_sums = lambda *a: None
spec = make_spec("black-white", 3, 32768 * 4, None, seed=1)
chunks = [c.seats for c in execute(spec, 1, keep=True)]
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
before = rss()
for _ in range(3):
    for seats in chunks:
        summary_sums(games.get("black-white"), seats, None, None)
print(rss() - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_keeps_less_memory_for_the_sums():
    grown = {road: float(subprocess.run([sys.executable, "-c", textwrap.dedent(_GROWTH), road], check=True,
                                        capture_output=True, text=True).stdout) for road in ("numpy", "polars")}
    # measured on the 2-core machine: numpy's 4-16 MiB (27 once, in a fresh-clone CI run at load),
    # polars' 35-66 MiB: 30 between them
    assert grown["numpy"] < 30 < grown["polars"], grown
