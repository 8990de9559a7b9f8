"""Review of hostile round 19: what its fixes left out. Each test failed on the code before its
fix."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest

import simtool
from tests.test_hostile16 import simtool as cli_process


def test_a_default_report_page_that_is_a_pipe_is_passed_by_not_waited_on(tmp_path):
    # before: `simtool report run` (no -o) read reports/run.html, a named pipe, to see whose page it
    # was, and waited for a writer for ever; hostile19 made only the -o path's check not wait
    simtool.run("black-white", n=10, seed=1, jobs=1, out=tmp_path / "run")
    (tmp_path / "reports").mkdir()
    os.mkfifo(tmp_path / "reports" / "run.html")
    try:
        done = cli_process("report", "run", cwd=tmp_path, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("still waiting on the pipe after 60 s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("reports/run-2.html") and (tmp_path / "reports" / "run-2.html").is_file()
    assert stat.S_ISFIFO((tmp_path / "reports" / "run.html").lstat().st_mode)
