"""What the search builds on beyond the re-deal: the belief model (``worlds.surprises`` replays
each re-dealt world from its round's start and counts the other seats' choices the play-out
policy would not have made there; ``pimc@belief=B`` keeps the worlds that fit those choices
best) and ``view.distinct`` (one card of each run of interchangeable cards is searched)."""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest

import simtool.games
import strategies
from simtool import bits, engine
from simtool.games.out_trumped import LAYOUT
from simtool.runner import execute, make_spec
from strategies.pimc import _believed

from .test_out_trumped import c, cards, hand_built

OT = simtool.games.get("out-trumped")
DEFAULTS = {o.name: o.default for o in OT.options}
WILD = 5  # the die's wild face with the sheet's deck


def _seen(view):
    """The engine's state behind a view, as the rows the view covers (a test reads it, never a
    strategy)."""
    state, rows, _ = engine._OPEN[id(view)]
    return state.take(np.arange(state.n) if rows is None else rows)


@pytest.mark.parametrize("rules", [{}, {"kitty": "bid"}, {"kitty": "bid", "follow": "literal"},
                                   {"wild": "no-trump"}], ids=["default", "bid", "bid-literal", "no-trump"])
def test_the_true_deal_holds_no_surprise_when_every_seat_plays_the_policy(rules):
    # every seat plays hoarder: replayed on the real cards, hoarder makes every choice that was
    # made (trump pick, bids, discards, cards); on re-dealt cards it does not
    n, p = 24, 4
    state = OT.deal(np.random.default_rng(5), OT.new_match(n, p, DEFAULTS | rules), 0)
    hoarder = strategies.resolve("hoarder", OT.id)
    kinds, redealt = set(), []

    def watch(view, rng):
        true = engine.Worlds(OT, _seen(view), view.seat.copy(), rng)
        assert (true.surprises("hoarder") == 0).all(), view.kind
        kinds.add(view.kind)
        redealt.append(view.redeal(2, rng).surprises(hoarder).sum())
        return hoarder(view, rng)

    lineup = engine.Lineup([strategies.Strategy("watch", watch, "")], np.zeros(p, np.int64))
    engine.play_round(OT, state, lineup, np.random.default_rng(6), engine.Context(OT.id, 0, n, "deal", np.arange(n)))
    assert {"lead", "play"} <= kinds and ("bid" in kinds) == ("kitty" in rules)
    assert sum(redealt) > 0


def test_surprises_count_the_trump_the_dealer_would_not_have_named():
    # the die is wild and the dealer (seat 3) named C, its long suit; hoarder names its long
    # suit (the first of the longest), so a world fits exactly where the dealer's long suit is C
    s = hand_built([["A1", "B2", "D3"], ["A4", "B5", "D6"], ["A7", "B8", "E9"], ["C1", "C5", "C9"]],
                   trump=-1, die=WILD)
    play = OT.play(s)
    d = play.send(None)
    assert d.kind == "trump"
    d = play.send(np.array([2]))
    assert d.kind == "lead"
    view = OT.View(OT, s, d.kind, np.zeros(1, np.int64), np.broadcast_to(d.legal, (1,)))
    try:
        worlds = view.redeal(3000, np.random.default_rng(3))
    finally:
        engine._OPEN.pop(id(view), None)
    dealer = worlds._state.hands[:, 3]
    counts = np.stack([bits.count(dealer & LAYOUT.suit[u]) for u in range(5)], axis=1)
    misfit = counts.argmax(axis=1) != 2
    surprises = worlds.surprises("hoarder")
    assert (surprises == misfit).all()
    assert 0.1 < misfit.mean() < 0.95


def test_belief_keeps_the_worlds_that_fit_best():
    s = hand_built([["A1", "B2", "D3"], ["A4", "B5", "D6"], ["A7", "B8", "E9"], ["C1", "C5", "C9"]],
                   trump=-1, die=WILD)
    play = OT.play(s)
    play.send(None)
    d = play.send(np.array([2]))
    view = OT.View(OT, s, d.kind, np.zeros(1, np.int64), np.broadcast_to(d.legal, (1,)))
    try:
        drawn = view.redeal(400, np.random.default_rng(4))  # the same draws as the belief's
        kept = _believed(view, 100, 4, "hoarder", np.random.default_rng(4))
    finally:
        engine._OPEN.pop(id(view), None)
    # of the 400 draws, the 100 kept are those whose dealer named its long suit, then others
    every = drawn.surprises("hoarder")
    assert 0 < (every == 0).sum() < 100
    assert len(kept) == 100 and (np.sort(kept.surprises("hoarder")) == np.sort(every)[:100]).all()
    suit_c = LAYOUT.suit[2]
    assert (bits.count(kept._state.hands[:, 3] & suit_c).mean()
            > bits.count(drawn._state.hands[:, 3] & suit_c).mean() + 0.3)


def test_a_game_that_cannot_replay_gives_no_evidence():
    # Out-Trumped's low-card kitty keeps a shown rank only as a bound: no replay, no surprises
    n, p = 6, 4
    state = OT.deal(np.random.default_rng(7), OT.new_match(n, p, DEFAULTS | {"kitty": "low-card"}), 0)
    bw = simtool.games.get("black-white")  # no game but Out-Trumped replays its rounds yet
    bw_state = bw.deal(np.random.default_rng(7), bw.new_match(n, 3, {o.name: o.default for o in bw.options}), 0)
    for game, st in ((OT, state), (bw, bw_state)):
        worlds = engine.Worlds(game, st, np.zeros(n, np.int64), np.random.default_rng(1))
        assert (worlds.surprises(game.default_strategy) == 0).all()


@pytest.mark.parametrize("rules", [{}, {"kitty": "bid"}, {"kitty": "low-card"}, {"wild": "no-trump"}],
                         ids=["default", "bid", "low-card", "no-trump"])
def test_pimc_with_belief_chooses_only_legal_options(rules):
    # the engine checks every choice against its own legal sets
    n, p = 6, 4
    pimc = strategies.resolve("pimc@samples=2,belief=3", OT.id)
    state = OT.deal(np.random.default_rng(9), OT.new_match(n, p, DEFAULTS | rules), 0)
    lineup = engine.Lineup([pimc, strategies.resolve("hoarder", OT.id)], np.array([0, 1, 1, 1]))
    results = engine.play_round(OT, state, lineup, np.random.default_rng(10),
                                engine.Context(OT.id, 0, n, "deal", np.arange(n)))
    assert results["score"].shape == (n, p)


@pytest.mark.parametrize("seat2,plays,distinct", [
    # B7, B8 and B10 went in trick 1: B5 B6 (B7 B8) B9 (B10) B11 is one run, one card to try
    (["B10", "E1", "E2", "E3", "E4"], ["B7", "B8", "B10", "E1"], ["B5"]),
    # B10 lies in the current trick: B11 beats it and B9 does not, so they stay apart
    (["B1", "B10", "E2", "E3", "E4"], ["B7", "B8", "B1", "D1", "B10"], ["B5", "B11"]),
])
def test_pimc_tries_one_card_of_each_run_with_nothing_left_between(seat2, plays, distinct):
    s = hand_built([["B7", "B5", "B6", "B9", "B11"], ["B8", "D1", "D2", "D3", "D4"], seat2], trump=0)
    play = OT.play(s)
    d = play.send(None)
    for card in plays:
        d = play.send(np.array([c(card)]))
    seat = np.broadcast_to(np.asarray(d.seat), (1,))
    assert seat.tolist() == [0] and d.legal.tolist() == [cards(["B5", "B6", "B9", "B11"])]
    view = OT.View(OT, s, d.kind, seat, np.broadcast_to(d.legal, (1,)))
    try:
        assert view.distinct.tolist() == [cards(distinct)]
    finally:
        engine._OPEN.pop(id(view), None)


def test_a_search_with_belief_runs_the_same_for_any_jobs():
    spec = make_spec("out-trumped", 4, 24, "hoarder", {0: "pimc@samples=2,belief=2"}, seed=11, rotate=True)
    spec = dataclasses.replace(spec, chunk=8)  # three chunks from a small run
    one = pl.concat([c.seats for c in execute(spec, 1)])
    two = pl.concat([c.seats for c in execute(spec, 2)])
    assert one.equals(two)
    assert one.filter(pl.col("strategy") == "pimc@samples=2,belief=2").height == 24
