"""The strategy interface every built-in and plugin strategy follows.

A strategy is a function ``choose(view, rng) -> choices``. ``view`` holds, for
the ``m`` deals where this strategy's seat must decide, only what that seat may
know (see the game's View class), plus ``view.kind`` (which decision),
``view.legal`` (uint64 sets of legal options, see ``simtool.bits``) and
``view.mask`` (the same as a boolean ``(m, n_actions)`` table). It returns one
legal option number per deal, an integer array of shape ``(m,)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Strategy:
    name: str
    choose: Callable[..., np.ndarray]
    description: str
    games: tuple[str, ...] | None = None  # None: plays any game
    origin: str = "built-in"

    def __call__(self, view, rng: np.random.Generator) -> np.ndarray:
        return self.choose(view, rng)

    def plays(self, game_id: str) -> bool:
        return self.games is None or game_id in self.games


def strategy(name: str, description: str, games: tuple[str, ...] | None = None):
    """Decorator that turns ``choose(view, rng)`` into a named :class:`Strategy`."""

    def wrap(choose):
        return Strategy(name, choose, description, games)

    return wrap
