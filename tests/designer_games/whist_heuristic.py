"""The heuristic of tests/designer_games/whist.py, as its designer wrote it."""

import numpy as np

from strategies import strategy


@strategy("whist-basic", "wins a trick cheaply when it can, else throws its lowest card", ("whist", "designer-whist"))
def basic(view, rng):
    rank = np.broadcast_to(np.arange(52) % 13, (len(view), 52))
    trump = (np.arange(52)[None, :] // 13) == view.trump[:, None]
    value = rank + 20 * trump
    mask = view.mask
    low = np.where(mask, value, 999).argmin(axis=1)
    if view.kind == "lead":
        return np.where(mask, value, -1).argmax(axis=1)
    # would win: beats the current best
    suit = np.arange(52)[None, :] // 13
    key = (rank + 1) * (suit == view.led_suit[:, None]) + (rank + 21) * trump
    beats = mask & (key > view.best[:, None])
    cheapest = np.where(beats, key, 999).argmin(axis=1)
    return np.where(beats.any(axis=1), cheapest, low)
