"""What the trick-taking games share: a card going into the trick, and who is winning it.

Round states using these have ``p``, ``hands`` ``(n, p)``, ``played`` ``(n,)``, ``trick``
``(n, p)``, ``best`` and ``winning`` ``(n,)``.
"""

from __future__ import annotations

import numpy as np

from .. import bits
from ..engine import put


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
