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


def bit_of(options: np.ndarray) -> np.ndarray:
    """``BIT[options]`` (options 0..63, any integer dtype), as a new array: by a shift, which costs
    half a look-up's gather. 64-bit options (the engine's choices) are shifted as they are, seen
    as unsigned: one pass where a cast's copy took another."""
    options = np.asarray(options)
    if options.dtype.itemsize == 8 and options.dtype.kind in "iu":
        return np.left_shift(_1, options.view(np.uint64))
    out = options.astype(np.uint64)
    np.left_shift(_1, out, out=out)
    return out


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


CLEAR_UP_TO = 4
"""Up to this ``k``, :func:`select` clears lowest members one by one: each round costs about a
sixth of the byte-wise search (measured on 12-card hands)."""


def _in_byte() -> np.ndarray:
    table = np.zeros((256, 8), np.int64)
    for byte in range(256):
        members = [i for i in range(8) if byte >> i & 1]
        table[byte, : len(members)] = members
    return table.reshape(-1)


IN_BYTE = _in_byte()
"""``IN_BYTE[b * 8 + r]``: the ``r``-th smallest member of the 8-option set ``b`` (int64: the
answer's own dtype, so that no step of :func:`select` mixes dtypes, which numpy does through
a buffered cast several times slower than the operation itself)."""

_ONES = np.uint64(0x0101010101010101)
_HIGH = np.uint64(0x8080808080808080)
_1, _3, _4, _8, _56 = (np.uint64(x) for x in (1, 3, 4, 8, 56))
_ABOVE_LOWEST = _ONES >> _8  # bytes 0 to 6: a byte's sum reaches the top byte from bytes 1 to 7
_BYTE, _LOW7 = np.uint64(0xFF), np.uint64(0x7F)


def select(sets: np.ndarray, k: np.ndarray, n_options: int = 64) -> np.ndarray:
    """The ``k[i]``-th smallest member of ``sets[i]`` (k counts from 0), as int64.

    ``n_options``: no set holds an option at or above it; up to 8 options, one lookup in a table.
    Otherwise, for small ``k``, the lowest member is cleared ``k`` times; else a byte-wise search
    (:func:`_select_bytes`). Undefined where ``k >= count(sets)``.
    """
    sets = np.asarray(sets, dtype=np.uint64)
    k = np.asarray(k).astype(np.uint8, copy=False)  # never written to: no copy needed
    if n_options <= 8:
        at = sets << _3
        at += k.astype(np.uint64)
        return np.take(IN_BYTE, at.view(np.int64))
    # the ufunc's reduce, once: ndarray.max's Python wrapper cost as much again, twice a pick
    most = int(np.maximum.reduce(k)) if k.size else CLEAR_UP_TO + 1
    if most <= CLEAR_UP_TO:
        window = sets.copy()
        step = np.empty_like(window)
        for j in range(most):
            np.greater(k, j, out=step, casting="unsafe")  # 1 where the k-th is still above
            np.subtract(window, step, out=step)
            window &= step
        return lowest(window)
    return _select_bytes(sets, k)


def _select_bytes(sets: np.ndarray, k: np.ndarray) -> np.ndarray:
    """:func:`select` by bytes, in a fixed number of whole-array steps whatever ``k``, every one
    on uint64: the running count of members below each byte (byte popcounts times 0x0101...,
    which sums them into every higher byte); in all eight bytes at once, ``0x80 + k`` less that
    count, whose high bit stays set exactly in the bytes starting at or below member ``k`` (a run
    from the lowest byte: the count only grows); their number (the high bits summed into the top
    byte by one more multiplication) gives the byte holding member ``k``, and that byte's
    ``0x80 + k - count``, less its high bit, the members of it to pass over: then the table."""
    if not sets.flags.c_contiguous:  # a column of an (n, p) table: its bytes cannot be viewed in place
        sets = np.ascontiguousarray(sets)
    before = np.bitwise_count(sets.view(np.uint8)).view(np.uint64)
    before *= _ONES << _8  # byte i: members in bytes 0..i-1 (at most 64: no carry)
    ahead = k.astype(np.uint64)
    ahead *= _ONES
    ahead |= _HIGH
    ahead -= before  # byte i: 0x80 + k - before_i, high bit set where k >= before_i (no borrow)
    # the bits below the byte holding member k: 8 for each byte above the lowest that starts at
    # or below it (the lowest always does), summed into the top byte by one multiplication
    shift = ahead & _HIGH
    shift >>= _4  # 8 in each such byte
    shift *= _ABOVE_LOWEST
    shift >>= _56
    ahead >>= shift
    ahead &= _LOW7  # members of that byte to pass over
    at = sets >> shift
    at &= _BYTE
    at <<= _3
    at += ahead
    out = np.take(IN_BYTE, at.view(np.int64))
    out += shift.view(np.int64)
    return out


def first_of(sets: np.ndarray, otherwise: np.ndarray) -> np.ndarray:
    """``sets`` where not empty, else ``otherwise``: ``np.where(sets != 0, sets, otherwise)`` as a
    product, without where's branches (several times slower on unpredictable conditions)."""
    return sets | otherwise * (sets == 0)


def any_in_row(sets: np.ndarray) -> np.ndarray:
    """Whether any set of each row of ``sets`` ``(n, p)`` has a member: ``(sets != 0).any(axis=1)``
    one whole column at a time (numpy reduces a short last axis element by element: ten times
    slower for 24576 rows of 4, measured)."""
    union = sets[:, 0].copy() if sets.shape[1] else np.zeros(len(sets), np.uint64)
    for column in range(1, sets.shape[1]):
        union |= sets[:, column]
    return union != 0


SMALL_BATCH = 4096
"""Up to this many deals (a test's, a small run's, a search's few worlds) :func:`where` and
:func:`clamp` call numpy's one function (where a Python wrapper's cost is most of the work),
above it the steps that are cheaper on large batches."""


def where(condition: np.ndarray, a, b) -> np.ndarray:
    """``np.where(condition, a, b)`` for sets and whole numbers, without branches on large batches:
    ``b + (a - b) * condition`` in the result's own dtype, exact as integers wrap (np.where branches
    per element, and on a condition that varies from deal to deal costs 3 to 4 times as much on a
    search's batches of 1e5 play-outs, measured). Floats, two scalars and small batches
    (:data:`SMALL_BATCH`: np.where's one call costs half the product's four there, 1.4 against 3.1
    microseconds for 64 deals) go to np.where: the same values in the same dtype."""
    # ndim and size read as attributes: np.ndim's wrapper costs more than the rest of the test (a
    # list, read as 0-d, goes to np.where, which gives the same values); a small batch is asked
    # first, before the dtype, whose look-up costs a third of np.where's call there
    if getattr(condition, "size", 0) <= SMALL_BATCH:
        return np.where(condition, a, b)
    dtype = np.result_type(a, b)
    if dtype.kind not in "iu" or (getattr(a, "ndim", 0) == 0 and getattr(b, "ndim", 0) == 0):
        return np.where(condition, a, b)
    out = np.multiply(np.subtract(a, b, dtype=dtype), np.asarray(condition, bool), dtype=dtype)
    out += b
    return out


def lowest(sets: np.ndarray) -> np.ndarray:
    """Smallest member of each set; 64 for an empty set."""
    sets = np.asarray(sets, dtype=np.uint64)
    below_it = sets - _1
    below_it &= ~sets  # the bits below it
    return np.bitwise_count(below_it).astype(np.int64)


def highest(sets: np.ndarray, n_options: int = 64) -> np.ndarray:
    """Largest member of each set; -1 for an empty set."""
    sets = np.asarray(sets, dtype=np.uint64)
    if n_options <= 53:  # exact in a float64, whose exponent is then the answer
        return np.frexp(sets.astype(np.float64))[1].astype(np.int64) - 1
    # the members with no member just above them: the largest stays, the one below it goes, so the
    # float64 rounding of the rest can never carry into the next power of two: its exponent is
    # still the answer (one pass where two 32-bit halves took twice the steps)
    alone = sets & ~(sets >> _1)
    return np.frexp(alone.astype(np.float64))[1].astype(np.int64) - 1


def clamp(k, low: int, high: int):
    """``np.clip(k, low, high)`` (``low <= high``): the same values and dtype. Up to
    :data:`SMALL_BATCH` values by its two ufuncs, without np.clip's Python wrapper, which costs
    twice their work there (3.8 against 1.2 microseconds for 64, measured); above it np.clip's one
    pass is the cheaper."""
    if getattr(k, "size", 1) > SMALL_BATCH:
        return np.clip(k, low, high)
    return np.minimum(np.maximum(k, low), high)


def below(k) -> np.ndarray:
    """The set of options ``0..k-1`` (``k`` from 0 to 64, scalar or array)."""
    return _BELOW[k]


_BELOW = np.array([(1 << k) - 1 for k in range(65)], dtype=np.uint64)


def uniform(sets: np.ndarray, rng: np.random.Generator, n_options: int = 64) -> np.ndarray:
    """One member of each (non-empty) set, uniformly at random: member ``k`` of set ``i`` (counting
    from the smallest), ``k`` the float32 ``u * count`` cut to a whole number (at most
    ``count - 1``), one float32 ``u`` drawn per set."""
    sets = np.asarray(sets)
    if sets.size and int(sets.flat[0]) >> 8:
        # the first set reaches option 8, so the union does: no pick among a few options shared
        # by every deal, and select's road is the same for any reach above 8 (a hand of cards:
        # the union's pass is left out)
        reach = n_options
    else:
        whole = int(np.bitwise_or.reduce(sets, axis=None)) if sets.size else 1
        reach = min(n_options, max(whole.bit_length(), 1))
        if 0 < whole < 256 and int(np.bitwise_and.reduce(sets, axis=None)) == whole:
            return _uniform_in(whole, sets.shape, rng)
    n = count(sets)
    u = rng.random(n.shape, dtype=np.float32)
    u *= n
    k = u.astype(np.uint8)
    # float32 rounding can reach n itself; clamp so the pick stays a member
    n -= np.uint8(1)
    np.minimum(k, n, out=k)
    return select(sets, k, reach)


def _uniform_in(options: int, shape: tuple, rng: np.random.Generator) -> np.ndarray:
    """:func:`uniform` where every set is ``options`` (a decision such as a colour or a trump,
    whose options are the same in every deal): the same draws and the same picks, without a
    count and a look-up per deal; where the options are ``0..c-1``, member ``k`` is ``k``."""
    c = options.bit_count()
    u = rng.random(shape, dtype=np.float32)
    u *= np.float32(c)  # the same float32 product as by each deal's own count
    # float32 rounding can reach c: clamped before the cut, the same floor (c - 1 is whole), as
    # numpy's minimum of integers against one number is not vectorised (a tenth of the speed)
    np.minimum(u, np.float32(c - 1), out=u)
    k = u.astype(np.uint8)
    if options == (1 << c) - 1:
        return k.astype(np.int64)
    at = k.astype(np.uint64)
    at += np.uint64(options << 3)
    return np.take(IN_BYTE, at.view(np.int64))
