"""simtool's conformance suite (the pytest plugin ``simtool.testing``) on every built-in game, on
the toy test game, and on a game installed from a package of its own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import simtool.games
from simtool.cli import main
from simtool.testing import Conformance, watched_round

from . import toy_game

__all__ = ["watched_round"]  # other tests watch rounds with it

ROOT = Path(__file__).parents[1]


HEURISTIC = """
from simtool import bits
from strategies import strategy


@strategy("lowest", "the lowest legal card; never banks", ("climb",))
def lowest(view, rng):
    return bits.lowest(view.legal)
"""


class TestConformance(Conformance):
    games = (*simtool.games.BUILT_IN, toy_game.GAME)


def test_a_game_from_its_own_package_plugs_in_and_passes_the_plugin(tmp_path, pytester, monkeypatch, capsys):
    """docs/new-game.md's claim: a game in a package of its own, installed under the
    ``simtool.games`` entry point, plays in simtool (its worker processes too) and passes the
    plugin run from that package, with no change to simtool."""
    package = tmp_path / "climb_game"
    package.mkdir()
    shutil.copy(Path(toy_game.__file__), package / "climb_game.py")
    (package / "climb_heuristics.py").write_text(HEURISTIC)
    # what `pip install` of the package writes: its metadata and entry points, found on sys.path
    info = package / "climb_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: climb-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simtool.games]\nclimb = climb_game:GAME\n"
                                           "[simtool.strategies]\nlowest = climb_heuristics:lowest\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}  # a fresh session's
    env["PYTHONPATH"] = os.pathsep.join([str(package), str(ROOT)])

    def python(*args):
        return subprocess.run([sys.executable, *args], cwd=package, env=env, capture_output=True, text=True,
                              timeout=300)

    run = python("-m", "simtool.cli", "run", "--game", "climb", "--seat", "0=lowest", "--n", "40000", "--jobs", "2",
                 "--out", str(tmp_path / "run"), "-q")
    assert run.returncode == 0, run.stderr
    seats = pl.read_parquet(tmp_path / "run" / "seats.parquet")
    assert seats.height == 40000 * 3 and seats.filter(pl.col("seat") == 0)["strategy"].unique().to_list() == ["lowest"]
    assert json.loads((tmp_path / "run" / "run.json").read_text())["jobs"] == 2  # two chunks, two processes
    # `simtool games`, the plugin run from the package, and a name it does not define (the plugin's
    # usage error), in this process: what is checked is how the package's entry points, metadata and
    # game are found and checked, whose worker processes fork from here as a pytest process's would
    # (a process took a second or two to start; the run above is the one of a process of its own)
    monkeypatch.syspath_prepend(str(package))
    assert main(["games"]) == 0
    listed = capsys.readouterr().out
    assert "climb" in listed, listed
    suite = pytester.runpytest_inprocess("-p", "simtool.testing", "--simtool-game", "climb_game:GAME",
                                         "-p", "no:cacheprovider", "-q", "-n", "0",
                                         "-k", "2p and not random or jobs and deal")
    said = "\n".join(suite.outlines[-40:])
    assert suite.ret == pytest.ExitCode.OK, said
    suite.assert_outcomes(passed=10, skipped=1)  # climb does not re-deal
    bad = pytester.runpytest_inprocess("-p", "simtool.testing", "--simtool-game", "climb_game:NOPE",
                                       "-p", "no:cacheprovider", "-q", "-n", "0")
    said = "\n".join(bad.errlines)
    assert bad.ret == pytest.ExitCode.USAGE_ERROR and "--simtool-game climb_game:NOPE: AttributeError" in said, said
