"""Kansas City heuristics, on card sets (option = suit * 8 + rank - 1; 56 = decline)."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.kansas_city import (
    DECLINE,
    FOURS,
    PASS,
    RANK,
    SUIT,
    SUITS,
    UPGRADE,
    of_ranks,
    rank_byte,
)
from simtool.games.tricks import LEAD

from .base import MISTAKES, Param, strategy, with_mistakes
from .restrictions import restriction

GAMES = ("kansas-city",)
ALL_RANKS = np.uint64(0xFF)


def _lowest_rank(cards):
    """The card of lowest rank in each set (any suit)."""
    r = bits.lowest(rank_byte(cards))
    return bits.lowest(cards & RANK[np.minimum(r, 7)])


def _highest_rank(cards):
    r = bits.highest(rank_byte(cards), 8)
    # one rank holds a card every 8 bits at most, so a float64 of the set rounds without carrying
    # into a higher bit: the exact 53-bit path of bits.highest is right, and faster
    return bits.highest(cards & RANK[np.maximum(r, 0)], 53)


def _beaters(view) -> np.ndarray:
    """Legal cards that would take the lead of the trick as it stands."""
    legal, trump = view.legal, view.trump
    best = view.best
    above = lambda r: of_ranks(ALL_RANKS & ~bits.below(np.clip(r, 0, 8)))  # ranks above r
    over_trump = legal & trump & above(best - 16)
    over_suit = (legal & ~trump & SUIT[view.led_suit] & above(best)) | (legal & trump)
    return np.where(best >= 16, over_trump, over_suit)


def _cheapest_winner(view, beaters):
    """Win with a led-suit card if one does, else the lowest trump that does."""
    plain = beaters & ~view.trump
    return np.where(plain != 0, _lowest_rank(plain), _lowest_rank(beaters))


def _strongest(view, cards):
    trumps = cards & view.trump
    return np.where(trumps != 0, _highest_rank(trumps), _highest_rank(cards))


def _weakest(view, cards):
    plain = cards & ~view.trump
    return np.where(plain != 0, _lowest_rank(plain), _lowest_rank(cards))


def _needs(view, under: int = 0) -> np.ndarray:
    at = np.arange(len(view)) * view.players + view.seat  # flat cells: np.take beats [rows, seat]
    return np.take(view.tricks, at) < view.limit - under


def _singleton_upgrade(view) -> np.ndarray:
    """The highest eligible card that is alone in its suit: upgrading it voids the suit."""
    hand = view.hand & ~view.trump
    eligible = view.legal & ~bits.BIT[DECLINE]
    alone = np.zeros(len(view), np.uint64)
    for s in range(SUITS):
        in_suit = hand & SUIT[s]
        alone |= np.where(bits.count(in_suit) == 1, in_suit, bits.EMPTY)
    pick = alone & eligible
    return np.where(pick != 0, _highest_rank(pick), DECLINE)


UNDER = Param("under", int, 0, "aim this many tricks below the limit (1: at 2 tricks in 4p, "
              "1 in 5p), a safer plan that gives up points for a margin against overshooting",
              0, 3)


@strategy("target", "aims at exactly the trick limit: passes high cards, wins cheaply while "
          "below the limit, ducks once there (keeping 4s away from others), upgrades singletons "
          "while it needs tricks", GAMES, (UNDER, MISTAKES))
def target(view, rng, params):
    return with_mistakes(view, rng, params.mistakes, _target(view, params.under))


def _target(view, under):
    needs = _needs(view, under)
    if view.kind == PASS:
        return _highest_rank(view.legal)
    if view.kind == UPGRADE:
        return np.where(needs & (view.tricks_left > 1), _singleton_upgrade(view), DECLINE)
    if view.kind == LEAD:
        return np.where(needs, _strongest(view, view.legal), _weakest(view, view.legal))
    beaters = _beaters(view)
    win = np.where(beaters != 0, _cheapest_winner(view, beaters), _weakest(view, view.legal))
    return np.where(needs, win, _duck(view, beaters))


def _duck(view, beaters):
    """Lose the trick with the strongest card that loses (a 4 only if nothing else does)."""
    losers = view.legal & ~beaters
    safe = np.where((losers & ~FOURS) != 0, losers & ~FOURS, losers)  # a 4 thrown in scores for the taker
    return np.where(losers != 0, _strongest(view, safe), _strongest(view, view.legal))


@strategy("greedy", "takes every trick it can, as cheaply as it can, until it reaches the trick "
          "limit, then ducks every trick it can; passes its low cards and upgrades its highest "
          "eligible card while below the limit", GAMES)
def greedy(view, rng):
    needs = _needs(view)
    if view.kind == PASS:
        return _lowest_rank(view.legal)
    if view.kind == UPGRADE:
        eligible = view.legal & ~bits.BIT[DECLINE]
        return np.where(needs & (eligible != 0), _highest_rank(eligible), DECLINE)
    if view.kind == LEAD:
        return np.where(needs, _strongest(view, view.legal), _weakest(view, view.legal))
    beaters = _beaters(view)
    win = np.where(beaters != 0, _cheapest_winner(view, beaters), _weakest(view, view.legal))
    return np.where(needs, win, _duck(view, beaters))


@restriction("no-upgrade", "never upgrades a card to trump (always declines)", "never upgrading",
             (UPGRADE,))
def no_upgrade(view):
    return np.full(len(view), bits.BIT[DECLINE])


@restriction("pass-high", "always passes its highest-ranked cards", "always passing the highest "
             "cards", (PASS,))
def pass_high(view):
    return view.legal & RANK[np.maximum(bits.highest(rank_byte(view.legal), 8), 0)]


RESTRICTIONS = (no_upgrade, pass_high)
