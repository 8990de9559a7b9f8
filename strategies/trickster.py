"""Trickster heuristics, on card sets (option = suit * 13 + rank - 1)."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.trickster import PIP_LIMIT, PIPS, RANK_OF, SUIT, SUITS, suit_of_hand

from .base import strategy

GAMES = ("trickster",)
RANK = {r: bits.of(np.flatnonzero(RANK_OF == r)) for r in range(1, 14)}
AT_MOST = np.array([bits.of(np.flatnonzero(PIPS <= x)) for x in range(PIP_LIMIT + 1)], np.uint64)
FACES_FIRST_LOW = [RANK[r] for r in (13, 12, 11, *range(1, 11))]  # dump points, keep sums low
FACES_FIRST_HIGH = [RANK[r] for r in (13, 12, 11, *range(10, 0, -1))]
HIGH_PIPS_FIRST = [RANK[r] for r in (*range(10, 0, -1), 13, 12, 11)]
MOON_SURE = 7  # more than half of a suit's 13 cards: nobody can collect as many


def _first(cards, groups):
    """Per deal, a card of the first group (in preference order) that ``cards`` meets."""
    choice = np.full(cards.shape, -1, np.int64)
    for group in reversed(groups):
        sub = cards & group
        choice = np.where(sub != 0, bits.lowest(sub), choice)
    return choice


def _options(view):
    """(legal cards that keep the held hand, legal cards of the hand's suit that overflow it)."""
    hand, legal = view.hand, view.legal
    suit = suit_of_hand(hand)
    in_suit = legal & np.where(suit >= 0, SUIT[np.maximum(suit, 0)], bits.EMPTY)
    room = AT_MOST[np.clip(PIP_LIMIT - view.pips, 0, PIP_LIMIT)]
    keeps = np.where(hand == 0, legal, in_suit & room)
    return keeps, in_suit & ~room


@strategy("safe", "avoids collecting: adds a card that keeps the pip sum at 13 or under "
          "(face cards first, to pass their points on); when it must collect, starts the new "
          "hand with its most costly card", GAMES)
def safe(view, rng):
    keeps, _ = _options(view)
    return np.where(keeps != 0, _first(keeps, FACES_FIRST_LOW), _first(view.legal, FACES_FIRST_HIGH))


@strategy("spoiler", "loads nearly full hands with face cards for the next players, pushes "
          "light hands towards 13 with high cards, and collects hands of a suit it already "
          "holds 7 of (a sure moon)", GAMES)
def spoiler(view, rng):
    keeps, overflows = _options(view)
    mine = view.collected
    moon = np.zeros(len(view), np.uint64)
    for k in range(SUITS):
        moon |= np.where(bits.count(mine & SUIT[k]) >= MOON_SURE, SUIT[k], bits.EMPTY)
    grab = overflows & ((view.hand & moon) != 0)  # a hand of my moon suit: take it
    heavy = view.pips >= PIP_LIMIT - 10  # any high card may tip it over for the next seat
    load = np.where(heavy, _first(keeps, FACES_FIRST_HIGH), _first(keeps, HIGH_PIPS_FIRST))
    return np.where(grab != 0, _first(grab, HIGH_PIPS_FIRST),
                    np.where(keeps != 0, load, _first(view.legal, FACES_FIRST_HIGH)))
