"""``pimc``'s second look (``keep``, ``deep``): the ``keep`` best options of the first ``samples``
worlds are played out in ``deep`` worlds more, and the best of them over all its worlds is chosen."""

from __future__ import annotations

import numpy as np

from simtool import bits
from strategies import pimc


class Worlds:
    """Play-outs of a hand-built position: option 0 is worth ``first`` in the worlds of the first
    re-deal and 0 in later ones (a lucky first look); option 1 is worth 0.9 in every world."""

    def __init__(self, batch: int, first: float):
        self.batch, self.first = batch, first

    def take(self, rows):
        return self

    def play_out(self, options, playout):
        lucky = self.first if self.batch == 0 else 0.0
        score = np.where(options == 0, lucky, 0.9)[:, None] * np.ones(2)
        return {"score": score, "win": score}


class View:
    """One deal, seat 0 to choose between options 0 and 1."""

    game, n_actions, restrictions, _report = "nine-lives", 64, (), None

    def __init__(self, first: float = 1.0):
        self.legal = np.array([bits.BIT[0] | bits.BIT[1]])
        self.distinct = self.legal.copy()
        self.seat = np.zeros(1, np.int64)
        self.first, self.batches = first, 0

    def __len__(self):
        return 1

    def _resolve(self, spec, game_id):  # the play-out policy: always option 1
        return lambda view, rng: np.ones(len(view), np.int64)

    def redeal(self, k, rng):
        self.batches += 1
        return Worlds(self.batches - 1, self.first)


def choose(view, keep, deep, k=1):
    return int(pimc.search(view, np.random.default_rng(0), k, "first-look-test", "score", keep=keep, deep=deep)[0])


def test_second_look_overturns_a_lucky_first_look():
    # first look (1 world): option 0 scores 1.0 against 0.9; over 1 + 3 worlds it averages 0.25
    assert choose(View(), keep=0, deep=0) == 0
    assert choose(View(), keep=2, deep=3) == 1


def test_second_look_only_among_the_kept_options():
    view = View()
    assert choose(view, keep=1, deep=3) == 0  # option 1 was not kept: the first look's best stands
    assert view.batches == 2  # the kept option was still played out in the deep worlds


def test_second_look_keeps_a_real_lead():
    # option 0 scores 4.0 in the first world: over 1 + 3 worlds 1.0, still above 0.9
    assert choose(View(first=4.0), keep=2, deep=3) == 0


def test_best_takes_the_top_options_of_each_deal():
    deal = np.array([0, 0, 0, 1, 1, 2])
    value = np.array([0.1, 0.5, 0.3, 2.0, 1.0, 7.0])
    assert pimc._best(deal, value, 1).tolist() == [1, 3, 5]
    assert pimc._best(deal, value, 2).tolist() == [1, 2, 3, 4, 5]


def test_second_look_is_nine_lives_default_only():
    params = {p.name: p for p in pimc.PARAMS}
    assert [params[name].default_for("nine-lives") for name in ("samples", "keep", "deep")] == [8, 4, 20]
    for game in ("black-white", "kansas-city", "trickster", "out-trumped", "hearts"):
        assert params["keep"].default_for(game) == 0
    assert params["samples"].default_for("black-white") == 8
