"""Review of hostile round 11: the deals that settle an unclear verdict, plugin prints at import,
output folders behind links, sweep and tune arguments. Each test failed on the code before its fix."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from simtool.analysis import verdicts
from simtool.errors import SimtoolError

# ---- settle: an edge's interval across 0 --------------------------------------------------------


def _enough(n: int, more: int, v: float, lo: float, hi: float, t: float) -> bool:
    """Whether, ``more`` units on and each end narrowed as 1/sqrt(n), ``|x| < t`` all along."""
    s = math.sqrt(n / (n + more))
    return v - (v - lo) * s > -t and v + (hi - v) * s < t


def test_an_edge_inside_a_threshold_counts_both_ends_of_its_interval():
    # An edge of -0.03 points whose interval (-2.96 to 3.15: a seat's win share below 1/2 has a
    # Wilson interval longer upward) reaches past +3 but not -3. Before, only the end on the
    # estimate's side (the lower, 2.93 from it) was counted: "about 1 more deal would settle it",
    # after which the upper end still lay at 3.14, past 3.
    n, v, lo, hi = 769, -0.0325, -2.9621, 3.1460
    more = verdicts.settle(n, [(v, lo, hi)], (3.0,), magnitude=True)
    assert more == 76  # 769 ((3.1460 + 0.0325) / (3 + 0.0325))^2 - 769 = 75.1
    assert _enough(n, more, v, lo, hi, 3.0) and not _enough(n, more - 2, v, lo, hi, 3.0)
    # mirrored, a positive edge reaching past -3 only: the same count
    assert verdicts.settle(n, [(-v, -hi, -lo)], (3.0,), magnitude=True) == 76
    # the side nearer the threshold still decides where it needs more
    assert verdicts.settle(100, [(0.2, -3.5, 2.5)], (3.0,), magnitude=True) == 34  # (3.7 / 3.2)^2


# ---- plugin prints at import ------------------------------------------------------------------

def _plugin(tmp_path, body: str):
    path = tmp_path / "plugin.py"
    path.write_text("import sys\n" + body + "\ndef choose(view, rng):\n    return rng.choice(view.legal)\n")
    return path


def test_a_plugin_setting_stderr_to_stdout_at_import_loads_and_puts_stderr_back(tmp_path, capfd):
    # before: sys.stdout was the stand-in printing to sys.stderr, so `sys.stderr = sys.stdout`
    # made each print write to itself: "failed to load: RecursionError", and sys.stderr stayed the
    # stand-in, so `simtool run` ended with exit status 120 and "lost sys.stderr", no message
    import strategies

    err = sys.stderr
    path = _plugin(tmp_path, "sys.stderr = sys.stdout\nprint('at import')")
    found = strategies.resolve(f"{path}:choose", "black-white")
    assert found.name == "plugin.py:choose" and sys.stderr is err
    out = capfd.readouterr()  # by descriptor: the print went to the process's own standard error
    assert out.out == "" and "at import" in out.err


def test_a_plugin_import_that_raises_puts_both_streams_back(tmp_path):
    import strategies

    streams = sys.stdout, sys.stderr
    path = _plugin(tmp_path, "sys.stderr = sys.stdout\nraise ValueError('no')")
    with pytest.raises(SimtoolError, match="failed to load: ValueError: no$"):
        strategies.resolve(f"{path}:choose", "black-white")
    assert (sys.stdout, sys.stderr) == streams


# ---- output folders behind links --------------------------------------------------------------

def test_a_link_to_a_link_to_nothing_is_named_to_its_end(tmp_path, monkeypatch):
    # before: "b is a link to a, which does not exist", where `ls` shows a (a link itself)
    from simtool.errors import os_problem

    monkeypatch.chdir(tmp_path)
    Path("a").symlink_to("gone")
    Path("b").symlink_to("a")
    assert os_problem(Path("b/runs"), OSError()) == (
        "b is a link to a, a link to gone, which does not exist; remove the link or make what it points to")
    assert os_problem(Path("a/runs"), OSError()).startswith("a is a link to gone, which does not exist")


def test_a_loop_of_links_is_named_a_loop(tmp_path, monkeypatch):
    # before: "loop1 is a link to loop2, which does not exist", of two links in a loop
    from simtool.errors import os_problem
    from simtool.reports.balance import check_output

    monkeypatch.chdir(tmp_path)
    Path("loop1").symlink_to("loop2")
    Path("loop2").symlink_to("loop1")
    want = "loop1 is a link to loop2, a link to loop1: a loop of links, which leads nowhere"
    assert os_problem(Path("loop1/x"), OSError()).startswith(want)
    with pytest.raises(SimtoolError, match=f"^cannot write report loop1/r.html: {want}"):
        check_output("loop1/r.html", [])


# ---- blank --out -------------------------------------------------------------------------------

BW = ["--game", "black-white", "--strategy", "random", "--jobs", "1", "-q", "--n", "10", "--seed", "1"]


def test_a_blank_out_is_named_as_the_command_line_names_it_and_quoted_whole(capsys, tmp_path, monkeypatch):
    # before: "bad out ' '; expected a folder path (str or pathlib.Path), or None": the Python
    # API's argument and types on the command line, and two spaces quoted as one
    from simtool.cli import main

    from .test_hardening_cli import main_error

    monkeypatch.chdir(tmp_path)
    main_error(capsys, ["run", *BW, "--out", "  "], "error: bad --out '  '; expected a folder path, such as runs/first")
    with pytest.raises(SimtoolError, match=r"^bad out '  '; expected a folder path \(str or pathlib.Path\), or None$"):
        import simtool

        simtool.run("black-white", n=10, seed=1, out="  ")
    assert main(["run", *BW, "--out", "r"]) == 0 and capsys.readouterr().out == "r\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


@pytest.mark.parametrize("command", [
    ["report", "r", "--out", " "],
    ["sweep", "--game", "black-white", "--players", "4", "--n", "10", "--jobs", "1", "--runs", "s", "--out", " "],
])
def test_a_blank_report_name_is_refused_before_any_work(capsys, tmp_path, monkeypatch, command):
    # before: a page named ' ' in the working folder, and "report  " printed as where it went
    from simtool.cli import main

    from .test_hardening_cli import main_error

    monkeypatch.chdir(tmp_path)
    assert main(["run", *BW, "--out", "r"]) == 0
    capsys.readouterr()
    main_error(capsys, command, "error: report ' ' is a blank name; give a file name such as report.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


# ---- tune objectives ---------------------------------------------------------------------------

def test_a_direction_may_have_spaces_around_it_as_a_target_may():
    # before: 'seat_spread = 0.5' was taken, 'seat_spread: min' refused: "bad objective 'seat_spread:
    # min'; a direction is :min or :max", of a direction that is :min
    from simtool import games
    from simtool.commands.tune import Objective, parse_objective

    game = games.get("black-white")
    assert parse_objective(game, "seat_spread: min") == parse_objective(game, "seat_spread:min")
    assert parse_objective(game, " skill : max ") == Objective("skill", "max")
    for bad in ("seat_spread: ", "seat_spread:  mini"):
        with pytest.raises(SimtoolError, match=r"; a direction is :min or :max$"):
            parse_objective(game, bad)


# ---- settle: an estimate on a threshold but for rounding, and huge counts -----------------------

def test_a_seat_edge_on_a_threshold_but_for_rounding_sits_on_it():
    # 26 of 100 deals at 4 players: 100 (0.26 - 0.25) is 1.0000000000000009 points. Before:
    # "about 7.3e+27 million more deals would settle it", by its 9e-16 points past 1
    from simtool.stats import wilson

    rows = [(s, w / 100, *map(float, wilson(w, 100))) for s, w in enumerate([26, 25, 25, 24])]
    v = verdicts.seat_verdict(rows, 4, 100)
    assert v.word == "unclear" and v.more is None
    assert "the estimate sits on a threshold, so more deals alone will not settle it" in v.sentence
    # an estimate truly off it still gets its count
    assert verdicts.settle(100, [(1.01, -6.6, 10.4)], (1.0, 3.0), magnitude=True) > 10_000_000


def test_a_count_of_a_hundred_million_or_more_is_written_out():
    # before: "1e+07 million" (":g" of 10 million millions)
    assert [verdicts.rough(c) for c in (10**8, 2_500_000, 123_456_789, 10**13, 43_210 * 10**9)] == [
        "100 million", "2.5 million", "120 million", "10,000,000 million", "43,000,000 million"]


def test_an_estimate_under_a_threshold_but_for_rounding_keeps_it_unsettled():
    # every interval must come below 1: one whose estimate is 1 but for rounding never does.
    # Before: a count of its 9e-16 points to go, some 10^33 deals
    assert verdicts.settle(1000, [(0.9999999999999991, -0.5, 2.5), (0.2, -0.8, 1.2)], (1.0,), magnitude=True) is None
    # off it, the most the intervals need: 1000 (1.6 / 0.1)^2 - 1000, and one to pass 1, not reach it
    assert verdicts.settle(1000, [(0.9, -0.5, 2.5), (0.2, -0.8, 1.2)], (1.0,), magnitude=True) == 255_001


def test_a_link_broken_after_the_checks_is_named_when_the_report_is_written(tmp_path):
    # check_output refuses a dead link above the report before any work, but a link that breaks
    # while a sweep plays (its drive unmounted) failed the write at the end as "File exists"
    from simtool.pipeline.folders import write_together

    (tmp_path / "gone").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    (tmp_path / "gone").rmdir()
    with pytest.raises(SimtoolError, match=f"^cannot write report x: {tmp_path / 'link'} is a link to "
                                           f"{tmp_path / 'gone'}, which does not exist; remove the link"):
        write_together({tmp_path / "link" / "sub" / "page.html": "<p>"}, "report x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link"]


@pytest.mark.parametrize("command, option", [
    (["run", *BW, "--out", ""], "--out"),
    (["sweep", "--game", "black-white", "--n", "10", "--jobs", "1", "--runs", "", "--out", "s.html"], "--runs"),
    (["restrict", "--game", "black-white", "--n", "10", "--out", ""], "--out"),
    (["tune", "--game", "black-white", "--vary", "deck", "--out", ""], "--out"),
    (["review", "--game", "black-white", "--out", ""], "--out"),
])
def test_an_empty_folder_option_is_refused_not_taken_for_the_working_folder(capsys, tmp_path, monkeypatch,
                                                                            command, option):
    # before: typer made `--out ""` Path(""), the working folder: `simtool run --out ""` wrote its
    # run.json and seats.parquet there, where `--out " "` and out="" in Python were refused
    from .test_hardening_cli import main_error

    monkeypatch.chdir(tmp_path)
    main_error(capsys, command, f"error: bad {option} ''; expected a folder path, such as runs/first")
    assert list(tmp_path.iterdir()) == []


# ---- review: vs_rules={} of a game without rule options -----------------------------------------

def test_an_empty_vs_rules_of_a_game_without_rule_options_is_one_line():
    # before: IndexError (the message named game.options[0] as an example), for an installed game
    # that declares no rule options
    from types import SimpleNamespace

    from simtool.commands.review import versions_of

    plain = SimpleNamespace(id="plain", options=(), check_rules=lambda rules, players: None)
    with pytest.raises(SimtoolError, match=r"^vs_rules \{\} names no rule to change, and plain has no rule "
                                           r"options: give None for no comparison$"):
        versions_of(plain, 4, None, {})
    assert versions_of(plain, 4, None, None) == ({},)


def test_an_end_that_must_pass_a_threshold_is_counted_past_it_not_onto_it():
    # 0.5, 0.4 to 0.65 at 2,000 deals: at 4,500 the upper end is 0.6 exactly, which the bands count
    # as "high" still. Before: "about 2,500 more", which left it unclear; an end that must only
    # reach the threshold (an estimate past it) is on it in time
    assert verdicts.luck_verdict(0.5, 0.4, 0.65, 2000).more == 2501
    assert verdicts.settle(1000, [(3.5, 3.0 - 0.5, 4.5)], (3.0,)) == 3000  # 1000 (1 / 0.5)^2: lo = 3
    assert verdicts.bands(0.5 - 0.1, 0.5 + 0.15 * math.sqrt(2000 / 4500), (0.6,)) == (0, 1)
