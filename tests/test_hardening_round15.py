"""Hostile round 15: grid files, tuning, reports and the Python API given what no designer means
to give. Each test failed on the code before its fix."""

from __future__ import annotations

import hashlib
import json

import polars as pl
import pytest

import simtool

from .test_cli import cli


def rehashed(folder) -> None:
    """run.json's checksum updated by hand to the edited table: the checksum no longer tells."""
    meta = json.loads((folder / "run.json").read_text())
    meta["sha256"]["seats.parquet"] = hashlib.sha256((folder / "seats.parquet").read_bytes()).hexdigest()
    (folder / "run.json").write_text(json.dumps(meta))


@pytest.mark.parametrize("column, value", [("score", None), ("win", float("nan"))])
def test_a_table_with_missing_values_and_its_checksum_rehashed_is_one_line(tmp_path, column, value):
    # before: report crashed in numpy's SVD (LinAlgError traceback), exit 1; after: one line, exit 2
    run = tmp_path / "run"
    simtool.run("kansas-city", n=300, seed=1, jobs=1, out=run)
    seats = pl.read_parquet(run / "seats.parquet")
    dtype = seats.schema[column]
    edited = seats.with_columns(pl.when(pl.col("seat") == 0).then(pl.lit(value, dtype))
                                .otherwise(pl.col(column)).alias(column))
    edited.write_parquet(run / "seats.parquet")
    rehashed(run)
    r = cli("report", run, "-o", tmp_path / "page.html")
    assert r.exit_code == 2, r.output
    assert f"column '{column}' has 300 missing values" in r.output
    assert "Traceback" not in r.output and not (tmp_path / "page.html").exists()
    with pytest.raises(simtool.SimtoolError, match="missing values"):
        simtool.metrics(run)


def test_a_rule_on_the_command_line_overrides_only_that_rule_of_the_grid_file(tmp_path, charts_undrawn):
    # before: --rule four_bonus=2,3 replaced the file's whole [rules] table, silently dropping
    # pass_count = [3, 2] (2 cells); after: both vary (4 cells), the file's rule kept
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["kansas-city"]\nn = 50\nseed = 1\n[rules]\npass_count = [3, 2]\nfour_bonus = [5]\n')
    runs = tmp_path / "runs"
    r = cli("sweep", grid, "--rule", "four_bonus=2,3", "--out", tmp_path / "page.html", "--runs", runs,
            "--jobs", "1", "-q")
    assert r.exit_code == 0, r.output
    cells = sorted(p.name for p in runs.iterdir() if p.is_dir())
    assert len(cells) == 4, cells
    assert sum("pass_count-2" in c for c in cells) == 2 and sum("four_bonus-3" in c for c in cells) == 2


@pytest.mark.parametrize("edit", [pl.col("win") * 5, pl.col("win") - 2])
def test_a_win_share_outside_0_to_1_with_its_checksum_rehashed_is_refused(tmp_path, edit):
    # before: the report printed win shares of 125% (or below 0) as the run's; after: one line, exit 2
    run = tmp_path / "run"
    simtool.run("kansas-city", n=300, seed=1, jobs=1, out=run)
    pl.read_parquet(run / "seats.parquet").with_columns(edit.alias("win")).write_parquet(run / "seats.parquet")
    rehashed(run)
    r = cli("report", run, "-o", tmp_path / "page.html")
    assert r.exit_code == 2, r.output
    assert "column 'win' has" in r.output and "outside 0..1" in r.output
    assert not (tmp_path / "page.html").exists()


def test_resuming_a_tuning_whose_tune_json_names_another_game_is_one_line(tmp_path):
    # before: the trials ran, then a StopIteration traceback (exit 1) looking up kansas-city's
    # pass_count among hearts' rules; after: refused before any trial, one line naming the rule
    out = tmp_path / "tune"
    r = cli("tune", "--game", "kansas-city", "--vary", "pass_count=0..3", "--objective", "seat_spread:min",
            "--trials", "2", "--n", "100", "--seed", "1", "--out", out, "--jobs", "1", "-q")
    assert r.exit_code == 0, r.output
    config = json.loads((out / "tune.json").read_text())
    (out / "tune.json").write_text(json.dumps(config | {"game": "hearts"}))
    r = cli("tune", "--resume", out, "-q", "--jobs", "1")
    assert r.exit_code == 2, r.output
    assert "tune.json is damaged (rule 'pass_count' is not hearts's; valid: passing" in r.output
    assert "Traceback" not in r.output


def test_tune_given_a_dict_for_its_config_is_simtools_error_and_makes_no_folder(tmp_path):
    # before: TypeError "asdict() should be called on dataclass instances" from dataclasses, after
    # making the folder; after: simtool's one line naming configure, nothing made
    with pytest.raises(simtool.SimtoolError, match=r"bad config .*simtool\.tune\.configure"):
        simtool.tune.tune({"game": "kansas-city"}, tmp_path / "tune")
    assert not (tmp_path / "tune").exists()
