"""Nine Lives rules on hand-built tricks, a shrinking deck, and statistics under random play."""

from __future__ import annotations

import random

import numpy as np
import polars as pl
import pytest

from simtool import bits
from simtool.games.nine_lives import GAME, LivesMatch, Round, deck_of, score
from simtool.pipeline.runner import play_chunk

from .conftest import assert_matches_reference, spec
from .reference_nine_lives import random_round


def c(label: str) -> int:
    """'B7' is suit B (the second player's colour), rank 7."""
    return "ABCDEF".index(label[0]) * 9 + int(label[1]) - 1


def cards(labels) -> np.uint64:
    return bits.of(c(x) for x in labels)


def hand_built(hands, keeper=0) -> Round:
    p = len(hands)
    sets = np.array([[cards(h) for h in hands]], np.uint64)
    z = np.zeros((1, p), np.int16)
    every = np.bitwise_or.reduce(sets, axis=1)
    return Round(p=p, rnd=0, hand_size=np.array([len(hands[0])]), deck=every,
                 leftover=np.zeros(1, np.uint64), hands=sets, bid=np.full((1, p), -1),
                 keeper=np.array([keeper]), played=np.zeros(1, np.uint64),
                 trick=np.full((1, p), -1, np.int8), lead_suit=np.zeros(1, np.int64),
                 trump=np.zeros(1, np.int64), best=np.zeros(1, np.int64),
                 winning=np.zeros(1, np.int64), tricks=z.copy(), fallback=z.copy(),
                 totals=np.zeros((1, p), np.int32))


def play_out(s, bids, plays):
    """Bid, then play the given cards in order; returns the next decision or the results."""
    play = GAME.play(s)
    play.send(None)
    d = play.send(np.array([[c(b) for b in bids]]))
    try:
        for card in plays:
            d = play.send(np.array([c(card)]))
    except StopIteration as done:
        return done.value
    return d


def test_a_card_of_ones_own_bid_suit_is_ignored():
    # seat 0 (bid A) leads C5; seat 1 bid C, so its C9 is ignored; seat 2 (bid B) follows C2
    s = hand_built([["A1", "C5", "A6"], ["C8", "C9", "B5"], ["B1", "C2", "B3"]])
    d = play_out(s, ["A1", "C8", "B1"], ["C5", "C9", "C2"])
    assert s.tricks.tolist() == [[1, 0, 0]] and s.fallback.tolist() == [[0, 0, 0]]
    assert d.kind == "lead" and int(d.seat[0]) == 0


def test_the_kittykeeper_wins_when_every_card_is_ignored():
    # everyone plays a card of their own bid suit (seats 1 and 2 cannot follow A)
    s = hand_built([["A1", "A4", "B2"], ["B1", "B5", "C2"], ["C1", "C6", "B3"]])
    play_out(s, ["A1", "B1", "C1"], ["A4", "B5", "C6"])
    assert s.tricks.tolist() == [[1, 0, 0]] and s.fallback.tolist() == [[1, 0, 0]]


def test_the_kittykeeper_wins_when_no_counted_card_is_trump_or_lead_suit():
    # keeper (bid A) leads its own A4: ignored. Seat 1 (bid B) plays C5, seat 2 (bid C) plays B7:
    # both count, but neither is trump (A) nor the lead suit (A)
    s = hand_built([["A1", "A4", "B2"], ["B1", "C5", "C2"], ["C1", "B7", "B3"]])
    play_out(s, ["A1", "B1", "C1"], ["A4", "C5", "B7"])
    assert s.tricks.tolist() == [[1, 0, 0]] and s.fallback.tolist() == [[1, 0, 0]]


def test_trump_moves_with_the_kittykeeper():
    # trick 1: keeper 0 (bid A, so A is trump) leads B3, seat 1 wins with B6.
    # trick 2: seat 1 (bid C) keeps the kitty, so C is trump: seat 2, void in A, trumps A2 with C1
    hands = [["A1", "B3", "B8", "A5"], ["C9", "B6", "A2", "A7"], ["B1", "B2", "C1", "B7"]]
    s = hand_built(hands)
    d = play_out(s, ["A1", "C9", "B1"], ["B3", "B6", "B2"])
    assert d.kind == "lead" and int(d.seat[0]) == 1
    s = hand_built(hands)
    d = play_out(s, ["A1", "C9", "B1"], ["B3", "B6", "B2", "A2", "C1", "A5"])
    assert d.kind == "lead" and int(d.seat[0]) == 2
    assert s.trump.tolist() == [1]  # trick 3: keeper seat 2 bid B
    assert s.tricks.tolist() == [[0, 1, 1]]


@pytest.mark.parametrize("bids,tricks,made", [
    (["A2", "B1", "C3"], [2, 0, 3], [True, False, True]),  # exact bids score on their own
    (["A2", "A3", "C1"], [4, 1, 0], [True, True, False]),  # team A: 4 + 1 = 2 + 3
    (["A2", "A3", "A1"], [4, 1, 1], [False, False, True]),  # all one team: only exact bids count
    (["A2", "A1", "B3"], [2, 0, 2], [True, False, False]),  # the team misses 3, but A2 is exact
])
def test_exact_and_team_scoring(bids, tricks, made):
    r = score(np.array([[c(b) for b in bids]]), np.array([tricks]), np.zeros((1, 3), np.int8))
    assert r["made"].tolist() == [made]
    assert r["score"].tolist() == [[int(b[1]) if m else 0 for b, m in zip(bids, made, strict=True)]]
    assert r["team_size"].tolist() == [[sum(o[0] == b[0] for o in bids) for b in bids]]


def test_scored_bid_cards_leave_the_deck_and_the_hands_shrink():
    m = LivesMatch(4, {}, np.zeros((500, 4), np.int32), np.zeros(500, np.uint64),
                   np.zeros(500, np.int64))
    rng = np.random.default_rng(1)
    results = {"score": np.array([[3, 0, 0, 1]] * 500, np.int16),
               "made": np.array([[True, False, False, True]] * 500),
               "_bid_card": np.array([[c("A3"), c("B2"), c("C9"), c("D1")]] * 500),
               "_keeper": np.full((500, 4), 2)}
    GAME.end_round(m, results)
    assert (m.piles == cards(["A3", "D1"])).all() and (m.keeper == 2).all()
    s = GAME.deal(rng, m, 1)
    assert (s.deck == deck_of(4) & ~cards(["A3", "D1"])).all()
    assert (s.hand_size == 8).all() and (bits.count(s.leftover) == 2).all()  # 34 cards: 8 each
    assert ((np.bitwise_or.reduce(s.hands, axis=1) & cards(["A3", "D1"])) == 0).all()
    assert (s.keeper == 2).all()


def test_matches_end_at_nine_lives():
    m = play_chunk(spec("nine-lives", 4, n=300, unit="match"), 0).matches
    decided = m.filter(~pl.col("capped"))
    top = decided.group_by("match").agg(pl.col("total").max())
    assert (top["total"] >= 9).all() and not m["small_deck"].any()
    rounds = m.filter(pl.col("seat") == 0)["rounds"]
    assert 20 < rounds.mean() < 80  # about 45 rounds under random play


@pytest.mark.parametrize("p", [2, 4, 6])
def test_random_play_matches_an_independent_implementation(p):
    rng = random.Random(p)
    ref = [random_round(rng, p) for _ in range(4000)]
    n = 40_000
    seats = play_chunk(spec("nine-lives", p, n=n, chunk=n, seed=31), 0).seats
    assert_matches_reference(seats, ref, ("tricks", "bid", "made", "score", "team_size", "fallback"))


def test_key_follows_new_bids_trumps_and_lead_suits():
    """``Round.key`` keeps its per-round and per-trick parts with the arrays they came from: new
    bids, a new trump or lead suit (a new trick, a copy of the state) give the rule's strength."""
    from simtool.engine import cells
    from simtool.games.nine_lives import strength

    rng = np.random.default_rng(8)
    n, p = 500, 4
    s = GAME.deal(rng, GAME.new_match(n, p, {"lives_to_end": 9, "ranks": 9}), 0)
    for _ in range(3):
        s.bid = np.stack([rng.permutation(36)[:p] for _ in range(n)]).astype(np.int64)
        s.trump = rng.integers(0, p, n)
        for _ in range(2):
            s.lead_suit = rng.integers(0, p, n)
            seat, card = rng.integers(0, p, n), rng.integers(0, 36, n)
            seat_suit = s.layout.card_suit[s.bid[np.arange(n), seat]]
            want = strength(s.layout, card, seat_suit, s.trump, s.lead_suit)
            assert np.array_equal(s.key(card, cells(n, p)(seat)), want)
