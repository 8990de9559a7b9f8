"""The command line through typer's runner, and every kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from simtool.cli import app, main

runner = CliRunner()
PLUGINS = Path(__file__).parent / "plugins"


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_run_writes_tables_and_prints_the_summary(tmp_path):
    out = tmp_path / "bw"
    r = cli("run", "--game", "black-white", "--n", "2_000", "--players", "4", "--seed", "5",
            "--strategy", "random", "--seat", "1=balance", "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    assert "balanced" in r.stdout and "balance" in r.stdout and "win share" in r.stdout
    seats = pl.read_parquet(out / "seats.parquet")
    assert seats.height == 8000
    assert {"deal", "seat", "strategy", "score", "tricks", "black", "white", "win"} <= set(seats.columns)
    assert seats.filter(pl.col("seat") == 1)["strategy"].unique().to_list() == ["balance"]
    meta = json.loads((out / "run.json").read_text())
    assert meta["n"] == 2000 and meta["seed"] == 5 and meta["players"] == 4
    assert meta["lineup"] == ["random", "balance", "random", "random"]
    assert {"simtool", "numpy", "polars"} <= set(meta["versions"]) and meta["wall_seconds"] > 0
    assert not (out / "chunks").exists()


def test_run_matches_writes_the_match_table(tmp_path):
    r = cli("run", "--n", "300", "--unit", "match", "--seed", "1", "--jobs", "1", "--out", tmp_path / "m")
    assert r.exit_code == 0, r.output
    matches = pl.read_parquet(tmp_path / "m" / "matches.parquet")
    assert matches.height == 900 and {"match", "seat", "total", "win", "rounds", "capped"} <= set(matches.columns)
    assert "match win share" in r.stdout


@pytest.mark.parametrize("n", ["1e3", "1000", "1_000"])
def test_n_spellings(tmp_path, n):
    r = cli("run", "--n", n, "--seed", "1", "--jobs", "1", "--out", tmp_path / "x", "-q")
    assert r.exit_code == 0, r.output
    assert pl.read_parquet(tmp_path / "x" / "seats.parquet").height == 3000


def test_jobs_one_and_two_write_identical_results(tmp_path):
    for jobs in (1, 2):
        r = cli("run", "--n", "70000", "--seed", "9", "--strategy", "balance", "--jobs", jobs,
                "--out", tmp_path / f"j{jobs}", "-q")
        assert r.exit_code == 0, r.output
    a, b = (pl.read_parquet(tmp_path / f"j{j}" / "seats.parquet") for j in (1, 2))
    assert a.height == 210_000 and a.equals(b)


def test_games_and_strategies_listings():
    r = cli("games")
    assert r.exit_code == 0 and "black-white" in r.stdout and "2, [3], 4" in r.stdout
    r = cli("strategies", "--game", "black-white")
    assert r.exit_code == 0
    for name in ("random", "high", "low", "balance", "duck"):
        assert name in r.stdout


def test_replay_writes_out_a_deal():
    r = cli("replay", "--seed", "3", "--deal", "5", "--strategy", "balance")
    assert r.exit_code == 0, r.output
    assert "seat 0 holds" in r.stdout and "lead:" in r.stdout and "results:" in r.stdout
    assert r.stdout.count("colour:") == 12


def one_line_error(r, *needles):
    assert r.exit_code == 2, r.output
    text = r.stderr.strip()
    assert "\n" not in text and "Traceback" not in r.output, r.output
    for needle in needles:
        assert needle in text, text
    return text


@pytest.mark.parametrize("args,needles", [
    (["--game", "skat"], ["unknown game 'skat'", "black-white"]),
    (["--strategy", "genius"], ["unknown strategy 'genius'", "balance", "random"]),
    (["--rule", "hand=3"], ["unknown rule 'hand'", "deck", "hand_size"]),
    (["--rule", "oops"], ["bad --rule 'oops'", "NAME=VALUE"]),
    (["--players", "7"], ["2, 3, 4 players, not 7"]),
    (["--n", "0"], ["bad --n '0'", "positive whole number"]),
    (["--n", "-5"], ["bad --n '-5'"]),
    (["--n", "lots"], ["bad --n 'lots'"]),
    (["--n", "2.5"], ["bad --n '2.5'"]),
    (["--seat", "5=random"], ["bad seat '5'", "0, 1, 2"]),
    (["--unit", "tournament"], ["unknown unit 'tournament'", "deal, match"]),
    (["--jobs", "0"], ["bad --jobs '0'", "1 or more"]),
    (["--strategy", "nowhere/missing.py:x"], ["not found: nowhere/missing.py"]),
    (["--strategy", f"{PLUGINS}/broken.py:x"], ["failed to load", "cannot even load"]),
    (["--strategy", f"{PLUGINS}/good.py:nothing"], ["no strategy 'nothing'", "lowest_card"]),
    (["--strategy", f"{PLUGINS}/good.py:not_a_function"], ["not a function"]),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, needles):
    out = tmp_path / "never"
    given = {"--n": "100", "--jobs": "1"}  # each option once: a repeated one is refused
    r = cli("run", *(x for k, v in given.items() if k not in args for x in (k, v)), "--out", out, *args)
    one_line_error(r, *needles)
    assert not out.exists()


def test_unwritable_output_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    one_line_error(cli("run", "--n", "100", "--out", blocker / "sub"), "cannot write to output folder")


def test_existing_run_needs_force(tmp_path):
    assert cli("run", "--n", "100", "--jobs", "1", "--out", tmp_path, "-q").exit_code == 0
    one_line_error(cli("run", "--n", "100", "--out", tmp_path), "already holds a run", "--force")
    assert cli("run", "--n", "100", "--jobs", "1", "--out", tmp_path, "--force", "-q").exit_code == 0


@pytest.mark.parametrize("name,needles", [
    ("crashes", ["strategy 'good.py:crashes' raised ValueError: my bug", "black-white", "'play'", "seed 4"]),
    ("cheats", ["strategy 'good.py:cheats' chose the illegal option card 1", "decision 'play'",
                "black-white", "seed 4", "deal 0", "--seed 4 --n 50000 --deal 0"]),
    ("cheats_later", ["strategy 'good.py:cheats_later' chose the illegal option", "deal 32768"]),
    ("wrong_shape", ["strategy 'good.py:wrong_shape' returned", "expected integers"]),
])
def test_misbehaving_plugin_leaves_no_result(tmp_path, name, needles):
    out = tmp_path / "run"
    # cheats_later fails in the second chunk, after the first chunk's files were written
    r = cli("run", "--n", "50000", "--seed", "4", "--jobs", "1", "--out", out,
            "--seat", f"2={PLUGINS}/good.py:{name}", "--strategy", "random")
    one_line_error(r, *needles)
    assert not (out / "seats.parquet").exists() and not (out / "run.json").exists()


def test_plugin_strategies_play(tmp_path):
    for name in ("lowest_card", "first_or_random"):
        r = cli("run", "--n", "500", "--jobs", "1", "--seed", "1", "--out", tmp_path / name,
                "--seat", f"0={PLUGINS}/good.py:{name}")
        assert r.exit_code == 0, r.output
    seats = pl.read_parquet(tmp_path / "first_or_random" / "seats.parquet")
    assert seats.filter(pl.col("seat") == 0)["strategy"][0] == "good.py:first-or-random"


def test_main_turns_usage_errors_into_one_line(capsys):
    assert main(["run", "--gmae", "x"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: No such option: --gmae") and "\n" not in err
    assert main(["replay", "--seed", "1"]) == 2
    assert "exactly one of --deal N or --match N" in capsys.readouterr().err


def test_installed_entry_point_strategies_are_found(monkeypatch):
    from importlib.metadata import EntryPoint

    import strategies

    ep = EntryPoint("shipped", "tests.plugins.good:lowest_card", "simtool.strategies")
    monkeypatch.setattr(strategies, "entry_points", lambda group: [ep] if group == ep.group else [])
    found = strategies.resolve("shipped", "black-white")
    assert found.name == "shipped" and "lowest-numbered" in found.description
    r = cli("strategies")
    assert "shipped" in r.stdout
