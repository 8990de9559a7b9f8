"""A partnership game brought by a designer (tests/designer_games/spades.py: seats 0+2 against
1+3, every seat scoring its partnership's score): what simtool once got wrong about it."""

from __future__ import annotations

import pytest

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

