"""Hostile tunings and sweeps (issue 29: 1, 2, 8, 9, 11, 13, 16): a resumed tuning makes the
trials of an unbroken one, a tuning folder or study.db that is not simtool's is refused before
any work, an interrupted sweep's record is never rewritten by another grid, huge grids are
refused at once, and report paths are checked before the first deal."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import optuna
import pytest

from simtool.cli import main
from simtool.commands import plans, tune
from simtool.commands import sweep as sweeps
from simtool.errors import SimtoolError
from simtool.pipeline import executor
from simtool.pipeline import folders as results

from .test_cli import cli, one_line_error
from .test_hardening_cli import main_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

FAKE = '''
def fake_measure(config, out, params, n, seed, *args, **kw):
    """A trial's figures without playing: a fixed function of its values, n and seed."""
    base = sum((i + 1) * (sum(map(ord, str(v))) * 37 % 101) for i, v in enumerate(params.values())) / 1000
    base += n % 7 / 100
    return {label: (base + k, base + k - 0.1, base + k + 0.1) for k, label in enumerate(config.objectives)}, {}
'''
_defined: dict = {}
exec(FAKE, _defined)  # the same function here and in the processes below
fake_measure = _defined["fake_measure"]

KC = ["tune", "--game", "kansas-city", "--vary", "pass_count", "--vary", "hands", "--vary", "limit=1..3",
      "--objective", "seat_spread", "--n", "100", "--trials", "8", "--seed", "5", "--jobs", "1", "-q"]


def trials(out: Path) -> list[tuple]:
    study = optuna.load_study(study_name="tune", storage=tune.storage_url(out))
    return [(t.number, t.state.name, t.params, t.values) for t in study.trials]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(tune, "measure", fake_measure)
    return fake_measure


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The :data:`KC` tuning of :func:`fake_measure`'s figures, unbroken: what the tunings stopped
    and gone on with below must come to (made once for the module)."""
    out = tmp_path_factory.mktemp("whole") / "whole"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tune, "measure", fake_measure)
        assert main(KC + ["--out", str(out)]) == 0
    return out


def never_measure(*args, **kw):
    raise AssertionError("a trial was measured")


def stop_in_trial(k: int, measure):
    calls = []

    def stop(*args, **kw):
        calls.append(1)
        if len(calls) == k:
            raise KeyboardInterrupt
        return measure(*args, **kw)
    return stop


# 1. a tuning stopped after k trials and run again makes the trials of an unbroken one

@pytest.mark.parametrize("vary, objectives, sampler", [
    (["pass_count", "hands", "limit=1..3"], ["seat_spread"], "tpe"),
    (["pass_count", "hands", "limit=1..3"], ["seat_spread", "first_seat_edge"], "nsga2"),
    (["pass_count", "hands"], ["seat_spread"], "grid"),
])
def test_a_stopped_tuning_resumes_to_the_unbroken_trials_and_best(tmp_path, monkeypatch, fake, vary,
                                                                  objectives, sampler):
    config = tune.configure("kansas-city", vary, objectives, trials=8, n=100, seed=5)
    assert tune.sampler_name(config) == sampler
    whole = tune.tune(config, tmp_path / "whole", jobs=1)
    unbroken = trials(tmp_path / "whole")
    assert len(unbroken) == 8 and {t[1] for t in unbroken} == {"COMPLETE"}
    # stopped after 2 trials, gone on and stopped again after 5 (its first measure the trial the
    # stop left running), then gone on to the end: both stops of a fresh folder each stopped once,
    # in one folder, and a second going-on from a gone-on tuning
    out = tmp_path / "stopped"
    for k, calls in ((2, 3), (5, 4)):
        monkeypatch.setattr(tune, "measure", stop_in_trial(calls, fake))
        with pytest.raises(KeyboardInterrupt):
            tune.tune(config, out, jobs=1)
        assert [t[1] for t in trials(out)] == ["COMPLETE"] * k + ["RUNNING"]
        assert trials(out)[:k] == unbroken[:k]
    monkeypatch.setattr(tune, "measure", fake)
    resumed = tune.tune(config, out, jobs=1)
    assert trials(out) == unbroken  # the same numbers, values, figures: nothing repeated or left out
    assert resumed["best"] == whole["best"] and resumed["confirmed"] == whole["confirmed"]


def test_a_tuning_killed_with_sigkill_resumes_to_the_unbroken_trials(tmp_path, fake, whole):
    """kill -9 in the middle of the fourth trial's measure: the same command again goes on."""
    out = tmp_path / "killed"
    script = tmp_path / "killed.py"
    script.write_text(FAKE + f"""
import os, signal, sys
from simtool.commands import tune
from simtool.cli import main
calls = []
def kill_in_the_fourth(*args, **kw):
    calls.append(1)
    if len(calls) == 4:
        os.kill(os.getpid(), signal.SIGKILL)
    return fake_measure(*args, **kw)
tune.measure = kill_in_the_fourth
sys.exit(main({KC + ["--out", str(out)]!r}))
""")
    done = subprocess.run([sys.executable, str(script)], cwd=Path(__file__).parent.parent, timeout=300)
    assert done.returncode == -9
    assert [t[1] for t in trials(out)] == ["COMPLETE"] * 3 + ["RUNNING"]
    assert main(KC + ["--out", str(out)]) == 0
    assert trials(out) == trials(whole)
    best = [json.loads((d / "tune.json").read_text())["confirmed"] for d in (out, whole)]
    assert best[0] == best[1]


# 8. a second tuning of a folder being tuned is refused before it touches the study

def test_a_second_tuning_of_a_busy_folder_is_refused_and_the_first_finishes(tmp_path):
    out, go, waiting = tmp_path / "t", tmp_path / "go", tmp_path / "waiting"
    script = tmp_path / "first.py"
    script.write_text(FAKE + f"""
import sys, time
from pathlib import Path
from simtool.commands import tune
from simtool.cli import main
calls = []
def wait_in_the_second(*args, **kw):
    calls.append(1)
    if len(calls) == 2:
        Path({str(waiting)!r}).touch()
        while not Path({str(go)!r}).exists():
            time.sleep(0.05)
    return fake_measure(*args, **kw)
tune.measure = wait_in_the_second
sys.exit(main({KC + ["--out", str(out)]!r}))
""")
    first = subprocess.Popen([sys.executable, str(script)], cwd=Path(__file__).parent.parent,
                             stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(6000):  # up to 300 s: its start (optuna, the study) took 8 s at load 5
            if waiting.exists() or first.poll() is not None:
                break
            time.sleep(0.05)
        assert waiting.exists(), first.stderr.read() if first.poll() is not None else "no trial started"
        before = trials(out)
        assert [t[1] for t in before] == ["COMPLETE", "RUNNING"]
        r = cli(*KC, "--out", out)
        one_line_error(r, f"tuning folder {out} is in use by another simtool tune")
        assert trials(out) == before  # its running trial is not marked failed
    finally:
        go.touch()
        _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert [t[1] for t in trials(out)] == ["COMPLETE"] * 8 and (out / "tune.html").exists()


# 9. a folder or report that is not a tuning's own is refused before the first trial

def test_tune_into_a_users_folder_is_refused_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(tune, "measure", never_measure)
    mine = tmp_path / "mine"
    mine.mkdir()
    optuna.create_study(study_name="my-own", storage=f"sqlite:///{mine / 'study.db'}")
    (mine / "tune.html").write_text("<html>my notes</html>")
    (mine / "notes.txt").write_text("mine")
    before = files(mine)
    one_line_error(cli(*KC, "--out", mine), f"tuning folder {mine} is not empty and holds no simtool tuning")
    assert files(mine) == before
    with pytest.raises(tune.SimtoolError, match="holds no simtool tuning"):
        tune.tune(tune.configure("kansas-city", ["pass_count"], ["seat_spread"], trials=4, n=100), mine)
    assert files(mine) == before
    (tmp_path / "file").write_text("x")
    one_line_error(cli(*KC, "--out", tmp_path / "file"), "is a file")


@pytest.mark.parametrize("report, needle", [
    ("tune.html", "is not a simtool report"),
    ("study.db", "would replace the tuning's own files"),
    ("tune.json", "would replace the tuning's own files"),
    ("runs/x.html", "would replace the tuning's own files"),
    ("runs", "would replace the tuning's own files"),
    ("sub/", "is a folder"),
])
def test_a_tunings_report_path_is_checked_before_the_first_trial(tmp_path, monkeypatch, fake, report, needle):
    out = tmp_path / "t"
    config = tune.configure("kansas-city", ["pass_count"], ["seat_spread"], trials=4, n=100, seed=5)
    tune.save_config(out, config)
    (out / "tune.html").write_text("<html>my notes</html>")
    before = files(out)
    monkeypatch.setattr(tune, "measure", never_measure)
    args = ["tune", "--resume", str(out), "-q"] + ([] if report == "tune.html" else ["--report", f"{out}/{report}"])
    one_line_error(cli(*args), needle)
    assert files(out) == before


# 13. a study.db that is not SQLite, damaged or another's; a full disk

def a_tuning(out: Path) -> tune.Config:
    config = tune.configure("kansas-city", ["pass_count"], ["seat_spread"], trials=4, n=100, seed=5)
    tune.save_config(out, config)
    return config


@pytest.mark.parametrize("damage, needle", [
    ("garbage", "file is not a database"),
    ("truncated", "malformed"),
    ("foreign", "holds the optuna studies 'my-own'"),
    ("directions", "holds another tuning's study (directions maximize)"),
    ("options", "holds another tuning's study (trial 0 varies pass_count over"),
    ("not optuna", "holds no optuna study"),
])
def test_a_study_db_simtool_cannot_use_is_one_line(tmp_path, monkeypatch, fake, damage, needle):
    out = tmp_path / "t"
    config = a_tuning(out)
    db = out / "study.db"
    url = f"sqlite:///{db}"
    if damage == "garbage":
        db.write_bytes(b"my own notes, not a database\n" * 100)
    elif damage == "truncated":
        tune.tune(config, out, jobs=1)
        db.write_bytes(db.read_bytes()[: db.stat().st_size // 2])
    elif damage == "foreign":
        optuna.create_study(study_name="my-own", storage=url)
    elif damage == "directions":
        optuna.create_study(study_name="tune", storage=url, direction="maximize")
    elif damage == "options":
        optuna.create_study(study_name="tune", storage=url).optimize(
            lambda t: t.suggest_int("pass_count", 0, 50), n_trials=1)
    else:
        with sqlite3.connect(db) as c:
            c.execute("create table birds (name text)")
    before = files(out)
    monkeypatch.setattr(tune, "measure", never_measure)
    one_line_error(cli("tune", "--resume", out, "-q"), str(db), needle)
    assert files(out) == before
    assert not (out / "tune.html").exists() or damage == "truncated"


def test_a_full_disk_under_the_study_is_one_line_and_resumes(tmp_path, monkeypatch, fake, whole):
    from optuna.storages import RDBStorage
    from sqlalchemy.exc import OperationalError

    out = tmp_path / "t"
    real = RDBStorage.set_trial_state_values
    calls = []

    def fills_up(self, *args, **kw):
        calls.append(1)
        if len(calls) == 4:
            raise OperationalError("UPDATE trials", {}, sqlite3.OperationalError("database or disk is full"))
        return real(self, *args, **kw)

    monkeypatch.setattr(RDBStorage, "set_trial_state_values", fills_up)
    one_line_error(cli(*KC, "--out", out), f"cannot use the tuning's study {out / 'study.db'}",
                   "database or disk is full")
    assert not (out / "tune.html").exists() and "confirmed" not in json.loads((out / "tune.json").read_text())
    monkeypatch.setattr(RDBStorage, "set_trial_state_values", real)
    assert main(KC + ["--out", str(out)]) == 0  # room again: it goes on as if never stopped
    assert trials(out) == trials(whole)


def test_a_full_disk_under_tune_json_is_one_line(tmp_path, monkeypatch, fake):
    real = Path.write_text

    def write_text(self, *args, **kw):
        if self.name.startswith("tune.json"):
            real(self, "{")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, *args, **kw)

    monkeypatch.setattr(results.Path, "write_text", write_text)
    out = tmp_path / "t"
    one_line_error(cli(*KC, "--out", out), "tune.json", "No space left on device")
    assert not (out / "tune.json").exists() and not (out / "study.db").exists()


def test_a_grid_file_that_is_not_utf8_is_one_line(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_bytes('games = ["black-white"]\n# caf\u00e9\n'.encode("latin-1"))
    one_line_error(cli("sweep", grid, "--runs", tmp_path / "s", "-o", tmp_path / "s.html"),
                   f"grid file {grid} is not UTF-8 text", "0xe9")
    assert not (tmp_path / "s").exists()


# 2. another grid or command never rewrites an unfinished sweep's record

SWEEP = ["sweep", "-g", "black-white,kansas-city", "-l", "random", "--n", "4375", "--seed", "5", "-j", "1",
         "-q"]  # three small chunks a cell (conftest.small_chunks)


def test_an_unfinished_sweeps_record_is_kept_from_other_grids_and_commands(tmp_path, monkeypatch, small_chunks):
    runs, page = tmp_path / "cells", tmp_path / "s.html"
    real = executor.execute_tasks

    def stopped(tasks, *args, **kw):
        for done, chunk in enumerate(real(tasks, *args, **kw), start=1):
            yield chunk
            if done == 2:
                raise KeyboardInterrupt

    monkeypatch.setattr(executor, "execute_tasks", stopped)
    assert cli(*SWEEP, "--runs", runs, "-o", page).exit_code == 130
    monkeypatch.setattr(executor, "execute_tasks", real)
    before = files(runs)
    for other in (["sweep", "-g", "black-white", "-l", "high", "--n", "100", "--seed", "5"],
                  ["sweep", "-g", "black-white,kansas-city", "-l", "random", "--n", "70000", "--seed", "6"],
                  ["ladder", "-g", "black-white", "--rungs", "random,high", "--n", "100", "-o", tmp_path / "l.html"],
                  ["restrict", "-g", "kansas-city", "--n", "100", "--restrictions", "no-upgrade"]):
        flag = "--out" if other[0] == "restrict" else "--runs"
        one_line_error(cli(*other, flag, runs), f"{runs} holds an unfinished sweep of 2 other runs",
                       f"simtool sweep --resume {runs}")
        assert files(runs) == before
    r = cli("sweep", "--resume", runs, "-q")
    assert r.exit_code == 0, r.output
    assert cli(*SWEEP, "--runs", tmp_path / "fresh", "-o", tmp_path / "f.html").exit_code == 0
    for cell in (tmp_path / "fresh").iterdir():
        if cell.is_dir():
            assert (runs / cell.name / "seats.parquet").read_bytes() == (cell / "seats.parquet").read_bytes()
    r = cli("sweep", "-g", "black-white", "-l", "high", "--n", "100", "--seed", "5", "--runs", runs,
            "-o", page, "-q")  # a finished sweep's folder takes another grid, as a longer ladder does
    assert r.exit_code == 0, r.output


# 11. a huge grid: planned in linear time, stated before playing, refused unless asked

def huge_grid(path: Path, large: bool = False) -> Path:
    path.write_text('games = ["out-trumped"]\n' + ("large = true\n" if large else "") + "[rules]\n"
                    f"goal = {list(range(1, 1001))}\nsole_bonus = {list(range(-10, 11))}\n"
                    f"trump_bonus = {list(range(-10, 11))}\n")
    return path


def test_a_grid_beyond_the_limit_is_refused_at_once(tmp_path):
    clock = time.perf_counter()
    one_line_error(cli("sweep", huge_grid(tmp_path / "g.toml"), "--runs", tmp_path / "s"),
                   "441,000 combinations", "more than 10,000", "--large")
    assert time.perf_counter() - clock < 10 and not (tmp_path / "s").exists()


def test_large_plays_a_grid_beyond_the_limit_and_the_cost_is_stated_first(tmp_path, monkeypatch):
    monkeypatch.setattr(sweeps, "LARGE", 3)
    args = ["sweep", "-g", "kansas-city", "-r", "pass_count=0,1", "-p", "4,5", "--n", "100", "--seed", "1",
            "-j", "1", "--runs", tmp_path / "s", "-o", tmp_path / "s.html"]
    one_line_error(cli(*args), "4 combinations", "more than 3")
    r = cli(*args, "--large")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"sweep: 4 cells, 400 deals in 4 chunks, seed 1, into {tmp_path / 's'}\n"), r.stdout
    grid = tmp_path / "g.toml"
    grid.write_text('games = ["kansas-city"]\nplayers = [4, 5]\nlarge = true\nn = 100\nseed = 1\n'
                    '[rules]\npass_count = [0, 1]\n')
    r = cli("sweep", grid, "-j", "1", "-q", "--runs", tmp_path / "s", "-o", tmp_path / "s.html")
    assert r.exit_code == 0, r.output


def test_planning_a_large_grid_is_linear(tmp_path, monkeypatch):
    import importlib.metadata

    import simtool.games

    scans = []
    real = importlib.metadata.entry_points
    monkeypatch.setattr(simtool.games, "entry_points", lambda **kw: scans.append(1) or real(**kw))
    grid = sweeps.make_grid({"games": ["out-trumped"], "rules": {"goal": list(range(1, 11)),
                            "sole_bonus": list(range(-10, 11))}, "n": 100, "seed": 1})
    specs, _ = sweeps.plan(grid)
    assert len(specs) == 210 and len(scans) < 5  # the installed packages are not scanned per cell
    clock = time.perf_counter()
    names = plans.folder_names([specs[0]] * 100_000)  # naming was quadratic in the cells
    assert time.perf_counter() - clock < 20
    assert len(set(names)) == 100_000 and names[-1] == plans.folder_name(specs[0])


# 16. report paths checked first; a folder is refused; repeated values played once

def cells_played(monkeypatch) -> list:
    played = []
    real = executor.execute_tasks

    def counted(tasks, *args, **kw):
        tasks = list(tasks)
        played.append(len(tasks))
        return real(tasks, *args, **kw)

    monkeypatch.setattr(executor, "execute_tasks", counted)
    return played


@pytest.mark.parametrize("where, needle", [
    ("{runs}", "would replace"),
    ("{runs}/plan.json", "would replace the runs' own plan.json"),
    ("{runs}/black-white_3p_random", "would replace"),
    ("{runs}/black-white_3p_random/run.json", "would replace"),
    ("{runs}/black-white_3p_random/chunks/r.html", "would replace"),
    ("{tmp}/a-file/r.html", "is a file, not a folder"),
    ("{tmp}/a-file", "is not a simtool report"),
    ("{tmp}/new/", "is a folder"),
    ("{tmp}", "is a folder"),
])
def test_a_sweeps_bad_report_path_is_refused_before_a_cell_is_played(tmp_path, monkeypatch, where, needle):
    played = cells_played(monkeypatch)
    (tmp_path / "a-file").write_text("mine")
    runs = tmp_path / "cells"
    output = where.format(runs=runs, tmp=tmp_path)
    one_line_error(cli("sweep", "-g", "black-white", "-l", "random", "--n", "100", "--runs", runs, "-o", output),
                   needle)
    assert played == [] and not runs.exists() and not (tmp_path / "new").exists()
    assert (tmp_path / "a-file").read_text() == "mine"


def test_ladder_and_restrict_check_their_report_first(tmp_path, monkeypatch):
    played = cells_played(monkeypatch)
    runs = tmp_path / "rungs"
    one_line_error(cli("ladder", "--rungs", "random,high", "--n", "100", "--runs", runs, "-o", runs), "would replace")
    one_line_error(cli("restrict", "--n", "100", "--out", runs, "--report", f"{runs}/plan.json"), "would replace")
    assert played == [] and not runs.exists()


def test_report_into_a_folder_is_refused(tmp_path, capsys):
    r = cli("run", "--n", "100", "--seed", "1", "-j", "1", "-q", "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    main_error(capsys, ["report", tmp_path / "r", "-o", f"{tmp_path / 'newdir'}/"], "is a folder",
               f"{tmp_path / 'newdir' / 'report.html'}")
    assert not (tmp_path / "newdir").exists()
    main_error(capsys, ["report", tmp_path / "r", "-o", tmp_path], "is a folder")


def test_repeated_grid_values_are_played_once(tmp_path, monkeypatch):
    played = cells_played(monkeypatch)
    grid = tmp_path / "g.toml"
    grid.write_text('games = ["kansas-city", "kansas-city"]\nlineups = ["default", "target"]\nn = 100\n'
                    'seed = 1\n[rules]\npass_count = [3, "3", 2]\n')
    r = cli("sweep", grid, "-j", "1", "--runs", tmp_path / "s", "-o", tmp_path / "s.html")
    assert r.exit_code == 0, r.output
    assert "sweep: 2 cells" in r.stdout and played == [2]
    assert sorted(p.name for p in (tmp_path / "s").iterdir() if p.is_dir()) == [
        "kansas-city_4p_pass_count-2_target", "kansas-city_4p_target"]
    specs, _ = sweeps.plan(sweeps.make_grid({"games": ["black-white", "black-white"], "n": 100, "seed": 1}))
    assert len(specs) == 1


def test_a_report_that_fills_the_disk_leaves_no_temporary_file(tmp_path, monkeypatch):
    from simtool.reports import balance as report

    r = cli("run", "--n", "100", "--seed", "1", "-j", "1", "-q", "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    real = Path.write_text

    def write_text(self, *args, **kw):
        if self.name.endswith(".tmp"):
            real(self, "<!DOCTYPE html> half a page")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, *args, **kw)

    monkeypatch.setattr(report.Path, "write_text", write_text)
    one_line_error(cli("report", tmp_path / "r", "-o", tmp_path / "out" / "r.html"), "No space left on device")
    assert os.listdir(tmp_path / "out") == []


def test_a_sweep_raises_its_open_file_limit_or_refuses_beyond_the_systems(monkeypatch):
    import resource

    limits = [(1024, 4096)]
    monkeypatch.setattr(resource, "getrlimit", lambda what: limits[-1])
    monkeypatch.setattr(resource, "setrlimit", lambda what, value: limits.append(value))
    executor.open_files(500)
    assert limits == [(1024, 4096)]  # enough already
    executor.open_files(3000)
    assert limits[-1] == (3256, 4096)  # a lock on every cell folder, and room for the rest
    with pytest.raises(SimtoolError, match="a plan of 5,000 runs holds 5,256 files open"):
        executor.open_files(5000)
