"""simtool: Monte Carlo balance analysis for trick-taking card games.

>>> import simtool
>>> result = simtool.run("black-white", n=10_000, players=3, strategy="balance", seed=1)
>>> result.seats        # one row per deal and seat (polars)
>>> result.summary()    # per seat, with 95% intervals
"""

from .errors import SimtoolError

__all__ = ["run", "Result", "SimtoolError"]


def __getattr__(name: str):
    # the API on first use: the command line imports simtool.cli without it, and can defer
    # polars (see simtool.lazy)
    if name in ("run", "Result"):
        from simtool.commands import run as api

        return getattr(api, name)
    raise AttributeError(f"module 'simtool' has no attribute {name!r}")
