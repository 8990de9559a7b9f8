"""Hostile tests of tune's recommendation: its words must agree with the re-measures it prints."""

from __future__ import annotations

import pytest

from simtool.analysis import tuning
from simtool.commands import tune


def remeasure(label, deck, objective, value, trial=None):
    return {"label": label, "params": {"deck": deck}, "trials": [] if trial is None else [trial],
            "n": 1200, "seed": 2, "values": {objective: [value, 0.0, value + 0.05]}}


@pytest.mark.parametrize("direction", ["min", "max"])
def test_a_best_trial_that_re_measured_worse_than_the_sheet_is_not_said_to_look_best(direction):
    # `tune -g black-white --vary deck=30,...,40 --objective seat_spread:min --trials 2 --n 300
    # --seed 4` printed "deck=38 looks best, but it cannot be told from the sheet's deck=36 ... tune
    # again with --n 6e5", while the sheet re-measured 0.0221 and deck=38 a worse 0.0233
    config = tune.configure("black-white", ["deck=30,32,34,36,38,40"], [f"seat_spread:{direction}"], trials=2,
                            n=300, seed=4)
    label = f"seat_spread:{direction}"
    sheet, best = (0.0221, 0.0233) if direction == "min" else (0.0233, 0.0221)
    confirmed = [remeasure("defaults", 36, label, sheet), remeasure("trial 1", 38, label, best, 1)]
    text = tuning.recommendation(config, confirmed, tune.best(config, confirmed))
    assert text.startswith("No setting tried beats the sheet's deck=36") and text.endswith("Keep the sheet.")
    assert "looks best" not in text and "--n" not in text
