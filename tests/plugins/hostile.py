"""Plugins that misbehave in ways a bug (or malice) can: hang, exit, kill their process."""

import os
import time

from simtool import bits


class Boom(BaseException):
    """Not an Exception: slips past ``except Exception``."""


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")


def sleeps(view, rng):
    """Waits for ever in a blocking call."""
    time.sleep(3600)


def spins_late(view, rng):
    """Plays through the first chunk (32768 deals), then spins for ever in Python."""
    if view._state.n < 32768:  # the run's second, shorter chunk (a test may peek)
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
