"""The ladder read any change of a strategy's parameters as a budget step: ``target@under=1`` over
``target`` was "Converged: ... the larger budget plays worse here, so more search buys nothing"."""

from __future__ import annotations

from pathlib import Path

import pytest

from simtool.analysis import ladder
from simtool.analysis.ladder import Ladder, Rung


def top(name: str, below: str, share: float = 0.124, low: float = 0.114, high: float = 0.134) -> Ladder:
    step = Rung(1, name, below, share, low, high, 0.25, -0.5, Path("unread"))
    return Ladder("kansas-city", 4, {}, "deal", [step])


@pytest.mark.parametrize("name,below,budget", [
    ("target@under=1", "target", False), ("pimc@samples=32", "pimc@samples=16", True),
    ("pimc@samples=16,keep=2,deep=4", "pimc@samples=16", True), ("pimc@samples=16,playout=random", "pimc", False),
    ("pimc@samples=16~no-upgrade", "pimc~no-upgrade", True), ("pimc@samples=16~no-upgrade", "pimc", False),
    ("pimc", "target", False)])
def test_only_a_step_of_the_search_budget_is_a_budget_step(name, below, budget):
    assert ladder.budget_step(top(name, below).top) is budget


def test_another_parameter_is_no_larger_budget_playing_worse():
    lad = top("target@under=1", "target")
    assert ladder.converged(lad) is None
    assert ladder.convergence(lad) == (
        "Convergence: not read: the top step (target@under=1 over target) changes target's under, not a search's "
        "budget alone, so its gain says which setting plays better, not whether more search would still gain.")
    # before: "... so it tells which setting plays better (its rung above), not whether ...": no
    # rung is above the top one


def test_a_budget_step_still_reads_converged():
    lad = top("pimc@samples=32", "pimc@samples=16")
    assert ladder.converged(lad) is True and "the larger budget plays worse here" in ladder.convergence(lad)


@pytest.mark.parametrize("rungs,fell", [
    (["random", "pimc@samples=16", "pimc@samples=2"], "samples"), (["random", "pimc@samples=16", "pimc"], "samples"),
    (["random", "pimc@samples=16,keep=4,deep=8", "pimc@samples=16,keep=2,deep=8"], "keep")])
def test_a_step_that_lowers_the_budget_is_refused(rungs, fell):
    # before: played, and read as a larger budget: "pimc@samples=2 over pimc@samples=16 gains
    # -12.6 pts ...: the larger budget plays worse here, so more search buys nothing"
    from simtool.commands.ladder import plan
    from simtool.errors import SimtoolError

    with pytest.raises(SimtoolError, match=rf"^rung '{rungs[2]}' over '{rungs[1]}' lowers the search's {fell}: the "
                                           rf"chain climbs, weakest first"):
        plan("hearts", None, None, 100, 1, rungs)


def test_a_step_that_raises_the_budget_from_its_default_is_played():
    from simtool.commands.ladder import plan

    assert len(plan("hearts", None, None, 100, 1, ["random", "pimc@samples=4", "pimc", "pimc@keep=2,deep=4"])[0]) == 4
