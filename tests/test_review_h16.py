"""Review of hard16 (revh16): the folder locks it spread to plans and reviews, met where they
fail: a filesystem that cannot lock a folder, and the paths that end a command."""

from __future__ import annotations

import errno
import json
import os
import re

import polars as pl
import pytest

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


def test_the_strength_table_leaves_a_runs_folder_another_command_plays_alone_and_holds_its_own(tmp_path):
    # before: make strength with other settings removed the old plan's cells and its plan.json
    # from a runs folder a `sweep --resume` was finishing (a rename of a run being written), and
    # only then was refused; while it played its cells one by one the folder was not held, and
    # a `sweep --resume` there played the same cells beside it
    from simtool.commands import strength

    runs, held = tmp_path / "runs", []

    def say(line: str) -> None:
        try:
            folders.refuse_if_held(runs, "command")
        except simtool.SimtoolError as exc:
            held.append(str(exc))

    strength.measure(runs, ["black-white"], n=16, seed=3, jobs=1, say=say)
    assert held and all(f"output folder {runs} is being written by another simtool command" in h for h in held)
    assert not (runs / folders.HOLDER).exists()
    before = {p.parent.name: p.read_bytes() for p in runs.glob("*/run.json")}
    plan = (runs / "plan.json").read_bytes()
    other = folders.hold(runs, "command")
    try:
        with pytest.raises(simtool.SimtoolError, match="is being written by another simtool command"):
            strength.measure(runs, ["black-white"], n=32, seed=3, jobs=1, say=lambda line: None)
    finally:
        folders.let_go(other)
    assert {p.parent.name: p.read_bytes() for p in runs.glob("*/run.json")} == before
    assert (runs / "plan.json").read_bytes() == plan


def test_a_run_written_from_another_machine_is_not_called_ended_by_its_pid_here(tmp_path, monkeypatch):
    # before: a reader on another machine than the writer's (a cluster's shared folder) was told
    # "holds an interrupted run (its writer, pid N, has ended); finish it with simtool run
    # --resume": pid N was looked up in this machine's processes, though the folder's lock was held
    import subprocess

    writer = folders.RunWriter(tmp_path / "run", spec={"game": "hearts"})
    try:
        gone = subprocess.Popen(["true"])
        gone.wait()
        record = tmp_path / "run" / "chunks" / "writer.json"
        who = json.loads(record.read_text())
        assert who["pid"] == os.getpid()
        record.write_text(json.dumps({**who, "pid": gone.pid, "host": "node-17"}))
        with pytest.raises(simtool.SimtoolError, match=rf"is not finished: a run is being written there "
                                                       rf"\(pid {gone.pid} on node-17, started "):
            simtool.metrics(tmp_path / "run")
        # a filesystem that cannot say whether the folder is locked: neither busy nor ended for sure
        monkeypatch.setattr(folders, "locked", lambda folder: None)
        with pytest.raises(simtool.SimtoolError, match=rf"a run started on node-17 \(pid {gone.pid}, started .*\) may "
                                                       rf"still be writing it; once it has ended, finish it with "
                                                       rf"simtool run --resume"):
            simtool.metrics(tmp_path / "run")
    finally:
        writer.abort()


def test_a_plan_killed_as_it_wrote_who_holds_its_folder_leaves_a_folder_the_next_plan_takes(tmp_path):
    # before: a sweep (ladder, restricted play) killed between writing RUNS/.writer.json.tmp (or
    # its first plan.json.tmp) and renaming it left a folder refused for good: "RUNS is not empty
    # and holds no simtool plan; choose a new or empty folder", a hidden file of simtool's its cause
    for left in (".writer.json.tmp", "plan.json.tmp"):
        runs = tmp_path / left
        runs.mkdir()
        (runs / left).write_text('{"pid": 4')
        _, paths = simtool.ladder.climb("black-white", runs, n=200, seed=1, jobs=1, rungs=["random", "balance"])
        assert sorted(p.name for p in runs.iterdir()) == sorted([*(p.name for p in paths), "plan.json"])
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.json.tmp").write_text("mine")
    with pytest.raises(simtool.SimtoolError, match="is not empty and holds no simtool plan"):
        simtool.ladder.climb("black-white", mine, n=200, seed=1, jobs=1, rungs=["random", "balance"])


def test_a_runs_folder_whose_holder_record_cannot_be_deleted_is_let_go_all_the_same(tmp_path, monkeypatch):
    # before: a folder gone read-only under a finished ladder (a filesystem remounted after an
    # error) raised OSError out of the ladder as it let go of RUNS, its results lost, and RUNS
    # stayed locked for the rest of the process: a notebook's next ladder there was refused,
    # "being written by another simtool command (pid <its own>)"
    runs, unlink = tmp_path / "runs", type(tmp_path).unlink

    def read_only(path, missing_ok=False):
        if path.name == folders.HOLDER:
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(type(tmp_path), "unlink", read_only)
    _, paths = simtool.ladder.climb("black-white", runs, n=200, seed=1, jobs=1, rungs=["random", "balance"])
    monkeypatch.setattr(type(tmp_path), "unlink", unlink)
    _, again = simtool.ladder.climb("black-white", runs, n=200, seed=1, jobs=1, rungs=["random", "balance"])
    assert again == paths


def test_a_folder_held_from_another_machine_names_that_machine(tmp_path):
    # before: "output folder RUNS is being written by another simtool command (pid N, ...)", a pid
    # of the machine the command runs on, looked for in vain on this one
    runs = tmp_path / "runs"
    runs.mkdir()
    held = folders.hold(runs, "command")
    try:
        record = runs / folders.HOLDER
        record.write_text(json.dumps({**json.loads(record.read_text()), "host": "node-17"}))
        with pytest.raises(simtool.SimtoolError, match=rf"being written by another simtool command "
                                                       rf"\(pid {os.getpid()} on node-17, started "):
            simtool.ladder.climb("black-white", runs, n=200, seed=1, jobs=1, rungs=["random", "balance"])
    finally:
        folders.let_go(held)


def test_a_forced_plan_meeting_a_cell_another_run_writes_replaces_none_of_its_cells(tmp_path):
    # before: `ladder --force` (sweep, restrict) cleared each cell's finished run as it opened it,
    # then met a cell another process was writing and was refused: the runs before it deleted for
    # a command that did nothing
    runs, rungs = tmp_path / "runs", ["random", "low", "balance"]
    _, paths = simtool.ladder.climb("black-white", runs, n=200, seed=1, jobs=1, rungs=rungs)
    assert len(paths) == 2
    before = {p.name: (p / "run.json").read_bytes() for p in paths}
    other = folders.FolderLock(paths[-1])
    try:
        refused = re.escape(f"output folder {paths[-1]} is being written by another")
        with pytest.raises(simtool.SimtoolError, match=refused):
            simtool.ladder.climb("black-white", runs, n=200, seed=1, jobs=1, rungs=rungs, force=True)
    finally:
        other.release()
    assert {p.name: (p / "run.json").read_bytes() for p in paths if (p / "run.json").is_file()} == before
