"""Kansas City: The Trick-Taking Game (Chris Wray), read next to ``docs/rules/kansas-city.md``.

Option ``c`` (0..55) is the card of suit ``c // 8`` and rank ``c % 8 + 1``, so each suit
is one byte of a card set and a card's rank is its bit within the byte. Upgraded cards
stay the same option but join the public set ``trump``: the eighth suit. Option 56 is
"decline" at an upgrade. The aim is exactly the trick limit (3 tricks in 4p, 2 in 5p).

The sheet's numbers (trick limit, score table, the 4s' bonus, hand size) are rule options; the
module constants below are the sheet's values, read only where a rule is ``"sheet"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

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
from ..options import Option, as_numbers, number, numbers
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
    shown_void,
)

SUITS, RANKS = 7, 8
CARDS = SUITS * RANKS
DECLINE = CARDS
HIDDEN_TRUMP = CARDS + 1  # in a view's tricks: 57 + rank - 1 is another seat's trump, printed suit unseen
PASS = "pass"
"""Decision kind: each seat picks one more card to pass (all seats at once)."""
UPGRADE = "upgrade"
"""Decision kind: a loser of the trick upgrades one card to trump, or declines."""
HAND = {4: 14, 5: 11}  # the sheet's hand sizes, limits and 4s' bonus
LIMIT = {4: 3, 5: 2}
FOUR_BONUS = 2
LAYOUT = cards.layout(SUITS, RANKS)  # fixed: the rank-byte tricks below need 8 ranks a suit
SUIT, RANK = LAYOUT.suit, LAYOUT.rank
EVERY_SUIT = np.uint64(sum(1 << (8 * s) for s in range(SUITS)))  # a rank byte times this: that rank in every suit
FOURS = RANK[3]
CARD_RANK = cards.fixed(np.arange(CARDS + 1) % 8 + 1)  # (DECLINE gets a dummy rank)
CARD_SUIT = cards.fixed(np.arange(CARDS + 1) // 8)


def sheet_table(limit: int) -> tuple[int, ...]:
    """The sheet's score table for a trick limit: 5 a trick up to the limit, 5 for one trick
    more, 0 for more still (the last entry: that many tricks or more); 0,5,10,15,5,0 at 3."""
    return (*(5 * t for t in range(limit + 1)), 5, 0)


def hand_size(rules: dict, p: int) -> int:
    return HAND[p] if rules["hand_size"] == "sheet" else rules["hand_size"]


def limit_of(rules: dict, p: int) -> int:
    """The trick limit; the sheet's follows the hand: a hand of fewer cards caps it at its size."""
    return min(LIMIT[p], hand_size(rules, p)) if rules["limit"] == "sheet" else rules["limit"]


def passes(rules: dict, p: int) -> int:
    """Cards each seat passes: ``pass_count``, or the whole hand when it holds fewer."""
    return min(rules["pass_count"], hand_size(rules, p))


def score_table(rules: dict, p: int) -> tuple[int, ...]:
    table = rules["score_table"]
    return sheet_table(limit_of(rules, p)) if table == "sheet" else as_numbers(table)


_32, _16, _8, _LOW_BYTE = np.uint64(32), np.uint64(16), np.uint64(8), np.uint64(0xFF)


def rank_byte(cards: np.ndarray) -> np.ndarray:
    """The ranks present in each card set, folded into one byte (bit r-1 for rank r)."""
    # in place, with the shifts made once: a third less time, and strategies call it at most decisions
    folded = cards >> _32
    folded |= cards
    folded |= folded >> _16
    folded |= folded >> _8
    folded &= _LOW_BYTE
    return folded


def of_ranks(ranks: np.ndarray) -> np.ndarray:
    """Every card whose rank is in the rank byte ``ranks``."""
    return ranks * EVERY_SUIT


def rank_counts(hands: np.ndarray) -> np.ndarray:
    """Cards of each rank in each hand, ``(n, p, 8)`` int8 (index rank - 1)."""
    return np.stack([bits.count(hands & RANK[r]) for r in range(RANKS)], axis=-1).astype(np.int8)


def trick_key(card: np.ndarray, is_trump: np.ndarray, led_suit: np.ndarray) -> np.ndarray:
    """Who wins: any trump beats every other card, then rank; off-suit cards never win."""
    rank = CARD_RANK.take(card)
    return rank * (is_trump | (CARD_SUIT.take(card) == led_suit)) + 16 * is_trump  # see bits.first_of


def clockwise(seat: np.ndarray, places: int, p: int) -> np.ndarray:
    """The seat ``places`` (0 to p - 1) after ``seat`` clockwise: ``(seat + places) % p`` without
    the division (several times slower on int64)."""
    out = seat + places
    return out - p * (out >= p)


@dataclass
class Round(TrickRound):
    """One hand of ``n`` deals. A seat knows its hand, every hand's ranks (printed on the backs),
    which seat holds a trump of which rank, the printed suits of its own and its passed upgraded
    cards (not of the others'), the set-aside card, the cards played and the tricks and 4s each
    seat has taken. Fields whose faces are partly hidden (``trump``, ``played``, ``trick``, the
    history) are hidden here and shown through the view's own fields."""

    p: int
    rnd: int = declare(PUBLIC, "", "Hand of the match, 0 for the first (one number).")
    hand_size: int = declare(PUBLIC, "", "Cards dealt to each seat (one number).")
    pass_count: int = declare(PUBLIC, "", "Cards each seat passes (one number).")
    dealt: np.ndarray = declare(HIDDEN, "n")  # every card dealt to a player
    set_aside: np.ndarray = declare(PUBLIC, "n", "The 5p card set aside face up, -1 in 4p, ``(m,)``.")
    hands: np.ndarray = declare(OWN, "n p", "The acting seat's cards, ``(m,)`` sets.", view="hand")
    passing: np.ndarray = declare(OWN, "n p", "Cards this seat has already chosen to pass, ``(m,)`` sets.")
    trump: np.ndarray = declare(HIDDEN, "n")  # every upgraded card, held or played (backs public)
    played: np.ndarray = declare(HIDDEN, "n")  # cards played so far, the current trick included
    trick: np.ndarray = declare(HIDDEN, "n p")  # card each seat put in the current trick, -1 not yet
    leader: np.ndarray = declare(PUBLIC, "n", "Seat that led the current trick, ``(m,)``.")
    led_suit: np.ndarray = declare(HIDDEN, "n")  # printed suit of the lead; ignored when trump was led
    trump_led: np.ndarray = declare(PUBLIC, "n", "Whether the current lead is a trump, ``(m,)`` bool.")
    best: np.ndarray = declare(PUBLIC, "n", "Strength of the card winning the trick so far (see "
                               "``trick_key``), ``(m,)``.")
    winning: np.ndarray = declare(PUBLIC, "n", "Seat winning the current trick; at an upgrade, the winner of "
                                  "the trick just played (upgrades go clockwise from its left), ``(m,)``.")
    totals: np.ndarray = declare(PUBLIC, "n p", "Match totals before this hand, ``(m, p)``.")
    tricks: np.ndarray = declare(PUBLIC, "n p", "Tricks won so far by every seat, ``(m, p)``.")
    fours: np.ndarray = declare(PUBLIC, "n p", "Rank-4 cards captured so far by every seat, ``(m, p)``.")
    upgrades: np.ndarray = declare(PUBLIC, "n p", "Cards each seat has upgraded so far, ``(m, p)``.")
    passed: int = declare(PUBLIC, "", "Pass decisions made so far (one number).", view="passes_made", default=0)
    trick_no: int = declare(PUBLIC, "", "Tricks finished so far (one number; during upgrades, the trick "
                            "just played).", default=0)
    step: int = declare(PUBLIC, "", "Position in the trick: 0 lead, i the i-th follower, p + i the i-th "
                        "upgrader (one number).", default=0)
    gave: np.ndarray | None = declare(OWN, "n p", "The cards this seat passed (to the next seat clockwise), "
                                      "``(m,)`` sets; empty before the pass is made.", view="passed",
                                      default=None)
    kept: np.ndarray | None = declare(HIDDEN, "n p", default=None)  # each seat's hand once the pass is done
    past: np.ndarray | None = declare(HIDDEN, "n T p", default=None)  # cards of the finished tricks
    past_leader: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)  # the view's leaders
    past_winner: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)  # the view's winners
    limit: int | None = None  # the trick limit (None: the sheet's)
    # points for 0, 1, ... tricks, the last for that many or more; a tuple, as it is no per-deal array
    table: tuple[int, ...] | None = None
    four_bonus: int = FOUR_BONUS
    left_out: np.ndarray | int = declare(HIDDEN, "n", default=0)  # cards left out face down (small hands)

    def __post_init__(self):
        init_history(self, self.hand_size)
        if self.limit is None:
            self.limit = LIMIT[self.p]
        if self.table is None:
            self.table = sheet_table(self.limit)
        if self.gave is None:
            self.gave = np.zeros_like(self.hands)
        if self.kept is None:
            self.kept = self.hands.copy()

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    @property
    def held_trumps(self) -> np.ndarray:
        return self.dealt & ~self.played & self.trump

    def follow_set(self, hand: np.ndarray) -> np.ndarray:
        """Legal cards for a follower: the led suit (trump only when trump was led), else any."""
        led = self.trump_led
        same = hand & (self.trump * led | ~self.trump & SUIT.take(self.led_suit) * ~led)
        return bits.first_of(same, hand)

    def on_lead(self, card: np.ndarray) -> None:
        self.trump_led = (self.trump & bits.BIT.take(card)) != 0
        self.led_suit = CARD_SUIT.take(card)

    def key(self, card: np.ndarray, at) -> np.ndarray:
        return trick_key(card, (self.trump & bits.BIT.take(card)) != 0, self.led_suit)


def _face_known(s, rows, seat) -> np.ndarray:
    """The upgraded cards whose printed suit ``seat`` knows: its own (held or played) and those it
    passed; any other trump shows only its back, also once played (the sheet's FAQ)."""
    at = (np.arange(s.n, dtype=np.int64) * s.p if rows is None else rows * s.p) + seat
    return (s.kept.take(at) | s.gave.take(at)) & (s.trump if rows is None else s.trump[rows])


def _hidden_trumps(s, rows, seat) -> np.ndarray:
    trump = s.trump if rows is None else s.trump[rows]
    return trump & ~_face_known(s, rows, seat)


def _backs(cards: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """Cards as the seat saw them: a trump in ``hidden`` shows as HIDDEN_TRUMP + rank - 1."""
    hide = bits.has(hidden.reshape(hidden.shape + (1,) * (cards.ndim - 1)), np.maximum(cards, 0)) & (cards >= 0)
    return np.where(hide, HIDDEN_TRUMP + CARD_RANK[np.maximum(cards, 0)] - 1, cards).astype(np.int8)


class KansasCityView(View, state=Round):
    """What a seat knows (see :class:`Round`), and what it infers."""

    def __init__(self, game, state, kind, seat, legal, rows=None):
        super().__init__(game, state, kind, seat, legal, rows)
        self._numbers = (state.limit, state.table, state.four_bonus)  # public rules


    rank_counts = Field(lambda s, rows, seat: rank_counts(_rows(s.hands, rows)),
                        "Cards of each rank (index rank - 1) in every seat's hand, ``(m, p, 8)`` "
                        "int8 (ranks are printed on the backs).")
    trump = Field(lambda s, rows, seat: _face_known(s, rows, seat),
                  "Upgraded cards whose printed suit this seat knows: its own and those it passed, "
                  "``(m,)`` sets (other trumps show only their backs).")
    trump_ranks = Field(lambda s, rows, seat: rank_byte(_rows(s.hands, rows) & _rows(s.trump, rows)[:, None]),
                        "Ranks of the unplayed trumps each seat holds, ``(m, p)`` rank bytes (bit r - 1 "
                        "for rank r; trump backs are public).")
    played = Field(lambda s, rows, seat: _rows(s.played, rows) & ~_hidden_trumps(s, rows, seat),
                   "Cards played so far whose face this seat saw (another seat's trump shows only its "
                   "back: see ``history``), the current trick included, ``(m,)`` sets.")
    dealt = Field(lambda s, rows, seat: _rows(s.dealt | s.left_out, rows),
                  "Every card that may have been dealt to a player: all but the set-aside card "
                  "(with hands smaller than the sheet's, the cards left out face down are among "
                  "them), ``(m,)`` sets.")

    @cached_property
    def unseen(self) -> np.ndarray:
        """Cards in other hands (or left out, with hands smaller than the sheet's): everything
        dealt but not held or played, ``(m,)`` sets."""
        return self.dealt & ~self.hand & ~self.played

    trick = Field(lambda s, rows, seat: _backs(_rows(s.trick, rows), _hidden_trumps(s, rows, seat)),
                  "Card each seat put in the current trick, -1 not yet, ``(m, p)`` (57 + rank - 1: a "
                  "trump whose printed suit this seat has not seen).")
    led_suit = Field(lambda s, rows, seat: bits.where(_rows(s.trump_led, rows), -1, _rows(s.led_suit, rows)),
                     "Printed suit of the current lead, -1 when a trump was led, ``(m,)``.")
    tricks_left = Field(lambda s, rows, seat: s.hand_size - s.trick_no,
                        "Tricks still to be played, the current one included (one number).")
    history = Field(lambda s, rows, seat: _backs(HISTORY.read(s, rows, seat), _hidden_trumps(s, rows, seat)),
                     HISTORY.__doc__ + " 57 + rank - 1: a trump whose printed suit this seat has not seen.")
    leaders = LEADERS
    winners = WINNERS

    @property
    def passed_to(self) -> np.ndarray:
        """The seat that received this seat's passed cards, ``(m,)``."""
        return (self.seat + 1) % self.players

    @cached_property
    def voids(self) -> np.ndarray:
        """Printed suits each seat has shown void in (did not follow a plain lead), ``(m, p)`` bit
        sets (bit s = suit s)."""
        trump = np.concatenate([bits.to_mask(self.trump, CARDS), np.zeros((len(self), 1), bool),
                                np.ones((len(self), RANKS), bool)], axis=1)  # the backs are trumps
        rows = np.arange(len(self))[:, None]
        suit_of = np.concatenate([CARD_SUIT[:CARDS], np.full(RANKS + 1, -1)])
        return shown_void(self.history, self.leaders,
                          lambda card: np.where(trump[rows, card], -1, suit_of[card]),
                          lambda card, suit: ~trump[rows[:, :, None] if card.ndim == 3 else rows, card]
                          & (suit_of[card] == suit))

    @cached_property
    def winners_now(self) -> np.ndarray:
        """Legal cards that would take the lead of the trick as it stands, ``(m,)`` sets (at a
        lead, every legal card; at a decision that plays no card, none)."""
        if self.kind != FOLLOW:
            return self.legal.copy() if self.kind == LEAD else np.zeros(len(self), np.uint64)
        legal, trump, best = self.legal, self.trump, self.best
        above = lambda r: of_ranks(np.uint64(0xFF) & ~bits.below(bits.clamp(r, 0, RANKS)))  # ranks above r
        over_trump = legal & trump & above(best - 16)
        over_suit = (legal & ~trump & SUIT[np.maximum(self.led_suit, 0)] & above(best)) | (legal & trump)
        return np.where(best >= 16, over_trump, over_suit)

    @property
    def limit(self) -> int:
        """The trick limit (rule ``limit``; the sheet's: 3 tricks in 4p, 2 in 5p); more overshoot."""
        return self._numbers[0]

    @property
    def score_table(self) -> tuple[int, ...]:
        """Points for 0, 1, 2... tricks, the last entry for that many or more (rule
        ``score_table``; the sheet's in 4p: 0, 5, 10, 15, 5, 0)."""
        return self._numbers[1]

    @property
    def four_bonus(self) -> int:
        """Points for each captured card of rank 4 (rule ``four_bonus``)."""
        return self._numbers[2]

    @cached_property
    def strength(self) -> np.ndarray:
        if self.kind in (LEAD, FOLLOW):
            is_trump = bits.to_mask(self.trump, CARDS + 1)
            return np.where(is_trump, 8 + CARD_RANK, CARD_RANK)
        if self.kind == UPGRADE:  # declining is the lowest option
            return np.broadcast_to(np.where(np.arange(CARDS + 1) == DECLINE, 0, CARD_RANK),
                                   (len(self), CARDS + 1))
        return np.broadcast_to(CARD_RANK, (len(self), CARDS + 1))


class KansasCity(Game):
    id = "kansas-city"
    title = "Kansas City"
    sheet = "seeds/000_274fdaeadb8c5d07.txt"
    players = (4, 5)
    default_players = 4
    options = (
        Option("pass_count", (3, 0, 1, 2), "cards each player passes clockwise before play (a "
               "smaller hand is passed whole)"),
        Option("hands", ("3", "p"), "hands in a match: 3, or one per player"),
        number("limit", "sheet", 1, 14, "the trick limit: a player winning more tricks has "
               "overshot", sheet="3 at 4p, 2 at 5p, at most the hand size"),
        numbers("score_table", "sheet", (2, 15), -99, 99, "points for 0, 1, 2... tricks won, "
                "the last entry for that many or more",
                sheet="5 a trick to the limit, 5 for one more, then 0"),
        number("four_bonus", FOUR_BONUS, -10, 10, "points for each captured card of rank 4"),
        number("hand_size", "sheet", 1, 14, "cards dealt to each player (the rest are left out "
               "face down, and in 5p one more is set aside face up)", sheet="14 at 4p, 11 at 5p"),
    )
    n_actions = CARDS + 1
    default_strategy = "target"
    decisions = (PASS, UPGRADE, LEAD, FOLLOW)
    columns = {"fours": np.int8, "overshoot": np.int8, "upgrades": np.int8}
    analysis = "simtool.analysis.kansas_city"
    View = KansasCityView

    def played(self, rules: dict, p: int) -> dict:
        return {**rules, "hand_size": hand_size(rules, p), "limit": limit_of(rules, p),
                "score_table": ",".join(map(str, score_table(rules, p)))}

    def check_rules(self, rules: dict, p: int) -> None:
        hand, limit = hand_size(rules, p), limit_of(rules, p)
        aside = int(p == 5)
        if p * hand + aside > CARDS:
            raise SimtoolError(f"hand_size {hand} at {p}p deals {p * hand + aside} cards "
                               f"{'(the set-aside card included) ' if aside else ''}but the deck "
                               f"has {CARDS}: at most {(CARDS - aside) // p}")
        if limit > hand:
            raise SimtoolError(f"limit {limit} is above the hand size of {hand} at {p}p: "
                               f"at most {hand}")
        table = rules["score_table"]
        if table != "sheet" and len(as_numbers(table)) > hand + 1:
            raise SimtoolError(f"score_table has {len(as_numbers(table))} entries but a hand of "
                               f"{hand} cards wins 0..{hand} tricks: at most {hand + 1} entries")

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p = match.n, match.p
        hand = hand_size(match.rules, p)
        if p == 5:  # the card after the hands is set aside
            cards = deck.shuffled(rng, n, CARDS, p * hand + 1)
            hands = deck.hands(cards[:, : p * hand], p)
            set_aside = cards[:, -1].astype(np.int8)
            aside = bits.BIT.take(set_aside)
        else:  # the same shuffle, its positions put straight into the hands
            hands = deck.dealt_hands(rng, n, CARDS, p, hand)
            set_aside, aside = np.full(n, -1, np.int8), bits.EMPTY
        dealt = across_seats(np.bitwise_or, hands)
        zeros = np.zeros((n, p), np.int16)
        return Round(
            p=p, rnd=rnd, hand_size=hand, pass_count=passes(match.rules, p),
            dealt=dealt, set_aside=set_aside, hands=hands,
            passing=np.zeros((n, p), np.uint64), trump=np.zeros(n, np.uint64),
            played=np.zeros(n, np.uint64), trick=np.full((n, p), -1, np.int8),
            leader=np.full(n, rnd % p, np.int64),  # the dealer's left: seat r mod p
            led_suit=np.zeros(n, np.int64), trump_led=np.zeros(n, bool),
            best=np.zeros(n, np.int64), winning=np.zeros(n, np.int64),
            totals=match.totals.copy(), tricks=zeros, fours=zeros.copy(), upgrades=zeros.copy(),
            limit=limit_of(match.rules, p), table=score_table(match.rules, p),
            four_bonus=match.rules["four_bonus"],
            left_out=bits.full(CARDS) & ~dealt & ~aside,
        )

    def play(self, s: Round):
        """The round from the state's position (``passed``, ``trick_no``, ``step``) to its end."""
        cell = cells(s.n, s.p)
        if s.passed < s.pass_count:
            while s.passed < s.pass_count:  # all at once, one card at a time
                chosen = yield Decision(PASS, None, s.hands & ~s.passing)
                s.passing |= bits.BIT[chosen]
                s.passed += 1
            s.hands = (s.hands & ~s.passing) | np.roll(s.passing, 1, axis=1)  # to the next seat clockwise
            s.gave = s.passing.copy()
            s.kept = s.hands.copy()
            s.passing[:] = 0
        while s.trick_no < s.hand_size:
            yield from play_trick(s, cell, s.leader)
            if s.step == s.p:
                won = cell(s.winning)
                in_trick = across_seats(np.bitwise_or, bits.BIT.take(s.trick))
                add(s.tricks, won, 1)
                add(s.fours, won, bits.count(in_trick & FOURS))
                record_trick(s, s.leader)
                s.trick[:] = -1
                s.step += 1
            while s.step < 2 * s.p and s.trick_no < s.hand_size - 1:
                seat = clockwise(s.winning, s.step - s.p, s.p)  # each loser, clockwise from the winner's left
                at = cell(seat)
                taken = of_ranks(rank_byte(s.held_trumps))  # re-checked after each upgrade
                eligible = s.hands.take(at) & ~s.trump & ~taken
                choice = yield Decision(UPGRADE, seat, eligible | bits.BIT[DECLINE])
                upgraded = choice != DECLINE
                s.trump |= bits.BIT.take(choice) * upgraded
                add(s.upgrades, at, upgraded)
                s.step += 1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        return score(s.tricks, s.fours, s.upgrades, s.table, s.limit, s.four_bonus)

    def restore(self, view: KansasCityView, state: dict, k: int, rng) -> None:
        """The faces the seat has not seen, re-dealt rank by rank (every hand's ranks are printed
        on the backs): each seat keeps its count of every rank, the cards this seat passed it
        and its trumps' ranks, gets no plain card of a suit it has shown void in, and the other
        seats' trumps (held or played) get printed suits from the unseen cards of their rank.
        Before the pass is done, each other seat's cards chosen so far are drawn from its hand.

        Not used: the order of upgrades and shown voids (a seat that showed void in a suit cannot
        later have upgraded a card of it); such worlds are kept."""
        r = lambda a: np.repeat(a, k, axis=0)
        p, seat = view.players, r(view.seat)
        m = len(seat)
        rows = np.arange(m)
        played, known_trump, hand = r(view.played), r(view.trump), r(view.hand)
        history = r(view.history).astype(np.int64)
        to = (seat + 1) % p
        known = np.zeros((m, p), np.uint64)
        known[rows, seat] = hand
        known[rows, to] |= r(view.passed) & ~played
        held_back = r(view.trump_ranks) & ~rank_byte(known & known_trump[:, None])  # trumps seen by back only
        backs = history >= HIDDEN_TRUMP  # (m, T, p): trumps played face down to this seat
        counts = r(view.rank_counts).astype(np.int64)
        voids = r(view.voids)
        plain_ok = np.full((m, p), bits.full(CARDS), np.uint64)
        for suit in range(SUITS):
            plain_ok &= np.where((voids >> suit) & 1, ~SUIT[suit], bits.full(CARDS))
        unseen = r(view.dealt) & ~played & ~np.bitwise_or.reduce(known, axis=1)
        hands, trump, played_backs = known.copy(), known_trump.copy(), np.zeros((m, p), np.uint64)
        # backs each seat played, by rank, counted in one pass (index RANKS: not a back)
        code = np.where(backs, history - HIDDEN_TRUMP, RANKS)
        cell = (rows[:, None, None] * p + np.arange(p)) * (RANKS + 1) + code
        shown_by_rank = np.bincount(cell.ravel(), minlength=m * p * (RANKS + 1)).reshape(m, p, RANKS + 1)
        for rank in range(RANKS):
            held = ((held_back >> np.uint64(rank)) & np.uint64(1)).astype(np.int64)
            shown = shown_by_rank[:, :, rank]
            plain = counts[:, :, rank] - bits.count(known & RANK[rank]).astype(np.int64) - held
            sizes = np.concatenate([plain, held, shown], axis=1)
            anything = np.full((m, 2 * p), bits.full(CARDS), np.uint64)
            dealt = deck.deal_among(unseen & RANK[rank], sizes, rng, CARDS,
                                    np.concatenate([plain_ok, anything], axis=1))
            hands |= dealt[:, :p] | dealt[:, p:2 * p]
            trump |= np.bitwise_or.reduce(dealt[:, p:], axis=1)
            played_backs |= dealt[:, 2 * p:]
        # each trump played face down gets its printed card: the seat's drawn cards of that rank
        faces = history.copy()
        left = played_backs.copy()
        for t in range(history.shape[1]):
            for s in range(p):
                code = history[:, t, s]
                hide = code >= HIDDEN_TRUMP
                if hide.any():
                    pool = left[:, s] & RANK[bits.clamp(code - HIDDEN_TRUMP, 0, RANKS - 1)]
                    card = bits.lowest(pool)
                    faces[:, t, s] = np.where(hide, card, code)
                    left[:, s] &= ~np.where(hide, bits.BIT[np.minimum(card, 63)], bits.EMPTY)
        played = played | np.bitwise_or.reduce(played_backs, axis=1)
        dealt = np.bitwise_or.reduce(hands, axis=1) | played  # the cards of the rank draws left out stay out
        passing = r(view.passing)
        others = np.zeros((m, p), np.uint64)
        if 0 < view.passes_made < view.pass_count:
            for s in range(p):
                others[:, s] = deck.deal_among(hands[:, s], np.full((m, 1), view.passes_made), rng, CARDS)[:, 0]
            others[rows, seat] = passing
        faces = faces.astype(np.int8)
        past, past_leader = faces.copy(), r(view.leaders)
        trick = np.full((m, p), -1, np.int8)
        if view.trick_no < view.hand_size and view.step < p and view.passes_made >= view.pass_count:
            trick = faces[:, view.trick_no].copy()
            past[:, view.trick_no] = -1
            past_leader[:, view.trick_no] = -1
        trump_led = state["trump_led"]
        led_card = trick[rows, state["leader"]].astype(np.int64)
        led_suit = np.where(trump_led & (led_card >= 0), CARD_SUIT[np.maximum(led_card, 0)], r(view.led_suit))
        faces64 = faces.astype(np.int64)
        own_played = np.bitwise_or.reduce(np.where(faces64 >= 0, bits.BIT[np.maximum(faces64, 0)], bits.EMPTY), axis=1)
        state.update(dealt=dealt, hands=hands, passing=others, trump=trump, played=played, trick=trick,
                     led_suit=led_suit, kept=hands | own_played, past=past, past_leader=past_leader,
                     past_winner=r(view.winners), limit=view.limit, table=view.score_table,
                     four_bonus=view.four_bonus, left_out=r(view.dealt) & ~dealt)


    def most_tricks(self, rules: dict, p: int) -> int:
        return hand_size(rules, p)

    def match_over(self, match: Match, rnd: int) -> np.ndarray:
        hands = match.p if match.rules["hands"] == "p" else 3
        return np.full(match.n, rnd + 1 >= hands)

    def invariants(self, s: Round) -> dict[str, np.ndarray]:
        held = np.bitwise_or.reduce(s.hands, axis=1)
        dealt = s.p * s.hand_size
        aside = np.where(s.set_aside >= 0, bits.BIT[np.maximum(s.set_aside, 0)], bits.EMPTY)
        in_trick = np.where(s.trick >= 0, bits.BIT[np.maximum(s.trick, 0)], bits.EMPTY)
        trick_trumps = in_trick & s.trump[:, None]
        trick_trump_ranks = np.stack([bits.count(trick_trumps & RANK[r]).sum(axis=1) for r in range(RANKS)])
        held_trump_ranks = np.stack([bits.count(s.held_trumps & RANK[r]) for r in range(RANKS)])
        done = s.tricks.sum(axis=1)
        return {
            "every card is held, played or set aside, once": ((held | s.played) == s.dealt)
            & (bits.count(s.hands).sum(axis=1, dtype=np.int64) + bits.count(s.played) == dealt)
            & ((s.dealt & aside) == 0) & (bits.count(s.dealt) == dealt),
            "no trick holds two trumps of one rank": (trick_trump_ranks <= 1).all(axis=0),
            "never two unplayed trumps of one rank": (held_trump_ranks <= 1).all(axis=0),
            "tricks won add up to the tricks completed": done * s.p + (s.trick >= 0).sum(axis=1)
            == bits.count(s.played),
        }

    def label(self, kind: str, option: int) -> str:
        if option == DECLINE:
            return "decline"
        return LAYOUT.label(option)

    def describe(self, s: Round, row: int) -> list[str]:
        lines = [f"  seat {seat} holds " + " ".join(LAYOUT.labels(s.hands[row, seat])) for seat in range(s.p)]
        if s.set_aside[row] >= 0:
            lines.append(f"  set aside: {self.label('', int(s.set_aside[row]))}")
        return lines


def score(tricks: np.ndarray, fours: np.ndarray, upgrades: np.ndarray, table: tuple | None = None,
          limit: int | None = None, four_bonus: int = FOUR_BONUS) -> dict[str, np.ndarray]:
    """The hand's points: the score table (its last entry for that many tricks or more) and
    ``four_bonus`` per captured 4; the sheet's limit and table for the player count by default."""
    limit = LIMIT[tricks.shape[1]] if limit is None else limit
    table = np.array(sheet_table(limit) if table is None else table)
    points = table[np.minimum(tricks, len(table) - 1)] + four_bonus * fours
    return {"score": points.astype(np.int16), "tricks": tricks, "fours": fours,
            "overshoot": np.maximum(tricks - limit, 0), "upgrades": upgrades}


GAME = KansasCity()
