"""What the trick-taking games share: the lead, the follows, who is winning the trick, and the
trick history every seat remembers.

Round states using these are :class:`TrickRound` dataclasses with ``p``, ``hands`` ``(n, p)``,
``played`` ``(n,)``, ``trick`` ``(n, p)``, ``best`` and ``winning`` ``(n,)``, ``step`` (the
position in the trick) and ``trick_no``.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Generator
from typing import ClassVar

import numpy as np

from .. import bits
from ..engine import Decision, Field, RoundState, put

LEAD = "lead"
"""Decision kind: the leader puts the first card of a trick."""
FOLLOW = "play"
"""Decision kind: a follower puts a card into the trick."""


class TrickRound(RoundState, abc.ABC):
    """The rules a game gives the shared trick loop (:func:`play_trick`), as round-state methods.

    ``step`` counts the decisions of the trick under way: 0 the lead, then the leader's
    ``announcements`` (Black & White's colour), then the followers clockwise. A game with
    announcements also gives ``announce()``: a generator of the leader's decisions after the
    lead that sets ``best`` and moves ``step`` past them.
    """

    announcements: ClassVar[int] = 0
    books_unwatched: ClassVar[bool] = True
    """Whether the trick loop keeps ``played``, ``trick`` and the history (:func:`record_trick`)
    in a round nobody watches (:attr:`simtool.engine.RoundState.watched`). A game whose rules
    read none of them (only its views, invariants and descriptions do) sets it ``False``: under
    ``random`` at every seat, Black & White then plays a chunk 13% faster, Nine Lives 8%."""

    @property
    def books(self) -> bool:
        """Whether this round keeps ``played``, ``trick`` and the trick history."""
        return self.watched or self.books_unwatched

    def hand(self, at: np.ndarray) -> np.ndarray:
        return self.hands.take(at)  # the method: np.take adds a Python wrapper to every decision

    def lead_set(self, hand: np.ndarray) -> np.ndarray:
        """The cards of ``hand`` the leader may lead (default: any)."""
        return hand

    def follow_set(self, hand: np.ndarray) -> np.ndarray:
        """The cards of ``hand`` a follower may play (default: any)."""
        return hand

    def on_lead(self, card: np.ndarray) -> None:
        """Note what the lead sets for the trick (the led suit...)."""

    def on_follow(self, card: np.ndarray) -> None:
        """Note what a followed card changes for the next followers."""

    @abc.abstractmethod
    def key(self, card: np.ndarray, at: np.ndarray) -> np.ndarray:
        """How strongly ``card`` from the seat at flat cell ``at`` bids for the trick; the highest
        key wins, the earliest card among equal keys."""


def play_trick(s: TrickRound, cell, leader: np.ndarray,
               active: np.ndarray | None = None) -> Generator[Decision, np.ndarray, None]:
    """One trick from the state's ``step``: ``leader`` leads, the leader announces (if the game
    has announcements), every other seat follows clockwise; ``s.winning`` ends on the winner.

    ``active``: the deals that play this trick (``None``: all); the others get choice -1 and
    change nothing.
    """
    rows = None if active is None else np.flatnonzero(active)
    gone = None  # unwatched: the cards played so far in this trick, left in their hands till its end
    if s.step == 0:
        at = cell(leader)
        hand = s.hand(at)
        lead = yield Decision(LEAD, leader, s.lead_set(hand), active=active)
        gone = _put(s, at, lead, rows, hand, gone)
        s.on_lead(lead)
        if not s.announcements:  # else the announcement says what the lead counts for
            s.best = s.key(lead, at)
        s.winning = leader.copy()
        s.step = 1
    first = 1 + s.announcements  # the step of the first follower
    if s.step < first:
        yield from s.announce()
    while s.step < first + s.p - 1:
        seat = _seat_after(leader, s.step - first + 1, s.p)
        at = cell(seat)
        hand = s.hand(at)
        card = yield Decision(FOLLOW, seat, s.follow_set(hand), active=active)
        gone = _put(s, at, card, rows, hand, gone)
        s.on_follow(card)
        contest(s, seat, s.key(card, at))
        s.step += 1
    if gone is not None:
        _take_out(s.hands, gone)


def play_unwatched_trick(s: TrickRound, cell, leader: np.ndarray) -> Generator[Decision, np.ndarray, None]:
    """:func:`play_trick` from a trick's start, for a trick every deal plays in a round nobody
    watches (not :attr:`TrickRound.books`), in a game whose rules read neither ``best`` nor
    ``winning`` while the trick is under way and whose round state gives ``ranked(card, at)``:
    :meth:`TrickRound.key` times 8, int16. The same decisions and the same winner, found in one
    int16 maximum a card: each card counts for its ranked key plus 7 less its place in the trick,
    so that the highest is the strongest card and, among equals, the earliest, as
    :func:`contest` has it (where each card took five steps, three of them int64). ``winning``
    and ``best`` are set at the trick's end.

    A round state whose rule hooks are not those its ``ranked`` was written beside (a designer's
    subclass of a built-in game overriding ``follow_set`` to read ``best``, or setting a hook on
    the round itself) plays the trick through :func:`play_trick` instead (see
    :func:`_ranked_as_written`)."""
    if not _ranked_as_written(type(s)) or not _HOOKS.isdisjoint(getattr(s, "__dict__", ())):
        yield from play_trick(s, cell, leader)
        return
    p = s.p
    at = cell(leader)
    hand = s.hand(at)
    lead = yield Decision(LEAD, leader, s.lead_set(hand))
    gone = bits.bit_of(lead)
    s.on_lead(lead)
    s.step = 1
    if s.announcements:
        yield from s.announce()
    best = s.ranked(lead, at)
    best += np.int16(7)  # place 0
    first = 1 + s.announcements  # the step of the first follower
    for place in range(1, p):
        s.step = first + place - 1
        seat = _seat_after(leader, place, p)
        at = cell(seat)
        hand = s.hand(at)
        card = yield Decision(FOLLOW, seat, s.follow_set(hand))
        gone |= bits.bit_of(card)
        s.on_follow(card)
        key = s.ranked(card, at)
        key += np.int16(7 - place)
        np.maximum(best, key, out=best)
    _take_out(s.hands, gone)
    s.step = first + p - 1
    place = np.int16(7) - (best & np.int16(7))
    winner = (leader + place).view(np.uint64)
    np.minimum(winner, winner - np.uint64(p), out=winner)  # (leader + place) % p, as _seat_after
    s.winning = winner.view(np.int64)
    s.best = (best >> np.int16(3)).astype(s.best.dtype)


_HOOKS = frozenset(("hand", "lead_set", "follow_set", "on_lead", "on_follow", "announce", "key"))
"""The rules :func:`play_unwatched_trick` calls or stands for (``key``, by ``ranked``)."""


@functools.cache
def _ranked_as_written(cls: type) -> bool:
    """Whether every rule hook of ``cls`` is the one of the class that defines its ``ranked`` (or
    above it): :func:`play_unwatched_trick` leaves ``best`` and ``winning`` as they were at the
    lead until the trick's end, which the built-in games' hooks never read, but a subclass's
    ``follow_set`` may, and a ``key`` of its own would not be ``ranked``'s."""
    owner = next((c for c in cls.__mro__ if "ranked" in vars(c)), None)
    return owner is not None and all(getattr(cls, hook, None) is getattr(owner, hook, None) for hook in _HOOKS)


def _seat_after(leader: np.ndarray, i: int, p: int) -> np.ndarray:
    """The seat ``i`` places after ``leader`` (``0 < i < p``), ``(leader + i) % p`` as int64,
    without a division (several times slower on int64) or a look-up's gather: as unsigned
    numbers, ``leader + i - p`` wraps round to a huge value exactly where ``leader + i < p``,
    so the smaller of it and ``leader + i`` is the seat."""
    if leader.dtype == np.int64:  # the usual: a new array in one pass, without a cast's copy
        seat = np.add(leader.view(np.uint64), np.uint64(i))
    else:
        seat = leader.astype(np.uint64)
        seat += np.uint64(i)
    np.minimum(seat, seat - np.uint64(p), out=seat)
    return seat.view(np.int64)


def _take_out(hands: np.ndarray, gone: np.ndarray) -> None:
    """``hands &= ~gone[:, None]``, one seat's column at a time: numpy iterates the broadcast
    over rows of ``p`` cells, a buffered copy of ``gone`` per deal (five times the time)."""
    np.invert(gone, out=gone)
    for seat in range(hands.shape[1]):
        column = hands[:, seat]
        np.bitwise_and(column, gone, out=column)


def _put(s, at, card, rows, hand, gone: np.ndarray | None) -> np.ndarray | None:
    """Play ``card`` (see :func:`play_card`); returns the cards of the trick still to be taken
    from their hands (``gone``, with this one where it joins them).

    In a round nobody watches (not :attr:`TrickRound.books`) where every deal plays, nothing
    reads a hand between two decisions but the game itself, which reads each seat's hand once a
    trick, before that seat plays: the trick's cards then leave their hands together at its end
    (:func:`_take_out`, one AND a seat), where each card's removal was a scatter."""
    if rows is not None:
        play_card(s, at[rows], card[rows], hand[rows], rows)
    elif s.books:
        play_card(s, at, card, hand)
    elif gone is None:
        return bits.bit_of(card)
    else:
        gone |= bits.bit_of(card)
    return gone


def play_card(s, at: np.ndarray, card: np.ndarray, hand: np.ndarray, rows: np.ndarray | None = None) -> None:
    """The seats at flat cells ``at``, holding ``hand`` (as read for the decision just made: not
    read twice), put ``card`` from it into the trick.

    ``rows``: the deals concerned, when not every deal of the batch plays.
    """
    card_bit = bits.bit_of(card)
    left = ~card_bit
    left &= hand
    put(s.hands, at, left)
    if not s.books:
        return
    if rows is None:
        s.played |= card_bit
    else:
        s.played[rows] |= card_bit
    put(s.trick, at, card)


def contest(s, seat: np.ndarray, strength: np.ndarray) -> None:
    """A card of ``strength`` from ``seat`` takes the lead of the trick where it is stronger."""
    beats = strength > s.best
    s.best = np.maximum(strength, s.best)  # the same as where(beats, ...), and ten times faster
    s.winning = s.winning + (seat - s.winning) * beats  # where(beats, seat, ...) as a product: ~6x faster


def init_history(s, tricks: int) -> None:
    """Give a fresh round state its empty trick history (for ``tricks`` tricks at most)."""
    if s.past is None:
        s.past = np.full((s.n, tricks, s.p), -1, np.int8)
        s.past_leader = np.full((s.n, tricks), -1, np.int8)
        s.past_winner = np.full((s.n, tricks), -1, np.int8)


def record_trick(s, leader: np.ndarray, rows=None) -> None:
    """File the finished trick ``s.trick_no`` (its cards, ``leader`` and winner) in the history.

    ``rows``: the deals in which a trick was played, when not all of them.
    """
    t = s.trick_no
    if rows is None:
        _file(s.past, t, s.trick)
        s.past_leader[:, t] = leader
        s.past_winner[:, t] = s.winning
    else:
        s.past[rows, t] = s.trick[rows]
        s.past_leader[rows, t] = leader[rows]
        s.past_winner[rows, t] = s.winning[rows]


def _file(past: np.ndarray, t: int, trick: np.ndarray) -> None:
    """``past[:, t] = trick``, each deal's cards copied as one item of ``p`` bytes where both
    layouts allow (half the time of ``n * p`` one-byte cells, which numpy copies one by one)."""
    if trick.shape[-1] and past.dtype == trick.dtype and past.strides[-1] == trick.strides[-1] == past.itemsize:
        whole = np.dtype((np.void, trick.shape[-1] * trick.itemsize))
        past.view(whole)[:, t, 0] = trick.view(whole)[:, 0]
    else:
        past[:, t] = trick


def _history(s, rows, seat):
    past = s.past.copy() if rows is None else s.past[rows]
    if s.trick_no < past.shape[1]:  # the trick under way, as far as it has gone (if not yet filed)
        trick = s.trick if rows is None else s.trick[rows]
        past[:, s.trick_no] = np.where(trick >= 0, trick, past[:, s.trick_no])
    return past


def leaders_field(attr: str = "leader") -> Field:
    """The leaders of the round's tricks, the current leader (state field ``attr``) included."""

    def read(s, rows, seat):
        past = s.past_leader.copy() if rows is None else s.past_leader[rows]
        if s.trick_no < past.shape[1]:
            leader = getattr(s, attr)
            leader = leader if rows is None else leader[rows]
            past[:, s.trick_no] = np.where(past[:, s.trick_no] >= 0, past[:, s.trick_no], leader)
        return past

    return Field(read, "Seat that led each trick, -1 for tricks not yet led, ``(m, T)`` int8.")


def shown_void(history: np.ndarray, leaders: np.ndarray, led_suit, followed) -> np.ndarray:
    """Suits each seat has shown void in, from the trick history, ``(m, p)`` bit sets of suits.

    ``led_suit(card) -> suit`` of a lead (-1: a lead no void can be shown in, such as a trump);
    ``followed(card, suit) -> bool``: the card follows that suit.
    """
    m, tricks, p = history.shape
    led = np.take_along_axis(history, np.maximum(leaders, 0)[:, :, None].astype(np.int64), axis=2)[:, :, 0]
    suit = np.where((leaders >= 0) & (led >= 0), led_suit(np.maximum(led, 0)), -1)  # (m, T)
    card = history.astype(np.int64)
    off = (card >= 0) & (suit[:, :, None] >= 0) & ~followed(np.maximum(card, 0), suit[:, :, None])
    flags = np.where(off, np.left_shift(1, np.maximum(suit, 0))[:, :, None], 0)
    return np.bitwise_or.reduce(flags, axis=1).astype(np.int64)


HISTORY = Field(_history, "Card each seat played in every trick of the round, -1 not (yet) played, "
                "``(m, T, p)`` int8 (``T`` tricks; trick ``trick_no`` is the one under way).")
LEADERS = leaders_field()
WINNERS = Field(lambda s, rows, seat: s.past_winner.copy() if rows is None else s.past_winner[rows],
                "Seat that won each finished trick, -1 for tricks not finished, ``(m, T)`` int8.")


def restore_history(view, state: dict, k: int) -> None:
    """A re-deal's trick history (``past``, ``past_leader``, ``past_winner``) from the view's
    (``history``, ``leaders``, ``winners``), each deal ``k`` times: the trick under way is not
    filed yet (the view shows it in its ``trick``)."""
    past, past_leader = np.repeat(view.history, k, axis=0), np.repeat(view.leaders, k, axis=0)
    if view.trick_no < past.shape[1]:
        past[:, view.trick_no] = -1
        past_leader[:, view.trick_no] = -1
    state.update(past=past, past_leader=past_leader, past_winner=np.repeat(view.winners, k, axis=0))
