"""Trickster heuristics, on card sets (option = suit * ranks + rank - 1)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from simtool import bits
from simtool.games.trickster import SUITS, TURN, Deck, deck_for, points, suit_of_hand

from .base import forced, strategy
from .restrictions import restriction

GAMES = ("trickster",)


@dataclass(frozen=True)
class Orders:
    """Card groups of one deck, in the orders these heuristics prefer them."""

    at_most: np.ndarray  # (pip_limit + 1,) sets: the cards of at most x pips
    faces_first_low: tuple  # dump points (costliest face first), keep sums low
    faces_first_high: tuple
    high_pips_first: tuple
    moon_sure: int  # more than half of a suit: nobody can collect as many
    top_pip: int  # the highest pip card


@cache
def _orders(d: Deck) -> Orders:
    ranks, top = d.ranks, d.pip_ranks
    rank = {r: d.layout.rank[r - 1] for r in range(1, ranks + 1)}
    value = dict(zip(range(top + 1, ranks + 1), d.points[1:], strict=True))
    faces = sorted(value, key=lambda r: (-value[r], -r))  # costliest first (the sheet: K, Q, J)
    at_most = np.array([bits.of(np.flatnonzero((d.pips <= x) & (np.arange(len(d.pips)) < d.cards)))
                        for x in range(d.pip_limit + 1)], np.uint64)
    return Orders(at_most, tuple(rank[r] for r in (*faces, *range(1, top + 1))),
                  tuple(rank[r] for r in (*faces, *range(top, 0, -1))),
                  tuple(rank[r] for r in (*range(top, 0, -1), *faces)), ranks // 2 + 1, top)


def _deck(view) -> Deck:
    return deck_for(view.ranks, view.pip_limit, view.points)


def _first(cards, groups):
    """Per deal, a card of the first group (in preference order) that ``cards`` meets; -1 if none."""
    pick = np.zeros(cards.shape, np.uint64)
    for group in reversed(groups):
        sub = cards & group
        pick = bits.first_of(sub, pick)
    return bits.where(pick != 0, bits.lowest(pick), -1)


def _options(view):
    """(legal cards that keep the held hand, legal cards of the hand's suit that overflow it)."""
    hand, legal, d = view.hand, view.legal, _deck(view)
    in_suit = legal & d.layout.suit_cards(suit_of_hand(hand, d.ranks))
    room = _room(view, d)
    keeps = bits.where(hand == 0, legal, in_suit & room)
    return keeps, in_suit & ~room


def _room(view, d: Deck) -> np.ndarray:
    """The cards the held hand can take without overflowing: none once a lone card is above the
    limit (a limit below the highest pip card), as then even a face takes the sum over it."""
    room = _orders(d).at_most[bits.clamp(d.pip_limit - view.pips, 0, d.pip_limit)]
    return bits.where(view.pips > d.pip_limit, bits.EMPTY, room)


def _suit_counts(cards, d: Deck) -> np.ndarray:
    # filled column by column: np.stack's Python wrapper costs more than the counts on a small batch
    counts = np.empty((len(cards), SUITS), np.int64)
    for k in range(SUITS):
        counts[:, k] = bits.count(cards & d.layout.suit[k])
    return counts


def _majority_cost(view, suit) -> np.ndarray:
    """Two players: what collecting the held hand (of ``suit``) changes in this seat's points,
    if each suit's majority stood as it would be then. The other seat has collected at most the
    cards of the suit that are in no tableau, not in this seat's collection and not in its hand."""
    d = _deck(view)
    in_suit = d.layout.suit[np.maximum(suit, 0)]
    mine = bits.count(view.collected & in_suit).astype(np.int64)
    held = bits.count(view.hand).astype(np.int64)
    tableaux = np.bitwise_or.reduce(view.tableau, axis=1)
    theirs = d.ranks - bits.count(tableaux & in_suit) - mine - held
    my_points = points(view.collected & in_suit, d).astype(np.int64)
    before = bits.where(mine > theirs, 0, my_points)
    after = bits.where(mine + held > theirs, 0, my_points + points(view.hand, d))
    return 10 * (after - before) - held  # in tenths: more cards of the suit break ties


def _moon_cost(view, suit) -> tuple[np.ndarray, np.ndarray]:
    """Three or more players: the cost of collecting the held hand, in tenths of a point (its
    points, or minus its size for a hand of this seat's moon suit), and the moon suit: the one it
    has collected most of, less what its own tableau still holds of it (a void there collects
    every hand of the suit that reaches it)."""
    rows, d = np.arange(len(view)), _deck(view)
    got = _suit_counts(view.collected, d)
    left = _suit_counts(view.tableau[rows, view.seat], d)
    moon = (2 * got - left).argmax(axis=1)
    held = bits.count(view.hand).astype(np.int64)
    return bits.where(suit == moon, -10 * held, 10 * points(view.hand, d)), moon


@strategy("safe", "avoids collecting points and plays for moons: keeps hands within the pip limit "
          "unless collecting wins the suit (2 players: a suit's majority; more: the suit "
          "it collects most of), loads heavy hands with face cards and pushes light ones towards "
          "the limit for the next seat, and keeps its cheapest card for the last turn", GAMES)
def safe(view, rng):
    if (only := forced(view)) is not None:
        return only
    d = _deck(view)
    order = _orders(d)
    keeps, _ = _options(view)
    collects = view.legal & ~keeps
    suit = suit_of_hand(view.hand, d.ranks)
    penultimate = view.turns_left == 2  # the card kept now ends in the last hand this seat collects
    if view.players == 2:
        cost = _majority_cost(view, suit)
        load = view.hand == 0
        keep_order = order.faces_first_high if penultimate else order.faces_first_low
    else:
        cost, moon = _moon_cost(view, suit)
        # heavy: any high card may tip it over for the next seat
        load = view.pips >= d.pip_limit - order.top_pip
        keep_order = order.faces_first_high if penultimate else order.high_pips_first
        if view.players <= 4:  # 5, 6 players: tableaux too small to spare a suit for a void
            # a new hand starts with the moon suit while the tableau holds it: towards a void
            moon_cards = view.legal & d.layout.suit[moon]
            start = view.hand == 0
            load |= start
            keeps = bits.where(start & (moon_cards != 0), moon_cards, keeps)
            moon_collects = collects & moon_cards
            collects = bits.first_of(moon_collects, collects)
    gain = -cost  # tenths of a point this seat saves by collecting now rather than keeping
    if penultimate:  # and the costliest card each choice gets rid of
        gain = gain + 10 * (_most_points(collects, d) - _most_points(keeps, d))
    collect = (keeps == 0) | ((collects != 0) & (gain > 0))
    cards = bits.where(collect, collects, keeps)
    return bits.where(collect | load, _first(cards, order.faces_first_high), _first(cards, keep_order))


def _most_points(cards, d: Deck) -> np.ndarray:
    """Points of the costliest card in each set (0 for an empty set)."""
    out = np.zeros(cards.shape, np.int64)
    for value, group in sorted(d.point_groups, key=lambda g: g[0]):
        out = bits.where((cards & group) != 0, value, out)
    return out


@strategy("spoiler", "loads nearly full hands with face cards for the next players, pushes "
          "light hands towards the pip limit with high cards, and collects hands of a suit it already "
          "holds more than half of (a sure moon) or, with 2 players, hands that win it a suit's majority", GAMES)
def spoiler(view, rng):
    d = _deck(view)
    order = _orders(d)
    keeps, overflows = _options(view)
    mine = view.collected
    moon = np.zeros(len(view), np.uint64)
    for k in range(SUITS):
        suit = d.layout.suit[k]
        moon |= bits.where(bits.count(mine & suit) >= order.moon_sure, suit, bits.EMPTY)
    take = (view.hand & moon) != 0  # a hand of my moon suit: take it
    if view.players == 2:  # what the one other seat collects wins it majorities: take those first
        take |= _majority_cost(view, suit_of_hand(view.hand, d.ranks)) < 0
    grab = bits.where(take, overflows, bits.EMPTY)
    heavy = view.pips >= d.pip_limit - order.top_pip  # any high card may tip it over for the next seat
    load = bits.where(heavy, _first(keeps, order.faces_first_high), _first(keeps, order.high_pips_first))
    return bits.where(grab != 0, _first(grab, order.high_pips_first),
                    bits.where(keeps != 0, load, _first(view.legal, order.faces_first_high)))


@restriction("no-collect", "never collects by choice: follows the held hand's suit and keeps it "
             "within the pip limit whenever it can", "never collecting by choice", (TURN,))
def no_collect(view):
    d = _deck(view)
    keeps = d.layout.suit[np.maximum(suit_of_hand(view.hand, d.ranks), 0)] & _room(view, d)
    return bits.where(view.hand == 0, view.legal, keeps)


RESTRICTIONS = (no_collect,)
