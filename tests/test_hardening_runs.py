"""Runs, resumes, plugins and the Python API against a hostile user (issue 29: 3-7, 10, 13-15):
nothing but simtool's own chunks is read, plugins never pass for another strategy, a plugin's
data and global generators cannot change a result, a fork or a lack of memory is one line."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simtool
from simtool import engine
from simtool.commands import ladder, restrict, tune
from simtool.commands.run import execute_run
from simtool.errors import OutOfMemory, SimtoolError
from simtool.pipeline import runner
from simtool.pipeline.runner import make_spec
from simtool.reports import balance as report

from .test_cli import PLUGINS, cli, one_line_error

HOSTILE = PLUGINS / "hostile.py"
BIN = Path(sys.executable).parent


def small_spec(lineup=None, chunks: int = 6, **kw):
    """Black & White 3p in ``chunks`` chunks of 16 deals: a resume has several to keep."""
    seats = dict(enumerate(lineup)) if lineup else None
    spec = make_spec("black-white", 3, 16 * chunks, "random", seats, seed=4, **kw)
    return dataclasses.replace(spec, chunk=16)


def interrupted(out: Path, spec, after: int) -> None:
    """``spec`` played into ``out`` and stopped by Ctrl-C once ``after`` chunks are on disk."""
    def stop(done, total):
        if done == after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute_run(spec, 1, out, False, stop, keep=False)
    assert not (out / "run.json").exists()


def whole(spec, jobs: int = 1) -> pl.DataFrame:
    return execute_run(spec, jobs, None, False, None, keep=True).seats


# 3. a resume reads only simtool's own chunk names and says which files it left alone

COPIES = ("seats-000001-backup.parquet", "seats-000001 copy.parquet", "seats-0000001.parquet",
          "seats-000009.parquet.orig")


def test_resume_reads_only_its_own_chunks_and_names_the_files_left_alone(tmp_path):
    out, spec = tmp_path / "run", small_spec()
    interrupted(out, spec, 3)
    chunk = (out / "chunks" / "seats-000001.parquet").read_bytes()
    for name in COPIES:  # a user's backups, a file manager's copy
        (out / "chunks" / name).write_bytes(chunk)
    r = cli("run", "--resume", out, "-q")
    assert r.exit_code == 0, r.output
    assert pl.read_parquet(out / "seats.parquet").equals(whole(spec))
    assert all((out / "chunks" / name).read_bytes() == chunk for name in COPIES)
    note = r.stderr.strip()
    assert "\n" not in note and note.startswith("note: ") and all(name in note for name in COPIES), note
    meta = json.loads((out / "run.json").read_text())
    assert meta["resumed_chunks"] == 3 and meta["left_alone"] == sorted(f"chunks/{n}" for n in COPIES)


def test_a_forced_run_over_a_users_copy_neither_reads_nor_deletes_it(tmp_path):
    out, spec = tmp_path / "run", small_spec()
    interrupted(out, spec, 2)
    copy = out / "chunks" / "seats-000000-mine.parquet"
    shutil.copy(out / "chunks" / "seats-000000.parquet", copy)
    before = copy.read_bytes()
    result = execute_run(spec, 1, out, True, None, keep=False)
    assert pl.read_parquet(out / "seats.parquet").equals(whole(spec))
    assert copy.read_bytes() == before and result.meta["left_alone"] == ["chunks/seats-000000-mine.parquet"]


# 4. a plugin is labelled by its file: it never passes for a built-in or another plugin

def test_a_plugin_calling_itself_random_is_never_pooled_with_random(tmp_path):
    out = tmp_path / "run"
    r = cli("run", "--n", "300", "--seed", "1", "--jobs", "1", "--strategy", "random", "--rotate",
            "--seat", f"1={HOSTILE}:impostor", "--seat", f"2={HOSTILE}:impostor", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    seats = pl.read_parquet(out / "seats.parquet")
    assert sorted(seats["strategy"].unique().to_list()) == ["hostile.py:random", "random"]
    a = report.analyse(out, charts=False)
    assert sorted(a.strategies["strategy"].to_list()) == ["hostile.py:random", "random"]
    assert not any("Every seat plays" in f for f in a.findings)


def test_a_line_up_of_the_impostor_alone_is_not_called_random(tmp_path):
    result = simtool.run("black-white", n=100, seed=1, strategy=f"{HOSTILE}:impostor", jobs=1)
    assert result.seats["strategy"].unique().to_list() == ["hostile.py:random"]
    assert result.summary()["strategy"].unique().to_list() == ["hostile.py:random"]


def test_two_plugins_that_would_share_a_label_are_refused(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copy(HOSTILE, tmp_path / folder / "x.py")
    out = tmp_path / "run"
    one_line_error(cli("run", "--n", "100", "--seat", f"0={tmp_path}/a/x.py:impostor", "--seat",
                       f"1={tmp_path}/b/x.py:impostor", "--out", out),
                   "would both be 'x.py:random'", f"{tmp_path}/a/x.py:impostor", f"{tmp_path}/b/x.py:impostor")
    assert not out.exists()


def test_an_installed_strategy_is_named_by_its_entry_point(monkeypatch):
    from importlib.metadata import EntryPoint

    import strategies

    ep = EntryPoint("shipped", "tests.plugins.hostile:impostor", "simtool.strategies")
    monkeypatch.setattr(strategies, "entry_points", lambda group: [ep] if group == ep.group else [])
    seats = simtool.run("black-white", n=50, seed=1, strategy="random", seats={0: "shipped"}, jobs=1).seats
    assert sorted(seats["strategy"].unique().to_list()) == ["random", "shipped"]


# 5 and 14. the Python API takes each argument of its type only, and says which one is wrong

def test_strings_are_not_booleans():
    for name in ("rotate", "duplicate", "isolate"):
        for value in ("no", "false", 1, None):
            with pytest.raises(SimtoolError, match=f"bad {name} .*; expected True or False"):
                simtool.run(n=10, jobs=1, **{name: value})
    numpy_true = simtool.run(n=30, seed=2, jobs=1, rotate=np.bool_(True), seats={0: "high"})
    assert numpy_true.seats.equals(simtool.run(n=30, seed=2, jobs=1, rotate=True, seats={0: "high"}).seats)
    assert numpy_true.meta["rotate"] is True


RUN_ARGS = [("players", 3.0), ("players", True), ("seats", ["balance"]), ("seats", "0=balance"),
            ("rules", ["deck=36"]), ("jobs", "2"), ("jobs", 2.0), ("jobs", 0), ("out", 3),
            ("progress", 3), ("force", "yes"), ("game", ["black-white"]), ("strategy", 3),
            ("unit", 3), ("backend", None), ("scheduler", 3), ("seed", "1"), ("seed", True),
            ("timeout", "1")]


@pytest.mark.parametrize("name,value", RUN_ARGS)
def test_run_names_an_argument_of_the_wrong_type(tmp_path, name, value):
    kw = {"n": 10, "jobs": 1, "out": tmp_path / "r"} | {name: value}
    with pytest.raises(SimtoolError, match=f"bad (--)?{name} "):
        simtool.run(**kw)
    assert not (tmp_path / "r").exists()


PLAYS_RUNS = [("players", 3.0), ("rules", ["x"]), ("jobs", "2"), ("runs_dir", 3), ("progress", 3),
              ("force", "no"), ("game", ["x"]), ("seed", "1"), ("report", 3), ("scheduler", 1),
              ("timeout", 1e308)]


@pytest.mark.parametrize("name,value", PLAYS_RUNS + [("strategy", 3), ("restrictions", "no-upgrade")])
def test_restrict_measure_names_an_argument_of_the_wrong_type(tmp_path, name, value):
    kw = {"game": "kansas-city", "runs_dir": tmp_path / "r", "n": 10, "jobs": 1} | {name: value}
    with pytest.raises(SimtoolError, match=f"bad (--)?{name} "):
        restrict.measure(**kw)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("name,value", PLAYS_RUNS + [("rungs", "random,balance"), ("unit", 3)])
def test_ladder_climb_names_an_argument_of_the_wrong_type(tmp_path, name, value):
    kw = {"game": "black-white", "runs_dir": tmp_path / "r", "n": 10, "jobs": 1} | {name: value}
    with pytest.raises(SimtoolError, match=f"bad (--)?{name} "):
        ladder.climb(**kw)
    assert not (tmp_path / "r").exists()


TUNE = {"game": "kansas-city", "vary": ["pass_count"], "objective": ["seat_spread:min"], "n": 10,
        "trials": 1}


@pytest.mark.parametrize("name,value", [("players", 4.0), ("vary", "pass_count"), ("rules", ["x"]),
                                        ("objective", "seat_spread:min"), ("lineup", 3),
                                        ("strong", 3), ("weak", 3), ("seed", "1"), ("game", ["x"])])
def test_tune_configure_names_an_argument_of_the_wrong_type(name, value):
    with pytest.raises(SimtoolError, match=f"bad {name} "):
        tune.configure(**TUNE | {name: value})


@pytest.mark.parametrize("name,value", [("out", 3), ("jobs", "2"), ("on_trial", 3), ("scheduler", 3),
                                        ("backend", 3)])
def test_tune_names_an_argument_of_the_wrong_type(tmp_path, name, value):
    kw = {"out": tmp_path / "t"} | {name: value}
    with pytest.raises(SimtoolError, match=f"bad {name} "):
        tune.tune(tune.configure(**TUNE), **kw)
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("seat", [0.5, "1.0", (0,)])
def test_a_seat_is_a_whole_number(seat):
    with pytest.raises(SimtoolError, match="bad seat"):
        simtool.run(n=10, jobs=1, seats={seat: "high"})


# 6. a resume refuses a plugin whose folder's files changed

DATA_PLUGIN = '''
from pathlib import Path

from simtool import bits

HERE = Path(__file__).parent


def weighted(view, rng):
    """Plays its highest option where weights.txt says so, else its lowest."""
    if (HERE / "weights.txt").read_text().strip() == "high":
        return bits.highest(view.legal, view.n_actions)
    return bits.lowest(view.legal)
'''


def test_a_resume_refuses_a_changed_file_beside_the_plugin(tmp_path):
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "weighted.py").write_text(DATA_PLUGIN)
    (bot / "weights.txt").write_text("low\n")
    out, spec = tmp_path / "run", small_spec([f"{bot}/weighted.py:weighted"])
    assert spec.plugins[f"{bot}/weighted.py:weighted"]["beside"].keys() == {"weights.txt"}
    interrupted(out, spec, 2)
    kept = sorted((out / "chunks").glob("seats-*"))
    (bot / "weights.txt").write_text("high\n")
    one_line_error(cli("run", "--resume", out), "weights.txt beside strategy plugin",
                   "changed or went since the run started", "restore them, or start a new run")
    (bot / "weights.txt").unlink()
    one_line_error(cli("run", "--resume", out), "weights.txt beside strategy plugin")
    assert sorted((out / "chunks").glob("seats-*")) == kept
    (bot / "weights.txt").write_text("low\n")
    (bot / "notes.txt").write_text("added later: not the run's")
    r = cli("run", "--resume", out, "-q")
    assert r.exit_code == 0, r.output
    assert pl.read_parquet(out / "seats.parquet").equals(whole(spec))


def test_the_log_a_run_writes_beside_its_plugin_is_not_recorded(tmp_path):
    (tmp_path / "weighted.py").write_text(DATA_PLUGIN)
    (tmp_path / "weights.txt").write_text("low\n")
    with open(tmp_path / "run.log", "w") as log:
        subprocess.run([sys.executable, "-c", "import sys; from simtool.pipeline.runner import beside; "
                        "print(sorted(beside(sys.argv[1])))", str(tmp_path / "weighted.py")],
                       stdout=log, check=True, timeout=60)
    assert (tmp_path / "run.log").read_text().strip() == "['weights.txt']"


# 7. a plugin drawing from the global generators plays the same for any --jobs, every time

def test_the_global_generators_are_seeded_per_chunk():
    spec = small_spec([f"{HOSTILE}:draws_globals"], chunks=4)
    np.random.seed(7)
    random.seed(7)
    first = whole(spec, jobs=1)
    # the caller's generators are put back as they were
    assert np.random.random() == np.random.RandomState(7).random_sample()
    assert random.random() == random.Random(7).random()
    assert first.equals(whole(spec, jobs=1))
    assert first.equals(whole(spec, jobs=2))
    assert first["strategy"].unique().len() == 2


# 10. a plugin that forks is one line naming it, whatever --jobs is; its copy never hangs the run

def bounded(args: list, seconds: float, folder: Path) -> tuple[int, str]:
    """``args`` run in a session of their own, killed whole past ``seconds`` (a copy a plugin
    forked would hold a pipe open for ever): the exit status and the standard error."""
    with open(folder / "stderr.txt", "w+") as err:
        proc = subprocess.Popen([str(a) for a in args], stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
        try:
            code = proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            pytest.fail(f"{' '.join(map(str, args))} hung for {seconds} s")
        err.seek(0)
        return code, err.read()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_plugin_that_forks_is_one_line(tmp_path, jobs):
    out = tmp_path / "run"
    code, err = bounded([BIN / "simtool", "run", "--n", "40000", "--seed", "1", "--jobs", jobs,
                         "--seat", f"0={HOSTILE}:forks", "--out", out], 60, tmp_path)
    assert code == 2, err
    assert "\n" not in err.strip() and "strategy 'hostile.py:forks' forked its process (os.fork)" in err, err
    assert not (out / "run.json").exists() and not (out / "seats.parquet").exists()


def test_a_copy_forked_inside_a_worker_call_ends_before_it_reads_the_pipe():
    from simtool.pipeline.forked import ForkPool

    pool = ForkPool(1)
    try:
        assert [pool.submit(_fork_and_return, x).result(timeout=30) for x in range(4)] == ["returned"] * 4
    finally:
        pool.shutdown(kill=True, wait=False)  # a copy left reading the pipe must not hang the suite


def _fork_and_return(x):
    os.fork()  # both copies return; only the worker may answer
    return "returned"


# 13. out of memory: one line, exit 2, the finished chunks kept for --resume

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_running_out_of_memory_is_one_line_and_keeps_the_chunks(tmp_path, jobs):
    out = tmp_path / "run"
    r = cli("run", "--n", "40000", "--seed", "1", "--jobs", jobs, "--seat", f"0={HOSTILE}:hungry",
            "--out", out)
    one_line_error(r, "out of memory while strategy 'hostile.py:hungry' chose", "Unable to allocate",
                   "fewer --jobs", f"simtool run --resume {out}")
    assert [p.name for p in sorted((out / "chunks").glob("seats-*"))] == ["seats-000000.parquet"]
    assert not (out / "run.json").exists() and not (out / "seats.parquet").exists()


_PLAY, _OUTCOME = runner._play, runner.play_outcome


def _play_starved_at_chunk_3(spec, index, *args):
    if index == 3:
        raise MemoryError
    return _PLAY(spec, index, *args)


def _outcome_starved_at_chunk_3(spec, index, *args):  # a forked worker's, sent back to the run
    if index == 3:
        raise MemoryError
    return _OUTCOME(spec, index, *args)


@pytest.mark.parametrize("jobs", [1, 2])
def test_memory_running_out_outside_a_strategy_keeps_the_chunks_for_resume(monkeypatch, tmp_path, jobs):
    monkeypatch.setattr(runner, "_play", _play_starved_at_chunk_3)
    monkeypatch.setattr(runner, "play_outcome", _outcome_starved_at_chunk_3)
    spec, out = small_spec(), tmp_path / "run"
    with pytest.raises(OutOfMemory, match=r"^out of memory \(MemoryError\); run with fewer jobs.*"
                                          r"finish the run with: simtool run --resume .*run$"):
        execute_run(spec, jobs, out, False, None, keep=False)
    # finished chunks are those with their checksums, written after their tables: the other
    # worker, killed as the run stopped, may have left a table without them (played again)
    kept = sorted(p.name for p in (out / "chunks").glob("sums-*.json"))
    assert kept and "sums-000003.json" not in kept and not (out / "chunks" / "seats-000003.parquet").exists()
    assert not (out / "run.json").exists()
    monkeypatch.setattr(runner, "_play", _PLAY)
    monkeypatch.setattr(runner, "play_outcome", _OUTCOME)
    resumed = execute_run(None, jobs, out, False, None, keep=True, resume=True)
    assert resumed.meta["resumed_chunks"] == len(kept) and resumed.seats.equals(whole(spec))


# 15. --timeout past what the system timer takes is refused up front; the timer is never a strategy's fault

@pytest.mark.parametrize("value", ["1e308", "4e7"])
def test_a_timeout_beyond_a_year_is_one_line(tmp_path, value):
    one_line_error(cli("run", "--n", "100", "--timeout", value, "--out", tmp_path / "r"),
                   f"bad --timeout {value!r}", "at most 31536000 (a year)")
    assert not (tmp_path / "r").exists()


def test_the_timers_own_failure_names_the_timer_not_a_strategy():
    spec = make_spec("black-white", 3, 50, "balance", seed=1)
    with pytest.raises(engine.TimerError, match=r"the system timer refuses timeout=1e\+10") as caught:
        runner.play_chunk(spec, 0, timeout=1e10)
    assert "balance" not in str(caught.value)
