"""The tool speaks the designer's language (issue 24): tune's recommendation in words, settings
merged as the game plays them, a larger --trials extending a study, --version and the bare
command list, the balance report's verdicts, glossary and plain headers, edge over fair share
compared only between like runs, and run's one-line seat verdict."""

from __future__ import annotations

import pytest

from simtool import games, options
from simtool.analysis import tuning
from simtool.cli import main
from simtool.commands import tune

from .conftest import undrawn_charts
from .test_hardening_tune_sweep import fake_measure, trials

# ---- tune: settings as played -----------------------------------------------------------------


def test_every_sheet_number_is_played_as_a_number_at_every_player_count():
    for g in games.registry().values():
        for p in g.players:
            played = g.played(options.resolve(g, {}), p)
            sheet = [o.name for o in g.options if o.auto == "sheet"]
            assert all(played[name] != "sheet" for name in sheet), (g.id, p)


def test_the_sheet_and_its_number_are_one_setting():
    four = tune.configure("kansas-city", ["limit=sheet,2,3"], ["seat_spread"], trials=10, n=100, seed=1)
    assert tuning.setting(four, {"limit": "sheet"}) == tuning.setting(four, {"limit": 3}) == (3,)
    assert [c["limit"] for c in tune.combinations(four)] == ["sheet", 2]  # 3 is the sheet's
    assert tuning.values_text(four, {"limit": "sheet"}) == ["3 (the sheet's)"]
    five = tune.configure("kansas-city", ["limit=sheet,2,3"], ["seat_spread"], players=5, trials=10,
                          n=100, seed=1)
    assert tuning.setting(five, {"limit": "sheet"}) == (2,)  # the sheet's limit at 5p
    assert [c["limit"] for c in tune.combinations(five)] == ["sheet", 3]


# ---- tune: a larger --trials extends the study ------------------------------------------------

KC = ["pass_count", "hands", "limit=1..3"]  # 24 combinations: TPE below 24 trials, a grid from 24


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(tune, "measure", fake_measure)


@pytest.mark.parametrize("objectives", [["seat_spread"], ["seat_spread", "first_seat_edge"]])
def test_a_larger_trials_count_extends_to_the_trials_of_an_unbroken_tuning(tmp_path, fake, objectives):
    small, large = (tune.configure("kansas-city", KC, objectives, trials=k, n=100, seed=5) for k in (3, 7))
    whole = tune.tune(large, tmp_path / "whole", jobs=1)
    tune.tune(small, tmp_path / "grown", jobs=1)
    assert len(trials(tmp_path / "grown")) == 3
    grown = tune.tune(large, tmp_path / "grown", jobs=1)
    assert trials(tmp_path / "grown") == trials(tmp_path / "whole")  # numbers, values: the same trials
    assert grown["confirmed"] == whole["confirmed"] and grown["recommendation"] == whole["recommendation"]
    assert tune.read_config(tmp_path / "grown").trials == 7


@pytest.mark.usefixtures("charts_undrawn")  # its pages' charts are not looked at
def test_the_same_command_with_more_trials_extends_and_resume_takes_trials(tmp_path, fake, capsys):
    out = tmp_path / "t"
    args = ["tune", "--game", "kansas-city", *(x for v in KC for x in ("--vary", v)), "--objective",
            "seat_spread", "--n", "100", "--seed", "5", "--jobs", "1", "--out", str(out), "-q"]
    assert main([*args, "--trials", "2"]) == 0
    assert main([*args, "--trials", "4"]) == 0
    assert len(trials(out)) == 4
    assert main(["tune", "--resume", str(out), "--trials", "5", "-q", "--jobs", "1"]) == 0
    assert len(trials(out)) == 5
    capsys.readouterr()
    assert main([*args, "--trials", "3"]) == 2  # fewer than made: an unbroken tuning of 3 differs
    err = capsys.readouterr().err
    assert "holds 5 finished trials already" in err and "--trials 5 or more" in err and err.count("\n") == 1
    assert main([*args, "--trials", "30"]) == 2  # 30 trials cover the 24 combinations with a grid
    err = capsys.readouterr().err
    assert "tpe sampler" in err and "grid sampler" in err and "below 24" in err and err.count("\n") == 1
    assert len(trials(out)) == 5 and tune.read_config(out).trials == 5  # refused: nothing changed


# ---- tune: the recommendation -----------------------------------------------------------------

def remeasure(label, pass_count, value, low, high, trial=None):
    return {"label": label, "params": {"pass_count": pass_count}, "trials": [] if trial is None else [trial],
            "n": 4000, "seed": 2, "values": {"seat_spread:min": [value, low, high]}}


@pytest.fixture
def spread():
    return tune.configure("kansas-city", ["pass_count"], ["seat_spread"], trials=10, n=1000, seed=1)


def said(config, confirmed):
    return tuning.recommendation(config, confirmed, tune.best(config, confirmed))


def test_a_best_that_its_intervals_cannot_tell_from_the_sheet_says_how_many_deals_would(spread):
    base = remeasure("defaults", 3, 0.03, 0.02, 0.04)
    text = said(spread, [base, remeasure("trial 2", 2, 0.025, 0.015, 0.035, 2)])
    assert text.startswith("pass_count=2 looks best, but it cannot be told from the sheet's pass_count=3 "
                           "at this budget")
    # half-width sqrt(2) * 0.01 against a difference of 0.005: 8 times the deals, a tenth over,
    # at a re-measure of 4 times a trial's n
    assert "--n 8800 or more (now 1,000; a new --out)" in text and "play 35,200 deals each" in text


def test_a_clearly_better_setting_and_a_clearly_worse_search_are_said_so(spread):
    base = remeasure("defaults", 3, 0.03, 0.02, 0.04)
    text = said(spread, [base, remeasure("trial 2", 2, 0.005, 0.0, 0.01, 2)])
    assert text.startswith("pass_count=2 is clearly better than the sheet's pass_count=3 (seat_spread:min "
                           "0.0050 [0.0000, 0.0100] against the sheet's 0.0300")
    assert text.endswith("Change to pass_count=2.")
    text = said(spread, [base, remeasure("trial 2", 2, 0.06, 0.05, 0.07, 2)])
    assert text.startswith("No setting tried beats the sheet's pass_count=3") and "Keep the sheet" in text


def test_the_sheet_itself_best_when_a_candidate_trial_has_its_setting(spread):
    base = remeasure("defaults", 3, 0.01, 0.0, 0.02, 4)  # trial 4 drew pass_count=3: merged
    assert tune.best(spread, [base, remeasure("trial 1", 1, 0.05, 0.04, 0.06, 1)]) == [base]
    assert said(spread, [base, remeasure("trial 1", 1, 0.05, 0.04, 0.06, 1)]) == (
        "The sheet's own pass_count=3 is best: every other setting re-measured is clearly worse on "
        "seat_spread:min. Keep the sheet.")
    assert said(spread, [base, remeasure("trial 1", 1, 0.02, 0.01, 0.03, 1)]).startswith(
        "The sheet's own pass_count=3 looks best: no other setting re-measured is clearly better")


@pytest.mark.parametrize("direction, gap, verdict", [
    ("min", 0.1, "same"), ("min", 0.1 + 1e-9, "worse"), ("min", -0.1 - 1e-9, "better"),
    ("max", 0.1, "same"), ("max", 0.1 + 1e-9, "better"), ("max", -0.1 - 1e-9, "worse"),
])
def test_a_difference_at_its_interval_is_no_difference(direction, gap, verdict):
    objective = tune.Objective("skill", direction)
    # half-widths 0.06 and 0.08: 0.1 in quadrature
    assert tuning.difference([gap, gap - 0.06, gap + 0.06], [0.0, -0.08, 0.08], objective)[2] == verdict


@pytest.mark.parametrize("n, text", [(7, "7"), (995, "1000"), (9999, "1e4"), (10_001, "1.1e4"),
                                     (239_001, "2.4e5"), (1_000_000, "1e6")])
def test_n_is_rounded_up_as_n_is_written(n, text):
    assert tuning.nice(n) == text
    assert int(float(text)) >= n


@pytest.mark.usefixtures("charts_undrawn")  # its pages' charts are not looked at
def test_known_answer_a_limit_that_cannot_overshoot_as_often_is_recommended(tmp_path, capsys):
    """limit=4 lets a player win 4 tricks before overshooting: far fewer overshoots than the
    sheet's 3 at 4p, and limit=1 far more; sheet and 3 are one setting (measured once)."""
    common = ["tune", "--game", "kansas-city", "--objective", "overshoot:min", "--n", "300", "--seed", "5",
              "--jobs", "1", "-q"]
    assert main([*common, "--vary", "limit=sheet,3,4", "--out", str(tmp_path / "up")]) == 0
    out = capsys.readouterr().out
    assert "2 trials in" in out and "limit=4 is clearly better than the sheet's limit=3" in out
    assert "Change to limit=4." in out
    html = (tmp_path / "up" / "tune.html").read_text()
    assert html.index("Recommendation") < html.index("Best settings") and "limit=4 is clearly better" in html
    assert main([*common, "--vary", "limit=1,sheet", "--out", str(tmp_path / "down")]) == 0
    assert ("The sheet's own limit=3 is best: every other setting re-measured is clearly worse"
            in capsys.readouterr().out)


# ---- the command line: --version, bare simtool, run's seat verdict -----------------------------

def test_version_and_the_bare_command_list(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"simtool {version('simtool')}\n"
    assert main([]) == 0  # bare simtool: the command list, exit status 0 (as --help)
    lines = capsys.readouterr().out.splitlines()
    commands = [line.split()[0] for line in lines if line.startswith("  ")]
    assert commands[:4] == ["run", "report", "sweep", "tune"] and "replay" in commands
    listed = {line.split()[0]: line for line in lines if line.startswith("  ")}
    assert listed["tune"].split(None, 1)[1] == "Search rule options towards targets and write a tuning report"
    assert all(len(line) < 160 for line in lines)  # one line each, not run together


def test_run_ends_with_the_seat_verdict_of_its_own_seat_table(tmp_path, capsys):
    import polars as pl

    from simtool.analysis import verdicts

    out = tmp_path / "kc"
    assert main(["run", "-g", "kansas-city", "--n", "2000", "--seed", "3", "-j", "1", "-o", str(out)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    seats = pl.read_parquet(out / "seats.parquet")
    share = seats.group_by("seat").agg(pl.col("win").mean()).sort("seat")["win"].to_list()
    edges = [100 * (w - 0.25) for w in share]
    top = max(range(4), key=lambda s: abs(edges[s]))
    assert last.startswith("Seat verdict: ") and f"Seat {top} wins {100 * share[top]:.1f}% of deals" in last
    assert last.split(".")[0].split(": ")[1] in (*verdicts.SEAT_WORDS, verdicts.UNCLEAR)
    assert "under target at every seat" in last and last.endswith("strong >= 3.)")
    mixed = tmp_path / "mixed"
    assert main(["run", "-g", "kansas-city", "--n", "300", "--seed", "3", "-j", "1", "-o", str(mixed),
                 "--seat", "0=greedy"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("Seat verdict: none.") and "--rotate" in last


# ---- the balance report ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def kc_page(tmp_path_factory):
    """Kansas City: 4p, 4p with another pass count (the same deals), 5p, and 4p whole matches."""
    base = tmp_path_factory.mktemp("language")
    common = ["run", "-g", "kansas-city", "--seed", "4", "-j", "1", "-q"]
    runs = {"4p": ["--n", "600"], "4p-pass2": ["--n", "600", "--rule", "pass_count=2"],
            "5p": ["--n", "600", "-p", "5"], "matches": ["--n", "40", "--unit", "match"]}
    for name, extra in runs.items():
        assert main([*common, *extra, "-o", str(base / name)]) == 0
    folders = [base / name for name in runs]
    page = base / "report.html"
    with undrawn_charts():  # the tests read the page's words, tables and glossary, not its charts
        assert main(["report", *map(str, folders), "-o", str(page)]) == 0
    return folders, page.read_text()


def text_of(html_text: str) -> str:
    import html
    import re

    html_text = re.sub(r"<(svg|style).*?</\1>", " ", html_text, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_text)).split())


def test_the_report_opens_with_the_verdicts_of_each_run(kc_page):
    from simtool.analysis import verdicts
    from simtool.reports import balance

    folders, html = kc_page
    assert html.index('id="verdicts"') < html.index('id="contents"') < html.index('class="run"')
    top = text_of(html[html.index('id="verdicts"'):html.index('id="contents"')])
    for folder in folders:
        a = balance.analyse(folder, charts=False)
        seat = verdicts.seat_verdict(a.seats.select("seat", "win", "win_low", "win_high").rows(), a.p,
                                     a.meta["n"], a.unit, balance.lineup_text(a.meta))
        assert f"Seats {seat.word} {seat.sentence}" in top
        assert "Risk: how often a seat goes over the trick limit" in top  # a risk (Analysis.risks)
    assert top.count("Tension ") == 1  # the one run of whole matches


def test_statistics_are_folded_and_headers_are_words(kc_page):
    import re

    _, html = kc_page
    outside = re.sub(r'<details class="statistics">.*?</details>', "", html, flags=re.S)
    assert html.count('<details class="statistics">') == 4 and "Hotelling" in html
    assert not re.search(r"T²|\bF\(\d|\bp [=<] ?\d", text_of(outside).split("Glossary")[0])
    headers = re.findall(r"<th>(.*?)</th>", html)
    assert headers and not [h for h in headers if "_" in h]
    assert "Winner was behind after round 1" in headers and "winner_behind_after_round_1" not in html


def test_the_glossary_explains_every_term_the_page_uses_and_no_other(kc_page):
    import re

    _, html = kc_page
    glossary = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html[html.index('id="glossary"'):]))
    page = text_of(html[:html.index('id="glossary"')])
    for term in ("win share", "fair share", "edge", "95% interval", "Δ", "paired", "unclear", "common",
                 "tension", "lead change", "rate", "Hotelling&#39;s T²", "p", "F"):
        assert term in glossary, term
    for term in ("skill ladder", "restricted play", "duplicate", "skill index", "interplay"):
        assert term not in glossary and term not in page.lower(), term


def test_score_distributions_are_bars():
    import polars as pl

    from simtool.reports import balance

    rows = pl.DataFrame({"seat": [0, 1, 0, 1, 0, 1], "score": [0, 5, 5, 10, 15, 5]})
    counted = rows.group_by(pl.col("seat").cast(pl.String), "score").len()  # as balance.Reading counts them
    ax = balance.distribution(counted, "score", "seat", "score per deal").axes[0]
    assert len(ax.patches) == 5 and not ax.lines  # a bar per seat and score seen, no joined points
    bars = sorted((round(p.get_x() + p.get_width() / 2, 6), round(p.get_height(), 6)) for p in ax.patches)
    # side by side at each score: seat 0 left of it, seat 1 right; each bar its seat's share
    assert bars == [(-0.2, pytest.approx(100 / 3)), (4.8, pytest.approx(100 / 3)), (5.2, pytest.approx(200 / 3)),
                    (10.2, pytest.approx(100 / 3)), (14.8, pytest.approx(100 / 3))]


def test_a_delta_only_between_like_runs_and_a_line_says_why(kc_page):
    _, html = kc_page
    import re

    table = html[html.index('class="comparison-table"'):html.index("</table>", html.index('class="comparison-table"'))]
    row = next(r for r in table.split("<tr>") if "seat 0 edge over fair share" in r)
    cells = re.findall(r"<td>(.*?)</td>", row, flags=re.S)
    assert "Δ from run 1" in cells[2] and "Δ" not in cells[3] and "Δ" not in cells[4]
    assert "5 players against 4" in html and "single deals" in html
    assert "Run 3 has no Δ" in html and "Run 4 has no Δ" in html
    kinds = set(re.findall(r'class="diff ?([a-z]*)"', table))
    assert kinds <= {"", "better", "worse", "changed"}
    assert not re.search(r'seat \d edge over fair share.*?class="diff changed"', table.split("overshoot")[0], re.S)


@pytest.mark.parametrize("before, after, half, kind", [
    (0.03, 0.01, 0.02, ""),  # moved 2 points toward fair, exactly the interval: no clear change
    (0.03, 0.01, 0.0199, "better"),
    (-0.04, 0.01, 0.02, "better"),  # the edge went up, yet closer to fair: better, not by sign
    (0.01, -0.04, 0.02, "worse"),  # the edge went down, away from fair: worse
    (0.01, 0.05, 0.02, "worse"),
])
def test_a_seat_edge_is_better_closer_to_fair_never_by_sign(before, after, half, kind):
    from simtool.reports.balance import Figure, change_class

    def edge(v):
        return Figure(v, v - 0.01, v + 0.01, None, points=True, better="fair")

    assert change_class(edge(after), edge(before), after - before - half, after - before + half) == kind
    rate = Figure(after, after - 0.01, after + 0.01, None)  # a rate that is no risk has no better side
    assert change_class(rate, Figure(before, before - 0.01, before + 0.01, None), after - before - half,
                        after - before + half) in ("", "changed")


@pytest.mark.parametrize("diff, half, kind", [(-0.02, 0.02, ""), (-0.0201, 0.02, "better"), (0.0201, 0.02, "worse")])
def test_a_risk_is_better_rarer(diff, half, kind):
    from simtool.reports.balance import Figure, change_class

    before, after = (Figure(v, v, v, None, better="lower") for v in (0.3, 0.3 + diff))
    assert change_class(after, before, diff - half, diff + half) == kind


@pytest.mark.usefixtures("charts_undrawn")  # the page's words are read, not its charts (0.65 s of CPU)
def test_a_sweep_across_player_counts_compares_edges_not_raw_shares(tmp_path):
    page = tmp_path / "sweep.html"
    assert main(["sweep", "-g", "kansas-city", "-p", "4,5", "--n", "300", "--seed", "2", "-j", "1", "-q",
                 "--runs", str(tmp_path / "cells"), "-o", str(page)]) == 0
    html = page.read_text()
    assert "seat 0 edge over fair share" in html and "seat 0 win share<" not in html
    assert "Run 2 has no Δ" in html and "5 players against 4" in html and "Δ from run" not in html
