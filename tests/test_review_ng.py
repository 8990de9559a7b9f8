"""Review of the designer-game conformance checks (branch newgame): cases where a correct game
must pass, or the engine's new handling must hold."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games import nine_lives
from simtool.testing import watched_round


class LaterRoundNineLives(nine_lives.NineLives):
    """Nine Lives as it is from its second round on: the bid cards scored so far are out of the
    deck, so the deals hold decks of different sizes and play different numbers of tricks
    (the shared trick loop's ``active``) in the same round; ``trick_no`` counts the longest."""

    def new_match(self, n, p, rules):
        match = super().new_match(n, p, rules)
        # every other deal has had the four lowest cards scored into the piles already
        match.piles[1::2] = bits.full(p)
        return match


def test_deals_playing_fewer_tricks_than_the_longest_pass_the_tricks_check():
    game = LaterRoundNineLives()
    watch, results = watched_round(game, 4, "random", n=40)
    won = np.asarray(results["tricks"]).sum(axis=1)
    assert set(won[0::2]) == {8} and set(won[1::2]) == {7}  # the case: two lengths of round at once
