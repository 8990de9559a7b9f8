"""Hearts, the traditional game, with its historical variants as rule options; read it next to
``docs/rules/hearts.md``, which states every rule and ruling in the same order.

Card ``c`` (0..51) is suit ``c // 13`` (clubs, diamonds, hearts, spades) and rank ``c % 13 + 1``
(1 the two, 13 the ace), labelled ``2C`` .. ``AS``. Every seat passes three cards, the holder of
the lowest club leads it, suit must be followed, the highest card of the led suit wins, and the
penalty cards a seat takes score against it: the lowest total wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from .. import bits, deck
from ..engine import (
    OWN,
    PUBLIC,
    Decision,
    Field,
    Game,
    Hidden,
    Match,
    View,
    across_seats,
    add,
    cells,
    declare,
    put,
    scalar,
)
from ..options import Option, number
from . import cards
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
    shown_void,
)

# --- Cards -------------------------------------------------------------------------------------

SUITS, RANKS = 4, 13
CLUBS, DIAMONDS, HEARTS, SPADES = range(SUITS)
LAYOUT = cards.layout(SUITS, RANKS, "CDHS", "23456789TJQKA", rank_first=True)
CARDS = LAYOUT.cards
SUIT, CARD_SUIT, CARD_RANK = LAYOUT.suit, LAYOUT.card_suit, LAYOUT.card_rank
HEART = SUIT[HEARTS]
"""The 13 hearts, one penalty point each."""
QUEEN, KING, ACE, JACK = (LAYOUT.card(x) for x in ("QS", "KS", "AS", "JD"))
"""The queen, king and ace of spades, and the jack of diamonds."""

# --- Players and the deal ----------------------------------------------------------------------

REMOVED = {3: ("2D",), 4: (), 5: ("2C", "2D")}
"""Cards taken out of the pack so that it deals out evenly: 17 cards each at 3p, 13 at 4p, 10 at 5p."""


@cache
def pack(p: int) -> np.ndarray:
    """The cards in play at ``p`` players, lowest first, ``(52 - removed,)`` int8 (read-only: made
    once per ``p``, as every round's deal and first lead read it; setdiff1d was ~10 us a call)."""
    out = np.setdiff1d(np.arange(CARDS), [LAYOUT.card(x) for x in REMOVED[p]]).astype(np.int8)
    out.flags.writeable = False
    return out


def in_pack(positions: np.ndarray, p: int) -> np.ndarray:
    """Sets of positions in the pack (``0..len(pack(p)) - 1``) as sets of its cards: every
    position at or above a removed card moves one card up (a bit-wise ``pack(p)[position]``)."""
    for card in sorted(LAYOUT.card(x) for x in REMOVED[p]):  # lowest first: later shifts see the earlier ones
        low = bits.below(card)
        positions = (positions & low) | ((positions & ~low) << np.uint64(1))
    return positions


def opening_card(p: int) -> int:
    """The lowest club in play, which leads the first trick: the 2 of clubs, the 3 at 5p."""
    return int(pack(p)[0])


# --- Passing -----------------------------------------------------------------------------------

PASS = "pass"
"""Decision kind: every seat at once picks one more card to pass (three in all)."""
PASS_COUNT = 3
LEFT, RIGHT, ACROSS, HOLD = "left", "right", "across", "hold"


def pass_cycle(rule: str, p: int) -> tuple[str, ...]:
    """The pass of each hand, repeating: left, right, across, hold at 4p; no seat sits across
    at 3p and 5p, so there the cycle is left, right, hold."""
    if rule == "cycle":
        return (LEFT, RIGHT, ACROSS, HOLD) if p == 4 else (LEFT, RIGHT, HOLD)
    return (HOLD,) if rule == "none" else (rule,)


def pass_way(rule: str, p: int, rnd: int) -> str:
    """The pass of hand ``rnd`` of a match (0 the first) under the ``passing`` rule."""
    cycle = pass_cycle(rule, p)
    return cycle[rnd % len(cycle)]


def pass_offset(way: str, p: int) -> int:
    """Seats clockwise the passed cards travel: 1 left, p - 1 right, 2 across, 0 hold."""
    return {LEFT: 1, RIGHT: p - 1, ACROSS: 2, HOLD: 0}[way]


# --- A hand ------------------------------------------------------------------------------------


@dataclass
class Round(TrickRound):
    """One hand of ``n`` deals, the pass and then the tricks; arrays have the deals first. A seat
    knows its hand, the cards it passed and received, every card played and by whom (so every
    seat's taken cards and points), whether hearts are broken and the match totals."""

    p: int
    rnd: int = declare(PUBLIC, "", "Hand of the match, 0 for the first (one number).")
    hand_size: int = declare(PUBLIC, "", "Cards dealt to each seat (one number).")
    rules: dict = declare(PUBLIC, "", view=None)  # the view's ``rules``, a copy
    way: str = declare(PUBLIC, "", "This hand's pass: left, right, across or hold (no pass).")
    dealt: np.ndarray = declare(PUBLIC, "n", "Every card in play (the pack less the removed 2s), ``(m,)`` sets.")
    hands: np.ndarray = declare(OWN, "n p", "The acting seat's cards, ``(m,)`` sets.", view="hand", cards=True)
    passing: np.ndarray = declare(OWN, "n p", "Cards this seat has chosen to pass so far, ``(m,)`` sets.")
    gave: np.ndarray = declare(OWN, "n p", "The cards this seat passed, ``(m,)`` sets; empty before the pass "
                               "is done.", view="passed")
    played: np.ndarray = declare(PUBLIC, "n", "Cards played so far, the current trick included, ``(m,)`` sets.")
    trick: np.ndarray = declare(PUBLIC, "n p", "Card each seat put in the current trick, -1 not yet, ``(m, p)``.")
    leader: np.ndarray = declare(PUBLIC, "n", "Seat leading the current trick, -1 before the pass is done, "
                                 "``(m,)``.")
    led_suit: np.ndarray = declare(PUBLIC, "n", "Suit led in the current trick (0 clubs .. 3 spades), ``(m,)``.")
    best: np.ndarray = declare(PUBLIC, "n", "Rank of the card winning the current trick (1 the two), ``(m,)``.")
    winning: np.ndarray = declare(PUBLIC, "n", "Seat winning the current trick so far, ``(m,)``.")
    broken: np.ndarray = declare(PUBLIC, "n", "Whether a heart has been played to a finished trick, ``(m,)`` bool.")
    taken: np.ndarray = declare(PUBLIC, "n p", "Cards each seat has taken in its tricks, ``(m, p)`` sets.")
    tricks: np.ndarray = declare(PUBLIC, "n p", "Tricks won so far by every seat, ``(m, p)``.")
    totals: np.ndarray = declare(PUBLIC, "n p", "Match totals before this hand, ``(m, p)``; lower is better.")
    passed: int = declare(PUBLIC, "", "Pass decisions made so far (one number).", view="passes_made", default=0)
    trick_no: int = declare(PUBLIC, "", "Tricks finished so far (one number).", default=0)
    step: int = declare(PUBLIC, "", "Position in the trick: 0 the lead, i the i-th follower (one number).",
                        default=0)
    # the finished tricks: cards, leader, winner; the view shows them as ``history``, ``leaders``
    # and ``winners``
    past: np.ndarray | None = declare(PUBLIC, "n T p", view=None, default=None)
    past_leader: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    past_winner: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)

    def __post_init__(self):
        init_history(self, self.hand_size)

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    @property
    def layout(self) -> cards.Layout:
        return LAYOUT

    @property
    def direction(self) -> int:
        return pass_offset(self.way, self.p)

    @property
    def pass_count(self) -> int:
        return 0 if self.way == HOLD else PASS_COUNT

    def lead_set(self, hand: np.ndarray) -> np.ndarray:
        """The first lead is the lowest club; hearts are led only once broken (with
        ``lead_hearts=broken``), unless the leader holds nothing else."""
        if self.trick_no == 0:
            return np.full(hand.shape, bits.BIT[opening_card(self.p)])
        if self.rules["lead_hearts"] == "any":
            return hand
        hearts_allowed = self.broken | ((hand & ~HEART) == 0)
        return hand & (~HEART | HEART * hearts_allowed)  # a product, not where(): see bits.first_of

    def follow_set(self, hand: np.ndarray) -> np.ndarray:
        """The led suit if the seat holds any; else any card, but on the first trick (with
        ``first_trick=clean``) no penalty card unless the seat holds nothing else."""
        same = hand & SUIT.take(self.led_suit)
        if self.trick_no == 0 and self.rules["first_trick"] == "clean":
            hand = bits.first_of(hand & ~penalty_cards(self.rules), hand)
        return bits.first_of(same, hand)

    def on_lead(self, card: np.ndarray) -> None:
        self.led_suit = CARD_SUIT.take(card)

    def key(self, card: np.ndarray, at) -> np.ndarray:
        """No trumps: the highest card of the led suit wins; other suits never do."""
        return CARD_RANK.take(card) * (CARD_SUIT.take(card) == self.led_suit)  # see bits.first_of


def new_round(hands: np.ndarray, rules: dict, rnd: int = 0, totals: np.ndarray | None = None) -> Round:
    """Hand ``rnd`` of a match, dealt as ``hands`` ``(n, p)`` sets, before the pass."""
    n, p = hands.shape
    return Round(p=p, rnd=rnd, hand_size=int(bits.count(hands[0, 0])), rules=rules,
                 way=pass_way(rules["passing"], p, rnd),
                 dealt=across_seats(np.bitwise_or, hands), hands=hands.copy(),
                 passing=np.zeros((n, p), np.uint64), gave=np.zeros((n, p), np.uint64),
                 played=np.zeros(n, np.uint64), trick=np.full((n, p), -1, np.int8),
                 leader=np.full(n, -1, np.int64), led_suit=np.zeros(n, np.int64),
                 best=np.zeros(n, np.int64), winning=np.zeros(n, np.int64),
                 broken=np.zeros(n, bool), taken=np.zeros((n, p), np.uint64),
                 tricks=np.zeros((n, p), np.int16),
                 totals=np.zeros((n, p), np.int32) if totals is None else totals.copy())


def holder(hands: np.ndarray, card: int) -> np.ndarray:
    """The seat holding ``card`` in each deal, ``(n,)``."""
    return np.argmax((hands & bits.BIT[card]) != 0, axis=1)


# --- Scoring -----------------------------------------------------------------------------------


def card_points(rules: dict) -> tuple[tuple[int, np.uint64], ...]:
    """(points, cards) for every group of scoring cards: each heart 1, the queen of spades 13
    (7 with ``queen=7``), with ``black_maria`` the king of spades 10 and the ace 7, and with
    ``jack`` the jack of diamonds -10 (a bonus, not a penalty)."""
    groups = [(1, HEART), (rules["queen"], bits.BIT[QUEEN])]
    if rules["black_maria"] == "on":
        groups += [(10, bits.BIT[KING]), (7, bits.BIT[ACE])]
    if rules["jack"] == "on":
        groups.append((-10, bits.BIT[JACK]))
    return tuple(groups)


def penalty_cards(rules: dict) -> np.uint64:
    """The cards worth points against their taker: the ones the first trick keeps out, and all
    of which a seat takes to shoot the moon."""
    return np.bitwise_or.reduce([group for points, group in card_points(rules) if points > 0])


def moon_points(rules: dict) -> int:
    """Every penalty point of a hand: 26 with the standard cards (13 hearts and the queen)."""
    return sum(points * int(bits.count(group)) for points, group in card_points(rules) if points > 0)


def score(taken: np.ndarray, tricks: np.ndarray, rules: dict) -> dict[str, np.ndarray]:
    """A hand's results from the cards each seat took, ``(n, p)`` sets.

    Penalty points are summed; a seat that took every penalty card has shot the moon: it scores
    0 and every other seat the hand's penalty points (``moon=add``), or it scores minus them
    (``moon=subtract``); ``moon=off`` scores the cards as taken. The jack of diamonds' bonus
    counts apart from the moon."""
    penalty = np.zeros(taken.shape, np.int16)
    bonus = np.zeros(taken.shape, np.int16)
    for points, group in card_points(rules):
        got = points * bits.count(taken & group).astype(np.int16)
        penalty += np.maximum(got, 0)
        bonus += np.minimum(got, 0)
    every = penalty_cards(rules)
    moon = (taken & every) == every
    total = moon_points(rules)
    if rules["moon"] == "add":
        penalty = np.where(moon.any(axis=1)[:, None], np.where(moon, 0, total), penalty)
    elif rules["moon"] == "subtract":
        penalty = np.where(moon, -total, penalty)
    return {
        "score": (penalty + bonus).astype(np.int16),
        "tricks": tricks.astype(np.int8),
        "hearts": bits.count(taken & HEART).astype(np.int8),
        "queen": ((taken & bits.BIT[QUEEN]) != 0).astype(np.int8),
        "moon": moon.astype(np.int8),
        "jack": ((taken & bits.BIT[JACK]) != 0).astype(np.int8),
    }


# --- What a seat knows -------------------------------------------------------------------------


def _received(s, rows, seat):
    """The cards passed to ``seat``: those its passer gave."""
    base = np.arange(s.n, dtype=np.int64) * s.p if rows is None else rows * s.p
    return s.gave.take(base + (seat - s.direction) % s.p)


class HeartsView(View, state=Round):
    """What a seat knows (see :class:`Round`), and what it infers."""

    def __init__(self, game, state, kind, seat, legal, rows=None):
        super().__init__(game, state, kind, seat, legal, rows)
        self._rules = dict(state.rules)  # public: a copy

    @property
    def rules(self) -> dict:
        """Every rule option's value (``queen``, ``moon``, ``goal``...), a dict copy."""
        return dict(self._rules)

    @property
    def penalty(self) -> np.uint64:
        """The cards worth penalty points under the rules (hearts, the queen of spades...)."""
        return penalty_cards(self._rules)

    received = Field(_received, "The cards passed to this seat, ``(m,)`` sets; empty before the "
                     "pass is done.")
    direction = scalar("direction", "Seats clockwise the passed cards go this hand: 1 left, p - 1 "
                       "right, 2 across, 0 no pass (one number).")
    pass_count = scalar("pass_count", "Cards each seat passes this hand: 3, or 0 (one number).")
    history = HISTORY
    leaders = LEADERS
    winners = WINNERS
    tricks_left = Field(lambda s, rows, seat: s.hand_size - s.trick_no,
                        "Tricks still to be played, the current one included (one number).")

    @cached_property
    def points(self) -> np.ndarray:
        """Penalty points each seat has taken so far, before any moon, ``(m, p)``."""
        return sum(np.maximum(points, 0) * bits.count(self.taken & group).astype(np.int16)
                   for points, group in card_points(self._rules))

    @cached_property
    def played_by(self) -> np.ndarray:
        """Cards each seat has played this hand, ``(m, p)`` sets."""
        history = self.history.astype(np.int64)
        return np.bitwise_or.reduce(np.where(history >= 0, bits.BIT[np.maximum(history, 0)], bits.EMPTY), axis=1)

    @cached_property
    def hand_sizes(self) -> np.ndarray:
        """Cards each seat holds now, ``(m, p)``."""
        return self.hand_size - (self.history >= 0).sum(axis=1)

    @cached_property
    def unseen(self) -> np.ndarray:
        """Cards in the other hands: every card in play not held or played, ``(m,)`` sets (the
        cards this seat passed among them)."""
        return self.dealt & ~self.hand & ~self.played

    @cached_property
    def voids(self) -> np.ndarray:
        """Suits each seat has shown void in (did not follow a led suit), ``(m, p)`` bit sets
        (bit s = suit s)."""
        return shown_void(self.history, self.leaders, lambda card: CARD_SUIT[card],
                          lambda card, suit: CARD_SUIT[card] == suit)

    @cached_property
    def excluded(self) -> np.ndarray:
        """Cards each seat is known not to hold, ``(m, p)`` sets: the suits it has shown void in;
        with ``first_trick=clean``, every non-penalty card if it threw a penalty card on the first
        trick; with ``lead_hearts=broken``, every non-heart if it led a heart before hearts were
        broken."""
        m, p = len(self), self.players
        rows = np.arange(m)
        out = np.zeros((m, p), np.uint64)
        for suit in range(SUITS):
            out |= np.where((self.voids >> suit) & 1, SUIT[suit], bits.EMPTY)
        history = self.history.astype(np.int64)
        if self._rules["first_trick"] == "clean" and history.shape[1]:
            first = history[:, 0]
            threw = (first >= 0) & (CARD_SUIT[np.maximum(first, 0)] != CLUBS) \
                & ((bits.BIT[np.maximum(first, 0)] & self.penalty) != 0)
            out |= np.where(threw, (self.dealt & ~self.penalty)[:, None], bits.EMPTY)
        if self._rules["lead_hearts"] == "broken":
            cards_in = np.where(history >= 0, bits.BIT[np.maximum(history, 0)], bits.EMPTY)
            hearts_in = (np.bitwise_or.reduce(cards_in, axis=2) & HEART) != 0  # (m, T)
            broken_before = np.logical_or.accumulate(hearts_in, axis=1)
            for t in range(1, history.shape[1]):
                leader = self.leaders[:, t].astype(np.int64)
                led = history[rows, t, np.maximum(leader, 0)]
                early = (leader >= 0) & (led >= 0) & (CARD_SUIT[np.maximum(led, 0)] == HEARTS) \
                    & ~broken_before[:, t - 1]
                out[rows, np.maximum(leader, 0)] |= np.where(early, self.dealt & ~HEART, bits.EMPTY)
        return out

    @cached_property
    def winners_now(self) -> np.ndarray:
        """Legal cards that would take the lead of the trick as it stands, ``(m,)`` sets: at a
        lead every legal card; following, those of the led suit above the card winning now; at
        a pass, none."""
        if self.kind != FOLLOW:
            return self.legal.copy() if self.kind == LEAD else np.zeros(len(self), np.uint64)
        winner = self.led_suit * RANKS + self.best - 1
        return self.legal & SUIT[self.led_suit] & ~bits.below(winner + 1)

    @cached_property
    def distinct(self) -> np.ndarray:
        """The legal cards but the higher of two in a suit worth the same points with nothing
        between them but this seat's cards and cards of finished tricks: they take the same
        tricks and points, now and later. At a pass, every legal card."""
        if self.kind not in (LEAD, FOLLOW):
            return self.legal.copy()
        in_trick = np.bitwise_or.reduce(np.where(self.trick >= 0, bits.BIT[np.maximum(self.trick, 0)],
                                                 bits.EMPTY), axis=1)
        gone = (self.hand | self.played) & ~in_trick
        plain = LAYOUT.deck & ~bits.of((QUEEN, KING, ACE, JACK))  # worth the same as their suit's others
        not_lowest = LAYOUT.deck & ~LAYOUT.rank[0]
        reach = ((self.legal & plain) << np.uint64(1)) & not_lowest
        for _ in range(RANKS - 2):
            reach |= ((reach & gone) << np.uint64(1)) & not_lowest
        return self.legal & ~(reach & plain)

    @cached_property
    def strength(self) -> np.ndarray:
        return np.broadcast_to(CARD_RANK, (len(self), CARDS))


def hidden_gifts(view: HeartsView, k: int, hands: np.ndarray, rng) -> np.ndarray:
    """The cards each seat passed, in worlds dealt as ``hands``, ``(m * k, p)`` sets: this seat's
    and its passer's are known; every other seat's are three of its receiver's cards since the
    pass (held or played), not those this seat gave it."""
    r = lambda a: np.repeat(a, k, axis=0)
    p, seat, passed = view.players, r(view.seat), r(view.passed)
    m = len(seat)
    since = hands | r(view.played_by)
    gave = np.zeros((m, p), np.uint64)
    for s in range(p):
        to = (s + view.direction) % p
        pool = since[:, to] & ~np.where(to == (seat + view.direction) % p, passed, bits.EMPTY)
        gave[:, s] = deck.deal_among(pool, np.full((m, 1), PASS_COUNT), rng, CARDS)[:, 0]
    gave[np.arange(m), seat] = passed
    gave[np.arange(m), (seat - view.direction) % p] = r(view.received)
    return gave


# --- The game ----------------------------------------------------------------------------------


class Hearts(Game):
    id = "hearts"
    title = "Hearts"
    sheet = "docs/rules/hearts.md"
    players = (3, 4, 5)
    default_players = 4
    options = (
        Option("passing", ("cycle", "left", "right", "none"),
               "three cards passed before play: left, right, across, hold in turn (left, right, "
               "hold at 3p and 5p), always left, always right, or no pass"),
        Option("lead_hearts", ("broken", "any"),
               "hearts may be led once a heart has been played (or by a leader holding only "
               "hearts), or at any time"),
        Option("first_trick", ("clean", "any"),
               "no penalty card on the first trick unless a seat holds nothing else, or any card"),
        Option("moon", ("add", "subtract", "off"),
               "taking every penalty card: the others score the hand's penalty points and the "
               "shooter 0, or the shooter scores minus them, or no moon"),
        Option("queen", (13, 7), "points of the queen of spades (7: Grey Maria)"),
        Option("black_maria", ("off", "on"), "the king of spades 10 and the ace 7 penalty points "
               "too (Black Maria)"),
        Option("jack", ("off", "on"), "the jack of diamonds scores -10 for its taker (Omnibus)"),
        number("goal", 100, 1, 1000, "points that end the match: after a hand in which someone "
               "has this many, the lowest total wins"),
    )
    n_actions = CARDS
    default_strategy = "ducker"
    decisions = (PASS, LEAD, FOLLOW)
    lower_wins = True
    columns = {"hearts": np.int8, "queen": np.int8, "moon": np.int8, "jack": np.int8}
    analysis = "simtool.analysis.hearts"
    View = HeartsView

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p = match.n, match.p
        cards_in_play = len(pack(p))
        # the whole pack shuffled and dealt out (positions 0..cards_in_play-1), then each position
        # read as the card at it in the pack
        positions = deck.dealt_hands(rng, n, cards_in_play, p, cards_in_play // p)
        return new_round(in_pack(positions, p), match.rules, rnd, match.totals)

    def play(self, s: Round):
        """The hand from the state's position (``passed``, ``trick_no``, ``step``) to its end."""
        cell = cells(s.n, s.p)
        if s.passed < s.pass_count:
            while s.passed < s.pass_count:  # all at once, one card at a time
                chosen = yield Decision(PASS, None, s.hands & ~s.passing)
                s.passing |= bits.BIT[chosen]
                s.passed += 1
            s.hands = (s.hands & ~s.passing) | np.roll(s.passing, s.direction, axis=1)
            s.gave, s.passing = s.passing, np.zeros_like(s.passing)
        if s.trick_no == 0 and s.step == 0:
            s.leader = holder(s.hands, opening_card(s.p))
        while s.trick_no < s.hand_size:
            yield from play_trick(s, cell, s.leader)
            won = cell(s.winning)
            in_trick = across_seats(np.bitwise_or, bits.BIT.take(s.trick))
            put(s.taken, won, s.taken.take(won) | in_trick)
            add(s.tricks, won, 1)
            s.broken |= (in_trick & HEART) != 0
            record_trick(s, s.leader)
            s.trick[:] = -1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        return score(s.taken, s.tricks, s.rules)

    def hidden_cards(self, view: HeartsView) -> Hidden:
        """The cards the seat has not seen go to the other hands, each keeping its hand size and
        getting none it is known not to hold (``view.excluded``); the cards it passed stay with
        their receiver until played."""
        rows = np.arange(len(view))
        known = np.zeros((len(view), view.players), np.uint64)
        known[rows, (view.seat + view.direction) % view.players] = view.passed & ~view.played
        return Hidden(view.unseen, view.hand_sizes, CARDS, allowed=~view.excluded, known=known)

    def restore(self, view: HeartsView, state: dict, k: int, rng) -> None:
        """Mid-pass, each other seat's picks so far are drawn from its hand; once passed, what
        each other seat gave is drawn from its receiver's cards (:func:`hidden_gifts`)."""
        hands, seat = state["hands"], np.repeat(view.seat, k)
        m, p = hands.shape
        if 0 < view.passes_made < view.pass_count:
            passing = state["passing"]
            for s in range(p):
                passing[:, s] = deck.deal_among(hands[:, s], np.full((m, 1), view.passes_made), rng, CARDS)[:, 0]
            passing[np.arange(m), seat] = np.repeat(view.passing, k)
        if view.pass_count and view.passes_made == view.pass_count:
            state["gave"] = hidden_gifts(view, k, hands, rng)
        restore_history(view, state, k)
        state["rules"] = view.rules


    def most_tricks(self, rules: dict, p: int) -> int:
        return len(pack(p)) // p

    def match_over(self, match: Match, rnd: int) -> np.ndarray:
        return (match.totals >= match.rules["goal"]).any(axis=1)

    def invariants(self, s: Round) -> dict[str, np.ndarray]:
        held = np.bitwise_or.reduce(s.hands, axis=1)
        in_trick = np.bitwise_or.reduce(np.where(s.trick >= 0, bits.BIT[np.maximum(s.trick, 0)], bits.EMPTY), axis=1)
        finished = s.played & ~in_trick
        dealt = s.p * s.hand_size
        passed = s.pass_count if s.passed >= s.pass_count else 0
        return {
            "every card in play is held or played, once": ((held | s.played) == s.dealt)
            & (bits.count(s.hands).sum(axis=1) + bits.count(s.played) == dealt) & (bits.count(s.dealt) == dealt),
            "the cards of finished tricks are their winners', once":
                (np.bitwise_or.reduce(s.taken, axis=1) == finished)
                & (bits.count(s.taken).sum(axis=1) == bits.count(finished)),
            "tricks won add up to the tricks finished": s.tricks.sum(axis=1) * s.p == bits.count(finished),
            "between tricks every hand is the same size": (s.trick >= 0).any(axis=1)
            | (bits.count(s.hands) == bits.count(s.hands)[:, :1]).all(axis=1),
            "hearts are broken once a heart is in a finished trick": s.broken == ((finished & HEART) != 0),
            "each seat passed its cards, once the pass is done": (bits.count(s.gave) == passed).all(axis=1),
        }

    def label(self, kind: str, option: int) -> str:
        return LAYOUT.label(option)

    def describe(self, s: Round, row: int) -> list[str]:
        lines = [f"  seat {seat} holds " + " ".join(LAYOUT.labels(s.hands[row, seat])) for seat in range(s.p)]
        removed = " ".join(REMOVED[s.p])
        lines.append(f"  pass: {s.way}" + (f"; removed: {removed}" if removed else ""))
        return lines


GAME = Hearts()
