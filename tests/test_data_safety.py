"""Nothing a user owns is ever lost: run folders, locks, resumes, reports and sweeps (issue 14, 1-6)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import simtool
from simtool.pipeline import executor
from simtool.pipeline.folders import RunWriter

from .test_cli import PLUGINS, cli, one_line_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

BIN = Path(sys.executable).parent
BW = ["run", "-g", "black-white", "-s", "random", "--seed", "3", "--jobs", "1", "-q"]
N = 5 * 2048 - 100  # five chunks, the last one short, of the tests' small chunks (conftest.small_chunks)


def user_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def interrupted_run(out: Path, after: int, **kw) -> None:
    """A run stopped by Ctrl-C once ``after`` chunks are on disk (as a user would stop it)."""
    def stop(done, total):
        if done == after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simtool.run("black-white", n=kw.pop("n", N), seed=3, jobs=1, out=out, progress=stop,
                    **{"strategy": "random", **kw})
    assert not (out / "run.json").exists()


def chunk_files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "chunks").glob("*.parquet"))}


@pytest.mark.parametrize("force", [False, True])
def test_a_folder_of_other_files_is_refused_and_left_as_it_was(tmp_path, force):
    out = tmp_path / "mine"
    (out / "chunks" / "sub").mkdir(parents=True)
    for name in ("seats.csv", "matches.xlsx", "run.txt", "chunks/raw.csv", "chunks/sub/x.csv"):
        (out / name).write_text(f"the user's {name}")
    before = user_files(out)
    one_line_error(cli(*BW, "--n", "100", "--out", out, *(["--force"] if force else [])),
                   f"output folder {out} is not empty and holds no simtool run")
    assert user_files(out) == before


def test_force_replaces_only_the_files_simtool_wrote(tmp_path):
    out = tmp_path / "run"
    assert cli(*BW, "--n", "100", "--out", out).exit_code == 0
    (out / "notes.txt").write_text("mine")
    (out / "seats.csv").write_text("mine too")
    one_line_error(cli(*BW, "--n", "200", "--out", out), "already holds a run", "--force")
    r = cli(*BW, "--n", "200", "--out", out, "--force")
    assert r.exit_code == 0, r.output
    assert (out / "notes.txt").read_text() == "mine" and (out / "seats.csv").read_text() == "mine too"
    assert json.loads((out / "run.json").read_text())["n"] == 200


def test_a_folder_being_written_is_locked(tmp_path):
    out = tmp_path / "run"
    writer = RunWriter(out, spec={"game": "black-white"})
    try:
        one_line_error(cli(*BW, "--n", "100", "--out", out, "--force"),
                       f"output folder {out} is being written by another simtool run", "pid")
        assert json.loads((out / "chunks" / "spec.json").read_text())["game"] == "black-white"
    finally:
        writer.abort()
    assert not out.exists()  # the first writer created it, and took it back


HOLDS_STILL = """
import os, signal, sys
from simtool import cli
from simtool.pipeline.folders import RunWriter

real = RunWriter.__init__

def holds_still(self, *args, **kw):  # the folder locked and writer.json written: it waits there
    real(self, *args, **kw)
    os.kill(os.getpid(), signal.SIGSTOP)

RunWriter.__init__ = holds_still
sys.exit(cli.main(sys.argv[1:]))
"""


def test_two_processes_into_one_folder_never_mix(tmp_path):
    # the first holds its folder still, as SIGSTOP caught it writing, until the second is done:
    # it stops itself once it holds the folder (the test stopped it once it saw writer.json, and
    # a run done before the test looked, on a loaded machine, could let the second in)
    out = tmp_path / "run"
    first = subprocess.Popen([sys.executable, "-c", HOLDS_STILL, *BW[:-1], "--n", "3000", "--out", str(out),
                              "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, status = os.waitpid(first.pid, os.WUNTRACED)  # until it stops (or ends)
        assert os.WIFSTOPPED(status), first.stderr.read()
        second = subprocess.run([BIN / "simtool", "run", "-s", "random", "--seed", "4", "--n", "3000",
                                 "--out", str(out), "--force", "-q"], capture_output=True, text=True)
    finally:
        first.send_signal(signal.SIGCONT)
    assert first.wait(timeout=120) == 0, first.stderr.read()
    assert second.returncode == 2 and "being written by another simtool run" in second.stderr
    assert f"pid {first.pid}" in second.stderr and second.stderr.count("\n") == 1
    meta = json.loads((out / "run.json").read_text())
    assert meta["seed"] == 3
    seats = pl.read_parquet(out / "seats.parquet")
    assert seats.equals(simtool.run("black-white", n=3000, seed=3, strategy="random", jobs=1).seats)


def test_resume_from_another_directory_with_a_relative_plugin(tmp_path, monkeypatch, small_chunks):
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(PLUGINS / "good.py", work / "mine.py")
    monkeypatch.chdir(work)
    out = tmp_path / "run"
    interrupted_run(out, 2, seats={0: "mine.py:lowest_card"})
    monkeypatch.chdir(tmp_path)
    r = cli("run", "--resume", out, "-q")
    assert r.exit_code == 0, r.output
    monkeypatch.chdir(work)
    whole = simtool.run("black-white", n=N, seed=3, jobs=1, strategy="random", seats={0: "mine.py:lowest_card"})
    assert pl.read_parquet(out / "seats.parquet").equals(whole.seats)


def test_a_resume_that_cannot_go_on_keeps_every_chunk(tmp_path, monkeypatch, small_chunks):
    shutil.copy(PLUGINS / "good.py", tmp_path / "mine.py")
    out = tmp_path / "run"
    interrupted_run(out, 3, seats={1: str(tmp_path / "mine.py") + ":lowest_card"})
    before = chunk_files(out)
    assert len(before) == 3
    (tmp_path / "mine.py").rename(tmp_path / "moved.py")
    one_line_error(cli("run", "--resume", out), "no longer at", "mine.py")
    assert chunk_files(out) == before
    (tmp_path / "moved.py").write_text((PLUGINS / "good.py").read_text() + "\n# edited\n")
    (tmp_path / "moved.py").rename(tmp_path / "mine.py")
    one_line_error(cli("run", "--resume", out), "has changed since the run started")
    assert chunk_files(out) == before


def test_a_truncated_chunk_is_set_aside_and_played_again(tmp_path, small_chunks):
    out = tmp_path / "run"
    interrupted_run(out, 3)
    damaged = out / "chunks" / "seats-000001.parquet"
    damaged.write_bytes(damaged.read_bytes()[:1000])
    r = cli("run", "--resume", out, "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "run.json").read_text())["resumed_chunks"] == 2
    whole = simtool.run("black-white", n=N, seed=3, jobs=1, strategy="random")
    assert pl.read_parquet(out / "seats.parquet").equals(whole.seats)
    assert not (out / "chunks").exists()


@pytest.mark.parametrize("extra", [["--n", "1000"], ["--seed", "9"], ["-g", "kansas-city"],
                                   ["--rule", "pass_count=2"], ["--out", "elsewhere"], ["--rotate"]])
def test_resume_refuses_changed_options(tmp_path, extra, small_chunks):
    out = tmp_path / "run"
    interrupted_run(out, 1)
    before = chunk_files(out)
    one_line_error(cli("run", "--resume", out, *extra), "cannot change", extra[0],
                   "only --jobs, --backend, --scheduler and --timeout")
    assert chunk_files(out) == before


def test_two_resumes_at_once(tmp_path, small_chunks):
    out = tmp_path / "run"
    interrupted_run(out, 1)
    writer = RunWriter(out, resume=True)
    try:
        one_line_error(cli("run", "--resume", out), "being written by another simtool run")
    finally:
        writer.abort()
    assert len(chunk_files(out)) == 1


def test_the_run_json_records_plugin_hashes(tmp_path):
    out = tmp_path / "run"
    assert cli(*BW, "--n", "100", "--out", out, "--seat", f"0={PLUGINS}/good.py:lowest_card").exit_code == 0
    plugins = json.loads((out / "run.json").read_text())["plugins"]
    entry = plugins[f"{PLUGINS}/good.py:lowest_card"]
    assert len(entry["sha256"]) == 64 and entry["path"] == str((PLUGINS / "good.py").resolve())


@pytest.mark.parametrize("target", ["run.json", "seats.parquet", "chunks/x.html", "."])
def test_a_report_never_writes_over_its_inputs(tmp_path, target):
    out = tmp_path / "run"
    assert cli(*BW, "--n", "100", "--out", out).exit_code == 0
    before = user_files(out)
    one_line_error(cli("report", out, "-o", out / target), "report")
    assert user_files(out) == before


def test_a_report_replaces_its_own_page_but_no_other_file(tmp_path):
    out = tmp_path / "run"
    assert cli(*BW, "--n", "100", "--out", out).exit_code == 0
    page = tmp_path / "page.html"
    assert cli("report", out, "-o", page).exit_code == 0
    assert cli("report", out, "-o", page, "--title", "again").exit_code == 0
    assert "again" in page.read_text()
    notes = tmp_path / "notes.html"
    notes.write_text("<html>my notes</html>")
    one_line_error(cli("report", out, "-o", notes), "is not a simtool report")
    assert notes.read_text() == "<html>my notes</html>"


SWEEP = ["sweep", "-g", "black-white,kansas-city", "-l", "random", "--n", "4375", "--seed", "5",
         "-j", "1", "-q"]  # three small chunks a cell


def test_an_interrupted_sweep_keeps_its_work_and_resumes(tmp_path, monkeypatch, small_chunks):
    runs, page = tmp_path / "cells", tmp_path / "s.html"
    real = executor.execute_tasks

    def stopped(tasks, *args, **kw):
        for done, chunk in enumerate(real(tasks, *args, **kw), start=1):
            yield chunk
            if done == 4:
                raise KeyboardInterrupt

    monkeypatch.setattr(executor, "execute_tasks", stopped)
    r = cli(*SWEEP, "--runs", runs, "-o", page)
    assert r.exit_code == 130 and f"simtool sweep --resume {runs}" in r.stderr, r.output
    kept = {c.name: chunk_files(c) for c in runs.iterdir() if c.is_dir()}
    assert sum(len(files) for files in kept.values()) == 4 and not page.exists()
    monkeypatch.setattr(executor, "execute_tasks", real)

    one_line_error(cli("sweep", "--resume", runs, "--n", "10"), "cannot change", "--n")
    played = []

    def counted(tasks, *args, **kw):
        tasks = list(tasks)
        played.append(len(tasks))
        return real(tasks, *args, **kw)

    monkeypatch.setattr(executor, "execute_tasks", counted)
    r = cli("sweep", "--resume", runs)
    assert r.exit_code == 0, r.output
    assert played == [2] and page.exists()  # 6 chunks in all, 4 kept
    fresh = tmp_path / "fresh"
    assert cli(*SWEEP, "--runs", fresh, "-o", tmp_path / "f.html").exit_code == 0
    for cell in kept:
        assert pl.read_parquet(runs / cell / "seats.parquet").equals(
            pl.read_parquet(fresh / cell / "seats.parquet"))

    played.clear()  # the same sweep again: every cell is finished, nothing is played
    assert cli(*SWEEP, "--runs", runs, "-o", page).exit_code == 0
    assert sum(played) == 0
