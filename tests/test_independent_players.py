"""The built-in strategies against independent players: plugin strategies written by others
against the documented API (tests/indep_bots.py), which play what no built-in would (the model a
search reads the others by rules their plays out, passes and bids at the extremes). The built-ins
must finish every deal legally (the engine stops a run on an illegal option), with every deal's
win shared out exactly once, and the heuristics must beat a uniformly random plugin."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simtool

BOTS = Path(__file__).parent / "indep_bots.py"
OTHERS = ("contrarian", "extremes", "donor", "rand", "contrarian")

BUILT_INS = {
    "black-white": ("balance", "duck"),
    "kansas-city": ("target", "greedy"),
    "trickster": ("safe", "spoiler"),
    "out-trumped": ("hoarder", "tricks", "ruffer", "ismcts@samples=2"),
    "nine-lives": ("exact", "team"),
    "hearts": ("ducker", "hunter"),
}
SEARCHES = ("pimc@samples=2", "clairvoyant", "random", "high", "low")
VARIANTS = {
    "black-white": {"deck": "20", "hand_size": "5"},
    "kansas-city": {"pass_count": "1", "hands": "p"},
    "trickster": {"ranks": "8", "pip_limit": "40"},
    "out-trumped": {"kitty": "bid", "follow": "literal"},
    "nine-lives": {"ranks": "5"},
    "hearts": {"passing": "right", "moon": "subtract", "queen": "7"},
}


@pytest.fixture(scope="module")
def bots(tmp_path_factory) -> Path:
    """The bots in a folder of their own: a run records every file beside a plugin (docs/plugins.md),
    and beside it in tests/ that was some 200 files listed and looked up for each of 56 runs."""
    path = tmp_path_factory.mktemp("bots") / BOTS.name
    shutil.copyfile(BOTS, path)
    return path


def _play(bots: Path, game: str, built_in: str, players: int, n: int, rules=None, others=OTHERS, seed=5):
    seats = {0: built_in} | {i: f"{bots}:{others[(i - 1) % len(others)]}" for i in range(1, players)}
    return simtool.run(game, n, players=players, seats=seats, rules=rules, rotate=True, seed=seed,
                       jobs=1).seats


def _shared_once(seats: pl.DataFrame) -> bool:
    per_deal = seats.group_by("deal").agg(pl.col("win").sum())["win"].to_numpy()
    return bool(np.allclose(per_deal, 1.0))


@pytest.mark.parametrize("game,built_in", [(g, b) for g, own in BUILT_INS.items() for b in own + SEARCHES])
def test_a_built_in_finishes_every_deal_against_independent_players(bots, game, built_in):
    rules = VARIANTS[game] if built_in.startswith(("pimc", "clairvoyant")) else None
    # the engine stops the run at an illegal option, so 12 deals, each of the rotation's 3 or 4
    # places 3 or 4 times over, check what 24 did at half the CPU of the searches' deals
    seats = _play(bots, game, built_in, 4 if game != "black-white" else 3, 12, rules)
    assert seats["deal"].n_unique() == 12
    assert _shared_once(seats)
    assert seats["strategy"].cast(pl.Utf8).str.starts_with(built_in.split("@")[0]).sum() == 12


@pytest.mark.parametrize("game", ["out-trumped", "nine-lives"])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_search_reads_others_its_model_rules_out(bots, game, players):
    """pimc's `infer` (on by default here) reads the others as the game's heuristic; the
    contrarian never plays the heuristic's choice, so no re-dealt world fits: the belief must
    still give worlds (no error, no endless re-deal), and the search still outscores them."""
    seats = _play(bots, game, "pimc@samples=4,infer=6", players, 24, others=("contrarian",))
    assert _shared_once(seats)
    mean = seats.group_by(pl.col("strategy").cast(pl.Utf8)).agg(pl.col("score").mean())
    by = dict(zip(mean["strategy"], mean["score"], strict=True))
    assert by["pimc@samples=4,infer=6"] > by[f"{BOTS.name}:contrarian"]


@pytest.mark.parametrize("game", sorted(BUILT_INS))
def test_a_game_default_heuristic_beats_a_uniformly_random_plugin(bots, game):
    """Measured at n=2000 for every player count and two variants (all well above the fair
    share); here the default count, 600 deals, the share's 95% interval above the fair share."""
    heuristic = BUILT_INS[game][0]
    players = 4 if game != "black-white" else 3
    seats = _play(bots, game, heuristic, players, 600, others=("rand",))
    wins = seats.filter(pl.col("strategy").cast(pl.Utf8) == heuristic)["win"].to_numpy()
    assert wins.mean() - 1.96 * wins.std() / np.sqrt(len(wins)) > 1 / players
