"""Hostile tests of ``simtool review``: what a careless or malicious user gives it (a garbled
baseline, an --out that cannot be made, another review's folder, wrong Python types), and
what its promises are (the same review.json for any --jobs, the skill question played on every
game with a search). Tiny sizes and Black & White (its search starts quickest) keep each to
seconds."""

from __future__ import annotations

import copy
import json

import pytest

import simtool.games
from simtool.commands import review as reviews
from simtool.commands.review import Sizes
from simtool.errors import SimtoolError

from . import review_game
from .conftest import REVIEW
from .test_cli import cli, one_line_error

TINY = Sizes(**REVIEW)


@pytest.fixture
def draw(monkeypatch):
    """The test game 'draw' (in-process reviews only: ``jobs=1``)."""
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, review_game.GAME))
    return review_game.GAME


@pytest.fixture
def finished(bw_review):
    """A finished Black & White review (its search plays, so skill is measured): conftest's, shared
    with test_review, and a copy of what it returned."""
    out, r = bw_review
    return out, copy.deepcopy(r)


def test_skill_is_measured_on_a_game_with_a_search_beside_the_hidden_information_rung(finished):
    # the ladder's reference rung (clairvoyant, on by default under a pimc top rung) once made
    # every review of a game with a search stop with a traceback at the skill question; the
    # review now plays it once, for the hidden-information question
    out, r = finished
    skill = r["questions"]["skill"]
    assert skill["verdict"] != "not measured" and skill["n"] == TINY.search
    assert {"over_heuristic_pts", "over_random_pts", "doubling_pts"} <= set(skill)
    runs = sorted(p.name for p in (out / "runs" / "skill").iterdir() if p.is_dir())
    # the three skill rungs, and the reference rung that prices hidden information
    assert len(runs) == 4 and [name for name in runs if "clairvoyant" in name] == ["black-white_3p_clairvoyant+balance"]
    assert r["questions"]["hidden_information"]["verdict"] != "not measured"


def test_the_same_review_with_two_jobs_writes_the_same_review_json(finished, tmp_path):
    out, _ = finished
    reviews.review("black-white", tmp_path / "two", seed=3, jobs=2, sizes=TINY)
    assert (tmp_path / "two" / "review.json").read_bytes() == (out / "review.json").read_bytes()


@pytest.mark.parametrize("damage", ["no plays", "no luck", "questions a list", "seats a string", "seed a word",
                                    "negative sizes", "another schema, no luck"])
def test_a_garbled_baseline_is_refused_before_anything_is_played(finished, tmp_path, damage):
    out, r = finished
    bad = json.loads(json.dumps(r))
    if damage == "no plays":
        del bad["plays"]
    elif damage == "no luck":
        del bad["questions"]["luck"]
    elif damage == "another schema, no luck":  # not compared, but shown on the page: once a traceback
        bad["schema"] = 2
        del bad["questions"]["luck"]
    elif damage == "seed a word":  # once: a fresh seed, other deals compared as if shared
        bad["seed"] = "abc"
    elif damage == "negative sizes":  # once: 'bad n -5', naming no file
        bad["sizes"]["deals"] = -5
    elif damage == "questions a list":
        bad["questions"]["hazards"] = "none"
    else:
        bad["questions"]["seats"]["seats"] = "0"
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "review.json").write_text(json.dumps(bad))
    result = cli("review", "-g", "black-white", "--baseline", tmp_path / "base", "--out", tmp_path / "o", "-q")
    one_line_error(result, "review.json is not a whole simtool review", "earlier simtool review")
    assert not (tmp_path / "o").exists()  # refused before the pilot or any play


def test_an_out_folder_that_cannot_be_made_is_one_line_before_the_pilot(tmp_path, monkeypatch):
    monkeypatch.setattr(reviews, "pilot", lambda *a: pytest.fail("the pilot ran for a folder that cannot be made"))
    (tmp_path / "file").write_text("mine")
    one_line_error(cli("review", "-g", "black-white", "--out", tmp_path / "file" / "sub", "-q"),
                   "cannot make the review folder", "--out")
    assert (tmp_path / "file").read_text() == "mine"


@pytest.mark.parametrize("sizes", [{"deals": 1024}, Sizes(0, 128, 1024, 128, 32), Sizes(4096.5, 128, 1024, 128, 32),
                                   Sizes(True, 128, 1024, 128, 32)])
def test_sizes_of_another_type_are_refused_naming_the_parameter(tmp_path, sizes):
    # once: asdict()'s TypeError, or 'bad n 0' naming no parameter after sizes.json was written
    with pytest.raises(SimtoolError, match="bad sizes .*Sizes"):
        reviews.review("black-white", tmp_path / "r", sizes=sizes, jobs=1)
    assert not (tmp_path / "r").exists()


def test_a_baseline_of_another_type_is_refused_naming_the_parameter(tmp_path):
    with pytest.raises(SimtoolError, match="bad baseline 3"):  # once: os.fspath's TypeError
        reviews.review("black-white", tmp_path / "r", baseline=3, jobs=1, sizes=TINY)


def test_another_review_in_a_played_folder_is_refused_before_writing_and_the_first_goes_on(draw, tmp_path):
    # 4,096 deals, not 65,536: what is read is the refusals and that the first review goes on to the
    # answers of the unbroken one, whatever its sizes (the draw game's seat deals were half the CPU)
    sizes = Sizes(1 << 12, 128, 1024, 128, 32)
    whole = reviews.review("draw", tmp_path / "whole", seed=9, jobs=1, sizes=sizes)

    def stop(question: str, done: int, total: int) -> None:
        if question == "luck":
            raise KeyboardInterrupt

    out = tmp_path / "broken"
    with pytest.raises(KeyboardInterrupt):
        reviews.review("draw", out, seed=9, jobs=1, sizes=sizes, progress=stop)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    # other rules, another seed, other sizes: each once rewrote sizes.json and played its own
    # cells beside the first review's, which then could never be finished
    for kw, needle in (({"rules": {"edge": "first"}, "seed": 9, "sizes": sizes},
                        r"played with the rules edge=none \(this one edge=first\)"),
                       ({"seed": 10, "sizes": sizes}, "seed 9"),
                       ({"seed": 9, "sizes": Sizes(1 << 11, 128, 1024, 128, 32)}, "played with sizes")):
        with pytest.raises(SimtoolError, match=needle):
            reviews.review("draw", out, jobs=1, **kw)
        assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    again = reviews.review("draw", out, jobs=1, sizes=sizes)  # the first review's command, without --seed
    assert again["questions"] == whole["questions"] and again["seed"] == 9


def test_printed_changes_carry_their_units_as_the_page_does(finished):
    # the printed change lines once gave raw numbers: a 27.3% tension as 0.273 beside a seat
    # edge's 0.579 points, with nothing to tell a share from points
    _, r = finished
    changed = dict(r, changes=[
        {"question": "tension", "before": 0.273, "after": 0.303, "delta": 0.03, "ci": [0.02, 0.04],
         "better": True, "change": "better"},
        {"question": "seats", "before": 0.579, "after": 2.5, "delta": 1.921, "ci": [1.5, 2.3],
         "better": False, "change": "worse"},
        {"question": "match: rounds", "before": 3.04, "after": 3.5, "delta": 0.46, "ci": [0.4, 0.5],
         "better": None, "change": "changed"}])
    lines = [x for x in reviews.summary_lines(changed) if x.startswith("change in")]
    assert lines == [
        # stored "better" as tension was before it had no better side (tests/test_words31.py)
        "change in tension: 27.3% -> 30.3% (difference +3.0 points (+2.0 to +4.0), independent): "
        "changed, high tension in both",
        "change in seats: 0.6 points -> 2.5 points (difference +1.9 points (+1.5 to +2.3), independent): "
        "worse, by 1 point or more",
        "change in match: rounds: 3.04 -> 3.50 (difference +0.46 (+0.40 to +0.50), independent): changed"]


@pytest.mark.parametrize("game, players, vs", [("black-white", 3, "hand_size=12"), ("kansas-city", 4, "limit=3")])
def test_a_vs_rule_that_plays_the_reviewed_rules_is_refused(tmp_path, monkeypatch, game, players, vs):
    # hand_size=12 is the sheet's hand at 3 players: the review once played every question
    # twice and printed ten "no clear change" rows of identical figures
    monkeypatch.setattr(reviews, "pilot", lambda *a: pytest.fail("played before refusing"))
    one_line_error(cli("review", "-g", game, "-p", players, "--vs-rule", vs, "--out", tmp_path / "r", "-q"),
                   "gives the rules under review", "as played")
    assert not (tmp_path / "r").exists()


def test_a_common_plain_rate_is_not_shaded_as_a_warning(finished):
    # Black & White's 'balanced' is a rate, not a risk: its card was red for 'common' while the
    # changes table already called it a rate with no better side
    out, r = finished
    (h,) = r["questions"]["hazards"]
    assert h["risk"] is False and h["verdict"] == "common"
    page = (out / "review.html").read_text()
    assert '<article class="card none" data-question="hazard-balanced"' in page
    from simtool.reports import review as pages

    risky = dict(r["questions"], hazards=[dict(h, risk=True)])
    assert next(c for c in pages.cards(risky) if c["key"] == "hazard-balanced").get("tone") is None  # by its word
