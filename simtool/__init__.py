"""simtool: Monte Carlo balance analysis for trick-taking card games.

>>> import simtool
>>> result = simtool.run("black-white", n=10_000, players=3, strategy="balance", seed=1)
>>> result.seats        # one row per deal and seat (polars)
>>> result.summary()    # per seat, with 95% intervals
"""

from .api import Result, run
from .errors import SimtoolError

__all__ = ["run", "Result", "SimtoolError"]
