"""A sweep refused its whole grid where one game lacked a player count or a rule value
("error: kansas-city is for 4, 5 players, not 3"): that cell is skipped, said on stderr and on
the page, and the sweep is refused only where no cell is left."""

from __future__ import annotations

import json

from .test_cli import cli, one_line_error


def cells(runs) -> list[str]:
    return sorted(json.loads((f / "run.json").read_text())["game"] + f"/{f.name}"
                  for f in runs.iterdir() if (f / "run.json").is_file())


def test_a_player_count_one_game_lacks_skips_its_cell(tmp_path, charts_undrawn):
    r = cli("sweep", "-g", "black-white,kansas-city", "-p", "3,4", "-n", "300", "--seed", "1", "-j", "1", "-q",
            "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    assert r.stderr == "note: skipped kansas-city, 3 players: kansas-city is for 4, 5 players, not 3\n"
    assert len(cells(tmp_path / "runs")) == 3
    page = (tmp_path / "sweep.html").read_text()
    assert '<p class="note">Skipped kansas-city, 3 players: kansas-city is for 4, 5 players, not 3.</p>' in page


def test_a_rule_value_one_game_cannot_play_skips_its_cell(tmp_path, charts_undrawn):
    r = cli("sweep", "-g", "black-white,kansas-city", "-r", "hand_size=12,14", "-n", "300", "--seed", "1", "-j", "1",
            "-q", "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("note: skipped black-white, 3 players, hand_size=14: black-white: 3 hands of 14 cards")
    assert len(cells(tmp_path / "runs")) == 3


def test_nothing_left_is_refused_in_one_line(tmp_path):
    r = cli("sweep", "-g", "kansas-city", "-p", "3", "-n", "300", "--seed", "1", "-j", "1", "-q",
            "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    one_line_error(r, "kansas-city is for 4, 5 players, not 3")
    assert not (tmp_path / "runs").exists() and not (tmp_path / "sweep.html").exists()


def test_a_grid_of_one_game_is_still_refused_at_its_first_unplayable_cell(tmp_path):
    r = cli("sweep", "-g", "kansas-city", "-p", "3,4", "-n", "300", "--seed", "1", "-j", "1", "-q",
            "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    one_line_error(r, "kansas-city is for 4, 5 players, not 3")
    assert not (tmp_path / "runs").exists()


def test_a_grid_of_several_games_none_can_play_names_every_games_reason(tmp_path):
    # before: "error: black-white is for 2, 3, 4 players, not 6", as if Kansas City could play 6
    r = cli("sweep", "-g", "black-white,kansas-city", "-p", "6", "-n", "300", "--seed", "1", "-j", "1", "-q",
            "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    one_line_error(r, "no cell of this grid can be played: black-white is for 2, 3, 4 players, not 6; "
                      "kansas-city is for 4, 5 players, not 6")
    assert not (tmp_path / "runs").exists() and not (tmp_path / "sweep.html").exists()
