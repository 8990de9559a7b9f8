"""Hostile round 21: the command line's shell (replay, restrict, ladder, games, strategies,
sweep and its grid files, every option's forms). Each test failed on the code before its fix."""

from __future__ import annotations

import pytest

from simtool import cli


@pytest.mark.parametrize("strategy", ["bogus", "target", "balance@mistakes=7"])
def test_a_strategy_that_plays_no_seat_is_still_checked(tmp_path, capsys, strategy):
    """Every seat given by --seat: a --strategy no game has was taken without a word."""
    out = tmp_path / "run"
    code = cli.main(["run", "-g", "black-white", "-n", "1", "-q", "--out", str(out), "--strategy", strategy,
                     "--seat", "0=random", "--seat", "1=random", "--seat", "2=random"])
    assert code == 2
    assert "valid" in capsys.readouterr().err or strategy.startswith("balance")
    assert not out.exists()
    assert cli.main(["replay", "--seed", "1", "--deal", "1", "--strategy", strategy, "--seat", "0=random",
                     "--seat", "1=random", "--seat", "2=random"]) == 2
