"""Hostile round on the words and figures of `simtool sweep`, `simtool ladder` and the
comparison pages of `simtool report`: a figure printed beside a word never reads as the other
side of that word's threshold, and a mark follows from the interval shown with it. Each test
failed on the code before its fix."""

from __future__ import annotations

import re

import polars as pl
import pytest
from typer.testing import CliRunner

from simtool.cli import app
from simtool.reports import balance


@pytest.fixture(scope="module")
def kc_runs(tmp_path_factory):
    """Two small Kansas City runs on the same deals, 3 and 2 cards passed."""
    root = tmp_path_factory.mktemp("kc")
    folders = []
    for passed in (3, 2):
        out = root / f"pass{passed}"
        played = CliRunner().invoke(app, ["run", "--game", "kansas-city", "--strategy", "target", "--n", "200",
                                          "--seed", "3", "--jobs", "1", "--rule", f"pass_count={passed}",
                                          "--out", str(out), "-q"])
        assert played.exit_code == 0, played.output
        folders.append(out)
    return folders


def _seat_cells(page: str) -> list[str]:
    table = page[page.index('<table class="seat-advantage">'):]
    table = table[:table.index("</table>")]
    return [re.findall(r"<td>(.*?)</td>", row)[3] for row in re.findall(r"<tr><td>.*?</tr>", table)]


def test_the_seat_table_never_rounds_an_edge_onto_a_seat_threshold(kc_runs, monkeypatch, charts_undrawn):
    # before: seat 0 winning 2.96 points over the fair share (under 3: at most "slight") read
    # "+3.0 pts" in the run's seat-advantage table, where the comparison table and the verdict
    # beside it on the same page said "+2.96"; -0.99 read "-1.0 pts" (1 point: fair/slight)
    analyse = balance.analyse

    def edged(path, *args, **kwargs):
        a = analyse(path, *args, **kwargs)
        fair = 1 / a.p
        win = [fair + 0.0296, fair - 0.0099, fair + 0.0201, fair - 0.0398][:a.p]
        a.seats = a.seats.with_columns(pl.Series("win", win))
        return a

    monkeypatch.setattr(balance, "analyse", edged)
    page = balance.render(kc_runs[:1])
    assert _seat_cells(page) == ["+2.96 pts", "-0.99 pts", "+2.0 pts", "-4.0 pts"]


def _rung(share, low, high, fair, rung=2):
    from simtool.analysis import ladder as ladders

    return ladders.Rung(rung, "pimc@samples=8", "pimc@samples=4", share, low, high, fair, 0.1, None)


def test_a_rung_s_share_never_reads_as_the_other_side_of_fair_from_its_word(kc_runs):
    # before: a rung that pays, 40.0% per seat (33.4% to 47.0%) over a fair 33.3%, read "40.0% ±
    # 6.8%" (down to 33.2%, below fair) beside "yes" in `simtool ladder`'s table and the report's;
    # the rung where a 2-player ladder flattens, 56.0% (49.8% to 61.4%), read "wins 56.0% ± 5.8%
    # per seat ..., not clearly above the fair 50.0%": an interval from 50.2% up
    from simtool.analysis import ladder as ladders
    from simtool.cli import _ladder_table

    pays = _rung(0.40, 0.3340, 0.4700, 1 / 3)
    assert pays.verdict == "yes" and ladders.share_text(pays) == "40.0% (33.4–47.0%)"
    flat = _rung(0.56, 0.498, 0.614, 0.5)
    sentence = ladders.verdict(ladders.Ladder("hearts", 2, {}, "deal", [flat]))
    assert "wins 56.0% (49.8–61.4%) per seat" in sentence and "not clearly above the fair 50.0%" in sentence
    # an end is never printed as fair: 33.34% beside a fair 33.3%
    near = _rung(0.40, 0.33340, 0.4700, 1 / 3)
    assert ladders.share_text(near) == "40.00% (33.34–47.00%)"
    # where x% ± h% tells the same side as the word, as before: reaching fair as printed is "not
    # clearly above" (56.0% ± 6.0% from 50.0%)
    assert ladders.share_text(_rung(0.56, 0.497, 0.618, 0.5)) == "56.0% ± 6.0%"
    assert ladders.share_text(_rung(0.40, 0.34, 0.46, 1 / 3)) == "40.0% ± 6.0%"
    assert ladders.share_text(_rung(0.34, 0.28, 0.40, 1 / 3)) == "34.0% ± 6.0%"
    meta = {"game": "black-white", "rules": {}, "unit": "deal", "players": 3, "n": 200, "seed": 1}
    table = _ladder_table(ladders.Ladder("black-white", 3, {}, "deal", [pays]), meta)
    assert table.columns[3]._cells == ["40.0% (33.4–47.0%)"]


def test_a_marked_change_never_shows_an_interval_reaching_0():
    # before: a risk's rise of 0.3 points (0.01 to 0.59, surely up: red, "worse") read "+0.3 pts ±
    # 0.3 pts" in the runs-side-by-side table, an interval from 0.0 as printed, the same text as a
    # rise whose interval does reach 0; a mean score's fall of 1.5 (-2.99 to -0.01, bold:
    # "changed") read "-1.5 ± 1.5"; paired differences (d ± h) alike
    from simtool.reports.balance import change_class, show_change

    assert show_change(0.003, 0.0001, 0.0059, True) == "+0.3 pts (+0.01 to +0.6)"
    assert show_change(-1.5, -2.99, -0.01, False) == "-1.5 (-3.0 to -0.01)"
    rate = balance.Figure(0.33, 0.32, 0.34, None, percent=True, better="lower")
    assert change_class(rate, rate, 0.0001, 0.0059) == "worse"
    # where x ± h as printed keeps 0 on its side, as before
    assert show_change(0.02, 0.01, 0.03, True) == "+2.0 pts ± 1.0 pts"
    assert show_change(0.0034, -0.0001, 0.0069, True) == "+0.3 pts ± 0.4 pts"
    assert show_change(0.0004, -0.0096, 0.0104, True) == "0.0 pts ± 1.0 pts"
    assert show_change(1.5, 1.0, 2.0, False) == "+1.50 ± 0.50"


def test_a_converged_step_that_surely_loses_is_not_said_to_buy_almost_nothing():
    # before: a doubling whose gain is -5.0 points (-8.0 to -2.0: surely below fair) read
    # "Converged: ... under 1 point with 95% confidence: more search buys almost nothing", where
    # the larger budget surely plays worse
    from simtool.analysis import ladder as ladders

    loses = _rung(0.20, 0.17, 0.23, 0.25)
    sentence = ladders.convergence(ladders.Ladder("hearts", 4, {}, "deal", [loses]))
    assert ladders.converged(ladders.Ladder("hearts", 4, {}, "deal", [loses])) is True
    assert "gains -5.0 pts (-8.0 to -2.0)" in sentence and "almost nothing" not in sentence
    assert "clearly below fair: the larger budget plays worse here" in sentence
    # a step within a point of fair either way, as before
    flat = _rung(0.252, 0.245, 0.259, 0.25)
    assert ladders.convergence(ladders.Ladder("hearts", 4, {}, "deal", [flat])).endswith(
        "under 1 point with 95% confidence: more search buys almost nothing.")


def test_the_reviews_skill_answer_says_a_doubling_that_surely_loses_loses():
    """The review's skill sentence, as the ladder's since e594ec3: a doubled search at -5.0 points
    (-8.0 to -2.0) read 'buys -5.0 points (-8.0 to -2.0), under 1: the search has converged'."""
    from simtool.analysis import verdicts

    sentence = verdicts.skill_verdict((4.0, 2.0, 6.0), (20.0, 18.0, 22.0), (-5.0, -8.0, -2.0), 4000).sentence
    assert "surely less than nothing: the doubled search plays worse here" in sentence
    assert "under 1: the search has converged" not in sentence
    kept = verdicts.skill_verdict((4.0, 2.0, 6.0), (20.0, 18.0, 22.0), (0.2, -0.5, 0.9), 4000).sentence
    assert "under 1: the search has converged" in kept


def test_a_clairvoyant_reference_that_surely_loses_prices_nothing():
    """A designer's game whose clairvoyant reference (the search on the true deal, with the game's
    weak play-outs) surely lost to the fair search, -6.5 points (-10.5 to -2.6), read 'little, a
    game of the deal more than of reading the others' cards', a conclusion its numbers do not hold."""
    from simtool.analysis import verdicts

    sentence = verdicts.hidden_verdict((-6.5, -10.5, -2.6), 600).sentence
    assert "a game of the deal" not in sentence
    assert "surely wins less than pimc here, so this reference is too weak in this game" in sentence
    assert "a game of the deal" in verdicts.hidden_verdict((0.5, -0.5, 1.5), 6000).sentence


def test_the_ladders_reference_that_surely_loses_prices_nothing():
    """The ladder's reference rung, as the review's answer: clairvoyant at 61.7% against pimc's
    71.0% (a designer's game, weak play-outs) read 'knowing the hidden cards is worth -9.3 points'."""
    from pathlib import Path

    from simtool.analysis import ladder

    top = ladder.Rung(1, "pimc", "high", 0.710, 0.673, 0.745, 1 / 3, 0.5, Path("top"))
    ref = ladder.Rung(2, "clairvoyant", "high", 0.617, 0.578, 0.655, 1 / 3, 0.4, Path("ref"))
    sentence = ladder.reference_sentence(ladder.Ladder("trumpet", 3, {}, "deal", [top], reference=ref))
    assert "is worth" not in sentence
    assert "it surely wins less, -9.3 points" in sentence and "too weak in this game" in sentence


def test_a_reference_that_surely_loses_never_shows_an_interval_reaching_0():
    """'surely wins less' beside an interval printed '-6.0 to 0.0' (an end of -0.02 points) read
    as a loss the interval does not rule out; the ladder's sentence alike (-0.02 points: '0.0')."""
    from pathlib import Path

    from simtool.analysis import ladder, verdicts

    sentence = verdicts.hidden_verdict((-3.0, -6.0, -0.02), 600).sentence
    assert "(95% interval -6.0 to -0.02)" in sentence and "surely wins less" in sentence
    top = ladder.Rung(1, "pimc", "high", 0.710, 0.700, 0.720, 1 / 3, 0.5, Path("top"))
    ref = ladder.Rung(2, "clairvoyant", "high", 0.690, 0.670, 0.707, 1 / 3, 0.4, Path("ref"))
    gain, low, high = ladder.price(ladder.Ladder("trumpet", 3, {}, "deal", [top], reference=ref))
    assert high < 0 and round(100 * high, 1) == 0
    sentence = ladder.reference_sentence(ladder.Ladder("trumpet", 3, {}, "deal", [top], reference=ref))
    assert "it surely wins less, -2.0 points (-4.2 to -0.03)" in sentence


def test_a_reference_that_surely_loses_is_no_verdict_and_no_change():
    """A clairvoyant that surely lost to pimc, -6.5 points (-10.5 to -2.6), kept the word 'little'
    (review.json's verdict, the review card's headline: 'a game of the deal') beside a sentence
    saying the reference prices nothing, and its -6.5 stood in the changes table as what seeing
    every card wins, 'changed' against the other version's price."""
    from simtool.analysis import review, verdicts

    v = verdicts.hidden_verdict((-6.5, -10.5, -2.6), 600)
    assert v.word == "not measured" and v.more is None
    assert verdicts.hidden_verdict((-0.5, -2.0, 1.0), 6000).word == "little"

    def questions(price):
        h = verdicts.hidden_verdict(price, 600)
        return {"seats": {"figure": None}, "skill": {"figure": None}, "luck": {"figure": None},
                "tension": {"figure": None}, "hazards": [], "restrictions": [],
                "hidden_information": {"verdict": h.word, "figure": {"value": price[0], "ci": list(price[1:])}}}

    assert [c["question"] for c in review.changes(questions((4.0, 2.0, 6.0)), questions((-0.5, -1.5, 0.5)))] \
        == ["hidden information"]
    assert review.changes(questions((4.0, 2.0, 6.0)), questions((-6.5, -10.5, -2.6))) == []
    assert review.changes(questions((-6.5, -10.5, -2.6)), questions((4.0, 2.0, 6.0))) == []
