"""``Worlds.take``: a search takes its worlds once per option and plays each take; the take is
copied once, when played (``simtool.engine.Worlds``), and must play exactly as a copy made at
once would."""

from __future__ import annotations

import numpy as np

import simtool.games
import strategies
from simtool import engine


def _worlds(k: int = 4):
    game = simtool.games.get("out-trumped")
    rules = game.played({o.name: o.default for o in game.options} | {"kitty": "bid", "wild": "no-trump"}, 4)
    state = game.deal(np.random.default_rng(5), game.new_match(6, 4, rules), 0)
    d = next(game.play(state.take(np.arange(state.n))))  # the first bid: every deal bids
    seat = np.broadcast_to(np.asarray(d.seat), (state.n,))
    view = engine.view_of(game, state, d.kind, seat, np.broadcast_to(d.legal, (state.n,)))
    return view.redeal(k, np.random.default_rng(6))


def _snapshot(state) -> dict:
    return {name: value.copy() for name, value in vars(state).items() if isinstance(value, np.ndarray)}


def test_a_take_plays_as_the_worlds_it_names_again_and_again_and_leaves_the_worlds_as_they_were():
    worlds = _worlds()
    hoarder = strategies.resolve("hoarder", "out-trumped")  # deterministic: fixed play-outs
    first = hoarder(worlds.view, None)
    before = _snapshot(worlds._state)
    whole = worlds.play_out(first, hoarder)
    rows = np.array([7, 0, 0, 23, 12, 5])
    taken = worlds.take(rows)
    once, again = taken.play_out(first[rows], hoarder), taken.play_out(first[rows], hoarder)
    for name in ("score", "tricks", "trumps", "bid", "kitty"):
        assert (once[name] == whole[name][rows]).all() and (again[name] == once[name]).all(), name
    # a take of a take names the worlds of the first: rows [0, 0, 5] of the worlds
    inner = taken.take(np.array([1, 2, 5]))
    assert (inner.play_out(first[[0, 0, 5]], hoarder)["score"] == whole["score"][[0, 0, 5]]).all()
    assert (inner._state.hands == worlds._state.hands[[0, 0, 5]]).all()
    after = _snapshot(worlds._state)  # no play-out and no take played on the worlds' own state
    assert before.keys() == after.keys() and all((before[k] == after[k]).all() for k in before)
    assert (taken.view.hand == worlds.view.hand[rows]).all()
