"""Hostile round on the review's words (round 10 of the review page): a figure the page shows
beside a verdict never reads as the other side of that verdict's threshold, and every word
follows from the numbers shown with it. Each test failed on the code before its fix."""

from __future__ import annotations

import copy

from simtool.analysis import verdicts
from simtool.reports import review as pages


def _verdict_from(result: dict, tension: tuple[float, float, float], luck: tuple[float, float, float]) -> dict:
    """``result`` with its tension and luck figures replaced, and their verdicts and sentences
    worded again from them, as the review words them."""
    result = copy.deepcopy(result)
    q = result["questions"]
    t = q["tension"]
    v = verdicts.tension_verdict(tension, (0.7, 0.5, 0.9), (0.7, 0.6, 0.8), t["n"])
    t["verdict"], t["sentence"] = v.word, v.sentence
    t["figure"] = {"name": "winner behind at half-time", "value": tension[0], "ci": list(tension[1:])}
    for row in t["table"]:
        if row["figure"] == "Winner was behind at half-time":
            row["value"], row["ci"] = tension[0], list(tension[1:])
    luck_answer = q["luck"]
    v = verdicts.luck_verdict(*luck, luck_answer["n"])
    luck_answer["verdict"], luck_answer["sentence"], luck_answer["share"] = v.word, v.sentence, luck[0]
    luck_answer["figure"] = {"name": "share of variance the cards explain", "value": luck[0], "ci": list(luck[1:])}
    for part in luck_answer["parts"]:
        if part["part"] == "cards":
            part["share"], part["share_low"], part["share_high"] = luck
    return result


def test_the_review_tables_never_round_a_verdicts_figure_onto_its_threshold(bw_review):
    # before: the winner behind at half-time in 9.98% of matches (9.97% to 18%, said "9.98%" and
    # "low tension" in the sentence and the card) read "10.0%" and "10.0% to 18.0%" in the
    # tension table, a figure the stated rule puts at "some"; the cards' share of the variance,
    # 29.98% (29.97% to 45%), "low" luck, read "30.0%" in the luck table; the skill paragraph
    # read the search's gain over random, +2.96 ("little" skill, under 3), as "+3.0" and the
    # doubling's +0.96 beside "the search has converged" (under 1 point) as "+1.0"
    _, result = bw_review
    result = _verdict_from(result, (0.0998, 0.0997, 0.18), (0.2998, 0.2997, 0.45))
    q = result["questions"]
    assert q["tension"]["verdict"] == "unclear" and "9.98% of matches" in q["tension"]["sentence"]
    assert q["luck"]["verdict"] == "unclear" and "30%" not in q["luck"]["sentence"]
    k = q["skill"]
    k["over_random_pts"], k["over_random_ci_pts"] = 2.96, [2.0, 2.97]
    k["doubling_pts"], k["doubling_ci_pts"] = 0.96, [0.5, 0.97]
    page = pages.render(result)
    assert "<td>Winner was behind at half-time</td><td>9.98%</td><td>9.97% to 18.0%</td>" in page
    assert "<td>cards</td><td>29.98%</td><td>29.97% to 45.0%</td>" in page
    assert "over random +2.96, the doubled search over the search +0.96" in page
    # the rows no verdict is on as before: a tenth of a percent
    first = next(r for r in q["tension"]["table"] if r["figure"] == "Winner was behind after the first round")
    assert f"<td>{first['figure']}</td><td>{100 * first['value']:.1f}%</td>" in page
    rest = next(p for p in q["luck"]["parts"] if p["part"] == "interplay")
    assert f"<td>interplay</td><td>{100 * rest['share']:.1f}%</td>" in page


def _row(question: str, before: float, after: float, low: float, high: float, change: str) -> dict:
    return {"question": question, "before": before, "after": after, "delta": after - before, "ci": [low, high],
            "better": {"better": True, "worse": False}.get(change), "change": change}


def test_a_clear_change_never_shows_a_difference_of_0(bw_review):
    # before: a hazard's rate 0.30% -> 0.34% of deals, its difference surely above 0 (+0.01 to
    # +0.07 points: "worse"), read "0.0 points (+0.01 to +0.07): worse" in the changes table
    # (and `simtool review`'s summary line): a difference of none beside the word for one
    _, result = bw_review
    result = copy.deepcopy(result)
    assert verdicts.change("lower", 0.0004, 0.0001, 0.0007) == "worse"
    result["changes"] = [_row("hazards: moon", 0.0030, 0.0034, 0.0001, 0.0007, "worse"),
                         _row("seats", 2.5, 2.5, -0.4, 0.4, "no clear change")]
    moon, seats = pages.change_rows(result)
    assert moon["delta_text"] == "+0.04 points (+0.01 to +0.1)"
    assert seats["delta_text"] == "0.0 points (-0.4 to +0.4)"  # none: no sign, as before
    result["comparison"] = {"possible": True, "why": None, "before": "the reviewed rules",
                            "after": "the --vs-rule rules"}
    page = pages.render(result)
    # the word with its size since tests/test_changesize.py: the rate surely moved under 1 point
    assert ("<td>+0.04 points (+0.01 to +0.1)</td><td class=\"change\">worse, by under 1 point (too small to "
            "matter)</td>") in page


def test_the_changes_table_never_rounds_a_figure_onto_its_questions_threshold(bw_review):
    # before: the largest seat edge 2.96 points ("slight" on its card: under 3) read "3.0 points"
    # in the changes table, the winner behind at half-time in 9.98% of matches ("low"), "10.0%",
    # a crude rule costing 0.97 points (flagged: under 1), "1.0 points"
    _, result = bw_review
    result = copy.deepcopy(result)
    result["changes"] = [_row("seats", 2.96, 3.5, -1.0, 2.0, "no clear change"),
                         _row("tension", 0.0998, 0.2497, 0.05, 0.25, "better"),
                         _row("restrictions: higher-colour", 0.97, 2.0, -0.5, 2.5, "no clear change"),
                         _row("luck", 0.5, 0.6, 0.01, 0.19, "changed"),
                         _row("match: rounds", 2.96, 3.04, 0.01, 0.15, "changed")]
    seats, tension, crude, luck, rounds = pages.change_rows(result)
    assert (seats["before_text"], seats["after_text"]) == ("2.96 points", "3.5 points")
    assert (tension["before_text"], tension["after_text"]) == ("9.98%", "24.97%")
    assert crude["before_text"] == "0.97 points"
    # a figure on a threshold stays there, and a figure with no word is not moved off one; two
    # that differ get the decimals that tell them apart ("3.0 -> 3.0" read as no change)
    assert (luck["before_text"], luck["after_text"]) == ("50.0%", "60.0%")
    assert (rounds["before_text"], rounds["after_text"]) == ("2.96", "3.04")


def test_a_shared_hazards_edge_is_labelled_with_the_seat_it_belongs_to(tmp_path):
    # before: Hearts' queen of spades, 300 deals of ducker, seed 2: review.json's hazard read
    # "seat": 1 (the most exposed, +2.0 points over its fair share) beside "edge_pts": -3.3 and
    # "ci_pts" of seat 2, the seat the sentence names: a reader took seat 1 for 3.3 points under
    # its share; now "edge_seat" names the seat of edge_pts and ci_pts
    import simtool
    from simtool import games
    from simtool.analysis import review as answers

    simtool.run(game="hearts", n=300, strategy="ducker", seed=2, out=tmp_path / "r", jobs=1)
    queen = next(h for h in answers.hazards(games.get("hearts"), tmp_path / "r") if h["name"] == "queen")
    by_seat = {e["seat"]: e for e in queen["seats"]}
    assert queen["rate"] == by_seat[queen["seat"]]["share"] == max(e["share"] for e in queen["seats"])
    named = by_seat[queen["edge_seat"]]
    assert (queen["edge_pts"], queen["ci_pts"]) == (named["edge_pts"], named["ci_pts"])
    assert queen["sentence"].startswith(f"Seat {queen['edge_seat']} takes the queen")
    assert queen["edge_seat"] != queen["seat"]  # the case that misled: the two are other seats


def test_a_crude_rule_that_surely_beats_full_play_is_said_to_beat_it():
    # before: "Never dumping the queen costs ducker -5.0 points of win share per seat (95% interval
    # -8.0 to -2.0): under 1 point, so this crude rule does nearly as well as full play", of a
    # restriction that surely wins more than the strategy it restricts (`simtool restrict` says
    # of the same figures "gains ducker ...: ducker chooses worse here than the restriction does")
    better = verdicts.restriction_verdict("never dumping the queen", "ducker", -5.0, -8.0, -2.0, 1000)
    assert better.word == "nearly as good" and better.figures["flagged"]
    assert "nearly as well" not in better.sentence
    assert better.sentence.endswith("(95% interval -8.0 to -2.0): under 1 point, and surely better than full play: "
                                    "ducker chooses worse here than this crude rule does (flagged).")
    # an interval that holds 0 is nearly as good, as before
    near = verdicts.restriction_verdict("never dumping the queen", "ducker", -0.5, -0.9, 0.3, 1000)
    assert near.sentence.endswith("under 1 point, so this crude rule does nearly as well as full play (flagged).")


def test_a_cards_share_that_is_not_0_never_shows_as_0():
    # before: a hazard in 0.03% of deals read "0.0% (95% interval 0.0 to 0.1%)" on its card beside
    # its sentence's "0.03% of deals (95% interval 0.01% to 0.1%)", and the winner behind at
    # half-time in 0.4% of matches "0% (95% interval 0 to 2%)" (the card's whole percents) beside
    # "0.4%": a rate of none, which the sentence beside it denies
    rare = verdicts.hazard_verdict("moon", "shoots the moon", 0.0003, 0.0001, 0.0008, 100_000)
    assert "in 0.03% of deals (95% interval 0.01% to 0.1%)" in rare.sentence
    assert pages.figure_text(0.0003, 0.0001, 0.0008, "%", 100, near=[0.01, 0.1]) == \
        "0.03% (95% interval 0.01 to 0.1%)"
    assert pages.figure_text(0.004, 0.001, 0.02, "%", 100, 0, near=[0.1, 0.25]) == "0.4% (95% interval 0.1 to 2%)"
    # a share of 0, and figures in points, as before
    assert pages.figure_text(0.0, 0.0, 0.16, "%", 100, near=[0.01, 0.1]) == "0.0% (95% interval 0.0 to 16.0%)"
    assert pages.figure_text(0.03, -0.5, 0.6, " points", near=[1.0, 3.0]) == \
        "0.0 points (95% interval -0.5 to 0.6 points)"


def test_the_changes_table_never_shows_a_share_that_is_not_0_as_0(bw_review):
    # before: a hazard's rate 0.03% -> 0.07% of deals read "0.0% -> 0.1%" in the changes table:
    # before it, none, where its card and sentence say 0.03%
    _, result = bw_review
    result = copy.deepcopy(result)
    result["changes"] = [_row("hazards: moon", 0.0003, 0.0007, 0.0001, 0.0007, "worse"),
                         _row("match: capped", 0.0, 0.0, -0.16, 0.16, "no clear change")]
    moon, capped = pages.change_rows(result)
    # a decimal more than their sentences, for the two to add up to the +0.04 points beside them
    # (tests/test_hostile24.py): "0.03% -> 0.1%" read +0.07
    assert (moon["before_text"], moon["after_text"]) == ("0.030%", "0.07%")
    assert (capped["before_text"], capped["after_text"]) == ("0.0%", "0.0%")  # none: as before
