"""Independent players for tests/test_independent_players.py: plugin strategies written only
against the documented plugin API (docs/plugins.md), as someone outside the project would, so
that the built-ins are tested against seats that are not built-ins and break their models."""

from __future__ import annotations

import numpy as np

from simtool import bits
from strategies import resolve, strategy

MODEL = {"nine-lives": "exact", "out-trumped": "hoarder", "hearts": "ducker",
         "kansas-city": "target", "trickster": "safe", "black-white": "balance"}
"""Each game's default heuristic: the model pimc's `infer` reads the other seats by."""


def _game(view) -> str:
    # a plugin is not told the game; the rule fields docs/plugins.md names tell it
    for field, game in (("lives_to_end", "nine-lives"), ("kitty_size", "out-trumped"),
                        ("pip_limit", "trickster"), ("four_bonus", "kansas-city"),
                        ("colour", "black-white")):
        if hasattr(view, field):
            return game
    return "hearts"


def _uniform(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


def _highest(view) -> np.ndarray:
    return view.mask.shape[1] - 1 - view.mask[:, ::-1].argmax(axis=1)


@strategy("rand", "uniform over the legal options, from a Generator of its own")
def rand(view, rng):
    return _uniform(view.mask, np.random.default_rng(int(rng.integers(2**63))))


@strategy("contrarian", "never the game's default heuristic's choice where anything else is legal")
def contrarian(view, rng):
    game = _game(view)
    theirs = np.asarray(resolve(MODEL[game], game)(view, rng))
    others = view.mask.copy()
    others[np.arange(len(theirs)), theirs] = False
    return _uniform(np.where(others.any(axis=1)[:, None], others, view.mask), rng)


@strategy("extremes", "bids the most, passes, discards and picks its highest, leads high, follows low")
def extremes(view, rng):
    if view.kind in ("bid", "pass", "discard", "trump", "upgrade", "lead"):
        return _highest(view)
    if view.kind == "colour":
        return np.where(view.mask[:, 1], 1, bits.lowest(view.legal)).astype(np.int64)
    return np.asarray(bits.lowest(view.legal), dtype=np.int64)


@strategy("donor", "never takes a trick it can lose: its highest losing card, else its lowest")
def donor(view, rng):
    low = np.asarray(bits.lowest(view.legal), dtype=np.int64)
    winners = getattr(view, "winners_now", None)
    if view.kind in ("pass", "discard"):
        return _highest(view)
    if winners is None or view.kind != "play":
        return low
    losing = view.legal & ~np.asarray(winners, dtype=np.uint64)
    return np.where(losing != 0, bits.highest(losing, view.mask.shape[1]), low).astype(np.int64)
