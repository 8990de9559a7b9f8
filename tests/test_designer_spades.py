"""A partnership game brought by a designer (tests/designer_games/spades.py: seats 0+2 against
1+3, every seat scoring its partnership's score): what simtool once got wrong about it."""

from __future__ import annotations

import pytest

import simtool
from simtool.analysis import tension, verdicts
from simtool.testing import suite
from tests.designer_games.spades import Spades


@pytest.fixture
def spades(installed):
    game = Spades()
    installed(game)
    return game


def test_the_suites_re_deal_check_starts_round_1_from_totals_the_game_can_reach(spades):
    """Before: the check set the totals before round 1 to 0, 1, 2, 3 (partners apart), which the
    designer's invariant 'partners' totals equal' refused: 'invariant broken in a re-dealt world at
    'play': partners' totals equal (deal 0)'. Now round 1 follows a round of the game itself."""
    suite.Conformance().test_worlds_show_the_seat_what_it_saw(spades, 4)


def test_matches_without_a_sole_winner_are_not_said_to_last_one_round(spades):
    """Partners always tie, so no match has a sole winner and every comeback figure is NaN. Before:
    'No match lasted more than one round' (the matches lasted 4.4 rounds) and 'the winner leads for
    good from nan% of the way through (n/a)'; the report's sentence said the same."""
    r = simtool.run("designer-spades", n=40, seed=1, unit="match", strategy="high", jobs=1)
    _, table, _ = tension.analyse(r.seats.select("match", "round", "seat", "score"), r.matches, False)
    row = table.row(0, named=True)
    assert row["mean_rounds"] > 2

    def fig(name):
        return row[name], row[f"{name}_low"], row[f"{name}_high"]

    v = verdicts.tension_verdict(fig("winner_behind_at_half_time"), fig("mean_lead_changes"),
                                 fig("decided_share_of_match"), 40)
    assert v.word == "unclear" and v.more is None
    assert v.sentence.startswith("No match had a sole winner") and "nan" not in v.sentence
    assert "one round" not in v.sentence and "leads for good from" not in v.sentence
    text = tension.text(table, False)
    assert "no match had a sole winner" in text and "one round" not in text and "nan" not in text
