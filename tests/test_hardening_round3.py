"""Hostile round 3: what a careless or malicious user does to the checksums, plans, the infer
parameter and the command line added this session."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest

import simtool

from .conftest import undrawn_charts
from .test_cli import cli, one_line_error
from .test_data_safety import N, interrupted_run

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts


def fresh_seats() -> pl.DataFrame:
    return simtool.run("black-white", n=N, seed=3, jobs=1, strategy="random").seats


def resumed(out, jobs: str = "1"):
    return cli("run", "--resume", out, "-q", "--jobs", jobs)


@pytest.mark.parametrize("damage", ["garbage", "list", "ints", "dir", "empty", "huge"])
def test_a_damaged_checksum_file_replays_its_chunk(tmp_path, small_chunks, damage):
    out = tmp_path / "run"
    interrupted_run(out, 3)
    sums = out / "chunks" / "sums-000001.json"
    if damage == "dir":
        sums.unlink()
        sums.mkdir()
        (sums / "x").write_text("x")
    else:
        sums.write_text({"garbage": "{not json", "list": "[1, 2]", "empty": "",
                         "ints": json.dumps({"seats": 5}),
                         "huge": " " * 5_000_000 + "{}"}[damage])
    r = resumed(out)
    assert r.exit_code == 0, r.output
    assert pl.read_parquet(out / "seats.parquet").equals(fresh_seats())


def test_a_damaged_chunk_whose_aside_name_is_a_folder_is_one_line(tmp_path, small_chunks):
    # failed before: IsADirectoryError raised out of the command (a traceback)
    out = tmp_path / "run"
    interrupted_run(out, 3)
    (out / "chunks" / "sums-000001.json").write_text("{}")
    (out / "chunks" / "seats-000001.parquet.damaged").mkdir()
    r = resumed(out)
    assert r.exit_code == 2, (r.output, r.exception)
    assert "seats-000001.parquet.damaged" in r.output and len(r.output.strip().splitlines()) == 1
    assert (out / "chunks" / "seats-000001.parquet").is_file()  # nothing lost: resumable once moved
    (out / "chunks" / "seats-000001.parquet.damaged").rmdir()
    assert resumed(out).exit_code == 0
    assert pl.read_parquet(out / "seats.parquet").equals(fresh_seats())


def test_a_match_chunk_whose_matches_file_is_gone_is_played_again(tmp_path, small_chunks):
    out = tmp_path / "run"
    def stop(done, total):
        if done == 2:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        simtool.run("black-white", n=3000, seed=3, jobs=1, out=out, progress=stop, strategy="random", unit="match")
    (out / "chunks" / "matches-000001.parquet").unlink()
    r = resumed(out)
    assert r.exit_code == 0, r.output
    fresh = simtool.run("black-white", n=3000, seed=3, jobs=1, strategy="random", unit="match")
    assert pl.read_parquet(out / "seats.parquet").equals(fresh.seats)
    assert pl.read_parquet(out / "matches.parquet").equals(fresh.matches)


# 300 deals, not 3000: its tests read which cells are kept or played again and what the plan says,
# never a figure; each played the sweep again, a cell afresh in most
SWEEP = ["sweep", "-g", "black-white", "-l", "random", "-l", "high", "--n", "300", "--seed", "5", "-j", "1", "-q"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """The cells of :data:`SWEEP`, played once for the module: each test changes a copy (its report's
    charts undrawn too: a module's fixture is made before the tests' ``charts_undrawn``)."""
    runs = tmp_path_factory.mktemp("swept") / "cells"
    with undrawn_charts():
        assert cli(*SWEEP, "--runs", runs, "-o", runs.parent / "s.html").exit_code == 0
    return runs


@pytest.mark.parametrize("meta_change", [{"sha256": "abc"}, {"sha256": ["x"]}, {"files": 5},
                                         {"files": [5]}, {"files": []}, {"files": "seats.parquet"},
                                         {"sha256": {"seats.parquet": 5}}, {"files": None}])
def test_a_kept_cell_with_checksums_changed_by_hand_is_played_again(tmp_path, swept, meta_change):
    # failed before: sha256 of another type, or files emptied, kept the changed table (silently
    # wrong figures); files of another type raised TypeError out of the command
    runs = tmp_path / "cells"
    shutil.copytree(swept, runs)  # as the sweep left them (no path of its own is written in them)
    tables = sorted(runs.rglob("seats.parquet"))
    before = {t: t.read_bytes() for t in tables}
    table = tables[0]
    pl.read_parquet(table).with_columns(pl.col("score") + 1).write_parquet(table)
    meta_file = table.parent / "run.json"
    meta = json.loads(meta_file.read_text())
    meta.update(meta_change)
    meta_file.write_text(json.dumps(meta))
    r = cli(*SWEEP, "--runs", runs, "-o", tmp_path / "s.html")
    assert r.exit_code == 0, (r.output, r.exception)
    assert {t: t.read_bytes() for t in tables} == before  # played again, not kept


def strength_plan(runs):
    from simtool.commands import strength as command
    from simtool.commands.plans import make_plan

    cells = command.plan(["black-white"], 64, 3)
    return make_plan([s for s, _ in cells], runs, command="strength",
                     extra=[{"strength": r, "params": command.params(s)} for s, r in cells])


def old_plan(runs, cells):
    from simtool.pipeline.executor import PLAN

    runs.mkdir(parents=True, exist_ok=True)
    (runs / PLAN).write_text(json.dumps({"command": "strength", "cells": cells}))


@pytest.mark.parametrize("where", ["relative", "absolute"])
def test_an_old_strength_plan_never_removes_a_folder_outside_the_runs(tmp_path, where):
    from simtool.commands import strength as command
    from simtool.pipeline.executor import plan_record

    precious = tmp_path / "precious"
    simtool.run("black-white", n=200, seed=1, jobs=1, strategy="random", out=precious)
    runs = tmp_path / "runs"
    whole = strength_plan(runs)
    cells = json.loads(json.dumps(plan_record(whole)["cells"], default=str))
    name = "../precious" if where == "relative" else str(precious)
    old_plan(runs, [*cells, {**cells[0], "folder": name}])
    said = []
    command.replace_plan(whole, said.append)
    assert (precious / "run.json").is_file() and (precious / "seats.parquet").is_file(), said


@pytest.mark.parametrize("folder", [5, None, [1], "", "."])
def test_an_old_strength_plan_with_odd_folder_names(tmp_path, folder):
    from simtool.commands import strength as command
    from simtool.pipeline.executor import plan_record

    runs = tmp_path / "runs"
    whole = strength_plan(runs)
    cells = json.loads(json.dumps(plan_record(whole)["cells"], default=str))
    old_plan(runs, [*cells, {**cells[0], "folder": folder}])
    command.replace_plan(whole, lambda line: None)
    assert runs.is_dir()


def test_a_replaced_strength_plan_interrupted_does_not_resume_old_chunks(tmp_path, small_chunks):
    from simtool.commands import strength as command
    from simtool.pipeline.executor import hold_plan, plan_record
    from simtool.pipeline.folders import let_go

    runs = tmp_path / "runs"
    whole = strength_plan(runs)
    cells = json.loads(json.dumps(plan_record(whole)["cells"], default=str))
    last = cells[-1]["folder"]
    interrupted_run(runs / last, 2)  # the old plan's cell, played with other parameters
    old = [*cells[:-1], {**cells[-1], "extra": {**cells[-1]["extra"], "params": {"pimc": {"samples": 1}}}}]
    old_plan(runs, old)
    assert command.replace_plan(whole, lambda line: None) == {last}
    let_go(hold_plan(whole))
    # interrupted before the last cell is played: the next call sees its own plan
    assert command.replace_plan(whole, lambda line: None) == set()
    from simtool.pipeline.folders import run_kind
    assert run_kind(runs / last) != "interrupted"


def test_a_strength_cell_folder_replaced_by_a_file_is_one_line(tmp_path):
    from simtool.commands import strength as command
    from simtool.errors import SimtoolError
    from simtool.pipeline.executor import hold_plan
    from simtool.pipeline.folders import let_go

    runs = tmp_path / "runs"
    whole = strength_plan(runs)
    let_go(hold_plan(whole))
    whole.cells[0].folder.write_text("my notes")
    with pytest.raises(SimtoolError) as refused:
        command.measure(runs, ["black-white"], n=64, seed=3, jobs=1, say=lambda line: None)
    assert "\n" not in str(refused.value)
    assert whole.cells[0].folder.read_text() == "my notes"


def test_make_strength_refuses_a_garbage_plan_in_one_line(tmp_path):
    from simtool.commands import strength as command
    from simtool.errors import SimtoolError

    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "plan.json").write_text("garbage")
    with pytest.raises(SimtoolError, match="not a simtool plan"):
        command.measure(runs, ["black-white"], n=64, seed=3, jobs=1, say=lambda line: None)
    assert (runs / "plan.json").read_text() == "garbage"


BELIEVER = '''
from simtool import bits


def _other(view, k, rng, draw):
    rng.random(5)  # worlds of another stream than view.redeal's: results tell it was used
    return view.redeal(k, rng)


def _raising(view, k, rng, draw):
    raise RuntimeError("boom from redeal")


def choose(view, rng):
    return bits.lowest(view.legal)


def raising(view, rng):
    return bits.lowest(view.legal)


choose.redeal = _other
raising.redeal = _raising
'''


def believer(tmp_path):
    """A plugin play-out policy that offers a belief, in a folder with a space and an accent."""
    folder = tmp_path / "my plugins é"
    folder.mkdir()
    (folder / "believer é.py").write_text(BELIEVER)
    return folder / "believer é.py"


def test_an_isolated_play_out_policy_s_belief_is_refused_not_dropped(tmp_path):
    # failed before: under --isolate the plugin's belief was silently left out (the game's default
    # infer=3 in Out-Trumped), and the tables differed from the same run in-process
    seat = f"0=pimc@playout={believer(tmp_path)}:choose"
    # 2 deals, not 6: each run is a pimc seat's play-outs through the plugin (in its own process
    # under --isolate), and the first deal's decisions already tell the two tables apart
    run = ["run", "-g", "out-trumped", "-n", "2", "-j", "1", "-q", "--seed", "1", "--seat"]
    assert cli(*run, seat, "--out", tmp_path / "in").exit_code == 0
    one_line_error(cli(*run, seat, "--isolate", "--out", tmp_path / "iso"),
                   "under --isolate", "choose infer=0")
    assert not (tmp_path / "iso" / "seats.parquet").exists()
    for where, extra in (("in0", ()), ("iso0", ("--isolate",))):
        assert cli(*run, seat + ",infer=0", *extra, "--out", tmp_path / where).exit_code == 0
    assert pl.read_parquet(tmp_path / "in0" / "seats.parquet").equals(
        pl.read_parquet(tmp_path / "iso0" / "seats.parquet"))


def test_a_belief_that_raises_stops_the_run_in_one_line(tmp_path):
    one_line_error(cli("run", "-g", "out-trumped", "-n", "24", "-j", "1", "-q", "--seed", "1", "--seat",
                       f"0=pimc@playout={believer(tmp_path)}:raising,infer=2", "--out", tmp_path / "o"),
                   "boom from redeal")


@pytest.mark.parametrize("entry,needle", [
    ("pimc@infer=-1", "expected a whole number 0..64"), ("pimc@infer=65", "expected a whole number 0..64"),
    ("pimc@infer=x", "expected a whole number 0..64"), ("pimc@infer=1.5", "expected a whole number 0..64"),
    ("clairvoyant@infer=2", "unknown parameter 'infer'"),
    ("pimc@playout=random,infer=2", "offers no belief"),
])
def test_bad_infer_values_are_refused(entry, needle):
    import strategies
    from simtool.errors import SimtoolError

    with pytest.raises(SimtoolError, match=needle):
        strategies.resolve(entry, "out-trumped")


def test_a_quiet_run_prints_a_folder_its_terminal_cannot_encode(tmp_path):
    # failed before: the run was written, then `print` raised UnicodeEncodeError (a traceback, exit 1)
    import os
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "dossier é"
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "simtool.cli", "run", "-n", "50", "-j", "1", "-q", "-s",
                           "random", "--seed", "1", "--out", str(out)], capture_output=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert done.stdout == os.fsencode(out) + b"\n"
    assert (out / "run.json").is_file()


def ends_or_unblocked(call, pipe, seconds: float = 60.0):
    """``call()`` in a thread; if it is still reading ``pipe`` after ``seconds`` (the code
    before blocked there for ever), a writer opens and closes the pipe so that it ends, and the
    test fails."""
    import os
    import threading

    box = {}
    thread = threading.Thread(target=lambda: box.update(result=call()), daemon=True)
    thread.start()
    thread.join(seconds)
    hung = thread.is_alive()
    while thread.is_alive():
        try:
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
        thread.join(1.0)
    assert not hung, f"blocked reading {pipe}"
    return box["result"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_checksum_file_replaced_by_a_pipe_is_not_read(tmp_path, small_chunks, jobs):
    # failed before: the resume read the pipe and waited for ever
    import os

    out = tmp_path / "run"
    interrupted_run(out, 3)
    sums = out / "chunks" / "sums-000001.json"
    sums.unlink()
    os.mkfifo(sums)
    r = ends_or_unblocked(lambda: resumed(out, jobs), sums, 30.0)
    assert r.exit_code == 0, r.output
    assert pl.read_parquet(out / "seats.parquet").equals(fresh_seats())


def test_a_run_json_naming_other_files_is_not_read(tmp_path):
    # failed before: the kept cell's check read whatever run.json named (a pipe: for ever)
    import os

    runs = tmp_path / "cells"
    assert cli(*SWEEP, "--runs", runs, "-o", tmp_path / "s.html").exit_code == 0
    table = sorted(runs.rglob("seats.parquet"))[0]
    before = table.read_bytes()
    pl.read_parquet(table).with_columns(pl.col("score") + 1).write_parquet(table)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    meta_file = table.parent / "run.json"
    meta = json.loads(meta_file.read_text())
    meta_file.write_text(json.dumps({**meta, "files": [str(pipe)], "sha256": {str(pipe): "0"}}))
    r = ends_or_unblocked(lambda: cli(*SWEEP, "--runs", runs, "-o", tmp_path / "s.html"), pipe, 30.0)
    assert r.exit_code == 0, r.output
    assert table.read_bytes() == before  # played again


DEEP = "[" * 100_000  # valid JSON's start, nested past the parser's recursion limit


def test_json_nested_too_deep_in_a_run_s_files_is_one_line(tmp_path, small_chunks):
    # failed before: RecursionError out of every command that read it (a traceback)
    runs = tmp_path / "cells"
    sweep = [*SWEEP, "--runs", runs, "-o", tmp_path / "s.html"]
    assert cli(*sweep).exit_code == 0
    (runs / "plan.json").write_text(DEEP)
    one_line_error(cli(*sweep), "is not a simtool plan")
    one_line_error(cli("sweep", "--resume", runs), "plan.json is damaged")
    cell = sorted(p.parent for p in runs.rglob("run.json"))[0]
    (cell / "run.json").write_text(DEEP)
    one_line_error(cli("report", cell, "-o", tmp_path / "r.html"), "not valid JSON")
    out = tmp_path / "run"
    interrupted_run(out, 3)
    (out / "chunks" / "sums-000001.json").write_text(DEEP)  # a damaged checksum file: played again
    assert resumed(out).exit_code == 0
    assert pl.read_parquet(out / "seats.parquet").equals(fresh_seats())
    other = tmp_path / "other"
    interrupted_run(other, 2)
    (other / "chunks" / "spec.json").write_text(DEEP)
    one_line_error(resumed(other), "cannot resume")
