"""Hearts heuristics, on card sets (option = suit * 13 + rank - 1: 2C = 0 .. AS = 51).

Every choice is "the highest" or "the lowest" card of some set: within one suit that is its
highest or lowest bit; across suits, the suits are folded onto one set of 13 ranks first."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.hearts import ACE, HEART, KING, LAYOUT, PASS, QUEEN, RANKS, SPADES, SUIT
from simtool.games.tricks import FOLLOW, LEAD

from .base import MISTAKES, forced, strategy, with_mistakes
from .restrictions import restriction

GAMES = ("hearts",)
Q = bits.BIT[QUEEN]
HIGH_SPADES = bits.BIT[KING] | bits.BIT[ACE]  # they catch the queen while it is out
ALL_RANKS = np.uint64((1 << RANKS) - 1)


def _ranks(cards: np.ndarray) -> np.ndarray:
    """The ranks present in each set, any suit: bit r - 1 for rank r."""
    r = np.uint64(RANKS)
    return (cards | (cards >> r) | (cards >> (2 * r)) | (cards >> (3 * r))) & ALL_RANKS


def _lowest_rank(cards: np.ndarray) -> np.ndarray:
    """A card of the lowest rank in each set (of those, the lowest suit)."""
    return bits.lowest(cards & LAYOUT.rank[np.minimum(bits.lowest(_ranks(cards)), RANKS - 1)])


def _highest_rank(cards: np.ndarray) -> np.ndarray:
    """A card of the highest rank in each set (of those, the lowest suit)."""
    return bits.lowest(cards & LAYOUT.rank[np.maximum(bits.highest(_ranks(cards), RANKS), 0)])


def _first(*choices) -> np.ndarray:
    """The first of several ``(cards, pick)`` pairs whose card set is not empty, per deal; the
    last pick stands where every set is empty."""
    picked = choices[-1][1](choices[-1][0])
    for cards, pick in reversed(choices[:-1]):
        picked = bits.where(cards != 0, pick(cards), picked)
    return picked


def _queen_out(view) -> np.ndarray:
    """The queen of spades is in another hand (not played, not held nor being passed), ``(m,)``."""
    return ((view.played | (view.hand & ~view.passing)) & Q) == 0


def _most_dangerous(view, cards: np.ndarray) -> np.ndarray:
    """The card that hurts most to keep: the queen of spades, then the ace and king of spades
    while the queen is out, then the highest heart, then the highest card."""
    high = cards & bits.where(_queen_out(view), HIGH_SPADES, bits.EMPTY)
    return _first((cards & Q, bits.lowest), (high, bits.highest), (cards & HEART, bits.highest),
                  (cards, _highest_rank))


def _lead(view, flush: np.ndarray) -> np.ndarray:
    """The lowest card but the queen of spades, and but the high spades while the queen is out
    (the high spades before the queen when nothing else is left); with ``flush`` ``(m,)``, the
    lowest spade first, to draw the queen out."""
    risky = Q | bits.where(_queen_out(view), HIGH_SPADES, bits.EMPTY)
    safe = view.legal & ~risky
    spades = bits.where(flush, safe & SUIT[SPADES], bits.EMPTY)
    return _first((spades, bits.lowest), (safe, _lowest_rank), (view.legal & ~Q, bits.lowest),
                  (view.legal, bits.lowest))


def _follow(view) -> np.ndarray:
    """Duck: the highest card that loses the trick; forced to win, the highest card (not the
    queen) when last to play, else the lowest; void in the led suit, the most dangerous card."""
    following = (view.legal & SUIT[view.led_suit]) != 0
    losers = view.legal & ~view.winners_now
    last = view.step == view.players - 1
    take = _first((view.legal & ~Q, bits.highest if last else bits.lowest), (view.legal, bits.lowest))
    duck = bits.where(losers != 0, bits.highest(losers), take)
    return bits.where(following, duck, _most_dangerous(view, view.legal))


def _ducker(view, flush: np.ndarray) -> np.ndarray:
    if (only := forced(view)) is not None:
        return only
    if view.kind == PASS:
        return _most_dangerous(view, view.legal)
    if view.kind == LEAD:
        return _lead(view, flush)
    return _follow(view)


@strategy("ducker", "passes its most dangerous cards (the queen, ace and king of spades, high "
          "hearts), leads low, ducks with the highest card that still loses, and when void throws "
          "the queen of spades first, then high spades and high hearts", GAMES, (MISTAKES,))
def ducker(view, rng, params):
    return with_mistakes(view, rng, params.mistakes, _ducker(view, np.zeros(len(view), bool)))


@strategy("hunter", "plays as ducker, but leads low spades to flush the queen out while it holds "
          "none of the queen, king and ace of spades", GAMES, (MISTAKES,))
def hunter(view, rng, params):
    flush = ((view.hand & (Q | HIGH_SPADES)) == 0) & _queen_out(view)
    return with_mistakes(view, rng, params.mistakes, _ducker(view, flush))


@restriction("no-queen-dump", "never throws the queen of spades onto a trick of another suit",
             "never dumping the queen", (FOLLOW,))
def no_queen_dump(view):
    following = (view.legal & SUIT[view.led_suit]) != 0
    return bits.where(following, view.legal, view.legal & ~Q)


@restriction("keep-queen", "never passes the queen of spades", "never passing the queen", (PASS,))
def keep_queen(view):
    return view.legal & ~Q


RESTRICTIONS = (no_queen_dump, keep_queen)
