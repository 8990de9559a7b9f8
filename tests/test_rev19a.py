"""Defects found reviewing the merge of left19 (rev19a): each test failed on the code before its fix."""

from __future__ import annotations

import os

import pytest

import simtool
from simtool.commands import review as reviews
from simtool.errors import SimtoolError

from .test_cli import cli
from .test_hardening_round16 import one_line
from .test_left19 import Spins


def test_report_without_o_names_its_page_within_the_systems_255_bytes(tmp_path, monkeypatch, charts_undrawn):
    # before: the page was named after up to 80 characters of the run folders' names, up to 320
    # bytes of UTF-8: "error: File name too long ('reports/😀😀...'); choose a shorter path",
    # exit 2, for runs any folder can hold; after: the names cut at 80 bytes, the page written
    monkeypatch.chdir(tmp_path)
    runs = [tmp_path / f"r{i}" / ("😀" * 39) for i in range(2)]
    for seed, run in enumerate(runs):
        simtool.run("black-white", n=64, seed=seed, jobs=1, out=run)
    said = cli("report", *runs)
    assert said.exit_code == 0, said.output
    page = tmp_path / said.stdout.strip()
    assert page.is_file() and len(os.fsencode(page.name)) <= 80 + len(".html")
    assert page.name == "😀" * 15 + "+1-more.html"


def test_report_without_o_of_one_long_named_run_counts_no_other_runs(tmp_path, monkeypatch, charts_undrawn):
    # before: reports/xxx...x+0-more.html for one run of a name past 80 characters (bytes), as if
    # other runs were left out of its name; after: the name alone, cut at 80 bytes
    monkeypatch.chdir(tmp_path)
    for name, page in (("x" * 200, "x" * 80), ("😀" * 63, "😀" * 20)):
        simtool.run("black-white", n=64, seed=1, jobs=1, out=tmp_path / name)
        said = cli("report", tmp_path / name)
        assert said.stdout.strip() == f"reports/{page}.html", said.output
        assert (tmp_path / "reports" / f"{page}.html").is_file()


def test_a_designer_games_overtime_in_a_match_names_matches_in_english(installed, tmp_path):
    # before: "its play of matchs 0 to 15 of the run"; after: "matches"
    installed(Spins("deal"))
    with pytest.raises(SimtoolError, match=r"did not deal its round within timeout=0.5 s \(its play of matches 0 to "
                                           r"15 of the run with seed 1, n 16\)$"):
        simtool.run("spins", n=16, seed=1, jobs=1, timeout=0.5, unit="match", out=tmp_path / "r")


def test_a_folder_in_place_of_a_runs_table_is_not_said_to_be_missing(tmp_path):
    # before: a folder named leads.parquet where the table was read "leads.parquet is missing ...:
    # moved or deleted since the run wrote it"; after: replaced, as before left19 (a table moved
    # away is still named missing)
    run = tmp_path / "leads"
    simtool.run("black-white", n=64, players=3, seed=1, out=run, lead_history=4)
    (run / "leads.parquet").unlink()
    (run / "leads.parquet").mkdir()
    with pytest.raises(SimtoolError, match=r": leads.parquet is not what its run.json records \(the SHA-256 differs\): "
                                           r"changed or replaced since the run wrote it; run it again$"):
        simtool.metrics(run)
    (run / "leads.parquet").rmdir()
    with pytest.raises(SimtoolError, match=r": leads.parquet is missing \(its run.json records it\)"):
        simtool.metrics(run)


@pytest.mark.parametrize("game, players, cli_form, python_form", [
    ("kansas-city", None, "--game black-white --players 3", "game='black-white', players=3"),
    ("black-white", 4, "--players 3", "players=3"),
])
def test_a_baseline_refused_as_unlike_names_the_review_that_would_be_compared(bw_review, tmp_path, game, players,
                                                                              cli_form, python_form):
    # before: "give an earlier review of kansas-city with 4 players and the same line-ups" alone,
    # for a baseline of black-white reviewed with -g (or -p) forgotten; after: also how to review
    # what the baseline reviewed
    baseline, _ = bw_review
    out = tmp_path / "r"
    args = ["review", "-g", game, "--baseline", baseline, "--out", out, *(["-p", players] if players else [])]
    assert one_line(cli(*args), "").endswith(f"the same line-ups, or review what the baseline did: {cli_form}")
    with pytest.raises(SimtoolError, match=f"the same line-ups, or review what the baseline did: {python_form}$"):
        reviews.review(game, tmp_path / "r", players=players, baseline=baseline, jobs=1)
    assert not (tmp_path / "r").exists()


def test_a_sweeps_default_page_of_a_runs_folder_named_with_255_bytes_is_a_file_name(tmp_path, monkeypatch):
    """A runs folder may take all of a name's 255 bytes; its page's "-2.html" or ".html" then
    overflowed them (File name too long, for a path the user never chose)."""
    from pathlib import Path

    from simtool.cli import _report_of

    monkeypatch.chdir(tmp_path)
    runs = tmp_path / ("é" * 127)  # 254 bytes
    runs.mkdir()
    Path("reports").mkdir()
    first = _report_of(runs, "sweep")
    assert len(os.fsencode(first.name)) <= 255
    first.write_text("another runs folder's page")
    second = _report_of(runs, "sweep")
    assert second != first and len(os.fsencode(second.name)) <= 255
    second.write_text("written")  # a name the system takes
