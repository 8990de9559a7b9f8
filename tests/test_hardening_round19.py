"""Hostile round 19: the Python API as a notebook uses it, a review's --vs-rule and --baseline,
and the luck figure with no interval below 100 deals. Each test failed on the code before its fix."""

from __future__ import annotations

import copy
import re

import pytest

from .test_cli import cli


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("n", [50, 99])
def test_a_duplicate_runs_luck_sentence_under_100_deals_claims_no_bootstrap_interval(tmp_path, n):
    # before: '... 1.0% (n/a) ... 98.6% (n/a): shares of the variance of a seat's score, from the
    # duplicate deals, with 95% bootstrap intervals over deals.', on the console and the report
    out = tmp_path / "d"
    r = cli("run", "--game", "black-white", "--n", n, "--duplicate", "--strategy", "random", "--seed", "1",
            "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    assert "bootstrap" not in said and "% (n/a)" not in said.split("Luck against skill: the")[1]
    assert "from the duplicate deals, too few for a 95% interval (it takes 100 or more)." in said
    r = cli("report", out, "--out", tmp_path / "report.html")
    assert r.exit_code == 0, r.output
    page = _text((tmp_path / "report.html").read_text())
    assert "bootstrap intervals over deals" not in page
    assert "too few for a 95% interval (it takes 100 or more)" in page


def test_a_duplicate_runs_luck_sentence_of_100_deals_keeps_its_intervals(tmp_path):
    r = cli("run", "--game", "black-white", "--n", 100, "--duplicate", "--strategy", "random", "--seed", "1",
            "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "with 95% bootstrap intervals over deals." in " ".join(r.stdout.split())


def test_a_duplicate_run_of_one_deal_says_it_cannot_split_the_variance():
    # before: 'the cards decide about n/a of a deal's score ... with 95% bootstrap intervals'
    r = cli("run", "--game", "black-white", "--n", 1, "--duplicate", "--strategy", "random", "--seed", "1",
            "--jobs", "1")
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    assert "Luck against skill: too few duplicate deals to split the variance of a seat's score" in said
    assert "about n/a" not in said


def test_a_reviews_luck_table_under_100_deals_claims_no_bootstrap_interval(bw_review, tmp_path):
    # before: 'Shares of the variance of a seat's score (..., 64 deals, bootstrap intervals over
    # deals)' above a column of n/a
    from simtool.reports import review as pages

    result = copy.deepcopy(bw_review[1])
    luck = result["questions"]["luck"]
    luck["n"], luck["ci"] = 64, [None, None]
    for part in luck["parts"]:
        part["share_low"] = part["share_high"] = None
    pages.write(tmp_path, result)
    page = _text((tmp_path / "review.html").read_text())
    assert "64 deals, too few for a 95% interval)" in page and "bootstrap intervals over deals)" not in page
    pages.write(tmp_path, bw_review[1])
    assert "128 deals, bootstrap intervals over deals)" in _text((tmp_path / "review.html").read_text())
