"""The last review of the session's whole change (b39095e..23135f5): each test failed on 23135f5."""

from __future__ import annotations

import numpy as np

from simtool import stats


def test_seat_test_of_equal_seats_is_p_1_not_nan():
    # four deals of five seats, each won by another seat: T² comes out as -4e-18 by rounding;
    # scipy.stats.f.sf read it as below the support (p = 1), scipy.special.fdtrc gives NaN,
    # which the balance report printed as "p = nan"
    wins = np.array([[0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 1, 0, 0, 0]], float)
    test = stats.seat_test(wins)
    assert test.statistic < 0.0 < 1e-12 + test.statistic  # the rounding this is about
    assert test.p_value == 1.0
    assert stats.fmt_p(test.p_value) == "p = 1.000"


def test_restrict_resume_refusing_a_changed_setting_names_restricted_play(tmp_path):
    # it said "finishes the restrict with the settings it started with"
    from .test_cli import cli, one_line_error

    runs = tmp_path / "r"
    args = ["restrict", "-g", "black-white", "--restrictions", "higher-colour", "--n", "200", "--seed", "1",
            "-j", "1", "-q", "--out", str(runs)]
    assert cli(*args).exit_code == 0
    r = cli("restrict", "--resume", str(runs), "--strategy", "duck")
    one_line_error(r, "finishes the restricted play with the settings it started with; --strategy cannot change")
