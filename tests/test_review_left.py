"""A hostile review of the merge of branch left (out-trumped column, Hearts' queen per seat, match
lengths to the end, busy folders, dead writers' temporaries, API timeout words, EPIPE): each
defect found has its failing case here, and the figures checked against an independent reading
of the rule sheet."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from simtool.errors import SimtoolError

from .conftest import spec


def ended_pid() -> int:
    gone = subprocess.Popen(["true"])
    gone.wait()
    return gone.pid


def aged(path: Path, seconds: float) -> Path:
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_a_fresh_temporary_of_a_pid_not_running_here_is_kept(tmp_path):
    # before: removed at once, though a pid this process cannot see may be a live writer's (on
    # another machine sharing the folder, or in a container): its rename then failed
    from simtool.pipeline.folders import DEAD_TEMP_AGE
    from simtool.reports.balance import write_page

    dead = ended_pid()
    fresh = tmp_path / f".{dead}-0a1b2c3d.report.html.tmp"
    fresh.write_text("being written elsewhere")
    old = tmp_path / f".{dead}-0a1b2c3e.report.html.tmp"
    old.write_text("x")
    aged(old, DEAD_TEMP_AGE + 60)
    write_page(tmp_path / "report.html", "<html></html>")
    assert fresh.read_text() == "being written elsewhere"
    assert not old.exists()


def test_a_pid_beyond_any_pid_is_no_crash(tmp_path):
    # before: OverflowError (a traceback) from os.kill, for a file of that name beside a report,
    # and for a writer.json whose pid was edited
    from simtool.pipeline.folders import RunWriter, alive, unfinished
    from simtool.reports.balance import write_page

    huge = 2 ** 40
    assert not alive(huge)
    left = tmp_path / f".{huge}-0a1b2c3d.report.html.tmp"
    left.write_text("x")
    aged(left, 2 * 86400)
    write_page(tmp_path / "report.html", "<html></html>")
    assert not left.exists() and (tmp_path / "report.html").is_file()
    writer = RunWriter(tmp_path / "cut", spec={"game": "hearts"})
    writer.lock.release()
    record = tmp_path / "cut" / "chunks" / "writer.json"
    record.write_text(record.read_text().replace(str(os.getpid()), str(huge)))
    assert "holds an interrupted run" in unfinished(tmp_path / "cut")


def test_a_stale_writer_record_whose_pid_runs_again_is_no_busy_folder(tmp_path):
    # before: "a run is being written there (pid N ...); wait for it to end": the killed writer's
    # pid, given since to another process (here: this one), was taken for the writer, for ever.
    # The folder's lock says whether a writer runs.
    import simtool
    from simtool.pipeline.folders import RunWriter

    writer = RunWriter(tmp_path / "cut", spec={"game": "hearts"})
    writer.lock.release()  # as the kernel does when the writer is killed; its pid (ours) still runs
    with pytest.raises(SimtoolError, match=r"holds an interrupted run \(its writer, pid \d+, has ended\); "
                                           r"finish it with simtool run --resume"):
        simtool.metrics(tmp_path / "cut")
    writer = RunWriter(tmp_path / "busy", spec={"game": "hearts"})  # one that holds the lock
    try:
        with pytest.raises(SimtoolError, match=rf"is not finished: a run is being written there \(pid {os.getpid()}"):
            simtool.metrics(tmp_path / "busy")
    finally:
        writer.abort()


def test_a_review_never_sets_the_pooled_queen_against_the_most_exposed_seat(tmp_path):
    # before: a baseline review.json written before the merge holds the queen pooled (1/p by rule,
    # 25.0% at 4p); this one the most exposed seat's, above 1/p whatever the rules: compared as
    # one question, any rule change read "worse" for the queen
    import simtool
    from simtool.analysis.review import changes, hazards
    from simtool.games import get

    folder = tmp_path / "hearts"
    simtool.run("hearts", n=400, seed=3, out=folder, jobs=1)
    (queen,) = [h for h in hazards(get("hearts"), folder) if h["name"] == "queen"]
    assert queen["rate"] > 0.25
    old = {"name": "queen", "rate": 0.25, "ci": [0.25, 0.25], "verdict": "common", "sentence": "", "risk": True}

    def review(*hazard):
        return {"seats": {"figure": None}, "skill": {}, "luck": {"figure": None}, "tension": {"figure": None},
                "hazards": list(hazard), "restrictions": []}

    assert changes(review(old), review(queen)) == []
    same = changes(review(queen), review(queen))
    assert [(c["question"], c["change"]) for c in same] == [("hazards: queen (the most exposed seat)",
                                                             "no clear change")]


def out_trumped_by_the_sheet(trumps: np.ndarray) -> np.ndarray:
    """The sheet, seat by seat: those with the least trumps (at least one) lose, ties all lose;
    no trumps is not the least; one player alone with trumps, or all tied, nobody loses."""
    out = np.zeros(trumps.shape, bool)
    for d, row in enumerate(trumps.tolist()):
        holders = [t for t in row if t >= 1]
        if len(holders) >= 2 and min(holders) < max(holders):
            out[d] = [t == min(holders) for t in row]
    return out


@pytest.mark.parametrize("p", [2, 3, 4, 5, 6])
def test_out_trumped_is_the_sheets_least_trumps_whatever_the_points(p):
    from simtool.games.out_trumped import score

    rng = np.random.default_rng(p)
    n = 4000
    trumps = rng.integers(0, 4, (n, p)) * rng.integers(0, 2, (n, p))  # many ties, zeros, sole holders
    zeros = np.zeros((n, p), np.int8)
    for sole, most, penalty in [(2, 1, 1), (2, 1, 0), (-3, -1, 0), (0, 0, -2)]:
        got = score(zeros, trumps, np.zeros(n, np.int64), zeros, np.full(n, -1), "none", sole, most, penalty)
        assert np.array_equal(got["out_trumped"], out_trumped_by_the_sheet(trumps))
    no_trump = score(zeros, zeros, np.full(n, -1), zeros, np.full(n, -1), "none")
    assert not no_trump["out_trumped"].any()


@pytest.mark.parametrize("p,rules", [(3, {"kitty": "bid"}), (5, {"kitty": "low-card", "penalty": 0}),
                                     (6, {"wild": "no-trump", "trump_bonus": -2})])
def test_out_trumped_column_of_played_deals_reads_the_trumps_taken(p, rules):
    from simtool.pipeline.runner import play_chunk

    seats = play_chunk(spec("out-trumped", p, n=300, chunk=300, seed=5, rules=rules), 0).seats.sort("deal", "seat")
    trumps = seats["trumps"].to_numpy().reshape(-1, p)
    out = seats["out_trumped"].to_numpy().reshape(-1, p)
    assert np.array_equal(out, out_trumped_by_the_sheet(trumps))
    assert out.any() and not out.all(axis=1).any()


def test_a_run_whose_reader_has_gone_still_writes_its_whole_folder(tmp_path):
    # `simtool run ... | head -1`: the tables go nowhere, the folder is whole, status 0
    read, write = os.pipe()
    os.close(read)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    done = subprocess.run([sys.executable, "-m", "simtool.cli", "run", "--game", "out-trumped", "--n", "200",
                           "--jobs", "1", "--out", str(tmp_path / "run")], stdout=write, stderr=subprocess.PIPE,
                          env=env, timeout=120)
    os.close(write)
    assert done.returncode == 0, done.stderr
    assert {f.name for f in (tmp_path / "run").iterdir()} == {"run.json", "seats.parquet"}
    assert b"Traceback" not in done.stderr


def test_a_resume_plays_again_the_chunks_an_earlier_simtool_wrote_without_a_column(tmp_path, monkeypatch):
    # before: the run played every chunk left, then ended in "cannot write .../seats.parquet: extra
    # column in file outside of expected schema: out_trumped" (status 2), and so did every resume
    # after it: chunks written before out_trumped (same version number) joined with new ones
    import json

    import polars as pl

    import simtool
    from simtool.pipeline import runner
    from simtool.pipeline.folders import checksum

    from .test_cli import cli

    monkeypatch.setattr(runner, "CHUNK", 100)

    def stop(done, total):
        if done == 2:
            raise KeyboardInterrupt

    cut, whole = tmp_path / "cut", tmp_path / "whole"
    with pytest.raises(KeyboardInterrupt):
        simtool.run("out-trumped", n=300, seed=4, jobs=1, out=cut, strategy="random", progress=stop)
    simtool.run("out-trumped", n=300, seed=4, jobs=1, out=whole, strategy="random")
    kept = sorted((cut / "chunks").glob("seats-*.parquet"))
    assert len(kept) == 2
    for f in kept:  # each as the simtool before the column wrote it, whole, with its checksum
        pl.read_parquet(f).drop("out_trumped").write_parquet(f)
        sums = f.with_name(f"sums-{f.name[6:12]}.json")
        sums.write_text(json.dumps({**json.loads(sums.read_text()), "seats": checksum(f.read_bytes())}))
    done = cli("run", "--resume", cut, "--jobs", "1", "-q")
    assert done.exit_code == 0, done.output
    assert pl.read_parquet(cut / "seats.parquet").equals(pl.read_parquet(whole / "seats.parquet"))


def test_a_plan_plays_again_a_finished_cell_an_earlier_simtool_wrote_without_a_column(tmp_path):
    # before: a plan (sweep, ladder, review...) kept the cell as finished (same specification,
    # same version number) and its readers failed: "seats.parquet has no 'out_trumped' column
    # ...: run it again", at every run again
    import json

    import polars as pl

    from simtool.pipeline.executor import Cell, Plan, execute
    from simtool.pipeline.folders import checksum

    plan = Plan("sweep", (Cell(spec("out-trumped", 4, n=100, seed=2), tmp_path / "runs" / "cell"),), tmp_path / "runs")
    execute(plan, jobs=1)
    cell = tmp_path / "runs" / "cell"
    played = pl.read_parquet(cell / "seats.parquet")
    played.drop("out_trumped").write_parquet(cell / "seats.parquet")
    meta = json.loads((cell / "run.json").read_text())
    meta["sha256"]["seats.parquet"] = checksum((cell / "seats.parquet").read_bytes())
    (cell / "run.json").write_text(json.dumps(meta))
    execute(plan, jobs=1)
    assert pl.read_parquet(cell / "seats.parquet").equals(played)
    kept = (cell / "run.json").stat().st_mtime_ns
    execute(plan, jobs=1)  # whole now: kept
    assert (cell / "run.json").stat().st_mtime_ns == kept


WAITS = '''
import pathlib
import time

from simtool import bits
from strategies import strategy

HERE = pathlib.Path(__file__).parent


@strategy("waits", "holds its first decision until the test lets it go")
def waits(view, rng):
    (HERE / "started").touch()
    while not (HERE / "go").exists():
        time.sleep(0.01)
    return bits.lowest(view.legal)
'''


def test_a_command_line_in_another_thread_leaves_the_apis_words_alone(tmp_path):
    # before: while a command of the command line ran in one thread (a notebook's background
    # cell), the Python API's errors in every other thread named its options: "bad --timeout -1"
    import threading

    import simtool
    from simtool.cli import main

    (tmp_path / "waits.py").write_text(WAITS)
    codes = []
    command = threading.Thread(target=lambda: codes.append(main(
        ["run", "--game", "out-trumped", "--n", "4", "--jobs", "1", "-q", "--seat", f"0={tmp_path / 'waits.py'}:waits",
         "--out", str(tmp_path / "run")])))
    command.start()
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "started").exists() and command.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert (tmp_path / "started").exists()
        with pytest.raises(SimtoolError, match=r"^bad timeout -1;"):
            simtool.run("out-trumped", n=4, timeout=-1)
    finally:
        (tmp_path / "go").touch()
        command.join(60)
    assert codes == [0]
