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
    steps = min(k, cards - 1)
    u = rng.random((steps, n), dtype=np.float32)
    # positions on the first axis: position i of every deal is one contiguous row
    order = np.broadcast_to(np.arange(cards, dtype=np.int8)[:, None], (cards, n)).copy()
    flat = order.reshape(-1)
    cols = np.arange(n, dtype=np.intp)
    for i in range(steps):
        j = i + np.minimum((u[i] * (cards - i)).astype(np.intp), cards - i - 1)
        at = j * n + cols
        picked = flat[at]
        flat[at] = order[i]
        order[i] = picked
    return np.ascontiguousarray(order[:k].T)


def hands(cards: np.ndarray, p: int) -> np.ndarray:
    """Split dealt cards ``(n, p*h)`` into ``p`` hands of ``h``, as uint64 sets ``(n, p)``."""
    n = cards.shape[0]
    return np.bitwise_or.reduce(bits.BIT[cards].reshape(n, p, -1), axis=2)


def deal_among(cards: np.ndarray, sizes: np.ndarray, rng: np.random.Generator, n_cards: int) -> np.ndarray:
    """Deal each row's card set ``cards`` ``(n,)`` at random into hands of ``sizes`` ``(n, p)``.

    Every way of giving each seat ``sizes[:, s]`` of the cards is equally likely; cards beyond
    ``sizes.sum(axis=1)`` stay undealt. Returns ``(n, p)`` sets.
    """
    n, p = sizes.shape
    member = bits.to_mask(cards, n_cards)
    keys = np.where(member, rng.random((n, n_cards)), 2.0)  # non-members sort last
    order = np.argsort(keys, axis=1)
    ends = np.cumsum(sizes, axis=1)
    owner = (np.arange(n_cards)[None, :, None] >= ends[:, None, :]).sum(axis=2)  # (n, n_cards): seat, p = none
    card_bits = np.where(member[np.arange(n)[:, None], order], bits.BIT[order], bits.EMPTY)
    return np.stack([np.bitwise_or.reduce(np.where(owner == s, card_bits, bits.EMPTY), axis=1)
                     for s in range(p)], axis=1)
