"""Hostile round 24: rules under which nothing varies, and the words printed about them."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from simtool import stats
from simtool.analysis import verdicts

from .test_cli import cli

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

ZERO_POINTS = ["--rule", "pip_points=0", "--rule", "jack_points=0", "--rule", "queen_points=0",
               "--rule", "king_points=0"]
"""Trickster with every card worth nothing: every seat scores 0 in every deal, a tie for all."""


def test_duplicate_deals_whose_results_never_vary_are_not_called_too_few(tmp_path):
    # failed before: 300 duplicate deals of a game in which every seat scores 0 every deal read
    # "Luck: unclear. Too few deals to split the variance ... (it takes two or more): unclear; play
    # more deals." in the report's verdicts (and in `simtool review`, from 65,536 deals), beside the
    # page's own "it takes two or more duplicate deals whose results vary"; no number of deals splits
    # a variance of 0. And the bootstrap of those NaN shares printed numpy's "All-NaN slice
    # encountered" warning on stderr.
    y = np.zeros((300, 2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = stats.luck_shares(y)
    assert all(math.isnan(x) for x in table["share_low"]) and all(math.isnan(x) for x in table["share"])
    luck = verdicts.luck_verdict(math.nan, math.nan, math.nan, 300)
    assert luck.word == "unclear" and luck.more is None
    assert "Too few" not in luck.sentence and "play more" not in luck.sentence
    assert "the same in every one of the 300 deals" in luck.sentence
    # one deal is still too few
    assert "Too few deals" in verdicts.luck_verdict(math.nan, math.nan, math.nan, 1).sentence

    out = tmp_path / "tie"
    r = cli("run", "--game", "trickster", "--players", "2", *ZERO_POINTS, "--n", "300", "--seat", "0=safe",
            "--strategy", "random", "--duplicate", "--seed", "1", "--jobs", "1", "-q", "--out", out)
    assert r.exit_code == 0, r.output
    r = cli("report", out, "-o", tmp_path / "tie.html")
    assert r.exit_code == 0, r.output
    page = (tmp_path / "tie.html").read_text()
    assert "Too few deals to split" not in page and "the same in every one of the 300 deals" in page


def test_one_deal_at_six_seats_is_no_strong_seat_edge(tmp_path):
    # failed before: every run of one deal at 6 players read "Seat verdict: strong. Seat 3 wins
    # 100.0% of deals under random at every seat, 83.3 points more than a fair 16.7%: a strong edge
    # favouring seat 3 (95% interval 4.0 to 83.3 points)": the winner's Wilson interval of 1 of 1,
    # 20.7% to 100%, lies above 16.7% + 3 points whoever wins. Three deals, one seat winning two,
    # read "strong" too (20.8% to 93.9%): drawn fair games of 6 seats did so 45% of the time.
    r = cli("run", "--game", "trickster", "--players", "6", "--n", "1", "--strategy", "random", "--seed", "1",
            "--jobs", "1", "--out", tmp_path / "one")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("Seat verdict"))
    assert line.startswith("Seat verdict: unclear.") and "strong edge" not in line
    assert "a seat verdict takes 30 or more" in line
    two_of_three = [(0, 2 / 3, *map(float, stats.wilson(2, 3))), (1, 1 / 3, *map(float, stats.wilson(1, 3)))]
    two_of_three += [(s, 0.0, *map(float, stats.wilson(0, 3))) for s in range(2, 6)]
    v = verdicts.seat_verdict(two_of_three, 6, 3)
    assert v.word == "unclear" and v.more is None and "would settle it" not in v.sentence
    # from 30 units the intervals decide: a seat winning every one of 30 deals is strong
    thirty = [(0, 1.0, *map(float, stats.wilson(30, 30)))] + [(s, 0.0, 0.0, float(stats.wilson(0, 30)[1]))
                                                                for s in range(1, 6)]
    assert verdicts.seat_verdict(thirty, 6, 30).word == "strong"


def test_a_ladder_rung_from_too_few_deals_to_tell_is_unclear_not_flat(tmp_path):
    # failed before: 3 deals of balance winning every one against random (43.9% to 100% per seat)
    # read "pays: no" and "The ladder flattens at rung 1: ... not clearly above the fair 50.0%: from
    # there, more skill (more search) stops paying", an interval reaching +50 points taken for none
    r = cli("ladder", "--game", "black-white", "--players", "2", "--n", "3", "--rungs", "random,balance",
            "--runs", tmp_path / "runs", "--out", tmp_path / "lad.html", "--jobs", "1", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "stops paying" not in r.output and "flattens" not in r.output
    assert "The ladder is unclear from rung 1: balance wins 100.0% (43.9–100.0%)" in r.output
    assert "play more deals to tell whether more skill still pays there" in r.output
    assert "│ unclear │" in r.output
    assert "The ladder is unclear from rung 1" in (tmp_path / "lad.html").read_text()


def test_matches_no_seat_won_alone_are_not_put_down_to_partners_where_there_are_none():
    # failed before: Black & White at 2 players with hand_size=10 (every match level at the
    # 200-round cap) read "No match had a sole winner (every match's win was shared by seats level on
    # total, as partners always are), ...: simtool measures comebacks seat by seat." of two seats
    # playing alone
    nan = math.nan
    alone = verdicts.tension_verdict((nan, nan, nan), (0.0, 0.0, 0.0), (nan, nan, nan), 100)
    assert alone.word == "unclear" and alone.sentence.startswith("No match had a sole winner")
    assert "partner" not in alone.sentence.lower()
    sides = verdicts.tension_verdict((nan, nan, nan), (0.0, 0.0, 0.0), (nan, nan, nan), 100, [(0, 2), (1, 3)])
    assert "as partners always are" in sides.sentence and "Partners count as one side: 0+2 against 1+3" \
        in sides.sentence


def test_a_seat_interval_on_one_side_of_fair_never_shows_an_end_at_zero():
    # failed before: `simtool review --game black-white --players 2` read "fair. ... The largest edge
    # is seat 0's, -0.1 points (95% interval -0.2 to 0.0 points)" of seat 0's -0.22 to -0.029: an
    # interval surely below fair shown reaching it
    shares = [(0, 0.49875, 0.49779, 0.49971), (1, 0.50125, 0.50029, 0.50221)]
    v = verdicts.seat_verdict(shares, 2, 1_048_576)
    assert v.word == "fair" and "(95% interval -0.2 to -0.03 points)" in v.sentence
    # an interval holding 0 keeps its one decimal
    holding = verdicts.seat_verdict([(0, 0.4995, 0.4986, 0.5005), (1, 0.5005, 0.4995, 0.5014)], 2, 1_048_576)
    assert "(95% interval -0.1 to 0.0 points)" in holding.sentence
