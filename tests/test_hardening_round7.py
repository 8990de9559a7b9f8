"""Hostile round 7: tables checked by every reader (not the report alone), leftovers of round 6,
and careless or malicious input to every command. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import simtool
from simtool.cli import main
from simtool.pipeline import folders

from .test_cli import cli
from .test_hardening_cli import main_error

ROOT = Path(__file__).resolve().parents[1]


def sigterm_once_ready(args: list[str], ready: Path) -> tuple[int, str]:
    """``simtool run ARGS`` in a process of its own, sent SIGTERM once its plugin has written
    ``ready`` (the plugin then waits): the exit status and standard error."""
    proc = subprocess.Popen([sys.executable, "-m", "simtool.cli", "run", *args], cwd=ROOT,
                            env={**os.environ, "READY": str(ready)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300  # seconds on an idle machine: only a hang waits this long
        while not ready.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=50)  # within the plugin's wait: a SIGTERM left unheard fails
    finally:
        proc.kill()
    return proc.returncode, err
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
    with pytest.raises(simtool.SimtoolError, match="seats.parquet is not what its run.json records"):
        simtool.metrics(a)
    with pytest.raises(simtool.SimtoolError, match="seats.parquet is not what its run.json records"):
        folders.load(a)
    assert folders.load(b)[0]["seed"] == 2  # an untouched run still reads


@pytest.mark.parametrize("change", [{"lineup": ["random", "random", "balance"]}, {"seed": 2},
                                    {"rules": {"deck": 36, "hand_size": 9}}])
def test_a_run_json_whose_line_up_rules_or_seed_were_edited_is_refused(tmp_path, capsys, change):
    # before: the report printed the edited line-up ("seat 2: balance") above the tables as played,
    # balance's seat-0 figures under seat 2's label, with no error
    out = tmp_path / "r"
    simtool.run("black-white", n=200, seed=1, jobs=1, out=out, strategy="random", seats={0: "balance"})
    meta = json.loads((out / "run.json").read_text())
    (out / "run.json").write_text(json.dumps(meta | change))
    main_error(capsys, ["report", out, "-o", tmp_path / "r.html"], "its run.json was changed since the run wrote it")
    assert not (tmp_path / "r.html").exists()
    del meta[folders.PLAYED_SUM]  # an older simtool's run.json, without the checksum: read as before
    (out / "run.json").write_text(json.dumps(meta))
    assert folders.load(out)[0]["lineup"] == ["balance", "random", "random"]


def test_a_run_read_after_it_was_written_is_not_read_again_to_check_it(tmp_path, monkeypatch):
    # the checksum written with the table is remembered: the summary and the report of the run
    # just played do not read its tables once more to check them
    out = tmp_path / "r"
    simtool.run("black-white", n=200, seed=1, jobs=1, out=out, strategy="random")
    monkeypatch.setattr(folders, "file_checksum", lambda path: pytest.fail(f"{path} read again"))
    folders.load(out)


# ---- leftovers of round 6 ----------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["run", *BW, "--n", "10"],
    ["ladder", "--game", "black-white", "--n", "10", "-q"],
    ["replay", "--game", "black-white", "--seed", "1", "--deal", "0"],
])
def test_a_huge_player_count_is_named_as_written(capsys, command):
    # before: "black-white is for 2, 3, 4 players, not 1000...000", 401 digits on the line
    error = main_error(capsys, [*command, "--players", "1e400"], "black-white is for 2, 3, 4 players, not 1e400")
    assert len(error) < 100


def test_two_writers_of_one_report_do_not_share_a_temporary_file(tmp_path, monkeypatch):
    # before: both wrote `.same.html.tmp`; the second renamed it into place and the first's
    # rename then failed ("cannot write report: No such file or directory"), or put the other's
    # page, cut short, in place
    out = tmp_path / "same.html"
    real_replace = folders.os.replace
    raced = []

    def replace_after_the_other(src, dst):
        if not raced:  # the second report runs whole between the first's write and its rename
            raced.append(True)
            folders.write_together({out: "second page"}, f"report {out}")
        real_replace(src, dst)

    monkeypatch.setattr(folders.os, "replace", replace_after_the_other)
    folders.write_together({out: "first page"}, f"report {out}")
    assert out.read_text() == "first page"
    assert [p.name for p in tmp_path.iterdir()] == ["same.html"]


KILLED_BEFORE_SPEC = """
import os, signal, sys
from simtool.cli import main
from simtool.pipeline import folders
write = folders.write_json
def killed_at_spec(path, data):
    if path.name == folders.SPEC:
        os.kill(os.getpid(), signal.SIGKILL)
    write(path, data)
folders.write_json = killed_at_spec
import simtool
simtool.run("black-white", n=10, seed=1, jobs=1, out=sys.argv[1], strategy="random")
"""


def test_a_run_killed_before_it_saved_its_specification_leaves_a_folder_a_new_run_takes(tmp_path, capsys):
    # before: the folder held chunks/writer.json alone, and every later run into it was refused
    # for good as "not empty and holds no simtool run"
    out = tmp_path / "r"
    killed = subprocess.run([sys.executable, "-c", KILLED_BEFORE_SPEC, str(out)], cwd=ROOT, timeout=120)
    assert killed.returncode == -signal.SIGKILL
    assert sorted(p.name for p in out.rglob("*")) == ["chunks", "writer.json"]
    main_error(capsys, ["run", "--resume", out, "--jobs", "1", "-q"], f"nothing to resume in {out}")
    assert main(["run", *BW, "--n", "10", "--out", out]) == 0
    assert (out / "run.json").is_file() and not (out / "chunks").exists()
    (out / "run.json").unlink()
    (out / "seats.parquet").rename(out / "mine.parquet")  # a user's file beside: still refused
    (out / "chunks").mkdir()
    (out / "chunks" / "writer.json").write_text("{}")
    main_error(capsys, ["run", *BW, "--n", "10", "--out", out], "holds no simtool run")


@pytest.mark.parametrize("left", [["writer.json.tmp"], ["writer.json", "spec.json.tmp"]])
def test_a_run_killed_while_writing_its_first_files_leaves_a_folder_a_new_run_takes(tmp_path, left):
    # before: write_json's temporary names (writer.json.tmp, spec.json.tmp) were not among the
    # files a run leaves before its spec.json, and the folder was refused for good
    out = tmp_path / "r"
    (out / "chunks").mkdir(parents=True)
    for name in left:
        (out / "chunks" / name).write_text("{")
    assert main(["run", *BW, "--n", "10", "--out", out]) == 0
    assert (out / "run.json").is_file() and not (out / "chunks").exists()


@pytest.mark.parametrize("command,where", [
    (["replay", "--game", "black-white", "--seed", "1", "--deal", "0"], "replay_deal"),
    (["games"], "Table"),
])
def test_ctrl_c_in_a_command_that_keeps_nothing_says_so(capsys, monkeypatch, command, where):
    # before: typer turned Ctrl-C into exit status 130 with nothing on the terminal
    from simtool import cli as cli_module

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_module, where, stopped)
    assert main(command) == 130
    assert capsys.readouterr().err.strip() == "interrupted; no result was written"


MOVES = '''
import os
from simtool import bits

def moves(view, rng):
    os.chdir(os.environ["ELSEWHERE"])
    return bits.lowest(view.legal)

def masks(view, rng):
    os.umask(0o777)
    return bits.lowest(view.legal)
'''


def test_a_plugin_that_changes_the_working_directory_does_not_move_the_run(tmp_path, monkeypatch):
    # before: "cannot write out/chunks/seats-000000.parquet: No such file or directory", the
    # relative --out looked for in the folder the plugin moved to
    (tmp_path / "mover.py").write_text(MOVES)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.setenv("ELSEWHERE", str(tmp_path / "elsewhere"))
    monkeypatch.chdir(tmp_path)
    r = cli("run", "--game", "black-white", "--n", "300", "--jobs", "1", "-s", "mover.py:moves", "--out", "out", "-q")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "out" / "run.json").is_file() and not any((tmp_path / "elsewhere").iterdir())
    assert Path.cwd() == tmp_path


def test_a_plugin_that_changes_the_file_mode_mask_does_not_lock_the_user_out_of_the_run(tmp_path):
    # before: seats.parquet written with mode 000 (`os.umask(0o777)` in the plugin), a run the
    # user could not read back
    import os

    (tmp_path / "mover.py").write_text(MOVES)
    mask = os.umask(0o022)
    try:
        r = cli("run", "--game", "black-white", "--n", "50", "--jobs", "1", "-s", f"{tmp_path / 'mover.py'}:masks",
                "--out", tmp_path / "out", "-q")
        assert os.umask(0o022) == 0o022
    finally:
        os.umask(mask)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "out" / "seats.parquet").stat().st_mode & 0o777 == 0o644


WAITS = '''
import os, time
from pathlib import Path
from simtool import bits

def waits(view, rng):
    Path(os.environ["READY"]).touch()
    time.sleep(60)  # still playing when the SIGTERM comes, however loaded the machine; it ends the wait
    return bits.lowest(view.legal)
'''


def test_a_run_stopped_by_sigterm_says_how_to_resume_as_ctrl_c_does(tmp_path):
    # before: `kill` (or `timeout`) ended simtool at once, exit status -15 and not a word
    (tmp_path / "waits.py").write_text(WAITS)
    out, ready = tmp_path / "r", tmp_path / "ready"
    returncode, err = sigterm_once_ready(["--game", "black-white", "--n", "50", "--jobs", "1", "-s",
                                          f"{tmp_path / 'waits.py'}:waits", "--out", str(out), "-q"], ready)
    assert returncode == 130, err
    assert err.strip() == f"interrupted; finish the run with: simtool run --resume {out}"
    assert (out / "chunks" / "spec.json").is_file() and not (out / "run.json").exists()


class _Interrupts:
    """An object whose finalizer gets the Ctrl-C: a signal while a ``__del__`` runs in the main
    thread raises KeyboardInterrupt there, which Python prints as "Exception ignored" and drops."""

    def __del__(self):
        signal.raise_signal(signal.SIGINT)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_ctrl_c_a_finalizer_swallowed_still_stops_the_run(tmp_path, capsys, monkeypatch, small_chunks):
    # before: it happened to a dask run's Future.__del__ (1 run in 8 of the Ctrl-C test on a
    # loaded machine): the run played on to the end, exit status 0
    out, survived = tmp_path / "r", []
    played = folders.RunWriter.played

    def swallowed(self, index):
        played(self, index)
        if not survived:
            _Interrupts()  # made and dropped at once: its finalizer runs here
            survived.append(index)  # the KeyboardInterrupt did not come through it

    monkeypatch.setattr(folders.RunWriter, "played", swallowed)
    assert main(["run", *BW, "--n", str(4 * 2048), "--seed", "1", "--out", out]) == 130
    assert survived == [0] and capsys.readouterr().err.strip().splitlines()[-1] == (
        f"interrupted; finish the run with: simtool run --resume {out}")
    assert (out / "chunks" / "sums-000000.json").is_file() and not (out / "run.json").exists()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Python's again after the command
