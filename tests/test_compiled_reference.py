"""The compiled reference loops of bench/ratio.py play the same games as simtool: every seat's
mean score, tricks, rate and win share under random play agree within sampling error."""

import importlib.util
import shutil
from pathlib import Path

import pytest

import simtool

BENCH = Path(__file__).resolve().parent.parent / "bench" / "ratio.py"
_spec = importlib.util.spec_from_file_location("bench_ratio", BENCH)
ratio = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ratio)


@pytest.fixture(scope="module")
def loops(tmp_path_factory):
    if not (shutil.which("gcc") or shutil.which("cc")):
        pytest.skip("no C compiler: the compiled reference loops cannot be built")
    return ratio.compile_loops(tmp_path_factory.mktemp("loops"))


@pytest.mark.slow
@pytest.mark.parametrize("game", list(ratio.TARGETS))
def test_compiled_loop_agrees_with_simtool(loops, game):
    n_compiled, n_simtool = 200_000, 20_000
    _, _, compiled = ratio.run_loop(loops[game], n_compiled, seed=11)
    seats = simtool.run(game, n=n_simtool, strategy="random", seed=11, jobs=1).seats
    ours = ratio.simtool_figures(game, seats)
    assert ours["n"] == [n_simtool] * len(ours["n"])
    assert len(compiled["score"]) == len(ours["score"])
    assert ratio.agreement(compiled, n_compiled, ours) < ratio.Z_LIMIT


def test_agreement_notices_a_different_game():
    """The check can fail: a loop whose seats score one point more is caught."""
    figures = {"score": [1.0, 1.0], "score_sd": [2.0, 2.0], "tricks": [3.0, 3.0],
               "tricks_sd": [1.0, 1.0], "rate": [0.2, 0.2], "win": [0.5, 0.5]}
    ours = dict(figures, win_sd=[0.5, 0.5], n=[10_000, 10_000])
    assert ratio.agreement(figures, 100_000, ours) == 0.0
    shifted = dict(figures, score=[2.0, 1.0])
    assert ratio.agreement(shifted, 100_000, ours) > 40
