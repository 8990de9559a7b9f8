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


@pytest.mark.parametrize("unit, said", [("deal", "1 deal in"), ("match", "1 match in")])
def test_a_sweep_of_one_deal_says_one_deal(tmp_path, capsys, unit, said):
    """The line before a sweep plays read '1 cell, 1 deals in 1 chunk'."""
    assert cli.main(["sweep", "-g", "black-white", "-n", "1", "--unit", unit, "--seed", "1",
                     "--runs", str(tmp_path / "runs"), "-o", str(tmp_path / "page.html")]) == 0
    assert f"sweep: 1 cell, {said} 1 chunk, seed 1" in capsys.readouterr().out
