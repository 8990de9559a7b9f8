"""A plugin that tries to be the clairvoyant reference player (tests/test_clairvoyant.py): it must
get re-dealt worlds, never the true deal (seer_copy.py copies the built-in's Strategy object)."""

import strategies


def clairvoyant(view, rng):
    """Calls itself clairvoyant, asks to see, and runs the built-in clairvoyant's own search."""
    view.sees = True  # nothing a strategy sets on its view counts
    return strategies.resolve("clairvoyant", view.game)(view, rng)
