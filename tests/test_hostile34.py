"""Round hostile34: review, ladder, restrict and tune killed (SIGINT, SIGTERM, SIGKILL) at
several moments and run again, run twice into one folder, and at their rules' limits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simtool import errors
from simtool.cli import main
from simtool.pipeline import runner
from simtool.pipeline.forked import WorkerDied


class _Finalized:
    def __del__(self):
        errors.interrupt()  # the stop signal landing in code whose exception Python only prints


def _stopped_with_the_workers(tasks, jobs, timeout, seen):
    # `timeout -s TERM`, a batch system's stop or Ctrl-C signal the whole process group: the
    # command's handler ran inside an at-fork hook (its KeyboardInterrupt only printed, as in a
    # finalizer), and a worker, dead of the same signal, was the first thing the run saw
    item = _Finalized()
    del item
    raise WorkerDied("killed by signal 15")
    yield


def test_a_stop_signal_that_killed_the_workers_too_is_an_interrupt_not_lost_memory(tmp_path, monkeypatch, capfd):
    # failed before: 'Exception ignored in: <function _count_fork ...>', a Traceback, then 'error:
    # a worker process ended without a word (killed by signal 15) while playing built-in
    # strategies only: the system may have run out of memory' (tune, killed by timeout -s TERM)
    monkeypatch.setattr(runner, "_shared", _stopped_with_the_workers)
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)  # Python's, which prints: not pytest's
    code = main(["run", "--game", "black-white", "--n", "1e5", "--seed", "1", "-j", "2", "-q",
                 "--out", str(tmp_path / "r")])
    said = capfd.readouterr().err
    assert code == 130
    assert "interrupted" in said and "--resume" in said
    assert "memory" not in said and "Traceback" not in said and "Exception ignored" not in said


STOPPED_AS_IT_LOADS = """
import importlib.abc, os, signal, sys
sys.argv[0] = "simtool"  # the installed command's name


class Stop(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "simtool.commands.run":  # halfway through the command's imports
            os.kill(os.getpid(), signal.{signal})
        return None


sys.meta_path.insert(0, Stop())
from simtool.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_ctrl_c_while_the_command_loads_is_one_line_not_a_traceback(tmp_path, signal_name):
    # failed before: Ctrl-C half a second after `simtool restrict ...` printed Python's traceback
    # of the import under way (cli.py line 54 ... KeyboardInterrupt), and SIGTERM ended it silently
    done = subprocess.run([sys.executable, "-c", STOPPED_AS_IT_LOADS.replace("{signal}", signal_name), "games"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "interrupted; no result was written\n")
