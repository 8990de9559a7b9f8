"""A tiny game that uses every engine feature Black & White does not.

"Climb": one suit of ``4p`` cards. Everyone first *discards* a card at once
(a simultaneous decision). Tricks: the leader plays any card, the others must
play higher than the highest card so far if they can. After each trick but the
last, the winner may *bank* (a decision only due in deals where the winner holds
the top card still in play). Rule option ``hand``: cards dealt (3, 2 or 4).
Score: tricks won, +1 per bank. A match is 2 rounds, highest total wins.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from simtool import bits, deck
from simtool.analysis import Analysis
from simtool.engine import Decision, Game, Match, View, cells, own
from simtool.options import Option


@dataclass
class State:
    p: int
    hand_size: int
    dealt: np.ndarray
    hands: np.ndarray
    played: np.ndarray
    tricks: np.ndarray
    banks: np.ndarray
    leader: np.ndarray

    @property
    def n(self):
        return self.hands.shape[0]


class ClimbView(View):
    hand = own("hands", "The acting seat's cards, ``(m,)`` sets.")


class Climb(Game):
    id = "climb"
    title = "Climb (test game)"
    sheet = "tests/toy_game.py"
    players = (2, 3, 4)
    default_players = 3
    options = (Option("hand", (3, 2, 4), "cards dealt to each player"),)
    n_actions = 16
    columns = {"banks": np.int8}
    analysis = __name__  # a game installed from its own package may keep its analysis in its module
    View = ClimbView

    def deal(self, rng, match: Match, rnd: int) -> State:
        n, p, h = match.n, match.p, match.rules["hand"]
        hands = deck.hands(deck.shuffled(rng, n, 4 * p, p * h), p)
        return State(p, h, np.bitwise_or.reduce(hands, axis=1), hands, np.zeros(n, np.uint64),
                     np.zeros((n, p), np.int16), np.zeros((n, p), np.int16),
                     np.full(n, rnd % p, np.int64))

    def play(self, s: State):
        cell = cells(s.n, s.p)
        gone = yield Decision("discard", None, s.hands.copy())
        s.hands &= ~bits.BIT[gone]
        s.played |= np.bitwise_or.reduce(bits.BIT[gone], axis=1)
        for t in range(s.hand_size - 1):
            top = np.full(s.n, -1, np.int64)
            winner = s.leader.copy()
            for i in range(s.p):
                seat = (s.leader + i) % s.p
                hand = np.take(s.hands, cell(seat))
                higher = hand & ~bits.below(top + 1)
                card = yield Decision("play", seat, np.where(higher != 0, higher, hand))
                np.put(s.hands, cell(seat), hand & ~bits.BIT[card])
                s.played |= bits.BIT[card]
                winner = np.where(card > top, seat, winner)
                top = np.maximum(top, card)
            np.put(s.tricks, cell(winner), np.take(s.tricks, cell(winner)) + 1)
            if t < s.hand_size - 2:
                in_play = np.bitwise_or.reduce(s.hands, axis=1)
                due = (np.take(s.hands, cell(winner)) & bits.BIT[bits.highest(in_play)]) != 0
                bank = yield Decision("bank", winner, bits.of((0, 1)), active=due)
                np.put(s.banks, cell(winner), np.take(s.banks, cell(winner)) + (bank == 1))
            s.leader = winner
        return {"score": s.tricks + s.banks, "tricks": s.tricks, "banks": s.banks}

    def match_over(self, match, rnd):
        return np.full(match.n, rnd >= 1)

    def invariants(self, s: State):
        held = bits.count(s.hands).sum(axis=1, dtype=np.int64)
        return {"cards conserved": ((np.bitwise_or.reduce(s.hands, axis=1) | s.played) == s.dealt)
                & (held + bits.count(s.played) == s.p * s.hand_size)}


GAME = Climb()


ANALYSIS = Analysis(rates={"banked": pl.col("banks") > 0})
