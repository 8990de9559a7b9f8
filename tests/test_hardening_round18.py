"""Hostile round 18: the environment, runs another command owns, a ladder in part or twice, runs of
one seed that deal other cards, and figures whose words or decimals claimed more than their deals
hold. Each test failed on the code before its fix."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def command(*args, env: dict, timeout: float = 60) -> subprocess.CompletedProcess:
    """The installed command as a shell starts it: its own process, its own environment."""
    return subprocess.run([sys.executable, "-m", "simtool.cli", *map(str, args)], capture_output=True, text=True,
                          env=os.environ | {"PYTHONPATH": str(ROOT)} | env, timeout=timeout)


@pytest.mark.parametrize("threads", ["0", "-1", "abc", "", "5000"])
def test_a_polars_thread_count_polars_cannot_use_is_one_line_before_anything_is_written(tmp_path, threads):
    # before: POLARS_MAX_THREADS=0 ended the run in a Rust backtrace ("Worker threads cannot be
    # set to 0"), exit status 1; -1, abc or '' printed polars' "illegal value" warning beside the
    # results; 5000 kept a run of 500 deals going past a minute on 2 cores
    out = tmp_path / "out"
    done = command("run", "--game", "black-white", "--n", "500", "--seed", "1", "--jobs", "1", "-q", "--out", out,
                   env={"POLARS_MAX_THREADS": threads})
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"error: bad POLARS_MAX_THREADS {threads!r} in the environment; expected a whole "
                           f"number of threads from 1 to 1024, or leave it unset (polars then takes one per "
                           f"core)\n")
    assert done.stdout == "" and not out.exists()


def test_a_polars_thread_count_polars_can_use_plays(tmp_path):
    out = tmp_path / "out"
    done = command("run", "--game", "black-white", "--n", "500", "--seed", "1", "--jobs", "1", "-q", "--out", out,
                   env={"POLARS_MAX_THREADS": "3"})
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, str(out), "")


def test_a_restriction_no_deal_reacts_to_gets_no_score_interval_of_width_zero_from_a_few_deals(tmp_path):
    # before: of 2 deals of Kansas City (seed 1), never passing but the highest cards changed no
    # deal, and the measured seat scored 19 in both: the score change read "0.000 ± 0.000",
    # certain from 2 deals, beside a win-share cost of 0.0 pts (-77.6 to 77.6); the bound each
    # deal that may differ moves the mean by was the spread of that one seat's scores
    from simtool.analysis import restrict

    from .test_cli import cli

    r = cli("restrict", "-g", "kansas-city", "--n", "2", "--seed", "1", "-j", "1", "-q", "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    rows = {row["restriction"]: row for row in
            restrict.costs([f for f in (tmp_path / "r").iterdir() if f.is_dir()]).iter_rows(named=True)}
    high = rows["pass-high"]
    assert (high["changed"], high["score_change"]) == (0.0, 0.0)
    assert high["score_change_low"] < -10 and high["score_change_high"] > 10  # every seat's 6 to 19, the rule of three
    r = cli("restrict", "-g", "kansas-city", "--n", "2", "--seed", "1", "-j", "1", "--out", tmp_path / "r")
    assert "0.000 ± 0.000" not in r.stdout and "0 ± 10" in r.stdout, r.stdout


def test_a_duplicate_ladder_of_whole_matches_says_it_duplicates_matches(tmp_path, charts_undrawn):
    # before: "Skill ladder: black-white 3p, 20 matches per rung, seed 1, duplicate deals (each once
    # per rotation)" above a ladder whose every match, not deal, was played once per rotation
    from .test_cli import cli

    r = cli("ladder", "-g", "black-white", "--rungs", "random,high", "--n", "20", "--seed", "1", "-j", "1",
            "--unit", "match", "--duplicate", "--runs", tmp_path / "l", "-o", tmp_path / "l.html")
    assert r.exit_code == 0, r.output
    title = " ".join(r.stdout.split("┏")[0].split())
    assert title == ("Skill ladder: black-white 3p, 20 matches per rung, seed 1, duplicate matches (each once "
                     "per rotation)")
    r = cli("ladder", "-g", "black-white", "--rungs", "random,high", "--n", "20", "--seed", "1", "-j", "1",
            "--duplicate", "--runs", tmp_path / "d", "-o", tmp_path / "d.html")
    assert "20 deals per rung, seed 1, duplicate deals (each once per rotation)" in " ".join(r.stdout.split())


def test_the_contents_of_a_game_of_several_runs_say_which_run_their_sentence_is_of(tmp_path, charts_undrawn):
    # before: "Trick Taking in Black & White: 2 runs. Seat 0 wins ...: a spread no larger than
    # chance." under Contents, the first run's finding read as the game's, beside a second run
    # whose seats surely differ
    from .test_cli import cli

    for players, folder in ((3, "a"), (4, "b")):
        r = cli("run", "-g", "black-white", "-p", players, "--n", "300", "--seed", "1", "-j", "1", "-q",
                "--out", tmp_path / folder)
        assert r.exit_code == 0, r.output
    page = tmp_path / "r.html"
    assert cli("report", tmp_path / "a", tmp_path / "b", "-o", page).exit_code == 0
    contents = re.search(r'<nav class="contents".*?</nav>', page.read_text(), re.S)[0]
    assert re.search(r"Black &amp; White</a>: 2 runs\. Run 1: Seat \d wins ", contents), contents
    assert cli("report", tmp_path / "a", "-o", page).exit_code == 0
    contents = re.search(r'<nav class="contents".*?</nav>', page.read_text(), re.S)[0]
    assert re.search(r"Black &amp; White</a>: 1 run\. Seat \d wins ", contents), contents


def test_duplicate_gain_over_a_duplicate_variance_of_0_has_no_bound_not_one_of_rounding_noise(tmp_path):
    # before: safe against five spoilers wins exactly one copy of every deal of Trickster at 6
    # players, so the duplicate variance is 0: the resamples whose sums came out 1e-17 instead of 0
    # gave "duplicate_gain - (no value), 95% interval 2279595471273984.5 to 3572445227589304.5" on a
    # review's page; of 200 deals (a few vary) the upper end was 5.4e15, a number of rounding noise
    import math

    import simtool
    from simtool.analysis import metrics

    for n, seed, folder in ((20, 1, "a"), (200, 5, "b")):
        simtool.run("trickster", n, players=6, strategy="spoiler", seats={0: "safe"}, duplicate=True, seed=seed,
                    out=tmp_path / folder)
    alike = metrics.duplicate_gain(tmp_path / "a")
    assert alike.value == math.inf and math.isnan(alike.low) and math.isnan(alike.high)
    some = metrics.duplicate_gain(tmp_path / "b")
    assert 400 < some.low < some.value < 2000 and some.high == math.inf



def test_a_bootstrap_keeps_its_unbounded_resamples():
    # a tenth of the resamples unbounded: the upper end is unbounded (dropped, they left 40.0)
    import numpy as np

    from simtool import stats

    def statistic(totals):
        return np.where(np.arange(len(totals)) % 10 == 0, np.inf, totals[:, 0])

    assert stats.cluster_bootstrap(np.ones((40, 1)), statistic) == (40.0, np.inf)


def test_a_report_of_part_of_a_ladder_gives_no_ladder_verdict_and_says_why(tmp_path, charts_undrawn):
    # before: rung 1 alone of the ladder random, balance, high (balance pays over random, high is
    # clearly weaker than balance) read "Every rung beats the one below ...: the ladder has not
    # flattened; stronger rungs may still pay"; the ladder's folders given twice (a copy of its
    # runs folder) showed each rung twice in its table
    import shutil

    from .test_cli import cli

    runs = tmp_path / "l"
    r = cli("ladder", "-g", "black-white", "--rungs", "random,balance,high", "--n", "300", "--seed", "1", "-j", "1",
            "-q", "--no-reference", "--runs", runs, "-o", tmp_path / "l.html")
    assert r.exit_code == 0, r.output
    assert "The ladder flattens at rung 2" in (tmp_path / "l.html").read_text()
    shutil.copytree(runs, tmp_path / "copy")
    rung1 = "black-white_3p_balance+random"
    for folders, why in (([runs / rung1], "rung 2 missing"),
                         ([*sorted(runs.glob("*_3p_*")), *sorted((tmp_path / "copy").glob("*_3p_*"))],
                          "rungs 1, 2 given twice")):
        page = tmp_path / "r.html"
        r = cli("report", *folders, "-o", page)
        assert r.exit_code == 0, r.output
        text = page.read_text()
        assert "not flattened" not in text and "The ladder flattens" not in text and "Skill ladder" not in text
        assert re.search(rf"Rung runs of the ladder random, balance, high \({why}\): no ladder verdict", text), why


def test_a_sweep_ladder_or_restricted_play_never_takes_a_reviews_or_a_tunings_runs(tmp_path, monkeypatch):
    # before: a sweep into a finished review's question folder (REVIEW/runs/seats) took it over:
    # refused for a cell of other settings "... play it again with --force", whose --force then
    # replaced the run review.json answers from and the folder's plan.json with the sweep's
    import simtool
    from simtool.commands.review import Sizes

    from .test_cli import cli

    out = tmp_path / "review"
    # no search plays, as for a game no search plays: the commands below are refused by the seats
    # question's folder, whose review.json it holds, whatever cells beside the heuristic's 3 deals
    # it holds; a deal of search at every seat in five plays was most of this test's CPU
    sizes = Sizes(deals=3, matches=3, restrictions=3, duplicate=3, search=1)
    monkeypatch.setattr(simtool.review, "search_names", lambda game_id: (None, None))
    simtool.review.review("black-white", out, players=2, seed=1, jobs=1, sizes=sizes)
    seats = out / "runs" / "seats"
    before = {p: p.read_bytes() for p in sorted(seats.rglob("*")) if p.is_file()}
    for args in (["sweep", "-g", "black-white", "-p", "2", "-l", "balance", "--n", "50", "--runs", seats, "-o",
                  tmp_path / "s.html"],
                 ["sweep", "-g", "black-white", "-p", "2", "-l", "balance", "--n", "50", "--runs", seats, "-o",
                  tmp_path / "s.html", "--force"],
                 ["sweep", "-g", "black-white", "-p", "2", "-l", "balance", "--n", "3", "--runs", seats, "-o",
                  tmp_path / "s.html"],  # the review's own cell: once kept, and the plan replaced
                 ["ladder", "-g", "black-white", "-p", "2", "--rungs", "random,high", "--n", "50", "--runs", seats,
                  "-o", tmp_path / "l.html", "--force"],
                 ["restrict", "-g", "black-white", "-p", "2", "--n", "50", "--out", seats, "--force"]):
        r = cli(*args, "--seed", "1", "-j", "1", "-q")
        assert r.exit_code == 2, r.output
        assert r.stderr.strip() == (f"error: {seats} holds the runs of a review (review.json), which answers from "
                                    f"them; simtool {args[0]} never plays into them: choose another folder")
        assert {p: p.read_bytes() for p in sorted(seats.rglob("*")) if p.is_file()} == before
    again = simtool.review.review("black-white", out, players=2, seed=1, jobs=1, sizes=sizes)
    assert again["questions"]["seats"]["verdict"]  # the review goes on in its own folder


def test_a_crude_rules_interval_never_shows_an_end_of_0_that_is_not_0():
    # before: a quick review of Kansas City, where always passing the highest cards changed none of
    # 131,072 paired deals (a cost of 0 ± 0.0023 points by the rule of three), read "costs target
    # 0.0 points of win share per seat (95% interval 0.0 to 0.0)", certain, in its sentence, on its
    # card and in its crude-rules table, where `simtool restrict` prints "-0.002 to 0.002"
    from simtool.analysis import restrict, verdicts
    from simtool.reports import review

    cost, low, high = -0.0, -0.0022855362237170743, 0.0022855362237170743
    v = verdicts.restriction_verdict("always passing the highest cards", "target", cost, low, high, 131072)
    assert v.word == "nearly as good"
    assert "0.0 points of win share per seat (95% interval -0.002 to 0.002): under 1 point" in v.sentence
    row = {"cost_pts": cost, "ci_pts": [low, high], "thresholds": v.thresholds}
    (shown,) = review.restriction_rows({"restrictions": [row]})
    assert shown["figure"] == "0.0 points (95% interval -0.002 to 0.002 points)"
    assert restrict.fmt_cost(cost / 100, low / 100, high / 100) == "0.0 (-0.002 to 0.002)"
    # an end that is 0 is written 0.0, and the ends elsewhere as before
    assert "(95% interval 0.0 to 0.0)" in verdicts.restriction_verdict("x", "t", 0.0, 0.0, 0.0, 5).sentence
    assert "(95% interval 15.3 to 15.7)" in verdicts.restriction_verdict("x", "t", 15.5, 15.26, 15.74, 5).sentence


def test_a_precision_runs_summary_gives_its_widest_half_width_in_percent_as_its_shares(tmp_path):
    # before: "--precision 0.02 tracks every share printed above: 3,072 deals brought the widest to
    # ± 0.0169 (balanced rate of seat 1 (balance))" under shares printed "34.4% (32.3–36.5)", a
    # fraction beside percentages (the report says "± 1.69%")
    from .test_cli import cli

    r = cli("run", "-g", "black-white", "--precision", "0.02", "--seed", "1", "-j", "1", "--out", tmp_path / "a")
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    assert ("--precision 0.02 (± 2%) tracks every share printed above: 3,072 deals brought the widest to "
            "± 1.69% (balanced rate of seat 1 (balance))") in text, text
    r = cli("run", "-g", "black-white", "--precision", "0.001", "--n", "2000", "--seed", "1", "-j", "1",
            "--out", tmp_path / "b")
    assert r.exit_code == 0, r.output
    assert re.search(r"--precision 0\.001 \(± 0\.1%\) tracks every share printed above: 2,000 deals \(the cap\) "
                     r"left the widest at ± \d\.\d\d%", " ".join(r.stdout.split())), r.stdout


def test_runs_of_one_seed_whose_rules_deal_other_cards_are_not_said_to_share_their_deals(tmp_path, charts_undrawn):
    # before: a sweep of Black & White's deck=30 and deck=36 (one seed) read "Run 2 shares its deals
    # with run 1 (same seed, n, players, chunks and versions): the difference is paired deal by
    # deal", though a deck of 30 cards deals other hands from the stream than one of 36
    from .test_cli import cli

    for rule in ("deck=30,36", "hand_size=sheet,11"):
        page = tmp_path / f"{rule}.html"
        assert cli("sweep", "-g", "black-white", "-r", rule, "--n", "300", "--seed", "1", "-j", "1", "-q",
                   "--runs", tmp_path / rule, "-o", page).exit_code == 0
        text = " ".join(page.read_text().split())
        name = rule.split("=")[0]
        assert re.search(rf"Run 2 has the seed, n, players, chunks and versions of run 1, but its rules deal "
                         rf"other cards \({name}=\S+ against \S+\), so it shares no deal with it: the "
                         rf"difference is paired deal by deal all the same", text), rule
        assert "Run 2 shares its deals" not in text
    r = cli("sweep", "-g", "kansas-city", "-r", "pass_count=3,2", "--n", "200", "--seed", "1", "-j", "1", "-q",
            "--runs", tmp_path / "kc", "-o", tmp_path / "kc.html")
    assert r.exit_code == 0, r.output
    assert "Run 2 shares its deals with run 1 (same seed, n, players, chunks and versions): the difference is " \
           "paired deal by deal." in " ".join((tmp_path / "kc.html").read_text().split())


def test_runs_that_deal_other_cards_are_not_said_to_gain_nothing_by_pairing(tmp_path, charts_undrawn):
    # before: "..., so it shares no deal with it: the difference is paired deal by deal all the
    # same, which gains nothing here. Pairing made the intervals 4-7% narrower than between
    # independent runs (median 6%)": the two runs share the stream's numbers (the shuffle's, the
    # random players'), and pairing narrowed every seed's intervals by 3 to 6% at the median
    from .test_cli import cli

    page = tmp_path / "deck.html"
    assert cli("sweep", "-g", "black-white", "-r", "deck=30,36", "-l", "random", "--n", "2000", "--seed", "7",
               "-j", "1", "-q",
               "--runs", tmp_path / "deck", "-o", page).exit_code == 0
    text = " ".join(page.read_text().split())
    assert "so it shares no deal with it" in text
    assert re.search(r"Pairing made the intervals \d+–\d+% narrower", text), text
    assert "gains nothing" not in text


def test_a_tuning_whose_varied_rule_deals_other_cards_does_not_say_its_trials_share_their_deals(tmp_path,
                                                                                              charts_undrawn):
    # before: a tuning of Black & White's deck (30 or 36) read "trials 2 finished of 2 started, 200
    # deals each, seed 1 (every trial plays the same deals)", though each deck deals other hands
    from .test_cli import cli

    for game, vary, says in (
            ("black-white", "deck=30,36", "seed 1 (every trial plays one seed, but deck deals other cards by value: "
                                          "trials of other values share no deal)"),
            ("kansas-city", "pass_count=2,3", "seed 1 (every trial plays the same deals)")):
        r = cli("tune", "-g", game, "--vary", vary, "--objective", "seat_spread", "--trials", "2", "--n", "200",
                "--seed", "1", "-j", "1", "-q", "--out", tmp_path / game)
        assert r.exit_code == 0, r.output
        assert says in " ".join((tmp_path / game / "tune.html").read_text().split()), game


@pytest.mark.usefixtures("charts_undrawn")  # the report's words are read, not its charts (0.46 s of CPU)
def test_a_matchs_lead_changes_and_length_never_show_an_interval_that_reads_as_exact(tmp_path):
    # before: 2,000 whole matches of Black & White read "A match has 0.6 lead changes (0.6 to 0.6)"
    # (0.587, 0.556 to 0.617) on the report's verdicts and the review's tension answer, as if known
    # exactly; a length of 3.047 rounds (3.0372 to 3.0568) reads "3.05 (3.04 to 3.06)": "3.0 (3.0 to 3.1)"
    # had its ends apart, but the mean on its lower end (audit 30)
    from simtool.analysis import verdicts

    from .test_cli import cli

    v = verdicts.tension_verdict((0.265, 0.246, 0.285), (0.5865, 0.5564, 0.6166), (0.627, 0.614, 0.64), 2000)
    assert "A match has 0.59 lead changes (0.56 to 0.62);" in v.sentence
    v = verdicts.match_verdict((3.047, 3.0372, 3.0568), (0.0, 0.0, 0.0018), 2000, 200)
    assert v.sentence.startswith("A match lasts 3.05 rounds (95% interval 3.04 to 3.06);")
    v = verdicts.match_verdict((6.0, 6.0, 6.0), (0.0, 0.0, 0.16), 20, 200)  # every match alike: no interval
    assert v.sentence.startswith("Every match played (20) lasted 6 rounds")
    r = cli("run", "-g", "black-white", "--unit", "match", "--n", "2000", "--seed", "1", "-j", "1", "-q",
            "--out", tmp_path / "m")
    assert r.exit_code == 0, r.output
    assert cli("report", tmp_path / "m", "-o", tmp_path / "m.html").exit_code == 0
    text = " ".join((tmp_path / "m.html").read_text().split())
    found = re.findall(r"A match has ([\d.]+) lead changes \(([\d.]+) to ([\d.]+)\)", text)
    assert found and all(low != high for _, low, high in found), found


def test_a_shares_interval_on_a_review_never_writes_its_two_ends_alike():
    # before: a quick review of Kansas City read "The cards explain 2% (95% interval 2 to 2%) of the
    # variance of a seat's score", and its overshoot card "35.5% (95% interval 35.5 to 35.5%)"
    from simtool.analysis import verdicts
    from simtool.reports import review

    luck = verdicts.luck_verdict(0.016968616224201212, 0.015277040085769134, 0.018579573352486067, 131072)
    assert luck.sentence.startswith("The cards explain 1.7% (95% interval 1.5 to 1.9%) of the variance")
    assert review.figure_text(0.3551, 0.3547, 0.3555, "%", 100, near=[0.01, 0.1]) == \
        "35.51% (95% interval 35.47 to 35.55%)"
    assert review.figure_text(0.017, 0.0153, 0.0186, "%", 100, digits=0, near=[0.3, 0.6]) == \
        "1.7% (95% interval 1.5 to 1.9%)"
    # ends written apart (to a tenth, as luck's table: tests/test_readthru.py), or one, as before
    assert verdicts.luck_verdict(0.89, 0.74, 0.94, 20).sentence.startswith("The cards explain 89.0% (95% interval "
                                                                           "74.0 to 94.0%)")
    assert review.figure_text(0.0, 0.0, 0.16, "%", 100, near=[0.01, 0.1]) == "0.0% (95% interval 0.0 to 16.0%)"
    assert review.figure_text(6.0, 6.0, 6.0, " rounds") == "6.0 rounds (95% interval 6.0 to 6.0 rounds)"


def test_a_rates_sentence_never_writes_its_two_ends_alike():
    # before: a quick review of Kansas City read "A seat goes over the trick limit in 35.5% of deals
    # (95% interval 35.5% to 35.5%): common" (35.509%, 35.470% to 35.548%)
    from simtool.analysis import verdicts

    v = verdicts.hazard_verdict("overshoot", "goes over the trick limit", 0.3550885518391927, 0.3546967437920882,
                                0.35548055426919206, 131072)
    assert v.sentence == ("Each seat goes over the trick limit in 35.51% of deals (95% interval 35.47% to 35.55%): "
                          "common.")
    v = verdicts.tension_verdict((0.2584, 0.25811, 0.25849), (0.5865, 0.5564, 0.6166), (0.627, 0.614, 0.64), 10 ** 7)
    assert v.sentence.startswith("The winner was behind at half-time in 25.84% of matches (95% interval 25.81% to "
                                 "25.85%)")
    assert "the winner leads for good from 62.7% of the way through (61.4% to 64.0%)" in v.sentence
    # ends apart as before
    v = verdicts.hazard_verdict("x", "does x", 0.351, 0.33, 0.37, 1000)
    assert v.sentence == "Each seat does x in 35.1% of deals (95% interval 33.0% to 37.0%): common."


def test_a_seat_verdicts_interval_never_writes_its_two_ends_alike():
    # before: a run of 10 million deals whose seat 0 wins 27.19% (27.165% to 27.222%) at 4 players
    # read "a slight edge favouring seat 0 (95% interval 2.2 to 2.2 points)", as if known exactly
    from simtool.analysis import verdicts

    shares = [(0, 0.2719, 0.27165, 0.27222), (1, 0.25, 0.2497, 0.2503), (2, 0.24, 0.2397, 0.2403),
              (3, 0.2381, 0.2378, 0.2384)]
    v = verdicts.seat_verdict(shares, 4, 10 ** 7)
    assert v.word == "slight" and v.sentence.endswith("(95% interval 2.17 to 2.22 points).")
    line = verdicts.seat_line([(0, 0.506, 0.5023, 0.5097), (1, 0.494, 0.4903, 0.4977)], 2, 1000)
    assert "+0.6 points (95% interval 0.2 to 0.97 points)" in line  # ends apart: as before


def test_a_restrictions_cost_never_writes_its_two_ends_alike():
    # before: 4 million paired deals whose restriction costs 15.52 points (15.50 to 15.54) read
    # "15.5 pts (15.5 to 15.5)" in simtool restrict's table and the report, and "(95% interval 15.5
    # to 15.5)" in the review's crude-play sentence, as if known exactly
    from simtool.analysis import restrict, verdicts

    assert restrict.fmt_cost(0.15521, 0.15501, 0.15541) == "15.52 (15.50 to 15.54)"
    v = verdicts.restriction_verdict("never upgrading", "target", 15.521, 15.501, 15.541, 4_000_000)
    assert "costs target 15.52 points of win share per seat (95% interval 15.50 to 15.54)" in v.sentence
    assert restrict.fmt_cost(0.155, 0.153, 0.157) == "15.5 (15.3 to 15.7)"  # ends apart: as before
