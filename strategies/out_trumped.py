"""Out-Trumped heuristics, on card sets (option = suit * ranks + rank - 1; at bids, 0 = pass).

The deck's shape is a rule option: every table comes from ``view.layout``."""

from __future__ import annotations

from functools import cache

import numpy as np

from simtool import bits, deck
from simtool.games.out_trumped import BID, DISCARD, PASS, TRUMP
from simtool.games.tricks import LEAD

from .base import forced, strategy
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
    if getattr(highest, "ndim", 0):  # a bool or an array (np.ndim's wrapper costs more)
        r = bits.lowest(ranks)
        r += (bits.highest(ranks, layout.ranks) - r) * highest
    else:
        r = bits.highest(ranks, layout.ranks) if highest else bits.lowest(ranks)
    # on small batches np.clip's and np.take's Python wrappers cost several times their work (two
    # ufuncs and the method instead); on large ones np.clip's one pass is the cheaper
    if r.size > bits.SMALL_BATCH:
        np.clip(r, 0, layout.ranks - 1, out=r)
    else:
        np.maximum(r, 0, out=r)
        np.minimum(r, layout.ranks - 1, out=r)
    layout.rank.take(r, out=part)
    part &= cards
    card = bits.lowest(part)  # 64 only where ``cards`` is empty: -1 there
    card -= 65 * (card >> 6)
    return card


def _prefer(layout, first, then, highest: bool):
    """A card of ``first`` if any (by rank), else of ``then``."""
    return _by_rank(layout, bits.first_of(first, then), highest)


def _long_suit(layout, hand):
    return _suit_lengths(layout, hand).argmax(axis=1)


def _suit_lengths(layout, cards):
    """How many cards of each suit ``cards`` holds, ``(n, suits)`` uint8 (one count over a table,
    not one per suit and a stack)."""
    return bits.count(cards[:, None] & layout.suit)


def _bid(view, estimate):
    """Bid the estimate when it beats the standing bid (and fits the hand), else pass."""
    bid = np.minimum(estimate, view.hand_size)
    return bits.where(bid > view.standing, bid, PASS)


def _trick_trumps(view):
    cards = bits.where(view.trick >= 0, bits.BIT[np.maximum(view.trick, 0)], bits.EMPTY)
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
    return bits.where(want & (win != 0), cheapest, bits.where(lose != 0, shed, lowest))


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
    suits = _suit_column(layout)
    # per suit and deal, ``(suits, n)``: (cards of the suit in the hand) << 8 | suit, plus 1 << 15
    # where ``cards`` holds none of the suit (a suit has at most 64 cards: below it otherwise);
    # uint16, and its least per deal: a suit a row, so that the least is a pass over whole rows (a
    # reduce along a short inner axis costs several times more), in a dozen numpy calls where a
    # pass per suit took seven each (half the time on a search's batches of a few hundred deals)
    key = bits.count(suits & view.hand).astype(np.uint16)
    key <<= np.uint16(8)
    key |= _suit_numbers(layout)
    none = np.equal(suits & cards, 0)
    key |= none.view(np.uint8) << np.uint16(15)
    least = np.minimum.reduce(key, axis=0)
    least &= np.uint16(0x80FF)  # the suit, or 1 << 15 | suit for none
    index = least.astype(np.int64)
    np.minimum(index, layout.suits, out=index)
    return cards & _suits_then_none(layout).take(index)


@cache
def _suit_column(layout):
    """The cards of each suit, ``(suits, 1)`` (:func:`_shortest`'s rows)."""
    return layout.suit[:, None].copy()


@cache
def _suit_numbers(layout):
    """``0, 1, ... suits - 1`` as uint16, ``(suits, 1)`` (:func:`_shortest`'s keys)."""
    return np.arange(layout.suits, dtype=np.uint16)[:, None]


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
    if (only := forced(view)) is not None:
        return only
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
    # a plain trick only a trump wins: the cheapest winning trump, sure or not (a Python bool or
    # numpy's: np.any's wrapper costs more than the test)
    if cheap_ruff is True or (cheap_ruff is not False and cheap_ruff.any()):
        ruffing = (view.led != view.trump) & ((win & plain) == 0)
        sure = sure * ~(cheap_ruff & ruffing)
    # ``win``, ``sure`` and ``lose`` are legal cards: their plain cards are those of ``plain``
    lose = legal & ~win
    shed = bits.first_of(_shortest(view, lose & plain), lose)
    # a sure winner (plain first), else a hopeful one, else the shed
    hopeful = bits.first_of(bits.first_of(win & plain, win), shed)
    return _by_rank(layout, bits.first_of(bits.first_of(sure & plain, sure), hopeful), highest=False)


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
    """The highest card of each suit in ``cards``, ``(m,)`` sets: the cards below no other card of
    their suit (those below one smeared down their suits as in :func:`_boss`, a few operations on
    every suit at once where a pass per suit took eight each)."""
    steps = _smear(layout)
    if not steps:  # one rank: every card is its suit's top
        return cards.copy()
    shift, stays = steps[0]
    below = (cards >> shift) & stays  # the cards one rank below a card of ``cards``
    for shift, stays in steps:
        below |= (below >> shift) & stays
    return cards & ~below


def _outranking(layout, tops, rank, suit):
    """Of ``tops`` (at most a card a suit), the cards of a higher rank than ``rank`` or of its rank
    in a lower suit than ``suit`` (per deal): every suit in one ``(m, suits)`` table (a pass per
    suit took eight numpy calls each, on every lead :func:`_read` reads)."""
    top = tops[:, None] & layout.suit  # (m, suits)
    r = bits.highest(top >> _suit_shifts(layout), layout.ranks)
    r += 1  # the rank, 0 for none (highest's -1)
    rank = rank[:, None]
    beats = (r > rank) | ((r == rank) & (_suit_numbers(layout).T < suit[:, None]))
    top *= beats
    return np.bitwise_or.reduce(top, axis=1)


@cache
def _suit_shifts(layout):
    """Each suit's lowest card's number, uint64 (a set shifted down by it: the suit's ranks)."""
    return np.arange(layout.suits, dtype=np.uint64) * np.uint64(layout.ranks)


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
    card_bits = bits.where(history >= 0, bits.BIT[np.maximum(history, 0)], bits.EMPTY)
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
    # read once, not at each of up to 13 x p plays (each a numpy call or an attribute look-up)
    acting, hand_size, not_excluded = view.seat, view.hand_size, ~view.excluded
    for t in range(tricks):
        first = np.maximum(leaders[:, t], 0)
        led_live = leaders[:, t] >= 0
        led = np.zeros(m, np.int64)
        top_led = np.zeros(m, np.int64)  # the highest rank of the led suit in the trick
        top_trump = np.zeros(m, np.int64)  # the highest trump in a plain trick, 0 none
        for i in range(p):
            seat = (first + i) % p
            card = history[rows, t, seat]
            live = led_live & (card >= 0)
            if not live.any():
                break
            c = np.maximum(card, 0)
            bit = bits.where(live, bits.BIT[c], bits.EMPTY)
            suit, rank = suit_of[c], rank_of[c]
            is_trump = (bit & trumps) != 0
            unplayed = deck & ~played
            ruled = out[rows, seat]  # what the seat's earlier plays ruled out
            others = elsewhere[rows, seat]
            broken[rows, seat] |= (ruled & bit) != 0
            if i == 0:
                tops = _tops(layout, unplayed)
                top = (tops & bit) != 0
                # not the highest card out of its suit: hoarder held no such card in any suit,
                # and led the lowest of its (shortest plain) suit, or a trump for want of plain
                low = tops | (layout.suit_cards(suit) & bits.below(c)) | bits.where(is_trump, plain, bits.EMPTY)
                # the highest card out of a plain suit: no higher-ranked such card elsewhere (it
                # leads the highest rank, the lowest suit on a tie) and, where trumps were
                # surely out against it, not the highest trump (it would have drawn them)
                beaten = _outranking(layout, tops, rank, suit)
                trumps_out = (unplayed & trumps & others) != 0
                cash = (beaten & plain) | bits.where(trumps_out, tops & trumps, bits.EMPTY)
                new = bits.where(top, bits.where(is_trump, bits.EMPTY, cash), low)
                shortest = ~top & ~is_trump
                led = suit
                top_led = rank
            else:
                last = i == p - 1
                trump_led = led == trump
                on_top = (top_trump > 0) & ~trump_led
                same = suit == led
                wins = bits.where(on_top, is_trump & (rank > top_trump),
                                (same & (rank > top_led)) | (is_trump & ~trump_led))
                floor = bits.where(same & ~on_top, top_led, bits.where(is_trump, top_trump, 0))
                floor = bits.where(trump_led, top_led, floor)
                between = _between(layout, suit, floor, c) & unplayed
                higher = layout.suit_cards(suit) & ~bits.below(c + 1) & unplayed
                unsure = (higher & others) != 0  # a higher card out, not its own
                next_below = bits.where(between != 0, bits.BIT[np.maximum(bits.highest(between), 0)], bits.EMPTY)
                won = bits.where(unsure | last, between, next_below)
                if not last:  # unsure of the trick: it held none sure to take it either
                    won |= bits.where(unsure, _tops(layout, higher), bits.EMPTY)
                # a loser: the lowest it could lose with in its suit (above the led top where a
                # higher led card had to be played); a trump under a higher one: no trump above it
                low_from = bits.where(same & (rank > top_led), top_led, 0)
                lost = _between(layout, suit, low_from, c) & unplayed
                over = trumps & ~bits.below(np.maximum(trump, 0) * layout.ranks + top_trump) & unplayed
                lost |= bits.where(is_trump & on_top, over, bits.EMPTY)
                new = bits.where(wins, won, lost)
                shortest = ~wins & ~is_trump & (suit != led)
                top_led = bits.where(same, np.maximum(top_led, rank), top_led)
                top_trump = bits.where(is_trump & ~trump_led, np.maximum(top_trump, rank), top_trump)
            read = live & (seat != acting)
            # the odds that hoarder, not a player choosing at random among its cards, made this
            # lead or throw: its hand size times the chance that a hand holds none of the cards
            # the play rules out afresh (a lead of a king from below shows a lot, and is rare)
            unknown = unplayed & ~own
            fresh = bits.count(new & ~bit & unknown & ~ruled & not_excluded[rows, seat])
            held = hand_size - t
            odds = np.log(held) + fresh * np.log1p(-held / np.maximum(bits.count(unknown), held + 1))
            trust[rows, seat] += bits.where(read & ((i == 0) | shortest), odds, 0.0)
            out[rows, seat] = ruled | bits.where(read, new & ~bit, bits.EMPTY)
            shown = read & shortest
            if shown.any():
                events.append((t, seat, suit, shown))
            played |= bit
    broken |= trust < TRUST
    out = bits.where(broken, bits.EMPTY, out)
    # a seat whose hand would no longer fit among the cards it may hold: no inference for it
    unseen = deck & ~(view.hand | view.played | view.discarded)
    room = bits.count(unseen[:, None] & ~(view.excluded | out))
    out = bits.where(room < view.hand_sizes, bits.EMPTY, out)
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
    card_bits = bits.where(history >= 0, bits.BIT[np.maximum(history, 0)], bits.EMPTY)
    trump = np.repeat(view.trump, k)
    miss = np.zeros(n, np.int64)

    def played_from(t, seat):
        """Per deal, the cards ``seat`` (per deal) played from trick ``t`` on."""
        return np.bitwise_or.reduce(card_bits[np.arange(m), t:, seat], axis=1)

    suits = np.arange(layout.suits)[None, :]
    for t, seat, suit, shown in events:
        later = played_from(t, seat)
        seat, suit, shown = np.repeat(seat, k), np.repeat(suit, k), np.repeat(shown, k)
        at = rows[shown]
        held = hands[at, seat[at]] | later[at // k]
        c = _suit_lengths(layout, held)
        mine = c[np.arange(at.size), suit[at]][:, None]
        plain = suits != trump[at, None]
        shorter = plain & (c > 0) & ((c < mine) | ((c == mine) & (suits < suit[at, None])))
        miss[at] += shorter.any(axis=1)
    dealer = view.dealer
    wild = np.repeat(_picked_wild(view), k)
    if wild.any():
        at = rows[wild]
        held = hands[at, dealer] | played_from(0, np.full(m, dealer))[at // k]
        c = _suit_lengths(layout, held)
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
    rows = np.flatnonzero(bits.any_in_row(hands & ruled_out))
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
    todo = np.flatnonzero(bits.any_in_row(hands & ~allowed))
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
        pick = bits.where(fits.any(axis=1)[:, None], fits, may)
        b = np.argmax(bits.where(pick, rng.random(pick.shape), -1.0), axis=1)
        go = r[pick.any(axis=1)]
        held = h[r, b]
        give = bits.first_of(held & takes, held)
        back = bits.BIT[bits.uniform(bits.first_of(give, bits.BIT[0]), rng, n_cards)]
        _swap(h, go, s[go], b[go], moved[go], back[go])
        hands[todo] = h
        # a row whose wrong card no other seat may take cannot fit (the card belongs to a kitty
        # or the taker's discards): it stays as it is, the rule's constraints still kept
        todo = todo[bits.any_in_row(h & ~a) & pick.any(axis=1)]
    if mended.size:
        # MIX sweeps of: seats x and y drawn (two rng.integers(0, p, rows)), a random card of
        # each of their hands (bits.uniform), swapped where both may hold what they get; deck.mix
        # plays the same sweeps from the same random numbers at a third of the calls
        h = hands[mended]
        deck.mix(h, allowed[mended], rng, MIX)
        hands[mended] = h
    return hands


def _swap(hands, rows, a, b, card_a, card_b) -> None:
    """Seat ``a`` gives ``card_a`` to seat ``b`` and takes ``card_b`` from it, in ``rows``."""
    hands[rows, a] = hands[rows, a] & ~card_a | card_b
    hands[rows, b] = hands[rows, b] & ~card_b | card_a


hoarder.choose.redeal = redeal
