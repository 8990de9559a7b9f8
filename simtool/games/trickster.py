"""Trickster, prototype A (a reverse-drafting trick game), read next to ``docs/rules/trickster.md``.

Option ``c`` is the card of suit ``c // ranks`` and rank ``c % ranks + 1`` (13 ranks on the
sheet: A = 1, J = 11, Q = 12, K = 13; the top three ranks are always the jack, queen and king).
Every seat has a public tableau. ``p`` hands circulate: each turn every seat at once adds a
tableau card to the hand it holds (following its suit if it can), collecting the hand first
when it cannot follow or would push the pip sum over the pip limit (13), and then passes the
hand right. Lowest score wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from .. import bits, deck
from ..engine import PUBLIC, Decision, Field, Game, Match, RoundState, View, declare
from ..options import number
from . import cards
from .cards import Layout

SUITS, RANKS = 4, 13
FACES = 3
"""The top three ranks are the jack, queen and king: they add no pips."""
PIP_LIMIT = 13
POINTS = (1, 2, 3, 4)
"""The sheet's points for a pip card, a jack, a queen and a king."""
MAX_CARDS = 64
"""The largest deck a card set (a uint64) holds: the option space of every deck."""
MAX_RANKS = MAX_CARDS // SUITS
MAX_PIP_LIMIT = (MAX_RANKS - FACES) * (MAX_RANKS - FACES + 1) // 2
"""The pip total of a suit of the largest deck: a limit at or above a suit's total never fires."""
TURN = "play"
"""Decision kind: every seat at once adds a card from its tableau to the hand it holds."""
RANK_NAMES = "A23456789TLMN"
"""Pip ranks 1..13 for labels (L, M, N: pips 11, 12, 13 in decks of more than 13 ranks)."""


@dataclass(frozen=True, eq=False)
class Deck:
    """The card tables a set of Trickster rules implies; read-only arrays, one object per set of
    rule values (see :func:`deck_for`), shared by every round and by the strategies."""

    layout: Layout
    pip_limit: int
    points: tuple  # points of a pip card, a jack, a queen, a king
    pips: np.ndarray  # (MAX_CARDS,) pips of each card: its rank for a pip card, 0 for a face
    point_groups: tuple  # (points, card set) per kind of card
    suit_of_card: np.ndarray  # (MAX_CARDS,) sets: the cards of each card's suit
    suit_of_lowest: np.ndarray  # (65,) sets: the cards of the suit of card c at [c], none at [64]

    @property
    def ranks(self) -> int:
        return self.layout.ranks

    @property
    def cards(self) -> int:
        return self.layout.cards

    @property
    def pip_ranks(self) -> int:
        """The highest pip card (ranks 1..pip_ranks are pip cards)."""
        return self.layout.ranks - FACES


@cache
def deck_for(ranks: int = RANKS, pip_limit: int = PIP_LIMIT, points: tuple = POINTS) -> Deck:
    """The :class:`Deck` of 4 suits of ``ranks`` ranks with that pip limit and those points."""
    names = RANK_NAMES[:ranks - FACES] + "JQK"
    layout = cards.layout(SUITS, ranks, "SHDC", names, rank_first=True)
    rank = layout.card_rank
    pips = np.zeros(MAX_CARDS, np.int16)
    pips[:layout.cards] = np.where(rank <= ranks - FACES, rank, 0)
    pips = cards.fixed(pips)  # a strategy reads the deck (view._deck): flagged read-only, it could unflag it
    kinds = [rank <= ranks - FACES] + [rank == ranks - FACES + f for f in range(1, FACES + 1)]
    groups = tuple((value, bits.of(np.flatnonzero(kind))) for value, kind in zip(points, kinds, strict=True))
    # indexed by a card or by bits.lowest of a hand (64 for an empty hand, which has no suit)
    suit_of_lowest = np.zeros(MAX_CARDS + 1, np.uint64)
    suit_of_lowest[:layout.cards] = layout.suit[layout.card_suit]
    suit_of_lowest = cards.fixed(suit_of_lowest)
    return Deck(layout, pip_limit, tuple(points), pips, groups, suit_of_lowest[:MAX_CARDS], suit_of_lowest)


def rules_deck(rules: dict) -> Deck:
    """The :class:`Deck` of a game's rules (missing rules at the sheet's values)."""
    return deck_for(rules.get("ranks", RANKS), rules.get("pip_limit", PIP_LIMIT),
                    tuple(rules.get(f"{kind}_points", value) for kind, value in zip(
                        ("pip", "jack", "queen", "king"), POINTS, strict=True)))


DECK = deck_for()
"""The sheet's deck."""


def points(held: np.ndarray, d: Deck = DECK) -> np.ndarray:
    """Points of each card set."""
    return sum(value * bits.count(held & group).astype(np.int16) for value, group in d.point_groups)


def suit_of_hand(hand: np.ndarray, ranks: int = RANKS) -> np.ndarray:
    """Suit of each non-empty hand (its cards share one suit); -1 for an empty hand."""
    return np.where(hand == 0, -1, bits.lowest(hand) // ranks)


def suit_cards_of_hand(hand: np.ndarray, d: Deck = DECK) -> np.ndarray:
    """The cards of the suit of each hand (its cards share one suit); none for an empty hand.
    One table lookup at the hand's lowest card (64 for an empty hand: the empty set)."""
    below_lowest = ~hand & (hand - np.uint64(1))
    return d.suit_of_lowest.take(np.bitwise_count(below_lowest))


@dataclass
class Round(RoundState):
    """One round of ``n`` deals. Every tableau is public, and a card taken from a tableau is seen
    by all: a seat that watched knows every hand in circulation and every collection
    (``docs/rules/trickster.md``). Nothing is hidden but the other seats' choices of the current
    turn, which a search's play-outs draw."""

    p: int
    rnd: int = declare(PUBLIC, "", "Round of the match, 0 for the first (one number).")
    turns: int = declare(PUBLIC, "", "Cards in each tableau at the deal: the turns of the round (one number).")
    dealt: np.ndarray = declare(PUBLIC, "n", "Every card dealt to a tableau, ``(m,)`` sets.")
    tableau: np.ndarray = declare(PUBLIC, "n p", "Every seat's remaining tableau, ``(m, p)`` sets (face up).")
    hand: np.ndarray = declare(PUBLIC, "n p", "The hand each seat holds, ``(m, p)`` sets (seen as they were built).",
                               view="hands", mine=("hand", "The hand the acting seat holds, ``(m,)`` sets."))
    pips: np.ndarray = declare(PUBLIC, "n p", "Pip sum of each seat's hand, ``(m, p)``.",
                               view="all_pips", mine=("pips", "Pip sum of that hand, ``(m,)``."))
    collected: np.ndarray = declare(PUBLIC, "n p", "Every seat's collection, ``(m, p)`` sets (seen as they "
                                    "were collected).", view="collections_held",
                                    mine=("collected", "The acting seat's own collection, ``(m,)`` sets."))
    collections: np.ndarray = declare(PUBLIC, "n p", "Times each seat has collected so far, ``(m, p)``.")
    totals: np.ndarray = declare(PUBLIC, "n p", "Match totals before this round, ``(m, p)``; lower is better.")
    turn: int = declare(PUBLIC, "", "Turns finished so far (one number).", default=0)
    deck: Deck = DECK  # the card tables of the rules

    @property
    def n(self) -> int:
        return self.hand.shape[0]

    def legal(self) -> np.ndarray:
        """Per seat: tableau cards of the held hand's suit if any, else the whole tableau."""
        follow = self.tableau & suit_cards_of_hand(self.hand, self.deck)
        return bits.first_of(follow, self.tableau)


class TricksterView(View, state=Round):
    """Everything but the other seats' choices of the current turn (see :class:`Round`).

    The rules (``ranks``, ``pip_limit``, ``points``) are numbers; ``deck_for(view.ranks,
    view.pip_limit, view.points)`` gives the card tables they imply (pips, suits, point groups)."""

    def __init__(self, game, state, *args, **kwargs):
        super().__init__(game, state, *args, **kwargs)
        d = state.deck  # rules of the whole run (numbers), not deal state
        self._rules = (d.ranks, d.pip_limit, d.points)

    @property
    def _deck(self) -> Deck:
        return deck_for(*self._rules)

    @property
    def ranks(self) -> int:
        """Ranks per suit (the ``ranks`` rule, 13 on the sheet): card ``c`` is rank ``c % ranks + 1``
        of suit ``c // ranks``; the top three ranks are the jack, queen and king (one number)."""
        return self._deck.ranks

    @property
    def pip_limit(self) -> int:
        """The pip sum a hand may reach; a card that would take it over collects (one number)."""
        return self._deck.pip_limit

    @property
    def points(self) -> tuple:
        """Points of a pip card, a jack, a queen and a king (the ``*_points`` rules; a tuple)."""
        return self._deck.points

    turns_left = Field(lambda s, rows, seat: s.turns - s.turn,
                       "Cards each seat still has to play, this one included (one number).")

    @cached_property
    def strength(self) -> np.ndarray:
        rank = np.zeros(MAX_CARDS, np.int64)
        rank[:self._deck.cards] = self._deck.layout.card_rank
        return np.broadcast_to(rank, (len(self), MAX_CARDS))


class Trickster(Game):
    id = "trickster"
    title = "Trickster (prototype A)"
    sheet = "seeds/001_375d0b6cf02d131c.txt"
    players = (2, 3, 4, 5, 6)
    default_players = 4
    n_actions = MAX_CARDS
    default_strategy = "safe"
    decisions = (TURN,)
    lower_wins = True
    tricks_label = "collections"
    columns = {"collected": np.int8, "moon": np.int8}
    analysis = "simtool.analysis.trickster"
    View = TricksterView
    options = (
        number("ranks", RANKS, FACES + 2, MAX_RANKS,
               "ranks per suit (4 suits): the top three are the jack, queen and king, the rest "
               "pip cards 1..ranks-3"),
        number("pip_limit", PIP_LIMIT, 0, MAX_PIP_LIMIT,
               "the pip sum a hand may reach; a card that would take it over makes its player "
               "collect the hand first"),
        *(number(f"{kind}_points", value, 0, 10,
                 f"points of a {kind} card" if kind == "pip" else f"points of a {kind}")
          for kind, value in zip(("pip", "jack", "queen", "king"), POINTS, strict=True)),
    )

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p = match.n, match.p
        d = rules_deck(match.rules)
        size = d.cards // p
        tableau = deck.dealt_hands(rng, n, d.cards, p, size)
        zeros = np.zeros((n, p), np.uint64)
        return Round(p=p, rnd=rnd, turns=size, dealt=np.bitwise_or.reduce(tableau, axis=1),
                     tableau=tableau, hand=zeros, pips=np.zeros((n, p), np.int16),
                     collected=zeros.copy(), collections=np.zeros((n, p), np.int16),
                     totals=match.totals.copy(), deck=d)

    def play(self, s: Round):
        """The round from the state's position (``turn``) to its end."""
        while s.turn < s.turns:
            card = yield Decision(TURN, None, s.legal())
            place(s, card)
            if s.turn < s.turns - 1:  # no pass after the last card
                s.hand = pass_right(s.hand)
                s.pips = pass_right(s.pips)
            s.turn += 1
        s.collected |= s.hand
        s.collections += 1
        s.hand = np.zeros_like(s.hand)
        s.pips[:] = 0
        return score(s.collected, s.collections, s.deck)

    def restore(self, view: TricksterView, state: dict, k: int, rng) -> None:
        """Nothing is hidden but the current turn's other choices, which ``play_out`` draws: every
        world is the deal as it stands, under the view's rules."""
        state["deck"] = view._deck


    def most_tricks(self, rules: dict, p: int) -> int:
        return rules_deck(rules).cards // p + 1  # a collection a turn, and the end-of-round one

    def match_over(self, match: Match, rnd: int) -> np.ndarray:
        return np.full(match.n, rnd + 1 >= match.p)

    def invariants(self, s: Round) -> dict[str, np.ndarray]:
        d = s.deck
        everywhere = np.concatenate([s.tableau, s.hand, s.collected], axis=1)
        union = np.bitwise_or.reduce(everywhere, axis=1)
        pips = sum(d.pips[c] * bits.has(s.hand, np.full(s.hand.shape, c)) for c in range(d.cards))
        suits = np.stack([bits.count(s.hand & d.layout.suit[k]) > 0 for k in range(SUITS)]).sum(axis=0)
        return {
            "every dealt card is in a tableau, a hand or a collection, once":
                (union == s.dealt) & (bits.count(everywhere).sum(axis=1) == bits.count(s.dealt)),
            "each hand is of one suit": (suits <= 1).all(axis=1),
            # a lone card may be above a limit lower than the highest pip card: it starts its hand
            "each hand's pip sum is its cards' and, but for a lone card, at most the pip limit":
                (pips == s.pips).all(axis=1) & ((s.pips <= d.pip_limit) | (bits.count(s.hand) <= 1)).all(axis=1),
        }

    def label(self, kind: str, option: int) -> str:
        return DECK.layout.label(option)

    def label_at(self, state: Round | None, kind: str, option: int) -> str:
        return (DECK if state is None else state.deck).layout.label(option)

    def describe(self, s: Round, row: int) -> list[str]:
        return [f"  seat {seat} tableau " + " ".join(s.deck.layout.labels(s.tableau[row, seat]))
                for seat in range(s.p)]


def pass_right(held: np.ndarray) -> np.ndarray:
    """Every seat's hand ``(n, p)`` passed to the right: seat ``s`` gets seat ``s + 1``'s (the
    same as ``np.roll(held, -1, axis=1)``, in two slice copies)."""
    out = np.empty_like(held)
    out[:, :-1] = held[:, 1:]
    out[:, -1] = held[:, 0]
    return out


def place(s: Round, card: np.ndarray) -> None:
    """Every seat adds its card ``(n, p)`` to the hand it holds, collecting first if it must.

    Choices between two arrays are products with a boolean (``x * keep``), not ``np.where``,
    whose branches cost several times the whole operation on unpredictable conditions."""
    d = s.deck
    card_bit = bits.BIT.take(card)
    pips = d.pips.take(card)
    # a hand holds one suit: the card follows it where the hand has a card of the card's suit
    # (never an empty hand)
    follows = (s.hand & d.suit_of_card.take(card)) != 0
    adds = follows & (s.pips + pips <= d.pip_limit)  # else the hand is collected (if any) and restarted
    kept = s.hand * adds
    s.collected |= s.hand ^ kept
    s.collections += (s.hand != 0) & ~adds
    s.hand = kept | card_bit
    s.pips = pips + s.pips * adds
    s.tableau &= ~card_bit


def score(collected: np.ndarray, collections: np.ndarray, d: Deck = DECK) -> dict[str, np.ndarray]:
    """Points of each collection, less the suits a seat shoots the moon in.

    For each suit, the one seat with strictly the most cards of it ignores that suit.
    """
    # seats on the first axis and deals on the last: every reduction over seats runs along whole
    # rows of deals (numpy reduces a short last axis element by element, many times slower)
    by_seat = np.ascontiguousarray(collected.T)  # (p, n)
    suits = d.layout.suit
    per_suit = np.bitwise_count(by_seat & suits[:, None, None])  # (SUITS, p, n)
    top = per_suit.max(axis=1, keepdims=True)
    at_top = per_suit == top
    sole = at_top & (np.add.reduce(at_top, axis=1, dtype=np.uint8, keepdims=True) == 1) & (top > 0)
    ignored = np.bitwise_or.reduce(suits[:, None, None] * sole, axis=0)
    return {
        "score": points(by_seat & ~ignored, d).T,
        "tricks": collections,
        "collected": bits.count(collected).astype(np.int8),
        "moon": np.add.reduce(sole, axis=0, dtype=np.int8).T,
    }


GAME = Trickster()
