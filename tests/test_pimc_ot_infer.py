"""pimc's inference in Out-Trumped (``pimc@infer=3``, its default there): what ``hoarder``'s plays reveal about
its hand (``strategies.out_trumped.reveals``), the plays that show a suit's length
(``_misfits``), and the re-deal that agrees with both, on cases where the answer is known."""

from __future__ import annotations

import numpy as np
import pytest

import strategies
from simtool import bits, games
from simtool.engine import view_of
from strategies import out_trumped as model
from strategies import pimc

from . import test_out_trumped as ot

GAME = games.get("out-trumped")


def _view_after(state, plays):
    """The acting seat's view after ``plays`` (card labels) on a copy of a one-deal state."""
    s = state.take(np.arange(state.n))
    play = GAME.play(s)
    d = play.send(None)
    for card in plays:
        d = play.send(np.array([ot.c(card)]))
    return view_of(GAME, s, d.kind, np.broadcast_to(d.seat, (1,)), np.broadcast_to(d.legal, (1,)))


def _labels(cards) -> set[str]:
    return {GAME.label("play", int(o)) for o in np.flatnonzero(bits.to_mask(np.atleast_1d(cards), 64)[0])}


# trump A. Seat 0 holds no card that is the highest still out of its suit (C12 is seat 1's), so
# hoarder leads low from its shortest plain suit (B and C, two each: the first, B) its lowest B3;
# seat 1 overtakes with its cheapest winner B8: B11 is no sure winner while B12 is out
HANDS = [["B3", "B7", "C2", "C5"], ["B8", "B11", "C12", "D1"], ["B12", "A12", "C3", "E5"]]


def test_a_low_lead_rules_out_every_suits_highest_card_and_the_lower_cards_of_its_suit():
    s = ot.hand_built(HANDS, trump=0)
    view = _view_after(s, ["B3", "B8"])  # seat 2 to play
    mine = view.hand[0]
    ruled_out = model.reveals(view)[0]
    assert _labels(ruled_out[0] & ~mine) == {"C12", "D12", "E12", "B1", "B2"}


def test_an_unsure_winner_rules_out_every_cheaper_winner():
    s = ot.hand_built(HANDS, trump=0)
    view = _view_after(s, ["B3", "B8"])
    mine = view.hand[0]
    # B12 is seat 2's own: seat 1 cannot have been sure of the trick, so held nothing in B4..B7
    assert _labels(model.reveals(view)[0][1] & ~mine) == {"B4", "B5", "B6", "B7"}
    assert model.reveals(view)[0][2] == 0  # nothing about the acting seat itself


def test_a_world_where_the_leader_had_a_shorter_plain_suit_misfits():
    s = ot.hand_built(HANDS, trump=0)
    view = _view_after(s, ["B3", "B8"])
    _, events, _ = model._read(view)
    true = s.hands.copy()
    assert model._misfits(view, true, events, 1).tolist() == [0]
    shorter_c = true.copy()  # seat 0 with B3 B7 B9 C2: C is shorter than B, it would have led C2
    shorter_c[0, 0] = ot.cards(["B3", "B7", "B9", "C2"])
    assert model._misfits(view, shorter_c, events, 1).tolist() == [1]


def test_a_seat_that_plays_a_card_its_model_ruled_out_gets_no_inference():
    # seat 0 leads B7, not its lowest B: hoarder would not, and the lead rules out B3 (its model
    # says: the lowest B it held); seat 2 wins with B12 and leads E5, seat 0 (void) throws B3:
    # it is not hoarder, and nothing more is inferred about it
    s = ot.hand_built([["B3", "B7", "C2", "D5"], ["B8", "B11", "C12", "D1"], ["B12", "A12", "C3", "E5"]])
    after_lead = _view_after(s, ["B7"])
    assert "B3" in _labels(model.reveals(after_lead)[0][0])
    view = _view_after(s, ["B7", "B8", "B12", "E5", "B3"])  # seat 1 to play
    assert model.reveals(view)[0][0] == 0
    assert model.reveals(view)[0][2] != 0  # seat 2's plays still say something


@pytest.mark.parametrize("rules,p", [({}, 4), ({"follow": "literal"}, 4), ({"kitty": "bid"}, 4),
                                     ({"kitty": "low-card"}, 4), ({"wild": "no-trump"}, 4), ({}, 3), ({}, 5)])
def test_hoarder_never_holds_a_card_its_plays_ruled_out(rules, p):
    # every seat hoarder: at every decision of 200 deals, what the view infers about every other
    # seat holds in the true deal, and the plays that show a suit's length fit the true hands
    played = {o.name: o.default for o in GAME.options} | rules
    rng = np.random.default_rng(3)
    n = 200
    state = GAME.deal(rng, GAME.new_match(n, p, GAME.played(played, p)), 0)
    play = GAME.play(state)
    d = next(play)
    inferred = 0
    try:
        while True:
            seat, legal = np.broadcast_to(np.asarray(d.seat), (n,)), np.broadcast_to(d.legal, (n,))
            if d.kind in ("lead", "play"):
                view = view_of(GAME, state, d.kind, seat, legal)
                ruled_out, events, _ = model._read(view)
                assert not ((ruled_out & state.hands) != 0).any()
                assert not model._misfits(view, state.hands.copy(), events, 1).any()
                inferred += int(bits.count(ruled_out & ~view.excluded & ~view.played[:, None]).sum())
            d = play.send(model.hoarder(view_of(GAME, state, d.kind, seat, legal), rng))
    except StopIteration:
        pass
    assert inferred > 5 * n  # the plays do rule out cards the rules alone do not


def test_the_inferred_worlds_keep_the_seats_hand_the_rules_and_the_inference():
    rng = np.random.default_rng(5)
    n, k = 100, 6
    state = GAME.deal(rng, GAME.new_match(n, 4, GAME.played({o.name: o.default for o in GAME.options}, 4)), 0)
    play = GAME.play(state)
    d = next(play)
    for _ in range(23):  # into the sixth trick, every seat hoarder
        seat, legal = np.broadcast_to(np.asarray(d.seat), (n,)), np.broadcast_to(d.legal, (n,))
        d = play.send(model.hoarder(view_of(GAME, state, d.kind, seat, legal), rng))
    seat, legal = np.broadcast_to(np.asarray(d.seat), (n,)), np.broadcast_to(d.legal, (n,))
    view = view_of(GAME, state, d.kind, seat, legal)
    hands = model.redeal(view, k, rng, 3)._state.hands
    rows = np.arange(n * k)
    assert (hands[rows, np.repeat(seat, k)] == np.repeat(view.hand, k)).all()
    assert (bits.count(hands) == np.repeat(view.hand_sizes, k, axis=0)).all()
    ruled_out = np.repeat(view.excluded | model.reveals(view), k, axis=0)
    ruled_out[rows, np.repeat(seat, k)] = 0
    assert not ((hands & ruled_out) != 0).any()
    assert ((np.bitwise_or.reduce(hands, axis=1) | np.repeat(view.played, k)) ==
            np.repeat(np.bitwise_or.reduce(state.hands, axis=1) | state.played, k)).all()


def test_out_trumped_infers_only_from_a_model_that_offers_it():
    assert strategies.resolve("pimc", "out-trumped").values.infer == 3
    believed = pimc._believed(strategies.resolve("hoarder", "out-trumped"), 3)
    assert believed.func is model.redeal and believed.keywords == {"draw": 3}
    assert pimc._believed(strategies.resolve("tricks", "out-trumped"), 3) is None


def _distrusted(strategy, n=200, upto=6):
    """The share of (deal, other seat) pairs whose plays are not read at the lead of trick
    ``upto``, every seat playing ``strategy``."""
    rng = np.random.default_rng(9)
    state = GAME.deal(rng, GAME.new_match(n, 4, GAME.played({o.name: o.default for o in GAME.options}, 4)), 0)
    play = GAME.play(state)
    d = next(play)
    while True:
        seat, legal = np.broadcast_to(np.asarray(d.seat), (n,)), np.broadcast_to(d.legal, (n,))
        view = view_of(GAME, state, d.kind, seat, legal)
        if d.kind == "lead" and state.trick_no == upto:
            others = np.arange(4)[None, :] != seat[:, None]
            return float((model._read(view)[2] < model.TRUST)[others].mean())
        d = play.send(strategy(view, rng))


def test_leads_and_throws_that_look_random_are_not_read():
    # leads of a card from high in a suit, which hoarder makes only as a suit's lowest card,
    # are far likelier from a player choosing at random: a third of random seats are not read
    # by the sixth trick, almost no hoarder seat
    assert _distrusted(model.hoarder) < 0.03
    assert _distrusted(strategies.resolve("random", "out-trumped")) > 0.25
