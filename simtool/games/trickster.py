"""Trickster, prototype A (a reverse-drafting trick game), read through RULINGS.md.

Option ``c`` (0..51) is the card of suit ``c // 13`` and rank ``c % 13 + 1`` (A = 1,
J = 11, Q = 12, K = 13). Every seat has a public tableau. ``p`` hands circulate: each
turn every seat at once adds a tableau card to the hand it holds (following its suit
if it can), collecting the hand first when it cannot follow or would push the pip sum
over 13, and then passes the hand right. Lowest score wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .. import bits, deck
from ..engine import Decision, Field, Game, Match, RoundState, View, own, public, scalar

SUITS, RANKS = 4, 13
CARDS = SUITS * RANKS
PIP_LIMIT = 13
RANK_OF = np.arange(CARDS) % RANKS + 1
SUIT_OF = np.arange(CARDS) // RANKS
PIPS = np.where(RANK_OF <= 10, RANK_OF, 0)  # face cards add no pips
SUIT = np.array([bits.of(range(RANKS * s, RANKS * s + RANKS)) for s in range(SUITS)], np.uint64)
POINT_GROUPS = (  # points per card: A..10 one, J two, Q three, K four
    (1, bits.of(c for c in range(CARDS) if RANK_OF[c] <= 10)),
    (2, bits.of(c for c in range(CARDS) if RANK_OF[c] == 11)),
    (3, bits.of(c for c in range(CARDS) if RANK_OF[c] == 12)),
    (4, bits.of(c for c in range(CARDS) if RANK_OF[c] == 13)),
)


def points(cards: np.ndarray) -> np.ndarray:
    """Points of each card set."""
    return sum(value * bits.count(cards & group).astype(np.int16) for value, group in POINT_GROUPS)


def suit_of_hand(hand: np.ndarray) -> np.ndarray:
    """Suit of each non-empty hand (its cards share one suit); -1 for an empty hand."""
    return np.where(hand == 0, -1, SUIT_OF[np.minimum(bits.lowest(hand), CARDS - 1)])


@dataclass
class Round(RoundState):
    p: int
    rnd: int
    turns: int  # tableau size, 52 // p
    dealt: np.ndarray  # (n,) every card dealt to a tableau
    tableau: np.ndarray  # (n, p) each seat's remaining tableau (public)
    hand: np.ndarray  # (n, p) the hand each seat holds now
    pips: np.ndarray  # (n, p) pip sum of that hand
    collected: np.ndarray  # (n, p) each seat's collection (secret)
    collections: np.ndarray  # (n, p) times each seat has collected
    totals: np.ndarray  # (n, p) match totals before this round
    turn: int = 0  # turns completed so far

    @property
    def n(self) -> int:
        return self.hand.shape[0]

    def legal(self) -> np.ndarray:
        """Per seat: tableau cards of the held hand's suit if any, else the whole tableau."""
        suit = suit_of_hand(self.hand)
        follow = self.tableau & np.where(suit >= 0, SUIT[np.maximum(suit, 0)], bits.EMPTY)
        return np.where(follow != 0, follow, self.tableau)


class TricksterView(View):
    """Every tableau is public, and a card taken from a tableau is seen by all: a seat that
    watched knows every hand in circulation and every collection (RULINGS.md). Nothing is hidden
    but the other seats' choices of the current turn."""

    hand = own("hand", "The hand the acting seat holds, ``(m,)`` sets.")
    pips = own("pips", "Pip sum of that hand, ``(m,)``.")
    collected = own("collected", "The acting seat's own collection, ``(m,)`` sets.")
    hands = public("hand", "The hand each seat holds, ``(m, p)`` sets (seen as they were built).")
    all_pips = public("pips", "Pip sum of each seat's hand, ``(m, p)``.")
    collections_held = public("collected", "Every seat's collection, ``(m, p)`` sets (seen as they were collected).")
    dealt = public("dealt", "Every card dealt to a tableau, ``(m,)`` sets.")
    turn = scalar("turn", "Turns finished so far (one number).")
    turns = scalar("turns", "Cards in each tableau at the deal: the turns of the round (one number).")
    rnd = scalar("rnd", "Round of the match, 0 for the first (one number).")
    tableau = public("tableau", "Every seat's remaining tableau, ``(m, p)`` sets (face up).")
    collections = public("collections", "Times each seat has collected so far, ``(m, p)``.")
    totals = public("totals", "Match totals before this round, ``(m, p)``; lower is better.")

    turns_left = Field(lambda s, rows, seat: s.turns - s.turn,
                       "Cards each seat still has to play, this one included (one number).")

    @cached_property
    def strength(self) -> np.ndarray:
        return np.broadcast_to(RANK_OF, (len(self), CARDS))


class Trickster(Game):
    id = "trickster"
    title = "Trickster (prototype A)"
    sheet = "seeds/001_375d0b6cf02d131c.txt"
    players = (2, 3, 4, 5, 6)
    default_players = 4
    n_actions = CARDS
    default_strategy = "safe"
    lower_wins = True
    tricks_label = "collections"
    columns = {"collected": np.int8, "moon": np.int8}
    analysis = "simtool.analysis.trickster"
    View = TricksterView

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p = match.n, match.p
        size = CARDS // p
        tableau = deck.hands(deck.shuffled(rng, n, CARDS, p * size), p)
        zeros = np.zeros((n, p), np.uint64)
        return Round(p=p, rnd=rnd, turns=size, dealt=np.bitwise_or.reduce(tableau, axis=1),
                     tableau=tableau, hand=zeros, pips=np.zeros((n, p), np.int16),
                     collected=zeros.copy(), collections=np.zeros((n, p), np.int16),
                     totals=match.totals.copy())

    def play(self, s: Round):
        """The round from the state's position (``turn``) to its end."""
        while s.turn < s.turns:
            card = yield Decision("play", None, s.legal())
            place(s, card)
            if s.turn < s.turns - 1:  # no pass after the last card
                s.hand = np.roll(s.hand, -1, axis=1)  # to the right: seat s gets seat s+1's hand
                s.pips = np.roll(s.pips, -1, axis=1)
            s.turn += 1
        s.collected |= s.hand
        s.collections += 1
        s.hand = np.zeros_like(s.hand)
        s.pips[:] = 0
        return score(s.collected, s.collections)

    def redeal(self, view: TricksterView, k: int, rng) -> Round:
        """Nothing is hidden but the current turn's other choices, which ``play_out`` draws: every
        world is the deal as it stands."""
        r = lambda a: np.repeat(a, k, axis=0)
        return Round(p=view.players, rnd=view.rnd, turns=view.turns, dealt=r(view.dealt),
                     tableau=r(view.tableau), hand=r(view.hands), pips=r(view.all_pips),
                     collected=r(view.collections_held), collections=r(view.collections),
                     totals=r(view.totals), turn=view.turn)

    def match_over(self, match: Match, rnd: int) -> np.ndarray:
        return np.full(match.n, rnd + 1 >= match.p)

    def invariants(self, s: Round) -> dict[str, np.ndarray]:
        everywhere = np.concatenate([s.tableau, s.hand, s.collected], axis=1)
        union = np.bitwise_or.reduce(everywhere, axis=1)
        pips = sum(PIPS[c] * bits.has(s.hand, np.full(s.hand.shape, c)) for c in range(CARDS))
        suits = np.stack([bits.count(s.hand & SUIT[k]) > 0 for k in range(SUITS)]).sum(axis=0)
        return {
            "every dealt card is in a tableau, a hand or a collection, once":
                (union == s.dealt) & (bits.count(everywhere).sum(axis=1) == bits.count(s.dealt)),
            "each hand is of one suit": (suits <= 1).all(axis=1),
            "each hand's pip sum is its cards' and at most 13":
                (pips == s.pips).all(axis=1) & (s.pips <= PIP_LIMIT).all(axis=1),
        }

    def label(self, kind: str, option: int) -> str:
        return "A23456789TJQK"[option % RANKS] + "SHDC"[option // RANKS]

    def describe(self, s: Round, row: int) -> list[str]:
        return [f"  seat {seat} tableau " + " ".join(
            self.label("", c) for c in np.flatnonzero(bits.to_mask(s.tableau[row, seat], CARDS)))
            for seat in range(s.p)]


def place(s: Round, card: np.ndarray) -> None:
    """Every seat adds its card ``(n, p)`` to the hand it holds, collecting first if it must."""
    card_bit = bits.BIT[card]
    empty = s.hand == 0
    follows = ~empty & (SUIT_OF[card] == suit_of_hand(s.hand))
    overflows = follows & (s.pips + PIPS[card] > PIP_LIMIT)
    collect = (~empty & ~follows) | overflows
    s.collected |= np.where(collect, s.hand, bits.EMPTY)
    s.collections += collect
    fresh = collect | empty
    s.hand = np.where(fresh, card_bit, s.hand | card_bit)
    s.pips = np.where(fresh, PIPS[card], s.pips + PIPS[card]).astype(np.int16)
    s.tableau &= ~card_bit


def score(collected: np.ndarray, collections: np.ndarray) -> dict[str, np.ndarray]:
    """Points of each collection, less the suits a seat shoots the moon in.

    For each suit, the one seat with strictly the most cards of it ignores that suit.
    """
    per_suit = np.stack([bits.count(collected & SUIT[k]).astype(np.int16) for k in range(SUITS)], -1)
    top = per_suit.max(axis=1, keepdims=True)
    sole = (per_suit == top) & ((per_suit == top).sum(axis=1, keepdims=True) == 1) & (top > 0)
    suit_points = np.stack([points(collected & SUIT[k]) for k in range(SUITS)], -1)
    return {
        "score": np.where(sole, 0, suit_points).sum(axis=-1).astype(np.int16),
        "tricks": collections,
        "collected": per_suit.sum(axis=-1).astype(np.int8),
        "moon": sole.sum(axis=-1).astype(np.int8),
    }


GAME = Trickster()
