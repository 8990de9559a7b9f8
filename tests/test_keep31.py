"""Round keep31: a designer's rate that breaks in a later chunk of a ``--precision`` run (NaN, or its
own code raising, from some deal on) keeps the run's finished chunks, as a plain run keeps its run."""

from __future__ import annotations

import sys

import polars as pl
import pytest

from simtool.cli import main

from .test_data_safety import chunk_files
from .test_hardening_cli import main_error, no_result
from .test_hostile28 import analysed, forget_modules  # noqa: F401 (autouse: applies here too)

LATE = '''
import polars as pl
import pytest

from simtool.analysis import Analysis

BREAK_AT = 5_000  # the first deal whose rate is NaN: chunk 2 of the tests' small chunks

ANALYSIS = Analysis(rates={"level": pl.when(pl.col("deal") >= BREAK_AT).then(float("nan"))
                                      .otherwise((pl.col("score") == 0).cast(pl.Float64))})
'''


def mended(tmp_path) -> None:
    """The rate's module as its designer fixes it: never NaN."""
    module = tmp_path / "late_rates.py"
    # of another size, so that no .pyc of the broken one is taken for it
    module.write_text(module.read_text().replace("BREAK_AT = 5_000", "BREAK_AT = 1 << 62"))
    del sys.modules["late_rates"]


PRECISE = ["--n", str(4 * 2048), "-j", "1", "--seed", "1", "--precision", "0.001", "-q"]


def test_a_rate_breaking_in_a_later_chunk_of_a_precision_run_keeps_the_finished_chunks(tmp_path, monkeypatch,
                                                                                        capsys, small_chunks):
    # failed before: the NaN of chunk 2 stopped the run in its tally and the whole folder was taken
    # back (no folder at all), where a plain run kept every chunk and named the rate at its end
    analysed(tmp_path, monkeypatch, "late", "late_rates", LATE)
    out = tmp_path / "r"
    main_error(capsys, ["run", "--game", "late", *PRECISE, "--out", out],
               "game 'late' has a rate 'level' that cannot be computed on its results: its values hold NaN on ",
               "; 3 finished chunks are kept, the run unfinished: a rate reads the chunks' results and changes "
               f"none of them, so once it is fixed, finish it with: simtool run --resume {out}")
    assert list(chunk_files(out)) == [f"seats-00000{i}.parquet" for i in range(3)]
    no_result(out)  # nothing looks finished
    mended(tmp_path)
    assert main(["run", "--resume", str(out), "-q"]) == 0
    assert main(["run", "--game", "late", *PRECISE, "--out", str(tmp_path / "fresh")]) == 0
    assert pl.read_parquet(out / "seats.parquet").equals(pl.read_parquet(tmp_path / "fresh" / "seats.parquet"))


RAISING_LATE = '''
import polars as pl
import pytest

from simtool.analysis import Analysis


def level(deal):
    if (deal >= 5_000).any():  # chunk 2 of the tests' small chunks
        raise RuntimeError("rate broke")
    return (deal % 2 == 0).cast(pl.Float64)


ANALYSIS = Analysis(rates={"level": pl.col("deal").map_batches(level, return_dtype=pl.Float64)})
'''


@pytest.mark.parametrize("precise", [False, True])
def test_a_rate_whose_code_raises_from_a_later_deal_on_keeps_the_run(tmp_path, monkeypatch, capsys, small_chunks,
                                                                      precise):
    # failed before: the rate's RuntimeError passed the check of its type (on no rows) and ended
    # the run in its traceback, exit 1, the folder taken back, with or without --precision
    analysed(tmp_path, monkeypatch, "raising", "raising_rates", RAISING_LATE)
    out = tmp_path / "r"
    given = PRECISE if precise else ["--n", str(4 * 2048), "-j", "1", "--seed", "1"]
    kept = "; 3 finished chunks are kept, the run unfinished" if precise else "pl.col('tricks') == 0)"
    text = main_error(capsys, ["run", "--game", "raising", *given, "--out", out],
                      "game 'raising' has a rate 'level' that cannot be computed on its results: RuntimeError: "
                      "rate broke (a rate is a boolean, or a number from 0 to 1, per seat row", kept)
    assert text.endswith(f"finish it with: simtool run --resume {out}" if precise else kept)
    if precise:
        assert list(chunk_files(out)) == [f"seats-00000{i}.parquet" for i in range(3)]
        no_result(out)
    else:  # played whole, as for a rate of NaN: the rate is named as the run is printed
        assert (out / "run.json").exists() and pl.read_parquet(out / "seats.parquet").height == 4 * 2048 * 3


def test_a_report_of_a_run_whose_rate_raises_on_later_rows_is_the_rates_one_line_error(tmp_path, monkeypatch,
                                                                                        capsys, small_chunks):
    analysed(tmp_path, monkeypatch, "raising", "raising_rates", RAISING_LATE)
    out = tmp_path / "r"
    main_error(capsys, ["run", "--game", "raising", "--n", str(4 * 2048), "-j", "1", "--seed", "1", "--out", out],
               "rate broke")
    main_error(capsys, ["report", out, "--out", tmp_path / "page.html"],
               "game 'raising' has a rate 'level' that cannot be computed on its results: RuntimeError: rate broke")
    assert not (tmp_path / "page.html").exists()


def test_a_quiet_run_whose_rate_breaks_exits_as_the_printed_run_does(tmp_path, monkeypatch, capsys, small_chunks):
    # failed before: with -q the run printed its folder and exited 0; without it, the rate's one
    # line and exit 2 (hostile31); the run is kept either way, for a report once the rate is fixed
    analysed(tmp_path, monkeypatch, "late", "late_rates", LATE)
    for quiet in ([], ["-q"]):
        out = tmp_path / f"r{len(quiet)}"
        text = main_error(capsys, ["run", "--game", "late", "--n", str(4 * 2048), "-j", "1", "--seed", "1",
                                   *quiet, "--out", out],
                          "game 'late' has a rate 'level' that cannot be computed on its results: its values hold "
                          "NaN on ")
        assert str(out) not in text and (out / "run.json").exists()
