"""Leftovers of the last review (7): a review that replaced a balance report's page, tune and
review cells told to replay with a --force they do not take, and designer titles printed raw to
the terminal (each test failed on the code before its fix)."""

from __future__ import annotations

import pytest

import simtool
from simtool.commands import review as reviews
from simtool.errors import SimtoolError

from .test_cli import cli
from .test_hardening_round16 import one_line


def test_a_review_never_replaces_a_balance_reports_page(tmp_path):
    # before: `simtool review --out DIR` with DIR/review.html a balance report (written by
    # `simtool report RUN -o DIR/review.html`) replaced that page without a word, the other way
    # round from the report, which refuses a review's page
    run, out = tmp_path / "run", tmp_path / "bw"
    simtool.run("black-white", n=100, seed=1, jobs=1, out=run)
    assert cli("report", run, "-o", out / "review.html").exit_code == 0
    page = (out / "review.html").read_bytes()
    one_line(cli("review", "-g", "black-white", "--out", out, "--seed", "3"),
             f"{out / 'review.html'} is a simtool balance report page, not a review", "choose another --out")
    assert (out / "review.html").read_bytes() == page and sorted(p.name for p in out.iterdir()) == ["review.html"]
    with pytest.raises(SimtoolError, match="choose another out folder$"):
        reviews.review("black-white", out, seed=3, jobs=1)
    # a page simtool did not write is refused too
    (out / "review.html").write_text("<html>mine</html>")
    one_line(cli("review", "-g", "black-white", "--out", out, "--seed", "3"),
             f"{out / 'review.html'} exists and is not a simtool page")
    assert (out / "review.html").read_text() == "<html>mine</html>"
