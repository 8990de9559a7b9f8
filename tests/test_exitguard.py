"""A plugin that ends its process where it plays in simtool's own (``--jobs 1``, a one-chunk run,
its import, the Python API) stops the run with one line naming it (docs/trust.md): before,
``os._exit(0)`` ended ``simtool run`` silently, exit status 0, its ``--out`` holding ``chunks/``
alone. Each test failed on the code before the fix. The commands run in processes of their own:
on that code a plugin's ``os._exit`` ended the process it played in."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from .test_hardening_round21 import HOSTILE, ROOT, one_line, simtool


def no_result(out) -> None:
    assert not (out / "run.json").exists() and not (out / "seats.parquet").exists()


@pytest.mark.parametrize("jobs", [["--jobs", "1"], []])  # --jobs 1, and a one-chunk run at any --jobs
def test_a_plugin_calling_os_exit_as_it_plays_in_simtools_process_is_one_line(tmp_path, jobs):
    out = tmp_path / "r"
    r = simtool("run", "--game", "black-white", "--n", "100", "--seat", f"0={HOSTILE}:dies", *jobs,
                "--out", out, cwd=tmp_path)
    one_line(r, "strategy 'hostile.py:dies' called os._exit(0)", "decision 'lead' of black-white, deal 0",
             "never end its process")
    no_result(out)


def test_a_plugin_calling_os_exit_or_abort_at_import_or_in_play_is_one_line(tmp_path):
    (tmp_path / "leaves.py").write_text("import os\nos._exit(0)\n")
    (tmp_path / "aborts.py").write_text("import os\n\ndef x(view, rng):\n    os.abort()\n")
    r = simtool("run", "--game", "black-white", "--n", "100", "--strategy", "leaves.py:x", "--jobs", "1",
                "--out", tmp_path / "a", cwd=tmp_path)
    one_line(r, "strategy plugin leaves.py, as it was imported, called os._exit(0)")
    no_result(tmp_path / "a")
    r = simtool("run", "--game", "black-white", "--n", "100", "--seat", "1=aborts.py:x", "--jobs", "1",
                "--out", tmp_path / "b", cwd=tmp_path)
    one_line(r, "strategy 'aborts.py:x' called os.abort()", "never end its process")
    no_result(tmp_path / "b")


def test_the_python_api_raises_and_puts_os_exit_back(tmp_path):
    script = textwrap.dedent(f"""
        import os, posix
        import simtool
        try:
            simtool.run("black-white", n=100, seats={{0: {str(HOSTILE) + ':dies'!r}}}, seed=1)
        except simtool.SimtoolError as exc:
            print("caught:", exc)
        assert os._exit is posix._exit and os.abort is posix.abort
        print("after")
    """)
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=environ, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "caught: strategy 'hostile.py:dies' called os._exit(0)" in done.stdout, done.stdout
    assert "after" in done.stdout, done.stdout


def test_in_a_forked_worker_the_plugins_end_is_still_the_workers(tmp_path):
    out = tmp_path / "r"
    r = simtool("run", "--game", "black-white", "--n", "40000", "--seed", "2", "--jobs", "2",
                "--seat", f"1={HOSTILE}:dies", "--out", out, cwd=tmp_path)
    one_line(r, "a worker process ended", "hostile.py:dies")
    no_result(out)
