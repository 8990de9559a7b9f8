"""The last review of the session's whole change (b39095e..23135f5): each test failed on 23135f5."""

from __future__ import annotations

import numpy as np

from simtool import stats


def test_seat_test_of_equal_seats_is_p_1_not_nan():
    # four deals of five seats, each won by another seat: T² is 0 up to rounding, -4e-18 on one
    # machine (+8e-18 on another: the sign is the BLAS's); scipy.stats.f.sf read -4e-18 as below
    # the support (p = 1), scipy.special.fdtrc gives NaN, which the balance report printed as
    # "p = nan"
    wins = np.array([[0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 1, 0, 0, 0]], float)
    test = stats.seat_test(wins)
    assert abs(test.statistic) < 1e-12  # the rounding this is about
    assert test.p_value == 1.0
    assert stats.fmt_p(test.p_value) == "p = 1.000"


def test_seat_test_of_a_statistic_rounded_below_0_is_p_1(monkeypatch):
    # the rounding's sign is the machine's: forced below 0 here, where fdtrc alone gives NaN
    wins = np.array([[0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 1, 0, 0, 0]], float)
    pinv = np.linalg.pinv
    monkeypatch.setattr(np.linalg, "pinv", lambda a: -1e-30 * np.ones_like(pinv(a)))
    test = stats.seat_test(wins)
    assert -1e-12 < test.statistic < 0.0
    assert test.p_value == 1.0


def test_restrict_resume_refusing_a_changed_setting_names_restricted_play(tmp_path):
    # it said "finishes the restrict with the settings it started with"
    from .test_cli import cli, one_line_error

    runs = tmp_path / "r"
    args = ["restrict", "-g", "black-white", "--restrictions", "higher-colour", "--n", "200", "--seed", "1",
            "-j", "1", "-q", "--out", str(runs)]
    assert cli(*args).exit_code == 0
    r = cli("restrict", "--resume", str(runs), "--strategy", "duck")
    one_line_error(r, "finishes the restricted play with the settings it started with; --strategy cannot change")
