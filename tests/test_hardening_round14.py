"""Round 14: figures printed silently wrong, each checked against an answer recomputed by hand
(hard14): intervals of differences of win shares that reached past what a difference of two
shares can be, and verdict sentences that printed ``nan``."""

from __future__ import annotations

import math
from pathlib import Path

from simtool import stats
from simtool.analysis import ladder, verdicts
from simtool.commands import restrict


def test_a_price_of_hidden_information_never_reaches_past_100_points():
    # before: clairvoyant won both of 2 deals (Wilson 34.2% to 100%), pimc neither (0% to 65.8%):
    # "worth +100.0 points of win share per seat (95% interval 53.5 to 146.5)": much. A difference
    # of two win shares lies within -100 to +100 points, and its lower end is as far below as the
    # clairvoyant's share can be lower (65.8 points) and pimc's higher (65.8), combined: 7.0
    lo, hi = stats.wilson(2, 2)
    ref = ladder.Rung(2, "clairvoyant", "balance", 1.0, float(lo), float(hi), 1 / 3, 1.0, Path("ref"))
    lo, hi = stats.wilson(0, 2)
    top = ladder.Rung(1, "pimc", "balance", 0.0, float(lo), float(hi), 1 / 3, -0.5, Path("top"))
    found = ladder.price(ladder.Ladder("black-white", 3, {}, "deal", [top], reference=ref))
    assert found[0] == 1.0 and found[1] == 1 - math.hypot(1 - ref.low, top.high) and abs(found[1] - 0.070) < 0.001
    assert found[2] == 1.0  # before: 1.465
    v = verdicts.hidden_verdict(tuple(100 * x for x in found), 2)
    assert "95% interval 7.0 to 100.0" in v.sentence and v.word == "unclear"  # before: much
    # symmetric intervals: the half-widths combined, as before
    ref = ladder.Rung(2, "clairvoyant", "balance", 0.6, 0.55, 0.65, 0.25, 0.5, Path("ref"))
    top = ladder.Rung(1, "pimc", "balance", 0.4, 0.36, 0.44, 0.25, 0.2, Path("top"))
    found = ladder.price(ladder.Ladder("black-white", 4, {}, "deal", [top], reference=ref))
    half = math.hypot(0.05, 0.04)
    assert abs(found[1] - (0.2 - half)) < 1e-12 and abs(found[2] - (0.2 + half)) < 1e-12


def test_a_restriction_never_costs_more_than_100_points(tmp_path):
    # Kansas City, 2 paired deals, seed 5: never upgrading costs target 1 and 0.5 of a win, a mean
    # of 0.75 whose normal interval (2 deals) was printed "75.0 pts (26.0 to 124.0)"; the win a
    # seat loses is at most its whole win, 100 points
    table, _ = restrict.measure("kansas-city", tmp_path / "kc", n=2, seed=5, restrictions=["no-upgrade"], jobs=1)
    row = table.row(0, named=True)
    assert row["win_cost"] == 0.75
    # Student's interval on 1 degree of freedom, 0.75 ± 3.18, stops at both ends of what it can be
    assert row["win_cost_low"] == -1.0 and row["win_cost_high"] == 1.0  # before: 1.24


def test_a_verdict_from_one_unit_prints_no_nan():
    # before, from one deal or match (a review of sizes 1): "The cards explain nan% (95% interval nan
    # to nan%)", "A match lasts 12.0 rounds (95% interval nan to nan)", "A match has 2.0 lead changes
    # (nan to nan)", "costs ducker 0.0 points of win share per seat (95% interval nan to nan)"
    nan = math.nan
    luck = verdicts.luck_verdict(nan, nan, nan, 1)
    assert luck.word == "unclear" and "Too few deals to split the variance" in luck.sentence
    match = verdicts.match_verdict((12.0, nan, nan), (0.0, 0.0, 0.793), 1, 200).sentence
    assert "A match lasts 12.0 rounds (95% interval n/a); 0.0% of matches (95% interval 0.0% to 79.3%)" in match
    tension = verdicts.tension_verdict((0.0, 0.0, 0.793), (2.0, nan, nan), (1 / 3, 0.025, 0.906), 1).sentence
    assert "A match has 2.0 lead changes (n/a); the winner leads for good from 33.3% of the way through " \
           "(2.5% to 90.6%)" in tension
    cost = verdicts.restriction_verdict("never passing the queen", "ducker", 0.0, nan, nan, 1).sentence
    assert "0.0 points of win share per seat (95% interval n/a)" in cost
    for sentence in (luck.sentence, match, tension, cost):
        assert "nan" not in sentence
    # with an interval, as before
    assert "(95% interval 5.0 to 11.0%)" in verdicts.luck_verdict(0.08, 0.05, 0.11, 500).sentence


def test_the_strength_tables_hidden_information_that_rounds_to_0_has_no_sign():
    # docs/strength.md, Trickster pip_limit=20: pimc and clairvoyant both 0.605, the clairvoyant a
    # hair lower: "hidden info (pts) | -0.0", a side no figure shows; now "0.0", and +16.3 as before
    from simtool.analysis import strength

    def cell(role: str, share: float) -> strength.Cell:
        return strength.Cell("trickster", "pip_limit=20", role, "pimc" if role == "fair" else "clairvoyant",
                             "safe", 4, 4096, share, share - 0.013, share + 0.013, 0.25, 10.0, 1, 5.0)

    rows = [line for line in strength.markdown([cell("fair", 0.6051), cell("reference", 0.6050)], {}).splitlines()
            if line.startswith("| trickster")]
    assert rows[0].endswith("| 0.0 |")
    rows = [line for line in strength.markdown([cell("fair", 0.729), cell("reference", 0.892)], {}).splitlines()
            if line.startswith("| trickster")]
    assert rows[0].endswith("| +16.3 |")


def test_a_gain_that_rounds_to_0_has_no_sign_in_the_ladder_skill_and_pages(bw_review):
    # before: "knowing the hidden cards is worth +0.0 points (-46.5 to +46.5)" (simtool ladder, pimc
    # and clairvoyant both winning 2 of 2 deals), "+0.0 pts" in the ladder table, "+0.0 points against
    # balance" in the skill verdict, and "-0.0" in the review page's seat table: a side no figure shows
    import copy

    from simtool.reports import review as pages

    lo, hi = stats.wilson(2, 2)
    top = ladder.Rung(1, "pimc", "balance", 1.0, float(lo), float(hi), 1 / 3, 1.0, Path("top"))
    ref = ladder.Rung(2, "clairvoyant", "balance", 1.0, float(lo), float(hi), 1 / 3, 1.0, Path("ref"))
    sentence = ladder.reference_sentence(ladder.Ladder("black-white", 3, {}, "deal", [top], reference=ref))
    assert sentence.endswith("knowing the hidden cards is worth 0.0 points (-65.8 to +65.8).")
    fair = ladder.Rung(1, "high", "random", 0.2504, 0.23, 0.27, 0.25, 0.0, Path("r"))
    assert ladder.gain_points(fair) == "0.0 pts (-2.0 to +2.0)"
    # an end just above fair pays, and shows it: not "0.0", which would read as on fair
    pays = ladder.Rung(1, "high", "random", 0.27, 0.2504, 0.29, 0.25, 0.0, Path("r"))
    assert pays.pays and ladder.gain_points(pays) == "+2.0 pts (+0.04 to +4.0)"
    skill = verdicts.skill_verdict((0.03, -4.96, 5.04), (12.0, 8.0, 16.0), None, 500, heuristic="balance").sentence
    assert "and 0.0 points against balance (-5.0 to 5.0)" in skill
    _, result = bw_review
    result = copy.deepcopy(result)
    result["questions"]["seats"]["seats"][1]["edge_pts"] = -0.04
    result["questions"]["skill"]["over_heuristic_pts"] = 0.03
    page = pages.render(result)
    assert "<td>-0.0</td>" not in page and "<td>+0.0</td>" not in page and "<td>0.0</td>" in page
    assert "over the default heuristic 0.0 points" in page


def test_the_review_page_prints_no_nan_where_a_figure_has_no_value(bw_review):
    # before: matches that all last one round (Out-Trumped goal=1) have no comeback share: the
    # page's tension table read "nan% | nan% to nan%"; one duplicate deal gave the luck card
    # "nan% (95% interval nan to nan%)" and its table "nan%"; one match "12.00 | nan to nan"
    import copy

    from simtool.reports import review as pages

    _, result = bw_review
    result = copy.deepcopy(result)
    nan = math.nan
    rows = result["questions"]["tension"]["table"]
    for row in rows:
        if row["share"] and "behind" in row["figure"]:
            row["value"], row["ci"] = nan, [nan, nan]
        elif not row["share"]:
            row["ci"] = [nan, nan]
    luck = result["questions"]["luck"]
    luck["figure"] = {"name": "share of variance the cards explain", "value": nan, "ci": [nan, nan]}
    for part in luck["parts"]:
        part["share"], part["share_low"], part["share_high"] = nan, nan, nan
    page = pages.render(result)
    assert "nan" not in page.replace("nanosecond", "")
    rounds = next(r for r in rows if r["figure"] == "Rounds per match")
    assert f"<td>Rounds per match</td><td>{rounds['value']:.2f}</td><td>n/a</td>" in page
    assert "<td>Winner was behind at half-time</td><td>n/a</td><td>n/a</td>" in page
    assert pages.figure_text(0.26, 0.2, 0.33, "%", 100, 0) == "26% (95% interval 20 to 33%)"  # as before


def test_review_json_is_json_where_a_figure_has_no_value(tmp_path, monkeypatch):
    # Out-Trumped to 1 point: every match lasts one round, so no winner can be behind at half-time.
    # before: review.json held "behind_at_half": NaN (9 such tokens), which no JSON parser but
    # Python's takes; now null, read back as no figure, and the page still says n/a
    import json

    from simtool.commands import review as reviews

    # the NaN came from the matches; every other play at its least, at 2 players: the matches' one
    # round is the same at any count (the NaN was written at 2 as at 4); and no search plays, as
    # for a game no search plays (a deal of them, a second each, five plays in each of the two
    # reviews, was most of the CPU)
    monkeypatch.setattr(reviews, "search_names", lambda game_id: (None, None))
    r = reviews.review("out-trumped", tmp_path / "ot", players=2, rules={"goal": 1}, seed=5, jobs=1,
                       sizes=reviews.Sizes(deals=64, matches=8, restrictions=16, duplicate=8, search=1))
    text = (tmp_path / "ot" / "review.json").read_text()
    assert "NaN" not in text and json.loads(text) == r  # equal: no NaN, which equals nothing
    json.loads(text, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))  # strict JSON
    tension = r["questions"]["tension"]
    assert tension["behind_at_half"] is None and tension["behind_at_half_ci"] == [None, None]
    assert tension["figure"] is None and "No match lasted more than one round" in tension["sentence"]
    page = (tmp_path / "ot" / "review.html").read_text()
    assert "<td>Winner was behind at half-time</td><td>n/a</td><td>n/a</td>" in page
    # a baseline read back with its nulls compares as before: figures without a value are left out
    again = reviews.review("out-trumped", tmp_path / "again", players=2, baseline=tmp_path / "ot", jobs=1)
    assert again["comparison"]["possible"] and "tension" not in {c["question"] for c in again["changes"]}


def test_a_change_of_lopsided_shares_is_not_called_better_beyond_what_their_intervals_allow():
    # the winner behind at half-time in 0 of 3 matches (Wilson 0% to 56.1%), then in 2 of 3 (20.8%
    # to 93.9%): the intervals overlap from 20.8% to 56.1%. Before: the half-widths centred on the
    # estimates gave "+66.7 points (+20.7 to +112.7)": better. Each end from the figures' own
    # distances to their ends (Newcombe): 66.7 - hypot(66.7 - 20.8, 56.1 - 0) = -5.8 points
    from simtool.analysis import review as answers

    def version(k: int) -> dict:
        lo, hi = stats.wilson(k, 3)
        fig = {"value": 1.0, "ci": [0.5, 1.5]}
        return {"seats": {"figure": fig}, "skill": {"figure": fig}, "luck": {"figure": fig},
                "tension": {"figure": {"value": k / 3, "ci": [float(lo), float(hi)]}}, "restrictions": [],
                "match": None, "hazards": []}

    rows = {c["question"]: c for c in answers.changes(version(0), version(2))}
    t = rows["tension"]
    lo0, hi0 = stats.wilson(0, 3)
    lo1, hi1 = stats.wilson(2, 3)
    assert t["delta"] == 2 / 3 and t["change"] == "no clear change" and t["better"] is None
    assert t["ci"][0] == 2 / 3 - math.hypot(2 / 3 - lo1, hi0) and abs(t["ci"][0] + 0.058) < 0.001
    assert t["ci"][1] == 2 / 3 + math.hypot(hi1 - 2 / 3, 0 - lo0)
    # symmetric intervals: the half-widths combined, as before
    assert rows["seats"]["ci"] == [-math.hypot(0.5, 0.5), math.hypot(0.5, 0.5)]


def test_the_largest_seat_edge_keeps_its_intervals_shape_when_compared():
    # one deal, seat 0 wins it: +75.0 points (-4.3 to +75.0) at 4 players. Before: the size of the
    # edge compared between versions read 75.0 (35.4 to 114.6), past the 75 points any seat of 4
    # can have; now as far below as the edge reaches toward fair, as far above as away from it
    from simtool.analysis import review as answers

    assert answers.magnitude(75.0, -4.3, 75.0)["ci"] == [75.0 - 79.3, 75.0]  # -4.3
    assert answers.magnitude(-30.0, -40.0, -10.0)["ci"] == [10.0, 40.0]  # a negative edge's size
    assert answers.magnitude(2.0, 1.0, 3.0)["ci"] == [1.0, 3.0]  # symmetric: as before


def test_a_restriction_costing_nothing_is_not_printed_on_the_threshold_of_nothing():
    # 300 paired deals, none differing: the rule of three bounds the cost at 1 - 0.05^(1/300) =
    # 0.994 points either way, inside the ± 1 point of "nothing". Before: "costs target nothing
    # measurable, 0.0 pts (-1.0 to 1.0)", an interval on the threshold it is said to lie within
    from simtool.analysis import restrict as costs

    bound = 1 - 0.05 ** (1 / 300)
    row = {"doing": "always passing the highest cards", "strategy": "target", "win_cost": 0.0,
           "win_cost_low": -bound, "win_cost_high": bound, "verdict": costs.verdict(0.0, -bound, bound), "deals": 300}
    assert row["verdict"] == "nearly as good"  # the review's word, once "nothing" (tests/test_words31.py)
    assert costs.fmt_cost(0.0, -bound, bound) == "0.0 (-0.99 to 0.99)"
    assert "(95% interval -0.99 to 0.99)" in costs.sentence(row)
    assert costs.fmt_cost(0.041, 0.032, 0.05) == "4.1 (3.2 to 5.0)"  # off the threshold: as before


def test_the_review_pages_seat_table_keeps_an_end_off_the_threshold_as_its_sentence_does(bw_review):
    # a Black & White review (deck=30, 3,000 deals, seed 5): seat 0's edge +0.63 points, -0.989 to
    # +2.29. Its sentence and card read "-0.99 to 2.3"; the page's seat table "-1.0 to 2.3", on
    # the 1 point of "slight" the end lies inside
    import copy

    from simtool.reports import review as pages

    _, result = bw_review
    result = copy.deepcopy(result)
    seat = result["questions"]["seats"]["seats"][0]
    seat["edge_pts"], seat["ci_pts"] = 0.6333, [-0.9891, 2.2943]
    page = pages.render(result)
    assert f"<td>Seat {seat['seat']}</td>" in page
    assert "<td>+0.6</td><td>-0.99 to 2.3</td>" in page and "<td>-1.0 to 2.3</td>" not in page


def test_the_reports_seat_edges_are_not_rounded_onto_the_seat_thresholds():
    # the balance report's runs-side-by-side table: a seat edge of +0.6 points, -0.989 to +2.29,
    # read "+0.6 pts (-1.0 to +2.3)", on the 1 point of "slight" its end lies inside; a
    # strategy's edge has no such threshold and keeps one decimal
    from simtool.reports import balance

    edge = balance.Figure(0.006333, -0.009891, 0.022943, None, points=True, better="fair")
    assert balance.show(edge) == "+0.6 pts (-0.99 to +2.3)"
    skill = balance.Figure(0.006333, -0.009891, 0.022943, None, points=True)
    assert balance.show(skill) == "+0.6 pts (-1.0 to +2.3)"
