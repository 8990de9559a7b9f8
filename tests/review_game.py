"""A test game whose seat advantage is known exactly, for the review's verdicts.

"Draw": a single suit of ``2p`` cards; each seat is dealt one card and plays it, and the highest
card wins the deal (score 1, the others 0). Rule ``edge``: ``none`` (the default) deals every
seat alike, so every seat wins exactly 1/p of deals by symmetry; ``first`` deals seat 0 a second
card, and a seat that plays its higher card then wins 2/(p+1) of deals (the top card of p+1 is
one of its two), 15 points above the fair 25% at 4 players. A match is two deals. The game does
not re-deal (no search plays it) and declares no restrictions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simtool import bits, deck
from simtool.analysis import Analysis
from simtool.engine import Decision, Game, Match, RoundState, View, cells, own
from simtool.options import Option


@dataclass
class State(RoundState):
    p: int
    hands: np.ndarray

    @property
    def n(self):
        return self.hands.shape[0]


class DrawView(View):
    hand = own("hands", "The acting seat's cards, ``(m,)`` sets.")


class Draw(Game):
    id = "draw"
    title = "Draw (test game)"
    sheet = "tests/review_game.py"
    players = (2, 3, 4)
    default_players = 4
    default_strategy = "high"
    options = (Option("edge", ("none", "first"), "whether seat 0 is dealt a second card"),)
    n_actions = 8
    columns = {}
    analysis = "tests.review_game"
    View = DrawView

    def deal(self, rng, match: Match, rnd: int) -> State:
        n, p = match.n, match.p
        cards = deck.shuffled(rng, n, 2 * p, p + 1).astype(np.int64)
        hands = bits.BIT[cards[:, :p]]
        if match.rules["edge"] == "first":
            hands[:, 0] |= bits.BIT[cards[:, p]]
        return State(p, hands)

    def play(self, s: State):
        cell = cells(s.n, s.p)
        top = np.full(s.n, -1, np.int64)
        winner = np.zeros(s.n, np.int64)
        for seat in range(s.p):
            at = np.full(s.n, seat, np.int64)
            card = yield Decision("play", at, np.take(s.hands, cell(at)))
            winner = np.where(card > top, seat, winner)
            top = np.maximum(top, card)
        won = (np.arange(s.p)[None, :] == winner[:, None]).astype(np.int16)
        return {"score": won, "tricks": won}

    def match_over(self, match, rnd):
        return np.full(match.n, rnd >= 1)

    def invariants(self, s: State):
        return {"one card each, two for an edge": bits.count(s.hands).sum(axis=1) >= s.p}


GAME = Draw()

ANALYSIS = Analysis()
