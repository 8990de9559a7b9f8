"""``simtool games >&-`` (standard output closed) printed nowhere and exited 0: a command whose one
product is what it prints now fails in one line on standard error; a run still writes its folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def closed(*args: str, also: str = "") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "simtool.cli", *args]
    return subprocess.run(["sh", "-c", f'"$@" >&- {also}', "sh", *command], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("args,what", [(["games"], "simtool games"),
                                       (["strategies", "--game", "hearts"], "simtool strategies"),
                                       (["--help"], "simtool --help"), (["run", "--help"], "simtool run --help"),
                                       (["--version"], "simtool --version")])
def test_a_command_that_only_prints_fails_with_its_output_closed(args, what):
    done = closed(*args)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"error: standard output is closed, so what `{what}` prints would be lost; run it " \
                          f"with its output open\n"


def test_with_standard_error_closed_too_it_fails_silently():
    done = closed("games", also="2>&-")
    assert done.returncode == 2 and done.stderr == ""


def test_a_run_still_writes_its_folder(tmp_path):
    done = closed("run", "-n", "300", "-j", "1", "-s", "random", "-q", "--out", str(tmp_path / "r"))
    assert done.returncode == 0 and (tmp_path / "r" / "run.json").is_file(), done.stderr
