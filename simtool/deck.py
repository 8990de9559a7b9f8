"""Shuffling and dealing for a batch of deals."""

from __future__ import annotations

import numpy as np

from . import bits


def shuffled(rng: np.random.Generator, n: int, cards: int, k: int | None = None) -> np.ndarray:
    """The first ``k`` cards of ``n`` independent uniform shuffles of cards ``0..cards-1``.

    A Fisher-Yates shuffle run across all deals at once, stopped after ``k``
    positions (the rest of the deck is never looked at). Returns ``(n, k)`` int8.
    """
    k = cards if k is None else k
    deck = np.broadcast_to(np.arange(cards, dtype=np.int8), (n, cards)).copy()
    rows = np.arange(n)
    u = rng.random((min(k, cards - 1), n), dtype=np.float32)
    for i in range(min(k, cards - 1)):
        j = i + np.minimum((u[i] * (cards - i)).astype(np.intp), cards - i - 1)
        picked = deck[rows, j]
        deck[rows, j] = deck[:, i]
        deck[:, i] = picked
    return deck[:, :k]


def hands(cards: np.ndarray, p: int) -> np.ndarray:
    """Split dealt cards ``(n, p*h)`` into ``p`` hands of ``h``, as uint64 sets ``(n, p)``."""
    n = cards.shape[0]
    return np.bitwise_or.reduce(bits.BIT[cards].reshape(n, p, -1), axis=2)
