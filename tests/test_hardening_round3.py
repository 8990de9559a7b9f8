"""Hostile round 3: what a careless or malicious user does to the checksums, plans, the infer
parameter and the command line added this session."""

from __future__ import annotations

import json

import polars as pl
import pytest

import simtool

from .test_cli import cli
from .test_data_safety import N, interrupted_run


def fresh_seats() -> pl.DataFrame:
    return simtool.run("black-white", n=N, seed=3, jobs=1, strategy="random").seats


def resumed(out):
    r = cli("run", "--resume", out, "-q", "--jobs", "1")
    return r


@pytest.mark.parametrize("damage", ["garbage", "list", "ints", "dir", "empty", "huge"])
def test_a_damaged_checksum_file_replays_its_chunk(tmp_path, small_chunks, damage):
    out = tmp_path / "run"
    interrupted_run(out, 3)
    sums = out / "chunks" / "sums-000001.json"
    if damage == "dir":
        sums.unlink()
        sums.mkdir()
        (sums / "x").write_text("x")
    else:
        sums.write_text({"garbage": "{not json", "list": "[1, 2]", "empty": "",
                         "ints": json.dumps({"seats": 5}),
                         "huge": " " * 5_000_000 + "{}"}[damage])
    r = resumed(out)
    assert r.exit_code == 0, r.output
    assert pl.read_parquet(out / "seats.parquet").equals(fresh_seats())


def test_a_damaged_chunk_whose_aside_name_is_a_folder_is_one_line(tmp_path, small_chunks):
    # failed before: IsADirectoryError raised out of the command (a traceback)
    out = tmp_path / "run"
    interrupted_run(out, 3)
    (out / "chunks" / "sums-000001.json").write_text("{}")
    (out / "chunks" / "seats-000001.parquet.damaged").mkdir()
    r = resumed(out)
    assert r.exit_code == 2, (r.output, r.exception)
    assert "seats-000001.parquet.damaged" in r.output and len(r.output.strip().splitlines()) == 1
    assert (out / "chunks" / "seats-000001.parquet").is_file()  # nothing lost: resumable once moved
    (out / "chunks" / "seats-000001.parquet.damaged").rmdir()
    assert resumed(out).exit_code == 0
    assert pl.read_parquet(out / "seats.parquet").equals(fresh_seats())


def test_a_match_chunk_whose_matches_file_is_gone_is_played_again(tmp_path, small_chunks):
    out = tmp_path / "run"
    def stop(done, total):
        if done == 2:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        simtool.run("black-white", n=3000, seed=3, jobs=1, out=out, progress=stop, strategy="random", unit="match")
    (out / "chunks" / "matches-000001.parquet").unlink()
    r = resumed(out)
    assert r.exit_code == 0, r.output
    fresh = simtool.run("black-white", n=3000, seed=3, jobs=1, strategy="random", unit="match")
    assert pl.read_parquet(out / "seats.parquet").equals(fresh.seats)
    assert pl.read_parquet(out / "matches.parquet").equals(fresh.matches)


SWEEP = ["sweep", "-g", "black-white", "-l", "random", "-l", "high", "--n", "3000", "--seed", "5", "-j", "1", "-q"]


@pytest.mark.parametrize("meta_change", [{"sha256": "abc"}, {"sha256": ["x"]}, {"files": 5},
                                         {"files": [5]}, {"files": []}, {"files": "seats.parquet"},
                                         {"sha256": {"seats.parquet": 5}}, {"files": None}])
def test_a_kept_cell_with_checksums_changed_by_hand_is_played_again(tmp_path, meta_change):
    # failed before: sha256 of another type, or files emptied, kept the changed table (silently
    # wrong figures); files of another type raised TypeError out of the command
    runs = tmp_path / "cells"
    assert cli(*SWEEP, "--runs", runs, "-o", tmp_path / "s.html").exit_code == 0
    tables = sorted(runs.rglob("seats.parquet"))
    before = {t: t.read_bytes() for t in tables}
    table = tables[0]
    pl.read_parquet(table).with_columns(pl.col("score") + 1).write_parquet(table)
    meta_file = table.parent / "run.json"
    meta = json.loads(meta_file.read_text())
    meta.update(meta_change)
    meta_file.write_text(json.dumps(meta))
    r = cli(*SWEEP, "--runs", runs, "-o", tmp_path / "s.html")
    assert r.exit_code == 0, (r.output, r.exception)
    assert {t: t.read_bytes() for t in tables} == before  # played again, not kept
