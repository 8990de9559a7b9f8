"""Hostile round 4: the leftovers of round 3 (an option given twice, numbers that are not exactly
whole, an empty game selection, JSON nested too deep in tune and review, a removal stopped
half-way, a sweep refused without saying why) and what a careless or malicious user found this
round. Each test failed on the code before its fix."""

from __future__ import annotations

import errno
import importlib.util
import json
import shutil
from pathlib import Path

import polars as pl
import pytest

import simtool
import strategies
from simtool import cli as cli_module
from simtool.commands import plans, strength
from simtool.commands import review as reviews
from simtool.pipeline.runner import make_spec

from .conftest import smaller_chunks
from .test_cli import cli, one_line_error
from .test_data_safety import interrupted_run
from .test_hardening_cli import main_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

ROOT = Path(__file__).resolve().parents[1]
DEEP = "[" * 100_000


def bench_strength():
    spec = importlib.util.spec_from_file_location("bench_strength", ROOT / "bench" / "strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- leftover 1: an option that takes one value, given twice -------------------------------

@pytest.mark.parametrize("args,needle", [
    (["run", "-s", "random", "-s", "high"], "--strategy given twice ('random' and 'high'); give it once"),
    (["run", "-s", "random", "--strategy", "high"], "--strategy given twice"),
    (["run", "--n", "100", "--n", "200"], "--n given twice ('100' and '200')"),
    (["run", "--seed", "1", "--seed", "1"], "--seed given twice"),  # even the same value: a slip
    (["sweep", "-g", "black-white", "--rotate", "--no-rotate"], "--rotate/--no-rotate given twice"),
    (["ladder", "--rungs", "random,high", "--rungs", "random,low"], "--rungs given twice"),
])
def test_an_option_given_twice_is_refused_naming_it(tmp_path, capsys, args, needle):
    # before: the last value was played silently (a line-up of high, though random was read first)
    out = tmp_path / "never"
    place = ["--runs" if args[0] in ("sweep", "ladder") else "--out", out]
    one_line_error(cli(*args, *place, "-j", "1", "-q"), needle)  # typer's in-process path
    main_error(capsys, [*args, *place, "-j", "1", "-q"], needle)  # the installed command's
    assert not out.exists()


def test_a_repeated_flag_or_repeatable_option_still_plays(tmp_path):
    r = cli("run", "-s", "random", "--seat", "0=high", "--seat", "1=low", "-q", "-q", "--n", "50",
            "-j", "1", "--seed", "1", "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "r" / "run.json").read_text())["lineup"] == ["high", "low", "random"]


# ---- leftover 2: whole numbers read exactly, every spelling of one number alike ---------------

@pytest.mark.parametrize("args,needle", [
    (["--n", "1000.00000000000001"], "bad --n '1000.00000000000001'"),  # a float made it 1000
    (["--n", "2.00000000000000001e3"], "bad --n"),  # a float made it 2000
    (["--seed", "4.0000000000000001e3"], "bad --seed '4.0000000000000001e3'"),
    (["--seed", "1e999999999"], "bad --seed"),  # refused (held before: a float), not a billion digits
    (["--rule", "deck=30.000000000000001"], "bad rule deck '30.000000000000001'"),
])
def test_a_number_that_is_not_exactly_whole_is_refused(tmp_path, args, needle):
    one_line_error(cli("run", "-s", "random", "-j", "1", "--out", tmp_path / "r", *args), needle)


def test_every_spelling_of_a_whole_number_plays_and_labels_as_the_number(tmp_path):
    # normalised, not refused: 1e6 is the README's --n, and 30, 3e1, " 30", ３０ (full-width) are
    # one number; the record, the folder names and the tables are those of 30
    runs = {}
    for i, deck in enumerate(["30", "3e1", " 30", "３０", "30.0"]):
        out = tmp_path / f"r{i}"
        r = cli("run", "-s", "random", "--rule", f"deck={deck}", "--n", "2e2", "--seed", "1e1", "-j", "1",
                "-q", "--out", out)
        assert r.exit_code == 0, r.output
        meta = json.loads((out / "run.json").read_text())
        assert (meta["rules"]["deck"], meta["n"], meta["seed"]) == (30, 200, 10)
        runs[deck] = pl.read_parquet(out / "seats.parquet")
    assert all(t.equals(runs["30"]) for t in runs.values())
    r = cli("run", "-s", "random", "--n", "10", "--seed", "1e30", "-j", "1", "-q", "--out", tmp_path / "big")
    assert r.exit_code == 0, r.output  # before: 1000000000000000019884624838656, the float's value
    assert json.loads((tmp_path / "big" / "run.json").read_text())["seed"] == 10 ** 30
    entries = {strategies.canonical(f"pimc@samples={v}", "kansas-city") for v in ("4", "4e0", "４", " 4")}
    assert entries == {"pimc@samples=4"}


def test_a_number_below_what_a_float_holds_is_not_read_as_zero():
    # before: balance@mistakes=1e-400 played balance without mistakes, labelled "balance"
    with pytest.raises(simtool.SimtoolError, match="bad parameter mistakes '1e-400'"):
        strategies.canonical("balance@mistakes=1e-400", "black-white")
    assert strategies.canonical("balance@mistakes=0e-5", "black-white") == "balance"  # zero written otherwise
    assert strategies.canonical("balance@mistakes=1e-1", "black-white") == "balance@mistakes=0.1"


# ---- leftover 3: make strength --games '' ------------------------------------------------------

@pytest.mark.parametrize("games,needle", [("", "--games '' names no game"), (",", "names no game"),
                                          ("black-white,", "has an empty name")])
def test_strength_refuses_a_selection_of_no_game(tmp_path, capsys, games, needle):
    # before: '' read as "not given", and every game's 42 cells were played
    runs = tmp_path / "runs"
    code = bench_strength().main(["--games", games, "--runs", str(runs), "--out", str(tmp_path / "t"), "--n", "64"])
    text = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in text and needle in text and "black-white" in text, text
    assert not runs.exists()


def test_strength_never_replaces_a_users_file_with_its_table(tmp_path, capsys):
    # before: --out README wrote README.md, .json and .csv over whatever was there, after playing
    (tmp_path / "README.md").write_text("# my notes\n")
    runs = tmp_path / "runs"
    code = bench_strength().main(["--games", "black-white", "--runs", str(runs), "--out", str(tmp_path / "README"),
                                  "--n", "64", "--jobs", "1"])
    text = capsys.readouterr().err.strip()
    assert code == 2 and "README.md exists and is not a strength table" in text, text
    assert (tmp_path / "README.md").read_text() == "# my notes\n" and not runs.exists()


def test_a_strength_table_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    # before: a full disk at the .json left a new .md beside the old .json and .csv, a traceback
    from simtool.analysis.strength import Cell

    cells = [Cell("kansas-city", "default", "fair", "pimc", "target", 4, 4096, 0.4, 0.38, 0.42, 0.25, 8.0, 2, 16.0)]
    stem = tmp_path / "strength"
    context = {"date": "then", "command": "make strength"}
    strength.write(cells, context, stem)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    real = Path.write_text

    def full(self, *args, **kw):
        if self.name.endswith(".json.tmp"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, *args, **kw)

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(simtool.SimtoolError, match="cannot write the strength table .*No space left"):
        strength.write(cells, dict(context, date="now"), stem)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


# ---- leftover 4: JSON nested too deep in tune's and review's files -----------------------------

def test_tune_json_nested_too_deep_is_one_line(tmp_path, capsys):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "tune.json").write_text(DEEP)
    main_error(capsys, ["tune", "--resume", tmp_path / "t", "-q"], "tune.json is damaged")
    main_error(capsys, ["tune", "--vary", "pass_count", "--objective", "seat_spread", "--n", "100",
                        "--out", tmp_path / "t", "-q"], "tune.json is damaged")


def test_a_review_baseline_nested_too_deep_is_one_line(tmp_path, capsys):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "review.json").write_text(DEEP)
    main_error(capsys, ["review", "-g", "black-white", "--out", tmp_path / "new", "--baseline",
                        tmp_path / "old", "-q"], "review.json is not readable JSON")
    (tmp_path / "state.json").write_text(DEEP)
    assert reviews.read_state(tmp_path / "state.json", {"game": "black-white"}) == {}  # another review's: none


def test_a_grid_file_nested_too_deep_is_one_line(tmp_path, capsys):
    # found this round: tomllib reads nesting by recursion
    for i, text in enumerate(["games = " + "[" * 50_000 + "]" * 50_000, "rules = " + "{a=" * 5000 + "1" + "}" * 5000]):
        grid = tmp_path / f"deep{i}.toml"
        grid.write_text(text)
        main_error(capsys, ["sweep", grid, "--runs", tmp_path / "runs"], f"cannot read grid file {grid}",
                   "nested too deep")


# ---- leftover 5: Ctrl-C while make strength removes an old cell --------------------------------

def test_a_removal_stopped_half_way_is_finished_next_time(tmp_path, monkeypatch):
    # before: the cell's folder was deleted in place; stopped half-way it was no run any more, so
    # it was neither removed again nor replaced, and every later call was refused
    runs = tmp_path / "runs"
    simtool.run("black-white", n=64, seed=1, jobs=1, strategy="random", out=runs / "old-cell")
    (runs / "plan.json").write_text(json.dumps({"command": "strength", "cells": [{"folder": "old-cell"}]}))
    whole = plans.make_plan([make_spec("black-white", None, 64, "random", seed=1)], runs, command="strength")
    real = shutil.rmtree

    def stopped(path, *args, **kw):  # Ctrl-C once the run's run.json is gone
        (Path(path) / "run.json").unlink()
        raise KeyboardInterrupt

    monkeypatch.setattr(shutil, "rmtree", stopped)
    with pytest.raises(KeyboardInterrupt):
        strength.replace_plan(whole, lambda line: None)
    monkeypatch.setattr(shutil, "rmtree", real)
    said = []
    strength.replace_plan(whole, said.append)
    assert sorted(p.name for p in runs.iterdir()) == []  # the old cell, the aside folder, the old plan
    plans.check(whole)  # the new plan may go on


def test_an_aside_folder_simtool_did_not_make_is_left_alone(tmp_path):
    runs = tmp_path / "runs"
    simtool.run("black-white", n=64, seed=1, jobs=1, strategy="random", out=runs / "old-cell")
    (runs / ".removing").mkdir()
    (runs / ".removing" / "mine.txt").write_text("mine")
    (runs / "plan.json").write_text(json.dumps({"command": "strength", "cells": [{"folder": "old-cell"}]}))
    whole = plans.make_plan([make_spec("black-white", None, 64, "random", seed=1)], runs, command="strength")
    with pytest.raises(simtool.SimtoolError, match="is in the way"):
        strength.replace_plan(whole, lambda line: None)
    assert (runs / ".removing" / "mine.txt").read_text() == "mine" and (runs / "old-cell" / "run.json").is_file()


# ---- leftover 6: a sweep whose cells were played with other settings ---------------------------

def test_a_sweep_names_the_setting_that_changed_in_a_cell(tmp_path):
    # before: "output folder ... already holds a run; use --force", after plan.json was replaced
    runs = tmp_path / "runs"
    sweep = ["sweep", "-g", "black-white", "-l", "random", "-l", "high", "--n", "300", "--seed", "2",
             "-j", "1", "-q", "--runs", runs, "-o", tmp_path / "s.html"]
    assert cli(*sweep).exit_code == 0
    plan = (runs / "plan.json").read_bytes()
    with smaller_chunks():  # a default of simtool's changed: the chunk size of these cells
        text = one_line_error(cli(*sweep), "black-white_3p_random holds a run played with other settings: "
                                           "chunk 32768 (now 2048); 1 more cells as well", "--force")
        assert (runs / "plan.json").read_bytes() == plan  # the plan that played them is kept
        assert "already holds" not in text
        assert cli(*sweep, "--force").exit_code == 0
    changed = [x if x != "300" else "400" for x in sweep]
    one_line_error(cli(*changed), "holds a run played with other settings: n 300 (now 400)")


# ---- found this round ----------------------------------------------------------------------

DOCTORED = [({"chunk": 0}, "chunk 0 is not a whole number"),  # was ZeroDivisionError
            ({"chunk": 10 ** 12}, "chunk 1000000000000"),  # was played in chunks of 1e12 deals
            ({"n": "9000"}, "n '9000'"),  # TypeError
            ({"duplicate": "yes"}, "duplicate 'yes' is not true or false"),  # played as duplicate
            ({"lineup": ["random"]}, "lineup ['random'] is not 3 strategies"),  # polars error
            ({"rules": {"deck": "x"}}, "bad rule deck 'x'"),  # TypeError
            ({"rules": {"deck": "36"}}, "rule deck '36' is not a value it takes"),
            ({"seed": -1}, "seed -1"),  # numpy's ValueError
            ({"plugins": 5}, "plugins and rules are not tables")]  # AttributeError


def test_a_resume_of_a_doctored_specification_is_one_line(tmp_path, small_chunks):
    base = tmp_path / "base"
    interrupted_run(base, 2, n=9000)
    for i, (change, needle) in enumerate(DOCTORED):
        out = tmp_path / f"d{i}"
        shutil.copytree(base, out)
        saved = json.loads((out / "chunks" / "spec.json").read_text())
        saved.pop("sha256")  # as an older simtool's, which wrote no checksum of it
        (out / "chunks" / "spec.json").write_text(json.dumps(saved | change))
        chunks = sorted(p.name for p in (out / "chunks").iterdir())
        one_line_error(cli("run", "--resume", out, "-q", "-j", "1"), "its saved specification is damaged", needle)
        assert sorted(p.name for p in (out / "chunks").iterdir()) == chunks  # nothing lost
    assert cli("run", "--resume", base, "-q", "-j", "1").exit_code == 0  # the intact one goes on


@pytest.mark.parametrize("change", [{"seed": 4}, {"n": 8000}, {"lineup": ["high", "random", "random"]}])
def test_a_resume_of_a_specification_changed_by_hand_is_refused(tmp_path, small_chunks, change):
    # before: chunks 0 and 1 of seed 3 were joined with the rest played under seed 4, into a
    # table no run plays, recorded as seed 4
    out = tmp_path / "run"
    interrupted_run(out, 2, n=9000)
    saved = json.loads((out / "chunks" / "spec.json").read_text())
    (out / "chunks" / "spec.json").write_text(json.dumps(saved | change))
    one_line_error(cli("run", "--resume", out, "-q", "-j", "1"), "chunks/spec.json was changed since the run started",
                   "--force")
    (out / "chunks" / "spec.json").write_text(json.dumps(saved))  # put back: it goes on
    assert cli("run", "--resume", out, "-q", "-j", "1").exit_code == 0
    fresh = simtool.run("black-white", n=9000, seed=3, jobs=1, strategy="random")
    assert pl.read_parquet(out / "seats.parquet").equals(fresh.seats)


def test_a_report_of_one_run_given_twice_is_one_line(tmp_path):
    # before: a TypeError from the page's template (a run compared with itself)
    simtool.run("black-white", n=50, seed=1, jobs=1, strategy="random", out=tmp_path / "r")
    one_line_error(cli("report", tmp_path / "r", tmp_path / "r", "-o", tmp_path / "p.html"),
                   "given twice; give each run once")
    one_line_error(cli("report", tmp_path / "r", tmp_path / "." / "r" / ".." / "r", "-o", tmp_path / "p.html"),
                   "given twice (as")
    assert not (tmp_path / "p.html").exists()


def test_an_error_quoting_a_name_with_control_characters_stays_on_one_line(tmp_path, capsys):
    # before: a newline in a strategy's name broke the error into lines; an escape sequence
    # reached the terminal as it was
    text = main_error(capsys, ["run", "-s", "ran\ndom\x1b[2J", "--out", tmp_path / "r"], "unknown strategy")
    assert "ran\\ndom\\x1b[2J" in text and "\x1b" not in text
    assert cli_module.one_line("é ２ tab\there") == "é ２ tab\\there"


def test_a_sweep_resume_plays_into_the_folders_its_plan_names(tmp_path):
    # before: the folders were named anew, so a plan naming them otherwise (a later simtool's
    # names, or a plan.json changed by hand) was "an unfinished sweep; finish it with simtool sweep
    # --resume" -- the very command given -- and ../escape would have been played outside it
    runs = tmp_path / "runs"
    assert cli("sweep", "-g", "black-white", "-l", "random", "-l", "high", "--n", "300", "--seed", "2",
               "-j", "1", "-q", "--runs", runs, "-o", tmp_path / "s.html").exit_code == 0
    plan = json.loads((runs / "plan.json").read_text())
    (runs / "black-white_3p_high").rename(runs / "high-as-named-before")
    plan["cells"][1]["folder"] = "high-as-named-before"
    shutil.rmtree(runs / "black-white_3p_random")  # a cell left to play
    (runs / "plan.json").write_text(json.dumps(plan))
    r = cli("sweep", "--resume", runs, "-j", "1", "-q")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in runs.iterdir()) == ["black-white_3p_random", "high-as-named-before", "plan.json"]
    plan["cells"][0]["folder"] = "../escape"
    (runs / "plan.json").write_text(json.dumps(plan))
    one_line_error(cli("sweep", "--resume", runs, "-j", "1", "-q"), "plan.json names a cell folder outside it")
    assert not (tmp_path / "escape").exists()


def test_a_player_count_below_one_names_the_games_counts(tmp_path):
    # before: "bad players 0; expected a whole number, 1 or more, or None for the game's
    # default": the Python API's words on the command line
    one_line_error(cli("run", "--players", "0", "--out", tmp_path / "r"),
                   "bad --players '0' for black-white; expected one of 2, 3, 4")
    r = cli("run", "--players", "3e0", "-s", "random", "--n", "10", "-j", "1", "-q", "--out", tmp_path / "r")
    assert r.exit_code == 0 and json.loads((tmp_path / "r" / "run.json").read_text())["players"] == 3


@pytest.mark.parametrize("objective,needle", [("match_rounds=-5", "a match lasts 1 to 200 rounds"),
                                              ("match_rounds=0", "a match lasts"),
                                              ("seat_spread=-1", "a seat spread's target is between 0 and 1"),
                                              ("skill=2", "skill's target"),
                                              ("first_seat_edge=1.5", "between -1 and 1")])
def test_a_tuning_target_its_figure_cannot_reach_is_refused(tmp_path, capsys, objective, needle):
    # before: accepted, and the tuning minimised the distance to it (match_rounds=-5: "8.0000")
    main_error(capsys, ["tune", "--vary", "pass_count", "--objective", objective, "--n", "100",
                        "--out", tmp_path / "t", "-q"], f"bad objective '{objective}'", needle)
    assert not (tmp_path / "t").exists()



def test_a_path_too_long_for_the_file_system_is_one_line(tmp_path, capsys):
    # before: OSError "File name too long" as a traceback, from every command
    long = tmp_path / ("x" * 300)
    for argv in (["run", "-s", "random", "--n", "10", "-j", "1", "-q", "-o", long],
                 ["sweep", "-g", "black-white", "-l", "random", "--n", "10", "-j", "1", "-q", "--runs", long],
                 ["tune", "--vary", "pass_count", "--objective", "seat_spread", "--n", "10", "-q", "-o", long]):
        main_error(capsys, argv, "File name too long", "choose a shorter path")
    assert list(tmp_path.iterdir()) == []


def test_a_sweep_cell_named_after_long_plugin_paths_gets_a_name_the_system_takes(tmp_path):
    # before: the cell's folder name joined the line-up's plugin paths past 255 bytes: a traceback
    where = tmp_path / ("d" * 100) / ("e" * 100)
    where.mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "plugins" / "good.py", where / "good.py")
    lineups = [f"{where}/good.py:lowest_card,{where}/good.py:first_or_random,{last}" for last in ("random", "high")]
    runs = tmp_path / "runs"
    r = cli("sweep", "-g", "black-white", "-l", lineups[0], "-l", lineups[1], "--n", "10", "--seed", "1", "-j", "1",
            "-q", "--runs", runs, "-o", tmp_path / "s.html")
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in runs.iterdir() if p.is_dir())
    assert len(names) == 2 and all(len(n.encode()) <= 255 for n in names) and names[0] != names[1]
    assert plans.short("black-white_3p_random") == "black-white_3p_random"  # a name that fits stays


def test_ctrl_c_while_a_report_page_is_written_leaves_no_temporary_file(tmp_path, monkeypatch):
    """A KeyboardInterrupt mid-write (not an OSError) left a hidden ``.NAME.html.tmp`` beside
    where the report was going."""
    from pathlib import Path

    from simtool.reports import balance

    real = Path.write_text

    def interrupted(self, *args, **kwargs):
        real(self, "<html>half", encoding="utf-8")
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "write_text", interrupted)
    out = tmp_path / "report.html"
    with pytest.raises(KeyboardInterrupt):
        balance.write_page(out, "<html>whole</html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
