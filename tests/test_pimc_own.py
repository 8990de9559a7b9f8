"""pimc's own play-out policy (``own``: the searching seat's imagined later moves, the others'
``playout``), its margin value, and Out-Trumped's ``ruffer``, on cases where the answer is known."""

from __future__ import annotations

import numpy as np

import strategies
from strategies import pimc
from strategies.base import Strategy

from . import test_out_trumped as ot
from .test_heuristics import OT, choice_of


def test_a_ruff_takes_the_cheapest_winning_trump_and_keeps_the_unbeatable_one():
    # trump A; B5 led, seat 1 holds no B: it must ruff. hoarder spends its unbeatable A12 (a
    # sure winner); ruffer wins as surely with A3 (seat 2 holds no trump) and keeps A12 to lead
    s = ot.hand_built([["B5", "C1", "A5"], ["A3", "A12", "C2"], ["B7", "C3", "D1"]], trump=0)
    assert choice_of(OT, "hoarder", s, [ot.c("B5")]) == "A12"
    s = ot.hand_built([["B5", "C1", "A5"], ["A3", "A12", "C2"], ["B7", "C3", "D1"]], trump=0)
    assert choice_of(OT, "ruffer", s, [ot.c("B5")]) == "A3"


def test_ruffer_plays_as_hoarder_where_it_does_not_ruff():
    # a plain card wins: both play the cheapest sure one (B8 over B5, B7; B12 is also sure)
    s = ot.hand_built([["B5", "C1"], ["B7", "C2"], ["B8", "B12"]], trump=0)
    assert choice_of(OT, "ruffer", s, [ot.c("B5"), ot.c("B7")]) == "B8"


class _Seats:
    """The one field a seat-bound policy reads: the acting seat per world."""

    def __init__(self, seat):
        self.seat = np.asarray(seat)


def test_the_searching_seat_plays_its_own_policy_and_the_others_the_play_out_policy():
    mine = Strategy("mine", lambda view, rng: np.full(len(view.seat), 7), "")
    others = Strategy("others", lambda view, rng: np.full(len(view.seat), 1), "")
    bound = pimc._seat_bound(mine, others, 2)
    assert bound(_Seats([0, 2, 1, 2, 3]), None).tolist() == [1, 7, 1, 7, 1]
    assert bound(_Seats([0, 1]), None).tolist() == [1, 1]


def test_margin_is_the_score_less_the_best_other_seats():
    results = {"score": np.array([[5, 9, 2], [8, 3, 1]], np.int16),
               "win": np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])}
    seats = np.array([0, 0])
    assert pimc._value(results, "margin", seats, "out-trumped").tolist() == [-4, 5]
    assert pimc._value(results, "score", seats, "out-trumped").tolist() == [5, 8]
    assert pimc._value(results, "win", seats, "out-trumped").tolist() == [0, 1]
    # the lowest score wins (Trickster): the margin is the best other's score less its own
    assert pimc._value(results, "margin", seats, "trickster").tolist() == [-3, -7]


def test_out_trumped_searches_with_ruffer_and_margin_the_other_games_as_before():
    ot_pimc = strategies.resolve("pimc", "out-trumped").values
    assert (ot_pimc.own, ot_pimc.value, ot_pimc.playout, ot_pimc.samples) == ("ruffer", "margin", "hoarder", 16)
    bw = strategies.resolve("pimc", "black-white").values
    assert (bw.own, bw.value, bw.samples) == ("playout", "score", 8)
    # the reference keeps its own defaults
    assert strategies.resolve("clairvoyant", "out-trumped").values.value == "score"


def test_ruffer_beside_hoarder_in_one_pass_plays_as_asking_both(monkeypatch):
    """The one-pass play-out policy (ruffer at the searching seat, hoarder elsewhere) makes the
    search choose exactly as asking both policies for every world does."""
    import simtool
    from strategies import out_trumped

    def run():
        pimc._seat_bound.cache_clear()
        r = simtool.run("out-trumped", n=12, strategy="hoarder", seats={0: "pimc@samples=2"},
                        rotate=True, seed=5, jobs=1)
        return r.seats.sort(["deal", "seat"])

    fast = run()
    monkeypatch.delattr(out_trumped.ruffer.choose, "beside")
    slow = run()
    pimc._seat_bound.cache_clear()
    assert fast.equals(slow)
    # and ruffer's own seat made a difference: the search with hoarder's own play-outs differs
    plain = simtool.run("out-trumped", n=12, strategy="hoarder", seats={0: "pimc@samples=2,own=playout"},
                        rotate=True, seed=5, jobs=1).seats.sort(["deal", "seat"])
    assert not fast.equals(plain)
