"""Round safe32: three silent-wrong cases. A plugin's own helper modules (a subfolder package, a
module on PYTHONPATH) edited before a resume; a ``--precision`` rate null on whole later chunks;
a ``seats.parquet`` whose deals' win shares no longer sum to 1."""

from __future__ import annotations

import hashlib
import json
import sys

import polars as pl
import pytest

from simtool.cli import main

from .test_data_safety import chunk_files, interrupted_run
from .test_hardening_cli import main_error, no_result
from .test_hostile28 import analysed, forget_modules  # noqa: F401 (autouse: applies here too)
from .test_hostile31 import forget
from .test_keep31 import LATE, PRECISE

PICK = "from simtool import bits\n\n\ndef pick(view, rng):\n    return {}\n"


@pytest.fixture
def helped(tmp_path, monkeypatch):
    """A plugin whose play lies in a package of its own subfolder and in a module on PYTHONPATH."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "bots" / "kit").mkdir(parents=True)
    (tmp_path / "lib" / "far32.py").write_text(PICK.format("bits.lowest(view.legal)"))
    (tmp_path / "bots" / "kit" / "__init__.py").write_text("")
    (tmp_path / "bots" / "kit" / "near32.py").write_text(PICK.format("bits.lowest(view.legal)"))
    (tmp_path / "bots" / "bot32.py").write_text(
        "import far32\nfrom kit import near32\n\n\ndef bot(view, rng):\n"
        "    near32.pick(view, rng)\n    return far32.pick(view, rng)\n")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    yield tmp_path
    forget(tmp_path)


@pytest.mark.parametrize("edited", ["lib/far32.py", "bots/kit/near32.py"])
def test_a_resume_after_a_plugins_imported_helper_changed_is_refused_naming_it(tmp_path, capsys, helped, edited,
                                                                               small_chunks):
    # failed before: run.json recorded bot32.py and the files beside it only; the resume played
    # the edited helper in chunks 2-4 after chunks 0-1 of the old one, exit 0, without a word
    out = tmp_path / "r"
    interrupted_run(out, 2, n=5 * 2048, seats={0: f"{tmp_path / 'bots' / 'bot32.py'}:bot"})
    before = chunk_files(out)
    (tmp_path / edited).write_text(PICK.format("bits.highest(view.legal)"))
    forget(tmp_path)
    main_error(capsys, ["run", "--resume", out], f"{tmp_path / edited}, which strategy plugin ",
               "has changed or gone since the run started")
    assert chunk_files(out) == before
    plugin = next(iter(json.loads((out / "chunks" / "spec.json").read_text())["plugins"].values()))
    assert sorted(plugin["imports"]) == [str(tmp_path / f) for f in ("bots/kit/__init__.py", "bots/kit/near32.py",
                                                                     "lib/far32.py")]


def test_an_isolated_plugin_records_the_modules_its_own_process_imported(tmp_path, capsys, helped):
    # failed before: no record at all; under --isolate the plugin is never imported in the run's
    # process, so its own process reports what it imported
    out = tmp_path / "r"
    assert main(["run", "--isolate", "-s", "random", "--seat", f"0={tmp_path / 'bots' / 'bot32.py'}:bot",
                 "--n", "20", "--seed", "1", "-j", "1", "-q", "-o", str(out)]) == 0
    plugin = next(iter(json.loads((out / "run.json").read_text())["plugins"].values()))
    assert str(tmp_path / "lib" / "far32.py") in plugin["imports"]
    (tmp_path / "lib" / "far32.py").write_text(PICK.format("bits.highest(view.legal)"))
    main_error(capsys, ["replay", "--run", out, "--deal", "3"], f"{tmp_path / 'lib' / 'far32.py'}, which ")


@pytest.mark.parametrize("rate", ['pl.when(pl.col("deal") >= BREAK_AT).then(None)',  # null from chunk 2 on
                                  'pl.when(pl.col("deal") < BREAK_AT).then(None)'])  # null in chunks 0-1 only
def test_a_rate_null_on_whole_later_chunks_of_a_precision_run_is_refused_as_a_partly_null_one(
        tmp_path, monkeypatch, capsys, small_chunks, rate):
    # failed before: each chunk null on every row read as a rate of no value in that chunk, its
    # nulls tallied as "no"; the run went on to its end (exit 2 there with -q off, exit 0 with -q)
    text = LATE.replace("BREAK_AT = 5_000", "BREAK_AT = 2 * 2048").replace(
        'pl.when(pl.col("deal") >= BREAK_AT).then(float("nan"))', rate)
    analysed(tmp_path, monkeypatch, "edgy", "edge_rates", text)
    out = tmp_path / "r"
    main_error(capsys, ["run", "--game", "edgy", *PRECISE, "--out", out],
               "game 'edgy' has a rate 'level' that cannot be computed on its results: it is null on ",
               "; 4 finished chunks are kept, the run unfinished")
    no_result(out)
    module = tmp_path / "edge_rates.py"  # fixed: of another size, so that no .pyc of the broken one is taken
    module.write_text(module.read_text().replace("BREAK_AT = 2 * 2048", "BREAK_AT = 1 << 62"))
    del sys.modules["edge_rates"]
    assert main(["run", "--resume", str(out), "-q"]) == 0


def with_win_cast(folder, kind) -> None:
    """``seats.parquet`` with its win column cast to ``kind`` and its checksum in run.json written
    again, as a careless script would leave it."""
    table = folder / "seats.parquet"
    pl.read_parquet(table).with_columns(pl.col("win").cast(kind)).write_parquet(table)
    meta = json.loads((folder / "run.json").read_text())
    meta["sha256"]["seats.parquet"] = hashlib.sha256(table.read_bytes()).hexdigest()
    (folder / "run.json").write_text(json.dumps(meta))


def test_a_seats_table_whose_deals_win_shares_no_longer_sum_to_1_is_refused_naming_the_deal(tmp_path, capsys):
    # failed before: the win column cast to UInt8 (a 3-way tie's thirds to 0) passed every check,
    # and `simtool report` printed seat shares summing to 0.887 (seat 0 32.0% for 36.0%) as the run's
    folder = tmp_path / "r"
    assert main(["run", "-s", "random", "--n", "300", "--seed", "1", "-j", "1", "-q", "-o", str(folder)]) == 0
    seats = pl.read_parquet(folder / "seats.parquet")
    tied = seats.filter(pl.col("win") < 1).filter(pl.col("win") > 0)["deal"][0]
    with_win_cast(folder, pl.UInt8)
    main_error(capsys, ["report", folder, "--out", tmp_path / "page.html"],
               f"{folder}/seats.parquet: the win shares of deal {tied} sum to 0, not 1")
    assert not (tmp_path / "page.html").exists()


def test_a_sweeps_cell_recorded_before_the_imports_were_is_kept_not_refused(tmp_path, capsys, helped, monkeypatch):
    # the record of imports must not refuse a cell an older simtool finished: the same sweep run
    # again after the upgrade was "played with other settings: modules ... imports changed", exit 2
    from simtool.reports import balance

    monkeypatch.setattr(balance, "render", lambda *args, **kw: "<html></html>")  # no page is read
    sweep = ["sweep", "-g", "black-white", "-l", f"{tmp_path / 'bots' / 'bot32.py'}:bot", "--n", "50", "--seed", "5",
             "--runs", str(tmp_path / "cells")]
    assert main([*sweep, "-o", str(tmp_path / "a.html")]) == 0
    run_json = next((tmp_path / "cells").glob("*/run.json"))
    meta = json.loads(run_json.read_text())
    for plugin in meta["plugins"].values():
        del plugin["imports"]  # as a simtool before 2026-11-29 wrote it
    run_json.write_text(json.dumps(meta))
    assert main([*sweep, "-o", str(tmp_path / "b.html")]) == 0
    assert json.loads(run_json.read_text()) == meta  # kept as it was, not played again
