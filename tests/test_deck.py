import numpy as np
import pytest

from simtool import bits, deck


def _fisher_yates(rng, n, cards, k):
    """The shuffle deck.shuffled documents, one deal at a time in plain Python, from the same draws."""
    steps = min(k, cards - 1)
    u = rng.random((steps, n), dtype=np.float32)
    out = []
    for d in range(n):
        order = list(range(cards))
        for i in range(steps):
            j = i + min(int(u[i, d] * np.float32(cards - i)), cards - i - 1)
            order[i], order[j] = order[j], order[i]
        out.append(order[:k])
    return np.array(out, np.int8)


@pytest.mark.parametrize("cards,k", [(36, 36), (36, 22), (32, 33), (9, 1)])
def test_shuffled_is_the_documented_fisher_yates(cards, k):
    got = deck.shuffled(np.random.default_rng(4), 300, cards, k)
    assert got.shape == (300, min(k, cards)) and got.dtype == np.int8
    assert (got == _fisher_yates(np.random.default_rng(4), 300, cards, k)).all()
    assert all(len(set(row)) == len(row) for row in got.tolist())


@pytest.mark.parametrize("cards,p,h", [(36, 3, 12), (36, 4, 9), (36, 2, 11), (64, 5, 12)])
def test_dealt_hands_are_the_shuffle_split_into_hands(cards, p, h):
    dealt = deck.dealt_hands(np.random.default_rng(9), 500, cards, p, h)
    order = deck.shuffled(np.random.default_rng(9), 500, cards, p * h)
    assert (dealt == deck.hands(order, p)).all()
    assert (bits.count(dealt) == h).all()
    for s in range(p):  # seat s holds exactly positions s*h .. s*h + h - 1
        assert (dealt[:, s] == bits.from_mask(np.eye(64, dtype=bool)[order[:, s * h:(s + 1) * h]].any(axis=1))).all()
