"""Hostile round 26: a review baseline's review.json edited by hand, and the seats sentence's clause for a
search play of too few deals."""

from __future__ import annotations

import json

import pytest

import simtool
import simtool.games
from simtool.analysis import review as answers
from simtool.commands import review as reviews

from . import review_game
from .test_cli import cli, one_line_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

DRAW = reviews.Sizes(256, 16, 256, 16, 32)
"""A review of the test game 'draw' in half a second."""


@pytest.fixture
def draw(monkeypatch):
    """Register the test game 'draw' (in-process reviews only: ``jobs=1``)."""
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, review_game.GAME))


def test_a_baseline_whose_figure_was_edited_is_refused_before_anything_is_played(draw, tmp_path):
    # failed before: a Black & White baseline's largest seat edge edited from 0.8 to 12.0 points
    # in its review.json, the same rules reviewed against it read "change in seats: 12.0 points
    # -> 0.8 points (difference -11.2 points (-13.2 to -9.1), independent): better, by 1 point or more"
    base = tmp_path / "base"
    played = reviews.review("draw", base, seed=2, jobs=1, sizes=DRAW)
    data = json.loads((base / "review.json").read_text())
    data["questions"]["seats"]["figure"]["value"] = 12.0
    (base / "review.json").write_text(json.dumps(data))
    r = cli("review", "--game", "draw", "--baseline", base, "--out", tmp_path / "after", "--jobs", "1", "-q")
    one_line_error(r, f"{base / 'review.json'} was changed since its review wrote it (its SHA-256 differs)")
    assert not (tmp_path / "after").exists()
    # the same content written out otherwise (a designer's pretty-printer) is the same review
    data["questions"]["seats"]["figure"]["value"] = played["questions"]["seats"]["figure"]["value"]
    answers.check_sum(json.loads(json.dumps(data, indent=4, sort_keys=True)), base)
    # one written before the checksum has none, and is read as before
    answers.check_sum({k: v for k, v in data.items() if k != answers.SUM}, base)


def test_the_seats_sentence_says_a_search_play_of_16_deals_is_too_few_not_on_a_threshold(tmp_path):
    # failed before: a Kansas City review's search play of 16 deals, seat 1 +12.5 points (-6.0 to
    # 35.5), was printed "Under the strongest play (pimc at every seat), 16 deals: unclear whether
    # fair or strong; the estimate sits on a threshold, so more deals alone will not settle it":
    # 12.5 is on no threshold, and the search's own sentence said too few deals
    game = simtool.games.get("kansas-city")
    runs = [simtool.run("kansas-city", n=n, strategy="random", seed=2, out=tmp_path / str(n)).path for n in (2000, 16)]
    q = answers.seats_question(game, *runs)
    assert q["search"]["n"] == 16 and q["search"]["verdict"] == "unclear"
    assert "sits on a threshold" not in q["sentence"]
    assert q["sentence"].endswith("16 deals: unclear whether fair or strong; too few deals for the seats' intervals "
                                  "to decide (a seat verdict takes 30 or more), so any of the words may hold: play "
                                  "more deals.")
