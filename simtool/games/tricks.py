"""What the trick-taking games share: a card going into the trick, and who is winning it.

Round states using these have ``p``, ``hands`` ``(n, p)``, ``played`` ``(n,)``, ``trick``
``(n, p)``, ``best`` and ``winning`` ``(n,)``.
"""

from __future__ import annotations

import numpy as np

from .. import bits
from ..engine import Field, put


def play_card(s, at: np.ndarray, card: np.ndarray, rows: np.ndarray | None = None) -> None:
    """The seats at flat cells ``at`` put ``card`` from their hands into the trick.

    ``rows``: the deals concerned, when not every deal of the batch plays.
    """
    card_bit = bits.BIT[card]
    put(s.hands, at, np.take(s.hands, at) & ~card_bit)
    if rows is None:
        s.played |= card_bit
    else:
        s.played[rows] |= card_bit
    put(s.trick, at, card)


def contest(s, seat: np.ndarray, strength: np.ndarray) -> None:
    """A card of ``strength`` from ``seat`` takes the lead of the trick where it is stronger."""
    beats = strength > s.best
    s.best = np.where(beats, strength, s.best)
    s.winning = np.where(beats, seat, s.winning)


def init_history(s, tricks: int) -> None:
    """Give a fresh round state its empty trick history (for ``tricks`` tricks at most)."""
    if s.past is None:
        s.past = np.full((s.n, tricks, s.p), -1, np.int8)
        s.past_leader = np.full((s.n, tricks), -1, np.int8)
        s.past_winner = np.full((s.n, tricks), -1, np.int8)


def record_trick(s, rows=None) -> None:
    """File the finished trick ``s.trick_no`` (its cards, leader and winner) in the history.

    ``rows``: the deals in which a trick was played, when not all of them.
    """
    t = s.trick_no
    if rows is None:
        s.past[:, t] = s.trick
        s.past_leader[:, t] = s.leader
        s.past_winner[:, t] = s.winning
    else:
        s.past[rows, t] = s.trick[rows]
        s.past_leader[rows, t] = s.leader[rows]
        s.past_winner[rows, t] = s.winning[rows]


def _history(s, rows, seat):
    past = s.past.copy() if rows is None else s.past[rows]
    if s.trick_no < past.shape[1]:  # the trick under way, as far as it has gone
        past[:, s.trick_no] = s.trick if rows is None else s.trick[rows]
    return past


def _leaders(s, rows, seat):
    past = s.past_leader.copy() if rows is None else s.past_leader[rows]
    if s.trick_no < past.shape[1]:
        past[:, s.trick_no] = s.leader if rows is None else s.leader[rows]
    return past


HISTORY = Field(_history, "Card each seat played in every trick of the round, -1 not (yet) played, "
                "``(m, T, p)`` int8 (``T`` tricks; trick ``trick_no`` is the one under way).")
LEADERS = Field(_leaders, "Seat that led each trick, -1 for tricks not yet led, ``(m, T)`` int8.")
WINNERS = Field(lambda s, rows, seat: s.past_winner.copy() if rows is None else s.past_winner[rows],
                "Seat that won each finished trick, -1 for tricks not finished, ``(m, T)`` int8.")
