"""Hostile round 17 (the 23rd): plugins that misbehave in new ways, odd option values, hand-edited
and damaged folders, hostile names in pages. Each test failed on the code before its fix."""

from __future__ import annotations

import pytest

import simtool
from simtool.errors import OutOfMemory, SimtoolError
from tests.test_hardening_round5 import TOY, toy_variant
from tests.test_hostile16 import simtool as simtool_cli

MEMORY = '''
import numpy as np
from strategies import strategy

@strategy("mine", "raises MemoryError itself")
def mine(view, rng):
    raise MemoryError("my table is full")

@strategy("real", "asks numpy for more memory than any machine has")
def real(view, rng):
    return np.zeros(10**15)
'''


def test_a_strategys_own_memory_error_is_its_error_not_the_machines(tmp_path):
    # before: "out of memory while strategy 'mem.py:mine' chose ...; run with fewer --jobs, or give
    # the run more memory", its chunks kept for a --resume that met the same raise (with --isolate
    # the same plugin was named as raising MemoryError)
    (tmp_path / "mem.py").write_text(MEMORY)
    with pytest.raises(SimtoolError) as raised:
        simtool.run("black-white", n=30, seed=1, jobs=1, seats={0: f"{tmp_path / 'mem.py'}:mine"})
    assert not isinstance(raised.value, OutOfMemory)
    assert "strategy 'mem.py:mine' raised MemoryError: my table is full (decision 'lead'" in str(raised.value)
    with pytest.raises(OutOfMemory, match="out of memory while strategy 'mem.py:real' chose .*fewer jobs"):
        simtool.run("black-white", n=30, seed=1, jobs=1, seats={0: f"{tmp_path / 'mem.py'}:real"})


def test_a_game_modules_own_memory_error_is_the_games_error(tmp_path, monkeypatch):
    # before: "out of memory (MemoryError: my table is full); run with fewer jobs=, ...", the game
    # not named
    toy_variant(tmp_path, monkeypatch, "memory_match_over", TOY.replace(
        "def match_over(self, match, rnd):",
        "def match_over(self, match, rnd):\n        raise MemoryError('my table is full')"))
    with pytest.raises(SimtoolError) as raised:
        simtool.run("climb", n=100, jobs=1, strategy="random", unit="match", seed=1)
    assert not isinstance(raised.value, OutOfMemory)
    assert "game 'climb' (memory_match_over) raised MemoryError: my table is full" in str(raised.value)


UNPRINTABLE = '''
from strategies import strategy

class Quits(Exception):
    def __str__(self):
        raise SystemExit(3)

class Stops(Exception):
    def __str__(self):
        raise KeyboardInterrupt

@strategy("quits", "raises an exception whose message ends the process")
def quits(view, rng):
    raise Quits()

@strategy("stops", "raises an exception whose message raises KeyboardInterrupt")
def stops(view, rng):
    raise Stops()
'''


@pytest.mark.parametrize("name,kind", [("quits", "Quits"), ("stops", "Stops")])
def test_an_exception_whose_message_raises_a_base_exception_is_named(tmp_path, capsys, name, kind):
    # before: `quits` ended simtool with exit status 3 and not a word (SystemExit from str(exc)
    # as the error was worded); `stops` read as Ctrl-C: "interrupted; finish the run with:
    # simtool run --resume", exit 130, and the resume stopped the same way
    from simtool import cli

    (tmp_path / "unprintable.py").write_text(UNPRINTABLE)
    code = cli.main(["run", "--game", "black-white", "--n", "30", "-j", "1", "--seat",
                     f"0={tmp_path / 'unprintable.py'}:{name}", "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert f"raised {kind}: (an exception whose message cannot be printed)" in err
    assert not (tmp_path / "r").exists()


def test_a_sweep_resume_meeting_a_cell_played_otherwise_offers_what_it_takes(tmp_path, charts_undrawn, capsys):
    # before: "... holds a run played with other settings: ...; play it again with --force, or
    # choose another folder", and `sweep --resume DIR --force` was refused ("--force cannot change")
    from simtool import cli

    runs = tmp_path / "runs"
    assert cli.main(["sweep", "--game", "black-white", "--lineup", "random", "--n", "10", "--seed", "1",
                     "--runs", str(runs), "--out", str(tmp_path / "s.html"), "-q"]) == 0
    cell = runs / "black-white_3p_random"
    assert cli.main(["run", "--game", "black-white", "--n", "10", "--seed", "2", "--out", str(cell),
                     "--force", "-q"]) == 0
    capsys.readouterr()
    assert cli.main(["sweep", "--resume", str(runs), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seed 2 (now 1)" in err and "--force" not in err, err
    assert f"play it again in a new folder, or in {runs} once that folder is moved out of it" in err
    cell.rename(tmp_path / "kept")
    assert cli.main(["sweep", "--resume", str(runs), "-q"]) == 0  # as the line says
    assert (cell / "run.json").is_file()


SELF_SEARCH = '''
from simtool import bits
from strategies import strategy

@strategy("deeper", "plays out its worlds with itself")
def deeper(view, rng):
    worlds = view.redeal(2, rng)
    worlds.play_out(bits.lowest(worlds.view.legal), "{file}:deeper")
    return bits.lowest(view.legal)
'''


def test_a_search_playing_out_with_itself_is_refused_not_nested_until_memory_runs_out(tmp_path):
    # before: every play-out searched again in twice the worlds, no end: 1m42 s later the system
    # killed simtool (exit 137, a folder of chunks/ left; pimc@playout=pimc is refused up front)
    plugin = tmp_path / "deeper.py"
    plugin.write_text(SELF_SEARCH.replace("{file}", str(plugin)))
    with pytest.raises(SimtoolError, match="strategy 'deeper.py:deeper' misused its worlds: play_out: called "
                                           "from a play-out .* a search in a search"):
        simtool.run("black-white", n=8, seed=1, jobs=1, seats={0: f"{plugin}:deeper"})


def test_force_does_not_clear_chunk_names_in_the_folder_a_chunks_link_leads_to(tmp_path):
    # before: `simtool run --out RUN --force` with RUN/chunks a link to ../user deleted the user's
    # seats-000000.parquet, sums-000000.json, spec.json and writer.json there (files that were
    # not even simtool's: plain text), then wrote and removed its own chunks in that folder and
    # ended in a traceback (NotADirectoryError: rmdir of the link) where it left that folder empty
    user = tmp_path / "user"
    user.mkdir()
    names = ["seats-000000.parquet", "sums-000000.json", "spec.json", "writer.json"]
    for name in names:
        (user / name).write_text("precious")
    run = tmp_path / "run"
    simtool.run("black-white", n=10, seed=1, jobs=1, out=run)
    (run / "chunks").symlink_to(user)
    with pytest.raises(SimtoolError, match=r"run/chunks is a link to .*user: simtool writes and removes chunks "
                                           r"only in a folder of the run's own"):
        simtool.run("black-white", n=10, seed=2, jobs=1, out=run, force=True)
    assert sorted(p.name for p in user.iterdir()) == sorted(names)
    assert all((user / name).read_text() == "precious" for name in names)
    assert (run / "run.json").is_file()  # the run it held, as it was


BELOW_PRINT = '''
import os
import subprocess
from simtool import bits
from strategies import strategy

@strategy("writes", "writes to descriptor 1 and starts a program that prints")
def writes(view, rng):
    os.write(1, b"forged line\\n")
    subprocess.run(["echo", "from a program"], check=True)
    return bits.lowest(view.legal)
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_plugin_writing_below_print_leaves_the_results_line_alone(tmp_path, jobs):
    # before: `run -q` printed "forged line" and "from a program" (a program the plugin started,
    # or os.write(1, ...)) among the folder's line a script reads; only print() was put aside
    (tmp_path / "below.py").write_text(BELOW_PRINT)
    done = simtool_cli("run", "--game", "black-white", "--n", "20", "-j", jobs, "-q", "--seat",
                       "0=below.py:writes", "--out", "r", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "r\n"
    assert "forged line" in done.stderr and "from a program" in done.stderr


HANDLERS = '''
import signal
from simtool import bits
from strategies import strategy

seen = []

@strategy("lib", "calls a library that installs its own SIGTERM handler, once")
def lib(view, rng):
    seen.append(signal.getsignal(signal.SIGTERM))
    if len(seen) == 1:
        signal.signal(signal.SIGTERM, lambda *_: None)
    return bits.lowest(view.legal)
'''


def test_a_handler_a_strategy_installs_is_put_back_after_its_decision(tmp_path):
    # before: put back only once the chunk was played: a run of one chunk (or --jobs 1) whose
    # plugin's library took SIGTERM and Ctrl-C played on to its end whatever was sent (a one-chunk
    # run of a plugin taking 0.5 s a decision was still playing 3 s after `kill`)
    import signal
    import sys

    (tmp_path / "handlers.py").write_text(HANDLERS)
    ours = signal.getsignal(signal.SIGTERM)
    simtool.run("black-white", n=10, seed=1, jobs=1, seats={0: f"{tmp_path / 'handlers.py'}:lib"})
    module = next(m for name, m in sys.modules.items() if getattr(m, "__file__", "") == str(tmp_path / "handlers.py"))
    assert len(module.seen) > 2 and all(handler is ours for handler in module.seen)
    assert signal.getsignal(signal.SIGTERM) is ours


EDITED = '''
from pathlib import Path
from simtool import bits
from strategies import strategy

@strategy("bot", "its author saves a new version of this file as the first chunk plays")
def bot(view, rng):
    saved = "# version " + "2"  # not in this file until it is saved again
    if saved not in Path(__file__).read_text():
        with open(__file__, "a") as f:
            f.write(saved)
    return bits.lowest(view.legal)
'''


def test_a_plugin_edited_while_the_run_plays_keeps_the_finished_chunks(tmp_path, small_chunks):
    # before: the next chunk found the file changed and the run was taken back whole, its
    # finished chunks deleted ("... has changed since the run started; ... restore the file",
    # and no folder left to resume: 6 chunks of an hour's run lost to saving the file in an editor)
    bot = tmp_path / "bot.py"
    bot.write_text(EDITED)
    out = tmp_path / "r"
    with pytest.raises(SimtoolError, match=r"strategy plugin .*bot.py has changed since the run started; .*"
                                           r"1 finished chunk is kept, the run unfinished: .* simtool run --resume"):
        simtool.run("black-white", n=5 * 2048, seed=1, jobs=1, out=out, seats={0: f"{bot}:bot"})
    assert (out / "chunks" / "sums-000000.json").is_file() and not (out / "run.json").exists()


@pytest.mark.parametrize("command", [["run", "--game", "black-white", "--n", "10"],
                                     ["sweep", "--game", "black-white", "--n", "10"],
                                     ["run", "--backend", "local", "--game", "black-white", "--n", "10"]])
def test_a_scheduler_given_to_a_local_run_is_refused_not_dropped(tmp_path, capsys, command):
    # before: `simtool run --scheduler tcp://HOST:8786 ...` without --backend dask played on this
    # machine without a word, exit 0: the cluster named was never asked
    from simtool import cli

    code = cli.main([*command, "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path / "o"), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--scheduler 'tcp://127.0.0.1:1' needs --backend dask" in err
    assert not (tmp_path / "o").exists()


def test_a_scheduler_in_the_environment_leaves_a_local_run_alone(tmp_path, monkeypatch, capsys):
    # SIMTOOL_SCHEDULER is set once for the dask runs of a shell; a local run there goes on
    from simtool import cli

    monkeypatch.setenv("SIMTOOL_SCHEDULER", "tcp://127.0.0.1:1")
    assert cli.main(["run", "--game", "black-white", "--n", "10", "--out", str(tmp_path / "o"), "-q"]) == 0


@pytest.mark.parametrize("target", ["1e-400", "-1e-400"])
def test_a_tuning_target_too_small_for_a_float_is_refused_not_read_as_zero(target):
    # before: overshoot=1e-400 was tuned towards 0 and the page said "overshoot=0", as
    # balance@mistakes=1e-400 once played mistakes=0 (docs/cli.md: refused, not read as 0)
    from simtool import games
    from simtool.commands.tune import parse_objective

    with pytest.raises(SimtoolError, match=f"bad objective 'overshoot={target}'; expected overshoot=NUMBER"):
        parse_objective(games.get("kansas-city"), f"overshoot={target}")
    assert parse_objective(games.get("kansas-city"), "overshoot=1e-320").target == 1e-320
