"""A round no view can see (every strategy asked through ``engine._on_legal``, no trace, no lead
history) is played unwatched (``RoundState.watched``): Black & White and Nine Lives then keep no
trick history, cards played or trick on the table (Black & White tallies its trick piles once,
at the end), and their results are the same."""

import numpy as np
import pytest

from simtool import bits, engine, games
from simtool.testing.suite import context, default_rules
from strategies import Strategy, resolve


def _through_a_view(view, rng):
    """``random``'s picks, from the same draws, but through a view: a watching strategy."""
    return bits.uniform(view.legal, rng, view.n_actions)


def _round(game_id: str, p: int, strategy, seed: int = 3, n: int = 500, **ctx):
    game = games.get(game_id)
    state = game.deal(np.random.default_rng(seed), game.new_match(n, p, default_rules(game)), 0)
    ctx_ = context(game, n)
    for key, value in ctx.items():
        setattr(ctx_, key, value)
    results = engine.play_round(game, state, engine.Lineup([strategy], np.zeros(p, np.int64)),
                                np.random.default_rng(seed + 1), ctx_)
    return state, results


@pytest.mark.parametrize("game_id,p", [("black-white", 3), ("black-white", 2), ("black-white", 4),
                                       ("nine-lives", 4), ("nine-lives", 5)])
def test_an_unwatched_round_keeps_its_results_not_its_history(game_id, p):
    fast, fast_results = _round(game_id, p, resolve("random", game_id))
    seen, seen_results = _round(game_id, p, Strategy("viewed", _through_a_view, ""))
    assert not fast.watched and seen.watched
    assert fast_results.keys() == seen_results.keys()
    for key in fast_results:
        assert np.array_equal(fast_results[key], seen_results[key]), key
    assert (fast.past == -1).all() and (fast.past_winner == -1).all()  # no history kept
    assert (seen.past >= 0).any() and (seen.past_winner >= 0).any()
    assert (fast.played == 0).all() and (seen.played != 0).all()
    # the unwatched tricks take their cards out of the hands at each trick's end: the same hands
    assert np.array_equal(fast.hands, seen.hands)


def test_an_unwatched_trick_takes_its_cards_out_of_the_hands_at_its_end():
    """Stopped after the first card of the second trick, the unwatched round holds the hands the
    watched one does less that card: the first trick's cards are gone, the one just played
    not yet (it leaves with its trick)."""
    states = {}
    for watched in (False, True):  # the state as play_round leaves it for each kind of line-up
        game = games.get("black-white")
        state = game.deal(np.random.default_rng(3), game.new_match(200, 3, default_rules(game)), 0)
        state.watched = watched
        play, choice, rng = game.play(state), None, np.random.default_rng(4)
        for _ in range(5):  # lead, colour, two follows, then the next trick's lead
            d = play.send(choice)
            choice = bits.uniform(np.broadcast_to(d.legal, (200,)), rng, game.n_actions)
        assert play.send(choice).kind == "colour"  # the second trick's colour is asked
        states[watched] = state
    fast, seen = states[False], states[True]
    led = bits.bit_of(np.array(seen.trick).max(axis=1))  # the one card on the table
    assert np.array_equal(fast.hands & ~led[:, None], seen.hands)
    assert not np.array_equal(fast.hands, seen.hands)


@pytest.mark.parametrize("game_id", ["kansas-city", "out-trumped", "hearts"])
def test_other_games_keep_their_books_unwatched(game_id):
    """Their rules may read the cards played or the trick: they keep both in any round."""
    game = games.get(game_id)
    state, _ = _round(game_id, game.default_players, resolve("random", game_id), n=200)
    assert not state.watched and state.books
    assert (state.played != 0).all()


def test_a_trace_or_a_watching_strategy_watches():
    random = resolve("random", "black-white")
    assert not engine._watched(engine.Lineup([random], np.zeros(3, np.int64)), context(games.get("black-white"), 8))
    beside = engine.Lineup([random, resolve("balance", "black-white")], np.array([0, 1, 0]))
    assert engine._watched(beside, context(games.get("black-white"), 8))
    state, _ = _round("black-white", 3, random, n=40, trace_row=5)
    assert state.watched and (state.past >= 0).any()
    clairvoyant = engine.Lineup([random], np.zeros(3, np.int64), sees=(True,))
    assert engine._watched(clairvoyant, context(games.get("black-white"), 8))


@pytest.mark.parametrize("game_id,p", [("nine-lives", 4), ("nine-lives", 3), ("black-white", 3)])
def test_whole_matches_unwatched_give_the_watched_tables(monkeypatch, game_id, p):
    """Later rounds of Nine Lives deal smaller decks, so some deals run out of tricks first (the
    trick loop's ``active`` deals): their piles are left out of the tally as the watched round
    leaves them out."""
    import simtool
    from strategies import basic

    unwatched = simtool.run(game_id, n=400, players=p, strategy="random", unit="match", seed=9, jobs=1)
    monkeypatch.delattr(basic.random.choose, "on_legal")  # every decision through a view: watched
    watched = simtool.run(game_id, n=400, players=p, strategy="random", unit="match", seed=9, jobs=1)
    assert unwatched.seats.equals(watched.seats) and unwatched.matches.equals(watched.matches)
    assert unwatched.seats["round"].max() >= 2
