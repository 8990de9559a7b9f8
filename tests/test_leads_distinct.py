"""The observer plays each distinct re-dealt world once (simtool.pipeline.leads): the grouping of
equal worlds is exact, and the histories are those of playing every world, whether the
play-out draws from the stream or not."""

from __future__ import annotations

import numpy as np
import pytest
from polars.testing import assert_frame_equal

import simtool
from simtool.pipeline import leads


def test_distinct_rows_groups_equal_rows_exactly():
    """Runs of equal rows and equal rows apart alike."""
    words = np.array([[1, 2], [1, 2], [3, 4], [1, 2], [1, 3], [3, 4], [3, 4]], np.uint64)
    first, inverse = leads.distinct_rows(words)
    assert sorted(first.tolist()) == [0, 2, 4]
    assert (words[first[inverse]] == words).all()


def test_distinct_rows_survives_a_hash_collision():
    """Two different rows of the same hash (the sum wraps around) stay apart."""
    weights = (np.arange(1, 3, dtype=np.uint64) * leads._MIX) | np.uint64(1)
    # adding w1 to word 0 and taking w0 from word 1 (mod 2**64) leaves the weighted sum alike
    w0, w1 = (int(w) for w in weights)
    a = np.array([5, 0], np.uint64)
    c = np.array([(5 + w1) % 2**64, (2**64 - w0) % 2**64], np.uint64)
    assert (a * weights).sum(dtype=np.uint64) == (c * weights).sum(dtype=np.uint64)
    words = np.stack([a, c, a])
    first, inverse = leads.distinct_rows(words)
    assert len(first) == 2 and inverse[0] == inverse[2] != inverse[1]
    assert (words[first[inverse]] == words).all()


@pytest.mark.parametrize("game, seats, players", [
    ("trickster", {0: "pimc@samples=2"}, 4),  # a view hides nothing: every seat's worlds repeat
    ("trickster", {0: "pimc@samples=2,playout=random"}, 3),  # a play-out that draws
    ("black-white", {0: "pimc@samples=2"}, 3),  # some repeats, late in a round
])
def test_histories_are_those_of_playing_every_world(monkeypatch, game, seats, players):
    def run():
        return simtool.run(game, 60, players=players, strategy="random", seats=seats, seed=5,
                           lead_history=60, jobs=1)

    deduplicated = run()
    monkeypatch.setattr(leads, "distinct_worlds", lambda state: None)
    every = run()
    assert_frame_equal(deduplicated.leads, every.leads)
    assert_frame_equal(deduplicated.seats, every.seats)
