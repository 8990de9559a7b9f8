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
    # (36, 3, 12) and (36, 4, 9) take the whole deck: the last hand is what the others leave
    rng, again = np.random.default_rng(9), np.random.default_rng(9)
    dealt = deck.dealt_hands(rng, 500, cards, p, h)
    order = deck.shuffled(again, 500, cards, p * h)
    assert (dealt == deck.hands(order, p)).all()
    assert rng.random() == again.random()  # every step's number drawn, played or not
    assert (bits.count(dealt) == h).all()
    for s in range(p):  # seat s holds exactly positions s*h .. s*h + h - 1
        assert (dealt[:, s] == bits.from_mask(np.eye(64, dtype=bool)[order[:, s * h:(s + 1) * h]].any(axis=1))).all()


@pytest.mark.parametrize("n", [1, 4, 9])
def test_one_call_of_2n_draws_is_two_calls_of_n(n):
    """deck._repair draws its two seats and its two cards per swap in one call each, on this
    property of numpy's generator: the same numbers, and the generator left in the same state."""
    for seed in range(40):
        for p in (2, 3, 5, 7):
            a, b = np.random.default_rng(seed), np.random.default_rng(seed)
            assert (np.concatenate([a.integers(0, p, n), a.integers(0, p, n)]) == b.integers(0, p, 2 * n)).all()
            two = np.concatenate([a.random(n, dtype=np.float32), a.random(n, dtype=np.float32)])
            assert (two == b.random(2 * n, dtype=np.float32)).all()
            assert a.random() == b.random()


@pytest.mark.parametrize("kept", [None, 123456789, 0])
def test_a_repair_draws_every_sweeps_numbers_at_once_as_sweep_by_sweep(kept, monkeypatch):
    """deck._mix_numbers draws all the mixing sweeps' seats and cards at once: the numbers, and the
    generator's state after, of drawing them sweep by sweep. ``kept``: a 32-bit half the generator
    holds for its next draw; 0 makes the first seat a number Lemire's method draws again (p not a
    power of two), where all is drawn sweep by sweep, as for one hand (numpy draws no seats)."""
    drawn_again, drawn = [], deck._mix_numbers_drawn
    monkeypatch.setattr(deck, "_mix_numbers_drawn", lambda *a: drawn_again.append(a) or drawn(*a))
    for seed in range(6):
        for n, p, sweeps in ((1, 2, 7), (5, 6, 30), (9, 7, 4), (17, 4, 11), (3, 3, 300), (4, 1, 5)):
            a, b = np.random.default_rng(seed), np.random.default_rng(seed)
            if kept is not None:
                for g in (a, b):
                    g.bit_generator.state = g.bit_generator.state | {"has_uint32": 1, "uinteger": kept}
            drawn_again.clear()
            seats, u = deck._mix_numbers(a, sweeps, n, p)
            assert seats.shape == u.shape == (sweeps, 2 * n) and u.dtype == np.float32
            for i in range(sweeps):
                assert (seats[i] == b.integers(0, p, 2 * n)).all()
                assert (u[i] == b.random(2 * n, dtype=np.float32)).all()
            assert a.random() == b.random()
            assert len(drawn_again) == ((kept == 0 and p & (p - 1) != 0) or p == 1)


def test_a_deal_rejection_cannot_fit_is_repaired_within_the_constraints_and_repeats():
    # 12 cards to two seats of 6; seat 0 may not hold cards 0..4 and seat 1 not 5..9: one draw in
    # 462 fits (5..9 with seat 0, 0..4 with seat 1, 10 and 11 split), so most of the 40 rows
    # reach the repair after 200 draws
    cards = np.full(40, bits.full(12), np.uint64)
    sizes = np.full((40, 2), 6)
    allowed = np.array([[~bits.full(5), bits.full(5) | ~bits.full(10)]] * 40, np.uint64)
    hands = deck.deal_among(cards, sizes, np.random.default_rng(3), 12, allowed)
    assert (bits.count(hands) == 6).all() and (hands[:, 0] & hands[:, 1] == 0).all()
    assert ((hands & ~allowed) == 0).all()
    assert len(np.unique(hands[:, 0])) == 2  # both layouts that fit, not the first the swaps found
    assert (hands == deck.deal_among(cards, sizes, np.random.default_rng(3), 12, allowed)).all()


@pytest.mark.parametrize("kept", [False, True])
def test_passing_over_draws_leaves_the_generator_as_drawing_them(kept):
    """deck._pass_over skips the float32s of a whole-deck deal's last hand (advance, not draws):
    every draw after it must be what follows numpy's own draws, for odd and even counts and a
    generator holding a kept 32-bit half (``kept``) or none."""
    for seed in range(10):
        for count in (0, 1, 3, 4, 5, 6, 101, 11 * 300, 11 * 301):
            drawn, passed = np.random.default_rng(seed), np.random.default_rng(seed)
            if kept:  # three 32-bit draws leave half a 64-bit output kept
                drawn.integers(0, 5, 3, dtype=np.uint32)
                passed.integers(0, 5, 3, dtype=np.uint32)
            drawn.random(count, dtype=np.float32)
            deck._pass_over(passed, count)
            assert passed.random(5, dtype=np.float32).tolist() == drawn.random(5, dtype=np.float32).tolist()
            assert passed.random() == drawn.random()
            small = [g.integers(0, 7, 9, dtype=np.uint32).tolist() for g in (passed, drawn)]
            assert small[0] == small[1]
            assert passed.random(3, dtype=np.float32).tolist() == drawn.random(3, dtype=np.float32).tolist()
