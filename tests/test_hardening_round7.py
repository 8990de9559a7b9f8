"""Hostile round 7: tables checked by every reader (not the report alone), leftovers of round 6,
and careless or malicious input to every command. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import simtool
from simtool.pipeline import folders

from .test_cli import cli, one_line_error
from .test_hardening_cli import main_error

ROOT = Path(__file__).resolve().parents[1]
BW = ["--game", "black-white", "--strategy", "random", "--jobs", "1", "-q"]


def two_runs(tmp_path: Path) -> tuple[Path, Path]:
    """Runs ``a`` and ``b`` of one shape, other seeds: ``b``'s seats copied over ``a``'s read whole."""
    a, b = tmp_path / "a", tmp_path / "b"
    for out, seed in ((a, 1), (b, 2)):
        simtool.run("black-white", n=200, seed=seed, jobs=1, out=out, strategy="random")
    return a, b


# ---- a finished run's checksums, checked by every reader -------------------------------------

def test_another_runs_table_copied_in_is_refused_by_every_reader(tmp_path):
    # before: the report alone checked the SHA-256 of run.json; simtool.metrics (and the ladder,
    # restricted play and review readers, which all load through folders.load) gave the figures
    # of the copied-in table as the run's
    a, b = two_runs(tmp_path)
    shutil.copy(b / "seats.parquet", a / "seats.parquet")
    with pytest.raises(simtool.SimtoolError, match="tables are not those its run.json records"):
        simtool.metrics(a)
    with pytest.raises(simtool.SimtoolError, match="tables are not those its run.json records"):
        folders.load(a)
    assert folders.load(b)[0]["seed"] == 2  # an untouched run still reads


def test_a_run_read_after_it_was_written_is_not_read_again_to_check_it(tmp_path, monkeypatch):
    # the checksum written with the table is remembered: the summary and the report of the run
    # just played do not read its tables once more to check them
    out = tmp_path / "r"
    simtool.run("black-white", n=200, seed=1, jobs=1, out=out, strategy="random")
    monkeypatch.setattr(folders, "file_checksum", lambda path: pytest.fail(f"{path} read again"))
    folders.load(out)
