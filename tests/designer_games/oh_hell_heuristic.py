"""The heuristic of tests/designer_games/oh_hell.py, as its designer wrote it."""

import numpy as np

from simtool import bits
from strategies import Param, strategy

CARD = np.arange(52)
RANK, SUIT = CARD % 13, CARD // 13


@strategy("oh-hell-basic", "bids its aces, kings and high trumps; wins cheaply while short of its bid, "
          "else ducks with its highest losing card", ("oh-hell", "designer-oh-hell"),
          params=(Param("bold", int, 0, "tricks added to the bid", -2, 2),))
def basic(view, rng, params):
    m = len(view)
    rows = np.arange(m)
    trump = SUIT[None, :] == view.trump[:, None]
    held = bits.to_mask(view.hand, 52)
    if view.kind == "bid":
        strong = held & ((RANK[None, :] >= 11) | (trump & (RANK[None, :] >= 8)))
        want = np.clip(strong.sum(axis=1) + params.bold, 0, view.hand_size)
        legal = view.mask
        # the legal bid nearest to the wish
        gap = np.abs(np.arange(view.hand_size + 1)[None, :] - want[:, None])
        dist = np.where(legal[:, : view.hand_size + 1], gap, 99)
        return dist.argmin(axis=1)
    mine = view.tricks[rows, view.seat]
    bid = view.bids[rows, view.seat]
    short = mine < bid
    value = RANK[None, :] + 20 * trump
    mask = view.mask
    if view.kind == "lead":
        high = np.where(mask, value, -1).argmax(axis=1)
        low = np.where(mask, value, 999).argmin(axis=1)
        return np.where(short, high, low)
    key = (RANK[None, :] + 1) * (SUIT[None, :] == view.led_suit[:, None]) + (RANK[None, :] + 21) * trump
    beats = mask & (key > view.best[:, None])
    cheapest_win = np.where(beats, key, 999).argmin(axis=1)
    loses = mask & ~beats
    highest_loser = np.where(loses, value, -1).argmax(axis=1)
    lowest = np.where(mask, value, 999).argmin(axis=1)
    return np.where(short, np.where(beats.any(axis=1), cheapest_win, lowest),
                    np.where(loses.any(axis=1), highest_loser, lowest))
