"""A designer's game for tests/test_designer_game.py, written from docs/new-game.md alone.

Plain Whist, every seat for itself: 4 players, 13 cards each, the dealer's last card turned up
names trumps, suit must be followed, the highest trump or else the highest card of the led suit
wins. A seat scores its tricks; most tricks wins the deal; a match ends when a total reaches
``target``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simtool import bits, deck
from simtool.engine import OWN, PUBLIC, Game, Hidden, Match, View, across_seats, add, cells, declare
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
from simtool.options import number

LAYOUT = cards.layout(4, 13, "CDHS", "23456789TJQKA", rank_first=True)
CARDS = LAYOUT.cards
SUIT, CARD_SUIT, CARD_RANK = LAYOUT.suit, LAYOUT.card_suit, LAYOUT.card_rank
HAND = 13


@dataclass
class Round(TrickRound):
    p: int
    rnd: int = declare(PUBLIC, "", "Deal of the match, 0 the first (one number).")
    hand_size: int = declare(PUBLIC, "", "Cards dealt to each seat (one number).")
    dealt: np.ndarray = declare(PUBLIC, "n", "Every card in play, ``(m,)`` sets.")
    hands: np.ndarray = declare(OWN, "n p", "The acting seat's cards, ``(m,)`` sets.", view="hand", cards=True)
    trump: np.ndarray = declare(PUBLIC, "n", "The trump suit (0 clubs .. 3 spades), ``(m,)``.")
    turned: np.ndarray = declare(PUBLIC, "n", "The card turned up (the dealer's last), ``(m,)``.")
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
    past: np.ndarray | None = declare(PUBLIC, "n T p", view=None, default=None)
    past_leader: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    past_winner: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)

    def __post_init__(self):
        init_history(self, self.hand_size)

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    def follow_set(self, hand):
        return bits.first_of(hand & SUIT.take(self.led_suit), hand)

    def on_lead(self, card):
        self.led_suit = CARD_SUIT.take(card)

    def key(self, card, at):
        suit = CARD_SUIT.take(card)
        return CARD_RANK.take(card) * (suit == self.led_suit) + (CARD_RANK.take(card) + 20) * (suit == self.trump)


class WhistView(View, state=Round):
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
        return self.dealt & ~self.hand & ~self.played

    @property
    def voids(self):
        """Suits each seat has shown void in, ``(m, p)`` bit sets."""
        return shown_void(self.history, self.leaders, lambda c: CARD_SUIT[c], lambda c, s: CARD_SUIT[c] == s)


class Whist(Game):
    id = "designer-whist"
    title = "Whist (each for themselves)"
    sheet = "tests/designer_games/whist.py"
    players = (4,)
    default_players = 4
    options = (number("target", 30, 5, 200, "total tricks that end the match"),)
    n_actions = CARDS
    default_strategy = "high"  # installed with its heuristic: "whist-basic"
    decisions = (LEAD, FOLLOW)
    View = WhistView

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p = match.n, match.p
        hands = deck.dealt_hands(rng, n, CARDS, p, HAND)
        dealer = rnd % p
        # the turned card: one of the dealer's cards, drawn uniformly
        turned = bits.uniform(np.ascontiguousarray(hands[:, dealer]), rng, CARDS)
        return Round(p=p, rnd=rnd, hand_size=HAND, dealt=across_seats(np.bitwise_or, hands), hands=hands,
                     trump=CARD_SUIT.take(turned).astype(np.int64), turned=turned.astype(np.int64),
                     played=np.zeros(n, np.uint64), trick=np.full((n, p), -1, np.int8),
                     leader=np.full(n, (dealer + 1) % p, np.int64), led_suit=np.zeros(n, np.int64),
                     best=np.zeros(n, np.int64), winning=np.zeros(n, np.int64),
                     tricks=np.zeros((n, p), np.int16), totals=match.totals.copy())

    def play(self, s: Round):
        cell = cells(s.n, s.p)
        while s.trick_no < s.hand_size:
            yield from play_trick(s, cell, s.leader)
            add(s.tricks, cell(s.winning), 1)
            record_trick(s, s.leader)
            s.trick[:] = -1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        return {"score": s.tricks.astype(np.int16), "tricks": s.tricks.astype(np.int8)}

    def hidden_cards(self, view: WhistView) -> Hidden:
        return Hidden(view.unseen, view.hand_sizes, CARDS, voids=view.voids, suits=SUIT)

    def restore(self, view, state, k, rng):
        restore_history(view, state, k)

    def match_over(self, match, rnd):
        return (match.totals >= match.rules["target"]).any(axis=1)

    def invariants(self, s: Round):
        held = np.bitwise_or.reduce(s.hands, axis=1)
        return {
            "every card held or played once": ((held | s.played) == s.dealt)
            & (bits.count(s.hands).sum(axis=1) + bits.count(s.played) == s.p * s.hand_size),
            "tricks add up": s.tricks.sum(axis=1) == s.trick_no,
        }

    def label(self, kind, option):
        return LAYOUT.label(option)


GAME = Whist()
