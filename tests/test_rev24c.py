"""Defects found reviewing session 24's changes (rev24c)."""
from __future__ import annotations

import json

from .test_cli import cli


def test_a_restricted_line_up_one_game_of_a_sweep_cannot_play_skips_that_games_cells(tmp_path):
    # failed before: "error: restriction 'higher-colour' is for black-white, not kansas-city", the
    # whole grid refused, though a strategy one game lacks skips that game's cells with a note
    r = cli("sweep", "-g", "black-white,kansas-city", "-l", "random~higher-colour", "-l", "random", "-n", "40",
            "--seed", "1", "-j", "1", "-q", "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        "note: skipped kansas-city, line-up random~higher-colour: restriction 'higher-colour' is for "
        "black-white, not kansas-city; valid for kansas-city: no-upgrade, pass-high"]
    played = sorted((m := json.loads((f / "run.json").read_text()))["game"] + ":" + ",".join(m["lineup"])
                    for f in (tmp_path / "runs").iterdir() if (f / "run.json").is_file())
    assert played == ["black-white:random,random,random", "black-white:random~higher-colour,random~higher-colour,"
                      "random~higher-colour", "kansas-city:random,random,random,random"]
