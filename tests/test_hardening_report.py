"""Reports of damaged or inconsistent run folders, and what an honest report must say.

Every damaged folder is a copy of a small real run with one thing broken, the way a disk,
a careless edit or a copied file breaks it.
"""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest

from simtool.engine import ROUND_CAP
from simtool.errors import SimtoolError
from simtool.pipeline import folders as results
from simtool.reports import balance as report

from .test_cli import cli, one_line_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A 3-player deal run and a 2-player Nine Lives match run (``low`` caps some matches)."""
    base = tmp_path_factory.mktemp("runs")
    deals, matches = base / "deals", base / "matches"
    assert cli("run", "--n", "300", "--seed", "1", "--jobs", "1", "-q", "-o", deals).exit_code == 0
    assert cli("run", "-g", "nine-lives", "-p", "2", "-s", "low", "--unit", "match", "--n", "300",
               "--seed", "1", "--jobs", "1", "-q", "-o", matches).exit_code == 0
    return {"deals": deals, "matches": matches}


def edit_meta(**changes):
    def damage(folder):
        meta = json.loads((folder / "run.json").read_text())
        for key, value in changes.items():
            if value is None:
                del meta[key]
            else:
                meta[key] = value
        (folder / "run.json").write_text(json.dumps(meta))
    return damage


def write_text(name, text):
    return lambda folder: (folder / name).write_text(text)


def truncate(name):
    def damage(folder):
        data = (folder / name).read_bytes()
        (folder / name).write_bytes(data[: len(data) // 2])
    return damage


def remove(name):
    return lambda folder: (folder / name).unlink()


def rewrite(name, change):
    def damage(folder):
        change(pl.read_parquet(folder / name)).write_parquet(folder / name)
    return damage


DAMAGE = [
    ("deals", write_text("run.json", ""), ["run.json", "empty"]),
    ("deals", write_text("run.json", '{"game": "black-white", "players": '),
     ["run.json", "not valid JSON"]),
    ("deals", write_text("run.json", "[1, 2]"), ["run.json", "not a JSON object"]),
    ("deals", edit_meta(players=None), ["run.json", "no 'players'"]),
    ("deals", edit_meta(n=None), ["run.json", "no 'n'"]),
    ("deals", edit_meta(players="three"), ["run.json", "'players'", "'three'"]),
    ("deals", edit_meta(game="skat"), ["run.json", "unknown game 'skat'"]),
    ("deals", edit_meta(lineup=["balance"] * 2), ["run.json", "2 seats", "3 players"]),
    ("deals", remove("seats.parquet"), ["seats.parquet", "missing"]),
    ("deals", write_text("seats.parquet", ""), ["seats.parquet", "empty"]),
    ("deals", truncate("seats.parquet"), ["seats.parquet", "not a readable table"]),
    ("deals", rewrite("seats.parquet", lambda t: t.drop("win")),
     ["seats.parquet", "no 'win' column"]),
    ("deals", rewrite("seats.parquet", lambda t: t.with_columns(pl.col("win").cast(pl.String))),
     ["seats.parquet", "'win'", "String"]),
    ("deals", rewrite("seats.parquet", lambda t: t.filter(pl.col("seat") != 2)),
     ["seats.parquet", "3 players"]),
    ("deals", edit_meta(players=4, lineup=["balance"] * 4), ["seats.parquet", "4 players"]),
    ("deals", rewrite("seats.parquet", lambda t: t.with_columns(  # deal 5's seats out of order
        pl.when(pl.col("deal") == 5).then(pl.col("seat").reverse()).otherwise(pl.col("seat")))),
     ["seats.parquet", "seat order"]),
    ("matches", remove("matches.parquet"), ["matches.parquet", "missing"]),
    ("matches", truncate("matches.parquet"), ["matches.parquet", "not a readable table"]),
    ("matches", rewrite("matches.parquet", lambda t: t.drop("capped")),
     ["matches.parquet", "no 'capped' column"]),
    ("matches", rewrite("seats.parquet", lambda t: t.filter(pl.col("round") > 0)),
     ["seats.parquet", "rounds", "matches.parquet"]),
]


@pytest.mark.parametrize("kind,damage,needles", DAMAGE)
def test_damaged_run_folder_is_one_line_and_no_report(runs, tmp_path, kind, damage, needles):
    folder = tmp_path / "run"
    shutil.copytree(runs[kind], folder)
    damage(folder)
    page = tmp_path / "out" / "report.html"
    r = cli("report", folder, "-o", page)
    one_line_error(r, *needles)
    assert str(folder) in r.stderr.replace("\n", "")
    assert not page.exists() and not (tmp_path / "out").exists()
    with pytest.raises(SimtoolError):  # the run summary reads the folder through the same check
        results.load(folder)


@pytest.mark.parametrize("kind,unit,key", [("deals", "deals", "deal"),
                                           ("matches", "matches", "match")])
def test_tables_shorter_than_run_json_are_refused(runs, tmp_path, kind, unit, key):
    folder = tmp_path / "run"
    shutil.copytree(runs[kind], folder)
    name = "seats.parquet" if kind == "deals" else "matches.parquet"
    rewrite(name, lambda t: t.filter(pl.col(key) < 150))(folder)
    r = cli("report", folder, "-o", tmp_path / "r.html")
    one_line_error(r, name, f"holds 150 {unit}", "run.json says 300")
    assert not (tmp_path / "r.html").exists()


def test_more_players_in_the_table_than_in_run_json_is_refused(runs, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(runs["deals"], folder)
    edit_meta(players=2, lineup=["balance"] * 2)(folder)
    one_line_error(cli("report", folder, "-o", tmp_path / "r.html"), "seats.parquet", "2 players")


def test_an_intact_run_still_loads(runs):
    meta, seats, matches = results.load(runs["matches"])
    assert meta["n"] == 300 and matches.collect().height == 600
    rounds = matches.filter(pl.col("seat") == 0).collect()["rounds"].sum()
    assert seats.collect().height == 2 * rounds


def test_capped_matches_are_a_finding(runs, tmp_path):
    table = pl.read_parquet(runs["matches"] / "matches.parquet").filter(pl.col("seat") == 0)
    capped = table["capped"].sum()
    assert capped > 0  # Nine Lives 2p under low: about one match in eight never ends
    a = report.analyse(runs["matches"])
    flagged = [f for f in a.findings if f"{ROUND_CAP}-round cap" in f]
    assert len(flagged) == 1
    assert flagged[0].startswith(f"{capped} of 300 matches ({100 * capped / 300:.1f}%) hit the "
                                 f"{ROUND_CAP}-round cap")
    page = tmp_path / "r.html"
    assert cli("report", runs["matches"], runs["deals"], "-o", page).exit_code == 0
    assert page.read_text().count(f"{ROUND_CAP}-round cap") == 1  # the deal run has no matches


def test_a_match_run_without_capped_matches_says_nothing_of_the_cap(tmp_path):
    run = tmp_path / "run"
    assert cli("run", "-g", "kansas-city", "--unit", "match", "--n", "40", "--seed", "1",
               "--jobs", "1", "-q", "-o", run).exit_code == 0
    assert not pl.read_parquet(run / "matches.parquet")["capped"].any()
    assert not any("cap" in f for f in report.analyse(run).findings)
