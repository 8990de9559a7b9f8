"""Review of hostile round 9 and the Nine Lives / Black & White speed-ups: what the review found."""

from __future__ import annotations

import pytest

import simtool
from simtool.pipeline import pilot

from .designer_games.whist import Whist


class _ThreeRoundWhist(Whist):
    id = "three-round-whist"

    def match_over(self, match, rnd):
        return rnd >= 2  # one answer for every match: a rule of rounds alone, as docs/new-game.md allows


class _AnyWhist(Whist):
    id = "any-whist"

    def match_over(self, match, rnd):
        return (match.totals >= match.rules["target"]).any()  # axis=1 forgotten


def test_the_round_cap_pilot_reads_one_answer_for_every_match_as_the_engine_does(installed):
    # before: the pilot that runs before whole matches under rules other than the sheet's took
    # match_over's answer raw: `~True` is -2, a row number, and simtool.run of a designer's Whist
    # ending after 3 rounds, with target=20, ended in "TypeError: object of type 'numpy.int64'
    # has no len()" (a traceback; the sheet's target played, unpiloted)
    installed(_ThreeRoundWhist(), _AnyWhist())
    pilot._capped_share.cache_clear()
    played = simtool.run("three-round-whist", n=300, unit="match", seed=1, strategy="random", rules={"target": 20})
    assert set(played.matches["rounds"].to_list()) == {3}
    # and an answer for all that the matches alone do not give is refused there as in the run
    with pytest.raises(simtool.SimtoolError, match=r"^game 'any-whist' match_over answered True for a "
                                                   r"whole batch of matches at once after round \d+, but False "
                                                   r"for the batch's first match asked alone"):
        simtool.run("any-whist", n=300, unit="match", seed=1, strategy="random", rules={"target": 20})
