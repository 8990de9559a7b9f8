"""Round ver29b: a designer's rate with no value on any row, or NaN on some, and --resume given
the run's own settings again."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

import simtool
from simtool.cli import main

from .test_cli import cli, one_line_error
from .test_data_safety import N, chunk_files, interrupted_run
from .test_hardening_cli import main_error
from .test_hostile28 import WORDS_AS_A_LIST, analysed, forget_modules  # noqa: F401 (autouse: applies here too)


def rated(tmp_path, monkeypatch, game_id: str, rate: str) -> None:
    """Installs the toy game as ``game_id``, its one rate ``level`` the expression ``rate``."""
    analysed(tmp_path, monkeypatch, game_id, f"{game_id}_rates", WORDS_AS_A_LIST.replace(
        'rates={"level": pl.col("score") == 0}, rate_text=["level"]', f'rates={{"level": {rate}}}'))


def test_a_rate_null_on_every_row_has_no_share_not_zero(tmp_path, monkeypatch, capsys):
    # failed before: a rate pl.lit(None) printed "0.0% (0.0–27.8)" in every row of the run's
    # tables, and the report read "in nan% of deals (95% interval nan% to nan%)" and "most often
    # seat 0, 0.0% (0.0–27.8)"
    rated(tmp_path, monkeypatch, "nullrate", "pl.lit(None, dtype=pl.Float64)")
    assert main(["run", "--game", "nullrate", "--n", "10", "-j", "1", "--seed", "1", "--out", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out
    rows = [line for line in printed.splitlines() if line.startswith("│")]
    assert len(rows) == 4 and all(line.split("│")[-2].strip() == "n/a" for line in rows), printed
    assert main(["report", str(tmp_path / "r"), "-o", str(tmp_path / "r.html")]) == 0
    page = re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", html.unescape((tmp_path / "r.html").read_text())))
    assert "nan" not in page and "0.0% (0.0" not in page, page
    assert page.count("Each seat has level in n/a of deals: the rate 'level' is null on every row, so it has "
                      "no share.") == 2, page


def test_a_rate_with_nan_on_some_rows_is_refused_as_one_out_of_range_is(tmp_path, monkeypatch, capsys):
    # failed before: a rate NaN where the score is 0 passed the 0..1 check (polars' least and
    # largest values pass over NaN) and was printed as a share
    rated(tmp_path, monkeypatch, "nanrate", 'pl.when(pl.col("score") == 0).then(float("nan")).otherwise(0.5)')
    main_error(capsys, ["run", "--game", "nanrate", "--n", "10", "-j", "1", "--seed", "1", "--out", tmp_path / "r"],
               "game 'nanrate' has a rate 'level' that cannot be computed on its results: its values hold NaN on ",
               " rows, and NaN is not a share (a rate is a boolean, or a number from 0 to 1, per seat row")
    assert (tmp_path / "r" / "run.json").exists()  # the run is kept, as for a rate beyond 0 to 1


@pytest.mark.parametrize("again", [["--game", "black-white", "--n", str(N), "--seed", "3"],
                                   ["--strategy", "random", "--players", "3", "--unit", "deal", "--out", "."]])
def test_resume_takes_the_runs_own_settings_given_again(tmp_path, monkeypatch, small_chunks, again):
    # failed before: `run --resume DIR --game black-white --n 10140 --seed 3`, the settings the
    # run started with, was refused: "--game, --n, --seed cannot change", exit 2
    out = tmp_path / "run"
    interrupted_run(out, 1)
    monkeypatch.chdir(out)  # --out . names the run's own folder
    r = cli("run", "--resume", out, "-q", *again)
    assert r.exit_code == 0, r.output
    whole = simtool.run("black-white", n=N, seed=3, jobs=1, strategy="random")
    assert pl.read_parquet(out / "seats.parquet").equals(whole.seats)


def test_resume_names_only_the_settings_given_other_values(tmp_path, small_chunks):
    out = tmp_path / "run"
    interrupted_run(out, 1)
    before = chunk_files(out)
    one_line_error(cli("run", "--resume", out, "--game", "black-white", "--n", "1000", "--seed", "3",
                       "--seat", "1=balance", "--strategy", "random"),
                   f"--resume {out} finishes the run with the settings it started with; --n, --strategy, --seat "
                   f"cannot change (only --jobs, --backend, --scheduler and --timeout may)")
    assert chunk_files(out) == before


@pytest.mark.parametrize("rate", ['pl.when(pl.col("score") > 0).then(True)',
                                  'pl.when(pl.col("seat") > 0).then(pl.col("score") / 1000)'])
def test_a_rate_null_on_some_rows_is_refused_not_read_as_no(tmp_path, monkeypatch, capsys, rate):
    # failed before: a boolean true where the score is above 0 and null elsewhere printed 55.8%,
    # its null rows counted as "no"; a rate null on every row of seat 0 only printed seat 0 0.0%
    rated(tmp_path, monkeypatch, "somenull", rate)
    main_error(capsys, ["run", "--game", "somenull", "--n", "10", "-j", "1", "--seed", "1", "--out", tmp_path / "r"],
               "game 'somenull' has a rate 'level' that cannot be computed on its results: it is null on ",
               " rows (null on every row reads n/a; give the others a value, such as .fill_null(False)) (a rate is")
    assert (tmp_path / "r" / "run.json").exists()  # the run is kept, as for a rate beyond 0 to 1
    main_error(capsys, ["report", str(tmp_path / "r"), "-o", str(tmp_path / "r.html")],
               "game 'somenull' has a rate 'level' that cannot be computed on its results: it is null on ")
    assert not (tmp_path / "r.html").exists()


def test_resume_takes_the_runs_own_plugin_spelt_from_another_folder(tmp_path, monkeypatch, small_chunks):
    # failed before: a run of bot.py:bot resumed with --strategy ../bot.py:bot, the same file
    # from a folder inside, was refused: "--strategy cannot change"
    (tmp_path / "bot.py").write_text("import numpy as np\nfrom strategies import strategy\n\n\n"
                                     "@strategy('bot', 'the first legal option')\n"
                                     "def choose(view, rng):\n    return np.argmax(view.mask, axis=1)\n")
    (tmp_path / "other.py").write_text((tmp_path / "bot.py").read_text())
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "run"
    interrupted_run(out, 1, strategy="bot.py:bot")
    before = chunk_files(out)
    one_line_error(cli("run", "--resume", out, "--strategy", "other.py:bot"), "--strategy cannot change")
    assert chunk_files(out) == before
    monkeypatch.chdir(tmp_path / "run")
    r = cli("run", "--resume", out, "-q", "--strategy", "../bot.py:bot", "--seed", "3")
    assert r.exit_code == 0, r.output
    whole = simtool.run("black-white", n=N, seed=3, jobs=1, strategy=str(tmp_path / "bot.py") + ":bot")
    assert pl.read_parquet(out / "seats.parquet").drop("strategy").equals(whole.seats.drop("strategy"))
