"""Shuffling and dealing for a batch of deals."""

from __future__ import annotations

import numpy as np

from . import bits

ONE = np.uint64(1)


def shuffled(rng: np.random.Generator, n: int, cards: int, k: int | None = None) -> np.ndarray:
    """The first ``k`` cards of ``n`` independent uniform shuffles of cards ``0..cards-1``.

    A Fisher-Yates shuffle run across all deals at once, stopped after ``k``
    positions (the rest of the deck is never looked at). Returns ``(n, k)`` int8.
    """
    k = cards if k is None else min(k, cards)
    order = np.empty((k, n), np.int8)
    for i, card in enumerate(_shuffle(rng, n, cards, k)):
        order[i] = card
    return np.ascontiguousarray(order.T)


def dealt_hands(rng: np.random.Generator, n: int, cards: int, p: int, h: int) -> np.ndarray:
    """``p`` hands of ``h`` cards from ``n`` shuffles, as uint64 sets ``(n, p)``: the same as
    ``hands(shuffled(rng, n, cards, p * h), p)`` (the same random stream), without the table of
    positions in between. Each position is added to its hand as soon as the shuffle fixes it.

    Where the hands take the whole deck, the last hand is the cards the others leave: the
    shuffle's steps past the other hands' positions only reorder those cards among themselves,
    so they are not played, and their random numbers are passed over, not made
    (:func:`_pass_over`: the generator ends where the whole shuffle leaves it): a third of a
    3-player Black & White deal's shuffle."""
    k = p * h
    fixed = k - h if k == cards else k  # the positions whose card matters
    return _into_hands(_shuffle(rng, n, cards, k, fixed), n, p, h, rest=fixed < k)


def _into_hands(positions, n: int, p: int, h: int, rest: bool = False) -> np.ndarray:
    """Hands ``(n, p)`` from the cards at positions ``0..p*h-1`` (``(n,)`` rows; seat ``s`` gets
    positions ``s*h`` to ``s*h + h - 1``). Position by position into one contiguous row per seat:
    an OR-reduction over a short last axis is several times slower. ``rest``: ``positions`` stop
    before the last hand's, which gets every card of the deck (``p*h`` cards) the others do not."""
    out = np.zeros((p, n), np.uint64)
    bit = np.empty(n, np.uint64)
    for i, card in enumerate(positions):
        np.copyto(bit, card, casting="unsafe")  # the card's number (0..63), then its bit:
        np.left_shift(ONE, bit, out=bit)  # faster than a look-up in bits.BIT
        out[i // h] |= bit
    if rest:
        out[p - 1] = bits.full(p * h)
        for seat in range(p - 1):
            out[p - 1] ^= out[seat]
    return np.ascontiguousarray(out.T)


def _shuffle(rng: np.random.Generator, n: int, cards: int, k: int, fixed: int | None = None):
    """The cards at positions ``0..k-1`` of ``n`` shuffles, one position at a time as ``(n,)``
    int8 (every yielded row is final: Fisher-Yates never touches a position again). ``fixed``:
    stop after that many positions (the generator is left as after all ``k``)."""
    steps = min(k, cards - 1)
    fixed = k if fixed is None else fixed
    played = min(steps, fixed)
    u = rng.random((played, n), dtype=np.float32)  # as one draw of all steps' numbers would
    _pass_over(rng, (steps - played) * n)
    # one row per deal: a deal's swaps stay within its own few bytes, so the gathers and scatters
    # across deals walk memory in order (a fifth faster than a row per position)
    order = np.broadcast_to(np.arange(cards, dtype=np.int8), (n, cards)).copy()
    flat = order.reshape(-1)
    rows = np.arange(n, dtype=np.intp) * cards
    at = np.empty(n, np.intp)
    moved = np.empty(n, np.int8)
    # the position swapped with i is j = i + min(floor(u * (cards - i)), cards - i - 1), at flat
    # cell deal * cards + j: j for every step at once, in float32 (whole numbers below 64 are
    # exact; the minimum taken before the floor gives the same floor, cards - i - 1 being whole),
    # four whole-array steps where each step took six, two of them casts
    step = np.arange(played, dtype=np.float32)[:, None]
    np.multiply(u, np.float32(cards) - step, out=u)
    np.minimum(u, np.float32(cards - 1) - step, out=u)
    np.floor(u, out=u)
    u += step
    for i in range(played):
        np.copyto(at, u[i], casting="unsafe")  # j, whole: the cast is exact
        at += rows
        picked = flat.take(at)  # the method: np.take's wrapper adds a Python call
        np.copyto(moved, order[:, i])  # copied out first: numpy copies a source that overlaps
        flat[at] = moved  # the array it writes into, in more steps
        yield picked  # position i is final and never read again: not written back
    yield from order[:, steps:fixed].T


def _pass_over(rng: np.random.Generator, count: int) -> None:
    """Leave ``rng`` as ``rng.random(count, dtype=np.float32)`` would, without making the numbers:
    numpy makes each float32 from one 32-bit half of a 64-bit output of its PCG64, the low half
    first, keeping the other for the next draw; so after the kept half, if any, ``count`` draws
    are ``count // 2`` whole outputs, which ``advance`` jumps over at once, and an odd last draw
    takes the low half of the next output and keeps the high one, as it is made here. (Pinned
    against numpy's own draws for odd and even counts, with a kept half or none, in
    tests/test_deck.py.) Another bit generator draws the numbers."""
    bits_of = rng.bit_generator
    if type(bits_of) is not np.random.PCG64 or count < 4:
        rng.random(count, dtype=np.float32)
        return
    if bits_of.state["has_uint32"]:
        rng.random(1, dtype=np.float32)
        count -= 1
    bits_of.advance(count // 2)
    if count % 2:
        rng.random(1, dtype=np.float32)


def hands(cards: np.ndarray, p: int) -> np.ndarray:
    """Split dealt cards ``(n, p*h)`` into ``p`` hands of ``h``, as uint64 sets ``(n, p)``."""
    n, k = cards.shape
    return _into_hands(cards.T, n, p, k // p)


def deal_among(cards: np.ndarray, sizes: np.ndarray, rng: np.random.Generator, n_cards: int,
               allowed: np.ndarray | None = None, tries: int = 200) -> np.ndarray:
    """Deal each row's card set ``cards`` ``(n,)`` at random into hands of ``sizes`` ``(n, p)``.

    Every way of giving each seat ``sizes[:, s]`` of the cards is equally likely; cards beyond
    ``sizes.sum(axis=1)`` stay undealt. With ``allowed`` ``(n, p)`` (the cards each seat may
    hold, e.g. none of a suit it has shown void in) the deal is uniform among the layouts that
    respect it: whole deals are redrawn where they break it (rejection, exact: a row keeps the
    first of its independent draws that fits), and a row still failing after ``tries`` draws is
    repaired by swaps and mixed (:func:`_repair`, close to uniform). Returns ``(n, p)`` sets.
    """
    n = len(cards)
    count, start = _in_order(cards)
    out = _deal_among(count, start, sizes, rng)
    if allowed is None:
        return out
    rows = np.flatnonzero(bits.any_in_row(out & ~allowed))
    used = 1
    while rows.size and used < tries:
        # several draws per failing row at once, as many as keep the batch at its first size:
        # the few rows that fit rarely then take a handful of rounds, not hundreds
        c = min(max(n // rows.size, 1), tries - used)  # Python ints: np.clip's wrapper costs more
        pick = np.repeat(rows, c)
        drawn = _deal_among(count[pick], start[:, pick], sizes[pick], rng)
        fits = ~bits.any_in_row(drawn & ~allowed[pick]).reshape(rows.size, c)
        done = fits.any(axis=1)
        first = np.flatnonzero(done) * c + np.argmax(fits[done], axis=1)
        out[rows[done]] = drawn[first]
        rows, used = rows[~done], used + c
    if rows.size:  # the undealt cards take part in the swaps as one more hand that takes anything
        rest = cards[rows] & ~np.bitwise_or.reduce(out[rows], axis=1)
        extended = np.concatenate([out[rows], rest[:, None]], axis=1)
        anything = np.full((rows.size, 1), bits.full(n_cards), np.uint64)
        out[rows] = _repair(extended, np.concatenate([allowed[rows], anything], axis=1), rng, n_cards)[:, :-1]
    return out


def _in_order(cards):
    """Each row's number of cards ``(n,)`` and its cards as bits, lowest first, ``(most, n)`` (zeros
    past its count): where every draw of a row starts its shuffle."""
    n = len(cards)
    count = bits.count(cards).astype(np.intp)
    most = int(count.max()) if n else 0
    left = np.asarray(cards, np.uint64).copy()
    order = np.empty((most, n), np.uint64)
    for i in range(most):
        np.bitwise_and(left, -left, out=order[i])
        left ^= order[i]
    return count, order


def _deal_among(count, start, sizes, rng):
    """:func:`deal_among` without constraints, from :func:`_in_order`'s ``count`` and ``start``."""
    n, p = sizes.shape
    most = int(count.max()) if n else 0
    # a Fisher-Yates shuffle of each row's cards across all rows at once (positions on the first
    # axis, as in :func:`shuffled`)
    order = np.array(start[:most], np.uint64, order="C")  # a copy in rows: the shuffle works in place
    u = rng.random((max(most - 1, 0), n), dtype=np.float32)
    # every step's swap at once (they depend on the random numbers and counts only): step i swaps
    # position i with j = i + floor(u * span), at flat cell j * n + deal. The product is exact in
    # float64 (24 bits of u times at most 7 of span) and u < 1, so floor(u * span) < span: no clamp
    cols = np.arange(n, dtype=np.intp)
    steps = np.arange(max(most - 1, 0), dtype=np.intp)[:, None]
    span = np.maximum(count[None, :] - steps, 1)
    at = (u * span).astype(np.intp)
    at += steps
    at *= n
    at += cols
    flat = order.reshape(-1)
    for i in range(most - 1):
        picked = flat[at[i]]
        flat[at[i]] = order[i]
        order[i] = picked
    # the cards are distinct bits, so a running sum is a running union: seat s gets the cards
    # between its two cut points in the random order
    run = np.zeros((most + 1, n), np.uint64)
    order.cumsum(axis=0, out=run[1:])
    # every seat's cut points at once, in one gather: seat s's cards lie between cuts s and s + 1
    cut_at = np.zeros((n, p + 1), np.intp)
    for s in range(p):  # a running sum column by column (numpy's along a short last axis is slow)
        np.add(cut_at[:, s], sizes[:, s], out=cut_at[:, s + 1])
    np.maximum(cut_at, 0, out=cut_at)
    np.minimum(cut_at, most, out=cut_at)
    cut_at *= n
    cut_at += cols[:, None]
    cut = np.take(run, cut_at)
    return cut[:, 1:] - cut[:, :-1]


MIX_BLOCK = 4096
"""Rows times sweeps whose random numbers :func:`mix` draws at once."""


def _repair(hands: np.ndarray, allowed: np.ndarray, rng, n_cards: int, sweeps: int = 300) -> np.ndarray:
    """Swap cards between hands until none holds a card it may not (the rows rejection kept
    failing, which only very constrained positions reach), then keep making random swaps that
    respect the constraints, so that the layout is a random one rather than the first that fits
    (a swap chain that leaves the uniform distribution over the consistent layouts unchanged).
    """
    n, p = hands.shape
    rows = np.arange(n)
    hands = hands.copy()
    for _ in range(4 * sweeps):  # mend: move a misplaced card to a hand that may hold it
        wrong = hands & ~allowed
        bad = (wrong != 0).any(axis=1)
        if not bad.any():
            break
        a = np.argmax(wrong != 0, axis=1)
        moved = bits.BIT[np.minimum(bits.lowest(wrong[rows, a]), 63)]
        takes = allowed[rows, a]
        may = ((allowed & moved[:, None]) != 0) & (np.arange(p)[None, :] != a[:, None]) & (hands != 0)
        fits = may & ((hands & takes[:, None]) != 0)  # a clean swap; else pass the trouble on
        pick = np.where(fits.any(axis=1)[:, None], fits, may)
        b = np.argmax(np.where(pick, rng.random((n, p)), -1.0), axis=1)
        go = bad & pick.any(axis=1)
        give = np.where((hands[rows, b] & takes) != 0, hands[rows, b] & takes, hands[rows, b])
        back = bits.BIT[bits.uniform(np.where(give != 0, give, bits.BIT[0]), rng, n_cards)]
        _swap(hands, rows[go], a[go], b[go], moved[go], back[go])
    mix(hands, allowed, rng, sweeps)
    return hands


def mix(hands: np.ndarray, allowed: np.ndarray, rng, sweeps: int) -> None:
    """Make ``sweeps`` random swaps in every row of ``hands`` ``(n, p)``, in place, each within
    ``allowed``: per sweep and row, seat a gives a random card to seat b for one of b's, where
    both may hold what they get (a swap chain that leaves the uniform distribution over the
    layouts that respect ``allowed`` unchanged). The random numbers are those of a sweep by
    sweep loop drawing ``rng.integers(0, p, n)`` twice (seats a, b), then a card of a's hand and
    one of b's as :func:`bits.uniform` draws them (one float32 each), so a caller's loop of such
    draws can be replaced by this one call with the same results.

    On the flat cells row * p + seat, a swap is two xors (the hands are disjoint) and a refused
    one an xor with nothing: no masked copies per sweep. The sweeps' random numbers are drawn
    before them (:func:`_mix_numbers`), a small mix's all at once, a large one's in blocks that
    stay in the cache: a sweep of a few rows is a few calls on small arrays, whose count is its
    cost."""
    n, p = hands.shape
    rows = np.arange(n)
    flat, may_hold, first = hands.reshape(-1), allowed.reshape(-1), np.tile(rows * p, 2)
    block = max(1, MIX_BLOCK // n)
    for done in range(0, sweeps, block):
        seats, u = _mix_numbers(rng, min(block, sweeps - done), n, p)
        for cells, u_i, ok in zip(seats + first, u, seats[:, :n] != seats[:, n:], strict=True):
            held = flat[cells]
            card = _any_card(held, u_i)
            ha, hb, ca, cb = held[:n], held[n:], card[:n], card[n:]
            may = may_hold[cells]  # what seat a, then seat b may hold
            ok &= (ha != 0) & (hb != 0) & ((cb & may[:n]) != 0) & ((ca & may[n:]) != 0)
            swap = (ca ^ cb) * ok
            flat[cells[:n]] = ha ^ swap
            flat[cells[n:]] = hb ^ swap


def _mix_numbers(rng, sweeps: int, n: int, p: int):
    """The random numbers of :func:`_repair`'s ``sweeps`` mixing sweeps of ``n`` rows and ``p``
    hands: per sweep ``rng.integers(0, p, 2 * n)`` (the seats), then ``rng.random(2 * n,
    dtype=np.float32)`` (which cards), as ``(sweeps, 2n)`` int64 and float32, and ``rng`` left as
    after those draws: the same numbers as sweep by sweep (a call per draw cost more than a sweep's
    work), from one draw of the generator's 32-bit outputs that both take, one each. numpy makes a
    float32 of the top 24 bits of one, and an integer below p by Lemire's method: the top 32 bits
    of the output times p, unless the low 32 bits fall below 2**32 % p (some one in 2**32 / p),
    where it draws again; then all is drawn again sweep by sweep, as for one hand (p of 1: numpy
    draws no seats). Pinned against numpy's own draws in tests/test_deck.py."""
    if p < 2:
        return _mix_numbers_drawn(rng, sweeps, n, p)
    start = rng.bit_generator.state
    out = rng.integers(0, 1 << 32, (sweeps, 2, 2 * n), dtype=np.uint32)
    scaled = out[:, 0].astype(np.uint64) * np.uint64(p)
    if ((scaled & np.uint64(0xFFFFFFFF)) < np.uint64((1 << 32) % p)).any():
        rng.bit_generator.state = start
        return _mix_numbers_drawn(rng, sweeps, n, p)
    seats = (scaled >> np.uint64(32)).astype(np.int64)
    u = (out[:, 1] >> np.uint32(8)).astype(np.float32)
    u *= np.float32(1 / (1 << 24))  # exact: a power of two
    return seats, u


def _mix_numbers_drawn(rng, sweeps: int, n: int, p: int):
    """:func:`_mix_numbers`, drawn sweep by sweep as numpy draws them."""
    seats, u = np.empty((sweeps, 2 * n), np.int64), np.empty((sweeps, 2 * n), np.float32)
    for i in range(sweeps):
        seats[i] = rng.integers(0, p, 2 * n)
        u[i] = rng.random(2 * n, dtype=np.float32)
    return seats, u


def _any_card(held, u) -> np.ndarray:
    """A uniformly random card of each hand as a set, as :func:`bits.uniform` draws it from the
    random numbers ``u`` (float32 in [0, 1)); an empty hand: any card."""
    count = bits.count(held)
    k = (u * count).astype(np.uint8)
    np.minimum(k, count - 1, out=k)  # an empty hand's count - 1 wraps to 255: k stays 0
    if held.size > ANY_CARD_UNPACKED:
        return bits.BIT[bits.select(bits.first_of(held, bits.BIT[0]), k)]
    # the k-th member where the running count of the hand's members first passes k: a few
    # whole-array steps on the small batches a repair mixes (cheaper there than bits.select)
    members = np.unpackbits(held.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    return bits.BIT[(members.cumsum(axis=1, dtype=np.uint8) > k[:, None]).argmax(axis=1)]


ANY_CARD_UNPACKED = 96
"""Up to this many hands :func:`_any_card` counts a hand's members bit by bit; above, it asks
:func:`bits.select` (the same card): 9 against 63 microseconds for 4 hands, 386 against 80 for
512 (measured, the same numbers)."""


def _swap(hands, rows, a, b, card_a, card_b) -> None:
    """Seat ``a`` gives ``card_a`` to seat ``b`` and takes ``card_b`` from it, in ``rows``."""
    hands[rows, a] = hands[rows, a] & ~card_a | card_b
    hands[rows, b] = hands[rows, b] & ~card_b | card_a
