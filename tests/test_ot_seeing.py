"""bench/ot_seeing.py measures what seeing the true deal at chosen decisions would win Out-Trumped's
``pimc`` (docs/reference-player.md, "Out-Trumped: where seeing the cards would pay"): its window
"none" must be plain ``pimc`` deal for deal, or no window's paired change means anything."""

import importlib.util
import sys
from pathlib import Path

import numpy as np

import strategies
from simtool import engine, games
from simtool.pipeline.runner import make_spec

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _seeing():
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("ot_seeing", BENCH / "ot_seeing.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_no_window_plays_as_plain_pimc_and_seeing_changes_the_play():
    seeing, ot = _seeing(), games.get("out-trumped")
    # 4 deals seat the search once at each seat (rotated); at seed 8 seeing changes 2 of them
    # (at seed 5 it took 16 deals to change one)
    n, seed = 4, 8
    none, _ = seeing.play(seeing.player(((), 0, 0)), seed, n, 0)
    pimc, hoarder = strategies.resolve("pimc", ot.id), strategies.resolve("hoarder", ot.id)
    lineup = engine.Lineup([pimc, hoarder], np.array([0, 1, 1, 1]), rotate=True)
    rules = make_spec(ot.id, 4, n, "hoarder", seed=seed).rules
    ids = np.arange(n)
    plain = engine.play_deals(ot, 4, rules, lineup, n, np.random.default_rng([seed, 0]),
                              np.random.default_rng([seed, 0, 1]), engine.Context(ot.id, seed, n, "deal", ids))
    assert np.array_equal(none, plain.rounds["win"][ids, (-ids) % 4])
    # seeing at every lead and follow: a different player on the same deals
    every, _ = seeing.play(seeing.player((("lead", "play"), 0, seeing.TRICKS)), seed, n, 0)
    assert every.shape == none.shape and not np.array_equal(every, none)
