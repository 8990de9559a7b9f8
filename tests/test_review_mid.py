"""Review of b39095e..c8d0440 where its branches meet (left5a/b's resume and API wording, hard16's
locks and messages, docs17's command-line changes): each test failed on the merged code, but for
test_the_same_baseline_file_on_the_command_line_still_names_the_flag, which keeps the line its fix leaves."""

from __future__ import annotations

import pytest

from simtool.commands import review
from simtool.errors import SimtoolError

from .test_cli import cli, one_line_error

PAGE = ('<!DOCTYPE html>\n<meta name="generator" content="simtool 1.0">\n'
        '<meta name="simtool-page" content="{kind}">\n<title>t</title>\n')


def test_a_tuning_with_one_unplayable_trial_says_trial_not_trials(tmp_path, charts_undrawn):
    # docs17's _count made '1 trials in' '1 trial in', but the line above it kept '1 trials skipped'
    r = cli("tune", "--game", "kansas-city", "--vary", "hand_size=2..4", "--objective", "overshoot=0.5",
            "--trials", "5", "--n", "200", "--seed", "3", "--rule", "pass_count=0", "--rule", "limit=3",
            "--jobs", "1", "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    assert "1 trial skipped: the game cannot be played with its values (limit 3 is above" in r.stdout
    assert "1 trials" not in r.stdout


def test_a_baseline_given_as_its_file_from_python_names_the_argument_not_the_flag(tmp_path):
    # hard16's new refusal named --baseline from Python, where the argument is baseline=
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "review.json").write_text("{}")
    with pytest.raises(SimtoolError) as caught:
        review.review("black-white", tmp_path / "r", baseline=tmp_path / "b" / "review.json")
    text = str(caught.value)
    assert "--" not in text, text
    assert f"baseline {tmp_path / 'b' / 'review.json'} is a file; give the folder that holds it, " \
           f"baseline='{tmp_path / 'b'}'" in text


def test_the_same_baseline_file_on_the_command_line_still_names_the_flag(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "review.json").write_text("{}")
    one_line_error(cli("review", "--game", "black-white", "--out", tmp_path / "r",
                       "--baseline", tmp_path / "b" / "review.json"),
                   f"--baseline {tmp_path / 'b' / 'review.json'} is a file; give the folder that holds it, "
                   f"--baseline {tmp_path / 'b'}")


@pytest.mark.parametrize("args, kind", [
    (["tune", "--game", "kansas-city", "--vary", "four_bonus=0..1", "--objective", "seat_spread",
      "--trials", "2", "--n", "100"], "report"),
    (["restrict", "--game", "kansas-city", "--restrictions", "no-upgrade", "--n", "100"], "review"),
])
def test_a_report_page_of_another_kind_names_the_commands_report_option(tmp_path, args, kind):
    # hard16's page-kind refusal said 'choose another --out' for tune's and restrict's --report,
    # where --out is the tuning's or the runs' folder: following it changed the wrong thing
    page = tmp_path / "page.html"
    page.write_text(PAGE.format(kind=kind))
    text = one_line_error(cli(*args, "--report", page, "--out", tmp_path / "o"), f"{page} is a simtool")
    assert text.endswith("choose another --report"), text
    assert not (tmp_path / "o").exists()


def test_a_report_page_of_another_kind_from_python_names_no_flag(tmp_path):
    from simtool.reports import balance

    page = tmp_path / "page.html"
    page.write_text(PAGE.format(kind="review"))
    with pytest.raises(SimtoolError) as caught:
        balance.check_output(page, [])
    assert "--" not in str(caught.value) and "choose another report file" in str(caught.value)


def test_the_summarys_tiny_share_of_capped_matches_shows_as_the_report_shows_it(tmp_path, monkeypatch):
    # left5b's report never shows a share of capped matches that is not 0 as 0; the summary's note
    # printed 1 of 1e6 as '0.00%' (its two decimals kept where they show the share)
    import polars as pl

    from simtool.commands import run

    real = run.summary_tables

    def one_capped_in(total):
        def tables(*args):  # meta, seats, matches and the workers' sums
            found = real(*args)
            first = next(iter(found))
            found[first] = found[first].with_columns(pl.lit(1 / total).alias("capped"))
            return found
        return tables

    for total, shown in ((20_000, "0.01%"), (1_000_000, "0.0001%"), (8, "12.50%")):
        monkeypatch.setattr(run, "summary_tables", one_capped_in(total))
        r = cli("run", "--game", "black-white", "--unit", "match", "--n", "20", "--seed", "1", "--jobs", "1",
                "--force", "--out", tmp_path / "m")
        assert r.exit_code == 0, r.output
        assert f"{shown} of matches hit the 200-round cap" in r.stdout.replace("\n", " "), r.stdout


def test_a_resume_of_the_other_command_into_a_folder_being_written_names_the_writer(tmp_path, charts_undrawn):
    # left5a's 'holds the runs of simtool ladder, not of simtool restrict; finish them with simtool
    # ladder --resume' came before hard16's lock: it sent the user to a resume the lock then refused
    from simtool.pipeline import folders

    runs = tmp_path / "lad"
    assert cli("ladder", "--game", "black-white", "--rungs", "random,high", "--n", "200", "--seed", "1",
               "--jobs", "1", "--runs", runs, "--out", tmp_path / "lad.html", "-q").exit_code == 0
    lock = folders.hold(runs, "command")
    try:
        text = one_line_error(cli("restrict", "--resume", runs, "--jobs", "1", "-q"),
                              f"output folder {runs} is being written by another simtool command")
        assert "ladder --resume" not in text
    finally:
        folders.let_go(lock)
    one_line_error(cli("restrict", "--resume", runs, "--jobs", "1", "-q"),
                   f"{runs} holds the runs of simtool ladder, not of simtool restrict; finish them with "
                   f"simtool ladder --resume {runs}")


def test_a_ladders_cells_of_other_settings_from_python_name_force_as_python_writes_it(tmp_path):
    # hard16's refusal offered '--force' to simtool.ladder.climb, whose argument is force=True
    from simtool.commands import ladder

    runs = tmp_path / "lad"
    ladder.climb("black-white", runs, rungs=["random", "high"], n=200, seed=1, jobs=1)
    with pytest.raises(SimtoolError) as caught:
        ladder.climb("black-white", runs, rungs=["random", "high"], n=300, seed=1, jobs=1)
    text = str(caught.value)
    assert "--" not in text, text
    assert "play it again with force=True, or choose another folder" in text
    one_line_error(cli("ladder", "--game", "black-white", "--rungs", "random,high", "--n", "300", "--seed", "1",
                       "--jobs", "1", "--runs", runs, "--out", tmp_path / "l.html", "-q"),
                   "play it again with --force, or choose another folder")


def test_a_run_failing_late_from_python_offers_force_as_python_writes_it(tmp_path, monkeypatch, small_chunks):
    import simtool
    from simtool.errors import StrategyError

    from .test_hardening_leftovers3 import ASKED_PER_CHUNK, fragile

    entry, _ = fragile(tmp_path)
    monkeypatch.setenv("FRAGILE_AFTER", str(2 * ASKED_PER_CHUNK + 1))  # in the third chunk
    with pytest.raises(StrategyError) as caught:
        simtool.run("black-white", 5 * 2048, seats={0: entry}, seed=3, jobs=1, out=tmp_path / "run")
    assert str(caught.value).endswith("a changed strategy plays it again with force=True"), str(caught.value)


def test_a_resumed_ladder_of_one_run_says_run_on_its_bar(tmp_path, monkeypatch, charts_undrawn):
    # docs17's _count reached the sweep's bar, not left5a's resume: 'ladder of 1 runs'
    import simtool.cli

    runs = tmp_path / "lad"
    assert cli("ladder", "--game", "black-white", "--rungs", "random,high", "--n", "200", "--seed", "1",
               "--jobs", "1", "--runs", runs, "--out", tmp_path / "lad.html", "-q").exit_code == 0
    said = []
    monkeypatch.setattr(simtool.cli._NoBar, "add_task", lambda self, text, *a, **kw: said.append(text) or 0)
    assert cli("ladder", "--resume", runs, "--jobs", "1").exit_code == 0
    assert said == ["ladder of 1 run"]


def test_a_bare_sweep_plans_one_combination_on_its_bar(tmp_path, monkeypatch, charts_undrawn):
    # docs17's _count reached the sweep's second bar, not its first: 'planning 1 combinations'
    import simtool.cli

    said = []
    monkeypatch.setattr(simtool.cli._NoBar, "add_task", lambda self, text, *a, **kw: said.append(text) or 0)
    r = cli("sweep", "-g", "black-white", "-n", "100", "-j", "1", "--runs", tmp_path / "runs",
            "-o", tmp_path / "s.html")
    assert r.exit_code == 0, r.output
    assert said == ["planning 1 combination", "sweep of 1 cell"]
