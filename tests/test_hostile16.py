"""Hostile round 16 (the 22nd): review --vs-rule/--baseline, hand-edited folders, rule values at
the edges, the Python API's argument types, interruption and plugins that misbehave in new
ways. Each test failed on the code before its fix."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from simtool.commands.review import Sizes
from simtool.errors import SimtoolError
from tests.test_hardening_round21 import one_line

ROOT = Path(__file__).resolve().parents[1]
TINY = Sizes(deals=1024, matches=16, restrictions=256, duplicate=64, search=8, random=0, leads=0)
"""A review of Black & White in about a second."""
BASE = Sizes(deals=256, matches=8, restrictions=64, duplicate=8, search=1, random=0, leads=0)
"""The baseline the edited-record tests copy: they refuse it before playing, or (the untouched
one) play it again, so its sizes are the one review's here played twice; a quarter of TINY's
deals and one search deal (not 8) still fill every question the edits reach (search seats,
tension's table, luck's parts)."""


def simtool(*args, cwd: Path, timeout: float = 120, memory: int | None = None) -> subprocess.CompletedProcess:
    """The real command line in a process of its own, as a user runs it (``memory``: the most
    bytes of address space it may take)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    environ = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-c", "import sys; from simtool.cli import main; sys.exit(main())",
                           *map(str, args)], cwd=cwd, env=environ, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limit if memory else None)


@pytest.fixture
def in_process(monkeypatch, capsys):
    """simtool's ``main`` called here, in ``cwd``, as :func:`simtool` runs it in a process of its
    own (for the tests of what a command says of its arguments: no process of their own needed,
    and starting one took 0.5 s each)."""
    from simtool.cli import main

    def call(*args, cwd: Path) -> subprocess.CompletedProcess:
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)

    return call


def within(seconds: float, call):
    """``call()``'s result or exception, failing the test where it has not returned in time (a
    read that waits for ever must not hang the suite: the thread is a daemon)."""
    found = {}

    def target():
        try:
            found["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test as it was raised
            found["raised"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s"
    if "raised" in found:
        raise found["raised"]
    return found["value"]


# --- records that are pipes or devices -----------------------------------------------------


def test_a_baseline_review_json_that_is_a_pipe_is_one_line(tmp_path):
    # before: a pipe named review.json was waited on for ever (the command never ended)
    from simtool.commands.review import review

    base = tmp_path / "base"
    base.mkdir()
    os.mkfifo(base / "review.json")
    with pytest.raises(SimtoolError, match="review.json is not a regular file"):
        within(30, lambda: review("black-white", tmp_path / "out", baseline=base, sizes=TINY, jobs=1))
    assert not (tmp_path / "out").exists()


def test_a_baseline_review_json_that_leads_to_a_device_is_one_line(tmp_path):
    # before: a link to /dev/zero was read until memory ran out ("error: out of memory", under
    # the limit this test sets so as not to take the machine's)
    base = tmp_path / "base"
    base.mkdir()
    (base / "review.json").symlink_to("/dev/zero")
    r = simtool("review", "--game", "black-white", "--baseline", base, "--out", tmp_path / "out", "--jobs", 1,
                cwd=tmp_path, memory=2 << 30)
    one_line(r, "review.json is not a regular file")
    assert not (tmp_path / "out").exists()


def test_a_pipe_named_sizes_json_in_the_review_folder_is_refused(tmp_path):
    # before: the review waited for ever on the pipe, reading its saved sizes
    from simtool.commands.review import review

    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "sizes.json")
    with pytest.raises(SimtoolError, match="holds sizes.json, which no review wrote"):
        within(30, lambda: review("black-white", out, sizes=TINY, jobs=1, seed=1))
    assert sorted(p.name for p in out.iterdir()) == ["sizes.json"]


def test_a_run_folder_whose_writer_record_is_a_pipe_is_one_line(tmp_path):
    # before: the report waited for ever reading chunks/writer.json to say whose run it was
    from simtool.pipeline.folders import read_meta

    (tmp_path / "r" / "chunks").mkdir(parents=True)
    os.mkfifo(tmp_path / "r" / "chunks" / "writer.json")
    with pytest.raises(SimtoolError, match="not a finished run folder"):
        within(30, lambda: read_meta(tmp_path / "r"))


# --- the Python API's arguments ------------------------------------------------------------


@pytest.mark.parametrize("call", ["run", "review", "baseline", "ladder", "restrict"])
def test_a_folder_with_a_nul_character_is_one_line(tmp_path, call):
    # before: ValueError: embedded null byte, a traceback from the first os.stat (a review's
    # baseline read "/tmp/a b/review.json is not readable JSON", the NUL printed as nothing)
    import simtool

    bad = str(tmp_path / "a\0b")
    calls = {"run": lambda: simtool.run("black-white", n=10, out=bad),
             "review": lambda: simtool.review.review("black-white", bad, sizes=TINY, jobs=1),
             "baseline": lambda: simtool.review.review("black-white", tmp_path / "o", baseline=bad, sizes=TINY),
             "ladder": lambda: simtool.ladder.climb("black-white", bad, n=100),
             "restrict": lambda: simtool.restrict.measure("black-white", bad, n=100)}
    with pytest.raises(SimtoolError, match="without a NUL character"):
        calls[call]()
    assert list(tmp_path.iterdir()) == []


def test_a_review_effort_that_is_not_text_is_one_line(tmp_path):
    # before: TypeError: unhashable type: 'list'
    from simtool.commands.review import review

    with pytest.raises(SimtoolError, match=r"unknown effort \['quick'\]; valid: quick, standard, thorough"):
        review("black-white", tmp_path / "o", effort=["quick"], jobs=1)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("table", [[np.int64(5), np.int64(5), np.int64(0)], np.array([5, 5, 0]), ("5", "5", "0")])
def test_a_score_table_of_numpy_numbers_is_read_as_its_numbers(table):
    # before: 'bad rule score_table [np.int64(5), ...]; expected ... 2-15 whole numbers' (its text
    # read, numpy 2's repr), where deck=np.int64(30) was taken; an array's text "[5 5 0]" likewise
    import simtool

    mine = simtool.run("kansas-city", n=64, seed=3, rules={"score_table": table})
    plain = simtool.run("kansas-city", n=64, seed=3, rules={"score_table": "5,5,0"})
    assert mine.meta["rules"]["score_table"] == "5,5,0"
    assert mine.seats.equals(plain.seats)


# --- review --baseline: a review.json edited by hand ---------------------------------------


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    from simtool.commands.review import review

    folder = tmp_path_factory.mktemp("baseline") / "b"
    review("black-white", folder, sizes=BASE, seed=1, jobs=1)
    return folder


def edited(baseline: Path, where: Path, change, record: str = "review.json") -> Path:
    """A copy of the folder ``baseline`` at ``where`` whose ``record`` was changed by ``change``."""
    import json
    import shutil

    shutil.copytree(baseline, where)
    data = json.loads((where / record).read_text())
    change(data)
    (where / record).write_text(json.dumps(data))
    return where


@pytest.mark.parametrize(("name", "change"), [
    ("seat 99", lambda d: d["questions"]["seats"]["seats"][2].update(seat=99)),
    ("seat as text", lambda d: d["questions"]["seats"]["seats"][2].update(seat="2")),
    ("seat -1", lambda d: d["questions"]["seats"]["seats"][2].update(seat=-1)),
    ("search seat 99", lambda d: d["questions"]["seats"]["search"]["seats"][0].update(seat=99, edge_pts=50)),
    ("rules as a list", lambda d: d.update(rules=[1])),
    ("plays null", lambda d: d.update(plays=None)),
    ("metrics as text", lambda d: d.update(metrics="x")),
    ("players as text", lambda d: d.update(players="3")),
    ("seed past 2**128", lambda d: d.update(seed=2 ** 200)),
])
def test_a_baseline_edited_where_the_changes_and_the_page_read_it_is_refused_first(tmp_path, baseline, name, change):
    # before, once everything was played: IndexError from the paired seat edges (seat 99, "2"; -1
    # paired the last seat's deals), an error of the page's template (rules [1]), AttributeError
    # (plays null, metrics "x"), "a different player count: 3 against 3" (players "3"), "bad seed
    # 1606...", naming no file
    from simtool.commands.review import review

    base = edited(baseline, tmp_path / "b", change)
    with pytest.raises(SimtoolError, match=r"review.json is not a whole simtool review"):
        review("black-white", tmp_path / "o", baseline=base, jobs=1)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(("name", "change"), [
    ("a count as text", lambda d: d["questions"]["seats"].update(n="x")),
    ("a verdict as a list", lambda d: d["questions"]["seats"].update(verdict=[])),
    ("luck's parts null", lambda d: d["questions"]["luck"].update(parts=None)),
    ("an interval null", lambda d: d["questions"]["tension"]["table"][0].update(ci=None)),
    ("partners a number", lambda d: d["questions"]["seats"].update(partners=-1)),
    ("a share as text", lambda d: d["questions"]["seats"]["seats"][0].update(share="x")),
])
def test_a_baseline_the_page_cannot_show_is_refused_before_anything_is_played(tmp_path, baseline, name, change):
    # before: the review played every question, then stopped in a TypeError, ValueError or
    # UndefinedError of the page's template reading the baseline's column (seen changing each
    # value of a review.json in turn)
    from simtool.commands.review import review

    base = edited(baseline, tmp_path / "b", change)
    with pytest.raises(SimtoolError, match=r"review.json is not a whole simtool review"):
        review("black-white", tmp_path / "o", baseline=base, jobs=1)
    assert not (tmp_path / "o").exists()


def test_an_untouched_baseline_is_still_compared(tmp_path, baseline):
    import shutil

    from simtool.commands.review import review

    # a review given a baseline plays the baseline's seed and sizes: the very runs its folder holds,
    # copied in rather than played again (1.9 s of CPU; the review, its changes and page are those of
    # the review that plays them); what is read is whether the untouched record is compared
    shutil.copytree(baseline, tmp_path / "o", ignore=shutil.ignore_patterns("review.json", "review.html"))
    result = review("black-white", tmp_path / "o", baseline=baseline, jobs=1)
    assert result["comparison"]["possible"] and result["changes"]
    assert (tmp_path / "o" / "review.html").is_file()


# --- simtool report and metrics on a run.json edited by hand --------------------------------


@pytest.fixture(scope="module")
def leads_run(tmp_path_factory) -> Path:
    import simtool

    # Black & White's matches, not Kansas City's: the tests edit the run.json a lead history and
    # a match table write (files, lead_history), the same in both; one Kansas City match
    # observed took 5 s, one of Black & White 1
    folder = tmp_path_factory.mktemp("leads") / "r"
    simtool.run("black-white", n=8, seed=1, unit="match", lead_history=2, out=folder)
    return folder


def edited_run(run: Path, where: Path, change) -> Path:
    return edited(run, where, change, "run.json")


@pytest.mark.parametrize("name", [[], {}])
def test_a_run_json_listing_a_file_that_is_no_name_is_one_line(tmp_path, leads_run, name):
    # before: TypeError: unhashable type: 'list' from the checksum check (report and metrics)
    import simtool
    from simtool.reports import balance

    run = edited_run(leads_run, tmp_path / "r", lambda d: d["files"].__setitem__(0, name))
    with pytest.raises(SimtoolError, match="not what its run.json records"):
        balance.write([run], tmp_path / "page.html", "t")
    with pytest.raises(SimtoolError, match="not what its run.json records"):
        simtool.metrics(run)
    assert not (tmp_path / "page.html").exists()


@pytest.mark.parametrize("estimator", [None, "x"])
def test_a_run_json_whose_lead_estimators_are_not_an_object_is_one_line(tmp_path, leads_run, estimator):
    # before: simtool.metrics raised AttributeError: 'NoneType' object has no attribute 'items'
    import simtool

    run = edited_run(leads_run, tmp_path / "r", lambda d: d["lead_history"].update(estimator=estimator))
    with pytest.raises(SimtoolError, match="'lead_history' is .*which no simtool run writes"):
        simtool.metrics(run)


def test_the_metrics_of_an_untouched_lead_history_are_read(leads_run):
    import simtool

    assert simtool.metrics(leads_run)


# --- a review's sizes.json edited by hand ---------------------------------------------------


@pytest.mark.parametrize(("name", "change"), [
    ("no seed", lambda d: d.pop("seed")),
    ("pilot as text", lambda d: d.update(pilot_seconds_per_unit="x")),
    ("pilot empty", lambda d: d.update(pilot_seconds_per_unit={})),
])
def test_a_review_folder_whose_sizes_json_was_edited_is_one_line(tmp_path, baseline, name, change):
    # before, running the same review again there: KeyError: 'seed' (check_going_on), or
    # AttributeError: 'str' object has no attribute 'get' / KeyError: 'deal' pricing the sizes
    import json
    import shutil

    from simtool.commands.review import review

    out = tmp_path / "o"
    shutil.copytree(baseline, out)
    data = json.loads((out / "sizes.json").read_text())
    change(data)
    (out / "sizes.json").write_text(json.dumps(data))
    with pytest.raises(SimtoolError, match="holds the runs of another review, or of one whose sizes.json is missing"):
        review("black-white", out, jobs=1)


def test_a_piloted_review_goes_on_with_its_saved_sizes(tmp_path):
    from simtool.commands.review import setup

    first = setup("black-white", tmp_path / "o", seed=1)
    again = setup("black-white", tmp_path / "o")
    assert again.piloted and again.sizes == first.sizes and again.seed == 1


# --- a plan.json (a review's question, a sweep's runs) that is not what simtool wrote ---------


def test_a_pipe_named_plan_json_in_a_review_is_one_line(tmp_path, baseline):
    # before: running the review again waited for ever reading runs/skill/plan.json
    import shutil

    from simtool.commands.review import review

    out = tmp_path / "o"
    shutil.copytree(baseline, out)
    (out / "runs" / "skill" / "plan.json").unlink()
    os.mkfifo(out / "runs" / "skill" / "plan.json")
    with pytest.raises(SimtoolError, match="plan.json is not a simtool plan"):
        within(30, lambda: review("black-white", out, jobs=1))


def test_a_plan_json_whose_command_is_a_list_raises_no_type_error(tmp_path, baseline):
    # before: TypeError: unhashable type: 'list', running the review again there, and from
    # simtool.run(out=OUT/runs/seats/new) asking whose runs the folder holds
    import json
    import shutil

    import simtool
    from simtool.commands.review import review

    for copy in ("a", "b"):
        shutil.copytree(baseline, tmp_path / copy)
        plan = tmp_path / copy / "runs" / "seats" / "plan.json"
        plan.write_text(json.dumps({**json.loads(plan.read_text()), "command": []}))
    # whose runs these are cannot be told from it: a run may go there
    assert simtool.run("black-white", n=10, seed=1, out=tmp_path / "a" / "runs" / "seats" / "new").meta["n"] == 10
    # the review's runs are its own still: it goes on, and its plan names it again
    assert review("black-white", tmp_path / "b", jobs=1)["questions"]
    with pytest.raises(SimtoolError, match="is in the runs of a review"):
        simtool.run("black-white", n=10, seed=1, out=tmp_path / "b" / "runs" / "seats" / "new")


@pytest.mark.parametrize("rungs", [[], ()])
def test_an_empty_list_of_rungs_is_refused_not_read_as_the_default_ladder(tmp_path, rungs):
    # before: rungs=[] played the game's default ladder (random, its heuristics, pimc), as None
    # does, where restrict.measure(restrictions=[]) says it names no restriction
    import simtool

    with pytest.raises(SimtoolError, match=r"bad rungs \[\]: it names no rung \(empty\)"):
        simtool.ladder.climb("black-white", tmp_path / "l", n=100, seed=1, rungs=rungs, jobs=1)
    assert not (tmp_path / "l").exists()


def test_metrics_of_a_dict_of_results_is_one_short_line():
    # before: 'bad sources {'a': Result(spec=..., meta=..., seats=shape: (30, 8) ...' over some
    # thirty lines, the result's whole repr with its tables
    import simtool

    result = simtool.run("black-white", n=10, seed=1)
    with pytest.raises(SimtoolError) as caught:
        simtool.metrics({"a": result})
    text = str(caught.value)
    assert "\n" not in text and len(text) < 200 and text.startswith("bad sources {'a': Result("), text


def test_an_effort_or_trials_of_an_array_is_quoted_on_one_line(tmp_path):
    # before: 'unknown effort array([[   0,    1, ...' and 'bad trials array(...' over forty lines
    import simtool
    from simtool.commands.review import review

    big = np.arange(2000).reshape(40, 50)
    with pytest.raises(SimtoolError) as effort:
        review("black-white", tmp_path / "o", effort=big)
    with pytest.raises(SimtoolError) as trials:
        simtool.tune.configure("kansas-city", ["pass_count"], ["seat_spread"], trials=big)
    for caught, start in ((effort, "unknown effort array("), (trials, "bad trials array(")):
        text = str(caught.value)
        assert "\n" not in text and len(text) < 200 and text.startswith(start), text


# --- plugins that misbehave in new ways ----------------------------------------------------

RAISES_OVERTIME = '''
from simtool.engine import Overtime


def x(view, rng):
    raise Overtime
'''


def test_a_plugin_raising_simtools_overtime_without_a_timeout_is_its_own_error(tmp_path):
    # before: "strategy 'ot.py:x' did not return within --timeout  s", a timeout nobody gave;
    # raised as the plugin is imported, a TypeError traceback formatting the missing limit
    import simtool

    (tmp_path / "ot.py").write_text(RAISES_OVERTIME)
    with pytest.raises(SimtoolError, match=r"strategy 'ot.py:x' raised Overtime \(decision 'lead'"):
        simtool.run("black-white", n=30, seed=1, seats={0: f"{tmp_path / 'ot.py'}:x"})
    (tmp_path / "ot_import.py").write_text(RAISES_OVERTIME.replace("\n\ndef x", "raise Overtime\n\n\ndef x"))
    with pytest.raises(SimtoolError, match=r"ot_import.py failed to load: Overtime$"):
        simtool.run("black-white", n=30, seed=1, seats={0: f"{tmp_path / 'ot_import.py'}:x"})


FORGES = '''
from simtool import engine


def blames_the_game(view, rng):
    raise engine.GameError("game 'black-white' dealt a card twice: the game's bug, not mine")


def blames_a_seat(view, rng):
    raise engine.StrategyError("strategy 'balance' chose the illegal option card 9")


def blames_the_timer(view, rng):
    raise engine.TimerError("--timeout needs a system with SIGALRM timers")
'''


@pytest.mark.parametrize(("name", "raised"), [("blames_the_game", "GameError"), ("blames_a_seat", "StrategyError"),
                                              ("blames_the_timer", "TimerError")])
def test_a_plugin_raising_simtools_own_errors_is_named_as_their_author(tmp_path, name, raised):
    # before: the plugin's words were the run's error as they stood: "game 'black-white' dealt a
    # card twice ...", "strategy 'balance' chose the illegal option card 9", blaming the game or
    # another seat (a bot contest's entry could frame another)
    import simtool

    (tmp_path / "forges.py").write_text(FORGES)
    with pytest.raises(SimtoolError) as caught:
        simtool.run("black-white", n=30, seed=1, seats={0: f"{tmp_path / 'forges.py'}:{name}"})
    assert str(caught.value).startswith(f"strategy 'forges.py:{name}' raised {raised}: "), str(caught.value)


# --- interruption --------------------------------------------------------------------------


def test_a_review_stopped_before_it_played_says_nothing_was_kept(tmp_path, monkeypatch):
    # before: Ctrl-C in the pilot (before OUT/runs exists) said 'interrupted; finished chunks are
    # kept in OUT/runs: run the same simtool review again to go on', of a folder that was not there
    from simtool.commands import review as reviews

    from .test_cli import cli

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(reviews, "review", stopped)
    r = cli("review", "--game", "black-white", "--out", tmp_path / "o", "--quiet")
    assert r.exit_code == 130 and "interrupted; no result was written" in r.output, r.output
    (tmp_path / "p" / "runs").mkdir(parents=True)
    r = cli("review", "--game", "black-white", "--out", tmp_path / "p", "--quiet")
    assert r.exit_code == 130 and "finished chunks are kept in" in r.output, r.output


def test_a_blank_baseline_on_the_command_line_is_refused_not_read_as_the_working_folder(tmp_path, baseline, in_process):
    # before: --baseline "" (an unset "$BASE") was Path(""), the working folder: run inside a
    # review's folder it compared with that review without a word
    r = in_process("review", "--game", "black-white", "--out", tmp_path / "o", "--baseline", "", "--jobs", "1",
                   "--quiet", cwd=baseline)
    one_line(r, "bad --baseline ''; expected a folder path")
    assert not (tmp_path / "o").exists()


def test_a_blank_run_folder_given_to_report_is_refused_not_read_as_the_working_folder(tmp_path, leads_run, in_process):
    # before: simtool report "" (an unset "$RUN") inside a run folder reported that run, exit 0
    r = in_process("report", "", "-o", tmp_path / "page.html", cwd=leads_run)
    one_line(r, "bad run folder ''; expected a folder path")
    assert not (tmp_path / "page.html").exists()


def test_a_replay_of_a_deal_past_every_run_is_quoted_short(tmp_path, in_process):
    # before: 'bad --deal 1000...000; expected a deal number ...', the number in its 401 digits
    r = in_process("replay", "--game", "black-white", "--seed", "1", "--deal", "1e400", cwd=tmp_path)
    text = one_line(r, "bad --deal 100", "...; expected a deal number 0 to 9223372036854775806")
    assert len(text) < 150, text
