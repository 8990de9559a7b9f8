"""The compiled reference loops of bench/ratio.py (C and numba) play the same games as simtool: every
seat's mean score, tricks, rate and win share under random play agree within sampling error. And
the bench scripts refuse bad arguments before timing anything."""

import functools
import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

import simtool
import simtool.games

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.append(str(BENCH))  # the bench scripts import each other as top-level modules (appended: shadows nothing)


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ratio = _load("ratio")
scale = _load("scale")
bench_main = _load("bench")

NUMBA_GAMES = (*ratio.C_GAMES, "hearts")
"""The games a numba loop must agree with: Hearts once simtool has it."""


@pytest.fixture(scope="module")
def loops(tmp_path_factory):
    if not (shutil.which("gcc") or shutil.which("cc")):
        pytest.skip("no C compiler: the compiled reference loops cannot be built")
    return ratio.compile_loops(tmp_path_factory.mktemp("loops"))


@functools.cache
def simtool_seats(game: str, n: int):
    """simtool's per-seat figures of ``n`` random deals: one play a process, shared by the C and
    the numba test of the game (the same game, seed and n)."""
    seats = simtool.run(game, n=n, strategy="random", seed=11, jobs=1).seats
    ours = ratio.simtool_figures(game, seats)
    assert ours["n"] == [n] * len(ours["n"])
    return ours


@pytest.mark.slow
@pytest.mark.parametrize("game", ratio.C_GAMES)
def test_compiled_loop_agrees_with_simtool(loops, game):
    n_compiled, n_simtool = 200_000, 20_000
    _, _, compiled = ratio.run_loop(loops[game], n_compiled, seed=11)
    ours = simtool_seats(game, n_simtool)
    assert len(compiled["score"]) == len(ours["score"])
    assert ratio.agreement(compiled, n_compiled, ours) < ratio.Z_LIMIT


@pytest.mark.slow
@pytest.mark.parametrize("game", NUMBA_GAMES)
def test_numba_loop_agrees_with_simtool(game):
    numba_ref = ratio.numba_loops()
    if numba_ref is None:
        pytest.skip("numba is not installed (pip install -e '.[bench]'): the numba loops cannot run")
    if game not in simtool.games.registry():
        pytest.skip(f"simtool has no {game} game yet")
    assert game in numba_ref.LOOPS, f"{game} has no numba reference loop in bench/numba_ref.py"
    n_numba, n_simtool = 100_000, 20_000
    wall, cpu, compiled = ratio.run_numba(numba_ref, game, n_numba, seed=11)
    ours = simtool_seats(game, n_simtool)
    assert len(compiled["score"]) == len(ours["score"])
    assert ratio.agreement(compiled, n_numba, ours) < ratio.Z_LIMIT
    assert wall > 0 and cpu >= 0


def test_agreement_notices_a_different_game():
    """The check can fail: a loop whose seats score one point more is caught."""
    figures = {"score": [1.0, 1.0], "score_sd": [2.0, 2.0], "tricks": [3.0, 3.0],
               "tricks_sd": [1.0, 1.0], "rate": [0.2, 0.2], "win": [0.5, 0.5]}
    ours = dict(figures, win_sd=[0.5, 0.5], n=[10_000, 10_000])
    assert ratio.agreement(figures, 100_000, ours) == 0.0
    shifted = dict(figures, score=[2.0, 1.0])
    assert ratio.agreement(shifted, 100_000, ours) > 40


@pytest.mark.parametrize("argv", [["--n", "0.5"], ["--n", "0"], ["--repeat", "0"], ["--jobs", "0"],
                                  ["--game", "chess"], ["--before", "/nonexistent/tree"]])
def test_ratio_refuses_bad_arguments(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        ratio.parse(argv)
    assert exc.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_ratio_arguments():
    args = ratio.parse(["--n", "1e5", "--game", "trickster", "--repeat", "2"])
    assert (args.n, args.game, args.repeat, args.jobs, args.before) == (100_000, "trickster", 2, 2, None)


@pytest.mark.parametrize("argv", [[], ["--cores", "0"], ["--cores", "2", "--n", "1.5"],
                                  ["--cores", "2", "--n", "-1"]])
def test_scale_refuses_bad_arguments(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        scale.parse(argv)
    assert exc.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_scale_arguments_and_steps():
    args = scale.parse(["--cores", "16", "--n", "1e7"])
    assert (args.cores, args.n, args.game, args.strategy) == (16, 10_000_000, "black-white", "random")
    assert scale.jobs_steps(1) == [1]
    assert scale.jobs_steps(2) == [1, 2]
    assert scale.jobs_steps(16) == [1, 2, 4, 8, 16]
    assert scale.jobs_steps(12) == [1, 2, 4, 8, 12]


def test_bench_parts():
    assert bench_main.parse([]).parts == ("ratio", "memory", "scale")
    assert bench_main.parse(["--all"]).parts == bench_main.PARTS
    assert bench_main.parse(["--only", "scale", "--cores", "64"]).parts == ("scale",)
    for argv in (["--only", "ratio", "--all"], ["--cores", "0"], ["--only", "nothing"]):
        with pytest.raises(SystemExit) as exc:
            bench_main.parse(argv)
        assert exc.value.code == 2


def test_measure_reads_the_main_process_and_its_workers():
    """A forked run's CPU splits between the main process and its workers, read from the finished
    process; PSS never exceeds the summed RSS, which counts shared pages once per process."""
    from measure import measure

    m = measure(["run", "--game", "black-white", "--strategy", "random", "--n", "2e5", "--jobs", "2"])
    assert m.main_cpu > 0 and m.workers_cpu > 0
    assert 0 < m.uss <= m.pss <= m.rss
    assert m.processes == 3  # the main process and two workers
    assert m.run["n"] == 200_000
