"""``simtool replay --run DIR --deal K``: a deal of a run replayed from the run's folder, its
settings read from what the run saved (run.json, or an unfinished run's chunks/spec.json), where
each had to be typed again (--seed --game --n --players --strategy --seat --rule --rotate
--duplicate --precision); the hint of a failed deal names the folder where the folder stays."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

import simtool
from simtool.cli import main
from simtool.pipeline import executor
from simtool.pipeline.runner import _fmt

from .conftest import smaller_chunks, stopped_after
from .test_hardening_cli import main_error

GOOD = Path(__file__).parent / "plugins" / "good.py"


def replayed(capsys, folder, unit: str, number: int) -> list[str]:
    assert main(["replay", "--run", str(folder), f"--{unit}", str(number)]) == 0, capsys.readouterr().err
    return capsys.readouterr().out.splitlines()


def rows(table: pl.DataFrame, key: str, skip: tuple[str, ...] = ("strategy",)) -> list[str]:
    """Rows as replay writes its results: each column but the key and the strategy, ``name=value``."""
    shown = [c for c in table.columns if c != key and c not in skip]
    return ["  " + "  ".join(f"{c}={_fmt(v)}" for c, v in zip(shown, r, strict=True))
            for r in table.select(shown).rows()]


def results(lines: list[str]) -> list[str]:
    return lines[lines.index("results:") + 1:]


def folder_rows(folder: Path, unit: str, number: int) -> list[str]:
    """What the run's parquet holds of ``number``, written as replay writes its results."""
    seats = pl.read_parquet(folder / "seats.parquet").filter(pl.col(unit) == number)
    if unit == "deal":
        return rows(seats, "deal")
    matches = pl.read_parquet(folder / "matches.parquet").filter(pl.col("match") == number)
    return rows(seats, "match") + ["match:"] + rows(matches, "match", ())


RUNS = {  # name: (run's arguments, unit, numbers replayed: the first, one within, the last)
    "plain": (["--n", "300", "--seed", "5"], "deal", [0, 7, 299]),
    "rotate": (["-p", "4", "-s", "random", "--seat", "1=balance", "--rotate", "--n", "200", "--seed", "3"],
               "deal", [0, 5, 199]),
    "duplicate": (["-s", "random", "--seat", "0=balance", "--duplicate", "--n", "100", "--seed", "4"],
                  "deal", [0, 42, 99]),
    "rules": (["-g", "kansas-city", "--rule", "pass_count=2", "-s", "target", "--seat", "0=target@under=1",
               "--n", "200", "--seed", "6"], "deal", [3, 199]),
    "match": (["--unit", "match", "-s", "random", "--seat", "0=balance", "--n", "40", "--seed", "9"],
              "match", [0, 39]),
    # chunks cut for the cap, 1e5, of which the run keeps 1,024 deals
    "precision": (["--precision", "0.05", "-s", "random", "--seat", "0=balance", "--seed", "10"], "deal",
                  [0, 1023]),
}


@pytest.mark.parametrize("name", RUNS)
def test_replay_run_writes_the_rows_of_the_run_folder(tmp_path, capsys, name):
    args, unit, numbers = RUNS[name]
    folder = tmp_path / name
    assert main(["run", *args, "-j", "1", "-q", "-o", str(folder)]) == 0
    capsys.readouterr()
    meta = json.loads((folder / "run.json").read_text())
    for number in numbers:
        lines = replayed(capsys, folder, unit, number)
        assert lines[0].endswith(f"seed {meta['seed']}, {unit} {number}")
        assert results(lines) == folder_rows(folder, unit, number), (name, number)
    # the rows of another deal are not these: the comparison tells deals apart
    assert folder_rows(folder, unit, numbers[0]) != folder_rows(folder, unit, numbers[-1])


def test_a_plugin_run_replays_from_another_folder(tmp_path, capsys, monkeypatch):
    # the line-up's plugin given by a relative path: the run recorded where the file is
    (tmp_path / "bots").mkdir()
    shutil.copy(GOOD, tmp_path / "bots" / "good.py")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "-s", "random", "--seat", "2=bots/good.py:first_or_random", "--n", "200", "--seed", "8",
                 "-j", "1", "-q", "-o", "plug"]) == 0
    capsys.readouterr()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    lines = replayed(capsys, "../plug", "deal", 77)
    assert results(lines) == folder_rows(tmp_path / "plug", "deal", 77)
    (tmp_path / "bots" / "good.py").write_text(GOOD.read_text() + "\n# edited\n")
    main_error(capsys, ["replay", "--run", "../plug", "--deal", "77"], "has changed since the run started")


def test_an_unfinished_run_replays_from_its_saved_settings(tmp_path, capsys, monkeypatch):
    """Decided: an unfinished run (interrupted, or still playing) replays from chunks/spec.json,
    whether or not the deal's chunk is on disk yet (the settings fix its deals), and says which."""
    folder = tmp_path / "cut"
    with smaller_chunks():
        real, stopped = stopped_after(executor, 1)
        monkeypatch.setattr(executor, "execute_tasks", stopped)
        with pytest.raises(KeyboardInterrupt):
            simtool.run("black-white", n=3 * 2048, seed=11, strategy="random", seats={1: "balance"}, jobs=1,
                        out=folder)
        monkeypatch.setattr(executor, "execute_tasks", real)
        played = replayed(capsys, folder, "deal", 100)
        assert "this deal's chunk is in chunks/ already" in played[1]
        chunk = pl.read_parquet(folder / "chunks" / "seats-000000.parquet").filter(pl.col("deal") == 100)
        assert results(played) == rows(chunk, "deal")
        later = replayed(capsys, folder, "deal", 5000)
        assert "this deal's chunk is not played yet" in later[1]
        assert main(["run", "--resume", str(folder), "-j", "1", "-q"]) == 0
    capsys.readouterr()
    assert results(later) == folder_rows(folder, "deal", 5000)
    assert results(played) == folder_rows(folder, "deal", 100)


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replay31") / "plain"
    assert main(["run", "--n", "50", "--seed", "2", "-j", "1", "-q", "-o", str(folder)]) == 0
    return folder


@pytest.mark.parametrize("given", [["--seed", "2"], ["--game", "black-white"], ["-n", "50", "--rotate"],
                                   ["--players", "4", "--strategy", "random", "--seat", "0=balance",
                                    "--rule", "deck=30", "--duplicate", "--precision", "0.01"]])
def test_run_with_a_setting_it_reads_is_refused_naming_them(capsys, plain, given):
    flags = [g for g in given if g.startswith("-")]
    named = ", ".join("--n" if f == "-n" else f for f in flags)
    main_error(capsys, ["replay", "--run", plain, "--deal", "3", *given], f"drop {named}")


def test_bad_run_folders_are_refused_in_one_line(tmp_path, capsys, plain):
    def refused(folder, *needles, number=("--deal", "3")):
        return main_error(capsys, ["replay", "--run", folder, *number], *needles)

    refused(tmp_path / "nowhere", "there is no such folder")
    refused(plain / "run.json", "is a file, not a run folder", f"give the folder that holds it, {plain}")
    (tmp_path / "empty").mkdir()
    refused(tmp_path / "empty", "holds no simtool run")
    refused(plain, f"bad --deal 50; {plain} holds deal numbers 0..49", number=("--deal", "50"))
    refused(plain, "is a run of single deals: give --deal N, not --match", number=("--match", "0"))
    refused(plain.parent, "is not a run folder but holds run folders", f"such as {plain}")
    edited = tmp_path / "edited"
    shutil.copytree(plain, edited)
    meta = json.loads((edited / "run.json").read_text())
    (edited / "run.json").write_text(json.dumps(meta | {"seed": 3}))
    refused(edited, "run.json was changed since the run wrote it")
    main_error(capsys, ["replay", "--deal", "3"], "give --run DIR (a run folder), or the run's --seed S")


def test_the_folders_of_other_commands_name_the_command_that_reads_them(tmp_path, capsys, plain, charts_undrawn):
    # a sweep's folder, played; a review's and a tuning's as they lie on disk (their runs in
    # runs/NAME/RUN), the run copied in
    assert main(["sweep", "-g", "black-white", "--players", "3,4", "--lineup", "random", "--n", "50", "--seed", "1",
                 "--runs", str(tmp_path / "sweep"), "--out", str(tmp_path / "sweep.html"), "-j", "1", "-q"]) == 0
    cells = sorted(p.parent for p in (tmp_path / "sweep").glob("*/run.json"))
    main_error(capsys, ["replay", "--run", tmp_path / "sweep", "--deal", "3"],
               "holds the runs of a sweep (plan.json), which simtool sweep --resume reads",
               f"such as {cells[0]}")
    assert results(replayed(capsys, cells[0], "deal", 3)) == folder_rows(cells[0], "deal", 3)
    for record, says in (("review.json", "is a review's folder (review.json), which simtool review --baseline"),
                         ("tune.json", "is a tuning's folder (tune.json), which simtool tune --resume")):
        home = tmp_path / record.split(".")[0]
        shutil.copytree(plain, home / "runs" / "question" / "run")
        (home / record).write_text("{}")
        main_error(capsys, ["replay", "--run", home, "--deal", "3"], says, f"such as {home / 'runs/question/run'}")


LATE = '''
import os

from simtool import bits

CALLS = [0]


def late(view, rng):
    """Fails after {calls} decisions while asked to (60: in the second chunk of a run of the
    tests' small chunks), so that its module, imported again by the replay, plays."""
    CALLS[0] += 1
    if os.environ.get("REPLAY31_FAIL") and CALLS[0] > {calls}:
        raise ValueError("late bug")
    return bits.lowest(view.legal)
'''


@pytest.mark.parametrize("duplicate,calls", [(False, 60), (True, 60), (False, 1)])
def test_a_failed_deal_s_hint_names_the_folder_that_stays(tmp_path, capsys, monkeypatch, duplicate, calls):
    bot = tmp_path / f"late{int(duplicate)}{calls}.py"
    bot.write_text(LATE.replace("{calls}", str(calls)))
    folder = tmp_path / "late"
    monkeypatch.setenv("REPLAY31_FAIL", "1")
    with smaller_chunks():
        text = main_error(capsys, ["run", "-s", "random", "--seat", f"0={bot}:late", "--n", "6000", "--seed", "2",
                                   "-j", "1", "-q", "-o", folder, *(["--duplicate"] if duplicate else [])],
                          "late bug")
    monkeypatch.delenv("REPLAY31_FAIL")
    if calls == 1:  # nothing kept, the folder taken back: the hint without one, as before
        assert not folder.exists()
        assert "deal 0 of the run with seed 2, n 6000: `simtool replay --seed 2 --n 6000 --deal 0` with the run's " \
               "other options writes it out" in text
        return
    deal = 682 if duplicate else 2050  # the first deal of the second chunk (682 deals of 3 copies each)
    copy = " (its copy with the line-up rotated 1 place)" if duplicate else ""
    assert (f"deal {deal}{copy} of the run in {folder}: `simtool replay --run {folder} --deal {deal}` writes it out"
            in text)
    lines = replayed(capsys, folder, "deal", deal)
    assert "this deal's chunk is not played yet" in lines[1]


def test_the_docs_name_every_setting_run_reads():
    # docs/cli.md lists the settings --run refuses beside it: those the folder holds, no other
    import re

    from simtool.cli import REPLAY_READS

    root = Path(__file__).parents[1]
    text = " ".join((root / "docs/cli.md").read_text().split())
    listed = re.search(r"so `--run` is refused beside any of (.*?)\. ", text)[1]
    assert set(re.findall(r"`(--[\w-]+)`", listed)) == set(REPLAY_READS.values())
    assert "`simtool replay --run RUN_DIR --deal I`" in (root / "README.md").read_text()


def test_a_failed_duplicate_deal_without_a_folder_is_named_by_its_deal_and_copy(tmp_path, capsys):
    # the engine numbers a duplicate run's games, copy r of deal i being i*p + r, and counted n so:
    # the hint read "deal 1 of the run with seed 5, n 300: `simtool replay --seed 5 --n 300 --deal 1`",
    # another deal of another run than the failed one (deal 0, its copy 1 of a run of 100)
    bot = tmp_path / "boom.py"
    bot.write_text("def boom(view, rng):\n    raise RuntimeError('boom')\n")
    # seat 0 leads the first trick: the bot sits there first in the copy rotated one place
    setting = ["-g", "black-white", "--seat", f"1={bot}:boom", "--n", "100", "--seed", "5", "--duplicate"]
    said = ("deal 0 (its copy with the line-up rotated 1 place) of the run with seed 5, n 100: `simtool replay "
            "--seed 5 --n 100 --duplicate --deal 0` with the run's other options writes it out")
    assert said in main_error(capsys, ["run", *setting, "-q", "-o", tmp_path / "r"], "boom")
    assert not (tmp_path / "r").exists()
    # the replay names the same deal, without the hint to run itself again (tests/test_floor31.py)
    assert said.partition(":")[0] + ")" in main_error(capsys, ["replay", *setting, "--deal", "0"], "boom")


def test_a_strength_tables_folder_names_what_plays_it_again(tmp_path):
    # it named `simtool sweep --resume`, which refuses a strength table's plan: make strength reads it
    from simtool.commands.replay import not_a_run

    (tmp_path / "plan.json").write_text(json.dumps({"command": "strength", "cells": []}))
    assert "holds the runs of a strength table (plan.json), which make strength reads, not a run" in \
        not_a_run(tmp_path)
