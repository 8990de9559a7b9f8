import numpy as np
import pytest
from scipy import stats as sps

from simtool import bits


@pytest.fixture
def sets():
    rng = np.random.default_rng(3)
    mask = rng.random((20_000, 64)) < 0.25
    mask[np.arange(len(mask)), rng.integers(0, 64, len(mask))] = True  # never empty
    return mask, bits.from_mask(mask)


def test_mask_round_trip(sets):
    mask, s = sets
    assert (bits.to_mask(s, 64) == mask).all()
    assert (bits.count(s) == mask.sum(axis=1)).all()


@pytest.mark.parametrize("n_options", [64, 36, 8, 2])
def test_select_lowest_highest_agree_with_the_mask(sets, n_options):
    mask, s = sets
    mask, s = mask[:, :n_options], s & bits.full(n_options)
    keep = mask.any(axis=1)
    mask, s = mask[keep], s[keep]
    members = [np.flatnonzero(row) for row in mask[:300]]
    for k in range(3):
        ok = np.array([len(m) > k for m in members])
        got = bits.select(s[:300], np.full(300, k), n_options)[ok]
        assert (got == np.array([m[k] for m in members if len(m) > k])).all()
    assert (bits.lowest(s) == mask.argmax(axis=1)).all()
    assert (bits.highest(s, n_options) == n_options - 1 - mask[:, ::-1].argmax(axis=1)).all()


@pytest.mark.parametrize("n_options", [64, 36, 8])
def test_select_reaches_every_member(sets, n_options):
    """Every k below the count, through each of select's ways (table, clearing, byte-wise search)."""
    mask, s = sets
    mask, s = mask[:, :n_options], s & bits.full(n_options)
    keep = mask.any(axis=1)
    mask, s = mask[keep], s[keep]
    rank = np.cumsum(mask, axis=1) - 1  # rank of each member among its set's members
    for k in range(n_options):
        has = mask.sum(axis=1) > k
        got = bits.select(s[has], np.full(has.sum(), k), n_options)
        assert (got == np.argmax(mask[has] & (rank[has] == k), axis=1)).all()
    mixed = (np.arange(len(s)) % mask.sum(axis=1)).astype(np.uint8)  # a different k in every row
    assert (bits.select(s, mixed, n_options) == np.argmax(mask & (rank == mixed[:, None]), axis=1)).all()


def test_empty_set_edges():
    empty = np.zeros(3, np.uint64)
    assert (bits.lowest(empty) == 64).all() and (bits.highest(empty, 36) == -1).all()
    assert (bits.highest(empty) == -1).all()


def test_uniform_is_uniform_over_members():
    rng = np.random.default_rng(5)
    s = np.full(120_000, bits.of((0, 3, 17, 40, 63)), np.uint64)
    picks = bits.uniform(s, rng)
    counts = np.array([(picks == o).sum() for o in (0, 3, 17, 40, 63)])
    assert counts.sum() == len(s)
    assert sps.chisquare(counts).pvalue > 1e-4


def test_below():
    assert bits.below(0) == 0 and bits.below(3) == 0b111 and bits.below(64) == np.uint64(2**64 - 1)


@pytest.mark.parametrize("options", [(0, 1), (0, 1, 2, 3), (1, 4, 6), (5,), (0, 2, 7)])
@pytest.mark.parametrize("size", [0, 1, 7, 5000])
def test_uniform_over_one_set_picks_as_over_each_deal(options, size):
    """Where every deal has the same options (a colour, a trump), uniform takes a shorter road:
    the same draws and the same picks as the general one, which a set beside them takes."""
    one = bits.of(options)
    same = np.full(size, one, np.uint64)
    mixed = np.append(same, bits.of((0, 9)))  # not all alike: the general road
    fast = bits.uniform(same, np.random.default_rng(3), 8)
    general = bits.uniform(mixed, np.random.default_rng(3), 16)[:size]
    assert fast.dtype == np.int64 and fast.tolist() == general.tolist()
    assert set(fast.tolist()) <= set(options)


def test_highest_where_a_float64_would_round_up():
    """Runs of more than 53 members round up to the next power of two in a float64: highest must
    still name the top member, for every top and every run below it (and a lone bit)."""
    one, at = np.uint64(1), np.arange(64, dtype=np.uint64)
    ones = ~np.uint64(0) >> (np.uint64(63) - at)  # bits 0..top set, top = 0..63
    lone = one << at
    gapped = ones & ~(lone >> one)  # the top, a gap, then ones
    for sets in (ones, lone, gapped, ones[1:] ^ one):
        assert (bits.highest(sets) == [int(s).bit_length() - 1 for s in sets]).all()
    assert bits.highest(np.uint64(0)) == -1 and bits.highest(~np.uint64(0)) == 63


@pytest.mark.parametrize("n", [1, 64, bits.SMALL_BATCH + 1])
def test_where_and_clamp_give_numpys_values_and_dtype_on_either_side_of_small_batch(n):
    rng = np.random.default_rng(n)
    a = rng.integers(-90, 90, n)
    cases = [(a, 0, 64), (a.astype(np.int8), 0, 64), (a.astype(np.float64), 1, 13)]
    for k, low, high in cases:
        got, want = bits.clamp(k, low, high), np.clip(k, low, high)
        assert got.dtype == want.dtype and (got == want).all()
    sets = rng.integers(0, 2**63, n).astype(np.uint64)
    condition = a > 0
    for x, y in ((sets, sets >> np.uint64(3)), (a, -1), (a.astype(np.uint8), 200), (sets, bits.EMPTY)):
        got, want = bits.where(condition, x, y), np.where(condition, x, y)
        assert got.dtype == want.dtype and (got == want).all()
