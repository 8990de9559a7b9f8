"""Hostile round 8: a careless or malicious designer against the CLI's less-trodden corners and
the notebooks' helpers. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest

from simtool import stats
from simtool.errors import SimtoolError

from .test_cli import cli

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts


@pytest.fixture(scope="module")
def precise(tmp_path_factory):
    """A --precision run of seed 1 (a whole chunk played: 0.7 s of CPU), played once for the two
    tests below, which only read it."""
    folder = tmp_path_factory.mktemp("precision") / "run"
    r = cli("run", "-g", "black-white", "--precision", "0.05", "--seed", "1", "--jobs", "1", "-q", "-o", folder)
    assert r.exit_code == 0, r.output
    return folder


def test_replay_of_a_precision_run_writes_out_the_deal_the_run_played(precise):
    # before: a --precision run keeps 1,024 deals of its first 32,768-deal chunk (run.json: n 1024);
    # replay had no --precision, and `--n 1024` (docs/cli.md: "--n where the run played fewer
    # deals than a chunk") cut chunk 0 to 1,024 deals: another deal 3, written out as the run's
    meta = json.loads((precise / "run.json").read_text())
    assert meta["n"] < meta["chunk"]
    seats = pl.read_parquet(precise / "seats.parquet")
    played = seats.filter(pl.col("deal") == 3).sort("seat")["score"].to_list()
    out = cli("replay", "-g", "black-white", "--seed", "1", "--deal", "3", "--precision", "0.05")
    assert out.exit_code == 0, out.output
    shown = [int(s) for s in re.findall(r"seat=\d+ {2}score=(-?\d+)", out.output)]
    assert shown == played


def test_a_precision_run_and_a_plain_run_of_its_n_are_not_paired_deal_by_deal(tmp_path, precise):
    # before: 'simtool report PLAIN PRECISE' of two runs with one seed and n (1,024 deals: the
    # plain run's one short chunk, the --precision run's first 1,024 of a whole chunk) said "Run 2
    # shares its deals with run 1 ... paired deal by deal. Pairing gained little here: the two
    # rule sets do not share much of each deal's luck", of one rule set on other deals
    plain, page = tmp_path / "plain", tmp_path / "page.html"
    n = json.loads((precise / "run.json").read_text())["n"]
    r = cli("run", "-g", "black-white", "--n", n, "--seed", "1", "--jobs", "1", "-q", "-o", plain)
    assert r.exit_code == 0, r.output
    first = pl.read_parquet(plain / "seats.parquet").filter(pl.col("deal") < 8)["score"]
    assert not first.equals(pl.read_parquet(precise / "seats.parquet").filter(pl.col("deal") < 8)["score"])
    r = cli("report", plain, precise, "-o", page)
    assert r.exit_code == 0, r.output
    text = page.read_text()
    assert "shares its deals" not in text
    assert "Run 2 does not share its deals with run 1 (its last chunk drawn as 32,768 deals against 1,024" in text


@pytest.mark.parametrize("a", [np.ones((4, 1)), [1.0], np.ones(2)])
def test_a_paired_difference_of_values_that_are_not_one_per_deal_of_each_run_is_refused(a):
    # before: stats.paired_difference (notebooks/02) broadcast a frame's column, shape (4, 1),
    # against the other run's 4 deals into all 16 pairs of deals, -0.5 +- 1.13 (the 4 pairs:
    # -0.5 +- 1.27), and one value against 4 deals into 0.5 +- 0.57; two lengths: a traceback
    with pytest.raises(SimtoolError, match=r"two 1-D arrays of one length; got shapes \(\d"):
        stats.paired_difference(a, np.arange(4.0))
    assert stats.paired_difference(np.ones(4), np.arange(4.0))[0] == -0.5


def test_a_sweeps_default_report_never_replaces_the_page_of_another_runs_folder_of_its_name(tmp_path, monkeypatch):
    # before: 'simtool sweep --runs A/s' wrote reports/s.html, and 'simtool sweep --runs B/s' (of
    # another game) replaced it without a word: the first sweep's page gone, B's in its place
    monkeypatch.chdir(tmp_path)
    page = tmp_path / "reports" / "s.html"

    def sweep(game, runs):
        r = cli("sweep", "-g", game, "-n", "100", "--seed", "1", "--jobs", "1", "-q", "--runs", runs)
        assert r.exit_code == 0, r.output
        return r.output

    assert "report reports/s.html" in sweep("black-white", "A/s")
    first = page.read_text()
    assert "report reports/s-2.html" in sweep("kansas-city", "B/s")
    assert page.read_text() == first
    assert "Kansas City" in (tmp_path / "reports" / "s-2.html").read_text()
    # a sweep played again into its own runs folder writes its own page again
    assert "report reports/s.html" in sweep("black-white", "A/s")
    assert "report reports/s-2.html" in sweep("kansas-city", "B/s")


def test_a_report_of_deals_that_every_seat_ties_says_the_seats_do_not_differ(tmp_path):
    # before: Trickster with every card worth 0 ties every seat in every deal; the report's first
    # finding read "Seat 0 wins 25.0% ± 2.7% of deals against 25.0% expected: too few deals to tell
    # whether the seats differ" of 1,000 deals (and would of any number), its seat test "too few
    # deals to test"
    run, page = tmp_path / "run", tmp_path / "page.html"
    zero = [a for rule in ("pip", "jack", "queen", "king") for a in ("--rule", f"{rule}_points=0")]
    r = cli("run", "-g", "trickster", "-n", "1000", "--seed", "1", "--jobs", "1", "-q", "-o", run, *zero)
    assert r.exit_code == 0, r.output
    r = cli("report", run, "-o", page)
    assert r.exit_code == 0, r.output
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.read_text()))
    assert "too few deals" not in text
    assert "against 25.0% expected: every deal gives every seat the same result, so the seats do not differ" in text
    text = text.replace("&#39;", "'")
    assert "no test needed, every seat's result is the same every time for equal win shares" in text
    # and two seats, seat 0 winning each of 50 deals: no covariance either, p = 1.0 ("too few
    # deals to tell") where they differ in every deal
    assert stats.seat_test(np.tile([1.0, 0.0], (50, 1))).p_value == 2.0 ** -49


def test_a_baselines_metrics_are_set_beside_the_published_values_of_its_own_game_and_players(tmp_path, monkeypatch):
    # before: 'simtool review -g hearts --baseline FIVE' (FIVE a 5-player Hearts review) set
    # CardStock's published 4-player values (fairness 0.87, order 0.52, ...) beside the baseline's
    # 5-player figures, as if of one game
    from simtool.commands.review import Sizes, review
    from simtool.reports import review as pages

    # only the published values beside the metrics of the all-random play are read: no search
    # plays, as for a game no search plays (one deal of them, the search's cost being per
    # decision, was most of the CPU)
    sizes = Sizes(deals=64, matches=2, restrictions=16, duplicate=8, search=1, random=64, leads=1)
    monkeypatch.setattr("simtool.commands.review.search_names", lambda game_id: (None, None))
    four = review("hearts", tmp_path / "four", seed=1, jobs=1, sizes=sizes)
    five = {"source": "baseline", "game": "hearts", "players": 5, "rules": four["rules"],
            "questions": four["questions"], "metrics": four["metrics"]}
    text = pages.render({**four, "versus": five})
    reviewed, _, baseline = text.partition("Published metrics (baseline review)")
    assert "0.87 (100 games, no interval)" in reviewed and "Published values: CardStock" in reviewed
    # (CardStock's whole table, under the reviewed rules' metrics, says "no interval" of its own)
    assert baseline and "(100 games, no interval)" not in baseline and "Published values" not in baseline
    # and a 5-player review's 4-player Hearts baseline shows the values that are its own
    text = pages.render({**four, "players": 5, "published": None,
                         "versus": {**five, "players": 4}})
    reviewed, _, baseline = text.partition("Published metrics (baseline review)")
    assert "(100 games, no interval)" not in reviewed and "0.87 (100 games, no interval)" in baseline


def test_a_tuning_whose_every_trial_was_unplayable_says_so_and_how_to_go_on(tmp_path):
    # before: TPE drew hand_size 12, 13 and 13 at 5 players (3 trials of 11..14), each skipped;
    # the tuning then failed "holds no finished trial yet; go on with simtool tune --resume DIR",
    # and that --resume went on with nothing and said it again, for ever
    from .test_cli import one_line_error

    out = tmp_path / "t"
    args = ["tune", "-g", "kansas-city", "--players", "5", "--vary", "hand_size=11..14", "--objective",
            "seat_spread", "--n", "100", "--trials", "3", "--seed", "1", "-j", "1", "-q", "--out", out]
    r = cli(*args)
    one_line_error(r, "none of the 3 trials could be played: each drew a combination the game cannot play "
                      "(first: hand_size 12 at 5p deals 61 cards")
    assert r.output.rstrip().endswith("narrow the --vary ranges to what it plays, or tune into another --out "
                                      "with --trials 4 (each combination once)")
    assert "--resume" not in r.output
    r = cli(*[tmp_path / "grid" if a == out else "4" if a == "3" else a for a in args])
    assert r.exit_code == 0, r.output


def test_a_restriction_that_moves_every_deal_alike_gets_no_interval_of_width_zero(tmp_path):
    # before: 'simtool restrict -g kansas-city --n 2 --seed 1': never upgrading lost half a win in
    # each of the 2 deals, and the table said "costs target 50.0 pts (50.0 to 50.0)", verdict
    # costs, a certainty from two deals (the normal interval of two equal differences)
    from simtool.analysis.restrict import paired_cost

    mean, half = paired_cost(np.full(2, 0.5), np.zeros(2), 1.0)
    assert mean == 0.5 and half > 1.0  # Wilson's on 2 deals of the share (0.5 + 1) / 2: -60.4 to 100 points
    r = cli("restrict", "-g", "kansas-city", "--n", "2", "--seed", "1", "-j", "1", "--restrictions", "no-upgrade",
            "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    # the sentence is the review's since tests/test_words31.py
    text = r.output.replace("\n", " ")
    assert "50.0 (-60.4 to 100.0)" in text
    assert "costs target 50.0 points of win share per seat (95% interval -60.4 to 100.0): unclear" in text


def test_a_paired_difference_the_same_in_every_deal_is_not_certain(tmp_path):
    # before: Kansas City, 2 deals with seed 3, then with pass_count=0: the overshoot rate rose by
    # a quarter in both deals, and the report's comparison said "Δ from run 1: +25.0 pts ± 0.0
    # pts", coloured clearly worse; the mean score "-1.250 ± 0.000", clearly changed
    a, b, page = tmp_path / "a", tmp_path / "b", tmp_path / "page.html"
    for folder, rule in ((a, []), (b, ["--rule", "pass_count=0"])):
        r = cli("run", "-g", "kansas-city", "-n", "2", "--seed", "3", "-j", "1", "-q", "-o", folder, *rule)
        assert r.exit_code == 0, r.output
    r = cli("report", a, b, "-o", page)
    assert r.exit_code == 0, r.output
    text = page.read_text()
    assert "+25.0 pts ± 0.0 pts" not in text and "-1.250 ± 0.000" not in text
    assert "Δ from run 1: +25.0 pts (-71.7 to +88.8)" in text and "Δ from run 1: -1.25 (-1.25 to +0.39)" in text
    assert not re.search(r'class="diff (better|worse|changed)"', text)


def test_restricted_play_of_one_deal_prints_no_nan(tmp_path):
    # before: 'simtool restrict --n 1': "never upgrading costs target 100.0 pts (nan to nan)", in the
    # table and the sentence (the review says "95% interval n/a" of such a cost)
    r = cli("restrict", "-g", "kansas-city", "--n", "1", "--seed", "1", "-j", "1", "--restrictions", "no-upgrade",
            "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    assert "nan" not in r.output
    text = r.output.replace("\n", " ")
    assert "costs target 100.0 points of win share per seat (95% interval n/a): unclear" in text


def test_a_review_whose_sizes_json_was_garbled_names_it(bw_review, tmp_path):
    # before: a review's sizes.json edited to deals -5 failed "bad --n -5; expected a positive
    # whole number ..." (an option nobody gave, no file named); "7" for 7 went on to "holds a run
    # played with other settings: n 1 (now 7)"
    import shutil

    from .test_cli import one_line_error

    out = tmp_path / "rv"
    shutil.copytree(bw_review[0], out)  # a whole review of given sizes, whose sizes.json is garbled here
    saved = json.loads((out / "sizes.json").read_text())
    for deals in (-5, "7"):
        (out / "sizes.json").write_text(json.dumps({**saved, "sizes": {**saved["sizes"], "deals": deals}}))
        r = cli("review", "-g", "black-white", "--out", out, "-q", "-j", "1")
        one_line_error(r, f"{out} holds the runs of another review, or of one whose sizes.json is missing or "
                          "unreadable")


def test_a_plan_json_whose_report_path_is_no_text_is_damaged_not_a_traceback(tmp_path, monkeypatch):
    # before: a sweep's plan.json edited to "report": {"output": 5}: 'simtool sweep --resume RUNS'
    # ended in pathlib's TypeError (a traceback), as did the ladder's and restricted play's
    from .test_cli import one_line_error

    monkeypatch.chdir(tmp_path)
    r = cli("sweep", "-g", "black-white", "-n", "100", "--seed", "1", "-j", "1", "-q", "--runs", "s")
    assert r.exit_code == 0, r.output
    plan = json.loads((tmp_path / "s" / "plan.json").read_text())
    (tmp_path / "s" / "plan.json").write_text(json.dumps({**plan, "report": {"output": 5}}))
    one_line_error(cli("sweep", "--resume", "s", "-q"), "cannot resume s: plan.json is damaged")
    r = cli("sweep", "-g", "black-white", "-n", "100", "--seed", "1", "-j", "1", "-q", "--runs", "s")
    assert r.exit_code == 0, r.output  # a new sweep there writes its plan again
