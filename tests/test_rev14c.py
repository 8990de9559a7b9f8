"""Review of hostile round 20: what a plugin's import sets for its own play, and --timeout on an
--isolate run's import. Each test failed on the code before its fix."""

from __future__ import annotations

import os
import sys

import pytest

from .test_cli import cli
from .test_hardening_round20 import SLEEPY, stopped_on_import

SETS_FOR_ITS_PLAY = '''import os
import sys

from simtool import bits

sys.setrecursionlimit(20000)  # a recursive search raises it at its top level
os.environ["REV14C_WIDTH"] = "3"


def depth(k):
    return 0 if k == 0 else 1 + depth(k - 1)


def play(view, rng):
    depth(5000)
    assert int(os.environ["REV14C_WIDTH"]) == 3
    return bits.lowest(view.legal)
'''


@pytest.mark.parametrize("how", [["-j", "1"], ["-j", "2"], ["-j", "1", "--isolate"]])
def test_what_a_plugins_import_sets_for_its_play_it_gets_while_it_plays(tmp_path, how):
    # before: RecursionError (or KeyError 'REV14C_WIDTH') on its first decision, exit 2: the
    # import's limit and variable were put back as the import ended, before any play
    plugin = tmp_path / "deep.py"
    plugin.write_text(SETS_FOR_ITS_PLAY)
    limit = sys.getrecursionlimit()
    r = cli("run", "-g", "black-white", "--n", 40, "-q", "--seed", 1, "--seat", f"0={plugin}:play",
            "--out", tmp_path / "r", *how)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "r" / "seats.parquet").is_file()
    # simtool itself still runs with its own: the import's settings are the plugin's play's only
    assert sys.getrecursionlimit() == limit and "REV14C_WIDTH" not in os.environ


def test_timeout_covers_an_isolated_plugins_import(tmp_path):
    # before: the plugin's own process imported it for its full 60 s (for ever, had it looped),
    # then the run went on: exit 0 after a minute, --timeout 0.5 notwithstanding
    stopped_on_import(tmp_path, ["run", "-g", "black-white", "--seat", "0={}", "--isolate"])


def test_timeout_covers_an_isolated_plugins_import_from_python(tmp_path):
    import simtool

    plugin = tmp_path / "sleepy.py"
    plugin.write_text(SLEEPY)
    with pytest.raises(simtool.SimtoolError, match=r"took longer than 0.5 s \(timeout=0.5\) to import"):
        simtool.run("black-white", n=50, seats={0: f"{plugin}:play"}, timeout=0.5, isolate=True,
                    out=tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("refused", [["--jobs", "0"], ["--seed", "-1"]])
def test_a_refused_command_line_leaves_no_import_limit_for_python(tmp_path, capsys, refused):
    # before: `--timeout 1` then a refused option left the limit set in the process (the
    # command's context was never closed), so the next Python call, which gave no timeout, was
    # refused: 'strategy plugin slow.py took longer than 0.2 s (timeout=0.2) to import'
    import simtool
    import strategies
    from simtool.cli import main

    assert main(["run", "-g", "black-white", "--n", "10", "--timeout", "0.2", *refused]) == 2
    assert "error: bad" in capsys.readouterr().err
    assert strategies.IMPORT_LIMIT.get() is None
    plugin = tmp_path / "slow.py"
    plugin.write_text("import time\n\ntime.sleep(0.6)\n\n\ndef play(view, rng):\n    return view.legal & -view.legal\n")
    grid = simtool.sweep.make_grid({"games": ["black-white"], "lineups": [f"{plugin}:play"], "n": 10, "seed": 1})
    specs, _ = simtool.sweep.plan(grid)
    assert len(specs) == 1
