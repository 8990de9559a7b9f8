"""Hostile round 19: reviews and ladders at the smallest sizes, review --vs-rule on degenerate
games. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess

import pytest

import simtool
from simtool.analysis.ladder import reference_sentence
from simtool.commands.ladder import climb
from simtool.commands.review import Sizes, review
from simtool.commands.review import summary_lines as review_lines
from simtool.errors import SimtoolError
from tests.test_cli import cli
from tests.test_hostile16 import simtool as cli_process

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

ONE = Sizes(deals=1, matches=1, restrictions=1, duplicate=1, search=1, random=1, leads=1)
"""A review of one unit a play: its paired differences have no interval."""


def test_a_hidden_information_price_without_an_interval_reads_n_a_not_nan(tmp_path):
    # before: "worth 0.0 points of win share per seat (95% interval nan to nan)" on the console
    # and the page, where every other sentence says n/a
    r = review("black-white", tmp_path / "one", sizes=ONE, seed=1, jobs=1)
    hidden = r["questions"]["hidden_information"]
    assert hidden["price_ci_pts"] == [None, None] and hidden["verdict"] == "unclear"
    assert "(95% interval n/a)" in hidden["sentence"]
    assert not [line for line in review_lines(r) if "nan" in line]
    assert "nan to nan" not in (tmp_path / "one" / "review.html").read_text()


def test_a_ladders_reference_price_without_an_interval_reads_n_a_not_nan(tmp_path):
    # before: "knowing the hidden cards is worth -50.0 points (+nan to +nan)" under `simtool ladder --n 1`
    ladder, _ = climb("black-white", tmp_path / "ladder", n=1, seed=1, rungs=["random", "pimc"], jobs=1)
    sentence = reference_sentence(ladder)
    assert "knowing the hidden cards is worth" in sentence and "points (n/a)" in sentence, sentence
    assert "nan" not in sentence


@pytest.fixture(scope="module")
def leads_run(tmp_path_factory):
    """A run with lead histories, for the published metrics: played once for the tests below,
    which copy it before editing it (the metrics only read a run)."""
    out = tmp_path_factory.mktemp("leads") / "run"
    simtool.run("black-white", n=16, strategy="pimc", lead_history=4, seed=1, jobs=1, out=out)
    return out


@pytest.mark.parametrize("edit", [
    # before: Drama, Security and every estimate-based metric read "lead histories of 64 deals"
    # of a run that recorded 4
    lambda meta: meta["lead_history"].update(sampled=64),
    lambda meta: meta["lead_history"]["estimator"].update(pimc="an oracle"),
    lambda meta: meta.update(leads=64),
])
def test_a_run_json_whose_lead_histories_were_edited_is_refused(tmp_path, leads_run, edit):
    run = tmp_path / "run"
    shutil.copytree(leads_run, run)
    meta = json.loads((run / "run.json").read_text())
    edit(meta)
    (run / "run.json").write_text(json.dumps(meta))
    with pytest.raises(SimtoolError, match="its run.json was changed since the run wrote it .*lead_history"):
        simtool.metrics(run)


def test_an_untouched_lead_history_and_one_written_before_its_checksum_are_read(tmp_path, leads_run):
    assert "lead histories of 4 deals" in simtool.metrics(leads_run)["drama"]["estimator"]
    run = tmp_path / "run"
    shutil.copytree(leads_run, run)
    meta = json.loads((run / "run.json").read_text())
    del meta["recorded_sha256"]  # an earlier simtool's run.json: trusted as before
    (run / "run.json").write_text(json.dumps(meta))
    assert "lead histories of 4 deals" in simtool.metrics(run)["drama"]["estimator"]


@pytest.mark.parametrize("command", [["report", "run"], ["ladder", "--rungs", "random,balance", "--n", "20",
                                                         "--jobs", "1", "--seed", "1", "--runs", "ladder"]])
def test_a_report_path_that_is_a_pipe_is_refused_not_waited_on(tmp_path, command):
    # before: the check of what the path held opened the pipe to read it and waited for a
    # writer for ever (the ladder after playing every rung)
    simtool.run("black-white", n=10, seed=1, jobs=1, out=tmp_path / "run")
    os.mkfifo(tmp_path / "page.html")
    try:
        done = cli_process(*command, "-o", "page.html", cwd=tmp_path, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("still waiting on the pipe after 60 s")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("error: page.html exists and is not a simtool report; simtool replaces only its "
                                   "own reports: choose another --out")
    assert stat.S_ISFIFO((tmp_path / "page.html").lstat().st_mode)


@pytest.mark.parametrize("make", [os.mkdir, os.mkfifo])
def test_a_plugin_path_that_is_a_folder_or_a_pipe_is_named_so_not_not_found(tmp_path, make):
    # before: "strategy plugin file not found: .../bot.py" for a bot.py that ls lists
    make(tmp_path / "bot.py")
    with pytest.raises(SimtoolError) as raised:
        simtool.run("black-white", n=10, strategy=f"{tmp_path / 'bot.py'}:mine", seed=1, jobs=1)
    assert str(raised.value) == (f"strategy plugin file {tmp_path / 'bot.py'} is not a regular file (a folder, a "
                                 f"pipe or a device); expected FILE.py:NAME, NAME a strategy in a Python file")


def test_a_copied_sweeps_resume_leaves_the_originals_report_alone(tmp_path, monkeypatch):
    # before: plan.json kept the report's path as given from the working folder ("a/report.html"),
    # so `sweep --resume b/runs` of a copy replaced a's page with the copy's, without a word, and a
    # resume from another working folder wrote its page under that folder
    monkeypatch.chdir(tmp_path)
    made = cli("sweep", "--game", "black-white", "--lineup", "balance", "--n", "50", "--jobs", "1", "--seed", "1",
               "--runs", "a/runs", "-o", "a/report.html", "-q")
    assert made.exit_code == 0, made.output
    page = tmp_path / "a" / "report.html"
    before = page.stat()
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    again = cli("sweep", "--resume", "b/runs", "--jobs", "1", "-q")
    assert again.exit_code == 0, again.output
    assert (page.stat().st_ino, page.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert "report reports/runs.html" in again.stdout and (tmp_path / "reports" / "runs.html").is_file()
    (tmp_path / "x").mkdir()
    monkeypatch.chdir(tmp_path / "x")
    own = cli("sweep", "--resume", "../a/runs", "--jobs", "1", "-q")
    assert own.exit_code == 0, own.output
    assert page.stat().st_ino != before.st_ino and not (tmp_path / "x" / "a").exists()
