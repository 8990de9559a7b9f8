"""Nine Lives (Tricksy Kittens, Pandaqi), read next to ``docs/rules/nine-lives.md``; powers are out of scope.

Option ``c`` is the card of suit ``c // ranks`` (one suit per player) and rank ``c % ranks + 1``
(9 ranks on the sheet). Everyone bids a card at once; its rank is the bid and its suit is the
player's own *ignored* suit. The Kittykeeper leads, and trump is the suit of the Kittykeeper's
bid, so trump moves with the Kittykeeper. Scored bid cards become lives and leave the deck,
so the deck (and the hands) shrink across the rounds of a match, which ends once someone has
9 lives (the ``lives_to_end`` rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from .. import bits
from .. import deck as deck_module
from ..engine import OWN, PUBLIC, Decision, Game, Hidden, Match, View, across_seats, add, cells, declare
from ..errors import SimtoolError
from ..options import number
from . import cards
from .cards import Layout
from .tricks import (
    FOLLOW,
    HISTORY,
    LEAD,
    WINNERS,
    TrickRound,
    init_history,
    leaders_field,
    play_trick,
    play_unwatched_trick,
    record_trick,
    restore_history,
    shown_void,
)

RANKS = 9
"""The sheet's ranks per suit."""
LIVES = 9
"""The sheet's lives that end the match."""
MIN_HAND = 2
MAX_CARDS = 64
"""The largest deck a card set (a uint64) holds: the option space of every deck."""
BID = "bid"
"""Decision kind: every seat at once places a card face down; its rank is the bid."""


def layout(p: int, ranks: int = RANKS) -> Layout:
    """The full deck for ``p`` players, one suit of ``ranks`` each: labels ``A1``, ``B7``..."""
    return cards.layout(p, ranks)


def deck_of(p: int, ranks: int = RANKS) -> np.uint64:
    """The full deck for ``p`` players: one suit each."""
    return bits.full(ranks * p)


@dataclass
class LivesMatch(Match):
    piles: np.ndarray  # (n,) every bid card scored so far (out of the deck for good)
    keeper: np.ndarray  # (n,) the Kittykeeper for the next round

    @property
    def ranks(self) -> int:
        return self.rules.get("ranks", RANKS)

    @property
    def lives_to_end(self) -> int:
        return self.rules.get("lives_to_end", LIVES)


@dataclass
class Round(TrickRound):
    """One round of ``n`` deals. A seat knows its hand and bid, every bid once revealed (before
    play), the leftover cards, the cards played, every seat's tricks and lives; the other hands
    are hidden."""

    books_unwatched = False  # the rules read neither the trick, the cards played nor the history

    p: int
    rnd: int = declare(PUBLIC, "", "Round of the match, 0 for the first (one number).")
    hand_size: np.ndarray = declare(PUBLIC, "n", "Cards dealt to each player this round, ``(m,)``.")
    deck: np.ndarray = declare(PUBLIC, "n", "This round's deck: every card not in a life pile, ``(m,)`` sets.")
    leftover: np.ndarray = declare(PUBLIC, "n", "Cards revealed and unused this round, ``(m,)`` sets.")
    hands: np.ndarray = declare(OWN, "n p", "The acting seat's cards, ``(m,)`` sets.", view="hand", cards=True)
    bid: np.ndarray = declare(PUBLIC, "n p", "Every seat's bid card, -1 until revealed (revealed before "
                              "play), ``(m, p)``.")
    keeper: np.ndarray = declare(PUBLIC, "n", "The Kittykeeper (leader; its bid suit is trump), ``(m,)``.")
    played: np.ndarray = declare(PUBLIC, "n", "Cards played so far this round, ``(m,)`` sets.")
    trick: np.ndarray = declare(PUBLIC, "n p", "Card each seat put in the current trick, -1 not yet, ``(m, p)``.")
    lead_suit: np.ndarray = declare(PUBLIC, "n", "Suit led in the current trick, ``(m,)``.")
    trump: np.ndarray = declare(PUBLIC, "n", "Trump for the current trick: the Kittykeeper's bid suit, ``(m,)``.")
    best: np.ndarray = declare(PUBLIC, "n", "Strength of the counted card winning so far (trump 100 + rank; "
                               "0 none), ``(m,)``.")
    winning: np.ndarray = declare(PUBLIC, "n", "Seat winning the current trick so far, ``(m,)``.")
    tricks: np.ndarray = declare(PUBLIC, "n p", "Tricks won so far by every seat, ``(m, p)``.")
    fallback: np.ndarray = declare(PUBLIC, "n p", "Tricks each seat won as Kittykeeper because no counted "
                                   "card won, ``(m, p)``.")
    totals: np.ndarray = declare(PUBLIC, "n p", "Lives before this round, ``(m, p)``.")
    bidding: bool = declare(PUBLIC, "", "Whether the simultaneous bid is still to come (one bool).", default=True)
    trick_no: int = declare(PUBLIC, "", "Tricks completed so far this round (one number).", default=0)
    step: int = declare(PUBLIC, "", "Position in the trick: 0 lead, i the i-th follower (one number).", default=0)
    # the finished tricks (T: the most tricks of any deal): cards, the Kittykeeper who led, the
    # winner; the view shows them as ``history``, ``leaders`` and ``winners``
    past: np.ndarray | None = declare(PUBLIC, "n T p", view=None, default=None)
    past_leader: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    past_winner: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    layout: Layout | None = None  # p suits of the ``ranks`` rule (None: the sheet's 9 ranks)
    lives_to_end: int = LIVES  # the match ends after a round in which someone has this many lives

    def __post_init__(self):
        if self.layout is None:
            self.layout = layout(self.p)
        init_history(self, int(self.hand_size.max()) - 1)  # the bid card is never played

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    def follow_set(self, hand: np.ndarray) -> np.ndarray:
        kept = getattr(self, "_led_kept", None)  # the led suit's cards: once a trick, not once a card
        if kept is None or kept[0] is not self.lead_suit:
            kept = self._led_kept = (self.lead_suit, self.layout.suit.take(self.lead_suit))
        same = hand & kept[1]
        return bits.first_of(same, hand)

    def on_lead(self, card: np.ndarray) -> None:
        self.lead_suit = self.layout.card_suit[np.maximum(card, 0)]

    def key(self, card: np.ndarray, at: np.ndarray) -> np.ndarray:
        """:func:`strength` of ``card`` from the seat at ``at``; no card counts in a deal whose
        rounds have run out of tricks (``card`` -1 there)."""
        # every bid is revealed in play; one lookup in the table of every case (see _strengths),
        # at the trick's part of the entry plus the seat's plus the card: the first two worked
        # out once a trick and once a round, where each card took eleven whole-array steps
        case = self._seat_parts().take(at)
        case += self._trick_part()
        case += card
        return _strengths(self.layout).take(case)

    def ranked(self, card: np.ndarray, at: np.ndarray) -> np.ndarray:
        """:meth:`key` times 8, int16, for a card of every deal (see
        :func:`~simtool.games.tricks.play_unwatched_trick`)."""
        case = self._seat_parts().take(at)
        case += self._trick_part()
        case += card
        return _ranked_strengths(self.layout).take(case)

    def _seat_parts(self) -> np.ndarray:
        """Each cell's part of a :func:`_strengths` entry, ``(n * p,)`` int64: its seat's bid suit
        times ``cards + 1``, plus 1 (card -1 reads the entry's first place). Kept with the bids
        it was worked out from: a copy of the state, or new bids, work it out again."""
        kept = getattr(self, "_seat_kept", None)
        if kept is None or kept[0] is not self.bid:
            suit = self.layout.card_suit.take(np.maximum(self.bid, 0)).reshape(-1)
            kept = self._seat_kept = (self.bid, suit * (self.layout.cards + 1) + 1)
        return kept[1]

    def _trick_part(self) -> np.ndarray:
        """Each deal's part of a :func:`_strengths` entry for the trick under way, ``(n,)``:
        ``(trump * S + lead suit) * S * (cards + 1)``, kept with the arrays it came from."""
        kept = getattr(self, "_trick_kept", None)
        if kept is None or kept[0] is not self.trump or kept[1] is not self.lead_suit:
            part = self.trump * self.layout.suits
            part += self.lead_suit
            part *= self.layout.suits * (self.layout.cards + 1)
            kept = self._trick_kept = (self.trump, self.lead_suit, part)
        return kept[2]


def strength(layout: Layout, card, seat_suit, trump, lead_suit) -> np.ndarray:
    """How strongly ``card`` bids for the trick: a card of its own player's bid suit is ignored
    (0); then trumps (100 + rank), then the lead suit (rank); any other card 0."""
    suit, rank = layout.card_suit[card], layout.card_rank[card]
    counted = suit != seat_suit
    return np.where(counted & (suit == trump), 100 + rank, np.where(counted & (suit == lead_suit), rank, 0))


@cache
def _strengths(layout: Layout) -> np.ndarray:
    """:func:`strength` for every trump, lead suit, bid suit of the seat and card, read-only, flat:
    entry ``((trump * S + lead) * S + seat_suit) * (cards + 1) + card + 1`` (``S`` suits), and
    0 for card -1 (no card played). A quarter of the time of working the rule out per card."""
    s, c = layout.suits, layout.cards
    trump, lead, seat_suit, card = np.meshgrid(range(s), range(s), range(s), range(c), indexing="ij")
    table = np.zeros((s, s, s, c + 1), np.int64)
    table[..., 1:] = strength(layout, card, seat_suit, trump, lead)
    table = table.reshape(-1)
    table.flags.writeable = False
    return table


class NineLivesView(View, state=Round):
    """What a seat knows (see :class:`Round`), and what it infers."""

    def __init__(self, game, state, *args, **kwargs):
        super().__init__(game, state, *args, **kwargs)
        # rules of the whole run (numbers), not deal state
        self._ranks, self._lives_to_end = state.layout.ranks, state.lives_to_end

    @property
    def _layout(self) -> Layout:
        return layout(self.players, self._ranks)

    @property
    def ranks(self) -> int:
        """Ranks per suit (the ``ranks`` rule, 9 on the sheet): card ``c`` is rank ``c % ranks + 1``
        of suit ``c // ranks``, one suit per player (one number)."""
        return self._ranks

    @property
    def lives_to_end(self) -> int:
        """Lives that end the match after the round in which someone reaches them (the
        ``lives_to_end`` rule, 9 on the sheet; one number)."""
        return self._lives_to_end

    history = HISTORY
    leaders = leaders_field("keeper")
    winners = WINNERS

    @cached_property
    def winners_now(self) -> np.ndarray:
        """Legal cards that would take the lead of the trick as it stands, ``(m,)`` sets (at a
        lead, every legal card; at a decision that plays no card, none)."""
        if self.kind != FOLLOW:
            return self.legal.copy() if self.kind == LEAD else np.zeros(len(self), np.uint64)
        rows, lay = np.arange(len(self)), self._layout
        counted = self.legal & ~lay.suit[lay.card_suit[np.maximum(self.bid[rows, self.seat], 0)]]
        trumps = counted & lay.suit[bits.clamp(self.trump, 0, self.players - 1)]
        over_trump = trumps & ~bits.below(bits.clamp(self.trump * lay.ranks + self.best - 100, 0, 64))
        over_lead = counted & lay.suit[self.lead_suit] & ~bits.below(
            bits.clamp(self.lead_suit * lay.ranks + self.best, 0, 64))
        return np.where(self.best >= 100, over_trump, over_lead | trumps)

    @cached_property
    def hand_sizes(self) -> np.ndarray:
        """Cards each seat still holds (bid card excluded once bids are placed), ``(m, p)``."""
        held = self.hand_size[:, None] - (self.history >= 0).sum(axis=1)
        return (held - (0 if self.bidding else 1)).astype(np.int64)

    @cached_property
    def unseen(self) -> np.ndarray:
        """Cards in other hands: the deck less the leftover, this hand, the bids and the cards played, ``(m,)``."""
        bids = np.where(self.bid >= 0, bits.BIT[np.maximum(self.bid, 0)], bits.EMPTY)
        return self.deck & ~self.leftover & ~self.hand & ~self.played & ~np.bitwise_or.reduce(bids, axis=1)

    @cached_property
    def voids(self) -> np.ndarray:
        """Suits each seat has shown void in (did not follow the lead suit), ``(m, p)`` bit sets."""
        suit_of = self._layout.card_suit
        return shown_void(self.history, self.leaders, lambda card: suit_of[card],
                          lambda card, suit: suit_of[card] == suit)


class NineLives(Game):
    id = "nine-lives"
    title = "Nine Lives (Tricksy Kittens)"
    sheet = "seeds/004_ef0817ee743946ed.txt"
    players = (2, 3, 4, 5, 6)
    default_players = 4
    n_actions = MAX_CARDS
    default_strategy = "exact"
    decisions = (BID, LEAD, FOLLOW)
    columns = {"bid": np.int8, "made": np.bool_, "team_size": np.int8, "fallback": np.int8}
    match_columns = {"small_deck": np.bool_}
    analysis = "simtool.analysis.nine_lives"
    View = NineLivesView
    deal_reads_match = True  # the deck loses the cards scored so far
    options = (
        number("lives_to_end", LIVES, 1, 60,
               "lives that end the match: after a round in which someone has this many, the most "
               "lives wins"),
        number("ranks", RANKS, MIN_HAND, MAX_CARDS // 2,
               "ranks per suit (one suit per player): cards 1..ranks, so bids run 1..ranks"),
    )

    def check_rules(self, rules: dict, p: int) -> None:
        if p * rules["ranks"] > MAX_CARDS:
            raise SimtoolError(f"nine-lives: {p} suits of {rules['ranks']} ranks make {p * rules['ranks']} "
                               f"cards, more than the {MAX_CARDS} a card set holds; give ranks "
                               f"{MAX_CARDS // p} or less at {p} players")

    def new_match(self, n: int, p: int, rules: dict) -> LivesMatch:
        return LivesMatch(p, rules, np.zeros((n, p), np.int32), np.zeros(n, np.uint64),
                          np.zeros(n, np.int64))

    def deal(self, rng, match: LivesMatch, rnd: int) -> Round:
        n, p = match.n, match.p
        lay = layout(p, match.ranks)
        deck = lay.deck & ~match.piles
        in_deck = bits.count(deck).astype(np.int64)
        size = in_deck // p
        if (in_deck == lay.cards).all():  # every deck whole (every first round): one group
            hands = _whole_decks(rng, n, lay.cards, p)
        else:
            hands = np.zeros((n, p), np.uint64)
            for k in np.unique(in_deck):  # decks of one size deal alike: shuffle each group at once
                rows = np.flatnonzero(in_deck == k)
                if k == lay.cards:
                    hands[rows] = _whole_decks(rng, len(rows), lay.cards, p)
                    continue
                held = np.nonzero(bits.to_mask(deck[rows], lay.cards))[1].reshape(len(rows), k)
                order = deck_module.shuffled(rng, len(rows), int(k), p * int(k // p))
                hands[rows] = deck_module.hands(np.take_along_axis(held, order.astype(np.int64), 1), p)
        zeros = np.zeros((n, p), np.int16)
        return Round(
            p=p, rnd=rnd, hand_size=size, deck=deck,
            leftover=deck & ~across_seats(np.bitwise_or, hands), hands=hands,
            bid=np.full((n, p), -1, np.int64), keeper=match.keeper.copy(),
            played=np.zeros(n, np.uint64), trick=np.full((n, p), -1, np.int8),
            lead_suit=np.zeros(n, np.int64), trump=np.zeros(n, np.int64),
            best=np.zeros(n, np.int64), winning=np.zeros(n, np.int64), tricks=zeros.copy(),
            fallback=zeros.copy(), totals=match.totals.copy(), layout=lay,
            lives_to_end=match.lives_to_end,
        )

    def play(self, s: Round):
        """The round from the state's position (``bidding``, ``trick_no``, ``step``) to its end."""
        cell = cells(s.n, s.p)
        if s.bidding:
            bid = yield Decision(BID, None, s.hands.copy())  # all at once, face down
            s.hands &= ~bits.bit_of(bid)
            s.bid = bid
            s.bidding = False
        piles = []  # unwatched: each trick's winner and whether it won as Kittykeeper, tallied at the end
        # trump: the suit of the Kittykeeper's bid, -1 where it has none; each seat's worked out
        # once a round (the bids stay), one look-up a trick
        suit_of_bid = np.where(s.bid >= 0, s.layout.card_suit.take(np.maximum(s.bid, 0)), -1).reshape(-1)
        every, last = int(s.hand_size.min()) - 1, int(s.hand_size.max()) - 1  # the bid card is never played
        while s.trick_no < last:
            if s.trick_no < every:  # a trick every deal plays (every trick of a match's first round)
                due, active = True, None
            else:
                due = s.trick_no < s.hand_size - 1
                active = None if due.all() else due
            if s.step == 0:
                s.trump = suit_of_bid.take(cell(s.keeper))
            if s.step == 0 and active is None and not s.books:
                yield from play_unwatched_trick(s, cell, s.keeper)
            else:
                yield from play_trick(s, cell, s.keeper, active)
            # nothing counted won: the Kittykeeper keeps the trick (s.winning is still the keeper)
            if s.books:
                won = cell(s.winning)
                add(s.tricks, won, due)
                add(s.fallback, won, (due & (s.best == 0)))
                record_trick(s, s.keeper, None if active is None else np.flatnonzero(due))
                s.trick[:] = -1
            else:
                piles.append(_pile(s.winning, s.best, active))
            s.keeper = s.winning if active is None else np.where(due, s.winning, s.keeper)
            s.trick_no += 1
            s.step = 0
        if piles:
            _tally_piles(s, np.stack(piles))
        results = score(s.bid, s.tricks, s.fallback, s.layout.ranks)
        results["_keeper"] = np.broadcast_to(s.keeper[:, None], s.bid.shape)
        return results

    def hidden_cards(self, view: NineLivesView) -> Hidden:
        """The cards the seat has not seen go to the other hands, each keeping its size and none
        getting a suit it has shown void in; before the bid the others' bid cards are still in
        their hands (``play_out`` draws their bids)."""
        return Hidden(view.unseen, view.hand_sizes, view._layout.cards, voids=view.voids,
                      suits=view._layout.suit)

    def restore(self, view: NineLivesView, state: dict, k: int, rng) -> None:
        restore_history(view, state, k)
        state.update(layout=view._layout, lives_to_end=view.lives_to_end)

    def end_round(self, match: LivesMatch, results: dict[str, np.ndarray]) -> None:
        """Scored bid cards become lives and leave the deck; the last trick's winner keeps the kitty."""
        match.totals += results["score"]
        scored = np.where(results["made"], bits.BIT[results["_bid_card"]], bits.EMPTY)
        match.piles |= np.bitwise_or.reduce(scored, axis=1)
        match.keeper = results["_keeper"][:, 0]


    def most_tricks(self, rules: dict, p: int) -> int:
        return rules["ranks"] - 1  # a hand of one suit's ranks, its bid card never played

    def match_over(self, match: LivesMatch, rnd: int) -> np.ndarray:
        return (match.totals >= match.lives_to_end).any(axis=1) | _deck_too_small(match)

    def match_results(self, match: LivesMatch) -> dict[str, np.ndarray]:
        """``small_deck``: the match ended because the deck became too small, nobody at the lives
        that end it."""
        small = _deck_too_small(match) & ~(match.totals >= match.lives_to_end).any(axis=1)
        return {"small_deck": np.broadcast_to(small[:, None], match.totals.shape)}

    def invariants(self, s: Round) -> dict[str, np.ndarray]:
        bids = np.where(s.bid >= 0, bits.BIT[np.maximum(s.bid, 0)], bits.EMPTY)
        places = np.concatenate([s.hands, bids, s.played[:, None], s.leftover[:, None]], axis=1)
        done = s.tricks.sum(axis=1)
        in_trick = (s.trick >= 0).sum(axis=1)
        return {
            "every card of the deck is held, bid, played or left over, once":
                (np.bitwise_or.reduce(places, axis=1) == s.deck)
                & (bits.count(places).sum(axis=1) == bits.count(s.deck)),
            "the deal is even: deck // p each": (bits.count(s.deck) // s.p == s.hand_size)
                & (bits.count(s.leftover) == bits.count(s.deck) % s.p),
            "tricks won add up to the tricks completed": done * s.p + in_trick == bits.count(s.played),
        }

    def label(self, kind: str, option: int) -> str:
        return self.label_at(None, kind, option)

    def label_at(self, state: Round | None, kind: str, option: int) -> str:
        return (layout(6) if state is None else state.layout).label(option)

    def describe(self, s: Round, row: int) -> list[str]:
        lay = s.layout
        lines = [f"  seat {seat} holds " + " ".join(lay.labels(s.hands[row, seat])) for seat in range(s.p)]
        lines.append(f"  Kittykeeper seat {s.keeper[row]}; left over: "
                     + (" ".join(lay.labels(s.leftover[row])) or "none"))
        return lines


@cache
def _ranked_strengths(layout: Layout) -> np.ndarray:
    """:func:`_strengths` times 8, int16 (at most 132 * 8 + 7): room for a card's place in the
    trick below each strength (see :func:`~simtool.games.tricks.play_unwatched_trick`)."""
    table = (_strengths(layout) * 8).astype(np.int16)
    table.flags.writeable = False
    return table


def _pile(winner: np.ndarray, best: np.ndarray, due: np.ndarray | None) -> np.ndarray:
    """Where a finished trick goes, int8 ``(n,)``: ``winner * 2``, plus 1 where no counted card
    won it (the Kittykeeper's fallback trick); -1 in the deals not ``due`` a trick (``None``:
    every deal)."""
    pile = winner.astype(np.int8)
    pile <<= np.int8(1)
    pile += best == 0
    if due is not None:
        pile[~due] = -1
    return pile


def _tally_piles(s: Round, piles: np.ndarray) -> None:
    """Add the tricks ``piles`` ``(T, n)`` (see :func:`_pile`) to ``tricks`` and ``fallback`` at
    the end of a round nobody watched: per seat two comparisons and sums down the tricks, in
    int8, where a gather and a scatter into each after every trick took several times that."""
    winners = piles >> np.int8(1)  # -1 stays -1: no trick
    for seat in range(s.p):
        s.tricks[:, seat] += (winners == seat).sum(axis=0, dtype=s.tricks.dtype)
        s.fallback[:, seat] += (piles == 2 * seat + 1).sum(axis=0, dtype=s.fallback.dtype)


def _whole_decks(rng, n: int, cards: int, p: int) -> np.ndarray:
    """Hands ``(n, p)`` dealt from ``n`` whole decks: position ``c`` of a whole deck holds card
    ``c``, so the shuffle deals straight into hands (the same draws as through a table of the
    cards held, at a third of the time)."""
    return deck_module.dealt_hands(rng, n, cards, p, cards // p)


def _deck_too_small(match: LivesMatch) -> np.ndarray:
    """Matches whose next deck would deal fewer than 2 cards each."""
    return bits.count(deck_of(match.p, match.ranks) & ~match.piles) // match.p < MIN_HAND


def score(bid: np.ndarray, tricks: np.ndarray, fallback: np.ndarray, ranks: int = RANKS) -> dict[str, np.ndarray]:
    """Lives scored: the bid card's rank for a seat whose tricks equal its bid, or whose team's
    tricks equal the team's bids (not when every seat is in one team)."""
    n, p = bid.shape
    # small numbers (bids below 64, tricks below 32): int16 arithmetic is several times faster
    suit = bid.astype(np.int16) // ranks
    rank = bid.astype(np.int16) - suit * ranks + 1
    # a team's sum of (tricks - bid) * 8 + 1 over its seats: the low 3 bits count the seats (at
    # most 6) and the rest is its tricks less its bids (-192..186), so the sum lies in 0..7
    # exactly where they are equal; one sum where three were kept (size, tricks and bids)
    part = tricks.astype(np.int16) - rank
    part <<= np.int16(3)
    part += np.int16(1)
    # worked out seat-major, (p, n): each comparison with seat `other`'s column is then whole rows
    # against one row, where (n, p) against (n, 1) made numpy copy the broadcast column deal by
    # deal (a tenth of a chunk's play)
    suits, parts = np.ascontiguousarray(suit.T), np.ascontiguousarray(part.T)
    team = np.zeros((p, n), np.int16)
    for other in range(p):
        team += (suits == suits[other]) * parts[other]  # the seats sharing seat `other`'s bid suit
    team = np.ascontiguousarray(team.T)
    team_size = team & np.int16(7)
    # every seat is in one team exactly where seat 0's team (and so every seat's) holds all p
    made = (tricks == rank) | ((team_size >= 2) & (team_size != p) & (team.view(np.uint16) < 8))
    return {
        "score": rank * made,  # int16, 0 where not made (np.where took 17 times as long)
        "tricks": tricks.astype(np.int8),
        "bid": rank.astype(np.int8),
        "made": made,
        "team_size": team_size.astype(np.int8),
        "fallback": fallback.astype(np.int8),
        "_bid_card": bid,
    }


GAME = NineLives()
