"""Out-Trumped heuristics, on card sets (option = suit * ranks + rank - 1; at bids, 0 = pass).

The deck's shape is a rule option: every table comes from ``view.layout``."""

from __future__ import annotations

from functools import cache

import numpy as np

from simtool import bits
from simtool.games.out_trumped import BID, DISCARD, PASS, TRUMP
from simtool.games.tricks import FOLLOW, LEAD

from .base import strategy
from .restrictions import restriction

GAMES = ("out-trumped",)


def _high_cards(layout):
    """The three highest ranks in every suit (with the sheet's deck: 10, J and the Ace)."""
    return np.bitwise_or.reduce(layout.rank[-3:])


def _by_rank(layout, cards, highest):
    """Per deal, a card of the highest (or lowest) rank present, of the lowest suit among those of
    that rank; -1 for an empty set. ``highest``: a bool, or one per deal."""
    # the suits folded onto one another: bit r holds where any suit has rank r + 1 (a pass per
    # suit over the sets costs a third of testing every rank); in place, as it runs on every
    # play-out decision
    width = np.uint64((1 << layout.ranks) - 1)
    ranks = cards & width
    part = np.empty_like(ranks)
    for s in range(1, layout.suits):
        np.right_shift(cards, np.uint64(s * layout.ranks), out=part)
        part &= width
        ranks |= part
    # no np.where here or below: on conditions that vary from deal to deal a product or a mask
    # costs a fraction of its branches
    if np.ndim(highest):
        r = bits.lowest(ranks)
        r += (bits.highest(ranks, layout.ranks) - r) * highest
    else:
        r = bits.highest(ranks, layout.ranks) if highest else bits.lowest(ranks)
    np.clip(r, 0, layout.ranks - 1, out=r)
    np.take(layout.rank, r, out=part)
    part &= cards
    card = bits.lowest(part)  # 64 only where ``cards`` is empty: -1 there
    card -= 65 * (card >> 6)
    return card


def _prefer(layout, first, then, highest: bool):
    """A card of ``first`` if any (by rank), else of ``then``."""
    return _by_rank(layout, bits.first_of(first, then), highest)


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
    """Cards of ``cards`` (held cards) that no unseen card of their suit outranks."""
    layout = view.layout
    above = layout.deck & ~(view.hand | view.played)  # the unseen cards, then those at or below one
    # smeared down their suits in whole-set steps (ranks 1, 2, 4... lower, never across a suit):
    # a few operations on every suit at once where a pass per suit took ten each
    for shift, stays in _smear(layout):
        above |= (above >> shift) & stays
    return cards & ~above


@cache
def _smear(layout):
    """``(shift, stays)`` for shifts 1, 2, 4... below ``layout.ranks``: the cards ``shift`` ranks
    below another card of their suit (where a set shifted down by ``shift`` stays in its suit)."""
    steps, shift = [], 1
    while shift < layout.ranks:
        stays = bits.of(c for c in range(layout.cards) if c % layout.ranks + shift < layout.ranks)
        steps.append((np.uint64(shift), stays))
        shift *= 2
    return tuple(steps)


def _shortest(view, cards):
    """The cards of ``cards`` in the suit (of those ``cards`` holds) the hand is shortest in, the
    first of the shortest; empty where ``cards`` is."""
    layout = view.layout
    hand, n = view.hand, len(cards)
    # per deal the least (cards of the suit in the hand) << 8 | suit, plus 1 << 15 where ``cards``
    # holds none of the suit (a suit has at most 64 cards: below it otherwise); uint16, in place
    # and without a branch, at a third of the cost of a stack of lengths and argmin
    key = np.full(n, np.uint16(1 << 15))
    part, none, length = np.empty(n, np.uint64), np.empty(n, bool), np.empty(n, np.uint16)
    for s in range(layout.suits):
        np.bitwise_and(hand, layout.suit[s], out=part)
        np.left_shift(bits.count(part), np.uint16(8), out=length, dtype=np.uint16)
        length |= np.uint16(s)
        np.bitwise_and(cards, layout.suit[s], out=part)
        np.equal(part, 0, out=none)
        length |= none.view(np.uint8) << np.uint16(15)
        np.minimum(key, length, out=key)
    index = (key & np.uint16(0x80FF)).astype(np.int64)  # the suit, or 1 << 15 for none
    np.minimum(index, layout.suits, out=index)
    return cards & np.take(_suits_then_none(layout), index)


@cache
def _suits_then_none(layout):
    """The cards of each suit, then the empty set (at index ``suits``)."""
    return np.append(layout.suit, bits.EMPTY)


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


def _worth(view):
    """The options worth a search's play-outs (pimc asks the seat's own policy): at a discard,
    only plain cards while the hand holds one (a trump laid away neither takes a trick nor counts
    among the trumps captured); at a bid, passing and the bids up to twice a fair share of the
    tricks and two more (9 of 13 with 4 players: ``pimc`` bid at most 9, 5 or 6 mostly, in the
    4096 deals of the strength table; an option never best changes no choice, as the play-outs
    draw nothing at random); elsewhere every option (None)."""
    legal = view.legal
    if view.kind == DISCARD:
        return bits.first_of(legal & ~view.layout.suit_cards(view.trump), legal)
    if view.kind == BID:
        return legal & bits.below(-(-2 * view.hand_size // view.players) + 3)
    return None


hoarder.choose.worth = ruffer.choose.worth = _worth


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
    # each branch picks a set of cards and one _by_rank picks from it: a card of the highest rank
    # (a cash) or the lowest (every other set; one suit's lowest card is its lowest rank)
    if view.kind == LEAD:
        boss = _boss(view, legal)
        unseen_trumps = trumps & ~(hand | view.played)
        draw = (boss & trumps) * (unseen_trumps != 0)
        cash = bits.first_of(draw, bits.first_of(boss & plain, boss & trumps))
        low = bits.first_of(_shortest(view, plain), legal)  # low from the shortest plain suit
        return _by_rank(layout, bits.first_of(cash, low), cash != 0)
    # the last to play (the lockstep's turn, the same in every deal) takes the trick surely
    last = view.step == view.players - 1
    win = view.winners_now
    sure = win if last else _boss(view, win)
    if np.any(cheap_ruff):  # a plain trick only a trump wins: the cheapest winning trump, sure or not
        ruffing = (view.led != view.trump) & ((win & ~trumps) == 0)
        sure = sure * ~(cheap_ruff & ruffing)
    lose = legal & ~win
    shed = bits.first_of(_shortest(view, lose & ~trumps), lose)
    # a sure winner (plain first), else a hopeful one, else the shed
    hopeful = bits.first_of(bits.first_of(win & ~trumps, win), shed)
    return _by_rank(layout, bits.first_of(bits.first_of(sure & ~trumps, sure), hopeful), highest=False)


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


# ---- what hoarder's plays reveal (pimc's inference: the re-deals agree with the model) ----


def _tops(layout, cards):
    """The highest card of each suit in ``cards``, ``(m,)`` sets."""
    out = np.zeros(len(cards), np.uint64)
    for s in range(layout.suits):
        shift = np.uint64(s * layout.ranks)
        top = bits.highest((cards & layout.suit[s]) >> shift, layout.ranks)  # -1: none
        out |= np.where(top >= 0, bits.BIT[np.maximum(top, 0) + s * layout.ranks], bits.EMPTY)
    return out


def _between(layout, suit, low_rank, card):
    """Cards of ``suit`` ranked above ``low_rank`` and below ``card`` (per deal)."""
    return layout.suit_cards(suit) & bits.below(card) & ~bits.below(np.maximum(suit, 0) * layout.ranks + low_rank)


def reveals(view) -> np.ndarray:
    """:func:`_read`'s cards ruled out, ``(m, p)`` sets."""
    return _read(view)[0]


def _read(view):
    """Cards each seat is known not to hold had it played every card so far as ``hoarder``
    plays, ``(m, p)`` sets (the acting seat's entry empty): ``hoarder`` is deterministic, so each
    of its leads and follows rules cards out of its hand. A lead that is not the highest card
    still out of its suit shows that the leader held no such card in any suit (it would have led
    it) and held nothing lower in the suit led; a follow that takes the trick shows no cheaper
    winner below it (all of them where it cannot have been sure of the trick, or was last), one
    that loses shows nothing lower in its suit that would have lost too (and, a trump under a
    higher trump, no trump that would have won). Only what holds in every layout consistent
    with the view is used.

    Against other players the model misleads, so a seat's plays are read only while they look
    like ``hoarder``'s: nothing is inferred about a seat that has played a card its model ruled
    out, whose inferred hand would no longer fit its size, or whose leads and throws are less
    likely from ``hoarder`` than from a player choosing at random (log odds below ``TRUST``,
    returned per seat as the third value: a lead's odds are the hand's size times the chance
    that a hand holds none of the cards the lead newly rules out).

    Also the plays that show a suit's length, which no card set can say: where ``hoarder`` led
    low, or threw a plain card off the suit led, that suit was its shortest plain suit (the first
    of the shortest), as a list of ``(trick, seat, suit, deals)`` (:func:`_misfits`).
    Returns ``(ruled out, events, log odds)``."""
    layout = view.layout
    m, p = len(view), view.players
    rows = np.arange(m)
    deck, trump = layout.deck, view.trump
    trumps = layout.suit_cards(trump)
    plain = deck & ~trumps
    history = view.history.astype(np.int64)
    leaders = view.leaders.astype(np.int64)
    tricks = min(view.trick_no + 1, history.shape[1])
    card_bits = np.where(history >= 0, bits.BIT[np.maximum(history, 0)], bits.EMPTY)
    by_seat = np.bitwise_or.reduce(card_bits[:, :tricks], axis=1)  # (m, p) each seat's cards played
    # cards that were never in a seat's hand: the others' plays, and the acting seat's own cards
    own = view.hand | by_seat[rows, view.seat]
    elsewhere = np.bitwise_or.reduce(by_seat, axis=1)[:, None] & ~by_seat | own[:, None]
    out = np.zeros((m, p), np.uint64)
    broken = np.zeros((m, p), bool)
    played = np.zeros(m, np.uint64)
    trust = np.zeros((m, p))
    events = []
    suit_of, rank_of = layout.card_suit, layout.card_rank
    for t in range(tricks):
        first = np.maximum(leaders[:, t], 0)
        led = np.zeros(m, np.int64)
        top_led = np.zeros(m, np.int64)  # the highest rank of the led suit in the trick
        top_trump = np.zeros(m, np.int64)  # the highest trump in a plain trick, 0 none
        for i in range(p):
            seat = (first + i) % p
            card = history[rows, t, seat]
            live = (leaders[:, t] >= 0) & (card >= 0)
            if not live.any():
                break
            c = np.maximum(card, 0)
            bit = np.where(live, bits.BIT[c], bits.EMPTY)
            suit, rank = suit_of[c], rank_of[c]
            is_trump = (bit & trumps) != 0
            unplayed = deck & ~played
            broken[rows, seat] |= (out[rows, seat] & bit) != 0
            if i == 0:
                tops = _tops(layout, unplayed)
                top = (tops & bit) != 0
                # not the highest card out of its suit: hoarder held no such card in any suit,
                # and led the lowest of its (shortest plain) suit, or a trump for want of plain
                low = tops | (layout.suit_cards(suit) & bits.below(c)) | np.where(is_trump, plain, bits.EMPTY)
                # the highest card out of a plain suit: no higher-ranked such card elsewhere (it
                # leads the highest rank, the lowest suit on a tie) and, where trumps were
                # surely out against it, not the highest trump (it would have drawn them)
                beaten = np.zeros(m, np.uint64)
                for s in range(layout.suits):
                    top_s = tops & layout.suit[s]
                    r = np.where(top_s != 0, bits.highest(top_s >> np.uint64(s * layout.ranks), layout.ranks) + 1, 0)
                    beaten |= np.where((r > rank) | ((r == rank) & (s < suit)), top_s, bits.EMPTY)
                trumps_out = (unplayed & trumps & elsewhere[rows, seat]) != 0
                cash = (beaten & plain) | np.where(trumps_out, tops & trumps, bits.EMPTY)
                new = np.where(top, np.where(is_trump, bits.EMPTY, cash), low)
                shortest = ~top & ~is_trump
                led = suit
                top_led = rank
            else:
                last = i == p - 1
                trump_led = led == trump
                on_top = (top_trump > 0) & ~trump_led
                same = suit == led
                wins = np.where(on_top, is_trump & (rank > top_trump),
                                (same & (rank > top_led)) | (is_trump & ~trump_led))
                floor = np.where(same & ~on_top, top_led, np.where(is_trump, top_trump, 0))
                floor = np.where(trump_led, top_led, floor)
                between = _between(layout, suit, floor, c) & unplayed
                higher = layout.suit_cards(suit) & ~bits.below(c + 1) & unplayed
                unsure = (higher & elsewhere[rows, seat]) != 0  # a higher card out, not its own
                next_below = np.where(between != 0, bits.BIT[np.maximum(bits.highest(between), 0)], bits.EMPTY)
                won = np.where(unsure | last, between, next_below)
                if not last:  # unsure of the trick: it held none sure to take it either
                    won |= np.where(unsure, _tops(layout, higher), bits.EMPTY)
                # a loser: the lowest it could lose with in its suit (above the led top where a
                # higher led card had to be played); a trump under a higher one: no trump above it
                low_from = np.where(same & (rank > top_led), top_led, 0)
                lost = _between(layout, suit, low_from, c) & unplayed
                over = trumps & ~bits.below(np.maximum(trump, 0) * layout.ranks + top_trump) & unplayed
                lost |= np.where(is_trump & on_top, over, bits.EMPTY)
                new = np.where(wins, won, lost)
                shortest = ~wins & ~is_trump & (suit != led)
                top_led = np.where(same, np.maximum(top_led, rank), top_led)
                top_trump = np.where(is_trump & ~trump_led, np.maximum(top_trump, rank), top_trump)
            mine = seat == view.seat
            # the odds that hoarder, not a player choosing at random among its cards, made this
            # lead or throw: its hand size times the chance that a hand holds none of the cards
            # the play rules out afresh (a lead of a king from below shows a lot, and is rare)
            unknown = deck & ~played & ~own
            fresh = bits.count(new & ~bit & unknown & ~out[rows, seat] & ~view.excluded[rows, seat])
            held = view.hand_size - t
            odds = np.log(held) + fresh * np.log1p(-held / np.maximum(bits.count(unknown), held + 1))
            trust[rows, seat] += np.where(live & ~mine & ((i == 0) | shortest), odds, 0.0)
            out[rows, seat] |= np.where(live & ~mine, new & ~bit, bits.EMPTY)
            shown = live & ~mine & shortest
            if shown.any():
                events.append((t, seat, suit, shown))
            played |= bit
    broken |= trust < TRUST
    out = np.where(broken, bits.EMPTY, out)
    # a seat whose hand would no longer fit among the cards it may hold: no inference for it
    unseen = deck & ~(view.hand | view.played | view.discarded)
    room = bits.count(unseen[:, None] & ~(view.excluded | out))
    out = np.where(room < view.hand_sizes, bits.EMPTY, out)
    out[rows, view.seat] = bits.EMPTY
    events = [(t, seat, suit, shown & ~broken[rows, seat]) for t, seat, suit, shown in events]
    return out, events, trust


def _misfits(view, hands, events, k):
    """Per world (``hands``, ``(m * k, p)``, ``k`` worlds a deal), how many of the others'
    plays that show a suit's length (:func:`_read`'s events, and the dealer's wild pick, its
    longest suit) ``hoarder`` would not have made with that world's hands."""
    layout = view.layout
    n, p = hands.shape
    rows = np.arange(n)
    m = len(view)
    # the cards each seat played, per deal (the same in its k worlds: read once a deal, not a world)
    history = view.history.astype(np.int64)
    card_bits = np.where(history >= 0, bits.BIT[np.maximum(history, 0)], bits.EMPTY)
    trump = np.repeat(view.trump, k)
    miss = np.zeros(n, np.int64)

    def counts(cards):
        return np.stack([bits.count(cards & layout.suit[s]) for s in range(layout.suits)], axis=1)

    def played_from(t, seat):
        """Per deal, the cards ``seat`` (per deal) played from trick ``t`` on."""
        return np.bitwise_or.reduce(card_bits[np.arange(m), t:, seat], axis=1)

    suits = np.arange(layout.suits)[None, :]
    for t, seat, suit, shown in events:
        later = played_from(t, seat)
        seat, suit, shown = np.repeat(seat, k), np.repeat(suit, k), np.repeat(shown, k)
        at = rows[shown]
        held = hands[at, seat[at]] | later[at // k]
        c = counts(held)
        mine = c[np.arange(at.size), suit[at]][:, None]
        plain = suits != trump[at, None]
        shorter = plain & (c > 0) & ((c < mine) | ((c == mine) & (suits < suit[at, None])))
        miss[at] += shorter.any(axis=1)
    dealer = view.dealer
    wild = np.repeat(_picked_wild(view), k)
    if wild.any():
        at = rows[wild]
        held = hands[at, dealer] | played_from(0, np.full(m, dealer))[at // k]
        c = counts(held)
        mine = c[np.arange(at.size), trump[at]][:, None]
        longer = (c > mine) | ((c == mine) & (suits < trump[at, None]))
        miss[at] += longer.any(axis=1)
    return miss


def _picked_wild(view) -> np.ndarray:
    """Per deal, whether the dealer, another seat, picked trump on a wild roll (its longest
    suit, :func:`_misfits`)."""
    picked = (view.die == view.layout.suits) & (view.trump >= 0) & (view.seat != view.dealer)
    return picked & (view.wild_rule == "dealer")


MIX = 30
"""Random swaps within the constraints after a world is mended (see :func:`_mend`)."""
MEND = 64
"""Swaps at most to mend a world (one wrong card a swap; a world rarely has more than 20)."""
TRUST = 0.0
"""The log odds (``hoarder`` against a player choosing at random) below which a seat's plays
are not read (:func:`_read`)."""


def redeal(view, k: int, rng, draw: int) -> object:
    """``k`` worlds of each deal (as ``view.redeal``) that agree with everything the seat has
    seen and with what ``hoarder``'s plays reveal (:func:`_read`). The engine's re-deal draws
    whole deals again until one respects what the follows showed (hundreds of draws late in a
    hand, and more with twenty cards more ruled out); here the hidden cards are dealt freely and
    the deals mended: cards are swapped between the other seats' hands until none holds a card
    it may not, then swapped at random within the constraints ``MIX`` times more
    (:func:`_mend`; the acting seat's hand stays), close to uniform among the layouts that
    fit, at a fraction of the cost. Of ``draw`` times ``k`` such worlds, the ``k`` in which
    ``hoarder`` would have made the fewest of the others' length-showing plays otherwise are
    kept (a soft likelihood: a world that misfits is kept where none fits better; 3 draws per world
    kept won 0.9 points more than 1 against 3 x hoarder, 4096 deals)."""
    known = view.excluded
    ruled_out, events, _ = _read(view)
    ruled_out |= known
    if view.kind in (BID, DISCARD) and not events and not ruled_out.any() and not _picked_wild(view).any():
        # nothing to read yet (a bid or a discard before any play): every world fits alike, so
        # the k kept would be the first k of those drawn; k are drawn (the same law, a third of
        # the work). The trump pick and the first lead keep the drawn order, so that the default
        # rules' results stay those measured
        return view.redeal(k, rng)
    drawn = draw * k
    view.__dict__["excluded"] = np.zeros_like(known)  # this copy only, for the free deal
    try:
        worlds = view.redeal(drawn, rng)
    finally:
        view.__dict__["excluded"] = known
    ruled_out = np.repeat(ruled_out, drawn, axis=0)
    hands = worlds._state.hands  # the worlds' own copy, made for this search
    rows = np.flatnonzero(((hands & ruled_out) != 0).any(axis=1))
    if rows.size:
        seat = np.repeat(view.seat, drawn)[rows]
        allowed = view.layout.deck & ~ruled_out[rows]
        allowed[np.arange(rows.size), seat] = hands[rows, seat]  # the acting seat's hand stays
        hands[rows] = _mend(hands[rows], allowed, rng, view.layout.cards)
    miss = _misfits(view, hands, events, drawn).reshape(len(view), drawn)
    best = np.argsort(miss, axis=1, kind="stable")[:, :k]  # the drawn order (random) among equals
    return worlds.take((best + drawn * np.arange(len(view))[:, None]).ravel())


def _mend(hands, allowed, rng, n_cards: int) -> np.ndarray:
    """``hands`` ``(n, p)`` with cards swapped between seats until none holds a card ``allowed``
    rules out, then ``MIX`` random swaps within ``allowed`` (so the layout is a random one, not
    the first that fits). As ``simtool.deck``'s repair, but each step works only on the rows
    still wrong, and only the rows that needed mending are mixed."""
    n, p = hands.shape
    hands = hands.copy()
    todo = np.flatnonzero(((hands & ~allowed) != 0).any(axis=1))
    mended = todo
    seats = np.arange(p)[None, :]
    for _ in range(MEND):  # a card a step per row
        if not todo.size:
            break
        h, a = hands[todo], allowed[todo]
        r = np.arange(todo.size)
        wrong = h & ~a
        s = np.argmax(wrong != 0, axis=1)
        moved = bits.BIT[np.minimum(bits.lowest(wrong[r, s]), 63)]
        takes = a[r, s]
        may = ((a & moved[:, None]) != 0) & (seats != s[:, None]) & (h != 0)
        fits = may & ((h & takes[:, None]) != 0)  # a clean swap; else pass the trouble on
        pick = np.where(fits.any(axis=1)[:, None], fits, may)
        b = np.argmax(np.where(pick, rng.random(pick.shape), -1.0), axis=1)
        go = r[pick.any(axis=1)]
        held = h[r, b]
        give = bits.first_of(held & takes, held)
        back = bits.BIT[bits.uniform(bits.first_of(give, bits.BIT[0]), rng, n_cards)]
        _swap(h, go, s[go], b[go], moved[go], back[go])
        hands[todo] = h
        # a row whose wrong card no other seat may take cannot fit (the card belongs to a kitty
        # or the taker's discards): it stays as it is, the rule's constraints still kept
        todo = todo[((h & ~a) != 0).any(axis=1) & pick.any(axis=1)]
    if mended.size:
        h, a = hands[mended], allowed[mended]
        r = np.arange(mended.size)
        for _ in range(MIX):
            x, y = rng.integers(0, p, r.size), rng.integers(0, p, r.size)
            hx, hy = h[r, x], h[r, y]
            cx = bits.BIT[bits.uniform(bits.first_of(hx, bits.BIT[0]), rng, n_cards)]
            cy = bits.BIT[bits.uniform(bits.first_of(hy, bits.BIT[0]), rng, n_cards)]
            ok = r[(x != y) & (hx != 0) & (hy != 0) & ((cy & a[r, x]) != 0) & ((cx & a[r, y]) != 0)]
            _swap(h, ok, x[ok], y[ok], cx[ok], cy[ok])
        hands[mended] = h
    return hands


def _swap(hands, rows, a, b, card_a, card_b) -> None:
    """Seat ``a`` gives ``card_a`` to seat ``b`` and takes ``card_b`` from it, in ``rows``."""
    hands[rows, a] = hands[rows, a] & ~card_a | card_b
    hands[rows, b] = hands[rows, b] & ~card_b | card_a


hoarder.choose.redeal = redeal


# ---- ot-learned: leads and follows by a model learnt from play-outs on true deals (bench/ot_learn.py) ----

FEATURES = {
    # per candidate card (of each suit: its highest legal card, its lowest, its cheapest winner)
    "trump": 2,  # the suit is trump
    "which": 3,  # the suit's highest legal card, its lowest, or its cheapest that wins the trick now
    "above": 4,  # unseen cards of its suit above it: 0 (unbeatable), 1, 2, 3 or more
    "out": 6,  # unseen cards of its suit: 0..4, 5 or more
    "length": 5,  # cards of its suit held: 1..4, 5 or more
    "rank": 4,  # its rank in quarters of the ranks: 1-3, 4-6, 7-9, 10-12 with the sheet's deck
    "void": 3,  # other seats shown void in its suit: 0, 1, 2 or more
    "ruff": 2,  # of them, any not shown void in trumps (who may ruff it)
    "tops": 3,  # unbeatable cards held in its suit: 0, 1, 2 or more
    "ruffer": 2,  # ruffer's own choice
    "wins": 2,  # it takes the lead of the trick now (at a lead, always)
    # per deal
    "step": 4,  # cards already in the trick: 0 (a lead), 1, 2, 3
    "pot": 3,  # trumps already in the trick: 0, 1, 2 or more
    "trick": 5,  # tricks played: 0-2, 3-5, 6-8, 9-11, 12 or more (in fifths of the hand)
    "held": 5,  # trumps held: 0..3, 4 or more
    "trumps_out": 4,  # trumps unseen: 0, 1-2, 3-5, 6 or more
    "race": 5,  # its captured trumps less the most another seat captured: < -2, -2..-1, 0, 1..2, > 2
    "trumpless": 3,  # other seats shown void in trumps: 0, 1, 2 or more
}
"""The play model's features, each a small integer, from the seat's view (:func:`play_features`)."""

LEAD_TABLES = (
    ("trump", "which", "above", "out", "length"),
    ("trump", "above", "trick", "trumps_out"),
    ("trump", "which", "held", "trumps_out", "race"),
    ("trump", "void", "ruff", "above", "trumps_out"),
    ("trump", "ruffer", "trick", "above"),
    ("trump", "length", "held", "which", "trick"),
    ("trump", "rank", "which", "trumpless", "race"),
    ("trump", "tops", "length", "out"),
)
FOLLOW_TABLES = (
    ("trump", "which", "wins", "above", "step"),
    ("trump", "wins", "pot", "step", "held"),
    ("trump", "which", "length", "out", "wins"),
    ("trump", "rank", "wins", "trick", "which"),
    ("trump", "ruffer", "wins", "step", "above"),
    ("trump", "tops", "length", "wins", "race"),
    ("trump", "void", "ruff", "wins", "which"),
)
"""The model: a candidate's value is the sum of one entry of each table (of its decision kind),
the entry of its features' values (a table of every combination of a few features: what a linear
model over the features cannot say, such as an unbeatable card being worth more early than late).
The lead tables' weights come first, then the follow tables'."""


@cache
def table_offsets(kind: str):
    """Each table's first weight (of ``kind``'s tables, lead or play) in the flat weight vector,
    and the vector's size."""
    tables = LEAD_TABLES + FOLLOW_TABLES
    sizes = [int(np.prod([FEATURES[f] for f in t])) for t in tables]
    first = np.cumsum([0, *sizes])[:-1]
    return (first[:len(LEAD_TABLES)] if kind == LEAD else first[len(LEAD_TABLES):]), int(sum(sizes))


def play_features(view, at, ruffed):
    """The candidate cards of the deals ``at`` (indices into ``view``, all at a lead or all at a
    follow): ``cards`` ``(3, suits, n)`` (of each suit, its highest legal card, its lowest, its
    cheapest that wins the trick now), ``valid`` (legal and not the same card as an earlier
    candidate) and ``codes`` ``(tables, 3, suits, n)``, each candidate's entry of each table of
    the decision kind (:data:`LEAD_TABLES`, :data:`FOLLOW_TABLES`), all from the seat's view;
    ``ruffed``: ``ruffer``'s choice at ``at``. Every suit at once: a few dozen array operations."""
    layout = view.layout
    n = len(at)
    hand = view.hand[at]
    legal = view.legal[at]
    trump = np.asarray(view.trump)[at]
    suits = layout.suit[:, None]  # (S, 1)
    unseen = layout.deck & ~(hand | view.played[at] | view.discarded[at])
    seat = np.asarray(view.seat)[at]
    void, ruff, trumpless = _voids(view, at, trump, seat)
    held = hand[None, :] & suits
    options = legal[None, :] & suits
    winners = view.winners_now[at][None, :] & suits
    out = unseen[None, :] & suits
    length = bits.count(held).astype(np.int64)
    out_n = bits.count(out).astype(np.int64)
    high, low, cheap = bits.highest(options, layout.cards), bits.lowest(options), bits.lowest(winners)
    cards = np.stack([high, np.minimum(low, 63), np.minimum(cheap, 63)])  # (3, S, n)
    valid = np.stack([high >= 0, (low < 64) & (low != high), (cheap < 64) & (cheap != high) & (cheap != low)])
    cards = np.where(valid, cards, 0)
    above = bits.count(out[None] & ~bits.below(np.minimum(cards + 1, 64))).astype(np.int64)
    tops = bits.count(held & ~bits.below(bits.highest(out, layout.cards) + 1)).astype(np.int64)
    mine = np.asarray(view.trumps)[at]
    others = np.arange(view.players)[None, :] != seat[:, None]
    race = mine[np.arange(n), seat] - np.where(others, mine, -1).max(axis=1)
    trumps = layout.suit_cards(trump)
    quarter = (4 * (layout.card_rank[cards] - 1)) // layout.ranks
    in_trick = np.asarray(view.trick)[at]
    pot = ((in_trick >= 0) & (layout.card_suit[np.maximum(in_trick, 0)] == trump[:, None])).sum(axis=1)
    value = {
        "trump": np.arange(layout.suits)[:, None] == trump[None, :],
        "which": np.arange(3)[:, None, None],
        "above": np.minimum(above, 3),
        "out": np.minimum(out_n, 5),
        "length": np.clip(length, 1, 5) - 1,
        "rank": np.minimum(quarter, 3),
        "void": np.minimum(void, 2),
        "ruff": ruff > 0,
        "tops": np.minimum(tops, 2),
        "ruffer": cards == ruffed,
        "wins": (winners[None] & bits.BIT[cards]) != 0,
        "step": np.full(n, min(view.step, 3) if view.kind != LEAD else 0),
        "pot": np.minimum(pot, 2),
        "trick": np.full(n, min(5 * view.trick_no // max(view.hand_size, 1), 4)),
        "held": np.minimum(bits.count(hand & trumps), 4),
        "trumps_out": np.searchsorted([1, 3, 6], bits.count(unseen & trumps), side="right"),
        "race": np.searchsorted([-2, 0, 1, 3], race, side="right"),
        "trumpless": np.minimum(trumpless, 2),
    }
    tables = LEAD_TABLES if view.kind == LEAD else FOLLOW_TABLES
    first, _ = table_offsets(LEAD if view.kind == LEAD else "play")
    codes = np.empty((len(tables), *cards.shape), np.int64)
    for i, table in enumerate(tables):
        code = np.zeros(cards.shape, np.int64)
        for f in table:
            code = code * FEATURES[f] + value[f]
        codes[i] = code + first[i]
    return cards, valid, codes


def _voids(view, at, trump, seat):
    """Per suit and deal of ``at``: the other seats shown void in it, and of them those not shown
    void in trumps (each ``(S, n)``); and the other seats shown void in trumps (``(n,)``). Shown:
    a card off the suit led (a plain card off a plain lead, or anything off a trump lead, shows no
    trump either); only the tricks played so far are read. Under ``follow=literal`` a card off a
    plain lead shows only no higher card of it: there the count is a proxy (the model was fitted
    under the default rules)."""
    layout = view.layout
    tricks = view.trick_no + 1
    history = view.history[at, :tricks].astype(np.int64)  # (n, T, p)
    leaders = view.leaders[at, :tricks].astype(np.int64)
    led = np.take_along_axis(history, np.maximum(leaders, 0)[:, :, None], axis=2)[:, :, 0]
    led_suit = np.where((leaders >= 0) & (led >= 0), layout.card_suit[np.maximum(led, 0)], -1)[:, :, None]
    suit = layout.card_suit[np.maximum(history, 0)]
    off = (history >= 0) & (led_suit >= 0) & (suit != led_suit)
    void = np.bitwise_or.reduce(np.where(off, np.left_shift(1, np.maximum(led_suit, 0)), 0), axis=1)  # (n, p)
    t = trump[:, None, None]
    no_trump = (off & ((led_suit == t) | (suit != t))).any(axis=1)  # (n, p)
    others = np.arange(view.players)[None, :] != seat[:, None]
    shown = ((void[None] >> np.arange(layout.suits)[:, None, None]) & 1).astype(bool) & others[None]  # (S, n, p)
    return shown.sum(axis=2), (shown & ~no_trump[None]).sum(axis=2), (no_trump & others).sum(axis=1)


def learned_play(view, at, ruffed, weights):
    """The card of the model ``weights`` at the deals ``at``: the candidate of the highest value."""
    cards, valid, codes = play_features(view, at, ruffed)
    score = np.take(weights, codes).sum(axis=0)
    score = np.where(valid, score, -np.inf).reshape(-1, len(at))
    return cards.reshape(-1, len(at))[score.argmax(axis=0), np.arange(len(at))]


def learned_with(weights, kinds=(LEAD,)):
    """``ruffer`` with its card play of the decision kinds ``kinds`` chosen by the model
    ``weights`` (:func:`learned_play`), as a choose function offering ``beside`` (hoarder
    elsewhere in one pass) and ``worth``."""
    def play_at(view, pick, at):
        if view.kind in kinds and at.size:
            free = at[bits.count(view.legal[at]) > 1]
            if free.size:
                pick[free] = learned_play(view, free, pick[free], weights)
        return pick

    def choose(view, rng):
        return play_at(view, _hoard(view, cheap_ruff=True), np.arange(len(view)))

    def beside(others, seat: int):
        if others.choose is not hoarder.choose:
            return None
        return lambda view, rng: play_at(view, _hoard(view, cheap_ruff=view.seat == seat),
                                         np.flatnonzero(view.seat == seat))

    choose.beside, choose.worth = beside, _worth
    return choose


@strategy("ot-learned", "ruffer, but leads and follows by a model learnt from play-outs on true deals "
          "(bench/ot_learn.py): of each suit's highest, lowest and cheapest winning card, the one its view "
          "values most; pimc@own=ot-learned plays out with it (not a default)", GAMES)
def ot_learned(view, rng):
    return _learned()(view, rng)


@cache
def _learned():
    return learned_with(np.asarray(PLAY_WEIGHTS, np.float64), (LEAD, FOLLOW))


def _learned_beside(others, seat: int):
    return _learned().beside(others, seat)


ot_learned.choose.beside = _learned_beside
ot_learned.choose.worth = _worth


# ---- the learnt weights (generated: do not edit by hand) ----

PLAY_WEIGHTS = (
    -0.07107, 0.1006, 0.1562, 0.1689, 0.1504, -0.07405, 0.163, 0.1682, 0.2955, 0.1893,
    -0.1441, -0.1755, 0.1368, 0.1589, 0.1128, -0.1515, -0.01224, 0.03959, 0.1582, 0.03476,
    -0.09122, -0.1608, 0.1718, 0.111, 0.02446, 0.0002938, 0.09251, 0.2724, 0.3803, 0.4609,
    0, 0, 0, 0, 0, 0.1025, -0.05608, 0.1619, 0.03201, 0.09421,
    0.1119, 0.1708, -0.04758, 0.07423, 0.202, 0.08522, -0.01104, 0.02208, 0.07669, 0.124,
    0.09101, -0.1027, -0.174, -0.0299, 0.03482, 0.06987, -0.4769, -0.4938, -0.5078, -0.2831,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0.02956, 0.1567, 0.09933, 0.08683, 0.02796, 0.0294, 0.05004, 0.0335, -0.1263, 0.08148,
    0.08942, 0.03044, -0.06948, -0.1259, 0.08846, 0.001291, -0.04111, -0.1496, -0.1114, -0.1211,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0.1114, 0.06968, -0.06397, 0.02211, 0.07325,
    -0.05689, 0.1111, 0.09437, 0.1377, 0.01929, -0.001441, 0.0733, 0.01292, -0.07977, -0.04683,
    0, 0.004865, 0.04799, 0.08174, 0.1021, 0, 0.004983, 0.07701, 0.05276, 0.04217,
    0, -0.2554, 0.1378, 0.05196, 0.03758, 0, -0.1138, 0.1366, 0.07346, 0.09211,
    0, -0.2059, 0.07921, 0.1403, -0.009305, 0, -0.06403, 0.1705, 0.2175, 0.0102,
    0, 0, 0, 0, 0, 0, -0.1659, 0.1227, -0.02254, -0.06824,
    0, 0.2915, 0.03384, -0.04036, 0.03334, 0, 0.1622, 0.1039, -0.007879, 0.1984,
    0, 0.2066, 0.01392, 0.1718, 0.08618, 0, 0.08886, 0.02563, 0.09575, -0.09894,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0.1786, 0.01731, 0.132, 0.1561, 0, 0.08065, 0.01799, -0.01813, -0.01665,
    0, 0.1349, 0.03667, 0.04241, 0.07958, 0, 0.108, 0.01106, -0.01584, -0.06448,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0.06956, -0.04872, -0.05148, 0.2788,
    0, 0.07332, -0.04133, 0.1237, -0.01446, 0, 0.08957, 0.06848, 0.03071, -0.002715,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    -0.3803, 0.06664, 0.1964, 0.1369, 0.01503, -0.01223, 0.4136, 0.5094, 0.2563, -0.05981,
    -0.08516, 0.8051, 0.2745, 0.1183, 0.1706, -0.384, 0.3822, 0.421, 0.287, 0.197,
    -0.242, 0.2537, 0.605, 0.4215, -0.3036, 0.06647, 0.3825, -0.01064, 0.4791, 0.9346,
    0, 0, 0, 0, 0, -0.0966, 0.04821, 0.1045, 0.2631, 0.1805,
    -0.07153, -0.7621, 0.04159, 0.03588, 0.1311, 0.5355, -0.2402, 0.2532, 0.1965, 0.4094,
    0.2938, -0.7767, -0.4639, -0.2451, -0.04791, 0.9867, -1.169, -2.228, -2.23, -1.749,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0.3423, -0.3501, -0.07051, 0.1211, 0.12, 0.2627, -0.01349, 0.08544, 0.2596, 0.1407,
    0.2984, -0.265, -0.586, -0.3902, 0.133, 0.05784, -0.5117, -0.9126, -0.6377, -0.34,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0.1845, 0.2201, -0.003894, 0.06934, 0.03562,
    0.1919, 0.249, -0.1336, -0.5549, -0.07399, -0.3762, 0.1655, 0.2045, 0.3738, 0.4077,
    0, -0.02477, -0.1281, -0.1309, 0.01595, 0, -0.02383, 0.07646, 0.1239, 0.01179,
    0, 0.2879, 0.2554, 0.1107, 0.06274, 0, 0.07759, 0.1845, 0.04349, -0.006588,
    0, 0.1902, 0.3711, 0.06099, -0.01539, 0, 0.3047, 0.8266, 0.3436, 0.1696,
    0, 0, 0, 0, 0, 0, -0.08923, -0.482, -0.5095, -0.3469,
    0, -0.2615, -0.115, -0.1439, -0.164, 0, 0.06193, -0.1165, -0.1492, 0.1549,
    0, 0.007741, -0.3683, 0.144, 0.08244, 0, -0.5591, 0.2685, 0.7487, 0.2664,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, -0.5505, -0.3849, -0.2414, -0.3404, 0, -0.1121, 0.1507, -0.616, -0.2539,
    0, -0.2305, -0.1688, 0.1698, 0.01234, 0, -0.416, 0.1349, 0.5656, -0.1264,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, -0.257, -0.7784, -0.2304, -0.3191,
    0, 0.1099, -0.2451, -0.1361, -0.08196, 0, -0.03537, -0.4553, -0.4751, -0.3954,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    -0.0159, 0.3671, 0.1328, 0.1698, -0.01094, 0.1182, 0.3072, 0.2363, 0.396, 0.08568,
    0.2094, 0.1068, 0.7278, 0.00978, 0.1745, -0.02837, 0.4587, 0.005569, 0.138, -0.00949,
    -0.008919, 0.0342, -0.01591, 0.1389, 0.143, -0.1061, 0.1055, 0.2303, -0.1626, -0.1368,
    0.2349, 0.2171, -0.3568, -0.07475, 0.276, 0.1838, -0.4039, -0.03478, 0.2252, 0.01273,
    0.009486, 0.01409, 0.1757, 0.1941, 0.03127, -0.003909, 0.1687, 0.1553, -0.06022, -0.01776,
    0.2281, 0.1049, -0.2016, 0.003873, 0.1921, 0.06883, -0.1687, -0.003932, 0.05755, -0.007985,
    0.04933, 0.1179, 0.195, 0.1218, 0.1843, -0.0569, 0.1767, 0.0742, -0.03214, -0.01175,
    0.153, 0.08162, -0.1406, -0.01671, 0.2343, 0.05557, -0.2044, 0.003507, 0.06816, -0.001215,
    -0.034, 0.4449, 0.7014, 0.1952, -0.3477, 0.7042, 0.6773, 0.4603, -0.141, 0.534,
    0.7471, 0.9125, -0.02886, 0.6941, 0.9007, 0.8693, 0.3183, 0.9184, 0.5354, 0.04112,
    0, -0.603, -0.4215, -0.3912, 0, -0.5251, -0.6546, -0.4323, 0, -0.2688,
    -0.7545, -0.7043, 0, -0.2089, -0.9209, -0.7788, 0, -0.6316, -0.852, -0.02263,
    0, -0.3752, -0.4234, -0.1922, 0, -0.1303, -0.3915, -0.4459, 0, -0.1846,
    -0.4163, -0.493, 0, -0.4074, -0.4523, -0.2358, 0, -0.2571, -0.2336, -0.0254,
    0, 0, -0.344, -0.2364, 0, 0, -0.3893, -0.2783, 0, 0,
    -0.4017, -0.2256, 0, 0, -0.4045, -0.1344, 0, 0, 0.06127, 0.01288,
    -0.0518, -0.0581, -0.04818, -0.04338, -0.05626, -0.0253, -0.01931, -0.01453, -0.002706, 0.009473,
    -0.008255, 0.001188, -0.01936, -0.01758, -0.0006622, 0.01896, -0.004441, 0.02505, 0.05474, 0.03105,
    -0.01649, -0.09025, -0.1218, -0.1604, -0.1005, 0.1372, -0.2794, 0.1015, 0.3894, -0.06721,
    -0.03889, -0.1856, -0.1662, 0.2101, 0.1088, -0.09315, -0.2292, -0.1154, -0.1799, 0.3691,
    0.04548, -0.05988, -0.08639, -0.09739, 0.0005947, -0.446, 0.3787, 0.4503, 0.2448, -0.4052,
    -0.5645, 0.1864, 0.4638, 0.5783, 0.3578, -0.6016, -0.3025, 0.1394, 0.2156, 0.772,
    0.05112, -0.02947, -0.0668, -0.08485, 0.006158, -0.1278, 0.5284, 0.1703, -0.1212, -0.4349,
    -0.1805, 0.3783, 0.03428, 0.2067, 0.07722, -0.2267, 0.09261, 0.2767, 0.0681, 0.3618,
    0.0121, 0.01649, -0.02466, 0.01119, -0.02725, 0.4297, 0.0345, -0.08789, -0.2299, -0.1774,
    0.3786, 0.1823, -0.03714, 0.03618, -0.1625, 0, 0.2399, 0.2438, 0.1431, 0,
    0.0518, 0.0581, 0.04818, 0.04338, 0.05626, 0.0253, 0.01931, 0.01453, 0.002706, -0.009473,
    0.008255, -0.001188, 0.01936, 0.01758, 0.0006622, -0.01896, 0.004441, -0.02505, -0.05474, -0.03105,
    0.2572, 0.1685, 0.1098, 0.1424, 0.1918, 0.2233, -0.5054, -0.1241, 0.1396, -0.09165,
    -0.04786, -0.3839, -0.2485, 0.04178, 0.06118, -0.1582, -0.3032, -0.2639, -0.4097, 0.1568,
    0.09465, 0.02212, -0.03868, -0.002646, 0.08027, -0.4034, 0.2016, 0.5938, 0.2524, -0.3846,
    -0.6395, 0.2736, 0.5544, 0.4933, 0.1456, -0.6085, -0.27, 0.06554, 0.1953, 0.7264,
    0.007304, -0.02437, 0.0001735, -0.01078, 0.08323, -0.1722, 0.4294, 0.1114, -0.156, -0.4368,
    -0.183, 0.561, 0.1587, 0.2854, 0.09274, -0.06571, 0.2003, 0.1998, 0.08433, 0.5431,
    -0.01079, 0.003104, -0.02295, 0.01865, -0.0128, 0.3742, 0.00434, -0.05201, -0.08029, -0.1151,
    0.4313, 0.2135, -0.08444, -0.03489, -0.1169, 0, 0.3431, 0.3569, 0.139, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    -0.2407, -0.07826, 0.01196, 0.01798, -0.09127, -0.3605, 0.7847, 0.0226, -0.529, 0.1589,
    0.08675, 0.5694, 0.4148, -0.2519, -0.17, 0.2514, 0.5324, 0.3793, 0.5896, -0.5259,
    -0.1078, -0.06828, 0.05106, 0.09854, 0.09314, 0.04001, 0.2044, -0.2386, -0.202, 0.3509,
    0.319, -0.06289, -0.08322, -0.4876, -0.7578, 0.4089, 0.1493, 0.001676, 0.1958, -1.006,
    -0.0107, -0.03736, 0.02909, 0.1063, 0.1091, 0.5114, -0.17, -0.1345, 0.001411, 0.6511,
    0.6627, -0.2203, -0.1079, -0.7302, -0.7346, 0.4662, -0.2169, -0.554, -0.4786, -0.8553,
    0.01479, -0.02316, 0.023, 0.01007, 0.1272, 0.6319, 0.07072, -0.06784, 0.02817, 0.6739,
    0.1905, -0.4823, -0.2748, -0.09615, 0.1063, 0, -0.5448, -0.8104, -0.3163, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    -0.03231, 0.106, 0.07401, 0.001503, -0.174, 0.8093, -0.7848, -0.8055, -0.2952, 0.4389,
    0.8851, -0.3971, -0.935, -0.5839, 0.2544, 0.8013, 0.4232, -0.2067, -0.6066, -0.4928,
    -0.04773, 0.0912, 0.03753, -0.01064, -0.1985, -0.2114, -0.7878, -0.1473, 0.2758, 0.2205,
    -0.2992, -0.719, -0.08499, 0.2381, 0.5647, -0.1738, -0.07606, 0.07752, 0.3261, -0.04962,
    -0.0161, 0.003569, 0.02461, -0.03991, -0.08716, -1.436, -0.1096, 0.2077, 0.2821, -0.3814,
    -1, 0.08651, 0.3964, 0.09485, 0.173, 0, -0.03819, 0.2098, 0.03417, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0.1173, 0.383, 0.4856, 0.3682, -0.09062, -0.01556, 0.1682, 0.09085, -0.05918, 0.0393,
    0.1857, 0.06243, 0.01179, 0.03776, 0.08346, -0.04835, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0.3155, 0.1996, 0.3091, 0.03366, -0.2584, -0.1829, -0.05143, 0.0533,
    -0.2078, -0.219, -0.07737, -0.1201, -0.06566, -0.1974, -0.006633, -0.07355, 0.3356, -0.01186,
    0.06761, 0.1226, -0.03624, 0.248, 0.3513, 0.3815, 0.006981, 0.1394, 0.3731, 0.3445,
    0.08139, 0.2305, 0.4258, 0.3198, 0.4557, 0.153, 0.153, -0.001817, -0.3384, -0.4536,
    -0.06898, 0, -0.2216, -0.1832, -0.05304, 0, -0.2041, -0.08552, -0.003476, 0,
    0.3316, -0.1374, -0.05335, -0.04754, -0.06549, 0.08579, 0.4266, 0.2571, 0.09183, 0.2159,
    0.3937, 0.2284, 0.0331, 0.05068, 0.328, 0.1341, -0.06735, 1.006, 2.004, 1.654,
    0, -0.5521, -1.143, -1.921, 0, -0.4963, -0.8194, -0.8004, 0, 0,
    -0.6212, -0.3499, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, -0.05975, 1.213,
    1.35, 0.814, 0, -0.8188, -1.276, -0.3713, 0, -0.5358, -0.735, -0.5919,
    0, 0, -0.6444, -0.4277, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    -0.1061, 1.077, 0.2086, 0.01003, 0, -0.8666, -1.184, -0.03732, 0, -0.3226,
    -0.3627, 0, 0, 0, -0.2128, -0.08424, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0.2924, 0.08678, 0.2996, 0.2764, 0.3719, 0.09245, 0.173, 0.1868,
    0.4979, 0.05191, 0.1077, 0.1627, 0.4957, -0.007696, 0.06085, 0.1477, 0.2316, -0.08106,
    0.005571, -0.001177, 0.3614, 0.0615, 0.09371, 0.2077, 0.2789, 0.2802, 0.1785, 0.1914,
    0.2999, 0.1007, 0.1474, 0.02797, 0.3881, 0.03598, 0.0023, -0.01509, 0.3612, -0.1196,
    -0.1286, -0.1328, 0.9684, -1.416, -0.9909, -0.5804, 0.9004, -1.612, -0.9677, -0.6677,
    1.223, -1.728, -1.094, -0.6206, 1.457, -1.891, -1.086, -0.515, 1.149, -1.378,
    -0.5386, 0.0354, 0.3391, 0, 0, 0, 0.5938, 0, 0, 0,
    0.8299, 0, 0, -0.006719, 0.9783, -0.01753, -0.009268, -0.02394, 0.6646, -0.1283,
    0.02245, 0.03875, 0.1181, 0.01026, 0.0146, -0.003074, -0.03418, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0.1023, -0.0146, -0.06571,
    -0.01651, 0.0481, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, -0.0498, 0.00342, 0.07183, 0.04412, 0.3424, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, -0.05302, -0.2182, -0.01633,
    0.0002057, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, -0.1211, -0.02161, 0.008105, -0.01784, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0.08599, 0.07702, 0.01625,
    0.03546, -0.04355, 0.08988, 0.1046, 0.04169, 0.02153, 0.07773, 0, 0, 0,
    0, 0, -0.06024, -0.02639, -0.001513, 0.001759, -0.134, 0.09215, -0.009224, -0.006131,
    -0.03326, -0.1215, 0, 0, 0, 0, 0, -0.04167, 0.008206, 0.1049,
    0.108, 0, 0.04161, 0.09657, 0.15, 0.1152, 0, 0, 0, 0,
    0, 0, -0.249, -0.004691, 0.06086, 0.08863, 0, -0.06479, 0.07262, 0.02546,
    0.06744, 0, 0, 0, 0, 0, 0, -0.1108, 0.07328, -0.02268,
    0.01606, 0, -0.07154, 0.0419, -0.1134, 0.07041, 0, 0, 0, 0,
    0, 0, -0.04872, -0.02096, -0.00669, 0.04729, -0.05837, -0.08866, 0.09632, 0.05797,
    0.04092, 0.05837, 0, 0, 0, 0, 0, -0.1561, -0.08822, -0.01249,
    -0.03415, 0, -0.05843, 0.02106, -0.04756, -0.09789, 0, 0, 0, 0,
    0, 0, -0.0521, -0.05137, 0.126, 0.1712, 0, -0.04095, 0.09659, 0.1711,
    0.1332, 0, 0, 0, 0, 0, 0, 0.04569, 0.06243, 0.03166,
    0.2052, 0, 0.1096, 0.1206, 0.06683, 0.1722, 0, 0, 0, 0,
    0, 0, 0.05392, -0.01511, 0.1715, 0, 0, 0.03779, 0.04941, 0.1121,
    0, 0, 0, 0, 0, 0, 0, -0.04401, -0.1376, 0.01661,
    -0.01144, 0, -0.007457, -0.001472, 0.06249, -0.06861, 0, 0, 0, 0,
    0, 0, 0.002598, -0.1169, -0.06123, 0.01721, 0, -0.05277, -0.04082, -0.175,
    -0.08405, 0, 0, 0, 0, 0, 0, 0.05943, 0.01313, 0.04105,
    0.1456, 0, 0.03947, 0.1172, 0.09878, 0.1006, 0, 0, 0, 0,
    0, 0, 0.178, 0.1505, 0.1011, 0, 0, 0.2262, 0.2549, 0.06507,
    0, 0, 0, 0, 0, 0, 0, 0.307, 0.04263, 0.01775,
    0, 0, 0.3393, 0.2104, -0.02643, 0, 0, 0, 0, 0,
    0, 0, -0.03552, -0.1668, -0.08577, 0.04563, 0, -0.0696, 0.03861, -0.1172,
    -0.1077, 0, 0, 0, 0, 0, 0, -0.02095, -0.09148, 0.1528,
    0.04756, 0, -0.1451, -0.07335, -0.09904, -0.1132, 0, 0, 0, 0,
    0, 0, 0.0807, 0.1217, 0.02291, 0, 0, 0.0264, 0.1665, 0.03953,
    0, 0, 0, 0, 0, 0, 0, 0.2973, 0.1175, 0.1816,
    0, 0, 0.2402, 0.2403, 0.1114, 0, 0, 0, 0, 0,
    0, 0, 0.3132, 0.2309, 0.0557, 0, 0, 0.4349, 0.2134, 0.05574,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0.2965, 0.4399, 0.3159, 0.3125, 0.2074, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, -0.1315, -0.3006, -0.3023, -0.3296, -0.03739, 0.06835, -0.2714, -0.5238,
    -0.4884, -0.3051, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, -0.5314, -0.4985, -0.3978, -0.3181, 0.03265, -0.1988, -0.2975, -0.2298,
    -0.2157, -0.03265, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, -0.4564, -0.3348, -0.1253, -0.1235, 0, -0.07871, -0.1262, -0.07081,
    -0.04605, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0.1808, 0.09591, 0.08891,
    -0.06477, 0, -0.8284, -0.4601, -0.1512, 0.1657, 0, 0, 0, 0,
    0, 0, -0.03215, 0.1365, 0.1946, 0.1501, 0.07839, -0.1563, 0.1474, 0.08647,
    0.05877, -0.04876, -0.03879, 0.0725, 0.0219, 0.09239, 0.07146, -0.1432, -0.003997, 0.09486,
    0.06945, 0.1599, -0.05638, 0.1923, 0.1809, 0.1103, 0.04618, 0.02498, 0.1294, 0.1219,
    0.1209, 0.1179, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, -0.09394, 0.1042, 0.1898,
    0.2083, 0.1643, 0.003831, 0.08335, 0.1484, 0.09536, 0.1087, -0.04105, 0.05193, 0.004882,
    0.174, 0.09256, -0.1182, 0.06606, 0.1119, 0.09685, 0.07365, -0.1142, 0.1014, 0.07151,
    0.0985, 0.03091, 0.001112, 0.07294, 0.1254, 0.1957, 0.1393, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, -0.1863, 0.08147, 0.1835, 0.1581, 0.1012, -0.1387, -0.02808, 0.07496,
    0.1194, 0.06272, 0.008103, 0.03761, 0.1199, 0.1803, 0.1363, -0.2402, -0.01936, 0.002538,
    0.09593, 0.0966, -0.1416, -0.006623, 0.1958, 0.113, 0.03354, 0.1334, 0.1986, 0.2596,
    0.2112, 0.1746, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, -0.3536, -0.07013, -0.1144,
    -0.05592, -0.04109, -0.2565, 0.06477, 0.1342, -0.05574, -0.1068, -0.0224, 0.09914, 0.07247,
    0.09573, 0.04314, -0.1883, -0.0588, 0.02162, 0.006241, 0.03641, -0.09565, 0.1947, 0.09567,
    -0.09414, 0.009394, 0.1033, 0.1478, 0.09126, 0.08291, 0.02154, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0.6895, 0.2431, 0.03324, -0.2476, 0.3273, 0.3528, -0.1935, -0.06762,
    0.02866, 0.2425, 0.09406, -0.006825, -0.06038, -0.06218, -0.1103, 0.1216, 0.2261, 0.1416,
    0.4307, -0.1661, 0.3947, 0.2144, 0.1417, 0.02065, 0.1705, 0.01405, -0.1621, -0.1459,
    -0.0624, 0.07109, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0.619, 0.2141, -0.08799,
    -0.1258, -0.08777, 0.6919, -0.2206, -0.2077, -0.136, 0.1245, 0.1332, -0.1949, -0.2699,
    -0.2975, -0.1627, -0.319, -0.3048, -0.08643, 0.01888, -0.2398, -0.05467, -0.3857, -0.3664,
    0.2132, -0.106, 0.03224, -0.3719, -0.1866, -0.1744, 0.1181, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0.7302, 0.05818, -0.4506, -0.3079, -0.7045, 0.3038, -0.2625, -0.422,
    -0.5016, -0.439, -0.001809, -0.03738, -0.1655, -0.2826, -0.3112, -0.6079, -0.8713, -0.5486,
    -0.3712, 0.2172, -0.1537, -0.2644, -0.1598, -0.01376, 0.3624, 0.04157, -0.02864, -0.02444,
    -0.1555, -0.00238, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0.1402, 0.566, 0.2193,
    0.2202, 0.00991, -0.4803, 0.265, 0.1222, -0.2151, -0.3917, -0.4087, -0.02387, 0.01895,
    -0.1164, -0.3673, -0.01777, -0.3672, 0.09503, -0.3462, -0.02563, -0.09903, 0.09801, -0.02846,
    0.1585, -0.09907, -0.07325, 0.01559, 0.0165, -0.002162, -0.03213, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0.1025, 0.1415, 0.226, 0.1235, 0.06971, 0, 0.2198,
    0.2978, 0.1766, 0.03125, 0.08239, 0, 0.5439, 0.239, 0.2915, 0.2779, 0.2812,
    0, 0.3897, 0.1892, 0.3004, 0.5616, 0.3156, 0, 0.2768, 0.4057, 0.5865,
    0.1914, 0.4155, -0.07107, -0.07405, -0.1441, -0.1515, -0.09122, 0.0002938, 0, -0.1202,
    0.039, -0.005661, -0.01951, -0.1797, 0, -0.0344, 0.05791, 0.04731, -0.07275, -0.1087,
    0, 0.1059, 0.001793, -0.03428, -0.02455, -0.04423, 0, -0.08881, -0.1337, 0.1752,
    0.1882, -0.1914, 0, 0, 0, 0, 0, 0, 0.1055, -0.1537,
    0.02998, 0.1241, 0.07538, -0.03245, 0.2041, 0.02031, 0.08064, -0.09784, -0.09394, -0.2548,
    0.2507, -0.1379, 0.2727, -0.1395, 0.03403, -0.2618, 0.2526, 0.06954, 0.2978, 0.1045,
    -0.07066, -0.3703, 0, -0.0966, 0.2707, 0.9827, 0.7842, 0.6684, 0, 1.665,
    0.7872, 1.052, 0.6547, 0.7973, 0, 1.663, 1.03, 1.244, 0.7796, 0.678,
    0, 1.404, 1.074, 1.726, 0.9, 0.4823, 0, 0.5883, 1.292, 1.727,
    0.5226, 0.676, -0.3803, -0.01223, -0.08516, -0.384, -0.242, 0.06647, 0, -0.6935,
    -1.467, -1.243, -1.697, -3.129, 0, -0.7564, -0.5014, -0.4964, -0.8881, -1.339,
    0, -0.6418, -0.4603, -0.8999, -0.6807, -0.9119, 0, -0.2715, -0.4135, -0.6766,
    -0.2355, -0.7671, 0, 0, 0, 0, 0, 0, 0.04188, -0.6225,
    -0.1516, 0.3094, 0.5804, 0.4935, 0.06828, -0.6981, -0.528, -0.5518, -0.8811, -1.511,
    0.005928, -0.628, -0.6131, -0.9657, -0.7494, -0.4029, 0.03098, -0.5313, -0.8985, -0.6922,
    -0.5822, -0.7415, 0, -0.2739, -0.2722, -0.2933, 0, 0.003867, -0.002667, -0.0132,
    0, 0.0945, 0.1141, 0.1073, 0, 0.2047, 0.1934, 0.2081, 0, 0.1738,
    0.0269, -0.2371, 0, -0.2932, -0.215, 0, 0, 0.04187, 0.0001971, 0,
    0, 0.2343, 0.1069, 0, 0, -0.2155, -0.2086, -0.2096, 0, 0.01726,
    0.01383, 0.01843, 0, 0.05814, 0.05314, 0.06779, 0, 0.1108, 0.1089, 0.1145,
    0, 0.3207, 0.2634, -0.2656, 0, -0.09479, 0.06913, 0.1191, 0, -0.1888,
    -0.07472, 0.1508, 0, -0.1938, -0.1768, 0.2328, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, -1.359,
    -1.485, -1.604, 0, -0.04273, 0.09705, 0.1501, 0, 0.2763, 0.3936, 0.4823,
    0, 0.5582, 0.4683, 0.4311, 0, -1.084, -1.235, -1.425, 0, -0.3587,
    0.02121, 0.1458, 0, 0.5252, 0.7013, 0.9254, 0, 0.9145, 1.025, 1.205,
    0, -0.8399, -1.319, -1.796, 0, 0.102, -0.3477, -0.7366, 0, 0.4792,
    0.1825, -0.07926, 0, 0.8256, 0.7681, 0.4697, 0, -0.8896, -1.311, -1.607,
    0, -0.138, 0.1524, 0.3595, 0, 0.3539, 0.571, 0.9045, 0, 0.6764,
    0.8929, 1.195, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    -0.06924, -0.3044, 0, 0, -0.07275, -0.02217, 0, 0, 0.1914, 0.3893,
    0, 0, 0.3749, 0.9163, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, -0.1613, -0.4001, -0.6813, 0,
    0, 0.05856, -0.146, -0.6214, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, -0.3993, -0.7539, -0.8199, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0.1613, 0.4001, 0.6813, 0,
    0, -0.05856, 0.146, 0.6214, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0.3993, 0.7539, 0.8199, 0.5906, 0, -0.08417, 0, -0.08707, 0,
    -0.1215, 0, -0.2632, 0, -0.239, 0, 0.2329, 0.01655, 0.006401, -0.07217,
    -0.01783, -0.0248, -0.1173, -0.05659, -0.1851, 0.04147, -0.1941, -0.05525, 0.2935, -0.003445,
    0.1063, 0.01667, 0.02108, -0.008402, -0.04899, 0.04897, -0.1767, -0.02433, -0.2196, -0.06139,
    0.2951, 0.0007207, 0.04144, -0.01438, 0.05198, 0.0667, 0.01986, 0.06222, -0.008754, -0.003975,
    -0.2308, -0.01503, 0.1873, -0.009093, 0.1184, -0.02861, 0.1124, -0.04278, 0.07963, -0.07291,
    0.005795, 0.07826, -0.0978, 9.074e-05, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0.2081, -0.01655, 0.01107, 0.07217,
    0.02677, 0.0248, -0.03571, 0.05659, -0.03817, -0.04147, 0.0729, 0.05525, 0.2781, 0.003445,
    0.07984, -0.01667, -0.04798, 0.008402, -0.08874, -0.04897, -0.1315, 0.02433, 0.01075, 0.06139,
    0.2608, -0.0007207, -0.03183, 0.01438, -0.06348, -0.0667, -0.09467, -0.06222, -0.1025, 0.003975,
    -0.1044, 0.01503, 0.1484, 0.009093, 0.002315, 0.02861, -0.04691, 0.04278, -0.1237, 0.07291,
    -0.1407, -0.07826, -0.1195, -9.074e-05, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0.2689, 0.1337, -0.2722, 0.2407,
    -0.1275, 0.01389, 0.01029, -0.0424, 0.0866, -0.3047, 0.3776, -0.7306, 0.2789, 0.08526,
    -0.1367, 0.5043, -0.3938, 0.3699, -0.2388, 0.05045, -0.1635, -0.2544, -0.09627, -0.9837,
    0.1485, 0.1058, 0.1412, 0.4094, 0.074, 0.4087, -0.1219, 0.08887, -0.3571, 0.06503,
    -0.5821, -0.6498, 0.07806, 0.06816, 0.2578, 0.2883, 0.1505, 0.5015, -0.0331, 0.5133,
    -0.259, 0.5922, -0.7238, -0.1125, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, -0.3058, -0.0968, -0.1721, 0.2037,
    -0.1214, 0.235, -0.1791, 0.2112, -0.08719, 0.3053, 0.01984, 0.3332, -0.2114, -0.05383,
    -0.3944, -0.08658, -0.2846, -0.01218, -0.2576, 0.07006, 0.0882, 0.1298, 0.51, 0.3996,
    -0.1984, -0.02675, -0.5686, -0.1413, -0.3964, -0.08117, -0.2481, -0.04515, 0.06834, 0.1276,
    0.7663, 0.5688, -0.09882, -0.01962, -0.2896, -0.2016, -0.2808, -0.3372, -0.1559, -0.2442,
    0.007425, -0.2798, 0.4989, 0.2018, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, -0.09889,
    0, 0.1134, 0, 0.3207, 0, 0.3759, 0, 0.1999, 0, 0.1703,
    0, -0.02914, 0, 0.1592, 0, -0.005213, 0, 0.3263, 0, 0.09622,
    0, -0.1032, 0, -0.02777, 0, -0.05492, 0, -0.03396, 0, -0.08016,
    0, -0.0608, 0, 0.1355, 0.06673, 0.04888, 0, 0.07793, 0.07528, 0,
    0.01454, 0.06778, 0, -0.02729, 0.03704, 0, -0.06022, 0.02131, 0, 0.001269,
    0.02988, 0, 0.0003283, -0.08249, 0, 0.0005696, 0.01535, 0, 0.0002342, 0.04341,
    0, 0, 0.02837, 0, 0.02877, -0.04092, 0, 0.04761, 0.0015, 0,
    0.01069, 0.009253, 0, -0.01039, 0.01003, 0, -0.04854, 0.007066, 0, 0.02244,
    -0.09819, 0, 0.04948, 0.09424, 0, 0.02142, 0.02988, 0, 0.01516, 0.04632,
    0, 0.01956, 0.1753, 0, 0.02307, -0.002617, 0, 0.03819, -0.05829, 0,
    0.02379, -0.002511, 0, -7.463e-06, 0.0415, 0, -0.001899, 0.01921, 0, -0.01103,
    -0.03362, 0, 0.0393, -0.08826, 0, 0.01661, -0.06661, 0, -0.01043, 0.003487,
    0, -0.02728, 0.07559, 0, -0.01369, -0.1102, 0, -0.0446, -0.1376, 0,
    -0.05226, -0.07128, 0, -0.05204, 0.001164, 0, 0.05039, 0.01268, 0, 0.0515,
    0.03776, 0, -0.01886, 0.006255, 0, -0.02565, 0.008434, 0, -0.0897, -0.008484,
    0, -0.2164, -0.05507, 0, 0.03152, 0.2936, 0, -0.01037, 0.1578, 0,
    -0.0278, -0.01876, 0, -0.02029, -0.2117, 0, 0.01023, -0.02548, 0, 0.08828,
    0.4177, -0.005979, 0.1269, 0.2643, 0.1842, 0.0887, 0.2601, 0.02225, 0.02091, 0.1133,
    0, -0.001635, -0.04435, 0, 0.2501, -0.01402, 0, 0.04902, -0.1136, 0,
    -0.09258, -0.2994, 0, -0.1375, -0.3963, 0, 0.01617, -0.008437, 0, 0.4105,
    -0.002239, 0.01858, 0.442, -0.05735, 0.2749, 0.281, -0.004678, 0.2949, 0.09058, 0.121,
    0.1975, -0.0008488, -0.00686, -0.00896, 0.2578, -0.06218, 0, 0.02421, -0.2597, 0,
    -0.1793, -0.3793, 0, -0.3651, -0.4999, 0, -0.04321, -0.1355, 0, 0.4841,
    -0.2551, 0.03716, 0.3399, -0.1862, 0.1155, 0.2323, 0.1259, 0.3883, 0.1976, 0.3975,
    0.4409, -0.007463, 0.115, -0.02146, -0.504, -0.1018, 0, -0.244, -0.03677, 0,
    -0.2528, -0.05499, 0, -0.2877, -0.1111, 0, -0.108, -0.01344, 0, -1.206,
    -0.1222, -0.01561, -0.761, -0.0996, -0.2101, -0.07753, -0.0383, -0.268, 0.3753, 0.1154,
    -0.04042, 0.238, 0.04656, -0.0002828, 0, 0, 0, 0, -0.2297, 0.02725,
    0.1258, 0.209, -0.2315, 0.01422, 0.1102, 0.2008, -0.2365, 0.01466, 0.1245, 0.2061,
    0, 0, 0, 0, 0.3726, -0.1199, -0.1889, -0.2028, 0.316, -0.01825,
    -0.1425, -0.2374, -0.2371, 0, 0, 0, 0, 0, 0, 0,
    -0.2596, -0.006123, 0.02681, 0.1066, -0.2492, -0.003057, 0.05702, 0.1015, -0.2664, -0.009425,
    0.05061, 0.1165, 0, 0, 0, 0, 0.1219, -0.2681, 0.04196, 0.2432,
    -0.02571, -0.1276, 0.068, 0.1676, -0.2656, 0.1191, 0.1508, 0.2328, 0, 0,
    0, 0, -1.359, -0.04273, 0.2763, 0.5582, -1.803, -0.5241, 0.04055, 0.5173,
    -2.232, -0.8799, -0.3155, 0.2053, 0, 0, 0, 0, -0.9989, -0.2135,
    0.4867, 0.8927, -1.509, 0.1792, 0.8145, 1.178, -1.985, 0.3022, 1.062, 1.563,
    0, 0, 0, 0, -0.8399, 0.102, 0.4792, 0.8256, -1.002, 0.2734,
    0.5355, 0.719, -1.167, 0.2935, 0.7186, 0.6955, 0, 0, 0, 0,
    -0.9744, -0.2832, 0.3924, 0.6983, -1.106, -0.07828, 0.6492, 1.115, -1.351, 0.1808,
    1.158, 1.752, 0.08064, 0.05787, 0.03686, 0.08221, 0.08269, 0, 0, 0,
    0, 0, -0.1568, -0.1337, -0.1584, -0.1314, -0.08955, 0, 0, 0,
    0, 0, -0.163, -0.1605, -0.1515, -0.1511, -0.1575, 0, 0, 0,
    0, 0, -0.194, -0.1423, -0.153, -0.1045, -0.1482, 0, 0, 0,
    0, 0, -0.1114, -0.195, -0.05968, -0.07289, -0.103, 0, 0, 0,
    0, 0, -0.1783, -0.07178, -0.1483, -0.0877, -0.05863, 0, 0, 0,
    0, 0, -0.2246, -0.1519, -0.1426, -0.09151, -0.1995, 0, 0, 0,
    0, 0, -0.1146, -0.07089, -0.07402, -0.07227, -0.1021, 0, 0, 0,
    0, 0, -0.02162, -0.009747, 0.02039, -0.01484, -0.007811, 0, 0, 0,
    0, 0, -0.02814, 0.0005403, 0.02454, -0.03752, -0.005581, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0.3265, 0.284, 0.228, 0.3047, 0.3069, 0, 0, 0,
    0, 0, 0.2866, 0.2417, 0.2906, 0.2285, 0.2461, 0, 0, 0,
    0, 0, 0.2966, 0.1773, 0.1002, 0.1043, 0.13, 0, 0, 0,
    0, 0, 0.2021, 0.1744, 0.1869, 0.04411, 0.1062, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0.2678, 0.2734, 0.1051, -0.0304, -0.01753, -0.2678, -0.2734, -0.1051,
    0.0304, 0.01753, 0.2452, 0.28, 0.1184, 0.03779, -0.0098, -0.2452, -0.28, -0.1184,
    -0.03779, 0.0098, -0.006336, 0.0622, 0.3238, 0.006387, 0.02859, 0.006336, -0.0622, -0.3238,
    -0.006387, -0.02859, -0.01096, 0.07839, 0.1898, 0.005335, 0.02597, 0.01096, -0.07839, -0.1898,
    -0.005335, -0.02597, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0.01099, -0.2499, -0.1022, -0.08115, -0.007719, -0.01099, 0.2499, 0.1022,
    0.08115, 0.007719, -0.2709, -0.1164, -0.1191, -0.004963, -0.004547, 0.2709, 0.1164, 0.1191,
    0.004963, 0.004547, -0.3394, -0.1243, -0.01197, -0.00671, 0.01259, 0.3394, 0.1243, 0.01197,
    0.00671, -0.01259, -0.04112, -0.07021, 0.06741, -0.003066, 0.003513, 0.04112, 0.07021, -0.06741,
    0.003066, -0.003513, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, -0.168, -0.3762, -0.1148, -0.0367, 0.02534, 0.168, 0.3762, 0.1148,
    0.0367, -0.02534, -1.045, -0.3055, -0.07262, -0.04878, 0.01639, 1.045, 0.3055, 0.07262,
    0.04878, -0.01639, -0.7773, -0.4529, -0.03485, 0.03138, 0.01458, 0.7773, 0.4529, 0.03485,
    -0.03138, -0.01458, -0.221, -0.3645, -0.5148, 0.005393, 0.001533, 0.221, 0.3645, 0.5148,
    -0.005393, -0.001533, -0.03241, -0.07702, 0, 0.01082, -0.01082, 0, 0, 0,
    0, 0, 0, 0, -0.09142, -0.0588, 0, 0.00248, -0.00248, 0,
    0.2033, 0.07514, 0, -0.09229, 0.09229, 0, -0.1766, -0.09089, 0, -0.03108,
    0.03108, 0, 0.1679, 0.08081, 0, -0.05142, 0.05142, 0, -1.228, -1.721,
    0, 0.9631, 0.8248, 1.161, 0, 0, 0, 0, 0, 0,
    -0.2962, -0.6079, 0, 0.4187, 0.2514, 0.234, 0, 0, 0, 0,
    0, 0, -0.1095, 0.03789, 0, -0.02052, 0.0837, 0.008473, 0, 0,
    0, 0, 0, 0,
)
"""GENERATED by ``python bench/ot_learn.py regenerate DIR`` (its ``write`` command): the play
model's weights, one per entry of each table, :data:`LEAD_TABLES` then :data:`FOLLOW_TABLES`
(:func:`table_offsets`), in points of margin; fitted on seeds 1000 and 1200 (40 000 deals each),
not the strength table's."""
