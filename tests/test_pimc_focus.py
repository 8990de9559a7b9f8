"""``pimc``'s budget per decision kind (``focus``, ``focus_samples``): the decisions of one kind
(Nine Lives' bid) are searched in more worlds than the others, and only those."""

from __future__ import annotations

import numpy as np
import pytest

import simtool.games
import strategies
from simtool import engine
from simtool.errors import SimtoolError
from strategies import pimc


def worlds_by_kind(game_id: str, entry: str, rules=None, n: int = 3, seed: int = 3) -> dict[str, set[int]]:
    """The world counts each decision kind of one round was searched in by ``entry`` at seat 0
    (random players elsewhere), every look (first and second) counted."""
    game = simtool.games.get(game_id)
    rules = {o.name: o.default for o in game.options} | (rules or {})
    search = strategies.resolve(entry, game_id)
    seen: dict[str, set[int]] = {}
    values = pimc._values

    def counting(view, rng, k, *args):  # every play-out batch of the search passes here
        seen.setdefault(view.kind, set()).add(k)
        return values(view, rng, k, *args)

    p = game.default_players
    state = game.deal(np.random.default_rng(seed), game.new_match(n, p, rules), 0)
    lineup = engine.Lineup([search, strategies.resolve("random", game_id)], np.array([0] + [1] * (p - 1)))
    mp = pytest.MonkeyPatch()
    mp.setattr(pimc, "_values", counting)
    try:
        engine.play_round(game, state, lineup, np.random.default_rng(4),
                          engine.Context(game_id, 0, n, "deal", np.arange(n)))
    finally:
        mp.undo()
    return seen


def test_nine_lives_bids_in_focus_samples_worlds_and_plays_in_samples():
    seen = worlds_by_kind("nine-lives", "pimc@samples=2,keep=0,deep=0,focus_samples=5,playout=random")
    assert seen == {"bid": {5}, "lead": {2}, "play": {2}}


def test_the_second_look_follows_the_first_in_every_kind():
    seen = worlds_by_kind("nine-lives", "pimc@samples=2,keep=1,deep=3,focus_samples=5,playout=random")
    assert seen == {"bid": {5, 3}, "lead": {2, 3}, "play": {2, 3}}


def test_focus_samples_0_searches_every_kind_alike():
    seen = worlds_by_kind("nine-lives", "pimc@samples=2,keep=0,deep=0,focus_samples=0,playout=random")
    assert seen == {"bid": {2}, "lead": {2}, "play": {2}}


def test_other_games_search_their_bid_in_samples_worlds():
    # Out-Trumped has a bid as well (with kitty=bid): no focus there by default
    seen = worlds_by_kind("out-trumped", "pimc@samples=2,playout=random", {"kitty": "bid"}, n=12, seed=5)
    assert "bid" in seen and set().union(*seen.values()) == {2}


def test_any_kind_of_any_game_can_be_the_focus():
    seen = worlds_by_kind("black-white", "pimc@samples=1,focus=colour,focus_samples=4,playout=random")
    assert seen["colour"] == {4} and seen["lead"] == seen["play"] == {1}


def test_the_focus_is_nine_lives_bid_and_out_trumped_discard_by_default():
    defaults = {"nine-lives": ("bid", 24, 0, 0), "out-trumped": ("discard", 6, 3, 12)}
    for game in simtool.games.registry():
        values = strategies.resolve("pimc", game).values
        expected = defaults.get(game, ("none", 0, 0, 0))
        assert (values.focus, values.focus_samples, values.focus_keep, values.focus_deep) == expected, game


@pytest.mark.parametrize("entry", ["pimc@focus_keep=2,focus_deep=0", "pimc@focus_keep=0,focus_deep=4"])
def test_half_a_second_look_at_the_focus_is_refused(entry):
    with pytest.raises(SimtoolError, match="a second look at the focus needs both above 0"):
        strategies.resolve(entry, "out-trumped")


def test_the_cost_and_so_the_deals_do_not_depend_on_the_focus():
    # chunks (and so a run's deals) follow the cost: a focus paired against no focus plays the same deals
    with_focus = strategies.resolve("pimc@focus_samples=128", "nine-lives")
    without = strategies.resolve("pimc@focus_samples=0", "nine-lives")
    assert with_focus.relative_cost() == without.relative_cost() == 16.0


def test_the_one_world_search_takes_no_budget():
    # clairvoyant searches the true deal once: worlds, a second look or a focus would be ignored,
    # so they are refused rather than silently taken
    for name in ("samples", "keep", "deep", "focus", "focus_samples", "focus_keep", "focus_deep"):
        with pytest.raises(SimtoolError, match=f"unknown parameter '{name}' for strategy 'clairvoyant'"):
            strategies.resolve(f"clairvoyant@{name}=1", "nine-lives")
