"""Plugins that try to cheat through their view (the hostile test of the engine issue)."""

import numpy as np

from simtool import bits


def rewrites_piles(view, rng):
    """Reaches for the game state behind the view and empties the other seats' trick piles."""
    state = view._state
    state.black[:] = 0
    state.white[:] = 0
    return bits.uniform(view.legal, rng, view.n_actions)


def widens_legal(view, rng):
    """Makes every option legal in its own copy, then plays a card it does not hold."""
    view.legal[:] = bits.full(view.n_actions)
    return bits.lowest(~view.hand & bits.full(view.n_actions))


def scribbles(view, rng):
    """Plays as `random` does, after writing garbage into every array its view holds."""
    choice = bits.uniform(view.legal.copy(), rng, view.n_actions)
    for name in dir(view):
        value = getattr(view, name, None)
        if isinstance(value, np.ndarray) and value.flags.writeable:
            value[...] = np.zeros((), value.dtype) + 1
    return choice
