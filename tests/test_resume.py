"""Copy and resume: a state copied between two decisions plays on exactly like the original.

The conformance part of the engine issue for positions: at random decision points of every game,
player count, rule option and unit (round 0 of a deal, round 1 of a match), ``take`` and
``repeat`` give states whose fresh ``play()`` continues the round as the original does.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import simtool.games
import strategies
from simtool import bits, engine

from .conftest import ctx_for
from .test_redeal import NUMBERS, _round_variants

GAMES = list(simtool.games.registry().values())


# test_redeal's round variants: a match-end option's other values, a hand size the sheet deals at
# that player count anyway, and past the game's first player count the values of an option that
# changes only the scores, left out. Each such case's round was the one it stands beside bit for
# bit: every decision, legal set and choice, at both units, and every result column but score,
# win and the game's score columns (Out-Trumped's bonus, Kansas City's overshoot); fingerprinted
# for all 206 of them. 528 -> 322 cases
CASES = [(g, p, rules, unit) for g in GAMES for p in g.players for rules in _round_variants(g, p)
         for unit in ("deal", "match")]
CASES += [(g, g.default_players, {o.name: o.default for o in g.options} | v, unit) for g in GAMES
          for v in NUMBERS.get(g.id, []) for unit in ("deal", "match")]
IDS = [f"{g.id}-{p}p-{'-'.join(f'{k}={v}' for k, v in r.items())}-{u}" for g, p, r, u in CASES]


def _round_to_play(game, p, rules, unit, n, rng, lineup):
    """A fresh round: round 0, or round 1 of matches whose round 0 was played out."""
    match = game.new_match(n, p, rules)
    if unit == "match":
        first = game.deal(rng, match, 0)
        game.end_round(match, engine.play_round(game, first, lineup, rng, ctx_for(game, n)))
        return game.deal(rng, match, 1)
    return game.deal(rng, match, 0)


def _play_on(game, play, decision, state, lineup, rng, ctx):
    """Drive an already started round from ``decision`` to its end."""
    d = decision
    while True:
        choice = engine._decide(game, state, d, lineup, rng, ctx)
        try:
            d = play.send(choice)
        except StopIteration as done:
            return done.value


def _kept(d: engine.Decision) -> engine.Decision:
    """The decision as it stood, whatever the round does to its arrays afterwards."""
    keep = lambda a: None if a is None else np.array(a, copy=True)
    return engine.Decision(d.kind, keep(d.seat), keep(d.legal), keep(d.active))


def _same_decision(a: engine.Decision, b: engine.Decision, n: int, p: int) -> None:
    assert a.kind == b.kind
    shape = (n, p) if a.seat is None else (n,)
    assert (np.broadcast_to(a.legal, shape) == np.broadcast_to(b.legal, shape)).all()
    if a.seat is not None:
        assert (np.broadcast_to(a.seat, (n,)) == np.broadcast_to(b.seat, (n,))).all()
    assert (a.active is None) == (b.active is None)


@pytest.mark.parametrize("game,p,rules,unit", CASES, ids=IDS)
def test_a_copy_resumes_exactly_where_the_original_stands(game, p, rules, unit):
    n = 40
    lineup = engine.Lineup([strategies.resolve("random", game.id)], np.zeros(p, np.int64))
    ctx = ctx_for(game, n)
    # the original is played once, a copy of its state and generator taken at three of its
    # decisions, at random, each decision as likely (reservoir sampling: a copy is taken only
    # where one is kept, not at every decision); then each copy plays on from where it was taken
    state = _round_to_play(game, p, rules, unit, n, np.random.default_rng(1), lineup)
    play, choice, rng, taken = game.play(state), None, np.random.default_rng(2), {}
    pick, seen = np.random.default_rng(3), 0
    while True:
        try:
            d = play.send(choice)
        except StopIteration as done:
            on = done.value
            break
        slot = seen if seen < 3 else int(pick.integers(seen + 1))  # kept with probability 3 / (seen + 1)
        if slot < 3:
            taken[slot] = (seen, _kept(d), state.take(np.arange(n)), copy.deepcopy(rng))
        seen += 1
        choice = engine._decide(game, state, d, lineup, rng, ctx)
    for stop, d, copied, twin_rng in sorted(taken.values(), key=lambda kept: kept[0]):
        fresh = game.play(copied)
        _same_decision(d, next(fresh), n, p)
        resumed = _play_on(game, fresh, d, copied, lineup, twin_rng, ctx)
        assert on.keys() == resumed.keys()
        for key in on:
            assert (np.asarray(on[key]) == np.asarray(resumed[key])).all(), (stop, key)
        for name, ok in game.invariants(copied).items():
            assert np.asarray(ok).all(), name


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_each_repeated_copy_plays_like_its_deal(game):
    """``repeat(k)``: row ``i*k + j`` is deal ``i``; a deterministic line-up plays every copy alike."""
    p, n, k = game.default_players, 30, 3
    rules = {o.name: o.default for o in game.options}
    lineup = engine.Lineup([strategies.resolve(game.default_strategy, game.id)], np.zeros(p, np.int64))
    state = game.deal(np.random.default_rng(5), game.new_match(n, p, rules), 0)
    play, rng = game.play(state), np.random.default_rng(6)
    d = next(play)
    for _ in range(7):  # a few decisions in
        d = play.send(engine._decide(game, state, d, lineup, rng, ctx_for(game, n)))
    many = state.repeat(k)
    assert many.n == n * k
    fresh = game.play(many)
    resumed = _play_on(game, fresh, next(fresh), many, lineup, rng, ctx_for(game, n * k))
    on = _play_on(game, play, d, state, lineup, rng, ctx_for(game, n))
    for key in on:
        assert (np.repeat(np.asarray(on[key]), k, axis=0) == np.asarray(resumed[key])).all(), key


TRICK_GAMES = [g for g in GAMES if g.id != "trickster"]


@pytest.mark.parametrize("game", TRICK_GAMES, ids=lambda g: g.id)
def test_winners_now_are_the_cards_that_take_the_lead(game):
    """``view.winners_now`` against the rules themselves: play each legal card on a copy of the
    state and see who is winning the trick after it."""
    p, n = game.default_players, 60
    rules = {o.name: o.default for o in game.options}
    lineup = engine.Lineup([strategies.resolve("random", game.id)], np.zeros(p, np.int64))
    state = game.deal(np.random.default_rng(21), game.new_match(n, p, rules), 0)
    play, rng, ctx = game.play(state), np.random.default_rng(22), ctx_for(game, n)
    d, checked = next(play), 0
    while checked < 6:
        if d.kind == "play" and d.active is None:
            seat = np.broadcast_to(np.asarray(d.seat), (n,))
            legal = np.broadcast_to(d.legal, (n,))
            view = engine.view_of(game, state, d.kind, seat, legal)
            wins = view.winners_now
            for option in range(game.n_actions):
                can = (legal & bits.BIT[option]) != 0
                if not can.any():
                    continue
                rows = np.flatnonzero(can)
                twin = state.take(rows)
                g = game.play(twin)
                next(g)
                try:
                    g.send(np.full(len(rows), option))
                except StopIteration:
                    pass
                takes = twin.winning == seat[rows]
                assert (takes == ((wins[rows] & bits.BIT[option]) != 0)).all(), (d.kind, option)
            checked += 1
        try:
            d = play.send(engine._decide(game, state, d, lineup, rng, ctx))
        except StopIteration:
            break
    assert checked >= 3
