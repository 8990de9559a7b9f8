"""Review of hostile round 19: what its fixes left out. Each test failed on the code before its
fix."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import simtool
from tests.test_cli import cli
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


@pytest.mark.usefixtures("charts_undrawn")  # which page is written is read, not its charts (1.5 s of CPU)
def test_a_plan_written_before_root_resumed_elsewhere_leaves_another_folders_page_alone(tmp_path, monkeypatch):
    # before: a plan.json of the previous simtool (no "root", the page "reports/kc.html" as named
    # from the folder it was started in), resumed from another working folder, replaced that
    # folder's reports/kc.html, the page of another sweep, with its own, without a word
    for folder, game in (("w", "black-white"), ("x", "kansas-city")):
        monkeypatch.chdir(tmp_path)
        (tmp_path / folder).mkdir()
        monkeypatch.chdir(tmp_path / folder)
        made = cli("sweep", "--game", game, "--n", "50", "--jobs", "1", "--seed", "1", "--runs", "runs/kc", "-q")
        assert made.exit_code == 0, made.output
    plan_file = tmp_path / "w" / "runs" / "kc" / "plan.json"
    plan = json.loads(plan_file.read_text())
    del plan["root"]
    plan["report"]["output"] = "reports/kc.html"  # as the previous simtool kept it
    plan_file.write_text(json.dumps(plan))
    theirs = tmp_path / "x" / "reports" / "kc.html"
    before = theirs.read_bytes()
    again = cli("sweep", "--resume", "../w/runs/kc", "--jobs", "1", "-q")
    assert again.exit_code == 0, again.output
    assert theirs.read_bytes() == before
    assert "report reports/kc-2.html" in again.stdout and (tmp_path / "x" / "reports" / "kc-2.html").is_file()
    # resumed in place, the plan's page is its own: replaced, as before
    monkeypatch.chdir(tmp_path / "w")
    plan_file.write_text(json.dumps(plan))
    mine = tmp_path / "w" / "reports" / "kc.html"
    mine.write_text(mine.read_text().replace("simtool sweep", "simtool sweep, earlier"))
    own = cli("sweep", "--resume", "runs/kc", "--jobs", "1", "-q")
    assert own.exit_code == 0, own.output
    assert "report reports/kc.html" in own.stdout and "earlier" not in mine.read_text()


def test_a_strength_table_path_that_is_a_pipe_is_refused_not_waited_on(tmp_path):
    # before: check_outputs opened the table's page to read its head before asking whether it was
    # a file, and the open of a pipe waited for a writer for ever (bench/strength.py --out tab)
    page = (tmp_path / "tab").with_suffix(".md")
    os.mkfifo(page)
    code = ("import sys; from pathlib import Path; from simtool.commands.strength import check_outputs\n"
            "try:\n    check_outputs(Path('tab'))\nexcept Exception as exc:\n    sys.exit(str(exc))")
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(Path(__file__).parents[1]),
                                                                         os.environ.get("PYTHONPATH")])))
    try:
        done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=environ, capture_output=True,
                              text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("still waiting on the pipe after 60 s")
    assert done.stderr.strip() == (f"{page.name} exists and is not a strength table simtool wrote; "
                                   "simtool replaces only its own: choose another --out")
    assert stat.S_ISFIFO(page.lstat().st_mode)
