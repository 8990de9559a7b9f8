"""--precision: chunks are added until the headline shares are known to the asked half-width."""

import json

import numpy as np
import polars as pl
import pytest

from simtool import stats
from simtool.pipeline import runner
from simtool.reports import balance as report

from .conftest import SMALL, smaller_chunks
from .test_cli import cli, one_line_error

ARGS = ["run", "-g", "kansas-city", "--seed", "2", "-q", "--seat", "0=greedy", "-s", "target",
        "--rotate"]


def widest_printed(meta, seats, matches=None) -> float:
    """The widest 95% half-width among the shares the summary prints."""
    from simtool.commands.run import summary_tables

    tables = summary_tables(meta, seats, matches)
    halves = [((t[f"{c}_high"] - t[f"{c}_low"]) / 2).max()
              for title in ("By seat and strategy", "By strategy (seats pooled)")
              for t in [tables[title]] for c in t.columns
              if f"{c}_low" in t.columns and c not in stats.MEANS]
    return max(halves)


TARGET = 0.024
"""The half-width of the two runs below, in chunks a 16th of a command's own (``smaller_chunks``): 6,656
deals, three chunks and a part, reached in a second batch of chunks (two, played side by side with two
jobs); the stop is at a block inside a chunk. (At full-size chunks, 0.006, a quarter of this width,
stopped at 107,520 deals: 16 times the deals, the same three chunks and a part; the precision tests
are about where a run stops among its chunks and blocks, which the smaller chunks keep.)"""

BLOCK = runner.CHUNK // SMALL // runner.BLOCKS
"""A block of deals under ``smaller_chunks``: the run's precision is looked at after every block."""


@pytest.fixture(scope="module")
def two_jobs(tmp_path_factory):
    """The run at :data:`TARGET` with two jobs, printing its summary: one play for the two tests
    below (the first reads it, the second compares it with one job's)."""
    out = tmp_path_factory.mktemp("precision") / "a"
    with smaller_chunks():
        r = cli(*[a for a in ARGS if a != "-q"], "--precision", str(TARGET), "-o", out, "-j", "2")
    return r, out


def test_stops_at_the_first_block_where_every_printed_share_is_that_precise(two_jobs, charts_undrawn):
    r, out = two_jobs
    assert r.exit_code == 0, r.output
    assert "tracks every share printed above" in r.output
    meta = json.loads((out / "run.json").read_text())
    assert meta["n"] % BLOCK == 0 and meta["precision_reached"] <= TARGET
    seats = pl.read_parquet(out / "seats.parquet")
    assert seats["deal"].n_unique() == meta["n"] == seats["deal"].max() + 1
    # what was tracked is what the summary prints, and one block fewer would not have done
    assert np.isclose(widest_printed(meta, seats), meta["precision_reached"])
    assert widest_printed(meta, seats.filter(pl.col("deal") < meta["n"] - BLOCK)) > TARGET
    assert "the widest is ±" in report.render([out])


@pytest.mark.usefixtures("small_chunks")
def test_the_stopping_point_follows_the_target_within_a_chunk(tmp_path):
    """Targets a factor 2 apart stop about 4 times as many deals apart (0.01 and 0.005 used to stop
    at the same first look, 65 536 deals). In chunks of 2048 deals: 0.08 stops at 640 deals (10
    blocks) and 0.04 at 2432, as 0.02 and 0.01 did at 10,240 and 38,912 in chunks of 32,768."""
    ns = []
    for target in ("0.08", "0.04"):
        assert cli(*ARGS, "--precision", target, "-o", tmp_path / target, "-j", "2").exit_code == 0
        ns.append(json.loads((tmp_path / target / "run.json").read_text())["n"])
    assert ns[0] < runner.CHUNK and 3 < ns[1] / ns[0] < 5  # a quarter of the width: four times the deals


@pytest.mark.usefixtures("small_chunks")
def test_whole_matches_count_matches_not_rounds(tmp_path):
    # 480 matches, 15 blocks of 32 in the first chunk of 1024 (at full-size chunks, 0.01: 7680 matches,
    # 15 blocks of 512)
    r = cli("run", "-g", "kansas-city", "--unit", "match", "--seed", "3", "-q", "--precision", "0.04",
            "-o", tmp_path / "m", "-j", "1")
    assert r.exit_code == 0, r.output
    meta = json.loads((tmp_path / "m" / "run.json").read_text())
    seats = pl.read_parquet(tmp_path / "m" / "seats.parquet")
    matches = pl.read_parquet(tmp_path / "m" / "matches.parquet")
    assert meta["n"] % (runner.MATCH_CHUNK // runner.BLOCKS) == 0
    assert matches["match"].n_unique() == meta["n"] == seats["match"].n_unique()
    assert np.isclose(widest_printed(meta, seats, matches), meta["precision_reached"])
    assert meta["precision_reached"] <= 0.04


@pytest.mark.usefixtures("small_chunks")  # the chunks of two_jobs
def test_same_stopping_point_whatever_the_jobs(tmp_path, two_jobs):
    r, out = two_jobs  # -q or not changes only what is printed
    assert r.exit_code == 0, r.output
    assert cli(*ARGS, "--precision", str(TARGET), "-o", tmp_path / "j1", "-j", 1).exit_code == 0
    one, two = (pl.read_parquet(folder / "seats.parquet") for folder in (tmp_path / "j1", out))
    assert one.equals(two)


@pytest.mark.usefixtures("small_chunks")
def test_the_cap_stops_a_run_that_cannot_get_there(tmp_path):
    # a chunk and a part (2500 deals in chunks of 2048, as 40,000 was in chunks of 32,768)
    r = cli(*ARGS, "--precision", "0.0001", "--n", "2500", "-o", tmp_path / "c")
    assert r.exit_code == 0
    meta = json.loads((tmp_path / "c" / "run.json").read_text())
    assert meta["n"] == 2500 and meta["precision_reached"] > 0.0001 and meta["precision_cap"] == 2500


@pytest.mark.parametrize("value", ["0", "-0.01", "0.5", "lots"])
def test_bad_precision(tmp_path, value):
    r = cli(*ARGS, "--precision", value, "-o", tmp_path / "x")
    assert r.exit_code == 2 and not (tmp_path / "x").exists()
    one_line_error(r, f"bad --precision {value!r}")


@pytest.mark.usefixtures("small_chunks")
def test_an_interrupted_precision_run_resumes_to_the_same_result(tmp_path):
    from simtool.commands.run import execute_run
    from simtool.pipeline.runner import make_spec

    # 13,376 deals: six chunks of 2048 and a part (0.002 in chunks of 32,768: 214,016 deals, as many chunks)
    spec = make_spec("black-white", 3, 10**8, "random", None, None, "deal", 4, False, 0.008)
    execute_run(spec, 1, tmp_path / "whole", False, None, keep=False)

    def stop_after_three(done, total):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute_run(spec, 1, tmp_path / "cut", False, stop_after_three, keep=False)
    assert not (tmp_path / "cut" / "run.json").exists()
    execute_run(None, 2, tmp_path / "cut", False, None, keep=False, resume=True)
    whole, cut = (json.loads((tmp_path / d / "run.json").read_text()) for d in ("whole", "cut"))
    assert cut["resumed_chunks"] == 3 and cut["n"] == whole["n"] > 3 * runner.CHUNK and whole["n"] % runner.CHUNK
    assert pl.read_parquet(tmp_path / "cut" / "seats.parquet").equals(
        pl.read_parquet(tmp_path / "whole" / "seats.parquet"))
