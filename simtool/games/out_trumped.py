"""Out-Trumped (Adam Boudreaux), read next to ``docs/rules/out-trumped.md``.

Option ``c`` (0..59) is the card of suit ``c // 12`` and rank ``c % 12 + 1`` (12, the Ace,
is highest). The same numbers name the other options: at ``trump`` a suit 0..4, at ``bid``
0 for pass and ``k`` for a bid of ``k`` tricks. Taking trumps pays, unless you end up with
the fewest of those who took any: then you are out-trumped.

The deck's shape is a rule option (``suits`` x ``ranks``, card ``c`` of suit ``c // ranks``):
each round keeps its :class:`~simtool.games.cards.Layout`. The goal, hand sizes, kitty size
and trump scores are rule options too; the module constants are the sheet's values.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from .. import bits, deck
from ..engine import (
    HIDDEN,
    OWN,
    PUBLIC,
    Decision,
    Field,
    Game,
    Match,
    View,
    _rows,
    across_seats,
    add,
    cells,
    declare,
)
from ..errors import SimtoolError
from ..options import Option, number
from . import cards as layouts
from .cards import Layout
from .tricks import (
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
)

SUITS, RANKS = 5, 12  # the sheet's deck, as ruled
KITTY = 5
HAND = {2: 15, 3: 15, 4: 15, 5: 12, 6: 10}
GOAL = 50
SOLE, MOST, FEWEST = 2, 1, 1  # points per trump: the only holder, the most, the fewest (lost)
NO_TRUMP = -1
REFIT = 50
"""Draws at most of a low-card world whose taker has held more cards it would have shown than the
kitty brought (see :meth:`OutTrumped.restore`)."""
PASS = 0
"""The bid option that passes."""
TRUMP = "trump"
"""Decision kind: on a wild roll, the dealer names the trump suit."""
BID = "bid"
"""Decision kind: a bid for the kitty (option 0 passes, k bids k tricks)."""
DISCARD = "discard"
"""Decision kind: the kitty's taker discards one card (as many times as the kitty holds)."""
TRUMP_PICK, BIDDING, DISCARDS, TRICKS = range(4)  # the phases of a hand
LAYOUT = layouts.layout(SUITS, RANKS)
WILD = SUITS  # the die's face after the suits' (with the sheet's deck)
CARDS = LAYOUT.cards


def layout_of(rules: dict) -> Layout:
    return layouts.layout(rules["suits"], rules["ranks"])


def kitty_size(rules: dict) -> int:
    """Cards in the kitty: none without one."""
    return 0 if rules["kitty"] == "none" else rules["kitty_size"]


def hand_size(rules: dict, p: int) -> int:
    """Cards per hand: the sheet's table, shrunk so that p * hand + kitty fits the deck (with a
    kitty on, even if nobody takes it), unless ``hand_size`` sets it."""
    if rules["hand_size"] != "sheet":
        return rules["hand_size"]
    return min(HAND[p], (layout_of(rules).cards - kitty_size(rules)) // p)


def suit_cards(suit: np.ndarray, layout: Layout = LAYOUT) -> np.ndarray:
    """The cards of each deal's suit; no cards where the suit is NO_TRUMP."""
    return layout.suit_cards(suit)


@cache
def suit_sets(layout: Layout) -> np.ndarray:
    """The cards of each suit, then none: ``np.take(suit_sets(layout), suit)`` is the empty set
    where ``suit`` is NO_TRUMP (-1 reads the last entry), in one lookup without a test."""
    table = np.append(layout.suit, bits.EMPTY)
    table.flags.writeable = False
    return table


def above(suit: np.ndarray, rank: np.ndarray, layout: Layout = LAYOUT) -> np.ndarray:
    """Cards of ``suit`` ranked above ``rank`` (rank 0: the whole suit)."""
    return layout.suit_cards(suit) & ~bits.below(np.maximum(suit, 0) * layout.ranks + rank)


def lowest_rank(cards: np.ndarray, layout: Layout = LAYOUT) -> np.ndarray:
    """Lowest rank (1..ranks) present in each set, ranks + 1 for an empty set."""
    out = np.full(cards.shape, layout.ranks + 1, np.int64)
    for r in range(layout.ranks - 1, -1, -1):
        out = np.where(cards & layout.rank[r], r + 1, out)
    return out


@dataclass
class Round(TrickRound):
    """One hand of ``n`` deals. A seat knows its hand, the trump, the bids and low cards shown,
    who took the kitty (and, if itself, the kitty and its discards), the cards played and every
    seat's tricks and trumps."""

    p: int
    rnd: int = declare(PUBLIC, "", "Hand of the match, 0 for the first (one number).")
    hand_size: int = declare(PUBLIC, "", "Cards dealt to each hand (one number).")
    rules: dict = declare(PUBLIC, "", view=None)  # the view's ``rules``, a copy
    dealt: np.ndarray = declare(HIDDEN, "n")  # every card dealt to a hand or the kitty
    hands: np.ndarray = declare(OWN, "n p", "The acting seat's cards, ``(m,)`` sets.", view="hand")
    # the kitty's cards (empty without a kitty) and the taker's discards (face down): the taker's
    # view shows them (``kitty``, ``discarded``)
    kitty: np.ndarray = declare(HIDDEN, "n")
    discarded: np.ndarray = declare(HIDDEN, "n")
    die: np.ndarray = declare(PUBLIC, "n", "The Colour Die's face: a suit 0..4, or 5 for wild (``suits`` "
                              "with another deck), ``(m,)``.")
    trump: np.ndarray = declare(PUBLIC, "n", "Trump suit 0..4 (0..suits - 1), or -1 for no trump, ``(m,)``.")
    dealer: int = declare(PUBLIC, "", "The dealer's seat (one number).")
    bids: np.ndarray = declare(PUBLIC, "n p", "Each seat's bid: -1 not yet, 0 passed, k bid k tricks, "
                               "``(m, p)``.")
    standing: np.ndarray = declare(PUBLIC, "n", "The highest bid so far, ``(m,)``.")
    taker: np.ndarray = declare(PUBLIC, "n", "Seat that took the kitty, -1 nobody (yet), ``(m,)``.")
    picked: np.ndarray = declare(PUBLIC, "n", "Whether the taker has picked the kitty up, ``(m,)`` bool.")
    shown: np.ndarray = declare(PUBLIC, "n p", "Low-card rank each seat showed (0 without low-card), ``(m, p)``: "
                                "the rank of ``shown_card``.")
    shown_card: np.ndarray = declare(PUBLIC, "n p", "Low-card card each seat showed face up, -1 without low-card, "
                                     "``(m, p)`` card numbers: its lowest-ranked non-trump (the lowest suit's "
                                     "of a tied rank), its lowest trump if it held only trumps. Every seat saw it.")
    played: np.ndarray = declare(PUBLIC, "n", "Cards played so far, the current trick included, ``(m,)``.")
    trick: np.ndarray = declare(PUBLIC, "n p", "Card each seat put in the current trick, -1 not yet, ``(m, p)``.")
    leader: np.ndarray = declare(PUBLIC, "n", "Seat that led the current trick, ``(m,)``.")
    led: np.ndarray = declare(PUBLIC, "n", "Suit led in the current trick, ``(m,)``.")
    top_led: np.ndarray = declare(PUBLIC, "n", "Highest rank of the led suit in the current trick, ``(m,)``.")
    best: np.ndarray = declare(PUBLIC, "n", "Strength of the card winning so far (trumps 100 + rank), ``(m,)``.")
    winning: np.ndarray = declare(PUBLIC, "n", "Seat winning the current trick so far, ``(m,)``.")
    tricks: np.ndarray = declare(PUBLIC, "n p", "Tricks won so far by every seat, ``(m, p)``.")
    trumps: np.ndarray = declare(PUBLIC, "n p", "Trump cards captured so far by every seat, ``(m, p)``.")
    totals: np.ndarray = declare(PUBLIC, "n p", "Match totals before this hand, ``(m, p)``.")
    phase: int = declare(PUBLIC, "", "Phase of the hand: 0 wild trump pick, 1 bidding, 2 discards, 3 tricks "
                         "(one number).", default=0)
    step: int = declare(PUBLIC, "", "Position in the phase: bids or discards made, or the turn in the trick "
                        "(one number).", default=0)
    trick_no: int = declare(PUBLIC, "", "Tricks finished so far (one number).", default=0)
    # the finished tricks: cards, leader, winner; the view shows them as ``history``, ``leaders``
    # and ``winners``
    past: np.ndarray | None = declare(PUBLIC, "n T p", view=None, default=None)
    past_leader: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    past_winner: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    layout: Layout | None = None  # the deck's shape (None: from the rules)

    def __post_init__(self):
        init_history(self, self.hand_size)
        if self.layout is None:
            self.layout = layout_of(self.rules)

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    def follow_set(self, hand: np.ndarray) -> np.ndarray:
        """What a follower may play under the ``follow`` option (trump led: trump is the led suit)."""
        suits = suit_sets(self.layout)
        same = hand & suits.take(self.led)
        higher = same & ~bits.below(self.led * self.layout.ranks + self.top_led)  # led cards above top_led
        trumps = hand & suits.take(self.trump)
        fallback = bits.first_of(trumps, hand)
        if self.rules["follow"] == "overtake":
            fallback = bits.first_of(same, fallback)
        return bits.first_of(higher, fallback)

    def strength(self, card: np.ndarray) -> np.ndarray:
        """Any trump beats the led suit; off-suit cards never win."""
        suit, rank = self.layout.card_suit.take(card), self.layout.card_rank.take(card)
        trump = suit == self.trump
        return rank * (trump | (suit == self.led)) + 100 * trump  # products: see bits.first_of

    def on_lead(self, card: np.ndarray) -> None:
        self.led = self.layout.card_suit.take(card)
        self.top_led = self.layout.card_rank.take(card)

    def on_follow(self, card: np.ndarray) -> None:
        rank = self.layout.card_rank.take(card)
        led_card = self.layout.card_suit.take(card) == self.led
        self.top_led = np.maximum(self.top_led, rank * led_card)  # a card off the led suit counts 0

    def key(self, card: np.ndarray, at) -> np.ndarray:
        return self.strength(card)


def shown_sets(card: np.ndarray) -> np.ndarray:
    """The low cards shown, ``(m, p)`` card numbers (-1 none), as sets (empty where none)."""
    return np.where(card >= 0, bits.BIT[np.maximum(card, 0)], bits.EMPTY)


def _shown_places(shown, seat, taker, played, pool, sizes, allowed, deck_cards):
    """Where a re-deal must put the others' shown cards ``shown`` ``(m, p)`` sets that are not in
    ``played``: each non-taker's stays in its hand (``pinned`` ``(m, p)``, taken out of ``pool``
    and of its hand's size); the taker's, unless ``seat`` is the taker, goes to its hand or its
    discards (``sizes``' and ``allowed``'s column ``p``), the seat cannot tell which: it is ruled
    out of the other hands and of one more column, the undealt cards, so that it is dealt.
    Returns ``pinned``, the pool left, ``sizes`` and ``allowed`` (None: no constraint)."""
    m, p = shown.shape
    seats = np.arange(p)[None, :]
    unplayed = shown & ~played[:, None]
    is_taker = seats == taker[:, None]
    pinned = np.where((seats != seat[:, None]) & ~is_taker, unplayed, bits.EMPTY)
    pool = pool & ~np.bitwise_or.reduce(pinned, axis=1)
    sizes = sizes.copy()
    sizes[:, :p] -= bits.count(pinned)
    loose = np.where((taker >= 0) & (taker != seat), unplayed[np.arange(m), np.maximum(taker, 0)], bits.EMPTY)
    if loose.any():
        if allowed is None:
            allowed = np.full(sizes.shape, deck_cards, np.uint64)
        allowed[:, :p] &= ~np.where(is_taker, bits.EMPTY, loose[:, None])
        undealt = bits.count(pool).astype(np.int64) - sizes.sum(axis=1)
        sizes = np.concatenate([sizes, undealt[:, None]], axis=1)
        allowed = np.concatenate([allowed, (deck_cards & ~loose)[:, None]], axis=1)
    return pinned, pool, sizes, allowed


def _kitty_held_instead(card: np.ndarray, trump: np.ndarray, layout: Layout) -> np.ndarray:
    """The cards the kitty must have brought the taker who showed ``card`` ``(m,)``: any it held
    ranked below its shown card's that it would have shown instead (below a plain card, the plain
    ones; below a trump, shown as it held no plain card, every plain card and the lower trumps)."""
    trumps = layout.suit_cards(trump)
    rank = layout.card_rank.take(np.maximum(card, 0))
    lower = _ranks_below(rank, layout)
    was_trump = (bits.BIT[np.maximum(card, 0)] & trumps) != 0
    return np.where(was_trump, layout.deck & ~trumps | lower & trumps, lower & ~trumps)


def _first(sets: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` lowest cards of each set (all of a smaller set)."""
    left, out = sets.copy(), np.zeros_like(sets)
    for _ in range(k):
        low = left & (~left + np.uint64(1))
        out |= low
        left ^= low
    return out


def _ranks_below(rank: np.ndarray, layout: Layout) -> np.ndarray:
    """Every card (any suit) ranked below ``rank``, per deal."""
    out = np.zeros(rank.shape, np.uint64)
    for r in range(1, layout.ranks + 1):
        out |= np.where(r < rank, layout.rank[r - 1], bits.EMPTY)
    return out


class OutTrumpedView(View, state=Round):
    """What a seat knows (see :class:`Round`), and what it infers."""

    def __init__(self, game, state, kind, seat, legal, rows=None):
        super().__init__(game, state, kind, seat, legal, rows)
        self._rules = dict(state.rules)  # public: a copy

    @property
    def rules(self) -> dict:
        """Every rule option's value (``goal``, ``kitty_size``, ``ranks``...), a dict copy."""
        return dict(self._rules)

    @property
    def layout(self) -> Layout:
        """The deck: ``suits`` x ``ranks`` cards (see :mod:`simtool.games.cards`), card ``c`` of
        suit ``c // ranks`` and rank ``c % ranks + 1``; its ``suit``, ``rank``, ``cards``..."""
        return layout_of(self._rules)

    @property
    def goal(self) -> int:
        """Points that end the match (rule ``goal``; the sheet's 50)."""
        return self._rules["goal"]

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty, and cards the taker discards; 0 without a kitty."""
        return kitty_size(self._rules)

    kitty = Field(lambda s, rows, seat: np.where(_rows(s.taker, rows) == seat, _rows(s.kitty, rows), bits.EMPTY),
                  "The kitty's cards if the acting seat took it, else empty, ``(m,)`` sets.")
    discarded = Field(lambda s, rows, seat: np.where(_rows(s.taker, rows) == seat, _rows(s.discarded, rows),
                                                     bits.EMPTY),
                      "The cards the acting seat discarded after taking the kitty, else empty, ``(m,)`` sets.")
    history = HISTORY
    leaders = LEADERS
    winners = WINNERS
    tricks_left = Field(lambda s, rows, seat: s.hand_size - s.trick_no,
                        "Tricks still to be played, the current one included (one number).")
    follow = Field(lambda s, rows, seat: s.rules["follow"], "The follow rule option: overtake or literal.")
    kitty_rule = Field(lambda s, rows, seat: s.rules["kitty"], "The kitty rule option: none, bid or low-card.")
    wild_rule = Field(lambda s, rows, seat: s.rules["wild"], "The wild rule option: dealer or no-trump.")

    @cached_property
    def hand_sizes(self) -> np.ndarray:
        """Cards each seat holds now, ``(m, p)`` (the taker's mid-discard hand included)."""
        sizes = np.full((len(self), self.players), self.hand_size, np.int64) - (self.history >= 0).sum(axis=1)
        if self.phase == DISCARDS:
            extra = np.where(self.picked, self.kitty_size - self.step, 0)
            sizes[np.arange(len(self)), np.maximum(self.taker, 0)] += extra
        return sizes

    @cached_property
    def excluded(self) -> np.ndarray:
        """Cards each seat is known not to hold, ``(m, p)`` sets: what its follows revealed (no
        higher led-suit card, no led-suit card, no trump, as the follow rule forced) and, with the
        low-card kitty, no plain card below the rank it showed (not for the taker, who has since
        added the kitty) and no card another seat showed (that card stays its shower's: in its
        hand, played, or among the taker's discards)."""
        m, p = len(self), self.players
        layout = self.layout
        card_suit, card_rank = layout.card_suit, layout.card_rank
        rows = np.arange(m)
        out = np.zeros((m, p), np.uint64)
        trumps = layout.suit_cards(self.trump)
        for t in range(self.history.shape[1]):
            leader = self.leaders[:, t].astype(np.int64)
            led_card = self.history[rows, t, np.maximum(leader, 0)].astype(np.int64)
            on = (leader >= 0) & (led_card >= 0)
            if not on.any():  # a trick no deal has begun shows nothing
                continue
            led = np.where(on, card_suit[np.maximum(led_card, 0)], 0)
            top = card_rank[np.maximum(led_card, 0)]
            trump_led = led == self.trump
            for i in range(1, p):
                seat = (np.maximum(leader, 0) + i) % p
                card = self.history[rows, t, seat].astype(np.int64)
                live = on & (card >= 0)
                if not live.any():  # a seat yet to play this trick in every deal
                    continue
                suit, rank = card_suit[np.maximum(card, 0)], card_rank[np.maximum(card, 0)]
                higher = above(led, top, layout)
                same, over = suit == led, (suit == led) & (rank > top)
                is_trump = (suit == self.trump) & ~trump_led
                # overtake: a lower led card shows no higher one; an off-suit card shows no led
                # card, and a plain one no trump either
                overtake = np.where(same & ~over, higher, np.where(
                    ~same, layout.suit_cards(led) | np.where(is_trump | trump_led, bits.EMPTY, trumps), bits.EMPTY))
                # literal: anything but a higher led card shows none; anything but a trump, no trump
                literal = np.where(same & ~over, higher | trumps, np.where(
                    is_trump, higher, np.where(~same, higher | trumps, bits.EMPTY)))
                known = overtake if self.follow == "overtake" else np.where(trump_led, overtake, literal)
                out[rows, seat] |= np.where(live, known, bits.EMPTY)
                top = np.where(live & same, np.maximum(top, rank), top)
        if self.kitty_rule == "low-card":
            plain = ~trumps[:, None] & ~np.zeros((1, p), np.uint64)
            below_shown = np.stack([_ranks_below(self.shown[:, s], layout) for s in range(p)], axis=1)
            not_taker = np.arange(p)[None, :] != self.taker[:, None]
            out |= np.where(not_taker & (self.shown > 0), below_shown & plain, bits.EMPTY)
            mine = shown_sets(self.shown_card)
            out |= np.bitwise_or.reduce(mine, axis=1)[:, None] & ~mine
        return out

    @cached_property
    def winners_now(self) -> np.ndarray:
        """Legal cards that would take the lead of the trick as it stands, ``(m,)`` sets (at a
        lead, every legal card; at a decision that plays no card, none)."""
        if self.kind != FOLLOW:
            return self.legal.copy() if self.kind == LEAD else np.zeros(len(self), np.uint64)
        layout = self.layout
        trump_on_top = self.best >= 100
        rank = bits.where(trump_on_top, self.best - 100, self.best)  # rank of the card winning now
        suit = bits.where(trump_on_top, self.trump, self.led)
        first = bits.clamp(np.maximum(suit, 0) * layout.ranks + rank, 0, 64)
        higher = self.legal & layout.suit_cards(suit) & ~bits.below(first)
        return higher | bits.where(trump_on_top, bits.EMPTY, self.legal & layout.suit_cards(self.trump))

    @cached_property
    def distinct(self) -> np.ndarray:
        """The legal cards but the higher of two in a suit with nothing between them but the
        seat's own cards and cards of finished tricks (a card in the current trick keeps them
        apart): they take the same tricks and trumps, now and later, and show the others the same
        ranks to follow. Other decisions: every legal option."""
        if self.kind not in (LEAD, FOLLOW, DISCARD):
            return self.legal.copy()
        layout = self.layout
        in_trick = np.bitwise_or.reduce(np.where(self.trick >= 0, bits.BIT[np.maximum(self.trick, 0)],
                                                 bits.EMPTY), axis=1)
        gone = (self.hand | self.played | self.discarded) & ~in_trick
        not_lowest = layout.deck & ~layout.rank[0]
        # cards with a legal card below them, through gone cards only
        reach = (self.legal << np.uint64(1)) & not_lowest
        for _ in range(layout.ranks - 2):
            reach |= ((reach & gone) << np.uint64(1)) & not_lowest
        return self.legal & ~reach

    @cached_property
    def strength(self) -> np.ndarray:
        if self.kind in (LEAD, FOLLOW, DISCARD):
            layout = self.layout
            rank = np.zeros(self.n_actions, np.int64)  # options beyond the deck are never legal
            rank[:layout.cards] = layout.card_rank
            is_trump = bits.to_mask(layout.suit_cards(self.trump), self.n_actions)
            return np.where(is_trump, layout.ranks + rank, rank)
        return super().strength


class OutTrumped(Game):
    id = "out-trumped"
    title = "Out-Trumped"
    sheet = "seeds/003_0802021f16dd38f0.txt"
    players = (2, 3, 4, 5, 6)
    default_players = 4
    options = (
        Option("wild", ("dealer", "no-trump"), "the die's wild face: the dealer picks trump, or no trump"),
        Option("follow", ("overtake", "literal"), "what a follower must play (see docs/rules)"),
        Option("kitty", ("none", "bid", "low-card"), "a kitty and how it is won"),
        number("goal", GOAL, 1, 1000, "points that end the match, checked after each hand"),
        number("hand_size", "sheet", 1, 32, "cards dealt to each player",
               sheet="15 at 2-4p, 12 at 5p, 10 at 6p; fewer if the deck is short"),
        number("kitty_size", KITTY, 1, 20, "cards in the kitty (kitty bid or low-card); the taker "
               "discards as many"),
        number("sole_bonus", SOLE, -10, 10, "points per trump for the only player who took trumps"),
        number("trump_bonus", MOST, -10, 10, "points per trump for those who took the most trumps "
               "(when others took some)"),
        number("penalty", FEWEST, -10, 10, "points lost per trump by those who took the fewest "
               "trumps (but some, and fewer than the most): the out-trumped"),
        number("ranks", RANKS, 2, 64, "ranks per suit (the highest wins); suits x ranks at most 64"),
        number("suits", SUITS, 1, 8, "suits (the Colour Die has a face per suit and one wild face)"),
    )
    n_actions = 64  # the largest deck a card set holds
    default_strategy = "hoarder"
    total_floor = 0  # a running total never drops below 0: once per hand, total plus the hand's points
    decisions = (TRUMP, BID, DISCARD, LEAD, FOLLOW)
    columns = {"trumps": np.int8, "bonus": np.int16, "out_trumped": np.bool_, "bid": np.int8, "kitty": np.int8,
               "taker": np.bool_}
    analysis = "simtool.analysis.out_trumped"
    View = OutTrumpedView

    def played(self, rules: dict, p: int) -> dict:
        return {**rules, "hand_size": hand_size(rules, p)}

    def check_rules(self, rules: dict, p: int) -> None:
        suits, ranks = rules["suits"], rules["ranks"]
        if rules["kitty"] == "none" and rules["kitty_size"] != KITTY:
            raise SimtoolError(f"kitty_size {rules['kitty_size']} needs a kitty, but kitty=none deals "
                               f"none; give kitty=bid or kitty=low-card, or leave kitty_size out")
        if suits * ranks > 64:
            raise SimtoolError(f"suits {suits} x ranks {ranks} make {suits * ranks} cards; a card "
                               f"set holds 64 at most")
        deck_size, kitty, hand = suits * ranks, kitty_size(rules), hand_size(rules, p)
        shape = f"the deck has {deck_size} ({suits} suits x {ranks} ranks)"
        with_kitty = f" with a kitty of {kitty}" if kitty else ""
        if hand < 1:
            raise SimtoolError(f"{shape}: too few to deal {p} hands{with_kitty}")
        if p * hand + kitty > deck_size:
            fit, room = (deck_size - kitty) // p, deck_size - p * hand
            most = [f"hand_size {fit}{' with this kitty' if kitty else ''}"] if fit >= 1 else []
            most += [f"kitty_size {room} with these hands"] if kitty and room >= 1 else []
            raise SimtoolError(f"hand_size {hand} at {p}p{with_kitty} deals {p * hand + kitty} "
                               f"cards but {shape}: at most {' or '.join(most)}")

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p, rules = match.n, match.p, match.rules
        layout = layout_of(rules)
        size = hand_size(rules, p)
        extra = kitty_size(rules)
        if extra:
            cards = deck.shuffled(rng, n, layout.cards, p * size + extra)
            hands = deck.hands(cards[:, : p * size], p)
            kitty = across_seats(np.bitwise_or, bits.BIT.take(cards[:, p * size:]))
        else:  # the same shuffle, its positions put straight into the hands
            hands = deck.dealt_hands(rng, n, layout.cards, p, size)
            kitty = np.zeros(n, np.uint64)
        die = rng.integers(0, layout.suits + 1, n)
        zeros = np.zeros((n, p), np.int16)
        return Round(
            p=p, rnd=rnd, hand_size=size, rules=rules,
            dealt=across_seats(np.bitwise_or, hands) | kitty, hands=hands, kitty=kitty,
            discarded=np.zeros(n, np.uint64), die=die,
            trump=np.where(die == layout.suits, NO_TRUMP, die), dealer=(rnd - 1) % p,
            bids=np.full((n, p), -1, np.int16), standing=np.zeros(n, np.int16),
            taker=np.full(n, -1, np.int64), picked=np.zeros(n, bool), shown=zeros.copy(),
            shown_card=np.full((n, p), -1, np.int8), played=np.zeros(n, np.uint64),
            trick=np.full((n, p), -1, np.int8), leader=np.full(n, rnd % p, np.int64),
            led=np.zeros(n, np.int64), top_led=np.zeros(n, np.int64), best=np.zeros(n, np.int64),
            winning=np.zeros(n, np.int64), tricks=zeros.copy(), trumps=zeros.copy(),
            totals=match.totals.copy(), layout=layout,
        )

    def play(self, s: Round):
        """The hand from the state's position (``phase``, ``step``, ``trick_no``) to its end."""
        cell = cells(s.n, s.p)
        if s.phase == TRUMP_PICK:
            wild = s.die == s.layout.suits
            if s.rules["wild"] == "dealer" and wild.any():
                dealer = np.full(s.n, s.dealer)
                pick = yield Decision(TRUMP, dealer, bits.full(s.layout.suits), active=wild)
                s.trump = np.where(wild, pick, s.trump)
            s.phase, s.step = BIDDING, 0
        if s.phase == BIDDING:
            if s.rules["kitty"] == "bid":
                yield from self._bidding(s)
            elif s.rules["kitty"] == "low-card":
                self._low_card(s)
            if s.rules["kitty"] != "none":
                took = s.taker >= 0
                at = cell(np.maximum(s.taker, 0))
                s.hands.put(at, s.hands.take(at) | np.where(took, s.kitty, bits.EMPTY))
                s.picked = took
            s.phase, s.step = DISCARDS, 0
        if s.phase == DISCARDS:
            took = s.picked
            if took.any():
                at = cell(np.maximum(s.taker, 0))
                # every deal discarding (a search's worlds of its own discard): no regrouping
                active = None if took.all() else took
                while s.step < kitty_size(s.rules):
                    gone = yield Decision(DISCARD, np.maximum(s.taker, 0), s.hands.take(at),
                                          active=active)
                    gone_bit = np.where(took, bits.BIT[np.maximum(gone, 0)], bits.EMPTY)
                    s.hands.put(at, s.hands.take(at) & ~gone_bit)
                    s.discarded |= gone_bit
                    s.step += 1
            s.phase, s.step = TRICKS, 0
        trump_cards = suit_sets(s.layout).take(s.trump)
        while s.trick_no < s.hand_size:
            yield from play_trick(s, cell, s.leader)
            won = cell(s.winning)
            in_trick = across_seats(np.bitwise_or, bits.BIT.take(s.trick))
            add(s.tricks, won, 1)
            add(s.trumps, won, bits.count(in_trick & trump_cards))
            record_trick(s, s.leader)
            s.trick[:] = -1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        rules = s.rules
        return score(s.tricks, s.trumps, s.trump, s.bids, s.taker, rules["kitty"],
                     rules["sole_bonus"], rules["trump_bonus"], rules["penalty"])

    def _bidding(self, s: Round):
        """From the dealer's left, each seat once passes or bids above the standing bid."""
        top = bits.below(s.hand_size + 1)
        while s.step < s.p:
            seat = (s.dealer + 1 + s.step) % s.p
            legal = bits.BIT[PASS] | (top & ~bits.below(s.standing + 1))
            bid = yield Decision(BID, seat, legal)
            s.bids[:, seat] = bid
            raised = bid > s.standing
            s.standing = np.where(raised, bid, s.standing).astype(np.int16)
            s.taker = np.where(raised, seat, s.taker)
            s.step += 1

    @staticmethod
    def _low_card(s: Round) -> None:
        """Each seat shows its lowest non-trump (its lowest trump if it has only trumps): of a
        tied rank, the lowest suit's (the rules leave the choice to the player; this one is fixed)."""
        trumps = s.layout.suit_cards(s.trump)[:, None]
        plain = s.hands & ~trumps
        candidates = np.where(plain != 0, plain, s.hands)
        s.shown = lowest_rank(candidates, s.layout).astype(np.int16)
        of_rank = s.layout.rank.take(s.shown - 1)  # every hand holds a card: rank 1..ranks
        s.shown_card = bits.lowest(candidates & of_rank).astype(np.int8)
        order = (s.dealer + 1 + np.arange(s.p)) % s.p  # ties go to the earliest from the dealer's left
        in_order = s.shown[:, order]
        s.taker = order[np.argmin(in_order, axis=1)]


    def restore(self, view: OutTrumpedView, state: dict, k: int, rng) -> None:
        """The cards the seat has not seen go to the other hands (each keeping its size and
        holding none of the cards its follows or low card ruled out), to the kitty or the
        taker's discards where the seat has not seen those, and the rest stay undealt.

        With the low-card kitty every seat saw the cards shown: another seat's shown card not
        played since stays in its hand (and no plain card ranked below it is there), or, the
        taker's, is in its hand or among its discards, the seat cannot tell which; and the kitty
        the taker picked up held neither its shown card nor any it would have shown instead
        (:func:`_kitty_held_instead`): a world whose taker has held more such cards than the
        kitty brought is drawn again (``REFIT`` times at most, then the kitty is made of such
        cards: the kitty takes no part in the play)."""
        r = lambda a: np.repeat(a, k, axis=0)
        p, seat = view.players, r(view.seat)
        m = len(seat)
        rows = np.arange(m)
        taker, picked, played, hand = state["taker"], state["picked"], state["played"], r(view.hand)
        mine_taken = taker == seat
        own_discards = r(view.discarded)
        layout, kitty_cards = view.layout, view.kitty_size
        unseen = layout.deck & ~hand & ~played & ~own_discards
        sizes = np.zeros((m, p + 1), np.int64)
        sizes[:, :p] = r(view.hand_sizes)
        sizes[rows, seat] = 0
        # the cards set aside that this seat has not seen: the kitty before it is picked up, the
        # discards made so far by another taker
        made = view.step if view.phase == DISCARDS else (kitty_cards if view.phase == TRICKS else 0)
        if view.kitty_rule != "none":
            sizes[:, p] = np.where(picked, np.where(mine_taken, 0, made), kitty_cards)
        excluded = view.excluded
        allowed = None  # nothing ruled out (a search that reads the plays mends the deal itself)
        if excluded.any():
            allowed = np.full((m, p + 1), layout.deck, np.uint64)
            allowed[:, :p] &= ~r(excluded)
        pinned, pool = np.zeros((m, p), np.uint64), unseen
        low_card = view.kitty_rule == "low-card"
        if low_card:
            shown = r(shown_sets(view.shown_card))
            pinned, pool, sizes, allowed = _shown_places(shown, seat, taker, played, unseen, sizes, allowed,
                                                         layout.deck)
        dealt = deck.deal_among(pool, sizes, rng, layout.cards, allowed)
        others_took = picked & ~mine_taken
        at = np.maximum(taker, 0)
        if others_took.any():
            history = r(view.history)
            taker_played = np.bitwise_or.reduce(
                np.where(history[rows, :, at] >= 0, bits.BIT[np.maximum(history[rows, :, at], 0)], bits.EMPTY),
                axis=1)
        if low_card and others_took.any():
            card = r(view.shown_card)[rows, at]
            instead = _kitty_held_instead(card, state["trump"], layout)
            for _ in range(REFIT):  # the taker's hand and discards (column p) in each world
                held = dealt[rows, at] | dealt[:, p] | taker_played
                again = np.flatnonzero(others_took & (bits.count(held & instead) > kitty_cards))
                if not again.size:
                    break
                dealt[again] = deck.deal_among(pool[again], sizes[again], rng, layout.cards,
                                               None if allowed is None else allowed[again])
        hands = dealt[:, :p] | pinned
        hands[rows, seat] = hand
        aside = dealt[:, p]
        discarded = np.where(picked, np.where(mine_taken, own_discards, aside), bits.EMPTY)
        kitty = np.where(picked, np.where(mine_taken, r(view.kitty), bits.EMPTY), aside)
        if others_took.any():  # the kitty is kitty_size of the cards the taker has held
            pool = hands[rows, at] | discarded | taker_played
            must = np.zeros(m, np.uint64)
            if low_card:
                must = pool & instead
                must = np.where(bits.count(must) > kitty_cards, _first(must, kitty_cards), must)
                pool &= ~must & ~bits.BIT[np.maximum(card, 0)]
            size = kitty_cards - bits.count(must).astype(np.int64)
            five = must | deck.deal_among(pool, size[:, None], rng, layout.cards)[:, 0]
            kitty = np.where(others_took, five, kitty)
        restore_history(view, state, k)
        state.update(hands=hands, kitty=kitty, discarded=discarded, rules=view.rules, layout=layout,
                     dealt=np.bitwise_or.reduce(hands, axis=1) | played | discarded | kitty)


    def most_tricks(self, rules: dict, p: int) -> int:
        return hand_size(rules, p)

    def match_over(self, match: Match, rnd: int) -> np.ndarray:
        return (match.totals >= match.rules["goal"]).any(axis=1)

    def invariants(self, s: Round) -> dict[str, np.ndarray]:
        places = np.concatenate([s.hands, s.played[:, None], s.discarded[:, None],
                                 np.where(s.picked, bits.EMPTY, s.kitty)[:, None]], axis=1)
        union = np.bitwise_or.reduce(places, axis=1)
        return {
            "every dealt card is in a hand, played, discarded or in the kitty, once":
                (union == s.dealt) & (bits.count(places).sum(axis=1) == bits.count(s.dealt)),
            "every hand is the same size between tricks (but the taker's mid-discard)":
                (bits.count(s.hands) == bits.count(s.hands)[:, :1]).all(axis=1)
                | (s.trick >= 0).any(axis=1) | (s.picked & (bits.count(s.discarded) < kitty_size(s.rules))),
            "tricks won add up to the tricks completed":
                s.tricks.sum(axis=1) * s.p + (s.trick >= 0).sum(axis=1) == bits.count(s.played),
        }

    def label(self, kind: str, option: int) -> str:
        """The option's name with the sheet's deck (see :meth:`label_at` for a round's own)."""
        return self._label(LAYOUT, kind, option)

    def label_at(self, state: Round, kind: str, option: int) -> str:
        return self._label(state.layout, kind, option)

    @staticmethod
    def _label(layout: Layout, kind: str, option: int) -> str:
        if kind == BID:
            return "pass" if option == PASS else f"bid {option}"
        if kind == TRUMP:
            return f"trump {layout.suit_names[option]}" if option < layout.suits else f"{option} (no suit)"
        return layout.label(option)

    def describe(self, s: Round, row: int) -> list[str]:
        layout = s.layout
        lines = [f"  seat {seat} holds " + " ".join(layout.labels(s.hands[row, seat])) for seat in range(s.p)]
        die = "wild" if s.die[row] == layout.suits else f"trump {layout.suit_names[s.die[row]]}"
        lines.append(f"  dealer seat {s.dealer}, die: {die}")
        if s.kitty[row]:
            lines.append("  kitty " + " ".join(layout.labels(s.kitty[row])))
        return lines


def score(tricks, trumps, trump, bids, taker, kitty: str, sole: int = SOLE, most_bonus: int = MOST,
          penalty: int = FEWEST) -> dict[str, np.ndarray]:
    """Tricks, the trump bonus or penalty, who is out-trumped, and the kitty bid's result, per
    seat ``(n, p)``.

    Among seats with t >= 1 trumps: a sole holder scores ``sole`` * t (the sheet: +2t);
    otherwise the most score ``most_bonus`` * t (+t) and, if the fewest is below the most, the
    fewest lose ``penalty`` * t (-t): they are out-trumped. No trump suit: no trump scoring
    (and no trumps to take).
    """
    n, p = tricks.shape
    t = trumps.astype(np.int16)
    holding = t >= 1
    holders = holding.sum(axis=1, keepdims=True)
    most = np.where(holding, t, -1).max(axis=1, keepdims=True)
    fewest = np.where(holding, t, 10_000).min(axis=1, keepdims=True)
    # the out-trumped are a fact of the trumps taken, whatever the points: the bonus alone cannot
    # tell them (penalty 0 scores them nothing; a negative trump_bonus also gives the most a minus)
    out = holding & (t == fewest) & (fewest < most)
    bonus = np.where(holding & (holders == 1), sole * t,
                     np.where(holding & (t == most), most_bonus * t, np.where(out, -penalty * t, 0)))
    bonus = np.where((trump == NO_TRUMP)[:, None], 0, bonus).astype(np.int16)
    seat = np.arange(p)
    takes = taker[:, None] == seat
    bid = np.maximum(bids, 0).astype(np.int8)
    contract = np.where(takes, np.take_along_axis(bid, np.maximum(taker, 0)[:, None], axis=1), 0)
    kitty_points = np.zeros((n, p), np.int16)
    if kitty == "bid":
        kitty_points = np.where(tricks >= contract, contract, -contract).astype(np.int16)
        kitty_points = np.where(takes, kitty_points, 0).astype(np.int16)
    return {
        "score": (tricks + bonus + kitty_points).astype(np.int16),
        "tricks": tricks.astype(np.int8),
        "trumps": trumps.astype(np.int8),
        "bonus": bonus,
        "out_trumped": out,
        "bid": bid,
        "kitty": kitty_points.astype(np.int8),
        "taker": takes,
    }


GAME = OutTrumped()
