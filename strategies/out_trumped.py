"""Out-Trumped heuristics, on card sets (option = suit * 12 + rank - 1; at bids, 0 = pass)."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.out_trumped import PASS, RANK, RANKS, SUIT, SUITS, suit_cards

from .base import strategy

GAMES = ("out-trumped",)
HIGH_CARDS = RANK[RANKS - 3] | RANK[RANKS - 2] | RANK[RANKS - 1]  # 10, J(11) and the Ace (12)


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
    """Win as cheaply as possible where ``want``, else lose with the highest card that loses."""
    trumps = suit_cards(view.trump)
    win = _winners(view)
    cheapest = _prefer(win & ~trumps, win, highest=False)
    lose = view.legal & ~win
    shed = _prefer(lose & ~trumps, lose, highest=True)
    lowest = _prefer(view.legal & ~trumps, view.legal, highest=False)
    return np.where(want & (win != 0), cheapest, np.where(lose != 0, shed, lowest))


@strategy("hoarder", "collects trumps to have the most: names its long suit trump, leads high "
          "trumps and wins tricks holding trumps; dumps them once it is heading for the fewest",
          GAMES)
def hoarder(view, rng):
    hand, trumps = view.hand, suit_cards(view.trump)
    if view.kind == "trump":
        return _long_suit(hand)
    if view.kind == "bid":
        return _bid(view, bits.count(hand & trumps).astype(np.int64) + 1)
    if view.kind == "discard":
        return _prefer(view.legal & ~trumps, view.legal, highest=False)
    rows = np.arange(len(view))
    mine = view.trumps[rows, view.seat]
    others = view.trumps.copy()
    others[rows, view.seat] = -1
    behind = (mine >= 1) & (mine + 2 <= others.max(axis=1))  # heading for the fewest
    if view.kind == "lead":
        mine_trumps = view.legal & trumps
        attack = np.where(mine_trumps != 0, _by_rank(mine_trumps, True), _by_rank(view.legal, True))
        return np.where(behind, _prefer(view.legal & ~trumps, view.legal, highest=False), attack)
    return _play(view, ~behind & (_trick_trumps(view) > 0))


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
