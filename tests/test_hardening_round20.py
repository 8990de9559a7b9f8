"""Hostile round 20: outputs of one command written into another's folder, reports named against
their format, numbers given as text from Python, a custom review's label, and numbers that are not
numbers on every command. Each test failed on the code before its fix."""

from __future__ import annotations

import pytest

from .test_cli import cli

TUNE = ("tune", "--game", "black-white", "--vary", "hand_size", "--objective", "seat_spread:min",
        "--trials", "2", "--n", "2000", "--seed", "1", "--jobs", "1", "-q")


@pytest.mark.parametrize("record", ["tune.json", "review.json"])
def test_tune_report_into_another_tunings_or_reviews_folder_is_refused(tmp_path, record):
    # before: exit 0, another tuning's tune.html replaced by this tuning's page (beside its
    # tune.json, which answered from other trials)
    other = tmp_path / "other"
    other.mkdir()
    (other / record).write_text("{}")
    page = other / record.replace(".json", ".html")
    r = cli(*TUNE, "--out", tmp_path / "mine", "--report", page)
    assert r.exit_code == 2, r.output
    assert len(r.output.strip().splitlines()) == 1
    assert "another" in r.output and "choose another --report" in r.output
    assert not page.exists() and not (tmp_path / "mine").exists()


def test_tune_report_in_its_own_folder_inside_a_review_still_writes(tmp_path):
    (tmp_path / "review.json").write_text("{}")
    r = cli(*TUNE, "--out", tmp_path / "mine")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "mine" / "tune.html").is_file()
