"""Review of the session's merges (2026-11-28): a sweep's line-up that no cell plays."""

from __future__ import annotations

from .test_cli import cli, one_line_error


def test_a_line_up_too_long_for_every_cell_of_the_games_that_play_it_is_refused(tmp_path):
    # duck plays Black & White only, whose one cell here has 3 players; the 5-player cell is Kansas
    # City's. Before: the line-up counted as seated by that cell, so both its cells were skipped;
    # alone it wrote a plan of no cell and said "error: no run folders given; pass one or more
    # folders written by `simtool run`", beside another line-up it played nowhere with exit 0
    for more in ([], ["-l", "random"]):
        r = cli("sweep", "-g", "black-white,kansas-city", "-p", "3,5", "-l", "duck,duck,duck,duck,duck", *more,
                "-n", "20", "--seed", "1", "-j", "1", "-q", "--runs", tmp_path / "runs", "-o", tmp_path / "s.html")
        one_line_error(r, "line-up 'duck,duck,duck,duck,duck' names 5 seats; no cell of this sweep whose game "
                          "plays it has that many players (at most 3)")
        assert not (tmp_path / "runs").exists() and not (tmp_path / "s.html").exists()


def test_a_line_up_no_cell_seats_names_the_most_players(tmp_path):
    # before: "no cell of this sweep has that many players", the counts it has unsaid
    r = cli("sweep", "-g", "black-white", "-l", "random,duck,duck,duck", "-n", "20", "--runs", tmp_path / "runs")
    one_line_error(r, "line-up 'random,duck,duck,duck' names 4 seats; no cell of this sweep has that many "
                      "players (at most 3)")


def test_a_line_up_whose_games_have_no_cell_in_the_sweep_is_refused(tmp_path):
    # duck plays Black & White only, which has no 5-player cell. Before: a plan of no cell was
    # written and the sweep said "error: no run folders given; pass one or more folders written by
    # `simtool run`" (with --restrict too)
    for more in ([], ["--restrict"]):
        r = cli("sweep", "-g", "black-white,kansas-city", "-p", "5", "-l", "duck", *more, "-n", "20", "--seed", "1",
                "-j", "1", "-q", "--runs", tmp_path / "runs", "-o", tmp_path / "s.html")
        one_line_error(r, "no cell of this sweep plays line-up 'duck': strategy 'duck' plays black-white, not "
                          "kansas-city", "; black-white has no cell here: black-white is for 2, 3, 4 players, not 5")
        assert not (tmp_path / "runs").exists() and not (tmp_path / "s.html").exists()


def test_a_line_up_with_an_empty_name_is_refused_as_such_not_counted_as_a_seat(tmp_path):
    # before: "line-up 'random,,duck,duck,duck' names 5 seats; no cell of this sweep has that many
    # players", where the sweep's 3 players seat its 4 names
    r = cli("sweep", "-g", "black-white", "-l", "random,,duck,duck,duck", "-n", "20", "--runs", tmp_path / "runs")
    one_line_error(r, "bad line-up 'random,,duck,duck,duck'; expected NAME or NAME,NAME,... (one per seat)")
