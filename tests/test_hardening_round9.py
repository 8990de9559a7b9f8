"""Hostile round 9: the Python API, plugin strategies and a designer's own game, against the
surfaces the earlier rounds touched least. Each test failed on the code before its fix."""

from __future__ import annotations

import dataclasses

import pytest

from simtool.commands import tune
from simtool.errors import SimtoolError


@pytest.mark.parametrize(("change", "words"), [({"trials": 0}, "bad config: its trials 0"),
                                               ({"seed": -1}, "bad config: its seed -1"),
                                               ({"players": 9}, "kansas-city is for 4, 5 players, not 9")])
def test_a_tuning_changed_after_configure_is_refused_before_its_folder_is_made(tmp_path, change, words):
    # before: dataclasses.replace(config, trials=0) ended in an IndexError, players=9 in Kansas
    # City's KeyError, seed=-1 in numpy's ValueError, each after tune.json and study.db were written
    config = tune.configure("kansas-city", ["pass_count"], ["seat_spread:min"], trials=2, n=200, seed=1)
    with pytest.raises(SimtoolError, match=words):
        tune.tune(dataclasses.replace(config, **change), tmp_path / "t", jobs=1)
    assert not (tmp_path / "t").exists()
