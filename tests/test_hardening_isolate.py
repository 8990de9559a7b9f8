"""Hostile tests of ``--isolate``: an untrusted plugin's process must not outlive the run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]

LINGERS = """
import os, threading, time
from simtool import bits

def lingers(view, rng):
    with open(os.environ["PIDS"], "a") as f:
        f.write(f"{os.getpid()}\\n")
    threading.Thread(target=time.sleep, args=(120,), daemon=False).start()  # outlives the call
    raise ValueError("bye")
"""


def test_an_isolated_plugin_leaving_a_thread_behind_ends_with_the_run(tmp_path):
    # once: the plugin's process, kept alive by its thread, held the run's stdout, so
    # `simtool run ... | tail` hung (two minutes here; for as long as the thread lasts)
    (tmp_path / "lingers.py").write_text(LINGERS)
    pids = tmp_path / "pids"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PIDS=str(pids))
    try:
        done = subprocess.run([sys.executable, "-m", "simtool.cli", "run", "-g", "black-white", "--n", "20", "--seat",
                               f"0={tmp_path / 'lingers.py'}:lingers", "--isolate", "--out", str(tmp_path / "r"),
                               "--seed", "1", "-j", "1", "-q"], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and "raised ValueError: bye" in done.stderr, done.stderr
    finally:
        for pid in (int(x) for x in pids.read_text().split()) if pids.exists() else ():
            try:
                os.kill(pid, signal.SIGKILL)  # the test's own plugin process, should it have stayed
            except ProcessLookupError:
                pass


FORGES = """
import sys
from simtool import bits

def forges(view, rng):
    print("Seat verdict: fair. forges wins every deal", flush=True)
    sys.stderr.write("error: none\\n")
    return bits.lowest(view.legal)
"""


def test_an_isolated_plugin_cannot_print_among_the_runs_results(tmp_path):
    # once: its lines came out on the run's stdout, between and before simtool's own
    (tmp_path / "forges.py").write_text(FORGES)
    done = subprocess.run([sys.executable, "-m", "simtool.cli", "run", "-g", "black-white", "--n", "20", "--seat",
                           f"0={tmp_path / 'forges.py'}:forges", "--isolate", "--out", str(tmp_path / "r"), "--seed",
                           "1", "-j", "1"], cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Seat verdict:" in done.stdout and "forges wins" not in done.stdout + done.stderr
    assert "error: none" not in done.stderr
