"""The main process of a printed run adds up the chunks' sums as they come instead of keeping every
chunk's frames: its memory flat in n (issue 27's memory line; docs/speed.md, 2026-11-28)."""

import dataclasses

import pytest
from polars.testing import assert_frame_equal

from simtool import games, stats
from simtool.analysis.summary import summary_sums
from simtool.commands import run as run_command
from simtool.pipeline import executor
from simtool.pipeline.executor import Cell, Plan
from simtool.pipeline.runner import execute, make_spec

RUNS = [("black-white", {"rotate": True, "seats": {0: "random"}}), ("hearts", {"unit": "match"}),
        ("black-white", {"players": 4, "duplicate": True}), ("nine-lives", {"strategy": "random"})]


def _chunks_sums(game, kw):
    kw = dict(kw)
    spec = make_spec(game, kw.pop("players", None), 40 if kw.get("unit") == "match" else 700,
                     kw.pop("strategy", None), kw.pop("seats", None), unit=kw.pop("unit", "deal"), seed=5,
                     rotate=kw.pop("rotate", False), **kw)
    spec = dataclasses.replace(spec, chunk=64 if spec.unit == "deal" else 8)
    return [summary_sums(games.get(game), c.seats, c.matches, spec.strata) for c in execute(spec, 1, keep=True)]


@pytest.mark.parametrize("game, kw", RUNS, ids=[g + "-" + "-".join(k) for g, k in RUNS])
def test_folded_sums_are_the_added_sums(game, kw):
    chunks = _chunks_sums(game, kw)
    assert len(chunks) > 4
    for (kind, by) in chunks[0]:
        folded = stats.Folded()
        for c in chunks:
            folded.add(c[kind, by])
        got, want = folded.parts(), stats.added_sums([c[kind, by] for c in chunks], by)
        keys = [*by, "stratum", "block"]
        assert got[2] == want[2] and got[0].height == want[0].height  # one row per group, kept
        # the same sums, in the chunks' types: added up once more at the run's end, as one chunk
        assert_frame_equal(stats.added_sums([got], by)[0].sort(keys), want[0].sort(keys), check_exact=True)
        assert_frame_equal(stats.added_sums([got], by)[1].sort(keys[-2:]), want[1].sort(keys[-2:]),
                           check_exact=True)


def test_folded_sums_are_none_as_added_sums_are():
    (parts,) = _chunks_sums("black-white", {"strategy": "random"})[:1]
    seat = parts["seats", ("seat", "strategy")]
    for chunks in ([seat, None, seat], [seat, (seat[0], seat[1], {**seat[2], 0: None})]):
        folded = stats.Folded()
        for c in chunks:
            folded.add(c)
        assert folded.parts() is None and stats.added_sums(chunks, ["seat", "strategy"]) is None
    assert stats.Folded().parts() is None


def test_the_main_process_keeps_one_sum_not_one_per_chunk(tmp_path):
    spec = dataclasses.replace(make_spec("black-white", 3, 2000, None, {0: "random"}, seed=2, rotate=True),
                               chunk=64)
    plan = Plan("run", (Cell(spec, tmp_path / "r"),), reuse=False)
    (done,) = executor.execute(plan, jobs=2, summed=run_command.summary_sums)
    assert spec.n_chunks == 32 and len(done.summed) == 1  # one per chunk, 32, before
    want = [summary_sums(games.get("black-white"), c.seats, None, 3) for c in execute(spec, 1, keep=True)]
    for key, (wide, count, modes) in done.summed[0].items():
        added = stats.added_sums([w[key] for w in want], key[1])
        keys = [*key[1], "stratum", "block"]
        assert modes == added[2] and wide.height == added[0].height
        assert_frame_equal(wide.sort(keys), added[0].sort(keys), check_exact=True)
        assert_frame_equal(count.sort(keys[-2:]), added[1].sort(keys[-2:]), check_exact=True)
