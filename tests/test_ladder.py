"""The skill ladder: plan, run folders, flattening, determinism, report section, sweeps."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from simtool.analysis import ladder as ladders
from simtool.commands import ladder
from simtool.errors import SimtoolError

from .test_cli import cli, one_line_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts


def test_default_rungs_climb_to_the_game_default_then_pimc_with_doubling_samples():
    searches = [f"pimc@samples={k}" for k in (4, 8, 16, 32, 64)]
    assert ladder.default_rungs("black-white") == ["random", "duck", "balance", *searches]
    assert ladder.default_rungs("kansas-city") == ["random", "greedy", "target", *searches]
    specs, extra = ladder.plan("black-white", None, None, 1000, 1)
    # samples=8 is pimc's default: that rung is plain pimc
    assert [s.lineup[0] for s in specs[:-1]] == ["duck", "balance", "pimc@samples=4", "pimc",
                                            "pimc@samples=16", "pimc@samples=32", "pimc@samples=64"]
    assert specs[2].lineup == ("pimc@samples=4", "balance", "balance")
    assert extra[-2]["ladder"]["rung"] == 7 and len(extra[-2]["ladder"]["rungs"]) == 8
    # atop the chain, apart from it: the reference rung, the same search on the true deal
    assert specs[-1].lineup == ("clairvoyant", "pimc@samples=32", "pimc@samples=32")  # the top's place
    assert extra[-1]["ladder"] == {"rung": 8, "rungs": extra[-2]["ladder"]["rungs"], "reference": True}


def test_plan_rotates_one_climber_against_the_rung_below():
    specs, extra = ladder.plan("kansas-city", 5, {"pass_count": "2"}, 2000, 7,
                               ["random", "greedy", "target@under=1"])
    assert [s.lineup for s in specs] == [("greedy",) + ("random",) * 4,
                                         ("target@under=1",) + ("greedy",) * 4]
    assert all(s.rotate and s.seed == 7 and s.players == 5 and s.rules["pass_count"] == 2 for s in specs)
    assert [e["ladder"] for e in extra] == [{"rung": k, "rungs": ["random", "greedy", "target@under=1"]}
                                            for k in (1, 2)]


@pytest.mark.parametrize("rungs,needles", [
    ("random", ["at least two rungs"]),
    ("random,,balance", ["bad rungs 'random,,balance'", "NAME,NAME,..."]),
    ("", ["bad rungs ''"]),
    ("random,balance,balance@mistakes=0", ["rung 'balance' appears twice"]),
    ("random,genius", ["unknown strategy 'genius'", "balance"]),
    ("random,balance@mistakes=3", ["bad parameter mistakes '3'", "0..1"]),
    ("random,target", ["strategy 'target' plays kansas-city, not black-white"]),
])
def test_bad_ladders_are_one_line_and_exit_2(tmp_path, rungs, needles):
    r = cli("ladder", "--rungs", rungs, "--n", "100", "--runs", tmp_path / "rungs", "-o", tmp_path / "l.html")
    one_line_error(r, *needles)
    assert not (tmp_path / "l.html").exists() and not (tmp_path / "rungs").exists()


def test_ladder_end_to_end_flattens_where_the_climb_stops_paying(tmp_path):
    runs, page = tmp_path / "rungs", tmp_path / "ladder.html"
    # a careless balance player is weaker than balance: the climb stops paying at rung 2
    r = cli("ladder", "-g", "black-white", "--rungs", "random,balance,balance@mistakes=0.6",
            "--n", "3000", "--seed", "5", "-j", "2", "--runs", runs, "-o", page)
    assert r.exit_code == 0, r.output
    assert "The ladder flattens at rung 2: balance@mistakes=0.6 wins" in r.stdout
    assert "clearly below the fair 33.3%: it is weaker than the rung below" in r.stdout
    folders = sorted(p for p in runs.iterdir() if p.is_dir())
    assert [p.name for p in folders] == ["black-white_3p_balance+random",
                                         "black-white_3p_balance@mistakes=0.6+balance"]
    meta = json.loads((folders[0] / "run.json").read_text())
    assert meta["ladder"] == {"rung": 1, "rungs": ["random", "balance", "balance@mistakes=0.6"]}
    assert meta["rotate"] and meta["lineup"] == ["balance", "random", "random"]
    (climbed,) = ladders.ladders(folders)
    first, second = climbed.rungs
    assert first.pays and not second.pays and second.weaker and climbed.flattens is second
    assert (first.verdict, second.verdict) == ("yes", "no, weaker")
    # the rung's share is the climber's win share per seat it holds, as strategy strength has it
    seats = pl.read_parquet(folders[0] / "seats.parquet")
    assert first.share == pytest.approx(seats.filter(pl.col("strategy") == "balance")["win"].mean())
    assert first.low < first.share < first.high and first.high - first.low < 0.05
    html = page.read_text()
    assert html.count('class="ladder"') == 1 and "Skill ladder: 3 players" in html
    assert "The ladder flattens at rung 2" in html
    assert "Skill versus luck: the skill ladder&#39;s top rung, balance@mistakes=0.6" in html
    assert html.count('class="run"') == 2  # each rung is a run of its own


@pytest.fixture
def no_search(monkeypatch):
    """Default rungs without the pimc rungs: a ladder's plumbing, tested at heuristic speed."""
    monkeypatch.setattr(ladder, "PIMC_SAMPLES", ())


def test_ladder_results_do_not_depend_on_jobs(tmp_path, no_search):
    tables = {}
    for jobs in (1, 2):
        runs = tmp_path / f"j{jobs}"
        # what `simtool ladder` plays, without its page (the tables are compared); 600 deals: one
        # chunk per rung, as at any n below a chunk, so the two jobs share the rungs out
        ladder.climb("kansas-city", runs, n=600, seed=11, jobs=jobs)
        tables[jobs] = {p.name: pl.read_parquet(p / "seats.parquet") for p in runs.iterdir() if p.is_dir()}
    assert sorted(tables[1]) == ["kansas-city_4p_greedy+random",
                                 "kansas-city_4p_target+greedy"]
    for name, seats in tables[1].items():
        assert seats.equals(tables[2][name]), name


def test_sweep_climbs_a_ladder_per_rule_variant(tmp_path, no_search):
    runs, page = tmp_path / "cells", tmp_path / "sweep.html"
    # what is checked is where the rungs go and what the page says of them, at any n
    r = cli("sweep", "-g", "kansas-city", "-r", "pass_count=3,0", "--ladder", "--n", "400",
            "--seed", "3", "--runs", runs, "-o", page, "-q", "-j", "2")
    assert r.exit_code == 0, r.output
    folders = [p for p in runs.iterdir() if p.is_dir()]
    assert len(folders) == 4
    climbed = ladders.ladders(folders)
    assert sorted(lad.rules["pass_count"] for lad in climbed) == [0, 3]
    html = page.read_text()
    assert html.count('class="ladder"') == 2
    assert "Skill ladder: 4 players, pass_count = 0, hands = 3" in html
    import shutil

    lost = folders[0]
    shutil.rmtree(lost)  # a rung lost: the resumed sweep plays it again, as a rung
    r = cli("sweep", "--resume", runs, "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    assert "rung" in json.loads((lost / "run.json").read_text())["ladder"]
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["black-white"]\nladder = true\nn = 200\nseed = 1\n')
    r = cli("sweep", grid, "--runs", tmp_path / "grid", "-o", tmp_path / "g.html", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    assert len([p for p in (tmp_path / "grid").iterdir() if p.is_dir()]) == 2


def test_a_ladder_sweep_plays_no_line_ups(tmp_path):
    one_line_error(cli("sweep", "-g", "kansas-city", "--ladder", "-l", "greedy", "--runs", tmp_path / "c"),
                   "a ladder sweep plays its own line-ups")
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["black-white"]\nladder = "yes"\n')
    one_line_error(cli("sweep", grid, "--runs", tmp_path / "c"), "bad ladder 'yes'", "true or false")


def test_a_report_of_plain_runs_uses_the_ladder_for_skill_versus_luck(tmp_path):
    ladder.climb("black-white", tmp_path / "rungs", rungs=["random", "duck", "balance"], n=1000, seed=2,
                 jobs=1)  # what `simtool ladder` plays; its page is not what is checked here
    assert cli("run", "--n", "1000", "--seed", "2", "-j", "1", "-q", "-s", "random", "--seat", "0=duck",
               "--rotate", "--out", tmp_path / "plain").exit_code == 0
    folders = [p for p in (tmp_path / "rungs").iterdir() if p.is_dir()]
    from simtool.reports import balance as report

    (climbed,) = ladders.ladders(folders)
    plain = report.analyse(tmp_path / "plain", [climbed])
    assert any(f.startswith("Skill versus luck: the skill ladder's top rung, balance, wins") for f in plain.findings)
    rung = report.analyse(folders[0], [climbed])  # a rung keeps the sentence about its own pair
    assert any(f.startswith("Skill versus luck:") and "top rung" not in f for f in rung.findings)


def test_rung_of_a_plain_run_is_refused(tmp_path):
    assert cli("run", "--n", "300", "--seed", "2", "-j", "1", "-q", "--out", tmp_path / "plain").exit_code == 0
    with pytest.raises(SimtoolError, match="not a ladder rung"):
        ladders.rung(tmp_path / "plain")
    assert ladders.ladders([tmp_path / "plain"]) == []


def test_climb_from_python_plays_each_rung_as_the_plain_rotated_run(tmp_path):
    import simtool

    climbed, paths = ladder.climb("black-white", tmp_path / "rungs", rungs=["random", "balance@mistakes=0.2"],
                                  n=800, seed=4, jobs=1)
    (only,) = climbed.rungs
    assert (only.rung, only.name, only.below) == (1, "balance@mistakes=0.2", "random")
    alone = simtool.run("black-white", 800, strategy="random", seats={0: "balance@mistakes=0.2"},
                        seed=4, rotate=True)
    assert pl.read_parquet(paths[0] / "seats.parquet").equals(alone.seats)


def test_a_longer_ladder_in_the_same_folder_refiles_the_shared_rung(tmp_path):
    runs = tmp_path / "rungs"
    short, _ = ladder.climb("black-white", runs, rungs=["random", "duck"], n=500, seed=1, jobs=1)
    longer, paths = ladder.climb("black-white", runs, rungs=["random", "duck", "balance"], n=500,
                                 seed=1, jobs=1)
    assert [r.name for r in longer.rungs] == ["duck", "balance"]
    assert longer.rungs[0].share == short.rungs[0].share  # the same run, now a rung of the longer ladder
    assert json.loads((paths[0] / "run.json").read_text())["ladder"]["rungs"] == ["random", "duck", "balance"]


def test_a_ladder_of_whole_matches_counts_match_wins(tmp_path):
    climbed, paths = ladder.climb("black-white", tmp_path / "rungs", rungs=["random", "balance"], n=300,
                                  seed=2, unit="match", jobs=1)
    matches = pl.read_parquet(paths[0] / "matches.parquet")
    assert climbed.unit == "match"
    from simtool.reports import balance as report

    assert "of matches in its one seat against 2 × random" in report.ladder_skill(climbed)
    assert climbed.rungs[0].share == pytest.approx(matches.filter(pl.col("strategy") == "balance")["win"].mean())


@pytest.mark.parametrize("rungs,reference,expected", [
    (["balance", "pimc@samples=4,playout=duck,value=win"], None, "clairvoyant@playout=duck,value=win"),
    (["balance", "pimc@samples=4"], False, None),
    (["duck", "balance"], None, None),  # no search on top: no reference unless asked
    (["duck", "balance"], True, "clairvoyant"),
    # a plugin may not play out the true deal: no reference by default
    (["balance", f"pimc@samples=4,playout={Path(__file__).parent / 'plugins' / 'good.py'}:lowest_card"], None, None),
])
def test_the_reference_rung_runs_the_top_search_on_the_true_deal(rungs, reference, expected):
    specs, extra = ladder.plan("black-white", None, None, 1000, 1, rungs, reference=reference)
    refs = [s.lineup for s, e in zip(specs, extra, strict=True) if e["ladder"].get("reference")]
    below = specs[len(rungs) - 2].lineup[1]  # the rung below the top: the top rung's opponents
    assert refs == ([] if expected is None else [(expected, below, below)])


def _rung(name, below, share, low, high, fair=0.25):
    return ladders.Rung(1, name, below, share, low, high, fair, 0.0, None)


@pytest.mark.parametrize("share,low,high,expected", [
    (0.253, 0.246, 0.259, True),    # under one point with 95% confidence: converged
    (0.270, 0.262, 0.278, False),   # two points, clearly above fair: still gaining
    (0.255, 0.245, 0.265, None),    # could be under or over a point: play more deals
    (0.270, 0.245, 0.295, None),    # two points on the estimate, but not clearly above fair
])
def test_converged_reads_the_top_budget_step(share, low, high, expected):
    steps = [_rung("pimc@samples=16", "pimc", 0.3, 0.29, 0.31),
             _rung("pimc@samples=32", "pimc@samples=16", share, low, high)]
    climbed = ladders.Ladder("kansas-city", 4, {}, "deal", steps)
    assert ladders.converged(climbed) is expected
    word = {True: "Converged", False: "Still gaining", None: "Not yet clear"}[expected]
    assert ladders.convergence(climbed).startswith(word)


def test_a_top_step_between_two_strategies_says_nothing_of_convergence():
    climbed = ladders.Ladder("kansas-city", 4, {}, "deal", [_rung("target", "greedy", 0.26, 0.255, 0.265)])
    assert ladders.converged(climbed) is None
    assert "cannot say whether more search would still gain" in ladders.convergence(climbed)


def test_a_search_ladder_shows_each_budget_step_convergence_and_the_reference(tmp_path):
    runs = tmp_path / "rungs"
    r = cli("ladder", "-g", "black-white", "--rungs", "random,pimc@samples=1,pimc@samples=2", "--n", "150",
            "--seed", "3", "-j", "1", "--runs", runs, "-o", tmp_path / "l.html")
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    assert "pimc@samples=2 over pimc@samples=1 gains" in text and " pts (" in text
    assert any(w in text for w in ("Converged:", "Still gaining:", "Not yet clear"))
    assert "Reference, not a fair player: clairvoyant" in text and "clairvoyant (not fair)" in text
    folders = [p for p in runs.iterdir() if p.is_dir()]
    (climbed,) = ladders.ladders(folders)
    assert [x.name for x in climbed.rungs] == ["pimc@samples=1", "pimc@samples=2"]  # the fair chain
    assert (climbed.reference.name, climbed.reference.below) == ("clairvoyant", "pimc@samples=1")
    gain, low, high = ladders.price(climbed)
    assert gain == pytest.approx(climbed.reference.share - climbed.top.share) and low < gain < high
    html = (tmp_path / "l.html").read_text()
    assert "Reference, not a fair player" in html and "sees every card: not a fair player" in html


def test_a_duplicate_ladder_plays_each_rung_as_the_duplicate_run(tmp_path):
    import simtool

    dup, paths = ladder.climb("black-white", tmp_path / "dup", rungs=["random", "balance"], n=500, seed=6,
                              jobs=1, duplicate=True)
    meta = json.loads((paths[0] / "run.json").read_text())
    assert meta["duplicate"] and meta["ladder"]["rung"] == 1
    alone = simtool.run("black-white", 500, strategy="random", seats={0: "balance"}, seed=6, duplicate=True)
    seats = pl.read_parquet(paths[0] / "seats.parquet")
    assert seats.equals(alone.seats) and seats.height == 500 * 3 * 3  # each deal once per rotation
    # the rung's share and interval are the run's own (a duplicate deal's copies are one unit)
    row = alone.tables()["By strategy (seats pooled)"].filter(pl.col("strategy") == "balance").row(0, named=True)
    (step,) = dup.rungs
    assert (step.share, step.low, step.high) == pytest.approx((row["win"], row["win_low"], row["win_high"]))
    r = cli("ladder", "-g", "black-white", "--rungs", "random,balance", "--n", "500", "--seed", "6", "-j", "1",
            "--duplicate", "--runs", tmp_path / "dup", "-o", tmp_path / "d.html")
    assert r.exit_code == 0 and "duplicate deals (each once per rotation)" in " ".join(r.stdout.split())


def test_a_ladder_sweep_with_duplicate_climbs_duplicate_ladders(tmp_path, no_search):
    from simtool.commands import sweep

    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["black-white"]\nladder = true\nduplicate = true\nn = 300\nseed = 1\n')
    specs, extra = sweep.plan(sweep.make_grid(sweep.read_toml(grid)))
    assert [s.lineup[0] for s in specs] == ["duck", "balance"] and all(s.duplicate for s in specs)
    assert [e["ladder"]["rung"] for e in extra] == [1, 2]
