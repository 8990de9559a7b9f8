"""The search's faster steps draw the same random numbers and make the same choices as the
plain loops they replaced (kept here as the reference): a search's results stay bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from simtool import bits, deck


def _mix_by_sweeps(hands, allowed, rng, sweeps, n_cards):
    """The mixing loop as Out-Trumped's belief wrote it before ``deck.mix``: sweep by sweep, two
    ``rng.integers`` and two ``bits.uniform`` calls."""
    h, a = hands.copy(), allowed
    r = np.arange(len(h))
    p = h.shape[1]
    for _ in range(sweeps):
        x, y = rng.integers(0, p, r.size), rng.integers(0, p, r.size)
        hx, hy = h[r, x], h[r, y]
        cx = bits.BIT[bits.uniform(bits.first_of(hx, bits.BIT[0]), rng, n_cards)]
        cy = bits.BIT[bits.uniform(bits.first_of(hy, bits.BIT[0]), rng, n_cards)]
        ok = r[(x != y) & (hx != 0) & (hy != 0) & ((cy & a[r, x]) != 0) & ((cx & a[r, y]) != 0)]
        h[ok, x[ok]] = h[ok, x[ok]] & ~cx[ok] | cy[ok]
        h[ok, y[ok]] = h[ok, y[ok]] & ~cy[ok] | cx[ok]
    return h


@pytest.mark.parametrize("n,p,sweeps", [(1, 3, 30), (7, 4, 30), (333, 4, 30), (5000, 5, 30), (2049, 3, 7)])
def test_deck_mix_plays_the_sweep_by_sweep_loop_from_the_same_numbers(n, p, sweeps):
    setup = np.random.default_rng(n)
    cards = np.full(n, bits.full(40), np.uint64)
    sizes = np.full((n, p), 40 // p - 1)
    hands = deck.deal_among(cards, sizes, setup, 40)
    hands[0, 1] = 0  # an empty hand takes part and never swaps
    # each seat may hold most cards, not all: some swaps are refused
    allowed = ~(bits.BIT[setup.integers(0, 40, (n, p))] | bits.BIT[setup.integers(0, 40, (n, p))]) | hands
    a, b = np.random.default_rng(99), np.random.default_rng(99)
    a.random(3, dtype=np.float32)  # an odd number of 32-bit outputs already taken: a half word kept
    b.random(3, dtype=np.float32)
    expected = _mix_by_sweeps(hands, allowed, a, sweeps, 40)
    got = hands.copy()
    deck.mix(got, allowed, b, sweeps)
    assert (got == expected).all()
    assert (got != hands).any()  # it did swap
    assert a.random() == b.random()  # and left the generator where the loop did


def test_bits_where_is_np_where_value_and_dtype():
    """bits.where (branchless) gives np.where's values and dtype, also where the difference of the
    two sides overflows (it wraps back), for sets, signed and small integers, scalars and
    broadcast rows; floats go to np.where itself."""
    rng = np.random.default_rng(3)
    n = 1000
    cond = rng.random(n) < 0.5
    big = rng.integers(0, 2**63, n).astype(np.uint64) | np.uint64(1 << 63)
    cases = [
        (cond, big, bits.EMPTY),
        (cond, bits.BIT[5], big),
        (cond, big, rng.integers(0, 2**62, n).astype(np.uint64)),
        (cond, rng.integers(-2**62, 2**62, n), rng.integers(-2**62, 2**62, n)),
        (cond, rng.integers(-9, 60, n), -1),
        (cond, rng.integers(-9, 60, n).astype(np.int8), np.int8(-128)),
        (cond, np.int32(7), rng.integers(0, 9, n).astype(np.int32)),
        (cond[:, None], rng.integers(0, 2**63, (n, 4)).astype(np.uint64), big[:, None]),
        (cond, rng.random(n), 0.5),
        (cond.astype(np.int64) * 3, rng.integers(0, 9, n), 4),  # a condition of nonzero numbers
    ]
    for c, a, b in cases:
        expected, got = np.where(c, a, b), bits.where(c, a, b)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert (got == expected).all()


def test_forced_names_the_one_option_only_where_every_deal_has_one():
    """strategies.base.forced: the one legal option per deal where every deal has just one (the
    heuristics then return it without their questions); None where any deal has a choice."""
    from types import SimpleNamespace

    from strategies.base import forced

    one_each = np.array([bits.BIT[0], bits.BIT[63], bits.BIT[17]])
    assert forced(SimpleNamespace(legal=one_each)).tolist() == [0, 63, 17]
    a_choice = one_each | np.array([0, 0, bits.BIT[3]], np.uint64)
    assert forced(SimpleNamespace(legal=a_choice)) is None

