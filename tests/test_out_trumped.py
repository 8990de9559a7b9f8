"""Out-Trumped rules on hand-built deals, every rule option, and statistics under random play."""

from __future__ import annotations

import random

import numpy as np
import polars as pl
import pytest

from simtool import bits
from simtool.engine import Match
from simtool.games.out_trumped import GAME, NO_TRUMP, WILD, Round, hand_size, score
from simtool.pipeline.runner import play_chunk

from .conftest import assert_matches_reference, spec
from .reference_out_trumped import random_deal

RULES = {"wild": "dealer", "follow": "overtake", "kitty": "none"}
DEFAULTS = {o.name: o.default for o in GAME.options}


def c(label: str) -> int:
    """'B7' is suit B (index 1), rank 7; ranks run 1..12 (12 is the Ace)."""
    return "ABCDE".index(label[0]) * 12 + int(label[1:]) - 1


def cards(labels) -> np.uint64:
    return bits.of(c(x) for x in labels)


def hand_built(hands, trump=0, rules=None, leader=0, die=None) -> Round:
    p = len(hands)
    sets = np.array([[cards(h) for h in hands]], np.uint64)
    z = np.zeros((1, p), np.int16)
    return Round(p=p, rnd=0, hand_size=len(hands[0]), rules=DEFAULTS | RULES | (rules or {}),
                 dealt=np.bitwise_or.reduce(sets, axis=1), hands=sets, kitty=np.zeros(1, np.uint64),
                 discarded=np.zeros(1, np.uint64), die=np.array([trump if die is None else die]),
                 trump=np.array([trump]), dealer=p - 1, bids=np.full((1, p), -1, np.int16),
                 standing=np.zeros(1, np.int16), taker=np.full(1, -1), picked=np.zeros(1, bool),
                 shown=z.copy(), shown_card=np.full((1, p), -1, np.int8), played=np.zeros(1, np.uint64),
                 trick=np.full((1, p), -1, np.int8),
                 leader=np.array([leader]), led=np.zeros(1, np.int64), top_led=np.zeros(1, np.int64),
                 best=np.zeros(1, np.int64), winning=np.zeros(1, np.int64), tricks=z.copy(),
                 trumps=z.copy(), totals=np.zeros((1, p), np.int32))


def seat_of(d) -> int:
    """The acting seat of a one-deal decision (a Decision may name it as an int or per deal)."""
    return int(np.broadcast_to(d.seat, (1,))[0])


def legal_after(s, plays):
    """Legal labels of the next decision after the given plays, on a copy of ``s``."""
    play = GAME.play(s.take(np.arange(s.n)))
    d = play.send(None)
    for card in plays:
        d = play.send(np.array([c(card)]))
    return {GAME.label(d.kind, o) for o in np.flatnonzero(bits.to_mask(d.legal[0], 60))}


@pytest.mark.parametrize("follow,legal", [("overtake", {"B2", "B3"}), ("literal", {"A1"})])
def test_only_lower_led_cards_and_a_trump_in_hand(follow, legal):
    # B9 led; seat 1 holds B2, B3 (both lower) and the trump A1
    s = hand_built([["B9", "C1", "C2"], ["B2", "B3", "A1"]], trump=0, rules={"follow": follow})
    assert legal_after(s, ["B9"]) == legal


@pytest.mark.parametrize("follow", ["overtake", "literal"])
def test_a_higher_led_card_must_be_played_if_held(follow):
    s = hand_built([["B5", "C1"], ["B2", "B7"], ["B9", "A3"]], rules={"follow": follow})
    assert legal_after(s, ["B5"]) == {"B7"}
    assert legal_after(s, ["B5", "B7"]) == {"B9"}


def test_a_trump_played_into_a_plain_trick_is_not_a_card_to_beat():
    # B5 led, seat 1 (void in B) trumps with A2; seat 2 must still beat B5, not the trump
    s = hand_built([["B5", "C1"], ["A2", "C2"], ["B7", "B3"]], trump=0)
    assert legal_after(s, ["B5", "A2"]) == {"B7"}


@pytest.mark.parametrize("follow", ["overtake", "literal"])
def test_trump_led_must_be_followed_with_a_higher_trump_if_held(follow):
    s = hand_built([["A5", "C1"], ["A2", "A9"], ["A3", "B3"]], trump=0, rules={"follow": follow})
    assert legal_after(s, ["A5"]) == {"A9"}
    assert legal_after(s, ["A5", "A9"]) == {"A3"}  # lower trump still beats playing off-suit


def test_highest_trump_wins_else_highest_of_the_led_suit():
    s = hand_built([["B5", "B1"], ["A2", "C2"], ["B12", "B3"]], trump=0)
    play = GAME.play(s)
    play.send(None)
    for card in ("B5", "A2", "B12"):
        d = play.send(np.array([c(card)]))
    assert d.kind == "lead" and seat_of(d) == 1 and s.trumps.tolist() == [[0, 1, 0]]


def test_the_dealer_picks_trump_only_on_a_wild_roll():
    s = hand_built([["B5"], ["C2"], ["D3"]], trump=NO_TRUMP, die=WILD)
    play = GAME.play(s)
    d = play.send(None)
    assert d.kind == "trump" and seat_of(d) == 2 and d.active.tolist() == [True]
    d = play.send(np.array([3]))
    assert d.kind == "lead" and s.trump.tolist() == [3]
    s = hand_built([["B5"], ["C2"], ["D3"]], trump=NO_TRUMP, die=WILD, rules={"wild": "no-trump"})
    assert GAME.play(s).send(None).kind == "lead" and s.trump.tolist() == [NO_TRUMP]


@pytest.mark.parametrize("trumps,bonus", [
    ([3, 0, 0, 0], [6, 0, 0, 0]),  # the only holder doubles
    ([3, 3, 1, 0], [3, 3, -1, 0]),  # a tie for most; the fewest pays
    ([2, 2, 2, 0], [2, 2, 2, 0]),  # every holder tied: all are "most", nobody pays
    ([4, 2, 1, 1], [4, 0, -1, -1]),  # a tie for fewest pays together
    ([0, 0, 0, 0], [0, 0, 0, 0]),  # nobody took a trump
])
def test_trump_bonus_and_penalty(trumps, bonus):
    t = np.array([trumps], np.int16)
    r = score(np.array([[1, 2, 3, 4]]), t, np.array([0]), np.full((1, 4), -1), np.array([-1]), "none")
    assert r["bonus"].tolist() == [bonus]
    assert r["score"].tolist() == [[1 + bonus[0], 2 + bonus[1], 3 + bonus[2], 4 + bonus[3]]]


def test_no_trump_means_no_trump_scoring():
    r = score(np.array([[1, 2]]), np.array([[3, 0]], np.int16), np.array([NO_TRUMP]),
              np.full((1, 2), -1), np.array([-1]), "none")
    assert r["bonus"].tolist() == [[0, 0]]


def test_the_running_total_never_drops_below_zero():
    m = Match(3, DEFAULTS | RULES, np.array([[2, 10, 49]], np.int32))
    GAME.end_round(m, {"score": np.array([[-5, -3, 1]], np.int16)})
    assert m.totals.tolist() == [[0, 7, 50]]
    assert GAME.match_over(m, 0).tolist() == [True]


def test_kitty_bidding_order_legal_bids_and_result():
    s = hand_built([["B5", "B1"], ["A2", "C2"], ["B12", "B3"]], rules={"kitty": "bid"})
    s.kitty = np.array([cards(["D1", "D2", "D3", "D4", "D5"])])
    play = GAME.play(s)
    d = play.send(None)
    assert d.kind == "bid" and seat_of(d) == 0  # dealer is seat 2: bidding starts at seat 0
    assert d.legal[0] == bits.of([0, 1, 2])  # pass, 1 or 2 (the hand size)
    d = play.send(np.array([1]))
    assert seat_of(d) == 1 and d.legal[0] == bits.of([0, 2])
    d = play.send(np.array([0]))
    d = play.send(np.array([2]))  # seat 2 bids 2 and takes the kitty
    assert d.kind == "discard" and seat_of(d) == 2 and bits.count(d.legal[0]) == 7
    r = score(np.array([[0, 0, 2]]), np.zeros((1, 3), np.int16), np.array([0]),
              np.array([[1, 0, 2]]), np.array([2]), "bid")
    assert r["kitty"].tolist() == [[0, 0, 2]] and r["score"].tolist() == [[0, 0, 4]]
    r = score(np.array([[1, 0, 1]]), np.zeros((1, 3), np.int16), np.array([0]),
              np.array([[1, 0, 2]]), np.array([2]), "bid")
    assert r["kitty"].tolist() == [[0, 0, -2]]


def test_everybody_passing_leaves_the_kitty_unused():
    s = hand_built([["B5", "B1"], ["A2", "C2"], ["B12", "B3"]], rules={"kitty": "bid"})
    s.kitty = np.array([cards(["D1", "D2", "D3", "D4", "D5"])])
    play = GAME.play(s)
    play.send(None)
    play.send(np.array([0]))
    play.send(np.array([0]))
    d = play.send(np.array([0]))
    assert d.kind == "lead" and s.taker.tolist() == [-1] and (bits.count(s.hands) == 2).all()


def test_low_card_shows_the_lowest_plain_card_and_ties_go_to_the_dealers_left():
    # trump A; seat 0 shows 3 (its A1 is trump), seat 1 shows 2, seat 2 shows 2 (dealer: last)
    s = hand_built([["A1", "B3"], ["C2", "C9"], ["D2", "E5"]], rules={"kitty": "low-card"})
    s.kitty = np.array([cards(["E1", "E2", "E3", "E4", "E6"])])
    d = GAME.play(s).send(None)
    assert s.shown.tolist() == [[3, 2, 2]] and s.taker.tolist() == [1]
    assert d.kind == "discard" and seat_of(d) == 1 and bits.count(d.legal[0]) == 7
    assert s.shown_card.tolist() == [[c("B3"), c("C2"), c("D2")]]


def test_low_card_shows_a_card_every_seat_sees():
    from simtool.engine import view_of

    # trump A: seat 0 holds only trumps and shows its lowest, A4; seat 1 ties B2 and C2 and shows
    # the lower suit's, B2; seat 2 shows D5: the lowest rank, seat 1, takes the kitty
    s = hand_built([["A4", "A9"], ["C2", "B2"], ["D5", "E9"]], rules={"kitty": "low-card"})
    s.kitty = np.array([cards(["E1", "E2", "E3", "E4", "E6"])])
    d = GAME.play(s).send(None)
    assert s.shown.tolist() == [[4, 2, 5]] and s.taker.tolist() == [1]
    for seat in range(3):  # public: the taker's view at its discard, and the same field for any seat
        view = view_of(GAME, s, d.kind, np.full(1, seat), np.broadcast_to(d.legal, (1,)))
        assert view.shown_card.tolist() == [[c("A4"), c("B2"), c("D5")]] and view.shown.tolist() == [[4, 2, 5]]
    # without the low-card kitty nothing is shown
    s = hand_built([["A4", "A9"], ["C2", "B2"], ["D5", "E9"]])
    d = GAME.play(s).send(None)
    assert d.kind == "lead" and s.shown_card.tolist() == [[-1, -1, -1]] and s.shown.tolist() == [[0, 0, 0]]


def test_hand_sizes_with_and_without_a_kitty():
    assert [hand_size(DEFAULTS, p) for p in range(2, 7)] == [15, 15, 15, 12, 10]
    assert [hand_size(DEFAULTS | {"kitty": "bid"}, p) for p in range(2, 7)] == [15, 15, 13, 11, 9]


@pytest.mark.parametrize("kitty", ["bid", "low-card"])
def test_every_option_keeps_the_invariants_and_discards_five(kitty):
    from .test_conformance import watched_round

    for wild in ("dealer", "no-trump"):
        for follow in ("overtake", "literal"):
            watch, r = watched_round(GAME, 4, "random", n=500,
                                     unit_rules={"kitty": kitty, "wild": wild, "follow": follow})
            assert (r["taker"].sum(axis=1) <= 1).all()
            kinds = [k for k, _, _ in watch.seen]
            assert kinds.count("discard") == 5 if (r["taker"].any()) else True


def test_matches_run_to_50():
    m = play_chunk(spec("out-trumped", 4, n=200, unit="match"), 0).matches
    top = m.group_by("match").agg(pl.col("total").max())
    assert (top["total"] >= 50).all()
    assert (m["total"] >= 0).all()


@pytest.mark.parametrize("p,rules", [
    (4, {}),
    (3, {"follow": "literal", "wild": "no-trump", "kitty": "bid"}),
    (5, {"kitty": "low-card"}),
    (2, {"follow": "literal", "kitty": "low-card", "wild": "dealer"}),
])
def test_random_play_matches_an_independent_implementation(p, rules):
    rng = random.Random(p)
    ref = [random_deal(rng, p, **(RULES | rules)) for _ in range(3000)]
    n = 40_000
    seats = play_chunk(spec("out-trumped", p, n=n, chunk=n, seed=29, rules=rules), 0).seats
    assert_matches_reference(seats, ref, ("tricks", "trumps", "bonus", "kitty", "score"))
