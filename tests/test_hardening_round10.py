"""Hostile round 10: leftovers of today's rounds (huge numbers named as written, plugins that
break the process around them), the Python API misused as a notebook user would, and plugins
that cheat. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import simtool

from .test_cli import cli
from .test_hardening_cli import main_error

ROOT = Path(__file__).resolve().parents[1]
BW = ["--game", "black-white", "--strategy", "random", "--jobs", "1", "-q"]


# ---- huge numbers, named as written and why ---------------------------------------------------

@pytest.mark.parametrize("seed", ["1e400", "1e4300", "340282366920938463463374607431768211457"])
def test_a_seed_too_large_says_the_largest(capsys, tmp_path, seed):
    # before: "bad --seed '1e400'; expected a whole number, 0 or more" (1e400 is one), and
    # --seed 1e39 was played though its run's folder could not be resumed (seeds 0..2**128)
    main_error(capsys, ["run", *BW, "--n", "10", "--seed", seed, "--out", tmp_path / "r"],
               f"bad --seed '{seed}'; expected a whole number 0..2**128")


def test_the_largest_seed_is_played(tmp_path):
    r = cli("run", *BW, "--n", "10", "--seed", str(2 ** 128), "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "r" / "run.json").read_text())["seed"] == 2 ** 128


@pytest.mark.parametrize("seed", [10 ** 40, 10 ** 4300, -1], ids=["1e40", "1e4300", "-1"])
def test_a_seed_too_large_from_python_is_one_error(tmp_path, seed):
    # before: 10**40 played (and its folder then refused by --resume), 10**4300 a ValueError
    # traceback from json ("Exceeds the limit (4300 digits) for integer string conversion")
    with pytest.raises(simtool.SimtoolError, match=r"bad seed .*; expected a whole number 0\.\.2\*\*128"):
        simtool.run("black-white", n=10, seed=seed, jobs=1, out=tmp_path / "r")
    assert not (tmp_path / "r" / "run.json").exists()


def test_a_sweeps_huge_player_count_is_named_as_written(capsys):
    # before: "bad --players '1e400'; expected whole numbers such as 4,5" (it is a whole number)
    error = main_error(capsys, ["sweep", "--game", "black-white", "--players", "3,1e400", "--n", "10", "-q"],
                       "bad --players '1e400'; no game is for more than 64 players")
    assert len(error) < 100
    main_error(capsys, ["sweep", "--game", "black-white", "--players", "x", "--n", "10", "-q"],
               "bad --players 'x'; expected whole numbers such as 4,5")


# ---- plugins that break the process around them ------------------------------------------------

BREAKS = '''
import os, sys
from simtool import bits

def closes(view, rng):
    sys.stderr.close()
    return bits.lowest(view.legal)

def recursion(view, rng):  # as low as it may be set here, as sys.setrecursionlimit(60) is from a shell
    for limit in range(40, 1000):
        try:
            sys.setrecursionlimit(limit)
            break
        except RecursionError:  # below the depth this call is at
            pass
    return bits.lowest(view.legal)

def polars(view, rng):
    os.environ["POLARS_MAX_THREADS"] = "0"
    return bits.lowest(view.legal)
'''


def test_a_plugin_that_closes_standard_error_does_not_end_the_run_in_an_error(tmp_path):
    # before: the run finished, then Python printed "lost sys.stderr" and exited with status 1
    (tmp_path / "breaks.py").write_text(BREAKS)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "simtool.cli", "run", "--game", "black-white", "--n", "50",
                           "--jobs", "1", "-q", "-s", f"{tmp_path / 'breaks.py'}:closes", "--out", str(out)],
                          capture_output=True, text=True, env=os.environ | {"PYTHONPATH": str(ROOT)}, timeout=60)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, str(out), "")


@pytest.mark.parametrize("name", ["recursion", "polars"])
def test_a_plugin_that_lowers_the_recursion_limit_or_sets_polars_threads_to_0_plays(tmp_path, name):
    # before: a RecursionError traceback from the next import; a PanicException from polars
    # ("Worker threads cannot be set to 0") as it made the tables
    (tmp_path / "breaks.py").write_text(BREAKS)
    limit, threads = sys.getrecursionlimit(), os.environ.get("POLARS_MAX_THREADS")
    r = cli("run", "--game", "black-white", "--n", "50", "--jobs", "1", "-q", "-s",
            f"{tmp_path / 'breaks.py'}:{name}", "--out", tmp_path / "out")
    assert r.exit_code == 0, r.output
    assert (sys.getrecursionlimit(), os.environ.get("POLARS_MAX_THREADS")) == (limit, threads)
    assert (tmp_path / "out" / "seats.parquet").is_file()


# ---- the Python API, misused as in a notebook ----------------------------------------------------

def lowest(view, rng):
    from simtool import bits

    return bits.lowest(view.legal)


@pytest.mark.parametrize("name", [None, lowest, 5], ids=["None", "function", "int"])
def test_a_seat_given_something_else_than_a_strategys_name_is_named(tmp_path, name):
    # before: "unknown strategy 'None'" (or '<function lowest at 0x...>'): str() of it looked up
    # as a name, as though the user had typed that
    with pytest.raises(simtool.SimtoolError, match=r"bad seats\[0\] .*; expected a strategy's name such as "
                                                   r"'balance' or 'FILE.py:NAME'"):
        simtool.run("black-white", n=10, jobs=1, seats={0: name}, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_a_numpy_float_timeout_is_taken_not_blamed_on_the_strategy():
    # before: "strategy 'random' raised TypeError: 'numpy.float32' object cannot be interpreted
    # as an integer": the system timer given numpy's float32
    import numpy as np

    r = simtool.run("black-white", n=20, jobs=1, seed=1, strategy="random", timeout=np.float32(5))
    assert r.seats.height == 60


def test_a_folder_under_the_home_tilde_is_the_one_a_shell_means(tmp_path, monkeypatch):
    # before: simtool.run(out="~/r") wrote into a folder named "~" in the working directory,
    # and simtool.metrics("~/r") found no run there
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    r = simtool.run("black-white", n=20, jobs=1, seed=1, strategy="random", out="~/r")
    assert r.path == tmp_path / "home" / "r" and (r.path / "run.json").is_file()
    assert not (tmp_path / "~").exists()
    assert simtool.metrics("~/r")["fairness"]["value"] == simtool.metrics(r.path)["fairness"]["value"]


def test_metrics_of_a_dict_is_refused_not_read_as_its_keys():
    # before: "a is not a finished run folder (no run.json)": the dict's keys read as folders
    with pytest.raises(simtool.SimtoolError, match=r"bad sources \{'a': 1\}; expected a finished run folder"):
        simtool.metrics({"a": 1})


@pytest.mark.parametrize("report, error", [
    ({"outptu": "x.html"}, "bad report key 'outptu'; valid: output, title"),
    ({"output": 5}, r"bad report output 5; expected a file path \(str or pathlib.Path\), or None"),
    ({"title": 5}, "bad report title 5; expected a string, or None"),
])
@pytest.mark.parametrize("command", ["ladder", "restrict"])
def test_a_ladders_or_restricted_plays_report_settings_are_checked(tmp_path, command, report, error):
    # before: a misspelt key was saved into plan.json unread, an int path a TypeError from pathlib
    # once the plan was made
    play = simtool.ladder.climb if command == "ladder" else simtool.restrict.measure
    with pytest.raises(simtool.SimtoolError, match=error):
        play("kansas-city", tmp_path / "runs", n=10, jobs=1, report=report)
    assert not (tmp_path / "runs").exists()


# ---- plugins that cheat (docs/trust.md) ------------------------------------------------------------

CHEATS = '''
import numpy as np
import simtool.engine
from simtool import bits

KEPT, OLD = [], []


def lowest(view, rng):
    return bits.lowest(view.legal)


def writes(view, rng):  # into every array of its view, after choosing
    choice = bits.lowest(view.legal)
    for name in ("legal", "hand", "unseen", "history", "trick", "hand_sizes", "played", "black", "white"):
        getattr(view, name)[...] = 0
    return choice


def rewrites(view, rng):  # every choice it returned before, rewritten at its next decision
    for kept in KEPT:
        kept[...] = 0
    KEPT.append(bits.lowest(view.legal))
    return KEPT[-1]


def recalls(view, rng):  # its first view, read again later: what it read then, nothing more
    if not OLD:
        OLD.append((view, view.hand.copy()))
        view.hand
    elif OLD[0][1] is not None:
        old, hand = OLD[0]
        assert (old.hand == hand).all()
        OLD[0] = (old, None)
        try:
            old.unseen
        except AttributeError as exc:
            raise SystemExit(f"unseen {exc}")
    return bits.lowest(view.legal)


def unchecked(view, rng):  # the engine's check of its answer, replaced as it plays
    simtool.engine._checked = lambda picked, *args: np.asarray(picked)
    return np.zeros(view.legal.shape, np.int64)


def floats(view, rng):
    return bits.lowest(view.legal).astype(float)
'''

PATCHES_AT_IMPORT = '''
import strategies.basic
from simtool import bits

bits.uniform = lambda sets, rng, n_options=64: bits.lowest(sets)  # random's draw, made lowest
object.__setattr__(strategies.basic.high, "choose", strategies.basic.low.choose)


def lowest(view, rng):
    return bits.lowest(view.legal)
'''


def cheat(tmp_path: Path, name: str, jobs: int = 1, file: str = "cheats.py", text: str = CHEATS):
    (tmp_path / file).write_text(text)
    out = tmp_path / name
    return cli("run", "--game", "black-white", "--n", "60", "--seed", "4", "--jobs", str(jobs), "-q", "-s", "balance",
               "--seat", f"0={tmp_path / file}:{name}", "--out", out), out


def test_a_plugin_writing_into_its_view_or_its_past_answers_changes_no_seats_game(tmp_path):
    # the promise kept (no fix needed): views are copies, answers are copied by the engine; the
    # other seats (balance) read their own copies
    import polars as pl

    tables = {}
    for name in ("lowest", "writes", "rewrites"):
        r, out = cheat(tmp_path, name)
        assert r.exit_code == 0, r.output
        tables[name] = pl.read_parquet(out / "seats.parquet").drop("strategy")
    assert tables["writes"].equals(tables["lowest"]) and tables["rewrites"].equals(tables["lowest"])


def test_a_view_kept_past_its_decision_shows_what_was_read_and_no_more(tmp_path):
    r, _ = cheat(tmp_path, "recalls")
    assert r.exit_code == 2 and "raised SystemExit: unseen view field" in r.output, r.output
    assert "a view expires when its decision is made" in r.output


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_plugin_replacing_simtools_check_of_its_answers_stops_the_run(tmp_path, jobs):
    # before: option 0 at every lead, illegal, played unchecked into a run that looked complete
    import simtool.engine

    check = simtool.engine._checked
    r, out = cheat(tmp_path, "unchecked", jobs)
    assert r.exit_code == 2, r.output
    assert "strategy cheats.py:unchecked, while it played, replaced simtool.engine._checked: a strategy " \
           "must leave simtool's code as it is" in r.output
    assert simtool.engine._checked is check and not (out / "seats.parquet").exists()


def test_a_plugin_replacing_a_built_in_strategy_at_import_is_refused(tmp_path):
    # before: every `random` seat of the run (and of every later run in the process) played
    # its lowest card, every `high` seat as `low`
    import strategies.basic
    from simtool import bits

    uniform, high = bits.uniform, strategies.basic.high.choose
    r, _ = cheat(tmp_path, "lowest", file="patches.py", text=PATCHES_AT_IMPORT)
    assert r.exit_code == 2, r.output
    assert "patches.py, as it was imported, replaced simtool.bits.uniform, strategies.basic.high.choose" in r.output
    assert bits.uniform is uniform and strategies.basic.high.choose is high


def test_an_installed_strategy_replacing_simtools_code_at_import_is_refused(tmp_path, monkeypatch):
    # before: only a FILE.py plugin's import was guarded; an installed package's (entry point)
    # replaced bits.uniform unseen, and every random seat of this and every later run played lowest
    from importlib.metadata import EntryPoint

    import strategies
    from simtool import bits

    uniform = bits.uniform
    monkeypatch.setattr(bits, "uniform", uniform)  # put back after the test, whatever it finds
    (tmp_path / "patching_package.py").write_text(
        "from simtool import bits\n"
        "bits.uniform = lambda sets, rng, n_options=64: bits.lowest(sets)\n"
        "def lowest(view, rng):\n"
        "    return bits.lowest(view.legal)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = EntryPoint("patcher", "patching_package:lowest", "simtool.strategies")
    monkeypatch.setattr(strategies, "entry_points", lambda group: [ep] if group == ep.group else [])
    with pytest.raises(simtool.SimtoolError, match=r"installed strategy 'patcher' \(entry point "
                       r"patching_package:lowest\), as it was imported, replaced simtool.bits.uniform"):
        simtool.run("black-white", n=20, seed=1, strategy="random", seats={0: "patcher"}, jobs=1)
    assert bits.uniform is uniform


def test_a_move_of_floats_is_refused(tmp_path):
    r, _ = cheat(tmp_path, "floats")
    assert r.exit_code == 2 and "returned float64 of shape (60,), expected integers" in r.output, r.output


def test_the_file_mode_mask_is_read_without_being_changed(monkeypatch):
    # before: each chunk set the mask to 0o022 for a moment to read it: a threaded dask worker's
    # other chunk writing a table meanwhile got mode 0644 under a user's umask 077
    from simtool import engine

    if not sys.platform.startswith("linux"):
        pytest.skip("/proc/self/status shows the mask on Linux only")
    old = os.umask(0o077)
    try:
        calls = []
        monkeypatch.setattr(os, "umask", lambda mask: calls.append(mask))
        assert engine.umask() == 0o077 and calls == []
    finally:
        monkeypatch.undo()
        os.umask(old)


def test_a_sigterm_the_parent_ignores_stays_ignored_while_a_command_runs(monkeypatch):
    # before: simtool put its own SIGTERM handler in place of an ignored SIGTERM (nohup-like
    # launchers), so a signal the user had asked to ignore stopped the command
    import signal

    from simtool import cli

    seen = []
    monkeypatch.setattr(cli, "_command", lambda argv: seen.append(signal.getsignal(signal.SIGTERM)) or 0)
    old = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        assert cli._main(["games"]) == 0 and seen == [signal.SIG_IGN]
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        assert cli._main(["games"]) == 0 and seen[1] is cli._terminated
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, old)
