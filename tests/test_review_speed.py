"""Review of the speed changes smallrun (strategies.own_code's kept table) and bwspeed3."""

import pytest

import simtool
import strategies.basic
from strategies.base import own_code, untouched


@pytest.fixture
def high_choose():
    """``strategies.basic.high``'s choose, put back after the test whatever it did."""
    choose = strategies.basic.high.choose
    yield choose
    object.__setattr__(strategies.basic.high, "choose", choose)


def test_a_built_in_choose_changed_between_runs_is_the_next_runs_own_as_before_the_kept_table(high_choose):
    # a notebook (or a plugin's cost, which runs outside the guard) sets a built-in strategy's
    # choose between two runs: before the kept table, the next run took it as it found it (the
    # table read afresh); with it, the table's key (a frozen dataclass, hashed by its choose) was
    # found no more, so the table held the strategy twice: the run stopped, blaming "a strategy
    # of this run" for "strategies.basic.high.choose, strategies.basic.high.choose", and "put
    # back" the changed choose, so that every later run of the process stopped the same way
    simtool.run("black-white", n=20, seed=1, strategy="random", jobs=1)  # the table kept
    object.__setattr__(strategies.basic.high, "choose", strategies.basic.low.choose)
    ran = simtool.run("black-white", n=40, seed=3, strategy="random", seats={0: "high"}, jobs=1)
    low = simtool.run("black-white", n=40, seed=3, strategy="random", seats={0: "low"}, jobs=1)
    assert ran.seats.drop("strategy").equals(low.seats.drop("strategy"))
    assert [name for name in own_code().values() if name[1] == "strategies.basic.high.choose"] == \
        [(strategies.basic.low.choose, "strategies.basic.high.choose")]


def test_a_choose_replaced_inside_the_guard_is_named_once_and_put_back(high_choose):
    own_code()  # the table kept, as at a run's every chunk
    with pytest.raises(simtool.SimtoolError, match=r"x replaced strategies\.basic\.high\.choose: a strategy must"):
        with untouched("x"):
            object.__setattr__(strategies.basic.high, "choose", strategies.basic.low.choose)
    assert strategies.basic.high.choose is high_choose
