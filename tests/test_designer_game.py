"""What a designer bringing a game of their own trips over (docs/new-game.md): each test is a
mistake, or a correct game, that simtool once answered wrongly or with an unclear message."""

from __future__ import annotations

import numpy as np

from simtool import bits


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
