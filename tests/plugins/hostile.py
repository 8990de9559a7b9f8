"""Plugins that misbehave in ways a bug (or malice) can: cheat through their view, hang, exit,
kill their process, fork it, run out of memory, take a built-in's name, draw from the global
generators."""

import os
import random
import time

import numpy as np

from simtool import bits
from strategies import strategy


class Boom(BaseException):
    """Not an Exception: slips past ``except Exception``."""


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")


def sleeps(view, rng):
    """Waits for ever in a blocking call."""
    time.sleep(3600)


def spins_late(view, rng):
    """Plays through the first chunk (32768 deals), then spins for ever in Python: the second
    chunk of a 40000-deal run is the one whose first lead (seat 0 in every deal) has 7232 deals."""
    if len(view) == 40000 - 32768:
        while True:
            pass
    return bits.lowest(view.legal)


def shrugs_off_timeouts(view, rng):
    """Catches ``Exception`` around its endless loop, as careless code does."""
    try:
        time.sleep(3600)
    except Exception:
        pass
    return bits.lowest(view.legal)


def base_exception(view, rng):
    raise Boom("bang")


def unprintable(view, rng):
    raise Unprintable()


def exits_zero(view, rng):
    raise SystemExit(0)


def dies(view, rng):
    """Ends its process on the spot, as a crash in compiled code would."""
    os._exit(0)


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


FORKED = []


def forks(view, rng):
    """Forks its process once; the copy returns too, as careless code's would."""
    if not FORKED:
        FORKED.append(True)
        os.fork()
    return bits.lowest(view.legal)


def hungry(view, rng):
    """Plays through the first chunk of a 40000-deal run, then asks for more memory than exists."""
    if len(view) == 40000 - 32768:
        np.ones(1 << 62, np.uint8)
    return bits.lowest(view.legal)


@strategy("random", "calls itself random, and plays its lowest option")
def impostor(view, rng):
    return bits.lowest(view.legal)


def draws_globals(view, rng):
    """Draws from numpy's and Python's global generators, not from its rng."""
    low = np.random.random(len(view)) < 0.5
    if random.random() < 0.5:
        low = ~low
    return np.where(low, bits.lowest(view.legal), bits.highest(view.legal, view.n_actions))
