"""Review of hard16 (revh16): the folder locks it spread to plans and reviews, met where they
fail: a filesystem that cannot lock a folder, and the paths that end a command."""

from __future__ import annotations

import errno
import json

import polars as pl

import simtool
from simtool.pipeline import folders


def _no_folder_locks(monkeypatch) -> None:
    """The kernel of an NFSv4 client (its default mount): flock is a write lock on the server,
    which a folder, opened read-only, cannot take (EBADF)."""
    def flock(fd, operation):
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(folders.fcntl, "flock", flock)


def test_runs_and_plans_on_a_filesystem_that_cannot_lock_a_folder_are_played(tmp_path, monkeypatch):
    # before: "cannot write to output folder X: Bad file descriptor" for every run, sweep, ladder
    # and review there (a cluster's shared folder), an empty folder left behind
    ours = tmp_path / "here"
    simtool.run("black-white", n=200, seed=1, strategy="random", jobs=1, out=ours)
    _no_folder_locks(monkeypatch)
    shared = tmp_path / "shared"
    simtool.run("black-white", n=200, seed=1, strategy="random", jobs=1, out=shared)
    assert (shared / "seats.parquet").read_bytes() == (ours / "seats.parquet").read_bytes()
    runs = tmp_path / "runs"
    _, paths = simtool.ladder.climb("black-white", runs, n=200, seed=1, jobs=1, rungs=["random", "balance"])
    assert all((p / "run.json").is_file() for p in paths)
    assert json.loads((runs / "plan.json").read_text())["command"] == "ladder"
    assert not (runs / folders.HOLDER).exists()
    assert pl.read_parquet(paths[0] / "seats.parquet").height > 0
