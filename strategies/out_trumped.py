"""Out-Trumped heuristics, on card sets (option = suit * 12 + rank - 1; at bids, 0 = pass)."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.out_trumped import CARDS, PASS, RANK, RANKS, SUIT, SUITS, suit_cards

from .base import strategy
from .restrictions import restriction

GAMES = ("out-trumped",)
HIGH_CARDS = RANK[RANKS - 3] | RANK[RANKS - 2] | RANK[RANKS - 1]  # 10, J(11) and the Ace (12)
ALL = bits.full(CARDS)


def _by_rank(cards, highest: bool):
    """Per deal, a card of the highest (or lowest) rank present; -1 for an empty set."""
    present = (cards[:, None] & RANK) != 0  # (m, 12): which ranks each set holds
    r = RANKS - 1 - present[:, ::-1].argmax(axis=1) if highest else present.argmax(axis=1)
    return np.where(cards != 0, bits.lowest(cards & RANK[r]), -1)


def _prefer(first, then, highest: bool):
    """A card of ``first`` if any (by rank), else of ``then``."""
    return _by_rank(np.where(first != 0, first, then), highest)


def _long_suit(hand):
    counts = np.stack([bits.count(hand & SUIT[s]) for s in range(SUITS)], axis=1)
    return counts.argmax(axis=1)


def _bid(view, estimate):
    """Bid the estimate when it beats the standing bid (and fits the hand), else pass."""
    bid = np.minimum(estimate, view.hand_size)
    return np.where(bid > view.standing, bid, PASS)


def _winners(view):
    """Legal cards that would take the lead of the trick as it stands."""
    trumps = suit_cards(view.trump)
    legal = view.legal
    trump_winning = view.best >= 100
    rank = np.where(trump_winning, view.best - 100, view.best)  # rank of the card winning now
    suit = np.where(trump_winning, view.trump, view.led)
    # cards of that suit ranked above it: option >= suit * 12 + rank
    higher = legal & suit_cards(suit) & ~bits.below(np.clip(np.maximum(suit, 0) * RANKS + rank, 0, 64))
    return higher | np.where(trump_winning, bits.EMPTY, legal & trumps)


def _trick_trumps(view):
    cards = np.where(view.trick >= 0, bits.BIT[np.maximum(view.trick, 0)], bits.EMPTY)
    return bits.count(np.bitwise_or.reduce(cards, axis=1) & suit_cards(view.trump))


def _play(view, want):
    """Win as cheaply as possible where ``want``, else lose with the lowest card that loses
    (keeping high cards for the tricks to come)."""
    trumps = suit_cards(view.trump)
    win = _winners(view)
    cheapest = _prefer(win & ~trumps, win, highest=False)
    lose = view.legal & ~win
    shed = _prefer(lose & ~trumps, lose, highest=False)
    lowest = _prefer(view.legal & ~trumps, view.legal, highest=False)
    return np.where(want & (win != 0), cheapest, np.where(lose != 0, shed, lowest))


def _boss(view, cards):
    """Cards of ``cards`` that no unseen card of their suit outranks."""
    unseen = ALL & ~(view.hand | view.played)
    out = np.zeros(len(view), np.uint64)
    for s in range(SUITS):
        shift = np.uint64(s * RANKS)  # the suit's 12 cards as a small number: a fast highest()
        top = bits.highest((unseen & SUIT[s]) >> shift, RANKS)  # -1: none unseen
        out |= cards & SUIT[s] & ~(bits.below(top + 1) << shift)
    return out


def _short_low(view, cards):
    """The lowest of ``cards`` in the suit the hand is shortest in (playing towards a void)."""
    counts = np.stack([np.where((cards & SUIT[s]) != 0, bits.count(view.hand & SUIT[s]), 99)
                       for s in range(SUITS)], axis=1)
    return _by_rank(cards & SUIT[counts.argmin(axis=1)], highest=False)


@strategy("hoarder", "plays for trumps and tricks: names its long suit trump, leads its "
          "unbeatable trumps while others may hold trumps (each follower must add one), then its "
          "unbeatable plain cards, else low from its shortest suit; wins as cheaply as it can "
          "(surely if it can), else throws a low plain card", GAMES)
def hoarder(view, rng):
    hand, trumps = view.hand, suit_cards(view.trump)
    if view.kind == "trump":
        return _long_suit(hand)
    if view.kind == "bid":
        return _bid(view, bits.count(hand & trumps).astype(np.int64) + 1)
    if view.kind == "discard":
        return _prefer(view.legal & ~trumps, view.legal, highest=False)
    legal = view.legal
    plain = legal & ~trumps
    if view.kind == "lead":
        boss = _boss(view, legal)
        unseen_trumps = trumps & ~(hand | view.played)
        draw = np.where(unseen_trumps != 0, boss & trumps, bits.EMPTY)
        cash = np.where(draw != 0, draw, np.where((boss & plain) != 0, boss & plain, boss & trumps))
        return np.where(cash != 0, _by_rank(cash, True),
                        np.where(plain != 0, _short_low(view, plain), _by_rank(legal, False)))
    last = (view.trick >= 0).sum(axis=1) == view.players - 1
    win = _winners(view)
    sure = np.where(last, win, _boss(view, win))
    cheap_sure = _prefer(sure & ~trumps, sure, highest=False)
    hopeful = _prefer(win & ~trumps, win, highest=False)
    lose = legal & ~win
    shed = np.where((lose & ~trumps) != 0, _short_low(view, lose & ~trumps), _by_rank(lose, False))
    return np.where(sure != 0, cheap_sure, np.where(win != 0, hopeful, shed))


@strategy("tricks", "plays for tricks and never for trumps: bids its high cards, leads its "
          "highest plain card, wins cheaply unless the trick already holds a trump", GAMES)
def tricks(view, rng):
    hand, trumps = view.hand, suit_cards(view.trump)
    if view.kind == "trump":
        return _long_suit(hand)
    if view.kind == "bid":
        return _bid(view, bits.count(hand & HIGH_CARDS & ~trumps).astype(np.int64))
    if view.kind == "discard":
        return _prefer(view.legal & ~HIGH_CARDS, view.legal, highest=False)
    if view.kind == "lead":
        return _prefer(view.legal & ~trumps, view.legal, highest=True)
    return _play(view, _trick_trumps(view) == 0)


@restriction("no-kitty", "never bids for the kitty: always passes (a choice only with kitty = bid; "
             "the other kitty rules have no bid)", "never bidding for the kitty", ("bid",))
def no_kitty(view):
    return np.full(len(view), bits.BIT[PASS])


@restriction("no-trump-lead", "never leads a trump while it holds a plain card",
             "never leading trumps", ("lead",))
def no_trump_lead(view):
    return view.legal & ~suit_cards(view.trump)


RESTRICTIONS = (no_kitty, no_trump_lead)
