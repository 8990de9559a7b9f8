"""Out-Trumped's ``ot-learned``: ``ruffer`` with its leads and follows chosen by a model learnt
from play-outs on true deals (strategies/out_trumped.py, bench/ot_learn.py), on cases where the
answer is known."""

from __future__ import annotations

import numpy as np

import simtool
import strategies
from simtool import engine
from simtool.games.tricks import FOLLOW, LEAD
from simtool.pipeline.runner import make_spec
from strategies import out_trumped

from . import test_out_trumped as ot
from .test_heuristics import OT, choice_of


def _only(feature: str, kind: str) -> np.ndarray:
    """Weights that score a candidate 1 where ``feature`` is 1 in ``kind``'s first table holding
    it, 0 elsewhere: the model then chooses by that feature alone."""
    first, size = out_trumped.table_offsets(kind)
    tables = out_trumped.LEAD_TABLES if kind == LEAD else out_trumped.FOLLOW_TABLES
    i = next(k for k, t in enumerate(tables) if feature in t)
    dims = [out_trumped.FEATURES[f] for f in tables[i]]
    values = np.indices(dims).reshape(len(dims), -1)
    w = np.zeros(size)
    w[first[i]:first[i] + values.shape[1]] = values[tables[i].index(feature)] == 1
    return w


def _play(choose, n=300, seed=4):
    """``choose`` in one seat against 3 x hoarder, rotated: every seat's score per deal."""
    lineup = engine.Lineup([strategies.Strategy("model", choose, ""), strategies.resolve("hoarder", OT.id)],
                           np.array([0, 1, 1, 1]), rotate=True)
    rules = make_spec(OT.id, 4, n, "hoarder", seed=seed).rules
    out = engine.play_deals(OT, 4, rules, lineup, n, np.random.default_rng(seed), np.random.default_rng(seed + 1),
                            engine.Context(OT.id, seed, n, "deal", np.arange(n)))
    return out.rounds["score"]


def test_a_model_that_values_only_ruffers_own_lead_plays_as_ruffer():
    # every ruffer lead is a candidate (a suit's highest or lowest held card), so a model that
    # prizes it leads as ruffer does, and plays every other decision as ruffer does too
    ruffer = strategies.resolve("ruffer", OT.id).choose
    copy = out_trumped.learned_with(_only("ruffer", LEAD), (LEAD,))
    assert np.array_equal(_play(copy), _play(ruffer))
    # and a model that prizes a suit's lowest card leads otherwise: the model does choose
    low = out_trumped.learned_with(_only("which", LEAD), (LEAD,))
    assert not np.array_equal(_play(low), _play(ruffer))


def _first_lead(strategy, hands):
    """The first lead of ``strategy`` (at seat 0) on the hand-built deal ``hands``."""
    from .conftest import ctx_for

    state = ot.hand_built(hands)
    d = next(OT.play(state))
    picked = engine._ask(strategy, OT, state, d, np.array([0]), np.broadcast_to(d.legal, (1,)), np.arange(1),
                         np.random.default_rng(0), ctx_for(OT, 1))
    return OT.label(LEAD, int(picked[0]))


def _full_deal(mine):
    """Four hands of 15, the whole deck: ``mine`` at seat 0, the rest dealt in turn."""
    rest = [f"{s}{r}" for s in "ABCDE" for r in range(1, 13) if f"{s}{r}" not in mine]
    return [mine, rest[0::3], rest[1::3], rest[2::3]]


def test_the_model_leads_a_suits_lowest_card_where_its_weights_say_so():
    # seat 0 holds B2, B7, B12 and C4: a model valuing only "the suit's lowest card" leads the
    # lowest of a suit of two or more (B2: a single C4 is its suit's highest)
    low = strategies.Strategy("low", out_trumped.learned_with(_only("which", LEAD), (LEAD,)), "")
    hands = [["B2", "B7", "B12", "C4"], ["A5", "B3", "C2", "D1"], ["A7", "B4", "C3", "D2"]]
    assert _first_lead(low, hands) == "B2"


def test_ot_learned_draws_trumps_with_an_unbeatable_trump_while_others_hold_trumps():
    # trump A, the whole deck dealt: seat 0 holds the two highest trumps and the others the ten
    # other trumps (each must add one to a trump lead): A12 or A11 (the same card for the
    # tricks: nothing unseen lies between them) takes three trumps at no risk
    mine = ["A12", "A11", "B12", "B3", "B4", "C2", "C5", "C7", "D1", "D6", "D9", "E2", "E4", "E8", "E10"]
    assert _first_lead(strategies.resolve("ot-learned", OT.id), _full_deal(mine)) in {"A12", "A11"}


def test_ot_learned_last_to_play_wins_with_its_cheapest_winner():
    # the whole deck dealt, trump A: B5, B6, B7 played; seat 3 is last and holds B8 and B12,
    # both sure to take the trick: B8 takes it and keeps B12 (unbeatable) for later
    parts = [["B5", "B9", "B10", "B11"], ["B6", "B1", "B2"], ["B7", "B3", "B4"], ["B8", "B12"]]
    rest = [f"{s}{r}" for s in "ACDE" for r in range(1, 13)]
    hands = [p + [rest.pop(0) for _ in range(15 - len(p))] for p in parts]
    s = ot.hand_built(hands)
    assert choice_of(OT, "ot-learned", s, [ot.c("B5"), ot.c("B6"), ot.c("B7")]) == "B8"


def test_the_learnt_weights_fill_the_tables_and_the_beside_pass_plays_as_asking_both(monkeypatch):
    _, size = out_trumped.table_offsets(LEAD)
    assert len(out_trumped.PLAY_WEIGHTS) == size and any(out_trumped.PLAY_WEIGHTS)
    assert out_trumped.table_offsets(FOLLOW)[1] == size

    def run():
        strategies.pimc._seat_bound.cache_clear()
        r = simtool.run("out-trumped", n=8, strategy="hoarder", seats={0: "pimc@samples=2,own=ot-learned"},
                        rotate=True, seed=5, jobs=1)
        return r.seats.sort(["deal", "seat"])

    fast = run()
    monkeypatch.delattr(out_trumped.ot_learned.choose, "beside")
    slow = run()
    strategies.pimc._seat_bound.cache_clear()
    assert fast.equals(slow)
