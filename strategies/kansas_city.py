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
    UPGRADE,
    of_ranks,
    rank_byte,
)
from simtool.games.tricks import LEAD

from .base import MISTAKES, Param, forced, strategy, with_mistakes
from .restrictions import restriction

GAMES = ("kansas-city",)
ALL_RANKS = np.uint64(0xFF)


def _by_rank_byte(rank_of) -> np.ndarray:
    """For each rank byte (bit r for rank r + 1), every card of the rank ``rank_of`` picks in it;
    no card for the empty byte. One lookup replaces finding the rank and then its cards."""
    table = np.zeros(256, np.uint64)
    for byte in range(1, 256):
        table[byte] = RANK[rank_of(byte)]
    return table


LOWEST_RANK = _by_rank_byte(lambda byte: (byte & -byte).bit_length() - 1)
HIGHEST_RANK = _by_rank_byte(lambda byte: byte.bit_length() - 1)
ABOVE = np.array([of_ranks(ALL_RANKS & ~bits.below(min(best % 16, 8))) for best in range(32)])
"""``ABOVE[best]``: the cards of ranks above the winning card's (``best``: its rank, + 16 if trump)."""


def _of_rank(table, cards):
    """The cards of ``cards`` of the one rank ``table`` picks among the ranks they hold."""
    return cards & table.take(rank_byte(cards).view(np.int64))


def _lowest_rank(cards):
    """The card of lowest rank in each set (any suit)."""
    return bits.lowest(_of_rank(LOWEST_RANK, cards))


def _highest_rank(cards):
    # one rank holds a card every 8 bits at most, so a float64 of the set rounds without carrying
    # into a higher bit: the exact 53-bit path of bits.highest is right, and faster
    return bits.highest(_of_rank(HIGHEST_RANK, cards), 53)


def _beaters(view) -> np.ndarray:
    """Legal cards that would take the lead of the trick as it stands."""
    legal, trump = view.legal, view.trump
    trumped = (view.best >= 16).astype(np.uint64)  # a trump leads: only a higher trump beats it
    plain = np.uint64(1) - trumped  # else a higher card of the led suit, or any trump
    led = SUIT.take(view.led_suit) & ~trump  # (led_suit is -1, trump led, only when trumped)
    # products, not np.where: the condition changes from deal to deal (see bits.first_of)
    return legal & (ABOVE.take(view.best) & (trump * trumped | led * plain) | trump * plain)


def _strongest(view, cards):
    """The highest-ranked trump, or without one the highest-ranked card."""
    return _highest_rank(bits.first_of(cards & view.trump, cards))


def _weakest(view, cards):
    """The lowest-ranked card of another suit than trump, or without one the lowest trump."""
    return _lowest_rank(bits.first_of(cards & ~view.trump, cards))


def _either(condition, chosen, otherwise):
    """``bits.where(condition, chosen, otherwise)`` on option numbers, as a product (bits.first_of)."""
    return otherwise + condition * (chosen - otherwise)


def _needs(view, under: int = 0) -> np.ndarray:
    at = np.arange(len(view)) * view.players + view.seat  # flat cells: a take beats [rows, seat]
    return view.tricks.take(at) < view.limit - under


def _singleton_upgrade(view) -> np.ndarray:
    """The highest eligible card that is alone in its suit: upgrading it voids the suit."""
    hand = view.hand & ~view.trump
    eligible = view.legal & ~bits.BIT[DECLINE]
    # suit s is byte s of a set: count each byte's cards, keep the bytes holding exactly one
    alone_suits = (np.bitwise_count(hand.view(np.uint8)) == 1).view(np.uint64) * ALL_RANKS
    pick = hand & alone_suits & eligible
    return bits.where(pick != 0, _highest_rank(pick), DECLINE)


UNDER = Param("under", int, 0, "aim this many tricks below the limit (1: at 2 tricks in 4p, "
              "1 in 5p), a safer plan that gives up points for a margin against overshooting",
              0, 3)


@strategy("target", "aims at exactly the trick limit: passes high cards, wins cheaply while "
          "below the limit, ducks once there (keeping 4s away from others), upgrades singletons "
          "while it needs tricks", GAMES, (UNDER, MISTAKES))
def target(view, rng, params):
    return with_mistakes(view, rng, params.mistakes, _target(view, params.under))


def _target(view, under):
    if (only := forced(view)) is not None:
        return only
    needs = _needs(view, under)
    if view.kind == PASS:
        return _highest_rank(view.legal)
    if view.kind == UPGRADE:
        return bits.where(needs & (view.tricks_left > 1), _singleton_upgrade(view), DECLINE)
    if view.kind == LEAD:
        return _either(needs, _strongest(view, view.legal), _weakest(view, view.legal))
    return _follow(view, needs)


def _follow(view, needs):
    """Below the limit, win as cheaply as possible (or throw the weakest card when nothing wins);
    at the limit, duck."""
    beaters = _beaters(view)
    win = _weakest(view, bits.first_of(beaters, view.legal))  # a led-suit winner before a trump
    return _either(needs, win, _duck(view, beaters))


def _duck(view, beaters):
    """Lose the trick with the strongest card that loses (a 4 only if nothing else does)."""
    losers = view.legal & ~beaters
    safe = bits.first_of(losers & ~FOURS, losers)  # a 4 thrown in scores for the taker
    return _strongest(view, bits.first_of(safe, view.legal))


@strategy("greedy", "takes every trick it can, as cheaply as it can, until it reaches the trick "
          "limit, then ducks every trick it can; passes its low cards and upgrades its highest "
          "eligible card while below the limit", GAMES)
def greedy(view, rng):
    needs = _needs(view)
    if view.kind == PASS:
        return _lowest_rank(view.legal)
    if view.kind == UPGRADE:
        eligible = view.legal & ~bits.BIT[DECLINE]
        return bits.where(needs & (eligible != 0), _highest_rank(eligible), DECLINE)
    if view.kind == LEAD:
        return _either(needs, _strongest(view, view.legal), _weakest(view, view.legal))
    return _follow(view, needs)


@restriction("no-upgrade", "never upgrades a card to trump (always declines)", "never upgrading",
             (UPGRADE,))
def no_upgrade(view):
    return np.full(len(view), bits.BIT[DECLINE])


@restriction("pass-high", "always passes its highest-ranked cards", "always passing the highest "
             "cards", (PASS,))
def pass_high(view):
    return _of_rank(HIGHEST_RANK, view.legal)


RESTRICTIONS = (no_upgrade, pass_high)
