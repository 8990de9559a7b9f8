"""Out-Trumped heuristics, on card sets (option = suit * ranks + rank - 1; at bids, 0 = pass).

The deck's shape is a rule option: every table comes from ``view.layout``."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.out_trumped import BID, DISCARD, PASS, TRUMP
from simtool.games.tricks import LEAD

from .base import strategy
from .restrictions import restriction

GAMES = ("out-trumped",)


def _high_cards(layout):
    """The three highest ranks in every suit (with the sheet's deck: 10, J and the Ace)."""
    return np.bitwise_or.reduce(layout.rank[-3:])


def _by_rank(layout, cards, highest: bool):
    """Per deal, a card of the highest (or lowest) rank present; -1 for an empty set."""
    # the suits folded onto one another: bit r holds where any suit has rank r + 1 (a pass per
    # suit over the sets costs a third of testing every rank)
    width = np.uint64((1 << layout.ranks) - 1)
    ranks = cards & width
    for s in range(1, layout.suits):
        ranks = ranks | ((cards >> np.uint64(s * layout.ranks)) & width)
    r = bits.highest(ranks, layout.ranks) if highest else bits.lowest(ranks)
    return np.where(cards != 0, bits.lowest(cards & layout.rank[np.clip(r, 0, layout.ranks - 1)]), -1)


def _prefer(layout, first, then, highest: bool):
    """A card of ``first`` if any (by rank), else of ``then``."""
    return _by_rank(layout, np.where(first != 0, first, then), highest)


def _long_suit(layout, hand):
    counts = np.stack([bits.count(hand & layout.suit[s]) for s in range(layout.suits)], axis=1)
    return counts.argmax(axis=1)


def _bid(view, estimate):
    """Bid the estimate when it beats the standing bid (and fits the hand), else pass."""
    bid = np.minimum(estimate, view.hand_size)
    return np.where(bid > view.standing, bid, PASS)


def _trick_trumps(view):
    cards = np.where(view.trick >= 0, bits.BIT[np.maximum(view.trick, 0)], bits.EMPTY)
    return bits.count(np.bitwise_or.reduce(cards, axis=1) & view.layout.suit_cards(view.trump))


def _play(view, want):
    """Win as cheaply as possible where ``want``, else lose with the lowest card that loses
    (keeping high cards for the tricks to come)."""
    layout = view.layout
    trumps = layout.suit_cards(view.trump)
    win = view.winners_now
    cheapest = _prefer(layout, win & ~trumps, win, highest=False)
    lose = view.legal & ~win
    shed = _prefer(layout, lose & ~trumps, lose, highest=False)
    lowest = _prefer(layout, view.legal & ~trumps, view.legal, highest=False)
    return np.where(want & (win != 0), cheapest, np.where(lose != 0, shed, lowest))


def _boss(view, cards):
    """Cards of ``cards`` that no unseen card of their suit outranks."""
    layout = view.layout
    unseen = layout.deck & ~(view.hand | view.played)
    out = np.zeros(len(view), np.uint64)
    for s in range(layout.suits):
        shift = np.uint64(s * layout.ranks)  # the suit's cards as a small number: a fast highest()
        top = bits.highest((unseen & layout.suit[s]) >> shift, layout.ranks)  # -1: none unseen
        out |= cards & layout.suit[s] & ~(bits.below(top + 1) << shift)
    return out


def _short_low(view, cards):
    """The lowest of ``cards`` in the suit the hand is shortest in (playing towards a void)."""
    layout = view.layout
    counts = np.stack([np.where((cards & layout.suit[s]) != 0, bits.count(view.hand & layout.suit[s]), 99)
                       for s in range(layout.suits)], axis=1)
    # within one suit the lowest card is the lowest rank
    return np.where(cards != 0, bits.lowest(cards & layout.suit[counts.argmin(axis=1)]), -1)


@strategy("hoarder", "plays for trumps and tricks: names its long suit trump, leads its "
          "unbeatable trumps while others may hold trumps (each follower must add one), then its "
          "unbeatable plain cards, else low from its shortest suit; wins as cheaply as it can "
          "(surely if it can), else throws a low plain card", GAMES)
def hoarder(view, rng):
    return _hoard(view, cheap_ruff=False)


@strategy("ruffer", "hoarder, but ruffs a plain trick with its cheapest winning trump, keeping its "
          "unbeatable trumps to lead (they draw the others' trumps); pimc's own play-outs", GAMES)
def ruffer(view, rng):
    return _hoard(view, cheap_ruff=True)


def _ruffer_beside(others, seat: int):
    """For a search's play-outs: ruffer where ``seat`` acts and hoarder elsewhere in one pass
    (they differ in one line), a third cheaper than asking both (strategies.pimc._seat_bound)."""
    if others.choose is not hoarder.choose:
        return None
    return lambda view, rng: _hoard(view, cheap_ruff=view.seat == seat)


ruffer.choose.beside = _ruffer_beside


def _hoard(view, cheap_ruff):
    """``hoarder``'s play; ``cheap_ruff`` (a bool, or one per deal): where only a trump wins a
    plain trick, the cheapest one that wins, not an unbeatable one (an unbeatable trump led later
    takes every follower's trump; spent on a ruff it takes one plain trick). Measured: 4 points
    more win share (docs/heuristics.md)."""
    layout = view.layout
    hand, trumps = view.hand, layout.suit_cards(view.trump)
    if view.kind == TRUMP:
        return _long_suit(layout, hand)
    if view.kind == BID:
        return _bid(view, bits.count(hand & trumps).astype(np.int64) + 1)
    if view.kind == DISCARD:
        return _prefer(layout, view.legal & ~trumps, view.legal, highest=False)
    legal = view.legal
    plain = legal & ~trumps
    if view.kind == LEAD:
        boss = _boss(view, legal)
        unseen_trumps = trumps & ~(hand | view.played)
        draw = np.where(unseen_trumps != 0, boss & trumps, bits.EMPTY)
        cash = np.where(draw != 0, draw, np.where((boss & plain) != 0, boss & plain, boss & trumps))
        return np.where(cash != 0, _by_rank(layout, cash, True),
                        np.where(plain != 0, _short_low(view, plain), _by_rank(layout, legal, False)))
    last = (view.trick >= 0).sum(axis=1) == view.players - 1
    win = view.winners_now
    sure = np.where(last, win, _boss(view, win))
    if np.any(cheap_ruff):  # a plain trick only a trump wins: the cheapest winning trump, sure or not
        ruffing = (view.led != view.trump) & ((win & ~trumps) == 0)
        sure = np.where(cheap_ruff & ruffing, bits.EMPTY, sure)
    cheap_sure = _prefer(layout, sure & ~trumps, sure, highest=False)
    hopeful = _prefer(layout, win & ~trumps, win, highest=False)
    lose = legal & ~win
    shed = np.where((lose & ~trumps) != 0, _short_low(view, lose & ~trumps), _by_rank(layout, lose, False))
    return np.where(sure != 0, cheap_sure, np.where(win != 0, hopeful, shed))


@strategy("tricks", "plays for tricks and never for trumps: bids its high cards, leads its "
          "highest plain card, wins cheaply unless the trick already holds a trump", GAMES)
def tricks(view, rng):
    layout = view.layout
    hand, trumps, high = view.hand, layout.suit_cards(view.trump), _high_cards(layout)
    if view.kind == TRUMP:
        return _long_suit(layout, hand)
    if view.kind == BID:
        return _bid(view, bits.count(hand & high & ~trumps).astype(np.int64))
    if view.kind == DISCARD:
        return _prefer(layout, view.legal & ~high, view.legal, highest=False)
    if view.kind == LEAD:
        return _prefer(layout, view.legal & ~trumps, view.legal, highest=True)
    return _play(view, _trick_trumps(view) == 0)


@restriction("no-kitty", "never bids for the kitty: always passes (a choice only with kitty = bid; "
             "the other kitty rules have no bid)", "never bidding for the kitty", (BID,))
def no_kitty(view):
    return np.full(len(view), bits.BIT[PASS])


@restriction("no-trump-lead", "never leads a trump while it holds a plain card",
             "never leading trumps", (LEAD,))
def no_trump_lead(view):
    return view.legal & ~view.layout.suit_cards(view.trump)


RESTRICTIONS = (no_kitty, no_trump_lead)
