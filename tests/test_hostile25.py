"""Hostile round 25: figures on a threshold but for the float32 the tables store a split win in."""

from __future__ import annotations

import numpy as np
import pytest

from simtool.analysis import verdicts

from .test_cli import cli

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts


def test_an_edge_of_exactly_one_point_with_a_split_win_shows_as_one_point(tmp_path):
    # failed before: 400 deals of Trickster at 3 seats (seed 1), seat 0 winning 128 deals, 18 halves
    # and one third, exactly 1 point over a fair 33.3%, read "+1.000000002 pts" in the report's
    # seat table: the third is stored as float32 0.3333333433, and 2.5e-9 points off the 1-point
    # threshold was taken for a figure beside it that needed nine decimals to tell apart
    run = tmp_path / "run"
    r = cli("run", "--game", "trickster", "--players", "3", "--n", "400", "--strategy", "random", "--seed", "1",
            "--jobs", "1", "-q", "--out", run)
    assert r.exit_code == 0, r.output
    r = cli("report", run, "-o", tmp_path / "r.html")
    assert r.exit_code == 0, r.output
    page = (tmp_path / "r.html").read_text()
    assert "1.00000000" not in page and "<td>+1.0 pts</td>" in page


def test_a_seat_verdict_on_one_point_but_for_float32_needs_no_quadrillions_of_deals():
    # failed before: the same seat read "Seat 0 wins 34.33333334% of deals, 1.00000001 points more
    # than a fair 33.33333333% (...): unclear whether fair or slight; about 450,000,000,000,000
    # million more deals would settle it": deals to move an estimate 2.5e-9 points
    share = (128 + 18 * 0.5 + float(np.float32(1 / 3))) / 400
    rows = [(0, share, 0.335, 0.36), (1, 0.33, 0.32, 0.34), (2, 0.3266, 0.32, 0.33)]
    v = verdicts.seat_verdict(rows, 3, 4000)
    assert "Seat 0 wins 34.3% of deals, 1.0 points more than a fair 33.3%" in v.sentence
    assert "million" not in v.sentence and v.more is None
    assert verdicts.fixed(100 * (share - 1 / 3), verdicts.SEAT_THRESHOLDS, "+") == "+1.0"
    # an edge of exactly 0 but for the same third is no "+0.000000003" either
    assert verdicts.signed_points(float(np.float32(1 / 3)) - 1 / 3, (0.0, 1.0)) == "0.0"
    # a figure truly off the threshold still shows where it lies
    assert verdicts.fixed(0.97, verdicts.SEAT_THRESHOLDS) == "0.97"


@pytest.mark.parametrize("target, players", [("1", "4"), ("0.8", "4"), ("-0.5", "4"), ("0.6", "2")])
def test_a_first_seat_edge_no_seat_can_have_is_refused_naming_the_range(tmp_path, target, players):
    # failed before: `--objective first_seat_edge=1` at 4 players (a designer meaning 1 point) was
    # taken, and the tuning aimed every trial at an edge of 100 points, which seat 0 cannot have
    # (its win share minus a fair 25% lies in -0.25..0.75): "distance to first_seat_edge=1 0.9650"
    r = cli("tune", "--game", "kansas-city" if players == "4" else "black-white", "--players", players,
            "--vary", "pass_count=2,3" if players == "4" else "deck=34,36", "--objective",
            f"first_seat_edge={target}", "--trials", "2", "--n", "50", "--seed", "1", "--jobs", "1", "-q",
            "--out", tmp_path / "tune")
    assert r.exit_code == 2, r.output
    low, high = {"4": ("-0.25", "0.75"), "2": ("-0.5", "0.5")}[players]
    assert f"at {players} players lies between {low} and {high}" in r.output
    assert "first_seat_edge=0.01" in r.output and not (tmp_path / "tune").exists()


def test_a_restricted_sweep_of_a_restricted_strategy_names_no_option_the_sweep_lacks(tmp_path):
    # failed before: "... give the strategy without restrictions (not 'balance~higher-colour') and the
    # restrictions with --restrictions", an option simtool sweep does not have (it measures every one)
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["black-white"]\nplayers = [3]\nlineups = ["balance~higher-colour"]\nn = 60\n'
                    'seed = 1\nrestrict = true\n')
    for args in (["sweep", grid], ["sweep", "--game", "black-white", "--lineup", "balance~higher-colour",
                                   "--restrict", "--n", "60", "--seed", "1"]):
        r = cli(*args, "--runs", tmp_path / "runs", "--jobs", "1", "-q")
        assert r.exit_code == 2, r.output
        assert "--restrictions" not in r.output
        assert "(not 'balance~higher-colour'): a restricted sweep measures every restriction of the game" in r.output
    # simtool restrict has the option, and still names it
    r = cli("restrict", "--game", "black-white", "--strategy", "balance~higher-colour", "--n", "60", "--jobs", "1",
            "-q", "--out", tmp_path / "restricted")
    assert r.exit_code == 2 and "and the restrictions with --restrictions" in r.output


def test_a_skill_or_hidden_information_interval_on_one_side_of_zero_never_shows_an_end_at_zero():
    # failed before: `simtool review --game out-trumped` (seed 3, small sizes) read "+14.1 points
    # against hoarder (0.0 to 30.2): much skill" of pimc's gain over the heuristic, 0.012 to 30.2
    # points: an interval surely above 0 shown reaching it, where a seat's never does
    v = verdicts.skill_verdict((14.0625, 0.0121, 30.196), (32.8125, 15.337, 48.528), (6.25, -6.8157, 23.176), 32,
                               heuristic="hoarder")
    assert "+14.1 points against hoarder (0.01 to 30.2)" in v.sentence
    below = verdicts.skill_verdict((-14.0, -30.2, -0.03), (0.5, 0.02, 1.0), None, 32, heuristic="hoarder")
    assert "(-30.2 to -0.03)" in below.sentence and "(95% interval 0.02 to 1.0)" in below.sentence
    # an interval holding 0 keeps its one decimal
    holding = verdicts.skill_verdict((14.0, -0.02, 30.2), (32.8, 15.3, 48.5), None, 32, heuristic="hoarder")
    assert "(-0.0 to 30.2)" not in holding.sentence and "(0.0 to 30.2)" in holding.sentence
    price = verdicts.hidden_verdict((7.8, 0.02, 20.9), 32)
    assert "(95% interval 0.02 to 20.9)" in price.sentence


def test_a_review_cards_interval_on_one_side_of_zero_reads_as_its_sentence():
    # failed before: the seat card of a fair Black & White at 2 players (seat 0 at -0.22 to -0.029
    # points) read "-0.1 points (95% interval -0.2 to 0.0 points)" under the sentence's own "-0.2 to
    # -0.03 points": the card beside the words showed the interval reaching fair
    from simtool.reports import review as page

    shares = [(0, 0.49875, 0.49779, 0.49971), (1, 0.50125, 0.50029, 0.50221)]
    v = verdicts.seat_verdict(shares, 2, 1_048_576)
    answer = {"verdict": v.word, "sentence": v.sentence, "seats": v.figures["seats"], "thresholds": v.thresholds}
    card = page.seat_card("seats", "Is the game fair to every seat?", answer)
    assert "(95% interval -0.2 to -0.03 points)" in v.sentence
    assert card["figure"] == "-0.1 points (95% interval -0.2 to -0.03 points)"
    # a gain surely above 0 alike; an interval holding 0 keeps its one decimal
    assert page.figure_text(14.06, 0.0121, 30.2, " points", near=[3.0, 10.0]) == \
        "14.1 points (95% interval 0.01 to 30.2 points)"
    assert page.figure_text(-0.1, -0.22, 0.029, " points", near=[1.0, 3.0]) == \
        "-0.1 points (95% interval -0.2 to 0.0 points)"


def test_trials_that_played_their_deals_otherwise_are_not_called_unmoved(tmp_path):
    # failed before: 50 deals of Kansas City at limit=5 and limit=9 (seed 1) gave one seat spread,
    # 0.14 [0, 0.357], from other results (their seats.parquet differ), and the tuning read
    # "Warning: limit changed no figure: its trials measured alike whatever its value, on the same
    # deals; it may matter only to whole matches ...": of the trick limit, which scores every deal
    out = tmp_path / "tune"
    r = cli("tune", "--game", "kansas-city", "--vary", "limit=1..14", "--objective", "seat_spread", "--trials", "2",
            "--n", "50", "--seed", "1", "--jobs", "1", "-q", "--out", out)
    assert r.exit_code == 0, r.output
    assert "changed no figure" not in r.output and "Keep the sheet" in r.output
    assert "changed no figure" not in (out / "tune.html").read_text()
