"""simtool: Monte Carlo balance analysis for trick-taking card games.

>>> import simtool
>>> result = simtool.run("black-white", n=10_000, players=3, strategy="balance", seed=1)
>>> result.seats        # one row per deal and seat (polars)
>>> result.summary()    # per seat, with 95% intervals
>>> simtool.ladder.climb("kansas-city", "runs/kc-ladder", n=20_000)   # the commands, from Python
>>> simtool.restrict.measure("kansas-city", "runs/kc-restrict", n=20_000)
>>> simtool.review.review("kansas-city", "reviews/kc")   # the answers of review.json, as a dict
>>> simtool.metrics("runs/hearts-leads")   # the published balance metrics, with 95% intervals
"""

from importlib import import_module

from .errors import SimtoolError

__all__ = ["run", "Result", "SimtoolError", "sweep", "ladder", "restrict", "tune", "review", "metrics"]

COMMANDS = ("sweep", "ladder", "restrict", "tune", "review")
"""The commands of the same names, as modules (``simtool.ladder.climb``...)."""


def __getattr__(name: str):
    # on first use: the command line imports simtool.cli without them, and can defer polars
    # (see simtool.lazy)
    if name in ("run", "Result"):
        return getattr(import_module("simtool.commands.run"), name)
    if name == "metrics":
        return import_module("simtool.analysis.metrics").metrics
    if name in COMMANDS:
        return import_module(f"simtool.commands.{name}")
    raise AttributeError(f"module 'simtool' has no attribute {name!r}")
