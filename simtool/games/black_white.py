"""Trick Taking in Black & White (Tsutomu Dejima), read next to ``docs/rules/black-white.md``.

Card ``c`` (option ``c`` = 0..deck-1, 36 cards on the sheet) is the printed card ``k = c + 1``:
black ``k`` on one half, white ``deck + 1 - k`` on the other. The leader plays a card and
announces a colour; every card in the trick then counts by its number in that colour, so
following is always possible. Players want as many black tricks as white ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

import numpy as np

from .. import bits, deck
from ..engine import (
    HIDDEN,
    OWN,
    PUBLIC,
    Decision,
    Field,
    Game,
    Hidden,
    Match,
    View,
    _rows,
    across_seats,
    add,
    cells,
    declare,
)
from ..errors import SimtoolError
from ..options import number
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
    play_unwatched_trick,
    record_trick,
    restore_history,
)

CARDS = 36
"""The sheet's deck."""
MAX_CARDS = 64
"""The largest deck a card set (a uint64) holds: the option space of every deck."""
SHEET_HAND_2P = 11
"""The sheet's hand with 2 players (the rest of the deck is unused); 3-4 players share out the deck."""
BLACK, WHITE = 0, 1
COLOUR = "colour"
"""Decision kind: the leader announces the colour of the trick it led (after ``tricks.LEAD``)."""
COLOURS = ("black", "white")
EITHER_COLOUR = bits.of((BLACK, WHITE))


def sheet_hand(deck_size: int, p: int) -> int:
    """The sheet's hand size: 11 each with 2 players, else the whole deck dealt out evenly."""
    return SHEET_HAND_2P if p == 2 else deck_size // p


def hand_size(rules: dict, p: int) -> int:
    """Cards dealt to each seat under ``rules`` (missing rules at the sheet's values)."""
    hand = rules.get("hand_size", "sheet")
    return sheet_hand(rules.get("deck", CARDS), p) if hand == "sheet" else hand


@cache
def values(deck_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The black and the white number of every option for a deck of ``deck_size`` cards,
    ``(MAX_CARDS,)`` int16 each (0 beyond the deck): card ``c`` shows black ``c + 1`` and white
    ``deck_size - c``. Read-only: one pair per deck size, shared by every round."""
    layout = cards.layout(1, deck_size)
    black = np.zeros(MAX_CARDS, np.int16)
    black[:deck_size] = layout.card_rank
    white = np.where(black > 0, deck_size + 1 - black, 0).astype(np.int16)
    black.flags.writeable = white.flags.writeable = False
    return black, white


def value(card: np.ndarray, colour: np.ndarray, deck_size: int = CARDS) -> np.ndarray:
    """The number a card of the deck counts for in the announced colour, int16: black ``c + 1``;
    any colour but black reads white, ``deck_size - c``, that is ``deck_size + 1`` less the black
    number. By arithmetic on int16 (the black number negated where white, by the two's-complement
    identity ``-x == (x ^ -1) + 1``, plus ``deck_size + 1`` there): less than half the time of a
    look-up in :func:`values`, whose gather and int64 index cost more than the whole sum."""
    number = np.asarray(card).astype(np.int16)
    number += np.int16(1)
    white = np.asarray(np.asarray(colour) != BLACK, dtype=np.int16)  # an array even for one colour
    if number.shape != white.shape:  # one card in several colours, or one colour for several cards
        number, white = (np.array(a) for a in np.broadcast_arrays(number, white))
    np.negative(white, out=white)  # -1 (every bit set) where white, else 0
    number ^= white
    number -= white
    white &= np.int16(deck_size + 1)
    number += white
    return number


@lru_cache(maxsize=8)
def _either_colour(n: int) -> np.ndarray:
    """The colour's legal sets for ``n`` deals, ``(n,)``, read-only and shared: given as one set,
    the engine filled an array of ``n`` at every trick (the engine and the views never write
    into a decision's sets)."""
    either = np.full(n, EITHER_COLOUR)
    either.flags.writeable = False
    return either


def _coding(colour: np.ndarray, deck_size: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`value` of any card of a trick as ``card * sign + offset`` (int16): sign 1 and
    offset 1 where black, -1 and ``deck_size`` where white. Worked out once, when the colour
    is named, so that each follower's card takes three whole-array steps instead of nine."""
    white = np.asarray(colour != BLACK, dtype=np.int16)
    sign = np.int16(1) - (white << np.int16(1))
    offset = white * np.int16(deck_size - 1)
    offset += np.int16(1)
    return sign, offset


@dataclass
class Round(TrickRound):
    """One round of ``n`` deals; every array has the deals on the first axis. A seat knows its
    hand, every played card and who played it, every trick's leader, colour and winner, and the
    trick piles; the other hands (and in 2p the unused cards) are hidden."""

    announcements = 1  # the colour
    books_unwatched = False  # the rules read neither the trick, the cards played nor the history

    p: int
    rnd: int = declare(PUBLIC, "", "Round of the match, 0 for the first (one number).")
    hand_size: int = declare(PUBLIC, "", "Cards dealt to each seat (one number).")
    dealt: np.ndarray = declare(HIDDEN, "n")  # every card dealt this round
    hands: np.ndarray = declare(OWN, "n p", "Cards in the acting seat's hand, uint64 sets ``(m,)``.",
                                view="hand", cards=True)
    totals: np.ndarray = declare(PUBLIC, "n p", "Match totals before this round, ``(m, p)``.")
    leader: np.ndarray = declare(PUBLIC, "n", "Seat that led the current trick, ``(m,)``.")
    played: np.ndarray = declare(PUBLIC, "n", "Cards played so far in the round, the current trick "
                                 "included, ``(m,)``.")
    trick: np.ndarray = declare(PUBLIC, "n p", "Card each seat put in the current trick, -1 not yet, ``(m, p)``.")
    colour: np.ndarray = declare(PUBLIC, "n", "Announced colour (0 black, 1 white), -1 while the leader "
                                 "is choosing, ``(m,)``.")
    best: np.ndarray = declare(PUBLIC, "n", "Highest number played so far in the announced colour (0 at "
                               "the lead), ``(m,)``.")
    winning: np.ndarray = declare(PUBLIC, "n", "Seat winning the current trick so far (the leader before "
                                  "the colour), ``(m,)``.")
    black: np.ndarray = declare(PUBLIC, "n p", "Black tricks won by every seat, ``(m, p)`` (trick piles are "
                                "face up).")
    white: np.ndarray = declare(PUBLIC, "n p", "White tricks won by every seat, ``(m, p)``.")
    trick_no: int = declare(PUBLIC, "", "Tricks finished so far this round (one number).", default=0)
    step: int = declare(PUBLIC, "", "Position in the trick: 0 lead, 1 colour, 1 + i the i-th follower "
                        "(one number).", default=0)
    # the finished tricks: cards, leader, winner, colour (-1 not yet); the view shows them as
    # ``history``, ``leaders``, ``winners`` and ``colours``, the trick under way included
    past: np.ndarray | None = declare(PUBLIC, "n T p", view=None, default=None)
    past_leader: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    past_winner: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    past_colour: np.ndarray | None = declare(PUBLIC, "n T", view=None, default=None)
    cards: int = CARDS  # the deck: cards 0..cards-1 (the ``deck`` rule)

    def __post_init__(self):
        init_history(self, self.hand_size)
        if self.past_colour is None:
            self.past_colour = np.full((self.n, self.hand_size), -1, np.int8)

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    def key(self, card, at) -> np.ndarray:
        coding = getattr(self, "_coding", None)
        if coding is None or coding[0] is not self.colour:  # a copy of the state, or a new trick
            return value(card, self.colour, self.cards)
        number = card.astype(np.int16)
        number *= coding[1]
        number += coding[2]
        return number

    def ranked(self, card, at) -> np.ndarray:
        """:meth:`key` times 8, int16 (see :func:`~simtool.games.tricks.play_unwatched_trick`)."""
        number = self.key(card, at)
        number <<= np.int16(3)
        return number

    def on_lead(self, card) -> None:
        # the led card's number, kept for the colour (the engine's array may be the strategy's,
        # which it may write into at the next decision): announce then needs no gather
        self._led = (card.astype(np.int16), self.trick_no)

    def announce(self):
        """The leader names the colour every card of the trick counts in."""
        self.colour = (yield Decision(COLOUR, self.leader, _either_colour(self.n))).astype(np.int8)
        sign, offset = _coding(self.colour, self.cards)
        led, self._led = getattr(self, "_led", None), None
        if led is None or led[1] != self.trick_no:  # a copy of the state made after the lead
            self.best = value(self.trick.take(cells(self.n, self.p)(self.leader)), self.colour, self.cards)
        else:
            best = led[0]  # the led card's own copy: its number in the colour, in place
            best *= sign
            best += offset
            self.best = best
        self._coding = (self.colour, sign, offset)
        self.step += 1


class BlackWhiteView(View, state=Round):
    """What a seat knows (see :class:`Round`), and what it infers."""

    def __init__(self, game, state, *args, **kwargs):
        super().__init__(game, state, *args, **kwargs)
        self._cards = state.cards  # a rule of the whole run (a number), not deal state

    @property
    def cards(self) -> int:
        """Cards in the deck (the ``deck`` rule, 36 on the sheet): card ``c`` shows black
        ``c + 1`` and white ``cards - c`` (one number)."""
        return self._cards

    in_play = Field(lambda s, rows, seat: np.full(len(seat), bits.full(s.cards)) if s.p * s.hand_size < s.cards
                    else _rows(s.dealt, rows),
                    "Cards that may be in a hand: the whole deck, ``(m,)`` sets; where some cards are "
                    "left undealt (2p on the sheet: 14), they are unseen, so any card may be in a hand.")

    @cached_property
    def unseen(self) -> np.ndarray:
        """Cards the seat has not seen: other hands, and in 2p the unused cards, ``(m,)``."""
        return self.in_play & ~self.hand & ~self.played

    tricks_left = Field(lambda s, rows, seat: s.hand_size - s.trick_no,
                        "Tricks still to be played, the current one included (one number).")
    history = HISTORY
    leaders = LEADERS
    winners = WINNERS
    colours = Field(lambda s, rows, seat: _colours(s, rows),
                    "Colour announced in each trick (0 black, 1 white), -1 not yet, ``(m, T)`` int8.")

    @cached_property
    def winners_now(self) -> np.ndarray:
        """Legal cards that would take the lead of the trick as it stands, ``(m,)`` sets (at a
        lead, every legal card; at a decision that plays no card, none)."""
        if self.kind != FOLLOW:
            return self.legal.copy() if self.kind == LEAD else np.zeros(len(self), np.uint64)
        best, cards_ = self.best.astype(np.int64), self.cards
        black = bits.full(cards_) & ~bits.below(bits.clamp(best, 0, cards_))  # black c + 1 above best
        white = bits.below(bits.clamp(cards_ - best, 0, cards_))  # white cards - c above best
        return self.legal & np.where(self.colour == BLACK, black, white)

    @cached_property
    def hand_sizes(self) -> np.ndarray:
        """Cards each seat still holds, ``(m, p)``."""
        return (self.hand_size - (self.history >= 0).sum(axis=1)).astype(np.int64)

    @cached_property
    def strength(self) -> np.ndarray:
        black, white = values(self.cards)
        if self.kind == FOLLOW:
            return np.where(self.colour[:, None] == BLACK, black, white)
        if self.kind == COLOUR:
            led = self.trick[np.arange(len(self)), self.seat]
            out = np.zeros((len(self), MAX_CARDS), np.int16)
            out[:, BLACK], out[:, WHITE] = black[led], white[led]
            return out
        # a lead is as strong as the better of its two numbers
        return np.broadcast_to(np.maximum(black, white), (len(self), MAX_CARDS))


def _colours(s: Round, rows) -> np.ndarray:
    out = s.past_colour.copy() if rows is None else s.past_colour[rows]
    if s.trick_no < s.hand_size:
        out[:, s.trick_no] = s.colour if rows is None else s.colour[rows]
    return out


class BlackWhite(Game):
    id = "black-white"
    title = "Trick Taking in Black & White"
    sheet = "seeds/002_fd6b5c2d997ddaf2.txt"
    players = (2, 3, 4)
    default_players = 3
    n_actions = MAX_CARDS
    default_strategy = "balance"
    decisions = (LEAD, COLOUR, FOLLOW)
    columns = {"black": np.int8, "white": np.int8}
    analysis = "simtool.analysis.black_white"
    View = BlackWhiteView
    options = (
        number("deck", CARDS, 2, MAX_CARDS,
               "cards in the deck (even): card k shows black k and white deck + 1 - k", step=2),
        number("hand_size", "sheet", 1, MAX_CARDS // 2,
               "cards dealt to each player; sheet: 11 with 2 players (the rest unused), else the "
               "whole deck dealt out evenly", sheet="11 at 2p, else deck // p"),
    )

    def played(self, rules: dict, p: int) -> dict:
        return {**rules, "hand_size": hand_size(rules, p)}

    def check_rules(self, rules: dict, p: int) -> None:
        deck_size, hand = rules["deck"], hand_size(rules, p)
        given = "the sheet's hand" if rules["hand_size"] == "sheet" else "hand_size"
        if hand < 1:
            raise SimtoolError(f"black-white: a deck of {deck_size} cards deals {p} players no card "
                               f"each; give a deck of {p + p % 2} cards or more")
        if p * hand > deck_size:
            bigger = p * hand + p * hand % 2  # decks are even
            advice = [f"hand_size {deck_size // p} or less"] if deck_size >= p else []
            advice += [f"a deck of {bigger} or more"] if bigger <= MAX_CARDS else []
            raise SimtoolError(f"black-white: {p} hands of {hand} cards ({given}) need {p * hand} cards, "
                               f"more than the deck of {deck_size}; give " + ", or ".join(advice))

    def deal(self, rng, match: Match, rnd: int) -> Round:
        n, p = match.n, match.p
        deck_size = match.rules.get("deck", CARDS)
        hand = hand_size(match.rules, p)
        hands = deck.dealt_hands(rng, n, deck_size, p, hand)
        black, white = _tallies(n, p)
        return Round(
            cards=deck_size,
            p=p,
            rnd=rnd,
            hand_size=hand,
            dealt=across_seats(np.bitwise_or, hands),
            hands=hands,
            totals=match.totals.copy(),
            leader=np.full(n, rnd % p, np.int64),  # leader of round r is seat r mod p
            played=np.zeros(n, np.uint64),
            trick=np.full((n, p), -1, np.int8),
            colour=np.full(n, -1, np.int8),
            best=np.zeros(n, np.int16),
            winning=np.zeros(n, np.int64),
            black=black,
            white=white,
        )

    def play(self, s: Round):
        """The round from the state's position (``trick_no``, ``step``) to its end."""
        cell = cells(s.n, s.p)
        piles = []  # unwatched: each trick's pile (winner * 2 + colour), tallied once at the end
        while s.trick_no < s.hand_size:
            if s.step == 0 and not s.books:
                yield from play_unwatched_trick(s, cell, s.leader)
            else:
                yield from play_trick(s, cell, s.leader)
            if s.books:
                _tally(s, cell(s.winning))
                record_trick(s, s.leader)
                s.past_colour[:, s.trick_no] = s.colour
                s.trick[:] = -1
            else:
                piles.append(_pile(s.winning, s.colour))
            s.leader = s.winning
            s.colour[:] = -1
            s._coding = None  # the next trick's colour brings its own
            s.best[:] = 0
            s.trick_no += 1
            s.step = 0
        if piles:
            _tally_piles(s, np.stack(piles))
        return score(s.black, s.white)

    def hidden_cards(self, view: BlackWhiteView) -> Hidden:
        """Every card the seat has not seen goes to the other hands (in 2p, to the other hand or
        the unused cards), each seat keeping its hand size."""
        return Hidden(view.unseen, view.hand_sizes, view.cards)

    def restore(self, view: BlackWhiteView, state: dict, k: int, rng) -> None:
        restore_history(view, state, k)
        colours = np.repeat(view.colours, k, axis=0)
        if view.trick_no < view.hand_size:
            colours[:, view.trick_no] = -1
        state.update(past_colour=colours, cards=view.cards,
                     dealt=np.bitwise_or.reduce(state["hands"], axis=1) | state["played"])


    def most_tricks(self, rules: dict, p: int) -> int:
        return hand_size(rules, p)

    def match_over(self, match: Match, rnd: int) -> np.ndarray:
        """After p rounds, and then after every tie-break round, unless the lead is shared."""
        if rnd + 1 < match.p:
            return np.zeros(match.n, bool)
        top = match.totals.max(axis=1, keepdims=True)
        return (match.totals == top).sum(axis=1) == 1

    def invariants(self, s: Round) -> dict[str, np.ndarray]:
        held = bits.count(s.hands).sum(axis=1, dtype=np.int64)
        on_table = bits.count(s.played).astype(np.int64)
        won = (s.black + s.white).sum(axis=1)
        in_trick = (s.trick >= 0).sum(axis=1)
        return {
            "every dealt card is held or played, once": (np.bitwise_or.reduce(s.hands, axis=1) | s.played == s.dealt)
            & (held + on_table == s.p * s.hand_size),
            "the deal gives every seat a full hand": bits.count(s.dealt) == s.p * s.hand_size,
            "tricks won add up to the tricks completed": (on_table - in_trick) == won * s.p,
        }

    def label(self, kind: str, option: int) -> str:
        return self.label_at(None, kind, option)

    def label_at(self, state: Round | None, kind: str, option: int) -> str:
        if kind == COLOUR:
            return COLOURS[option] if option in (BLACK, WHITE) else f"{option} (no colour)"
        deck_size = CARDS if state is None else state.cards
        if option >= deck_size:  # a strategy's illegal answer, named in its error
            return f"{option} (no card of the {deck_size}-card deck)"
        return f"card {option + 1} (black {option + 1} / white {deck_size - option})"

    def describe(self, s: Round, row: int) -> list[str]:
        return [f"  seat {seat} holds "
                + " ".join(map(str, np.flatnonzero(bits.to_mask(s.hands[row, seat], s.cards)) + 1))
                for seat in range(s.p)]


def _tallies(n: int, p: int) -> tuple[np.ndarray, np.ndarray]:
    """A fresh round's ``black`` and ``white`` ``(n, p)`` int8: the two halves of one ``(2, n,
    p)`` array, so that a trick's pile is added to its winner's colour in one step
    (:func:`_tally`)."""
    both = np.zeros((2, n, p), np.int8)
    return both[0], both[1]


def _tally(s: Round, won: np.ndarray) -> None:
    """Add the finished trick to the pile of its colour of the winning seats (flat cells
    ``won``): one gather and one scatter into the array ``black`` and ``white`` are halves of,
    where a gather and a scatter into each took twice that. A copy of the state holds them as
    two arrays: one addition each, as before."""
    both = s.black.base
    if both is None or both is not s.white.base or both.shape != (2, s.n, s.p):
        add(s.black, won, (s.colour == BLACK))
        add(s.white, won, (s.colour == WHITE))
        return
    at = s.colour.astype(np.int64)  # 0 black, 1 white: the half of the trick's colour
    at *= s.n * s.p
    at += won
    flat = both.reshape(-1)
    flat[at] += np.int8(1)


def _pile(winner: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Where a finished trick goes, ``winner * 2 + colour`` int8 ``(n,)``: an index into the
    ``2 * p`` piles (each seat's black, then its white)."""
    pile = winner.astype(np.int8)
    pile <<= np.int8(1)
    pile += colour
    return pile


def _tally_piles(s: Round, piles: np.ndarray) -> None:
    """Add the tricks ``piles`` ``(T, n)`` (see :func:`_pile`) to ``black`` and ``white``, at
    the end of a round nobody watched: for each of the ``2 * p`` piles a comparison and a sum
    down the tricks, in int8, where :func:`_tally` after each trick took a gather and a scatter
    (five times the work for 12 tricks)."""
    for seat in range(s.p):
        for colour, tallies in ((BLACK, s.black), (WHITE, s.white)):
            tallies[:, seat] += (piles == seat * 2 + colour).sum(axis=0, dtype=np.int8)


def score(black: np.ndarray, white: np.ndarray) -> dict[str, np.ndarray]:
    """Round results from the black and white tricks each seat won, ``(n, p)`` each.

    3-4p: a balanced seat scores +tricks (0 for 0-0), any other -tricks.
    2p: the seat closer to balance wins the round (score 1); equally close, nobody does.
    """
    tricks = (black + white).astype(np.int16)
    if black.shape[1] == 2:
        off = np.abs(black.astype(np.int16) - white)
        points = (off < off[:, ::-1]).astype(np.int16)
    else:
        # +tricks where balanced, else -tricks, as tricks times 1 or -1: np.where branches on a
        # condition that varies from deal to deal (six times as long)
        points = (black == white).view(np.int8).astype(np.int16)
        points <<= np.int16(1)
        points -= np.int16(1)
        points *= tricks
    return {"score": points, "tricks": tricks.astype(np.int8), "black": black, "white": white}


GAME = BlackWhite()
