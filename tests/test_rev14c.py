"""Review of hostile round 20: what a plugin's import sets for its own play, and --timeout on an
--isolate run's import. Each test failed on the code before its fix."""

from __future__ import annotations

import os
import sys

import pytest

from .test_cli import cli

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
