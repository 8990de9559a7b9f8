"""Strategies that play any game."""

from __future__ import annotations

import numpy as np

from simtool import bits

from .base import strategy


@strategy("random", "uniform over the legal options, as each game's rules page enumerates them")
def random(view, rng):
    return bits.uniform(view.legal, rng, view.n_actions)


# its choice reads the legal sets only: the engine may ask it without a view (engine._on_legal).
# The owner is named beside it: functools.wraps copies a function's attributes onto a plugin's
# wrapper, which must still be asked itself.
random.choose.on_legal = (random.choose, bits.uniform)


@strategy("high", "always the highest legal option (the game's order: the strongest card)")
def high(view, rng):
    return np.where(view.mask, view.strength, np.int32(np.iinfo(np.int32).min)).argmax(axis=1)


@strategy("low", "always the lowest legal option (the game's order: the weakest card)")
def low(view, rng):
    return np.where(view.mask, view.strength, np.int32(np.iinfo(np.int32).max)).argmin(axis=1)
