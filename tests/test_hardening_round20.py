"""Hostile round 20: outputs of one command written into another's folder, reports named against
their format, numbers given as text from Python, a custom review's label, and numbers that are not
numbers on every command. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .test_cli import cli

TUNE = ("tune", "--game", "black-white", "--vary", "hand_size", "--objective", "seat_spread:min",
        "--trials", "2", "--n", "2000", "--seed", "1", "--jobs", "1", "-q")


@pytest.mark.parametrize("record", ["tune.json", "review.json"])
def test_tune_report_into_another_tunings_or_reviews_folder_is_refused(tmp_path, record):
    # before: exit 0, another tuning's tune.html replaced by this tuning's page (beside its
    # tune.json, which answered from other trials)
    other = tmp_path / "other"
    other.mkdir()
    (other / record).write_text("{}")
    page = other / record.replace(".json", ".html")
    r = cli(*TUNE, "--out", tmp_path / "mine", "--report", page)
    assert r.exit_code == 2, r.output
    assert len(r.output.strip().splitlines()) == 1
    assert "another" in r.output and "choose another --report" in r.output
    assert not page.exists() and not (tmp_path / "mine").exists()


def test_tune_report_in_its_own_folder_inside_a_review_still_writes(tmp_path, charts_undrawn):
    (tmp_path / "review.json").write_text("{}")
    r = cli(*TUNE, "--out", tmp_path / "mine")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "mine" / "tune.html").is_file()


@pytest.fixture(scope="module")
def bw_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("r20") / "bw"
    r = cli("run", "--game", "black-white", "--n", 200, "--seed", 1, "--jobs", 1, "-q", "--out", out)
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize("name", ["x.json", "x.csv", "x"])
def test_a_report_named_other_than_html_is_refused(bw_run, tmp_path, name):
    # before: exit 0 and an HTML page written as x.json (docs/cli.md: `-o reports/NAME.html`)
    r = cli("report", bw_run, "-o", tmp_path / name)
    assert r.exit_code == 2, r.output
    assert len(r.output.strip().splitlines()) == 1
    assert "a report is an HTML page only" in r.output and f"{tmp_path / 'x.html'}" in r.output
    assert list(tmp_path.iterdir()) == []


def test_a_sweeps_report_named_json_is_refused_before_a_cell_is_played(tmp_path):
    r = cli("sweep", "-g", "black-white", "-l", "random", "--n", 10, "-j", 1, "-q", "--runs", tmp_path / "cells",
            "-o", tmp_path / "s.json")
    assert r.exit_code == 2 and "give a name ending in .html (or .htm) for --out" in r.output, r.output
    assert not (tmp_path / "cells").exists()


@pytest.mark.parametrize("name", ["x.html", "x.HTM"])
def test_a_report_named_html_or_htm_is_written(bw_run, tmp_path, name, charts_undrawn):
    assert cli("report", bw_run, "-o", tmp_path / name).exit_code == 0
    assert (tmp_path / name).read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("call", [
    lambda s, tmp: s.run("black-white", n="50", seed=1),
    lambda s, tmp: s.ladder.climb("black-white", tmp / "l", n="50", seed=1, rungs=["random", "high"]),
    lambda s, tmp: s.restrict.measure("kansas-city", tmp / "r", n="50", seed=1),
    lambda s, tmp: s.tune.configure("black-white", ["hand_size"], ["seat_spread:min"], n="50", seed=1)])
def test_the_python_api_refuses_a_count_given_as_a_string(tmp_path, call):
    # before: simtool.run(n="50") played 50 deals, while seed="3" and players="3" were refused
    import simtool

    with pytest.raises(simtool.SimtoolError) as e:
        call(simtool, tmp_path)
    assert str(e.value) == ("bad n '50'; expected a whole number of deals (or matches), 1 or more, such as "
                            "1_000_000 or 1e6, not a string")
    assert list(tmp_path.iterdir()) == []


def test_the_python_api_still_takes_whole_numbers_and_the_command_line_text(tmp_path):
    import simtool

    assert simtool.run("black-white", n=1e2, seed=1).seats.height == 300
    assert simtool.tune.configure("black-white", ["hand_size"], ["seat_spread:min"], seed=1).n == 100_000
    r = cli("run", "--game", "black-white", "--n", "1e2", "--seed", 1, "--jobs", 1, "-q", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output


def test_a_review_of_custom_sizes_is_labelled_custom(bw_review):
    # before: review.json "effort": "quick" and the page's "Effort quick: 64 deals ...", for sizes
    # no effort plays (docs/review.md: from Python, sizes=Sizes(...) fixes them)
    out, result = bw_review
    assert result["effort"] == "custom"
    assert json.loads((out / "review.json").read_text())["effort"] == "custom"
    page = " ".join((out / "review.html").read_text().split())
    assert "Effort custom:" in page and "Effort quick" not in page


SLEEPY = '''import time
time.sleep(60)


def play(view, rng):
    return view.legal
'''


@pytest.mark.parametrize("command", [["run", "--game", "black-white", "--seat", "0={}"],
                                     ["ladder", "--game", "black-white", "--rungs", "random,{}"]])
def test_timeout_covers_a_plugins_import(tmp_path, command):
    # before: the import slept its 60 s (for ever, had it looped) whatever --timeout 0.5 said
    stopped_on_import(tmp_path, command)


def stopped_on_import(tmp_path, command: list[str]) -> None:
    """``command`` (``{}`` standing for a plugin whose import sleeps 60 s) with ``--timeout 0.5``
    stops in one line within seconds, writing nothing."""
    import time

    plugin = tmp_path / "sleepy.py"
    plugin.write_text(SLEEPY)
    argv = [a.format(f"{plugin}:play") for a in command]
    start = time.monotonic()
    r = cli(*argv, "--n", 50, "-j", 1, "-q", "--timeout", "0.5", "--out", tmp_path / "out")
    assert time.monotonic() - start < 20
    assert r.exit_code == 2, r.output
    assert r.output.strip() == (f"error: strategy plugin {plugin} took longer than 0.5 s (--timeout 0.5) to import "
                                f"(the limit covers a plugin's import as well as each decision); give a longer "
                                f"--timeout, or none")
    assert not (tmp_path / "out").exists()
    import strategies

    assert strategies.IMPORT_LIMIT.get() is None  # the command's limit ends with it


def test_timeout_covers_a_plugins_import_from_python(tmp_path):
    import simtool

    plugin = tmp_path / "sleepy.py"
    plugin.write_text(SLEEPY)
    with pytest.raises(simtool.SimtoolError, match=r"took longer than 0.5 s \(timeout=0.5\) to import"):
        simtool.run("black-white", n=50, seats={0: f"{plugin}:play"}, timeout=0.5)
    # without a limit the import takes what it takes
    import strategies

    assert strategies.IMPORT_LIMIT.get() is None


@pytest.mark.parametrize("argv, said", [
    (["run", "-g", "black-white", "--n", 10, "--lead-history", "1e400"],
     "bad --lead-history '1e400'; expected a whole number 0..9223372036854775807"),
    (["tune", "-g", "black-white", "--vary", "hand_size", "--objective", "seat_spread:min", "--n", 100,
      "--trials", "1e400"], "bad --trials '1e400'; expected a whole number at most 9223372036854775807")])
def test_a_count_past_the_largest_is_refused_not_written_400_digits_long(tmp_path, argv, said):
    # before: exit 0, run.json's "leads" (tune.json's "trials") a 401-digit number, which a JSON
    # reader of 64-bit numbers (jq, JavaScript) reads as infinity
    r = cli(*argv, "-j", 1, "-q", "--out", tmp_path / "out")
    assert r.exit_code == 2 and r.output.strip() == f"error: {said}", r.output
    assert not (tmp_path / "out").exists()


def test_a_count_past_the_largest_is_refused_from_python(tmp_path):
    import simtool

    with pytest.raises(simtool.SimtoolError, match="at most 2\\^63 - 1"):
        simtool.run("black-white", n=10, lead_history=10 ** 400)
    with pytest.raises(simtool.SimtoolError, match="at most 2\\^63 - 1"):
        simtool.tune.configure("black-white", ["hand_size"], ["seat_spread:min"], trials=2 ** 63, n=100)


@pytest.mark.parametrize("goals, said", [
    (["seat_spread", "seat_spread:max"], "--objective seat_spread is given twice, as seat_spread:min and "
                                         "seat_spread:max; give each figure one goal"),
    (["first_seat_edge", "first_seat_edge:max"],
     "--objective first_seat_edge is given twice, as first_seat_edge=0 and first_seat_edge:max; give each "
     "figure one goal")])
def test_tune_refuses_two_goals_for_one_figure(tmp_path, goals, said):
    # before: exit 0, a tuning minimising and maximising the seat spread at once: every trial on
    # its Pareto front, and a recommendation written from it
    objectives = [a for g in goals for a in ("--objective", g)]
    r = cli("tune", "-g", "black-white", "--vary", "hand_size", *objectives, "--n", 100, "-j", 1, "-q",
            "--out", tmp_path / "t")
    assert r.exit_code == 2 and r.output.strip() == f"error: {said}", r.output
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("name, folder", [("runs", False), ("sizes.json", True)])
def test_a_review_refuses_a_file_where_its_runs_folder_goes(tmp_path, name, folder):
    # before: the review wrote sizes.json beside the user's file named runs, then stopped with
    # "cannot write to folder OUT/runs/seats: Not a directory"
    out = tmp_path / "rv"
    out.mkdir()
    (out / name).mkdir() if folder else (out / name).write_text("mine")
    r = cli("review", "-g", "black-white", "-j", 1, "-q", "--seed", 1, "--out", out)
    assert r.exit_code == 2, r.output
    assert r.output.strip() == (f"error: {out} holds {name}, which no review wrote; choose a new or empty folder "
                                f"for --out (simtool never writes over other files)")
    assert [p.name for p in out.iterdir()] == [name]


@pytest.mark.parametrize("deals, said", [(10 ** 400, "deals=" + "1" + "0" * 56 + "..."), (64.0, "deals=64.0"),
                                         (2 ** 63, "deals=9223372036854775808")])
def test_a_review_refuses_sizes_past_the_largest_count_before_writing(tmp_path, deals, said):
    # before: deals=10**400 was written into sizes.json, then refused as "bad n 1000...": an
    # argument nobody gave, and a sizes.json the same review read again
    from simtool.commands.review import Sizes, review
    from simtool.errors import SimtoolError

    tiny = dict(deals=64, matches=2, restrictions=16, duplicate=8, search=2, random=64, leads=2)
    with pytest.raises(SimtoolError) as e:
        review("black-white", tmp_path / "rv", seed=1, jobs=1, sizes=Sizes(**tiny | {"deals": deals}))
    assert str(e.value).startswith(f"bad sizes {said}; expected simtool.commands.review.Sizes(")
    assert "up to 2^63 - 1" in str(e.value) and len(str(e.value)) < 400
    assert not (tmp_path / "rv").exists()


@pytest.mark.parametrize("change, said", [
    ({"objectives": ["nope"]}, "unknown objective 'nope' for black-white; valid: "),
    ({"vary": {"hand_size": [10, 99]}},
     "bad rule hand_size 99 for black-white; expected sheet or a whole number 1..32")])
def test_tune_refuses_a_changed_config_before_its_folder_is_made(tmp_path, change, said):
    # before: objectives=["nope"] refused after tune.json was written into the new folder;
    # hand_size 99 tuned, each of its trials skipped as a game that cannot be played
    import dataclasses

    import simtool

    config = simtool.tune.configure("black-white", ["hand_size=10..12"], ["seat_spread"], trials=2, n=200, seed=1)
    with pytest.raises(simtool.SimtoolError) as e:
        simtool.tune.tune(dataclasses.replace(config, **change), tmp_path / "t")
    assert str(e.value).startswith(said)
    assert not (tmp_path / "t").exists()


def test_the_same_review_gone_on_from_the_command_line_keeps_the_custom_label(bw_review, tmp_path):
    # before: `simtool review` in the folder of a review of given sizes went on with its
    # sizes.json (64 deals) and labelled it "Effort quick"
    import shutil

    from .conftest import REVIEW

    done, result = bw_review
    assert result["effort"] == "custom"
    out = tmp_path / "rv"  # a copy of a review of given sizes (REVIEW's), whose page this one rewrites
    shutil.copytree(done, out, ignore=shutil.ignore_patterns("review.json", "review.html"))
    r = cli("review", "-g", "black-white", "--out", out, "-j", 1, "-q")
    assert r.exit_code == 0, r.output
    again = json.loads((out / "review.json").read_text())
    assert again["effort"] == "custom" and again["sizes"]["deals"] == REVIEW["deals"]
    assert again["seed"] == result["seed"] and again["questions"] == result["questions"]


IMPORTS = {  # what a plugin's import changed, and what became of the run before
    "chdir": "os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'elsewhere'))",  # not found
    "umask": "os.umask(0o777)",  # run.json and seats.parquet of mode 000
    "environ": "os.environ['POLARS_MAX_THREADS'] = '0'",  # polars' panic, exit 1
    # a limit a little above the import's own depth, which differs under xdist (60 was below it there)
    "recursion": "import sys, inspect\nsys.setrecursionlimit(len(inspect.stack()) + 25)"}  # a traceback, exit 1


@pytest.mark.parametrize("change", sorted(IMPORTS))
def test_what_a_plugins_import_changes_in_the_process_is_put_back(tmp_path, monkeypatch, change):
    import os

    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "mover.py").write_text(f"import os\n{IMPORTS[change]}\nfrom simtool import bits\n\n\n"
                                       f"def play(view, rng):\n    return bits.lowest(view.legal)\n")
    monkeypatch.chdir(tmp_path)
    limit, mask, threads = sys.getrecursionlimit(), os.umask(0o022), os.environ.get("POLARS_MAX_THREADS")
    os.umask(mask)
    r = cli("run", "-g", "black-white", "--n", 10, "-j", 1, "-q", "--seed", 1, "--seat", "0=mover.py:play",
            "--out", "r")
    assert r.exit_code == 0, r.output
    assert list((tmp_path / "elsewhere").iterdir()) == [] and Path.cwd() == tmp_path
    for table in ("run.json", "seats.parquet"):
        assert (tmp_path / "r" / table).stat().st_mode & 0o444 == 0o444 & ~mask
    assert os.environ.get("POLARS_MAX_THREADS") == threads and sys.getrecursionlimit() == limit
