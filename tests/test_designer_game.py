"""What a designer bringing a game of their own trips over (docs/new-game.md): each test is a
mistake, or a correct game, that simtool once answered wrongly or with an unclear message."""

from __future__ import annotations

import numpy as np
import pytest

from simtool import bits, games
from simtool.testing import suite
from tests.designer_games.whist import Whist


def test_a_card_drawn_from_a_column_of_hands():
    """``bits.uniform(hands[:, seat], ...)`` (the dealer's turned-up card: a column of an (n, p)
    table) was numpy's 'the last axis must be contiguous' from deep inside bits."""
    rng = np.random.default_rng(1)
    hands = rng.integers(1, 2**52, (500, 4), dtype=np.uint64) | np.uint64(1 << 60)
    column = hands[:, 2]
    assert not column.flags.c_contiguous
    picked = bits.uniform(column, np.random.default_rng(2), 64)
    assert ((column & bits.BIT[picked]) != 0).all()
    assert (picked == bits.uniform(column.copy(), np.random.default_rng(2), 64)).all()
    k = np.minimum(bits.count(column) - 1, 30).astype(np.uint8)
    assert (bits.select(column, k) == bits.select(column.copy(), k)).all()


@pytest.fixture
def installed(monkeypatch):
    """Registers games for a test, as the conformance suite does for a game not installed."""
    def install(*added):
        monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, *added))
    return install


class _Twice(Whist):
    """Seat 1 is also dealt seat 0's lowest card; the invariants, written from the deal (every
    card held is one dealt), still hold."""

    id = "designer-twice"

    def deal(self, rng, match, rnd):
        s = super().deal(rng, match, rnd)
        low = bits.lowest(s.hands[:, 0])
        s.hands[:, 1] = (s.hands[:, 1] & ~bits.BIT[bits.lowest(s.hands[:, 1])]) | bits.BIT[low]
        s.dealt = np.bitwise_or.reduce(s.hands, axis=1)
        return s

    def invariants(self, s):
        return {"every card held or played": (np.bitwise_or.reduce(s.hands, axis=1) | s.played) == s.dealt}


def test_a_card_dealt_to_two_seats_fails_the_suite_by_name(installed):
    """Before: a game dealing a card twice passed the suite unless a re-deal tripped over it
    ('offered no legal option ... in a re-dealt world'); now the deal names the card."""
    game = _Twice()
    installed(game)
    with pytest.raises(AssertionError, match=r"after the deal: no card is in two hands: card \d+ \(\w\w\) "
                                             r"is in 'hands' of seats \[0, 1\] in deal 0"):
        suite.watched_round(game, 4, "random", n=50)


def test_the_designers_whist_passes_the_suite(installed):
    game = Whist()
    installed(game)
    watch, results = suite.watched_round(game, 4, "random", n=200)
    assert (results["tricks"].sum(axis=1) == 13).all() and watch.seen
