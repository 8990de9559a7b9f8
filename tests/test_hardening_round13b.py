"""Round 13b: figures printed misleadingly. The pooled win share of a strategy holding every
seat is 1/p by rule (printed as such, not with an interval); a verdict's share and edge are
printed so that the share less the fair share is the edge as printed."""

from __future__ import annotations

import numpy as np

from .test_cli import cli


def pooled_row(text: str) -> list[str]:
    """The cells of the first row of the "By strategy (seats pooled)" table."""
    rows = [line for line in text.split("By strategy (seats pooled)")[1].splitlines() if line.startswith("│")]
    return [c.strip() for c in rows[0].strip("│").split("│")]


def test_match_pooled_win_shares_of_one_strategy_are_one_in_p_by_rule(tmp_path):
    # before: '25.0% (19.5–31.4)' for win share and match win share, a Wilson interval on the
    # matches around a value no play can move (each round's and match's win sums to one)
    r = cli("run", "--game", "hearts", "--unit", "match", "--n", "30", "--seed", "4", "--jobs", "1",
            "--strategy", "ducker", "--out", tmp_path / "m")
    assert r.exit_code == 0, r.output
    cells = pooled_row(r.stdout)
    assert cells[0] == "ducker"
    assert cells[2] == "1/4 by rule" and cells[-2] == "1/4 by rule"  # win share, match win share
    assert not any("(" in c and "%" in c and c.startswith("25.0") for c in cells)


def test_mixed_line_up_keeps_its_measured_interval(tmp_path):
    # two strategies: each one's share of wins per seat held is a measurement, with its interval
    r = cli("run", "--game", "hearts", "--unit", "match", "--n", "30", "--seed", "4", "--jobs", "1",
            "--seat", "0=random", "--out", tmp_path / "m")
    assert r.exit_code == 0, r.output
    assert "by rule" not in pooled_row(r.stdout)[2] and "(" in pooled_row(r.stdout)[2]


def test_tied_and_capped_wins_still_sum_to_one():
    # why 1/p holds by rule: tied leaders split the win, and a match stopped at the round cap goes
    # to its leaders on totals (engine._final uses the same shares), so no unit's win is lost
    from simtool.engine import shares

    totals = np.array([[40, 40, 90, 99], [10, 10, 10, 10], [5, 60, 70, 80]])
    won = shares(totals, lower_wins=True)
    assert np.allclose(won.sum(axis=1), 1.0)
    assert won[0].tolist() == [0.5, 0.5, 0.0, 0.0] and np.allclose(won[1], 0.25)
