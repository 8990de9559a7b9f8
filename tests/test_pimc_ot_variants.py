"""``pimc`` in Out-Trumped's rule variants (issue 31): what its discards search, and in how many
worlds."""

from __future__ import annotations

import numpy as np
import pytest

import simtool.games
import strategies
from simtool import bits, engine
from strategies import pimc

GAME = simtool.games.get("out-trumped")


def searched(entry: str, rules: dict, n: int = 24, seed: int = 3) -> list[tuple[str, np.ndarray, np.ndarray, int]]:
    """Every play-out batch of ``entry`` at seat 0 of one round (``hoarder`` elsewhere):
    ``(kind, the legal cards of each pair's deal, the option tried, worlds)``."""
    rules = {o.name: o.default for o in GAME.options} | rules
    seen = []
    values = pimc._values

    def recording(view, rng, k, deal, option, *args):
        seen.append((view.kind, view.legal[deal], option, k, view.layout.suit_cards(view.trump)[deal]))
        return values(view, rng, k, deal, option, *args)

    state = GAME.deal(np.random.default_rng(seed), GAME.new_match(n, 4, rules), 0)
    lineup = engine.Lineup([strategies.resolve(entry, GAME.id), strategies.resolve("hoarder", GAME.id)],
                           np.array([0, 1, 1, 1]))
    mp = pytest.MonkeyPatch()
    mp.setattr(pimc, "_values", recording)
    try:
        engine.play_round(GAME, state, lineup, np.random.default_rng(4),
                          engine.Context(GAME.id, 0, n, "deal", np.arange(n)))
    finally:
        mp.undo()
    return seen


@pytest.fixture(scope="module")
def kitty_bid():
    """``searched("pimc", {"kitty": "bid"})``: one round played once for the three tests that read
    it (each only filters the batches)."""
    return tuple(searched("pimc", {"kitty": "bid"}))


def test_a_discard_searches_only_plain_cards_while_the_hand_holds_one(kitty_bid):
    seen = [s for s in kitty_bid if s[0] == "discard"]
    assert seen, "the search took no kitty in these deals"
    legal = np.concatenate([s[1] for s in seen])
    option = np.concatenate([s[2] for s in seen])
    trumps = np.concatenate([s[4] for s in seen])
    tried_trump = (bits.BIT[option] & trumps) != 0
    holds_plain = (legal & ~trumps) != 0
    # trumps were in hand beside plain cards, and never tried there; tried only from all-trump hands
    assert ((legal & trumps) != 0)[holds_plain].any()
    assert not (tried_trump & holds_plain).any()


def test_the_plays_still_try_every_distinct_card(kitty_bid):
    # the pruning is the discard's only: a follow may try a trump beside plain cards
    seen = [s for s in kitty_bid if s[0] in ("lead", "play")]
    option = np.concatenate([s[2] for s in seen])
    trumps = np.concatenate([s[4] for s in seen])
    legal = np.concatenate([s[1] for s in seen])
    assert (((bits.BIT[option] & trumps) != 0) & ((legal & ~trumps) != 0)).any()


def test_a_bid_or_discard_with_nothing_to_read_draws_only_the_worlds_it_keeps():
    # before any play there is nothing to read (no wild pick here): each world would fit alike,
    # so k are drawn, not infer * k; once cards are played the lead and the follows draw 3 * k
    drawn = {}
    redeal = GAME.View.redeal

    def spying(view, k, rng):
        drawn.setdefault(view.kind, set()).add(k)
        return redeal(view, k, rng)

    mp = pytest.MonkeyPatch()
    mp.setattr(GAME.View, "redeal", spying)
    try:
        searched("pimc@samples=4,focus_samples=2,focus_keep=1,focus_deep=3,infer=3",
                 {"kitty": "bid", "wild": "no-trump"})
    finally:
        mp.undo()
    assert drawn["bid"] == {4} and drawn["discard"] == {2, 3}
    assert drawn["play"] == {12}


def test_the_discards_get_a_second_look_of_their_own():
    # the first look in focus_samples worlds, the best focus_keep options in focus_deep more; the
    # leads and plays in samples worlds and no second look
    seen = {}
    for kind, _, option, k, _ in searched("pimc@samples=2,focus_samples=3,focus_keep=1,focus_deep=5",
                                          {"kitty": "bid"}):
        seen.setdefault(kind, []).append((k, len(option)))
    assert {k for k, _ in seen["discard"]} == {3, 5}
    assert {k for k, _ in seen["lead"] + seen["play"]} == {2}
    # one option of each deal gets the second look, fewer than the first look tried
    first = sum(n for k, n in seen["discard"] if k == 3)
    second = sum(n for k, n in seen["discard"] if k == 5)
    assert 0 < second < first


def test_a_bid_searches_passing_and_bids_up_to_twice_a_fair_share_and_two(kitty_bid):
    # 13 cards each with the kitty and 4 players: a fair share is 3.25 tricks, so bids of 10 to
    # 13 are legal (where the standing bid allows) but never tried, unless the policy would bid so
    seen = [s for s in kitty_bid if s[0] == "bid"]
    legal = np.concatenate([s[1] for s in seen])
    option = np.concatenate([s[2] for s in seen])
    assert (legal & ~bits.below(10) != 0).any() and (option == 0).any()
    assert option.max() == 9
