"""Black & White heuristics, on card sets (see ``simtool.bits``).

Option ``c`` is the printed card ``c + 1``: black number ``c + 1``, white number
``view.cards - c`` (36 - c with the sheet's deck). So in a set of cards the strongest black
card is the highest member and the strongest white card the lowest one, and "beats black b"
is a range of members: every question these heuristics ask is a few whole-array operations.
"""

from __future__ import annotations

import numpy as np

from simtool import bits
from simtool.games.black_white import BLACK, COLOUR, WHITE
from simtool.games.tricks import LEAD

from .base import MISTAKES, forced, strategy, with_mistakes
from .restrictions import restriction

GAMES = ("black-white",)


def _highest(cards, deck):
    return bits.highest(cards, deck)


def _beating(cards, number, black, deck):
    """The cards of each set whose number in the announced colour is above ``number``."""
    # black c + 1 > number: the cards from ``number`` up; white deck - c > number: those below
    # ``deck - number`` (the sets hold cards of the deck only, so no bit above it is ever kept)
    cut = bits.below(bits.clamp(bits.where(black, number, deck - number), 0, deck))
    return cards & bits.where(black, ~cut, cut)


def _strongest(cards, black, deck):
    return bits.where(black, _highest(cards, deck), bits.lowest(cards))


def _weakest(cards, black, deck):
    return bits.where(black, bits.lowest(cards), _highest(cards, deck))


def _top_unseen(view, black):
    """The highest number still out of sight in the given colour (0 if none)."""
    top = bits.where(black, _highest(view.unseen, view.cards) + 1, view.cards - bits.lowest(view.unseen))
    return np.maximum(top, 0)


def _need(view) -> np.ndarray:
    """White tricks minus black tricks of the acting seat: > 0 wants black, < 0 wants white."""
    at = np.arange(len(view)) * view.players + view.seat  # flat cells: a take beats [rows, seat]
    return view.white.take(at).astype(np.int16) - view.black.take(at)


def _safest_lead(hand, deck):
    """The card whose weaker number is lowest: led in that colour it almost surely loses."""
    low_black, low_white = bits.lowest(hand), _highest(hand, deck)  # black low+1, white deck-high
    return bits.where(low_black + 1 <= deck - low_white, low_black, low_white)


def _weaker_colour(card, deck):
    return bits.where(card + 1 <= deck - card, BLACK, WHITE)


def _follow(view, want: np.ndarray) -> np.ndarray:
    """Win cheaply where ``want``, else shed safely, in the announced colour."""
    hand, best, deck = view.hand, view.best.astype(np.int64), view.cards
    black = view.colour == BLACK
    beats = _beating(hand, best, black, deck)
    # column by column: a sum along a short last axis is several times slower
    last = sum((view.trick[:, s] >= 0).view(np.int8) for s in range(view.players)) == view.players - 1
    bar = bits.where(last, best, np.maximum(best, _top_unseen(view, black)))
    sure = _beating(hand, bar, black, deck)
    high, low = _highest(hand, deck), bits.lowest(hand)  # the hand's ends, once for both questions
    strongest = bits.where(black, high, low)
    win = bits.where(sure != 0, _weakest(sure, black, deck),
                     bits.where(beats != 0, strongest, bits.where(black, low, high)))
    loses = hand & ~beats
    # the highest card that still loses is the one most likely to win an unwanted trick later
    lose = bits.where(loses != 0, _strongest(loses, black, deck), strongest)
    return bits.where(want, win, lose)


@strategy("balance", "steers to equal black and white tricks: leads the colour it needs, "
          "wins cheaply when it needs the colour, sheds safely otherwise", GAMES, (MISTAKES,))
def balance(view, rng, params):
    return with_mistakes(view, rng, params.mistakes, _balance(view))


def _balance(view):
    if (only := forced(view)) is not None:
        return only
    need = _need(view)
    if view.kind not in (LEAD, COLOUR):  # a follow, half the decisions: none of the leader's questions
        want = ((need > 0) & (view.colour == BLACK)) | ((need < 0) & (view.colour == WHITE))
        return _follow(view, want)
    hand, deck = view.hand, view.cards
    top_black, top_white = _highest(hand, deck), bits.lowest(hand)
    sure_white = (hand != 0) & (top_white < bits.lowest(view.unseen))
    if view.kind == LEAD:
        sure_black = top_black > _highest(view.unseen, deck)
        # balanced with a sure winner in each colour: take them as a pair
        pair = sure_black & sure_white & (top_black != top_white) & (view.tricks_left >= 2)
        quiet = bits.where(pair, top_black, _safest_lead(hand, deck))
        return bits.where(need > 0, top_black, bits.where(need < 0, top_white, quiet))
    led = view.trick[np.arange(len(view)), view.seat]  # the colour of the card it led
    pair = (led > _highest(view.unseen, deck)) & sure_white
    quiet = bits.where(pair, BLACK, _weaker_colour(led, deck))
    return bits.where(need > 0, BLACK, bits.where(need < 0, WHITE, quiet))


@strategy("duck", "avoids every trick (a 0-0 hand scores 0 rather than a minus): leads and "
          "follows with the card most likely to lose", GAMES)
def duck(view, rng):
    if view.kind == LEAD:
        return _safest_lead(view.hand, view.cards)
    if view.kind == COLOUR:
        return _weaker_colour(view.trick[np.arange(len(view)), view.seat], view.cards)
    return _follow(view, np.zeros(len(view), bool))


@restriction("higher-colour", "always announces the colour in which its led card is higher",
             "always announcing the lead's higher colour", (COLOUR,))
def higher_colour(view):
    led = view.trick[np.arange(len(view)), view.seat]
    # black c + 1, white cards - c
    return bits.where(led + 1 > view.cards - led, bits.BIT[BLACK], bits.BIT[WHITE])


@restriction("lower-colour", "always announces the colour in which its led card is lower",
             "always announcing the lead's lower colour", (COLOUR,))
def lower_colour(view):
    led = view.trick[np.arange(len(view)), view.seat]
    return bits.where(led + 1 > view.cards - led, bits.BIT[WHITE], bits.BIT[BLACK])


RESTRICTIONS = (higher_colour, lower_colour)
