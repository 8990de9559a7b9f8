"""A designer's game for tests/test_designer_game.py, written from docs/new-game.md alone.

Oh Hell: 3-6 players. Round r deals ``start - r`` cards each (then the match ends after the
1-card round); the next card of the pack is turned up and names trumps (none when the pack is
dealt out). Bidding: from the dealer's left, each seat bids the tricks it will take; with
``hook=on`` the dealer may not bid so that the bids sum to the hand size. Play: follow suit, the
highest trump or else the highest card of the led suit wins. Score: exact bid 10 + bid; missed:
0 (``miss=zero``) or minus the difference (``miss=minus``). Highest total wins."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simtool import bits, deck
from simtool.engine import OWN, PUBLIC, Decision, Game, Hidden, Match, View, add, cells, declare
from simtool.errors import SimtoolError
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
BID = "bid"


@dataclass
class Round(TrickRound):
    p: int
    rnd: int = declare(PUBLIC, "", "Round of the match, 0 the first (one number).")
    hand_size: int = declare(PUBLIC, "", "Cards dealt to each seat this round (one number).")
    hook: bool = declare(PUBLIC, "", "Whether the dealer may not make the bids sum to the hand size.")
    miss: str = declare(PUBLIC, "", "Score of a missed bid: zero or minus the difference.")
    dealer: int = declare(PUBLIC, "", "The dealer, who bids last (one number).")
    hands: np.ndarray = declare(OWN, "n p", "The acting seat's cards, ``(m,)`` sets.", view="hand", cards=True)
    turned: np.ndarray = declare(PUBLIC, "n", "The card turned up, -1 if none, ``(m,)``.")
    trump: np.ndarray = declare(PUBLIC, "n", "The trump suit, -1 no trumps, ``(m,)``.")
    bids: np.ndarray = declare(PUBLIC, "n p", "Each seat's bid, -1 not yet bid, ``(m, p)``.")
    played: np.ndarray = declare(PUBLIC, "n", "Cards played so far, the current trick included, ``(m,)`` sets.")
    trick: np.ndarray = declare(PUBLIC, "n p", "Card each seat put in the current trick, -1 not yet, ``(m, p)``.")
    leader: np.ndarray = declare(PUBLIC, "n", "Seat leading the current trick, ``(m,)``.")
    led_suit: np.ndarray = declare(PUBLIC, "n", "Suit led in the current trick, ``(m,)``.")
    best: np.ndarray = declare(PUBLIC, "n", "Key of the card winning the current trick, ``(m,)``.")
    winning: np.ndarray = declare(PUBLIC, "n", "Seat winning the current trick so far, ``(m,)``.")
    tricks: np.ndarray = declare(PUBLIC, "n p", "Tricks won so far by every seat, ``(m, p)``.")
    totals: np.ndarray = declare(PUBLIC, "n p", "Match totals before this round, ``(m, p)``.")
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

    def follow_set(self, hand):
        return bits.first_of(hand & SUIT.take(self.led_suit), hand)

    def on_lead(self, card):
        self.led_suit = CARD_SUIT.take(card)

    def key(self, card, at):
        suit = CARD_SUIT.take(card)
        return CARD_RANK.take(card) * (suit == self.led_suit) + (CARD_RANK.take(card) + 20) * (suit == self.trump)


class OhHellView(View, state=Round):
    history = HISTORY
    leaders = LEADERS
    winners = WINNERS

    @property
    def hand_sizes(self):
        """Cards each seat holds now, ``(m, p)``."""
        return self.hand_size - (self.history >= 0).sum(axis=1)

    @property
    def unseen(self):
        """Cards not seen by this seat (other hands and the undealt pack), ``(m,)`` sets."""
        turned = np.where(self.turned >= 0, bits.BIT[np.maximum(self.turned, 0)], bits.EMPTY)
        return bits.full(CARDS) & ~self.hand & ~self.played & ~turned

    @property
    def voids(self):
        """Suits each seat has shown void in, ``(m, p)`` bit sets."""
        return shown_void(self.history, self.leaders, lambda c: CARD_SUIT[c], lambda c, s: CARD_SUIT[c] == s)


def hand_size(rules: dict, rnd: int) -> int:
    return rules["start"] - rnd


class OhHell(Game):
    id = "designer-oh-hell"
    title = "Oh Hell"
    sheet = "tests/designer_games/oh_hell.py"
    players = (3, 4, 5, 6)
    default_players = 4
    options = (
        number("start", 8, 1, 17, "cards dealt in the first round; each round one fewer, down to 1"),
        Option("hook", ("on", "off"), "the dealer may not make the bids sum to the hand size"),
        Option("miss", ("zero", "minus"), "a missed bid scores 0, or minus the difference"),
    )
    n_actions = CARDS
    default_strategy = "high"  # installed with its heuristic: "oh-hell-basic"
    decisions = (BID, LEAD, FOLLOW)
    View = OhHellView

    def check_rules(self, rules, p):
        if rules["start"] * p > CARDS:
            raise SimtoolError(f"rule start={rules['start']} deals {rules['start'] * p} cards at {p} players; "
                               f"the pack has {CARDS}: start at most {CARDS // p}")

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p, rules = match.n, match.p, match.rules
        h = hand_size(rules, rnd)
        order = deck.shuffled(rng, n, CARDS, p * h + 1)
        hands = deck.hands(order[:, :p * h], p)
        turned = order[:, p * h].astype(np.int64) if p * h < CARDS else np.full(n, -1, np.int64)
        dealer = rnd % p
        return Round(p=p, rnd=rnd, hand_size=h, hook=rules["hook"] == "on", miss=rules["miss"], dealer=dealer,
                     hands=hands, turned=turned, trump=np.where(turned >= 0, CARD_SUIT.take(np.maximum(turned, 0)), -1),
                     bids=np.full((n, p), -1, np.int16),
                     played=np.zeros(n, np.uint64), trick=np.full((n, p), -1, np.int8),
                     leader=np.full(n, (dealer + 1) % p, np.int64), led_suit=np.zeros(n, np.int64),
                     best=np.zeros(n, np.int64), winning=np.zeros(n, np.int64),
                     tricks=np.zeros((n, p), np.int16), totals=match.totals.copy())

    def play(self, s: Round):
        cell = cells(s.n, s.p)
        while s.bid_no < s.p:
            seat = (s.dealer + 1 + s.bid_no) % s.p
            legal = np.full(s.n, bits.below(s.hand_size + 1))
            if s.hook and s.bid_no == s.p - 1:
                so_far = np.where(s.bids >= 0, s.bids, 0).sum(axis=1)
                banned = s.hand_size - so_far
                legal = np.where(banned >= 0, legal & ~bits.BIT[np.maximum(banned, 0)], legal)
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
        made = s.tricks == s.bids
        miss = 0 if s.miss == "zero" else -np.abs(s.tricks - s.bids)
        score = np.where(made, 10 + s.bids, miss)
        return {"score": score.astype(np.int16), "tricks": s.tricks.astype(np.int8),
                "made": made.astype(np.int8), "bid": s.bids.astype(np.int8)}

    columns = {"made": np.int8, "bid": np.int8}

    def hidden_cards(self, view) -> Hidden:
        return Hidden(view.unseen, view.hand_sizes, CARDS, voids=view.voids, suits=SUIT)

    def restore(self, view, state, k, rng):
        restore_history(view, state, k)

    def match_over(self, match, rnd):
        return np.full(match.n, hand_size(match.rules, rnd) <= 1)

    def invariants(self, s: Round):
        held = np.bitwise_or.reduce(s.hands, axis=1)
        return {
            "cards held or played, once": (held & s.played) == 0,
            "hand sizes": bits.count(s.hands).sum(axis=1) + bits.count(s.played) == s.p * s.hand_size,
            "tricks add up": s.tricks.sum(axis=1) == s.trick_no,
            "hook": ~(s.hook & (s.bid_no == s.p)) | (s.bids.sum(axis=1) != s.hand_size),
        }

    def label(self, kind, option):
        return str(option) if kind == BID else LAYOUT.label(option)


GAME = OhHell()
