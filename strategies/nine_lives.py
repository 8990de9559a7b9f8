"""Nine Lives heuristics, on card sets (option = suit * 9 + rank - 1)."""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.nine_lives import CARD_SUIT, MAX_SUITS, RANKS, SUIT

from .base import strategy
from .restrictions import restriction

GAMES = ("nine-lives",)
RANK = np.array([bits.of(RANKS * s + r for s in range(MAX_SUITS)) for r in range(RANKS)], np.uint64)
STRONG = RANK[6] | RANK[7] | RANK[8]  # 7, 8, 9


def _by_rank(cards, highest: bool):
    """Per deal, a card of the highest (or lowest) rank present; -1 for an empty set."""
    present = (cards[:, None] & RANK) != 0
    r = RANKS - 1 - present[:, ::-1].argmax(axis=1) if highest else present.argmax(axis=1)
    return np.where(cards != 0, bits.lowest(cards & RANK[r]), -1)


def _suit_cards(suit):
    return np.where(suit >= 0, SUIT[np.clip(suit, 0, MAX_SUITS - 1)], bits.EMPTY)


def _estimate(view, hand):
    """Tricks the hand might take: its strong cards, scaled to the tricks per player, plus one
    (measured against random players at 2..6 players: bids one higher are made more often;
    the Kittykeeper fallback and ignored cards hand out tricks the strong cards do not count)."""
    tricks_each = (view.hand_size - 1) / view.players
    strong = bits.count(hand & STRONG)
    return np.clip(np.rint(strong * 2 * tricks_each / np.maximum(view.hand_size, 1)) + 1, 1, RANKS)


def _bid_card(hand, target, within=None):
    """The card whose rank is nearest ``target`` (lower on ties), from ``within`` if it has any."""
    pool = hand if within is None else np.where((hand & within) != 0, hand & within, hand)
    present = (pool[:, None] & RANK) != 0
    distance = np.abs(np.arange(1, RANKS + 1)[None, :] - target[:, None]) + np.where(present, 0, 99)
    r = distance.argmin(axis=1)
    return bits.lowest(pool & RANK[r])


def _winners(view, counted):
    """Cards of ``counted`` that would take the lead of the trick as it stands."""
    trump_cards = counted & _suit_cards(view.trump)
    trump_rank = view.best - 100
    trump_on_top = view.best >= 100
    over_trump = trump_cards & ~bits.below(np.clip(np.maximum(view.trump, 0) * RANKS + trump_rank, 0, 64))
    over_lead = counted & _suit_cards(view.lead_suit) & ~bits.below(
        np.clip(view.lead_suit * RANKS + view.best, 0, 64))
    return np.where(trump_on_top, over_trump, over_lead | trump_cards)


def _play(view, need):
    """Win cheaply while ``need`` > 0; once made, throw an ignored card or the highest loser."""
    rows = np.arange(len(view))
    mine = CARD_SUIT[np.maximum(view.bid[rows, view.seat], 0)]
    ignored = view.legal & _suit_cards(mine)
    counted = view.legal & ~ignored
    if view.kind == "lead":
        attack = np.where(counted & _suit_cards(view.trump), counted & _suit_cards(view.trump), counted)
        strong = _by_rank(np.where(attack != 0, attack, view.legal), highest=True)
        quiet = np.where(ignored != 0, _by_rank(ignored, True), _by_rank(view.legal, False))
        return np.where(need > 0, strong, quiet)
    win = _winners(view, counted)
    plain_win = win & ~_suit_cards(view.trump)
    cheapest = np.where(plain_win != 0, _by_rank(plain_win, False), _by_rank(win, False))
    losers = view.legal & ~win
    shed = np.where(ignored != 0, _by_rank(ignored, True), _by_rank(losers, True))
    take = np.where(win != 0, cheapest, np.where(ignored != 0, _by_rank(ignored, False),
                                                  _by_rank(view.legal, False)))
    duck = np.where((ignored | losers) != 0, shed, _by_rank(view.legal, False))
    return np.where(need > 0, take, duck)


@strategy("exact", "bids the rank nearest its estimate of the tricks its strong cards take, then "
          "wins cheaply while short of its bid and throws ignored cards once it is made", GAMES)
def exact(view, rng):
    if view.kind == "bid":
        return _bid_card(view.hand, _estimate(view, view.hand))
    rows = np.arange(len(view))
    bid = view.bid[rows, view.seat] % RANKS + 1
    return _play(view, bid - view.tricks[rows, view.seat])


@strategy("team", "bids from the suit it holds most of (the likeliest team suit, and the most "
          "cards to ignore), then plays for its team's total when it has teammates", GAMES)
def team(view, rng):
    hand = view.hand
    if view.kind == "bid":
        counts = np.stack([bits.count(hand & SUIT[s]) for s in range(MAX_SUITS)], axis=1)
        return _bid_card(hand, _estimate(view, hand), SUIT[counts.argmax(axis=1)])
    rows = np.arange(len(view))
    suits = np.where(view.bid >= 0, CARD_SUIT[np.maximum(view.bid, 0)], -1)
    mates = suits == suits[rows, view.seat][:, None]
    ranks = np.where(view.bid >= 0, view.bid % RANKS + 1, 0)
    alone = mates.sum(axis=1) == 1
    everyone = mates.all(axis=1)
    own_need = ranks[rows, view.seat] - view.tricks[rows, view.seat]
    team_need = (ranks * mates).sum(axis=1) - (view.tricks * mates).sum(axis=1)
    return _play(view, np.where(alone | everyone, own_need, team_need))


@restriction("lowest-bid", "always bids its lowest-ranked card", "always bidding the lowest card",
             ("bid",))
def lowest_bid(view):
    present = (view.legal[:, None] & RANK) != 0
    return view.legal & RANK[present.argmax(axis=1)]


@restriction("no-ignored", "never plays a card of its own bid suit (one that is ignored) while it "
             "has another", "never throwing ignored cards", ("lead", "play"))
def no_ignored(view):
    own = view.bid[np.arange(len(view)), view.seat]
    return view.legal & ~_suit_cards(np.where(own >= 0, CARD_SUIT[np.maximum(own, 0)], -1))


RESTRICTIONS = (lowest_bid, no_ignored)
