"""A plugin strategy file as a user would write it."""

import numpy as np

from simtool import bits
from strategies import strategy


def lowest_card(view, rng):
    """Plays its lowest-numbered legal option."""
    return bits.lowest(view.legal)


@strategy("first-or-random", "lowest option on leads, random otherwise")
def first_or_random(view, rng):
    if view.kind == "lead":
        return bits.lowest(view.legal)
    return bits.uniform(view.legal, rng, view.n_actions)


def crashes(view, rng):
    """Raises once the third trick is under way."""
    if view.kind == "play" and view.tricks_left < 10:
        raise ValueError("my bug")
    return bits.lowest(view.legal)


def cheats(view, rng):
    """Plays a card it does not hold."""
    return bits.lowest(~view.legal & bits.full(view.n_actions))


def wrong_shape(view, rng):
    return np.zeros(3)


not_a_function = 42


def cheats_later(view, rng):
    """Plays legally through the first chunk (32768 deals), then plays a card it does not hold."""
    # in the first trick seat 2 follows in every deal: its view then spans the whole chunk
    if view.kind == "play" and view.tricks_left == 12 and len(view) < 32768:
        return bits.lowest(~view.legal & bits.full(view.n_actions))
    return bits.lowest(view.legal)
