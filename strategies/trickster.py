"""Trickster heuristics, on card sets (option = suit * 13 + rank - 1)."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.trickster import (
    PIP_LIMIT, PIPS, RANK_OF, RANKS, SUIT, SUITS, points, suit_of_hand,
)

from .base import strategy
from .restrictions import restriction

GAMES = ("trickster",)
RANK = {r: bits.of(np.flatnonzero(RANK_OF == r)) for r in range(1, 14)}
AT_MOST = np.array([bits.of(np.flatnonzero(PIPS <= x)) for x in range(PIP_LIMIT + 1)], np.uint64)
FACES_FIRST_LOW = [RANK[r] for r in (13, 12, 11, *range(1, 11))]  # dump points, keep sums low
FACES_FIRST_HIGH = [RANK[r] for r in (13, 12, 11, *range(10, 0, -1))]
HIGH_PIPS_FIRST = [RANK[r] for r in (*range(10, 0, -1), 13, 12, 11)]
MOON_SURE = 7  # more than half of a suit's 13 cards: nobody can collect as many


def _first(cards, groups):
    """Per deal, a card of the first group (in preference order) that ``cards`` meets; -1 if none."""
    pick = np.zeros(cards.shape, np.uint64)
    for group in reversed(groups):
        sub = cards & group
        pick = np.where(sub != 0, sub, pick)
    return np.where(pick != 0, bits.lowest(pick), -1)


def _options(view):
    """(legal cards that keep the held hand, legal cards of the hand's suit that overflow it)."""
    hand, legal = view.hand, view.legal
    suit = suit_of_hand(hand)
    in_suit = legal & np.where(suit >= 0, SUIT[np.maximum(suit, 0)], bits.EMPTY)
    room = AT_MOST[np.clip(PIP_LIMIT - view.pips, 0, PIP_LIMIT)]
    keeps = np.where(hand == 0, legal, in_suit & room)
    return keeps, in_suit & ~room


def _suit_counts(cards) -> np.ndarray:
    return np.stack([bits.count(cards & SUIT[k]) for k in range(SUITS)], axis=1).astype(np.int64)


def _majority_cost(view, suit) -> np.ndarray:
    """Two players: what collecting the held hand (of ``suit``) changes in this seat's points,
    if each suit's majority stood as it would be then. The other seat has collected at most the
    cards of the suit that are in no tableau, not in this seat's collection and not in its hand."""
    in_suit = SUIT[np.maximum(suit, 0)]
    mine = bits.count(view.collected & in_suit).astype(np.int64)
    held = bits.count(view.hand).astype(np.int64)
    tableaux = np.bitwise_or.reduce(view.tableau, axis=1)
    theirs = RANKS - bits.count(tableaux & in_suit) - mine - held
    my_points = points(view.collected & in_suit).astype(np.int64)
    before = np.where(mine > theirs, 0, my_points)
    after = np.where(mine + held > theirs, 0, my_points + points(view.hand))
    return 10 * (after - before) - held  # in tenths: more cards of the suit break ties


def _moon_cost(view, suit) -> tuple[np.ndarray, np.ndarray]:
    """Three or more players: the cost of collecting the held hand, in tenths of a point (its
    points, or minus its size for a hand of this seat's moon suit), and the moon suit: the one it
    has collected most of, less what its own tableau still holds of it (a void there collects
    every hand of the suit that reaches it)."""
    rows = np.arange(len(view))
    got = _suit_counts(view.collected)
    left = _suit_counts(view.tableau[rows, view.seat])
    moon = (2 * got - left).argmax(axis=1)
    held = bits.count(view.hand).astype(np.int64)
    return np.where(suit == moon, -10 * held, 10 * points(view.hand)), moon


@strategy("safe", "avoids collecting points and plays for moons: keeps hands at 13 pips or "
          "under unless collecting wins the suit (2 players: a suit's majority; more: the suit "
          "it collects most of), loads heavy hands with face cards and pushes light ones towards "
          "13 for the next seat, and keeps its cheapest card for the last turn", GAMES)
def safe(view, rng):
    keeps, _ = _options(view)
    collects = view.legal & ~keeps
    suit = suit_of_hand(view.hand)
    penultimate = view.turns_left == 2  # the card kept now ends in the last hand this seat collects
    if view.players == 2:
        cost = _majority_cost(view, suit)
        load = view.hand == 0
        keep_order = FACES_FIRST_HIGH if penultimate else FACES_FIRST_LOW
    else:
        cost, moon = _moon_cost(view, suit)
        load = view.pips >= PIP_LIMIT - 10  # heavy: any high card may tip it over for the next seat
        keep_order = FACES_FIRST_HIGH if penultimate else HIGH_PIPS_FIRST
        if view.players <= 4:  # 5, 6 players: tableaux too small to spare a suit for a void
            # a new hand starts with the moon suit while the tableau holds it: towards a void
            moon_cards = view.legal & SUIT[moon]
            start = view.hand == 0
            load |= start
            keeps = np.where(start & (moon_cards != 0), moon_cards, keeps)
            moon_collects = collects & moon_cards
            collects = np.where(moon_collects != 0, moon_collects, collects)
    gain = -cost  # tenths of a point this seat saves by collecting now rather than keeping
    if penultimate:  # and the costliest card each choice gets rid of
        gain = gain + 10 * (_most_points(collects) - _most_points(keeps))
    collect = (keeps == 0) | ((collects != 0) & (gain > 0))
    cards = np.where(collect, collects, keeps)
    return np.where(collect | load, _first(cards, FACES_FIRST_HIGH), _first(cards, keep_order))


def _most_points(cards) -> np.ndarray:
    """Points of the costliest card in each set (0 for an empty set)."""
    out = np.where(cards != 0, 1, 0)
    for r in (11, 12, 13):
        out = np.where((cards & RANK[r]) != 0, r - 9, out)
    return out


@strategy("spoiler", "loads nearly full hands with face cards for the next players, pushes "
          "light hands towards 13 with high cards, and collects hands of a suit it already "
          "holds 7 of (a sure moon) or, with 2 players, hands that win it a suit's majority", GAMES)
def spoiler(view, rng):
    keeps, overflows = _options(view)
    mine = view.collected
    moon = np.zeros(len(view), np.uint64)
    for k in range(SUITS):
        moon |= np.where(bits.count(mine & SUIT[k]) >= MOON_SURE, SUIT[k], bits.EMPTY)
    take = (view.hand & moon) != 0  # a hand of my moon suit: take it
    if view.players == 2:  # what the one other seat collects wins it majorities: take those first
        take |= _majority_cost(view, suit_of_hand(view.hand)) < 0
    grab = np.where(take, overflows, bits.EMPTY)
    heavy = view.pips >= PIP_LIMIT - 10  # any high card may tip it over for the next seat
    load = np.where(heavy, _first(keeps, FACES_FIRST_HIGH), _first(keeps, HIGH_PIPS_FIRST))
    return np.where(grab != 0, _first(grab, HIGH_PIPS_FIRST),
                    np.where(keeps != 0, load, _first(view.legal, FACES_FIRST_HIGH)))


@restriction("no-collect", "never collects by choice: follows the held hand's suit and keeps it "
             "at 13 pips or under whenever it can", "never collecting by choice", ("play",))
def no_collect(view):
    keeps = SUIT[np.maximum(suit_of_hand(view.hand), 0)] & AT_MOST[np.clip(PIP_LIMIT - view.pips, 0, PIP_LIMIT)]
    return np.where(view.hand == 0, view.legal, keeps)


RESTRICTIONS = (no_collect,)
