"""Sets of up to 64 options (cards, colours, bids) held as one uint64 per deal.

Every decision's legal options and every hand are such sets, so that a batch of
deals is a flat ``(n,)`` array and the common questions (how many, the k-th one,
the lowest one) are a handful of whole-array operations.
"""

from __future__ import annotations

import numpy as np

BIT = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
"""``BIT[i]`` is the set holding only option ``i``."""

EMPTY = np.uint64(0)


def of(options) -> np.uint64:
    """The set holding the given option numbers (a Python-level constant)."""
    out = 0
    for o in options:
        out |= 1 << int(o)
    return np.uint64(out)


def full(n: int) -> np.uint64:
    """The set of options ``0..n-1``."""
    return np.uint64((1 << n) - 1) if n < 64 else np.uint64(2**64 - 1)


def count(sets: np.ndarray) -> np.ndarray:
    """Number of members of each set, as uint8."""
    return np.bitwise_count(sets)


def has(sets: np.ndarray, options: np.ndarray) -> np.ndarray:
    """Whether ``options[i]`` is a member of ``sets[i]`` (options must be 0..63)."""
    return (sets & BIT[options]) != 0


def to_mask(sets: np.ndarray, n: int) -> np.ndarray:
    """Boolean membership table, shape ``sets.shape + (n,)``."""
    sets = np.ascontiguousarray(sets, dtype=np.uint64)
    as_bytes = sets.reshape(-1, 1).view(np.uint8)
    mask = np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :n].view(bool)
    return mask.reshape(sets.shape + (n,))


def from_mask(mask: np.ndarray) -> np.ndarray:
    """Inverse of :func:`to_mask`: a boolean table ``(..., n)`` to sets ``(...)``."""
    mask = np.asarray(mask, dtype=bool)
    lead = mask.shape[:-1]
    flat = mask.reshape(-1, mask.shape[-1])
    packed = np.packbits(flat, axis=1, bitorder="little")
    padded = np.zeros((flat.shape[0], 8), np.uint8)
    padded[:, : packed.shape[1]] = packed
    return padded.view(np.uint64).reshape(lead)


CLEAR_UP_TO = 8
"""Up to this ``k``, :func:`select` clears lowest members one by one (measured: each round costs
a ninth of the halving search)."""

_NARROW = {32: np.uint32, 16: np.uint16, 8: np.uint8, 4: np.uint8, 2: np.uint8, 1: np.uint8}


def select(sets: np.ndarray, k: np.ndarray, n_options: int = 64) -> np.ndarray:
    """The ``k[i]``-th smallest member of ``sets[i]`` (k counts from 0), as int64.

    A binary search on popcounts of halves: where ``k`` lies beyond the lower
    half, shift the upper half down. The integer type narrows with the window,
    and ``n_options`` skips the halves no option can occupy.
    Undefined where ``k >= count(sets)``.
    """
    window = np.asarray(sets, dtype=np.uint64)
    k = np.asarray(k).astype(np.uint8)
    if k.size and k.max() <= CLEAR_UP_TO:
        # clearing the lowest member k times is cheaper than the six halvings for small k
        # (as when hands run short, or at a choice of two)
        window = window.copy()
        for j in range(int(k.max())):
            window &= window - (k > j)
        return lowest(window)
    pos = np.zeros(window.shape, np.uint8)
    width = 64
    while width > 1:
        width //= 2
        narrow = _NARROW[width]
        if width >= n_options:
            window = window.astype(narrow) if width >= 8 else window
            continue
        cut = narrow((1 << width) - 1)
        low = window.astype(narrow) if width >= 8 else window & cut
        c = np.bitwise_count(low)
        upper = (k >= c).view(np.uint8)
        log = width.bit_length() - 1
        window = (window >> (upper.astype(window.dtype) << window.dtype.type(log))).astype(narrow)
        if width < 8:
            window &= cut
        k = k - c * upper
        pos += upper << np.uint8(log)
    return pos.astype(np.int64)


def lowest(sets: np.ndarray) -> np.ndarray:
    """Smallest member of each set; 64 for an empty set."""
    sets = np.asarray(sets, dtype=np.uint64)
    return np.bitwise_count((sets & (~sets + np.uint64(1))) - np.uint64(1)).astype(np.int64)


def highest(sets: np.ndarray, n_options: int = 64) -> np.ndarray:
    """Largest member of each set; -1 for an empty set."""
    sets = np.asarray(sets, dtype=np.uint64)
    if n_options <= 53:  # exact in a float64, whose exponent is then the answer
        return np.frexp(sets.astype(np.float64))[1].astype(np.int64) - 1
    # each 32-bit half is exact in a float64: the upper half's exponent if it has a member
    upper = np.frexp((sets >> np.uint64(32)).astype(np.float64))[1]
    lower = np.frexp((sets & np.uint64(0xFFFFFFFF)).astype(np.float64))[1]
    return np.where(upper > 0, upper + 32, lower).astype(np.int64) - 1


def below(k) -> np.ndarray:
    """The set of options ``0..k-1`` (``k`` from 0 to 64, scalar or array)."""
    return _BELOW[k]


_BELOW = np.array([(1 << k) - 1 for k in range(65)], dtype=np.uint64)


def uniform(sets: np.ndarray, rng: np.random.Generator, n_options: int = 64) -> np.ndarray:
    """One member of each (non-empty) set, uniformly at random."""
    n = count(sets)
    k = (rng.random(n.shape, dtype=np.float32) * n).astype(np.uint8)
    # float32 rounding can reach n itself; clamp so the pick stays a member
    reach = int(np.bitwise_or.reduce(sets, axis=None)).bit_length() if sets.size else 1
    return select(sets, np.minimum(k, n - 1), min(n_options, max(reach, 1)))
