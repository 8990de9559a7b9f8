"""``simtool strategies --game <a designer's game>`` printed a Restrictions table of no rows."""

from __future__ import annotations

import simtool.games

from . import review_game
from .test_cli import cli


def test_a_game_without_restrictions_says_it_has_none(monkeypatch):
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, review_game.GAME))
    r = cli("strategies", "--game", review_game.GAME.id)
    assert r.exit_code == 0, r.output
    assert "Restrictions (STRATEGY~NAME" not in r.output
    assert f"Restrictions: none for {review_game.GAME.id} (simtool restrict has nothing to measure)" in r.output


def test_a_built_in_game_still_lists_its_restrictions():
    r = cli("strategies", "--game", "kansas-city")
    assert r.exit_code == 0 and "no-upgrade" in r.output and "Restrictions: none" not in r.output


def test_no_game_with_restrictions_says_so_without_a_game_given(monkeypatch):
    # before: UnboundLocalError of the game never looked up (no --game)
    import strategies

    monkeypatch.setattr(strategies, "RESTRICTIONS", {})
    r = cli("strategies")
    assert r.exit_code == 0, r.output
    assert "Restrictions: none for any game (simtool restrict has nothing to measure)" in r.output
