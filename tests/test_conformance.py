"""The suite every game must pass, run against each registered game and the toy test game."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

import simtool.games
import strategies
from simtool import bits, engine
from simtool.pipeline.runner import execute, play_chunk

from . import toy_game
from .conftest import ctx_for, spec

GAMES = [*simtool.games.registry().values(), toy_game.GAME]
CASES = [(g, p) for g in GAMES for p in g.players]
IDS = [f"{g.id}-{p}p" for g, p in CASES]


class Watch:
    """Wraps a strategy: checks each decision's legal sets, records picks."""

    def __init__(self, game, inner):
        self.game, self.inner, self.name = game, inner, inner.name
        self.seen: list[tuple[str, np.ndarray, np.ndarray]] = []

    def __call__(self, view, rng):
        legal = view.legal
        assert (bits.count(legal) > 0).all(), f"empty legal set at '{view.kind}'"
        assert (legal & ~bits.full(self.game.n_actions) == 0).all(), "option beyond n_actions"
        picked = self.inner(view, rng)
        self.seen.append((view.kind, legal.copy(), np.asarray(picked).copy()))
        return picked


def watched_round(game, p, strategy_name, n=400, unit_rules=None, seed=11):
    rules = {o.name: o.default for o in game.options} | (unit_rules or {})
    watch = Watch(game, strategies.resolve(strategy_name, game.id))
    lineup = engine.Lineup([watch], np.zeros(p, np.int64))
    match = game.new_match(n, p, rules)
    rng = np.random.default_rng(seed)
    state = game.deal(rng, match, 0)
    ctx = ctx_for(game, n)
    play, choice = game.play(state), None
    while True:
        try:
            d = play.send(choice)
        except StopIteration as done:
            results = done.value
            break
        for name, ok in game.invariants(state).items():
            assert np.asarray(ok).all(), f"invariant broken before '{d.kind}': {name}"
        choice = engine._decide(game, state, d, lineup, rng, ctx)
    for name, ok in game.invariants(state).items():
        assert np.asarray(ok).all(), f"invariant broken at the end of the round: {name}"
    return watch, results


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_legal_sets_never_empty_and_invariants_hold(game, p):
    for name, s in strategies.registry(game.id).items():
        if s.relative_cost() > 1:  # a search: tests/test_pimc.py plays it in every game
            continue
        watch, results = watched_round(game, p, name)
        assert watch.seen, "no decision was asked"
        assert results["score"].shape == (400, p)


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_random_is_uniform_over_the_legal_options(game, p):
    watch, _ = watched_round(game, p, "random", n=3000)
    by_size: dict[int, list[np.ndarray]] = {}
    for _, legal, picked in watch.seen:
        # rank of the pick among the legal options: uniform on 0..c-1 for sets of size c
        rank = bits.count(legal & bits.below(picked)).astype(np.int64)
        size = bits.count(legal).astype(np.int64)
        for c in np.unique(size):
            by_size.setdefault(int(c), []).append(rank[size == c])
    tested = 0
    for c, ranks in by_size.items():
        ranks = np.concatenate(ranks)
        if c < 2 or len(ranks) < 50 * c:
            continue
        counts = np.bincount(ranks, minlength=c)
        assert sps.chisquare(counts).pvalue > 1e-5, f"random not uniform over {c} options"
        tested += 1
    assert tested >= 1


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_tables_have_one_row_per_deal_and_seat(game, p, with_toy_game):
    s = spec(game.id, p, n=150)
    c = play_chunk(s, 0)
    assert c.seats.height == 150 * p
    assert {"deal", "seat", "strategy", "score", "tricks", "win", *game.columns} <= set(c.seats.columns)
    per_deal = c.seats.group_by("deal").agg(pl.col("win").sum(), pl.len())
    assert per_deal.height == 150 and (per_deal["len"] == p).all()
    assert np.allclose(per_deal["win"].to_numpy(), 1.0, atol=1e-5)


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_matches_end_with_shared_wins(game, p, with_toy_game):
    c = play_chunk(spec(game.id, p, n=60, unit="match"), 0)
    m = c.matches
    assert m.height == 60 * p
    per = m.group_by("match").agg(pl.col("win").sum(), pl.col("rounds").first(), pl.col("total"))
    assert np.allclose(per["win"].to_numpy(), 1.0, atol=1e-5)
    rounds = c.seats.group_by("match").agg(pl.col("round").max() + 1).sort("match")
    assert (rounds["round"].to_numpy() == m.filter(pl.col("seat") == 0).sort("match")["rounds"].to_numpy()).all()


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_same_spec_same_result(game, p, with_toy_game):
    a = play_chunk(spec(game.id, p, n=120, seed=3), 0).seats
    b = play_chunk(spec(game.id, p, n=120, seed=3), 0).seats
    c = play_chunk(spec(game.id, p, n=120, seed=4), 0).seats
    assert a.equals(b)
    assert not a.equals(c)


@pytest.mark.parametrize("game", [g for g in GAMES if g is not toy_game.GAME], ids=lambda g: g.id)
@pytest.mark.parametrize("unit", ["deal", "match"])
def test_jobs_do_not_change_results(game, unit):
    s = spec(game.id, game.default_players, n=2500, chunk=700, lineup=None, unit=unit)
    one, two = (list(execute(s, jobs=j)) for j in (1, 2))
    assert sum(c.seats["seat"].eq(0).sum() for c in one) >= 2500
    for a, b in zip(one, two, strict=True):
        assert a.seats.equals(b.seats)
        assert (a.matches is None and b.matches is None) or a.matches.equals(b.matches)


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_match_over_has_no_side_effects(game, p):
    rules = {o.name: o.default for o in game.options}
    match = game.new_match(50, p, rules)
    match.totals[:] = np.random.default_rng(1).integers(0, 60, match.totals.shape)
    before = {k: np.copy(v) for k, v in vars(match).items() if isinstance(v, np.ndarray)}
    for rnd in range(2 * p + 2):
        game.match_over(match, rnd)
    assert all((vars(match)[k] == v).all() for k, v in before.items())
    assert set(before) == {k for k, v in vars(match).items() if isinstance(v, np.ndarray)}
