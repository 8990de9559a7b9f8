"""pimc's look-ahead (``lookahead``): the searching seat's next leads in each play-out are searched
on that play-out's world, which the engine gives a play-out strategy only where asked (``sees``)."""

from __future__ import annotations

import numpy as np

import simtool
import simtool.games
import strategies
from simtool import bits, engine
from strategies import pimc


def _probe(seen: list):
    """Records the hands of the first world its first decision re-deals."""

    def choose(view, rng):
        if not seen:
            seen.append(view.redeal(1, rng)._state.hands.copy())  # the worlds' state: this test's look
        return bits.lowest(view.legal)

    return strategies.Strategy("probe", choose, "")


def _worlds(game_id: str, n: int):
    game = simtool.games.get(game_id)
    state = game.deal(np.random.default_rng(1), game.new_match(n, 3, {}), 0)
    worlds = engine.Worlds(game, state, np.zeros(n, np.int64), np.random.default_rng(2))
    return worlds, state.hands.copy()


def test_a_play_out_strategy_sees_its_world_only_where_the_play_out_says_so():
    for sees in (True, False):
        worlds, hands = _worlds("black-white", 64)
        seen: list = []
        worlds.play_out(bits.lowest(worlds.view.legal), _probe(seen), sees=sees)
        # the probe's first decision is the first follow: the leader's card is on the table, not in hand
        same = (seen[0][:, 1:] == hands[:, 1:]).all(axis=1)
        assert same.all() if sees else same.mean() < 0.05


def test_the_look_ahead_searches_each_worlds_next_own_lead_once():
    asked: list = []

    def look(view, rng):
        asked.append(bits.count(view.legal) > 1)  # the worlds left to search: more than one option
        return bits.lowest(view.legal)

    class View:
        kind = pimc.LEAD

        def __init__(self, seat):
            self.seat = np.asarray(seat)
            self.legal = np.full(len(self.seat), 0b111, np.uint64)

        def __len__(self):
            return len(self.seat)

        def narrow(self, allowed):
            self.legal = self.legal & allowed

    policy = strategies.Strategy("high", lambda view, rng: np.full(len(view.seat), 2), "")
    ahead = pimc._Ahead(policy, 1, 3, 1, look)
    ahead(View([1, 0, 1]), None)  # worlds 0 and 2: the seat's lead, searched
    ahead(View([1, 1, 0]), None)  # world 1 now: its first; world 0 has had its one
    assert [a.tolist() for a in asked] == [[True, False, True], [False, True, False]]
    ahead(View([1, 1, 1]), None)  # none left: the policy alone
    assert len(asked) == 2


def test_lookahead_0_is_todays_search_and_1_plays_otherwise_and_legally():
    def run(spec):
        r = simtool.run("out-trumped", n=24, strategy="hoarder", seats={0: spec}, rotate=True, seed=5, jobs=1)
        return r.seats.sort(["deal", "seat"]).drop("strategy")

    today = run("pimc@samples=3")
    assert run("pimc@samples=3,lookahead=0").equals(today)
    # the engine checks every choice against the legal sets: the run finishing is the legality
    assert not run("pimc@samples=3,lookahead=1").equals(today)
