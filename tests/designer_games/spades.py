"""A designer's partnership game for tests/test_designer_spades.py, written from docs/new-game.md alone.

Spades. 4 players, seats 0+2 against 1+3, 13 cards each. Bidding: from the dealer's left, each seat bids
the tricks it will take, 0-13; 0 is nil (``nil=on``; with ``nil=off`` bids are 1-13). Spades are
always trump; spades may not be led until a spade has been played, unless the leader holds only
spades. Follow suit; the highest spade, else the highest card of the led suit, wins.
Score of a partnership: its contract is its members' non-nil bids; its tricks are its non-nil
members' tricks. Made: 10 x contract + 1 a trick over (a bag); missed: -10 x contract. A nil: +100
when its bidder takes no trick, -100 otherwise. Every seat scores its partnership's score. A match
ends when a partnership reaches ``target`` (200)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simtool import bits, deck
from simtool.engine import OWN, PUBLIC, Decision, Game, Hidden, Match, View, add, cells, declare
from simtool.games import cards
from simtool.games.tricks import (
    FOLLOW,
    HISTORY,
    LEAD,
    LEADERS,
    WINNERS,
    TrickRound,
    init_history,
    play_trick,
    record_trick,
    restore_history,
    shown_void,
)
from simtool.options import Option, number

LAYOUT = cards.layout(4, 13, "CDHS", "23456789TJQKA", rank_first=True)
CARDS = LAYOUT.cards
SUIT, CARD_SUIT, CARD_RANK = LAYOUT.suit, LAYOUT.card_suit, LAYOUT.card_rank
SPADE = 3
SPADES = SUIT[SPADE]
HAND = 13
BID = "bid"


@dataclass
class Round(TrickRound):
    p: int
    rnd: int = declare(PUBLIC, "", "Deal of the match, 0 the first (one number).")
    hand_size: int = declare(PUBLIC, "", "Cards dealt to each seat (one number).")
    nil: bool = declare(PUBLIC, "", "Whether a bid of 0 is a nil bid (else bids are 1-13).")
    dealer: int = declare(PUBLIC, "", "The dealer, who bids last (one number).")
    hands: np.ndarray = declare(OWN, "n p", "The acting seat's cards, ``(m,)`` sets.", view="hand", cards=True)
    bids: np.ndarray = declare(PUBLIC, "n p", "Each seat's bid, -1 not yet bid, ``(m, p)``.")
    played: np.ndarray = declare(PUBLIC, "n", "Cards played so far, the current trick included, ``(m,)`` sets.")
    trick: np.ndarray = declare(PUBLIC, "n p", "Card each seat put in the current trick, -1 not yet, ``(m, p)``.")
    leader: np.ndarray = declare(PUBLIC, "n", "Seat leading the current trick, ``(m,)``.")
    led_suit: np.ndarray = declare(PUBLIC, "n", "Suit led in the current trick, ``(m,)``.")
    best: np.ndarray = declare(PUBLIC, "n", "Key of the card winning the current trick, ``(m,)``.")
    winning: np.ndarray = declare(PUBLIC, "n", "Seat winning the current trick so far, ``(m,)``.")
    tricks: np.ndarray = declare(PUBLIC, "n p", "Tricks won so far by every seat, ``(m, p)``.")
    totals: np.ndarray = declare(PUBLIC, "n p", "Match totals before this deal, ``(m, p)``.")
    trick_no: int = declare(PUBLIC, "", "Tricks finished so far (one number).", default=0)
    step: int = declare(PUBLIC, "", "Position in the trick (one number).", default=0)
    bid_no: int = declare(PUBLIC, "", "Bids made so far (one number).", default=0)
    past: np.ndarray | None = declare(PUBLIC, "n T p", view=None, default=None)
    past_leader: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    past_winner: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)

    def __post_init__(self):
        init_history(self, self.hand_size)

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    def lead_set(self, hand):
        broken = (self.played & SPADES) != 0
        only_spades = (hand & ~SPADES) == 0
        return hand & (~SPADES | SPADES * (broken | only_spades))

    def follow_set(self, hand):
        return bits.first_of(hand & SUIT.take(self.led_suit), hand)

    def on_lead(self, card):
        self.led_suit = CARD_SUIT.take(card)

    def key(self, card, at):
        suit = CARD_SUIT.take(card)
        return CARD_RANK.take(card) * (suit == self.led_suit) + (CARD_RANK.take(card) + 20) * (suit == SPADE)


class SpadesView(View, state=Round):
    history = HISTORY
    leaders = LEADERS
    winners = WINNERS

    @property
    def hand_sizes(self):
        """Cards each seat holds now, ``(m, p)``."""
        return self.hand_size - (self.history >= 0).sum(axis=1)

    @property
    def unseen(self):
        """Cards in other hands, ``(m,)`` sets."""
        return bits.full(CARDS) & ~self.hand & ~self.played

    @property
    def voids(self):
        """Suits each seat has shown void in, ``(m, p)`` bit sets."""
        return shown_void(self.history, self.leaders, lambda c: CARD_SUIT[c], lambda c, s: CARD_SUIT[c] == s)


def score(bids: np.ndarray, tricks: np.ndarray, nil: bool) -> dict[str, np.ndarray]:
    """Each seat's partnership score, ``(n, 4)``, and the columns beside it."""
    is_nil = (bids == 0) if nil else np.zeros(bids.shape, bool)
    counted = np.where(is_nil, 0, tricks)
    contract = np.where(is_nil, 0, bids)
    team_contract = contract + np.roll(contract, 2, axis=1)   # seat s and its partner s + 2
    team_tricks = counted + np.roll(counted, 2, axis=1)
    made = team_tricks >= team_contract
    base = np.where(made, 10 * team_contract + (team_tricks - team_contract), -10 * team_contract)
    nil_points = np.where(is_nil, np.where(tricks == 0, 100, -100), 0)
    team = base + nil_points + np.roll(nil_points, 2, axis=1)
    nil_result = np.where(is_nil, np.where(tricks == 0, 1, -1), 0)
    return {"score": team.astype(np.int16), "tricks": tricks.astype(np.int8), "bid": bids.astype(np.int8),
            "made": made.astype(np.int8), "nil": nil_result.astype(np.int8)}


class Spades(Game):
    id = "designer-spades"
    title = "Spades (partnerships 0+2 vs 1+3)"
    sheet = "tests/designer_games/spades.py"
    players = (4,)
    default_players = 4
    options = (
        Option("nil", ("on", "off"), "a bid of 0 is nil: +100 if its bidder takes no trick, -100 otherwise"),
        number("target", 200, 50, 1000, "partnership total that ends the match"),
    )
    n_actions = CARDS
    default_strategy = "low"  # every seat bids nil: "high" bids 13 at every seat, and every deal is a tie
    decisions = (BID, LEAD, FOLLOW)
    columns = {"bid": np.int8, "made": np.int8, "nil": np.int8}
    View = SpadesView

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p = match.n, match.p
        hands = deck.dealt_hands(rng, n, CARDS, p, HAND)
        dealer = (rnd - 1) % p
        return Round(p=p, rnd=rnd, hand_size=HAND, nil=match.rules["nil"] == "on", dealer=dealer,
                     hands=hands, bids=np.full((n, p), -1, np.int16),
                     played=np.zeros(n, np.uint64), trick=np.full((n, p), -1, np.int8),
                     leader=np.full(n, (dealer + 1) % p, np.int64), led_suit=np.zeros(n, np.int64),
                     best=np.zeros(n, np.int64), winning=np.zeros(n, np.int64),
                     tricks=np.zeros((n, p), np.int16), totals=match.totals.copy())

    def play(self, s: Round):
        cell = cells(s.n, s.p)
        lowest = 0 if s.nil else 1
        while s.bid_no < s.p:
            seat = (s.dealer + 1 + s.bid_no) % s.p
            legal = np.full(s.n, bits.below(HAND + 1) & ~bits.below(lowest))
            bid = yield Decision(BID, np.full(s.n, seat), legal)
            s.bids[:, seat] = bid
            s.bid_no += 1
        while s.trick_no < s.hand_size:
            yield from play_trick(s, cell, s.leader)
            add(s.tricks, cell(s.winning), 1)
            record_trick(s, s.leader)
            s.trick[:] = -1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        return score(s.bids, s.tricks, s.nil)

    def hidden_cards(self, view) -> Hidden:
        return Hidden(view.unseen, view.hand_sizes, CARDS, voids=view.voids, suits=SUIT)

    def restore(self, view, state, k, rng):
        restore_history(view, state, k)

    def match_over(self, match, rnd):
        return (match.totals >= match.rules["target"]).any(axis=1)

    def most_tricks(self, rules, p):
        return HAND

    def invariants(self, s: Round):
        held = np.bitwise_or.reduce(s.hands, axis=1)
        return {
            "cards held or played, once": (held & s.played) == 0,
            "hand sizes": bits.count(s.hands).sum(axis=1) + bits.count(s.played) == s.p * s.hand_size,
            "tricks add up": s.tricks.sum(axis=1) == s.trick_no,
            "partners' totals equal": (s.totals[:, 0] == s.totals[:, 2]) & (s.totals[:, 1] == s.totals[:, 3]),
        }

    def label(self, kind, option):
        return str(option) if kind == BID else LAYOUT.label(option)


GAME = Spades()
