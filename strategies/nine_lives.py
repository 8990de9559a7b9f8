"""Nine Lives heuristics, on card sets (option = suit * ranks + rank - 1)."""

from __future__ import annotations

from functools import cache

import numpy as np

from simtool import bits
from simtool.games.nine_lives import BID, layout
from simtool.games.tricks import FOLLOW, LEAD

from .base import forced, strategy
from .restrictions import restriction

GAMES = ("nine-lives",)


@cache
def _strong(p: int, ranks: int) -> np.uint64:
    """The top third of the ranks in every suit (7, 8 and 9 of the sheet's 9)."""
    return np.bitwise_or.reduce(layout(p, ranks).rank[ranks - ranks // 3:])


def _by_rank(view, cards, highest):
    """Per deal, a card of the highest rank present in ``cards`` where ``highest`` (per deal), else
    of the lowest, of the lowest suit among that rank's; -1 for an empty set."""
    ranks = view.ranks
    folded = _ranks_present(view, cards)
    r = bits.where(highest, bits.highest(folded, ranks), np.minimum(bits.lowest(folded), ranks - 1))
    chosen = cards & _rank_or_none(view.players, ranks)[r]  # rank -1 (none present): no card
    return bits.where(chosen != 0, bits.lowest(chosen), -1)


def _ranks_present(view, cards):
    """The ranks present in each set, bit ``r - 1`` for rank ``r``: every suit's cards folded onto
    the first suit's."""
    folded = cards.copy()
    for suit in range(1, view.players):
        folded |= cards >> np.uint64(suit * view.ranks)
    return folded & bits.below(view.ranks)


@cache
def _rank_or_none(p: int, ranks: int) -> np.ndarray:
    """Every rank's cards (one per suit), and none at index -1."""
    return np.append(layout(p, ranks).rank, bits.EMPTY)


def _suit_cards(view, suit):
    """The cards of each deal's suit (``suit`` from -1, no suit: none, to ``p - 1``)."""
    return layout(view.players, view.ranks).suit_cards(suit)


def _estimate(view, hand):
    """Tricks the hand might take: its strong cards, scaled to the tricks per player, plus one
    (measured against random players at 2..6 players: bids one higher are made more often;
    the Kittykeeper fallback and ignored cards hand out tricks the strong cards do not count)."""
    tricks_each = (view.hand_size - 1) / view.players
    strong = bits.count(hand & _strong(view.players, view.ranks))
    return bits.clamp(np.rint(strong * 2 * tricks_each / np.maximum(view.hand_size, 1)) + 1, 1, view.ranks)


def _bid_card(view, hand, target, within=None):
    """The card whose rank is nearest ``target`` (lower on ties), from ``within`` if it has any."""
    pool = hand if within is None else bits.where((hand & within) != 0, hand & within, hand)
    present = _ranks_present(view, pool)
    at = target.astype(np.int64) - 1  # the target's bit
    up, down = present & ~bits.below(at), present & bits.below(at)  # ranks from the target up; below it
    above = bits.where(up != 0, bits.lowest(up) - at, 99)  # how far the nearest rank at or above is
    under = bits.where(down != 0, at - bits.highest(down, view.ranks), 99)
    r = bits.where(under <= above, at - under, at + above)  # the lower on ties
    r = bits.where(present != 0, r, -1)  # no card: none
    return bits.lowest(pool & _rank_or_none(view.players, view.ranks)[r])


def _winners(view, counted):
    """Cards of ``counted`` that would take the lead of the trick as it stands."""
    trump_cards = counted & _suit_cards(view, view.trump)
    trump_rank = view.best - 100
    trump_on_top = view.best >= 100
    over_trump = trump_cards & ~bits.below(bits.clamp(np.maximum(view.trump, 0) * view.ranks + trump_rank, 0, 64))
    over_lead = counted & _suit_cards(view, view.lead_suit) & ~bits.below(
        bits.clamp(view.lead_suit * view.ranks + view.best, 0, 64))
    return bits.where(trump_on_top, over_trump, over_lead | trump_cards)


def _play(view, need):
    """Win cheaply while ``need`` > 0; once made, throw an ignored card or the highest loser."""
    rows = np.arange(len(view))
    mine = np.maximum(view.bid[rows, view.seat], 0) // view.ranks
    ignored = view.legal & _suit_cards(view, mine)
    counted = view.legal & ~ignored
    short, legal = need > 0, view.legal
    # each deal's choice is the highest or the lowest rank of one set: the sets are chosen first,
    # so the ranks are looked up once per decision, not once per case
    if view.kind == LEAD:
        # short: the highest counted trump, else counted card; made: the highest ignored card,
        # else the lowest card
        trumps = counted & _suit_cards(view, view.trump)
        attack = bits.first_of(trumps, bits.first_of(counted, legal))
        high = bits.where(short, attack, ignored)
        low = bits.where(high == 0, legal, bits.EMPTY)
    else:
        # short: the cheapest winner (a plain card before a trump), else the lowest ignored card,
        # else the lowest card; made: the highest ignored card, else the highest loser, else the
        # lowest card
        win = _winners(view, counted)
        plain_win = win & ~_suit_cards(view, view.trump)
        losers = legal & ~win
        take = bits.first_of(plain_win, bits.first_of(win, bits.first_of(ignored, legal)))
        shed = bits.first_of(ignored, losers)
        high = bits.where(short, bits.EMPTY, shed)
        low = bits.where(short, take, bits.where(shed == 0, legal, bits.EMPTY))
    # one look-up for both: the highest rank of ``high`` where it has a card, else the lowest of ``low``
    some = high != 0
    return _by_rank(view, bits.where(some, high, low), some)


def bid_of(view, hand):
    """``exact``'s bid card from ``hand`` (it reads only the view's players, ranks and hand size):
    a belief replays it on re-dealt hands (``strategies.nine_lives_belief``)."""
    return _bid_card(view, hand, _estimate(view, hand))


def play_of(view, need):
    """``exact``'s card at a lead or follow, ``need`` tricks short of its bid (see :func:`_play`)."""
    return _play(view, need)


@strategy("exact", "bids the rank nearest its estimate of the tricks its strong cards take, then "
          "wins cheaply while short of its bid and throws ignored cards once it is made", GAMES)
def exact(view, rng):
    if (only := forced(view)) is not None:
        return only
    if view.kind == BID:
        return bid_of(view, view.hand)
    rows = np.arange(len(view))
    bid = view.bid[rows, view.seat] % view.ranks + 1
    return _play(view, bid - view.tricks[rows, view.seat])


@strategy("team", "bids from the suit it holds most of (the likeliest team suit, and the most "
          "cards to ignore), then plays for its team's total when it has teammates", GAMES)
def team(view, rng):
    hand, suit = view.hand, layout(view.players, view.ranks).suit
    if view.kind == BID:
        counts = np.stack([bits.count(hand & suit[s]) for s in range(view.players)], axis=1)
        return _bid_card(view, hand, _estimate(view, hand), suit[counts.argmax(axis=1)])
    rows = np.arange(len(view))
    suits = bits.where(view.bid >= 0, np.maximum(view.bid, 0) // view.ranks, -1)
    mates = suits == suits[rows, view.seat][:, None]
    ranks = bits.where(view.bid >= 0, view.bid % view.ranks + 1, 0)
    alone = mates.sum(axis=1) == 1
    everyone = mates.all(axis=1)
    own_need = ranks[rows, view.seat] - view.tricks[rows, view.seat]
    team_need = (ranks * mates).sum(axis=1) - (view.tricks * mates).sum(axis=1)
    return _play(view, bits.where(alone | everyone, own_need, team_need))


@restriction("lowest-bid", "always bids its lowest-ranked card", "always bidding the lowest card",
             (BID,))
def lowest_bid(view):
    rank = layout(view.players, view.ranks).rank
    present = (view.legal[:, None] & rank) != 0
    return view.legal & rank[present.argmax(axis=1)]


@restriction("no-ignored", "never plays a card of its own bid suit (one that is ignored) while it "
             "has another", "never throwing ignored cards", (LEAD, FOLLOW))
def no_ignored(view):
    own = view.bid[np.arange(len(view)), view.seat]
    return view.legal & ~_suit_cards(view, bits.where(own >= 0, np.maximum(own, 0) // view.ranks, -1))


RESTRICTIONS = (lowest_bid, no_ignored)
