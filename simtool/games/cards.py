"""Card layouts: a deck of ``suits`` suits of ``ranks`` ranks, numbered suit by suit.

Card ``c`` is rank ``c % ranks + 1`` (1 the lowest) of suit ``c // ranks``, and a set of cards is
a uint64 (see :mod:`simtool.bits`), so ``suits * ranks`` is at most 64. A game whose deck size is
a rule option builds its layout from the rules; :func:`layout` caches one per shape, so the
arrays are built once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from .. import bits


@dataclass(frozen=True)
class Layout:
    """The tables every trick game needs about its cards, and their names for people."""

    suits: int
    ranks: int
    suit_names: str  # one letter per suit
    rank_names: str | None = None  # one letter per rank; None: ranks written as numbers
    rank_first: bool = False  # labels "AS" (rank then suit) rather than "A1" (suit then rank)

    def __post_init__(self):
        if not (0 < self.suits <= len(self.suit_names) and 0 < self.ranks
                and self.suits * self.ranks <= 64):
            raise ValueError(f"no layout of {self.suits} suits of {self.ranks} ranks")

    @property
    def cards(self) -> int:
        return self.suits * self.ranks

    @cached_property
    def deck(self) -> np.uint64:
        return bits.full(self.cards)

    @cached_property
    def card_suit(self) -> np.ndarray:
        """Suit of each card, ``(cards,)``."""
        return fixed(np.arange(self.cards) // self.ranks)

    @cached_property
    def card_rank(self) -> np.ndarray:
        """Rank of each card, 1 the lowest, ``(cards,)``."""
        return fixed(np.arange(self.cards) % self.ranks + 1)

    @cached_property
    def suit(self) -> np.ndarray:
        """The cards of each suit, ``(suits,)`` sets."""
        return fixed(np.array([bits.of(range(self.ranks * s, self.ranks * (s + 1))) for s in range(self.suits)],
                              np.uint64))

    @cached_property
    def rank(self) -> np.ndarray:
        """The cards of each rank in every suit, ``(ranks,)`` sets (index rank - 1)."""
        return fixed(np.array([bits.of(self.ranks * s + r for s in range(self.suits)) for r in range(self.ranks)],
                              np.uint64))

    def suit_cards(self, suit: np.ndarray) -> np.ndarray:
        """The cards of each deal's suit; none where the suit is negative (no such suit)."""
        # one look-up: every negative suit reads the table's last entry, the empty set
        return self._suit_or_none.take(np.maximum(suit, -1))

    @cached_property
    def _suit_or_none(self) -> np.ndarray:
        """:attr:`suit`, then the empty set (read at -1)."""
        return fixed(np.append(self.suit, bits.EMPTY))

    def label(self, card: int) -> str:
        if not 0 <= card < self.cards:  # a strategy's illegal answer, named in its error
            return f"{card} (no card of the {self.cards}-card deck)"
        suit, rank = self.suit_names[card // self.ranks], card % self.ranks
        rank = self.rank_names[rank] if self.rank_names else str(rank + 1)
        return rank + suit if self.rank_first else suit + rank

    def labels(self, cards: np.uint64) -> list[str]:
        """The labels of a card set, lowest card first."""
        return [self.label(int(c)) for c in np.flatnonzero(bits.to_mask(np.uint64(cards), self.cards))]

    def card(self, label: str) -> int:
        """The card a label names (``"B7"``, or ``"QH"`` for rank-first layouts)."""
        table = self._by_label
        if label not in table:
            raise ValueError(f"no card {label!r} in {self.suits} suits of {self.ranks} ranks")
        return table[label]

    def hand(self, labels) -> np.uint64:
        """The card set of a hand written as labels (``"A1 A2 C5"`` or a list), for hand-built deals."""
        return bits.of(self.card(x) for x in (labels.split() if isinstance(labels, str) else labels))

    @cached_property
    def _by_label(self) -> dict[str, int]:
        return {self.label(c): c for c in range(self.cards)}


def fixed(table: np.ndarray) -> np.ndarray:
    """A read-only copy of ``table`` for good: a view hands strategies read-only views of a game's
    tables (``view.strength``, ``view.layout``), and a table merely marked read-only could be
    made writable again (``flags.writeable = True``, also through a view's ``.base``) and rewrite
    the rules for every later deal of the process (Kansas City's card ranks, rewritten so, changed
    every seat's play). Its memory is an immutable ``bytes`` object's, which numpy never lets
    anyone write to."""
    table = np.ascontiguousarray(table)
    return np.frombuffer(table.tobytes(), table.dtype).reshape(table.shape)


@cache
def layout(suits: int, ranks: int, suit_names: str = "ABCDEFGH", rank_names: str | None = None,
           rank_first: bool = False) -> Layout:
    """The layout of that shape, one object per shape (its arrays are built once)."""
    return Layout(suits, ranks, suit_names, rank_names, rank_first)
