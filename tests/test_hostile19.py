"""Hostile round 19: reviews and ladders at the smallest sizes, review --vs-rule on degenerate
games. Each test failed on the code before its fix."""

from __future__ import annotations

from simtool.analysis.ladder import reference_sentence
from simtool.commands.ladder import climb
from simtool.commands.review import Sizes, review
from simtool.commands.review import summary_lines as review_lines

ONE = Sizes(deals=1, matches=1, restrictions=1, duplicate=1, search=1, random=1, leads=1)
"""A review of one unit a play: its paired differences have no interval."""


def test_a_hidden_information_price_without_an_interval_reads_n_a_not_nan(tmp_path):
    # before: "worth 0.0 points of win share per seat (95% interval nan to nan)" on the console
    # and the page, where every other sentence says n/a
    r = review("black-white", tmp_path / "one", sizes=ONE, seed=1, jobs=1)
    hidden = r["questions"]["hidden_information"]
    assert hidden["price_ci_pts"] == [None, None] and hidden["verdict"] == "unclear"
    assert "(95% interval n/a)" in hidden["sentence"]
    assert not [line for line in review_lines(r) if "nan" in line]
    assert "nan to nan" not in (tmp_path / "one" / "review.html").read_text()


def test_a_ladders_reference_price_without_an_interval_reads_n_a_not_nan(tmp_path):
    # before: "knowing the hidden cards is worth -50.0 points (+nan to +nan)" under `simtool ladder --n 1`
    ladder, _ = climb("black-white", tmp_path / "ladder", n=1, seed=1, rungs=["random", "pimc"], jobs=1)
    sentence = reference_sentence(ladder)
    assert "knowing the hidden cards is worth" in sentence and "points (n/a)" in sentence, sentence
    assert "nan" not in sentence
