"""Trickster rules on hand-built turns, and statistics under random play."""

from __future__ import annotations

import random

import numpy as np
import polars as pl
import pytest

from simtool import bits
from simtool.engine import Match
from simtool.games.trickster import GAME, Round, place, score
from simtool.pipeline.runner import play_chunk

from .conftest import assert_matches_reference, drive, spec
from .reference_trickster import random_deal


def c(label: str) -> int:
    """'QH' is the queen of hearts (suits S, H, D, C; ranks A 2..9 T J Q K)."""
    return "SHDC".index(label[1]) * 13 + "A23456789TJQK".index(label[0])


def cards(labels) -> np.uint64:
    return bits.of(c(x) for x in labels)


def hand_built(tableaus, hands=None, pips=None) -> Round:
    p = len(tableaus)
    tab = np.array([[cards(t) for t in tableaus]], np.uint64)
    hand = np.array([[cards(h) for h in (hands or [[]] * p)]], np.uint64)
    pip = np.array([pips or [0] * p], np.int16)
    return Round(p=p, rnd=0, turns=len(tableaus[0]), dealt=np.bitwise_or.reduce(tab | hand, axis=1),
                 tableau=tab, hand=hand, pips=pip, collected=np.zeros((1, p), np.uint64),
                 collections=np.zeros((1, p), np.int16), totals=np.zeros((1, p), np.int32))


def test_a_seat_must_follow_the_held_hand_from_its_tableau():
    s = hand_built([["2S", "KS", "3H"], ["4D", "5C", "6C"]], hands=[["9S"], ["TH"]], pips=[9, 10])
    legal = s.legal()[0]
    assert legal[0] == cards(["2S", "KS"])  # holds spades and has spades
    assert legal[1] == cards(["4D", "5C", "6C"])  # holds hearts, has none: anything


def test_overflow_at_14_pips_but_not_at_13_and_faces_add_no_pips():
    s = hand_built([["4S"], ["5S"], ["KS"]], hands=[["9S"], ["9H"], ["3D", "TD"]], pips=[9, 9, 13])
    s.hand[0, 1] = cards(["9S"])  # seat 1 holds a spade 9 too
    place(s, np.array([[c("4S"), c("5S"), c("KS")]]))
    assert s.hand[0].tolist() == [cards(["9S", "4S"]), cards(["5S"]), cards(["KS"])]
    # seat 2 holds diamonds and plays a spade king: it could not follow, so it collects
    assert s.collected[0].tolist() == [0, cards(["9S"]), cards(["3D", "TD"])]
    assert s.pips[0].tolist() == [13, 5, 0] and s.collections[0].tolist() == [0, 1, 1]


def test_a_face_card_joins_a_hand_at_13():
    s = hand_built([["QD"]], hands=[["3D", "TD"]], pips=[13])
    place(s, np.array([[c("QD")]]))
    assert s.hand[0, 0] == cards(["3D", "TD", "QD"]) and s.collections[0, 0] == 0


def test_not_following_collects_and_the_card_starts_a_new_hand():
    s = hand_built([["2C"]], hands=[["AH"]], pips=[1])
    place(s, np.array([[c("2C")]]))
    assert s.collected[0, 0] == cards(["AH"]) and s.hand[0, 0] == cards(["2C"]) and s.pips[0, 0] == 2


def test_hands_pass_right_and_the_last_hand_is_collected_without_a_pass():
    s = hand_built([["AS", "2H"], ["3D", "4C"], ["5S", "6H"]])
    results, seen = drive(GAME, s, [[[c("AS"), c("3D"), c("5S")]], [[c("2H"), c("4C"), c("6H")]]])
    assert [d.kind for d in seen] == ["play", "play"] and seen[0].seat is None
    # turn 1 starts three hands; passing right, seat 0 holds seat 1's 3D and cannot follow,
    # so everyone collects the hand they were passed; then the last cards are collected as held
    assert s.collected[0].tolist() == [cards(["3D", "2H"]), cards(["5S", "4C"]), cards(["AS", "6H"])]
    assert results["tricks"].tolist() == [[2, 2, 2]]
    assert results["collected"].tolist() == [[2, 2, 2]]


def test_moon_for_the_one_seat_with_strictly_the_most_of_a_suit():
    collected = np.array([[cards(["AS", "2S", "KH"]), cards(["3S", "QH"]), cards(["JH", "4D"])]])
    r = score(collected, np.ones((1, 3), np.int16))
    # spades: seat 0 has most (2 vs 1) and ignores them; hearts: 1-1-1 tie, nobody ignores;
    # diamonds: seat 2 alone (1 vs 0) ignores its 4D
    assert r["moon"].tolist() == [[1, 0, 1]]
    assert r["score"].tolist() == [[4, 1 + 3, 2]]


def test_tableaus_hold_52_over_p_cards_and_the_rest_are_removed():
    for p in (2, 3, 4, 5, 6):
        s = GAME.deal(np.random.default_rng(p), Match(p, {}, np.zeros((300, p), np.int32)), 0)
        assert (bits.count(s.tableau) == 52 // p).all()
        assert (bits.count(s.dealt) == p * (52 // p)).all()


@pytest.mark.parametrize("p", [3, 4])
def test_whole_matches_take_p_rounds_and_the_lowest_total_wins(p):
    m = play_chunk(spec("trickster", p, n=200, unit="match"), 0).matches
    assert (m["rounds"] == p).all()
    low = m.group_by("match").agg(pl.col("total").min().alias("low"))
    winners = m.filter(pl.col("win") > 0).join(low, on="match")
    assert (winners["total"] == winners["low"]).all()


@pytest.mark.parametrize("p", [2, 4, 6])
def test_random_play_matches_an_independent_implementation(p):
    rng = random.Random(p)
    ref = [random_deal(rng, p) for _ in range(3000)]
    n = 40_000
    seats = play_chunk(spec("trickster", p, n=n, chunk=n, seed=23), 0).seats
    assert_matches_reference(seats, ref, ("score", "tricks", "collected", "moon"))
    assert (seats["collected"].cast(pl.Int64).sum() == n * p * (52 // p))
    assert (seats["tricks"] >= 1).all()
