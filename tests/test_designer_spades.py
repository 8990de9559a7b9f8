"""A partnership game brought by a designer (tests/designer_games/spades.py: seats 0+2 against
1+3, every seat scoring its partnership's score): what simtool once got wrong about it."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

import simtool
import strategies
from simtool.analysis import tension, verdicts
from simtool.commands.review import Sizes
from simtool.testing import Conformance, suite
from tests.designer_games.spades import Spades


class TestTheDesignersSpades(Conformance):
    """The whole suite passes a partnership game whose invariant says partners' totals are equal."""

    games = (Spades(),)


@pytest.fixture
def spades(installed):
    game = Spades()
    installed(game)
    return game


def test_the_suites_re_deal_check_starts_round_1_from_totals_the_game_can_reach(spades):
    """Before: the check set the totals before round 1 to 0, 1, 2, 3 (partners apart), which the
    designer's invariant 'partners' totals equal' refused: 'invariant broken in a re-dealt world at
    'play': partners' totals equal (deal 0)'. Now round 1 follows a round of the game itself."""
    suite.Conformance().test_worlds_show_the_seat_what_it_saw(spades, 4)


@pytest.fixture(scope="module")
def spades_matches(tmp_path_factory):
    """80 matches of random play (seed 2), for the tests that read a partnership's matches: the
    seat-against-seat and side-against-side tension of one run, where each played its own."""
    out = tmp_path_factory.mktemp("spades_matches") / "m"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, Spades()))
        return out, simtool.run("designer-spades", n=80, seed=2, unit="match", strategy="random", jobs=1, out=out)


def test_matches_without_a_sole_winner_are_not_said_to_last_one_round(spades_matches):
    """Partners always tie, so no match has a sole winner and every comeback figure is NaN. Before:
    'No match lasted more than one round' (the matches lasted 4.4 rounds) and 'the winner leads for
    good from nan% of the way through (n/a)'; the report's sentence said the same."""
    _, r = spades_matches
    _, table, _ = tension.analyse(r.seats.select("match", "round", "seat", "score"), r.matches, False)
    row = table.row(0, named=True)
    assert row["mean_rounds"] > 2

    def fig(name):
        return row[name], row[f"{name}_low"], row[f"{name}_high"]

    v = verdicts.tension_verdict(fig("winner_behind_at_half_time"), fig("mean_lead_changes"),
                                 fig("decided_share_of_match"), 80)
    assert v.word == "unclear" and v.more is None
    assert v.sentence.startswith("No match had a sole winner") and "nan" not in v.sentence
    assert "one round" not in v.sentence and "leads for good from" not in v.sentence
    text = tension.text(table, False)
    assert "no match had a sole winner" in text and "one round" not in text and "nan" not in text


PARTNERS = "Seats 0+2 and 1+3 scored alike in every deal, as partners: simtool compares seats, not partnerships"


def test_partners_are_found_only_where_seats_scored_alike_in_every_deal():
    rng = np.random.default_rng(1)
    side = rng.integers(-50, 100, (200, 2))
    assert verdicts.partners(side[:, [0, 1, 0, 1]]) == [(0, 2), (1, 3)]
    assert verdicts.partners(rng.integers(0, 5, (200, 4))) == []  # seats of their own
    assert verdicts.partners(side[:20, [0, 1, 0, 1]]) == []  # too few deals to tell chance ties
    assert verdicts.partners(side[:, [0, 1, 0, 0]]) == []  # seat 1 alone: not partnerships
    assert verdicts.partners(np.zeros((200, 4))) == []  # one side: nothing to compare


def test_a_partnership_games_seat_figures_say_partners_split_each_win(spades, tmp_path):
    """Every seat scores its partnership's score, so partners tie and split each win: a seat's share
    (fair 25%) and edge are half its partnership's. Before: 'Every seat wins within 1 point of a
    fair 25.0% of deals', and nothing said that each partnership wins about half the deals, nor
    that a 1-point seat edge is a 2-point partnership edge. After: the run's seat line, the report's
    seat verdict and the review's seats sentence say so, with each partnership's share."""
    from typer.testing import CliRunner

    from simtool.analysis import review
    from simtool.cli import app
    from simtool.pipeline.folders import load
    from simtool.reports import balance

    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["run", "--game", "designer-spades", "--n", "400", "--seed", "3",
                                 "--strategy", "random", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    line = r.stdout.replace("\n", " ")
    assert PARTNERS in line and "The partnerships win 0+2 " in line and "(fair 50.0% each)" in line
    meta, seats, _ = load(out)
    a = balance.analysis(meta, seats.collect(), None)
    assert a.verdicts[0][0] == "Seats" and PARTNERS in a.verdicts[0][2]
    assert PARTNERS in review.seat_answer(spades, out)["sentence"]
    won = [float(x) for x in re.findall(r"[0-9]\+[0-9] ([0-9.]+)%", a.verdicts[0][2])]
    assert len(won) == 2 and abs(sum(won) - 100) < 0.2


def test_the_report_points_a_designers_game_to_its_own_rules(spades, tmp_path, charts_undrawn):
    """Before: the report's run setup pointed to a page of simtool's rules folder named after the
    game (the game's id and '.md'), which does not exist; now the game's own ``sheet``; a built-in
    game's page as before."""
    from simtool.reports import balance

    simtool.run("designer-spades", n=60, seed=1, strategy="random", jobs=1, out=tmp_path / "s")
    simtool.run("hearts", n=60, seed=1, strategy="random", jobs=1, out=tmp_path / "h")
    balance.write([tmp_path / "s", tmp_path / "h"], tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "docs/rules/" + spades.id not in page
    assert "the complete rules are in tests/designer_games/spades.py, the sheet of tests.designer_games.spades" in page
    assert "the complete rules are in simtool&#39;s docs/rules/hearts.md" in page or \
        "the complete rules are in simtool's docs/rules/hearts.md" in page


def test_a_partnership_games_match_tension_is_measured_side_against_side(spades, spades_matches):
    """Partners split every match win, so no seat ever won a match alone. Before: tension had no
    winner to measure ('No match had a sole winner ...', 0.0 lead changes, first and second 0 points
    apart: the partners); after, each partnership is one side: comebacks, lead changes and the
    margin are the sides', and the sentences say so."""
    from simtool.analysis import review
    from simtool.pipeline.folders import load
    from simtool.reports import balance

    out, _ = spades_matches
    answer, _ = review.match_questions(spades, out)
    assert answer["behind_at_half"] is not None and 0 <= answer["behind_at_half"] <= 1
    assert answer["lead_changes"] > 0 and "sole winner" not in answer["sentence"]
    assert answer["sentence"].endswith("Partners count as one side: 0+2 against 1+3.")
    meta, seats, matches = load(out)
    a = balance.analysis(meta, seats.collect(), matches.collect())
    assert dict((q, s) for q, _, s in a.verdicts)["Tension"] == answer["sentence"]
    table = dict(a.metrics)[tension.TABLE].row(0, named=True)
    assert table["mean_margin"] > 0 and table["mean_lead_changes"] > 0
    assert tension.text(dict(a.metrics)[tension.TABLE], False, a.sides).endswith(
        "; partners count as one side: 0+2 against 1+3.")


SIZES = Sizes(deals=64, matches=40, restrictions=16, duplicate=8, search=32, random=64)


@pytest.fixture(scope="module")
def spades_review(tmp_path_factory):
    """One small review of the designer's Spades (seed 5), for the tests that read what it says.
    Its search weighs 1 and 2 worlds a decision, not 8 and 16: what is read of its plays is the
    partners its 32 deals show (a tie of partners' scores, whoever plays), and its worlds were a
    third of the review's CPU."""
    from simtool.commands import review as reviews

    out = tmp_path_factory.mktemp("spades") / "rv"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, Spades()))
        patch.setattr(reviews, "search_names", lambda game_id: (
            strategies.canonical("pimc@samples=1", game_id), strategies.canonical("pimc@samples=2", game_id)))
        return out, reviews.review("designer-spades", out, seed=5, jobs=1, sizes=SIZES)


def test_a_partnership_games_skill_answer_says_the_search_shares_its_gain(spades_review):
    """One pimc seat among random ones: its random partner wins every deal it wins, so its gain over
    a fair share is half its partnership's. Before: '+13.3 points over a fair share against random
    players' with no word of it; after, the sentence adds that the partnership gains twice these
    points, its partner's play included."""
    out, r = spades_review
    assert r["questions"]["skill"]["sentence"].endswith(
        "Partners split each win, so the search's partnership gains twice these points over its fair share, "
        "its partner's play included.")
    assert "its partner&#39;s play included" in (out / "review.html").read_text()


PLUGIN = '''
import numpy as np
from strategies import strategy


@strategy("spades-first", "the first legal option")
def first(view, rng):
    return view.mask.argmax(axis=1)
'''


def test_a_plugin_file_is_found_by_the_name_its_tables_show(tmp_path):
    """Before: ``heuristics.py:basic`` (the function) played and its tables showed
    ``heuristics.py:spades-basic`` (the declared name); that name, copied into a line-up, was
    "no strategy 'spades-basic' in heuristics.py; it defines: basic". Now either plays alike."""
    (tmp_path / "mine.py").write_text(PLUGIN)
    by_function = simtool.run("black-white", n=300, seed=1, jobs=1, seats={0: f"{tmp_path / 'mine.py'}:first"})
    by_label = simtool.run("black-white", n=300, seed=1, jobs=1, seats={0: f"{tmp_path / 'mine.py'}:spades-first"})
    assert set(by_label.seats["strategy"].cast(str)) >= {"mine.py:spades-first"}
    assert by_label.seats.equals(by_function.seats)


def test_a_partnership_review_says_its_published_metrics_read_every_deal_as_a_tie(spades_review, tmp_path):
    """Before: the review's published metrics gave Spades drawishness 1.000 and no drama or
    security, without a word; now review.json's seats answer names the partners and the page says
    what the per-seat definitions make of them. A game of seats alone has no partners."""
    from simtool.commands import review as reviews

    out, r = spades_review
    assert r["questions"]["seats"]["partners"] == [[0, 2], [1, 3]]
    assert r["metrics"]["drawishness"]["value"] == 1.0
    page = (out / "review.html").read_text()
    assert "Seats 0+2 and 1+3 are partners, who split every win: as these definitions read seats, every deal is " \
           "a tie for first (drawishness 1.000" in page
    # its search plays at 2 deals: the partners are read from the heuristic deals, the metrics' text from
    # the random ones (32 search deals were half of this review's CPU)
    bw = reviews.review("black-white", tmp_path / "bw", players=4, seed=5, jobs=1,
                        sizes=dataclasses.replace(SIZES, search=2))
    assert bw["questions"]["seats"]["partners"] == []
    assert "are partners" not in (tmp_path / "bw" / "review.html").read_text()
