"""What the others' bids and cards say about their hands in Nine Lives, under the model that they
play ``exact``: a belief for the search (``pimc@infer=``, docs/reference-player.md).

``exact`` decides from its own hand and public facts only (the bids, the tricks won, the cards in
the trick, the trump), so whether a seat holding a given hand would have made each of its choices
seen this round is worked out for that seat alone: its hand then was the cards it holds now and
every card it has played since. A world re-dealt from a view is scored by how many of the other
seats' choices ``exact`` would not have made there; a search keeps the worlds that fit best.
Where the others are not ``exact`` no world fits them all and the count still ranks the worlds
(soft: a world is never ruled out, only preferred less).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simtool import bits, games
from simtool.engine import Worlds
from simtool.games.nine_lives import layout, strength
from simtool.games.tricks import FOLLOW, LEAD

from . import nine_lives

SWEEPS = 10
"""Rounds of swaps that mend the worlds. With random swaps and 2 draws per kept world, 8 rounds won
0.428 against 0.406 without them (seed 11, 4000 deals); with guided swaps (:func:`mend`), one draw
and 12 rounds win as much as two draws and 8 rounds (0.454 and 0.448 against 0.452 and 0.445,
seeds 11 and 12, 4096 deals) for fewer CPU seconds, and 10 rounds (with a cheaper bid and second
look) as much as 12 (docs/reference-player.md)."""


class _Seen:
    """The public facts ``exact`` reads at one past decision of one seat, for ``rows`` worlds:
    a stand-in for its view then (it reads nothing else)."""

    def __init__(self, kind, players, ranks, seat, legal, bid, trump, lead_suit, best, hand_size=None):
        self.kind, self.players, self.ranks = kind, players, ranks
        self.seat, self.legal, self.bid = seat, legal, bid
        self.trump, self.lead_suit, self.best, self.hand_size = trump, lead_suit, best, hand_size

    def __len__(self) -> int:
        return len(self.seat)


def evidence(view) -> bool:
    """Whether the others' choices are seen yet: not before the bids (placed at once)."""
    return not view.bidding


@dataclass
class _Past:
    """What every past choice of the others needs besides the chooser's hand, per deal of a view,
    worked out once per view (it is public): the bids, and every lead and follow of the others
    this round as one flat list of decisions grouped by (deal, seat) (``start``: where the group
    ``deal * p + seat`` begins), each with its kind (a lead?), its card, the seat's cards played
    from that trick on, and what ``exact`` reads then (trump, lead suit, the best card so far,
    the tricks still needed). A world then replays only its own deal's decisions of the seats
    asked, not a dense (decisions x worlds) table."""

    players: int
    ranks: int
    seat: np.ndarray  # (m,) the acting seat
    bid: np.ndarray  # (m, p)
    hand_size: np.ndarray  # (m,)
    played: np.ndarray  # (m, p) every card each seat played this round
    start: np.ndarray  # (m * p + 1,) the decisions of deal d, seat s: start[d*p+s]:start[d*p+s+1]
    deal: np.ndarray  # (E,) per decision: its deal
    lead: np.ndarray  # (E,) bool: a lead (else a follow)
    card: np.ndarray  # (E,)
    later: np.ndarray  # (E,) the seat's cards played from that trick on
    trump: np.ndarray  # (E,)
    lead_suit: np.ndarray  # (E,)
    best: np.ndarray  # (E,)
    need: np.ndarray  # (E,)


def _past(view) -> _Past:
    m, p, ranks = len(view), view.players, view.ranks
    lay = layout(p, ranks)
    history = view.history.astype(np.int64)  # (m, T, p)
    leaders, winners, bid = view.leaders.astype(np.int64), view.winners.astype(np.int64), view.bid
    deals = np.arange(m)
    bid_suit = lay.card_suit[np.maximum(bid, 0)]
    cards = bits.where(history >= 0, bits.BIT[np.maximum(history, 0)], bits.EMPTY)
    # the cards each seat played from trick t on: its hand at trick t is these and its hand now
    later = np.bitwise_or.accumulate(cards[:, ::-1], axis=1)[:, ::-1]  # (m, T, p)
    rows = []
    won = np.zeros((m, p), np.int64)  # tricks each seat had won before trick t
    for t in range(history.shape[1]):
        leader = leaders[:, t]
        played = history[:, t]  # (m, p)
        if not (played >= 0).any():
            break
        lead = played[deals, np.maximum(leader, 0)]
        lead_suit = lay.card_suit[np.maximum(lead, 0)]
        trump = bid_suit[deals, np.maximum(leader, 0)]
        best = np.zeros(m, np.int64)
        for step in range(p):  # clockwise from the leader: each seat sees the cards before its own
            s = (leader + step) % p
            card = played[deals, s]
            due = (card >= 0) & (leader >= 0) & (s != view.seat)
            need = bid[deals, s] % ranks + 1 - won[deals, s]
            at = np.flatnonzero(due)
            rows.append((at, s[at], np.full(at.size, step == 0), card[at], later[at, t, s[at]], trump[at],
                         lead_suit[at], best[at], need[at]))
            key = strength(lay, np.maximum(card, 0), bid_suit[deals, s], trump, lead_suit)
            best = bits.where(card >= 0, np.maximum(best, key), best)
        finished = winners[:, t] >= 0
        won[deals[finished], winners[finished, t]] += 1
    columns = [np.concatenate(column) for column in zip(*rows, strict=True)] if rows else \
        [np.zeros(0, dtype) for dtype in (np.int64, np.int64, bool, np.int64, np.uint64, np.int64, np.int64,
                                          np.int64, np.int64)]
    deal, seat = columns[0], columns[1]
    order = np.argsort(deal * p + seat, kind="stable")
    deal, seat, lead, card, later_, trump, lead_suit, best, need = (c[order] for c in columns)
    start = np.r_[0, np.cumsum(np.bincount(deal * p + seat, minlength=m * p))]
    return _Past(p, ranks, view.seat.copy(), bid, view.hand_size, later[:, 0], start, deal, lead, card,
                 later_, trump, lead_suit, best, need)


def misfits(view, hands: np.ndarray, deal: np.ndarray, only: np.ndarray | None = None,
            past: _Past | None = None) -> np.ndarray:
    """Per world and seat, how many of that seat's choices this round (its bid and each card it
    played) ``exact`` would not have made with the world's hand, ``(n, p)``; the acting
    seat's column is 0. ``hands``: ``(n, p)`` sets, world ``i`` a re-deal of deal ``deal[i]`` of
    ``view`` (its other seats' current hands). ``only`` ``(n, p)``: the seats to count in each
    world (the others' entries 0; default every seat). ``past``: the view's :func:`_past`, where
    already worked out."""
    return _replay(view, hands, deal, only, past)[0]


def _replay(view, hands: np.ndarray, deal: np.ndarray, only: np.ndarray | None = None,
            past: _Past | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`misfits`, and per world and seat the cards it holds now that ``exact`` would have
    chosen instead of its real choice (bid or card) with the world's hand ``(n, p)``: a card
    the seat most likely does not hold, the one to swap away when mending."""
    n, p = hands.shape
    out = np.zeros((n, p), np.int64)
    culprit = np.zeros((n, p), np.uint64)
    if view.bidding:
        return out, culprit  # nothing seen yet: the bids are simultaneous
    past = _past(view) if past is None else past
    lay = layout(p, past.ranks)
    asked = past.seat[deal, None] != np.arange(p)
    if only is not None:
        asked &= only
    row, s = np.nonzero(asked)
    d = deal[row]
    held = hands[row, s]
    dealt = held | past.played[d, s] | bits.BIT[np.maximum(past.bid[d, s], 0)]
    seen = _Seen(None, p, past.ranks, s, None, None, None, None, None, past.hand_size[d])
    bid = nine_lives.bid_of(seen, dealt)
    wrong = (bid != past.bid[d, s]).astype(np.int64)
    instead = bits.where(bid != past.bid[d, s], bits.BIT[np.maximum(bid, 0)], bits.EMPTY)
    # every past decision of each (world, seat) asked, one call of exact per kind
    group = d * p + s
    first, count = past.start[group], past.start[group + 1] - past.start[group]
    pair = np.repeat(np.arange(row.size), count)
    e = np.repeat(first - np.cumsum(count) + count, count) + np.arange(pair.size)
    for kind, of_kind in ((LEAD, past.lead[e]), (FOLLOW, ~past.lead[e])):
        at, x = pair[of_kind], e[of_kind]
        if not at.size:
            continue
        hand = held[at] | past.later[x]
        if kind == FOLLOW:
            same = hand & lay.suit[past.lead_suit[x]]
            hand = bits.first_of(same, hand)
        dx = past.deal[x]
        seen = _Seen(kind, p, past.ranks, s[at], hand, past.bid[dx], past.trump[x], past.lead_suit[x], past.best[x])
        chosen = nine_lives.play_of(seen, past.need[x])
        differs = chosen != past.card[x]
        wrong += np.bincount(at, differs, minlength=row.size).astype(np.int64)
        np.bitwise_or.at(instead, at[differs], bits.BIT[np.maximum(chosen[differs], 0)])
    out[row, s] = wrong
    culprit[row, s] = instead & held
    return out, culprit


def redeal(view, k: int, rng, draw: int) -> Worlds:
    """``k`` worlds per deal of the view (as ``view.redeal``): once the others' choices are seen,
    the ``k`` that fit them best of ``k * draw`` re-dealt, with their hands mended towards them
    (:func:`keep`); before, as drawn."""
    if not evidence(view):
        return view.redeal(k, rng)
    # the game's own re-deal, always a fair one (never the clairvoyant's true deal)
    game = games.get(view.game)
    drawn = game.redeal(view, k * draw, rng)
    rows, hands = keep(view, drawn.hands, k, draw, rng)
    kept = drawn.take(rows)
    kept.hands = hands
    return Worlds(game, kept, np.repeat(view.seat, k), rng, view._resolve)


def keep(view, hands: np.ndarray, k: int, draw: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Of ``k * draw`` re-dealt worlds per deal (``hands`` ``(m * k * draw, p)``, deal-major), the
    rows of the ``k`` per deal that fit the others' choices best (fewest misfits, in the order
    drawn among equals: the draws are random), deal-major ``(m * k,)``, and their hands after
    :func:`mend` ``(m * k, p)``. A deal whose decision is forced (one legal option: the search
    plays none of its worlds) keeps its first ``k`` as drawn, unread."""
    m = len(view)
    past = _past(view)
    live = np.flatnonzero(bits.count(view.legal) > 1)
    rows = np.arange(k) + (np.arange(m) * k * draw)[:, None]  # (m, k)
    if draw > 1:  # else every world drawn is kept: nothing to choose
        drawn = (live[:, None] * k * draw + np.arange(k * draw)).ravel()
        fits = misfits(view, hands[drawn], np.repeat(live, k * draw), past=past).sum(axis=1).reshape(-1, k * draw)
        rows[live] = np.argsort(fits, axis=1, kind="stable")[:, :k] + (live * k * draw)[:, None]
    rows = rows.ravel()
    out = hands[rows]
    mended = (live[:, None] * k + np.arange(k)).ravel()
    out[mended] = mend(view, out[mended], np.repeat(live, k), rng, SWEEPS, past)
    return rows, out


def mend(view, hands: np.ndarray, deal: np.ndarray, rng, sweeps: int, past: _Past | None = None) -> np.ndarray:
    """``hands`` ``(n, p)`` (world ``i`` a re-deal of deal ``deal[i]``) after ``sweeps`` rounds of
    swaps towards the others' choices: in each world that does not fit them all, a card of one
    other seat that misfits is swapped with a random card of another, and the swap is kept unless
    it fits worse. The card given is, where there is one, a card ``exact`` would have chosen in
    that seat's place instead of its real choice (a card it likely does not hold: of a suit it
    showed void in, a cheaper winner than the card it played), else a random one: on the same
    worlds, 8 rounds of such swaps place 0.51 of the hidden cards right where 8 of random swaps
    placed 0.45 (4 players, tricks 3 and 5).
    A card a seat is known not to hold (a suit it showed void in) fits worse there, so it is
    never swapped in."""
    n, p = hands.shape
    if p < 3 or not evidence(view):
        return hands  # one other seat: its hand is every unseen card, nothing to swap
    hands = hands.copy()
    past = _past(view) if past is None else past
    per_seat, culprit = _replay(view, hands, deal, past=past)
    bad = per_seat.sum(axis=1)
    for _ in range(sweeps):
        rows = np.flatnonzero(bad > 0)
        if not rows.size:
            break
        d, acting = deal[rows], view.seat[deal[rows]]
        # one seat that misfits gives a card (a random one of them), to any other seat but the acting one
        a = np.argmax((per_seat[rows] > 0) * rng.random((rows.size, p)), axis=1)
        b = (a + 1 + rng.integers(0, p - 2, rows.size)) % p
        b = bits.where(b == acting, (b + 1) % p, b)  # another seat than a and the acting one
        ha, hb = hands[rows, a], hands[rows, b]
        ok = (ha != 0) & (hb != 0)
        suspect = culprit[rows, a]
        give = bits.first_of(suspect, ha)
        ca = bits.BIT[bits.uniform(bits.where(ok, give, bits.BIT[0]), rng, 64)]
        cb = bits.BIT[bits.uniform(bits.where(ok, hb, bits.BIT[0]), rng, 64)]
        tried = hands[rows].copy()
        tried[np.arange(rows.size), a] = bits.where(ok, ha & ~ca | cb, ha)
        tried[np.arange(rows.size), b] = bits.where(ok, hb & ~cb | ca, hb)
        pair = np.zeros((rows.size, p), bool)
        pair[np.arange(rows.size), a] = pair[np.arange(rows.size), b] = True
        fit, why = _replay(view, tried, d, pair, past)
        seats = bits.where(pair, fit, per_seat[rows])
        now = seats.sum(axis=1)
        better = ok & (now <= bad[rows])
        hands[rows[better]] = tried[better]
        bad[rows[better]] = now[better]
        per_seat[rows[better]] = seats[better]
        culprit[rows[better]] = bits.where(pair, why, culprit[rows])[better]
    return hands


# exact's reading of the others, offered to a search that plays it out (pimc@infer)
nine_lives.exact.choose.redeal = redeal
