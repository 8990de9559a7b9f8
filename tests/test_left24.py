"""Leftovers of earlier sessions' notes (session 24), each a defect found and left then."""
from __future__ import annotations

import pytest

from .test_cli import cli, one_line_error


@pytest.mark.parametrize("option, text", [("--precision", "0e5"), ("--precision", "Infinity"),
                                          ("--timeout", "0e5"), ("--timeout", "-Infinity"),
                                          ("--timeout", "-0"), ("--precision", "1e-400")])
def test_a_number_out_of_range_is_quoted_as_typed(tmp_path, option, text):
    # failed before: "bad --precision 0.0", "bad --timeout -inf": the range was checked after the
    # text was read as a float, and the float quoted, a figure the user never typed
    one_line_error(cli("run", "-g", "black-white", "-n", "30", option, text, "--out", tmp_path / "r"),
                   f"bad {option} '{text}'; expected")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_disk_full_before_any_chunk_is_finished_promises_no_chunks(tmp_path, monkeypatch, jobs):
    # failed before: "cannot write .../seats-000000.parquet: No space left on device; the finished
    # chunks are kept: finish the run with: simtool run --resume ..." with no chunk finished, and
    # the folder left holding chunks/spec.json alone
    import errno
    from pathlib import Path

    import simtool
    from simtool.errors import DiskFull

    real = Path.write_bytes

    def full(path, data):
        if path.parent.name == "chunks" and "seats-" in path.name:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    out = tmp_path / "r"
    with pytest.raises(DiskFull) as raised:
        simtool.run("black-white", n=3000, jobs=jobs, out=out, seed=1)
    assert str(raised.value).endswith("seats-000000.parquet: No space left on device"), raised.value
    assert not out.exists()  # taken back, as a run stopped by a strategy before its first chunk is


def test_the_tune_pages_hint_loads_the_study_of_a_folder_named_with_a_question_mark(tmp_path):
    # failed before: the page's optuna.load_study(..., storage="sqlite:///…/study.db") filled in
    # with the folder's path opened no study for a folder t?x%41 (the address reads "?" as its
    # query, "%41" as "A"), and the page did not say how to write them
    import html
    import re

    import optuna

    out = tmp_path / "t?x%41"
    r = cli("tune", "--game", "black-white", "--vary", "deck=34,36", "--trials", "2", "--seed", "1", "--jobs",
            "1", "-q", "--objective", "first_seat_edge", "--n", "300", "--out", out)
    assert r.exit_code == 0, r.output
    page = html.unescape((out / "tune.html").read_text())
    hint = re.search(r'storage="sqlite:///…/study.db"\), a \? or % in its path written %3F or %25', page)
    assert hint, page
    folder = str(out.resolve()).replace("%", "%25").replace("?", "%3F")
    study = optuna.load_study(study_name="tune", storage=f"sqlite:///{folder}/study.db")
    assert len(study.trials) == 2


def test_a_line_up_one_game_of_a_sweep_cannot_play_skips_that_games_cells(tmp_path, charts_undrawn):
    # failed before: "error: strategy 'balance' plays black-white, not kansas-city", the whole grid
    # refused, though its player counts and rule values one game lacks are skipped with a note
    import json

    r = cli("sweep", "-g", "black-white,kansas-city", "-l", "balance", "-l", "target", "-l", "random", "-n", "200",
            "--seed", "1", "-j", "1", "-q", "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        "note: skipped kansas-city, line-up balance: strategy 'balance' plays black-white, not kansas-city; "
        "valid for kansas-city: clairvoyant, greedy, high, low, pimc, random, target",
        "note: skipped black-white, line-up target: strategy 'target' plays kansas-city, not black-white; "
        "valid for black-white: balance, clairvoyant, duck, high, low, pimc, random"]
    played = sorted((m := json.loads((f / "run.json").read_text()))["game"] + ":" + ",".join(m["lineup"])
                    for f in (tmp_path / "runs").iterdir() if (f / "run.json").is_file())
    assert played == ["black-white:balance,balance,balance", "black-white:random,random,random",
                      "kansas-city:random,random,random,random", "kansas-city:target,target,target,target"]
    assert "Skipped kansas-city, line-up balance" in (tmp_path / "sweep.html").read_text()


@pytest.mark.parametrize("games", ["black-white,kansas-city", "black-white"])
def test_a_line_up_no_game_of_the_sweep_plays_is_refused(tmp_path, games):
    r = cli("sweep", "-g", games, "-l", "safe", "-n", "200", "--seed", "1", "-j", "1", "-q",
            "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    one_line_error(r, "strategy 'safe' plays trickster, not black-white")
    assert not (tmp_path / "runs").exists() and not (tmp_path / "sweep.html").exists()
