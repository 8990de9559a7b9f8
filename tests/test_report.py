"""HTML reports and sweeps, from small real runs."""

from __future__ import annotations

import re

import polars as pl
import pytest

import simtool
from simtool.reports import balance as report

from .conftest import undrawn_charts
from .test_cli import PLUGINS, cli, one_line_error

KC = ["run", "-g", "kansas-city", "--n", "3000", "--seed", "4", "--jobs", "1", "-q"]


@pytest.fixture(scope="module")
def kc_runs(tmp_path_factory):
    """Two Kansas City runs sharing their deals (one seed), one rule apart, and one rotated."""
    base = tmp_path_factory.mktemp("runs")
    out = [base / "pass3", base / "pass2", base / "rotated"]
    for folder, extra in zip(out, [[], ["--rule", "pass_count=2"],
                                   ["--seat", "0=greedy", "-s", "target", "--rotate"]], strict=True):
        assert cli(*KC, "--out", folder, *extra).exit_code == 0
    return out


@pytest.fixture(scope="module")
def kc_analysed(kc_runs):
    """Each of the runs analysed once for the tests that read its figures and findings (its charts
    built, not drawn: none of them looks at one)."""
    with undrawn_charts():
        return [report.analyse(p) for p in kc_runs]


def test_report_has_every_section_and_is_self_contained(kc_runs, tmp_path):
    page = tmp_path / "kc.html"
    r = cli("report", *kc_runs, "-o", page)
    assert r.exit_code == 0, r.output
    html = page.read_text()
    for needle in ['id="game-kansas-city"', "Runs side by side", 'class="seat-advantage"',
                   'class="strategy-strength"', "Players over the trick limit of 3, per deal",
                   "Skill versus luck", "goes over the trick limit", "pass_count = 2", "seed 4"]:
        assert needle in html, needle
    # win share and scores by seat per run, scores by strategy once, the ratings over the runs
    assert html.count("<svg") == 8 and "Ratings over all runs" in html
    assert "<script" not in html and not re.search(r"(src|href)=\"(https?:)?//", html)
    assert "shares its deals with run 1" in html  # one seed, one n: paired differences


def test_findings_quote_the_run(kc_runs, kc_analysed):
    a = kc_analysed[0]
    seats = pl.read_parquet(kc_runs[0] / "seats.parquet")
    share = seats.group_by("seat").agg(pl.col("win").mean()).sort("seat")["win"].to_list()
    worst = max(range(4), key=lambda s: abs(share[s] - 0.25))
    assert a.findings[0].startswith(f"Seat {worst} wins {100 * share[worst]:.1f}% ± ")
    assert "against 25.0% expected" in a.findings[0]
    assert a.strategies is None and "Every seat plays target" in a.findings[2]
    rotated = kc_analysed[2]
    assert rotated.strategies["strategy"].to_list() == ["target", "greedy"]
    assert rotated.strategies["seats"].to_list() == [3.0, 1.0]


def test_paired_difference_uses_the_shared_deals(kc_analysed):
    runs = kc_analysed[:2]
    c = report.compare(runs)
    assert c.paired == [True]
    name, cells, diffs = next(row for row in c.rows if row[0] == "overshoot rate (seats pooled)")
    a, b = (r.figures[name].per_row for r in runs)
    assert diffs[0][0].startswith(f"Δ from run 1: {100 * (b - a).mean():+.1f} pts")


def test_report_escapes_plugin_names(tmp_path):
    run = tmp_path / "run"
    r = cli("run", "--n", "300", "--seed", "1", "-q", "--out", run,
            "--seat", f"0={PLUGINS}/markup.py:markup", "-s", "random")
    assert r.exit_code == 0, r.output
    html = report.render([run])
    assert "<script>alert" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&lt;b&gt;bold&lt;/b&gt;" in html


def test_report_bad_input(tmp_path):
    one_line_error(cli("report", tmp_path, "-o", tmp_path / "r.html"), "not a finished run folder")
    assert not (tmp_path / "r.html").exists()
    one_line_error(cli("report", tmp_path / "missing"), "not a finished run folder")


def test_sweep_runs_every_cell_as_a_plain_run(tmp_path, charts_undrawn):
    # 500 deals: each cell is one chunk, as at any n up to a chunk's 32768, and compared with its
    # plain run row by row (2000 deals played the same path four times over)
    runs, page = tmp_path / "cells", tmp_path / "sweep.html"
    r = cli("sweep", "-g", "kansas-city", "-p", "4,5", "-r", "pass_count=3,2", "-l", "target",
            "-l", "greedy,target", "--rotate", "--n", "500", "--seed", "9", "--runs", runs,
            "-o", page, "-q", "--jobs", "2")
    assert r.exit_code == 0, r.output
    cells = sorted(p.name for p in runs.iterdir() if p.is_dir())
    assert (runs / "plan.json").is_file()  # what `simtool sweep --resume` reads
    assert len(cells) == 8 and "kansas-city_5p_pass_count-2_greedy+target" in cells
    alone = simtool.run("kansas-city", 500, players=5, strategy="target", seats={0: "greedy"},
                        rules={"pass_count": 2}, seed=9, rotate=True)
    cell = pl.read_parquet(runs / "kansas-city_5p_pass_count-2_greedy+target" / "seats.parquet")
    assert cell.equals(alone.seats)
    assert page.read_text().count('class="run"') == 8


def test_sweep_grid_file(tmp_path, charts_undrawn):
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["black-white", "trickster"]\nlineups = ["default", "default,random"]\n'
                    'n = 500\nseed = 2\nrotate = true\n')
    r = cli("sweep", grid, "--runs", tmp_path / "cells", "-o", tmp_path / "s.html", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / "cells").iterdir() if p.is_dir()) == [
        "black-white_3p_balance", "black-white_3p_balance+random",
        "trickster_4p_safe", "trickster_4p_safe+random"]


@pytest.mark.parametrize("args,needles", [
    (["-g", "skat"], ["unknown game 'skat'", "black-white"]),
    (["-g", "black-white", "-r", "pass_count=2"], ["unknown rule 'pass_count'", "deck, hand_size"]),
    (["-g", "kansas-city", "-r", "pass_count=7"], ["bad rule pass_count '7'", "3"]),
    (["-g", "kansas-city", "-p", "9"], ["4, 5 players, not 9"]),
    (["-g", "kansas-city", "-p", "four"], ["bad --players 'four'"]),
    (["-g", "kansas-city", "-l", "genius"], ["unknown strategy 'genius'"]),
    (["-g", "kansas-city", "-l", "a,b,c,d,e,f"], ["names 6 seats"]),
    ([], ["at least one game"]),
    (["nowhere.toml"], ["grid file nowhere.toml not found"]),
])
def test_sweep_bad_input(tmp_path, args, needles):
    r = cli("sweep", *args, "--n", "100", "--runs", tmp_path / "cells", "-o", tmp_path / "s.html")
    one_line_error(r, *needles)
    assert not (tmp_path / "s.html").exists() and not any((tmp_path).glob("cells/*/run.json"))


def test_sweep_grid_file_with_an_unknown_key(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["black-white"]\nplayer = [3]\n')
    one_line_error(cli("sweep", grid), "unknown key 'player'", "players")


def test_report_of_whole_matches(tmp_path, charts_undrawn):
    run = tmp_path / "matches"
    # 100 matches, not 300: the rate of rounds over rounds (13.5%) is still far from the mean of
    # the matches' own rates (19.8%), the report's error this test was written for
    assert cli("run", "-g", "nine-lives", "--unit", "match", "--n", "100", "--seed", "1", "-q",
               "-o", run, "--seat", "0=team", "-s", "exact", "--rotate").exit_code == 0
    a = report.analyse(run)
    assert a.unit == "matches" and a.seats["win"].sum() == pytest.approx(1, abs=1e-6)
    rounds = pl.read_parquet(run / "seats.parquet")
    made = a.figures["made rate (seats pooled)"]
    assert made.value == pytest.approx(rounds["made"].mean())  # rounds, not matches, weigh alike
    assert f"{100 * made.value:.1f}% ±" in a.findings[3] and "of rounds" in a.findings[3]
    assert "of matches per seat it holds" in a.findings[2]


def test_a_one_deal_run_reports_honest_intervals_without_warnings(tmp_path):
    import warnings

    run = tmp_path / "one"
    # every warning an error, as `python -W error -m simtool.cli` makes it, here in this process
    # (two interpreters' start-up was most of the test): a warning fails the command
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for args in (["run", "--n", "1", "--seed", "3", "-o", run],
                     ["report", run, "-o", tmp_path / "r.html"]):
            done = cli(*args)
            assert done.exit_code == 0 and done.exception is None and "Warning" not in done.output, \
                (done.output, done.exception)
            if args[0] == "run":
                assert "100.0% (20.7–100.0)" in done.stdout and "± n/a" in done.stdout
                assert "± 0.000" not in done.stdout and "-0.0" not in done.stdout
    first = report.analyse(run).findings[0]
    assert "100.0% (20.7–100.0%)" in first and "too few deals to tell" in first and "± 0.0%" not in first


def test_the_report_says_how_much_pairing_gained(kc_analysed):
    c = report.compare(kc_analysed[:2])
    assert c.paired == [True] and len(c.gains[0]) >= 5
    text = c.gain_text(2)
    assert ("Pairing made the intervals" in text) != ("Pairing gained little" in text)


def test_a_chart_is_the_svg_savefig_writes(kc_runs):
    """svg() lays a chart out once and draws it once, where savefig draws it a first time to lay it
    out: the same SVG, byte for byte (ids made from a fixed salt, as savefig's are from a random one)."""
    import io

    import matplotlib

    from simtool.analysis import labels

    seats = pl.read_parquet(kc_runs[2] / "seats.parquet")  # two strategies: bars side by side, a legend
    counted = seats.group_by(pl.col("strategy").cast(pl.String), "score").len()
    with matplotlib.rc_context({"svg.hashsalt": "simtool"}):
        ours = report.svg(report.distribution(counted, "score", "strategy", "score per deal"))
        chart = report.distribution(counted, "score", "strategy", "score per deal")
        labels.plain(chart)
        buf = io.StringIO()
        with matplotlib.rc_context(labels.PLAIN):
            chart.savefig(buf, format="svg", metadata={"Date": None})
    assert ours.startswith("<svg") and "<path" in ours
    assert ours == buf.getvalue()[buf.getvalue().index("<svg"):]
