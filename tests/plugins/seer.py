"""Plugins that try to be the clairvoyant reference player (tests/test_clairvoyant.py): each must
get re-dealt worlds, never the true deal."""

import strategies
from strategies import Strategy


def clairvoyant(view, rng):
    """Calls itself clairvoyant, asks to see, and runs the built-in clairvoyant's own search."""
    view.sees = True  # nothing a strategy sets on its view counts
    return strategies.resolve("clairvoyant", view.game)(view, rng)


# a Strategy object of the built-in's very name and choice function: loaded as a plugin, it is
# labelled by its file and plays with re-dealt worlds
copied = Strategy("clairvoyant", strategies.BUILT_IN[-1].choose, "a copy", None, "built-in",
                  strategies.BUILT_IN[-1].params)
