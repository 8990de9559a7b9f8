"""Words that contradicted the figures beside them, mended (2026-11-28)."""

from __future__ import annotations

from .test_cli import cli


def test_a_seat_whose_interval_leaves_out_fair_is_not_called_within_chance_without_a_word(tmp_path, charts_undrawn):
    # "Seat 0 wins 38.4% ± 4.7% of deals against 33.3% expected: a spread no larger than chance":
    # its own interval, 33.7% to 43.1%, leaves 33.3% out; the seats' test (p = 0.114) reads all three
    # (the p-value itself stays in the folded statistics, as every test's: tests/test_language.py)
    run, page = tmp_path / "ot", tmp_path / "ot.html"
    assert cli("run", "-g", "out-trumped", "-p", "3", "-s", "random", "-n", "400", "--seed", "1", "-j", "1", "-q",
               "--out", run).exit_code == 0
    assert cli("report", run, "-o", page).exit_code == 0
    text = page.read_text()
    assert ("Seat 0 wins 38.4% ± 4.7% of deals against 33.3% expected: its own interval leaves out the fair "
            "share, yet among 3 seats one this far off is within chance (the test of all seats together).") in text
    assert "no larger than chance" not in text
