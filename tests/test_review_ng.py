"""Review of the designer-game conformance checks (branch newgame): cases where a correct game
must pass, or the engine's new handling must hold."""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest

import simtool
import strategies
from simtool import bits, engine
from simtool.errors import SimtoolError
from simtool.games import nine_lives
from simtool.testing import watched_round
from simtool.testing.suite import context

from . import toy_game
from .designer_games import whist


class LaterRoundNineLives(nine_lives.NineLives):
    """Nine Lives as it is from its second round on: the bid cards scored so far are out of the
    deck, so the deals hold decks of different sizes and play different numbers of tricks
    (the shared trick loop's ``active``) in the same round; ``trick_no`` counts the longest."""

    def new_match(self, n, p, rules):
        match = super().new_match(n, p, rules)
        # every other deal has had the four lowest cards scored into the piles already
        match.piles[1::2] = bits.full(p)
        return match


def test_deals_playing_fewer_tricks_than_the_longest_pass_the_tricks_check():
    game = LaterRoundNineLives()
    watch, results = watched_round(game, 4, "random", n=40)
    won = np.asarray(results["tricks"]).sum(axis=1)
    assert set(won[0::2]) == {8} and set(won[1::2]) == {7}  # the case: two lengths of round at once


@dataclasses.dataclass
class SeatMajorState(toy_game.State, engine.RoundState):
    """The toy game's state with one more field kept seat-major, ``(p, n)``: the engine's generic
    copy cannot know its deals' axis, so the state copies itself (its own ``repeat``/``take``,
    the methods :class:`~simtool.engine.RoundState` offers for it)."""

    by_seat: np.ndarray | None = None

    def _copied(self, how):
        copy = how(dataclasses.replace(self, by_seat=None))
        copy.by_seat = how(type(self)(**{**vars(self), "hands": self.by_seat.T, "by_seat": None})).hands.T
        return copy

    def repeat(self, k):
        return self._copied(lambda s: engine.repeat(s, k))

    def take(self, rows):
        return self._copied(lambda s: engine.take(s, rows))


class SeatMajorClimb(toy_game.Climb):
    def deal(self, rng, match, rnd):
        s = super().deal(rng, match, rnd)
        return SeatMajorState(**vars(s), by_seat=np.ascontiguousarray(s.hands.T))

    def play(self, s):
        if s.by_seat.shape != (s.p, s.n):  # a copy that left this field as dealt
            raise ValueError(f"by_seat {s.by_seat.shape} for {s.n} deals")
        return (yield from super().play(s))


def test_duplicate_deals_copy_a_round_state_by_its_own_repeat_and_take():
    game = SeatMajorClimb()
    rules = {"hand": 3}
    state = engine._duplicate_deal(game, np.random.default_rng(3), 12, 3, rules, 0)
    assert state.by_seat.shape == (3, 12) and (state.by_seat.T == state.hands).all()
    lineup = engine.Lineup([strategies.resolve("random", "climb")], np.zeros(3, np.int64))
    rng = np.random.default_rng(5)
    outcome = engine.play_matches(game, 3, rules, lineup, 12, rng, rng, context(game, 12), duplicate=True)
    assert outcome.matches["total"].shape == (12, 3)  # every match played to its end


class KrakenWhist(whist.Whist):
    """Whist with Skull King's Kraken: a trick holding card 0 is won by nobody (set aside), so
    the tricks won add up to fewer than the tricks played; a correct game all the same."""

    id = "designer-kraken"

    def play(self, s):
        cell = engine.cells(s.n, s.p)
        while s.trick_no < s.hand_size:
            yield from whist.play_trick(s, cell, s.leader)
            won = ~(s.trick == 0).any(axis=1)  # the Kraken's trick: nobody's
            engine.add(s.tricks, cell(s.winning)[won], 1)
            whist.record_trick(s, s.leader)
            s.trick[:] = -1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        return {"score": s.tricks.astype(np.int16), "tricks": s.tricks.astype(np.int8)}

    def invariants(self, s):
        checks = super().invariants(s)
        # the Kraken in a finished trick (not the one under way)
        killed = (bits.count(s.played & bits.BIT[0]) > 0) & ~(s.trick == 0).any(axis=1)
        checks["tricks add up"] = s.tricks.sum(axis=1) == s.trick_no - killed
        return checks


def test_a_trick_won_by_nobody_passes_the_tricks_check():
    watch, results = watched_round(KrakenWhist(), 4, "random", n=60)
    assert (np.asarray(results["tricks"]).sum(axis=1) == 12).all()  # the case: the Kraken's trick is nobody's


def test_a_trick_credited_to_a_seat_outside_the_table_still_fails_the_tricks_check():
    class Outside(whist.Whist):
        id = "designer-outside-review"

        def play(self, s):
            cell = engine.cells(s.n, s.p)
            while s.trick_no < s.hand_size:
                yield from whist.play_trick(s, cell, s.leader)
                # seat + 1, no % p, in a cell of its own arithmetic (cells refuses seat p at once)
                engine.add(s.tricks, np.minimum(np.arange(s.n) * s.p + s.winning + 1, s.n * s.p - 1), 1)
                whist.record_trick(s, s.leader)
                s.trick[:] = -1
                s.leader = s.winning
                s.trick_no += 1
                s.step = 0
            return {"score": s.tricks.astype(np.int16), "tricks": s.tricks.astype(np.int8)}

        def invariants(self, s):
            return {}

    with pytest.raises(AssertionError, match=r"the tricks won add up to \d+ in deal \d+, not the 13 tricks played"):
        watched_round(Outside(), 4, "random", n=60)


@pytest.mark.parametrize("change", [engine.add, engine.put])
def test_a_negative_cell_beyond_the_table_is_named_too(change):
    """A seat counted back without ``% p`` in a batch of one deal (a replay): cell -5 of 1 x 4."""
    with pytest.raises(SimtoolError, match=r"^a seat outside the table: cell -5 of an array of 1 deals x 4 seats"):
        change(np.zeros((1, 4), np.int16), np.array([-5]), 1)


class LaterRoundNineLivesCountedTwice(LaterRoundNineLives):
    """The same, with a trick credited twice in every shorter deal (7 tricks, 8 won)."""

    def play(self, s):
        results = yield from super().play(s)
        tricks = results["tricks"].copy()
        tricks[1::2, 0] += 1
        return results | {"tricks": tricks}


def test_a_trick_credited_twice_in_a_shorter_deal_fails_the_tricks_check():
    with pytest.raises(AssertionError, match=r"the tricks won add up to 8 in deal 1, not the 7 tricks played"):
        watched_round(LaterRoundNineLivesCountedTwice(), 4, "random", n=40)


def test_a_named_object_that_is_no_game_or_strategy_is_not_told_to_give_its_name():
    """A polars Series (``.name``) passed as the game is not a game whose name is 'x'."""
    with pytest.raises(SimtoolError, match=r"expected a string such as 'black-white'$"):
        simtool.run(pl.Series("x", [1]), n=10)
