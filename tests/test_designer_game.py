"""What a designer bringing a game of their own trips over (docs/new-game.md): each test is a
mistake, or a correct game, that simtool once answered wrongly or with an unclear message."""

from __future__ import annotations

import re

import numpy as np
import pytest

import simtool
import strategies
from simtool import bits, engine
from simtool.engine import add, cells
from simtool.errors import SimtoolError
from simtool.games.tricks import play_trick, record_trick
from simtool.pipeline.runner import play_chunk
from simtool.testing import Conformance, suite
from tests import toy_game
from tests.designer_games import oh_hell_heuristic, whist_heuristic
from tests.designer_games.oh_hell import OhHell
from tests.designer_games.whist import SUIT, Round, Whist


def test_a_card_drawn_from_a_column_of_hands():
    """``bits.uniform(hands[:, seat], ...)`` (the dealer's turned-up card: a column of an (n, p)
    table) was numpy's 'the last axis must be contiguous' from deep inside bits."""
    rng = np.random.default_rng(1)
    hands = rng.integers(1, 2**52, (500, 4), dtype=np.uint64) | np.uint64(1 << 60)
    column = hands[:, 2]
    assert not column.flags.c_contiguous
    picked = bits.uniform(column, np.random.default_rng(2), 64)
    assert ((column & bits.BIT[picked]) != 0).all()
    assert (picked == bits.uniform(column.copy(), np.random.default_rng(2), 64)).all()
    k = np.minimum(bits.count(column) - 1, 30).astype(np.uint8)
    assert (bits.select(column, k) == bits.select(column.copy(), k)).all()


class _Twice(Whist):
    """Seat 1 is also dealt seat 0's lowest card; the invariants, written from the deal (every
    card held is one dealt), still hold."""

    id = "designer-twice"

    def deal(self, rng, match, rnd):
        s = super().deal(rng, match, rnd)
        low = bits.lowest(s.hands[:, 0])
        s.hands[:, 1] = (s.hands[:, 1] & ~bits.BIT[bits.lowest(s.hands[:, 1])]) | bits.BIT[low]
        s.dealt = np.bitwise_or.reduce(s.hands, axis=1)
        return s

    def invariants(self, s):
        return {"every card held or played": (np.bitwise_or.reduce(s.hands, axis=1) | s.played) == s.dealt}


def test_a_card_dealt_to_two_seats_fails_the_suite_by_name(installed):
    """Before: a game dealing a card twice passed the suite unless a re-deal tripped over it
    ('offered no legal option ... in a re-dealt world'); now the deal names the card."""
    game = _Twice()
    installed(game)
    with pytest.raises(AssertionError, match=r"after the deal: no card is in two hands: card \d+ \(\w\w\) "
                                             r"is in 'hands' of seats \[0, 1\] in deal 0"):
        suite.watched_round(game, 4, "random", n=50)


def test_the_designers_whist_passes_the_suite(installed):
    game = Whist()
    installed(game)
    watch, results = suite.watched_round(game, 4, "random", n=200)
    assert (results["tricks"].sum(axis=1) == 13).all() and watch.seen


class _Bonus(Whist):
    """Adds a bonus of 5 to the deal's winner in ``end_round``, not in the round's score: the match
    totals then differ from the sum of the rounds' scores that match tension rebuilds."""

    id = "designer-bonus"

    def end_round(self, match, results):
        super().end_round(match, results)
        match.totals += 5 * (results["score"] == results["score"].max(axis=1, keepdims=True))


def test_a_match_total_that_is_not_its_rounds_fails_the_suite_by_name(installed):
    """Before: a bonus added in end_round passed the suite, and the review's tension figures were
    built from round scores that do not add up to the totals that decided the matches."""
    game = _Bonus()
    installed(game)
    c = play_chunk(suite.run_spec(game, 4, 30, unit="match"), 0)
    problem = suite.total_not_its_rounds(game, c.seats, c.matches)
    assert problem and re.match(r"match 0: seat \d's total is \d+, its rounds' scores sum to \d+; a match total "
                                r"must be the sum of the round scores", problem), problem
    with pytest.raises(AssertionError, match="must be the sum of the round scores"):
        suite.Conformance().test_matches_end_with_shared_wins(game, 4)
    plain = Whist()
    installed(plain)
    c = play_chunk(suite.run_spec(plain, 4, 30, unit="match"), 0)
    assert suite.total_not_its_rounds(plain, c.seats, c.matches) is None


class _AnyOfTheSuit(Round):
    """Follow suit, written wrong: any card of the led suit not yet played, whoever holds it."""

    def follow_set(self, hand):
        return bits.first_of(SUIT.take(self.led_suit) & ~self.played, hand)


class _Illegal(Whist):
    id = "designer-illegal"

    def deal(self, rng, match, rnd):
        s = super().deal(rng, match, rnd)
        s.__class__ = _AnyOfTheSuit
        return s

    def invariants(self, s):
        return {"every card held or played": (np.bitwise_or.reduce(s.hands, axis=1) | s.played) == s.dealt}


def test_a_legal_set_beyond_the_hand_fails_the_suite_by_name(installed):
    """Before: a follow rule offering another seat's cards passed the suite (the game's own
    invariant, every card held or played, still held: the card stayed in its holder's hand)."""
    game = _Illegal()
    installed(game)
    with pytest.raises(AssertionError, match=r"^invariant broken before 'play': a played card is still held: card "
                                            r"\d+ \(\w\w\) is played and in seat \d's hand in deal \d+ \(did a legal "
                                            r"set offer a card the acting seat does not hold\?\)"):
        suite.watched_round(game, 4, "random", n=50)


class _Outside(Whist):
    """The trick's winner counted from the leader and never brought back below p: a seat p or more
    lands on the next deal's first seats, or past the table's last deal. Its cells are its own
    arithmetic (``cells`` refuses such a seat as the game asks for its cell)."""

    id = "designer-outside"

    def play(self, s):
        cell = cells(s.n, s.p)
        while s.trick_no < s.hand_size:
            yield from play_trick(s, cell, s.leader)
            winner = np.where((s.winning < s.leader) & (np.arange(s.n) < s.n - 1), s.winning + s.p, s.winning)
            add(s.tricks, np.arange(s.n) * s.p + winner, 1)
            record_trick(s, s.leader)
            s.trick[:] = -1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        return {"score": s.tricks.astype(np.int16), "tricks": s.tricks.astype(np.int8)}

    def invariants(self, s):
        return {}


def test_a_trick_credited_outside_the_table_fails_the_suite_by_name(installed):
    """Before: a winner's seat beyond the table (here kept off the last deal, which numpy would
    refuse) passed the suite: every deal's tricks were moved to its neighbour without a word."""
    game = _Outside()
    installed(game)
    with pytest.raises(AssertionError, match=r"at the end of the round: the tricks won add up to \d+ in deal \d+, "
                                             r"not the 13 tricks played \(.*a seat outside the table"):
        suite.watched_round(game, 4, "random", n=50)


@pytest.mark.parametrize("unit", ["deal", "match"])
def test_a_plain_dataclass_round_state_plays_duplicate_deals(installed, unit):
    """A round state written as a plain dataclass (docs/new-game.md asks no more; the toy game
    climb is one) passed the suite, then stopped --duplicate and every review with "'State' object
    has no attribute 'repeat'", and that error sent the designer back to the suite that passed."""
    installed(toy_game.GAME)
    assert not hasattr(toy_game.State, "repeat")
    suite.Conformance().test_duplicate_copies_play_alike(toy_game.GAME, unit)
    r = simtool.run("climb", n=60, seed=1, duplicate=True, unit=unit, strategy="high")
    played = r.seats if unit == "deal" else r.matches
    assert played.height == 60 * 3 * 3  # every deal (match) once per rotation, 3 seats each


class TestTheDesignersGames(Conformance):
    """The suite passes the two designer's games docs/new-game.md points to as models."""

    games = (Whist(), OhHell())


@pytest.mark.parametrize(("game", "heuristic"), [(Whist(), whist_heuristic.basic),
                                                 (OhHell(), oh_hell_heuristic.basic)])
def test_each_designers_heuristic_beats_random(installed, game, heuristic):
    """Each model game's heuristic, in seat 0 against three ``random`` seats, wins more than its
    fair quarter of 2000 deals (measured: Whist 0.51, Oh Hell 0.47)."""
    installed(game)
    n, p = 2000, 4
    state = game.deal(np.random.default_rng(1), game.new_match(n, p, suite.default_rules(game)), 0)
    lineup = engine.Lineup([heuristic, strategies.resolve("random", game.id)], np.array([0, 1, 1, 1]))
    results = engine.play_round(game, state, lineup, np.random.default_rng(2), suite.context(game, n))
    share = engine.shares(results["score"], game.lower_wins)[:, 0].mean()
    assert share > 0.32, share


def test_a_game_or_strategy_object_given_to_the_api_is_told_its_name():
    """Before: ``simtool.run(GAME)`` in a notebook said only "bad game <...OhHell object...>;
    expected a string such as 'black-white'", with no word of how a game of one's own is named."""
    with pytest.raises(SimtoolError, match=r"expected a string such as 'black-white': give its name, "
                                           r"'designer-oh-hell'; a game or strategy of your own is found by "
                                           r"name once its package is installed \(entry points, docs/new-game.md\)"):
        simtool.run(OhHell(), n=10)
    with pytest.raises(SimtoolError, match=r"bad strategy .*: give its name, 'oh-hell-basic'; .* 'FILE.py:NAME'"):
        simtool.run("black-white", n=10, strategy=oh_hell_heuristic.basic)
    with pytest.raises(SimtoolError, match=r"expected a string such as 'black-white'$"):
        simtool.run(3, n=10)


class _Revoke(Whist):
    """Follow suit forgotten: any card of the hand; the invariant the designer wrote catches it."""

    id = "designer-revoke"

    def deal(self, rng, match, rnd):
        s = super().deal(rng, match, rnd)
        s.__class__ = _AnyCard
        return s

    def invariants(self, s):
        led = np.where(s.step > 1, SUIT.take(s.led_suit), bits.EMPTY)
        in_trick = np.where(s.trick >= 0, bits.BIT[np.maximum(s.trick, 0)], bits.EMPTY)
        kept = (s.hands & led[:, None]) != 0  # a seat holding the led suit
        off = (in_trick & ~led[:, None]) != 0  # played another suit to this trick
        return {"suit followed": ~(kept & off).any(axis=1) | (s.step <= 1)}


class _AnyCard(Round):
    def follow_set(self, hand):
        return hand


def test_a_broken_invariant_is_the_games_fault_not_the_strategys(installed):
    """Before: "strategy 'random' raised AssertionError: invariant broken before 'play': suit
    followed" and pytest's rewriting of the arrays on the same line; now the game's invariant, its
    deal, and nothing blamed on random."""
    game = _Revoke()
    installed(game)
    with pytest.raises(AssertionError, match=r"^invariant broken before 'play': suit followed \(deal \d+\)$"):
        suite.watched_round(game, 4, "random", n=50)


class _FloatScore(OhHell):
    """Scores computed in floats (``np.where(made, 10 + bids, 0.0)``), whole numbers all."""

    id = "designer-float"

    def play(self, s):
        results = yield from super().play(s)
        return results | {"score": results["score"].astype(np.float64)}


def test_a_whole_float_score_plays_whole_matches(installed):
    """Before: a float score of whole numbers passed every deal check, then every match stopped in
    end_round with "UFuncTypeError: Cannot cast ufunc 'add' output from float64 to int32"."""
    game, plain = _FloatScore(), OhHell()
    installed(game, plain)
    one, other = (play_chunk(suite.run_spec(g, 4, 20, unit="match"), 0) for g in (game, plain))
    assert one.matches["total"].to_list() == other.matches["total"].to_list()
    assert one.seats["score"].dtype == other.seats["score"].dtype


class _Undeclared(OhHell):
    id = "designer-undeclared"
    columns = {"made": np.int8}  # 'bid' returned, not declared


def test_a_result_column_not_declared_fails_the_suite_by_name(installed):
    """Before: a column the round returned but ``columns`` did not declare was left out of every
    table without a word, and the suite passed."""
    game = _Undeclared()
    installed(game)
    with pytest.raises(AssertionError, match=r"^the round returned 'bid', which the game's columns do not declare, "
                                             r"so no table holds it: declare it \(columns = \{'bid': np.int8\}\)"):
        suite.watched_round(game, 4, "random", n=50)
    suite.watched_round(OhHell(), 4, "random", n=50)  # its heuristic's columns, declared


class _SignedHands(Whist):
    id = "designer-signed"

    def deal(self, rng, match, rnd):
        s = super().deal(rng, match, rnd)
        s.hands = s.hands.astype(np.int64)  # bits 0..51: the same numbers, another type
        return s


def test_hands_of_another_type_than_uint64_fail_the_suite_by_name(installed):
    """Before: "TypeError: ufunc 'bitwise_and' not supported for the input types" from inside the
    trick loop."""
    game = _SignedHands()
    installed(game)
    with pytest.raises(AssertionError, match=r"^invariant broken after the deal: 'hands' holds int64 values; card "
                                             r"sets are uint64, bit c for card c \(simtool.bits\)$"):
        suite.watched_round(game, 4, "random", n=50)


class _PastTheLast(_Outside):
    """As :class:`_Outside`, the last deal too."""

    id = "designer-past"

    def play(self, s):
        cell = cells(s.n, s.p)
        while s.trick_no < s.hand_size:
            yield from play_trick(s, cell, s.leader)
            add(s.tricks, np.arange(s.n) * s.p + np.where(s.winning < s.leader, s.winning + s.p, s.winning), 1)
            record_trick(s, s.leader)
            s.trick[:] = -1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        return {"score": s.tricks.astype(np.int16), "tricks": s.tricks.astype(np.int8)}


def test_a_seat_past_the_last_deal_is_named(installed):
    """Before: "IndexError: index 1600 is out of bounds for axis 0 with size 1600" from engine.add."""
    game = _PastTheLast()
    installed(game)
    with pytest.raises(SimtoolError, match=r"^a seat outside the table: cell \d+ of an array of 50 deals x 4 seats is "
                                           r"seat [4-7] of the last deal; cells\(n, p\)\(seat\) needs 0 <= seat < 4"):
        suite.watched_round(game, 4, "random", n=50)
    with pytest.raises(SimtoolError, match=r"^game 'designer-past' \(tests.test_designer_game\) wrote a seat outside "
                                           r"the table: cell 400 of an array of 100 deals x 4 seats"):
        simtool.run("designer-past", n=100, seed=1, strategy="random")
