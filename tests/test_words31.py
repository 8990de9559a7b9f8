"""What the review's words say must read right beside its figures: a luck change said in luck's
bands, tension coloured as its cards are, a difference shown with the decimals its two figures
need, one crude rule's cost worded alike by `simtool restrict` and the review, and a luck interval
that claims no certainty it lacks."""

from __future__ import annotations

import copy
import json

from simtool.analysis import review as answers
from simtool.commands import review as reviews
from simtool.reports import review as pages


def _fig(value: float, low: float, high: float) -> dict:
    return {"value": value, "ci": [low, high]}


def _version(luck, tension=(0.30, 0.29, 0.31)) -> dict:
    """Review questions with these luck and tension figures ``(value, low, high)``, as fractions;
    every other figure alike in both versions."""
    return {"seats": {"figure": _fig(2.0, 1.9, 2.1)}, "skill": {"figure": _fig(20.0, 10.0, 30.0)},
            "luck": {"figure": _fig(*luck)}, "tension": {"figure": _fig(*tension)}, "hazards": [],
            "restrictions": [], "match": {"rounds": 3.0, "rounds_ci": [2.9, 3.1], "capped": 0.0,
                                          "capped_ci": [0.0, 0.0003]}}


# Trickster pip_limit=10 as the brief read it: luck 30.4% -> 23.3%, moderate -> low
MODERATE, LOW = _version(luck=(0.304, 0.301, 0.307)), _version(luck=(0.233, 0.230, 0.236))


def _rows(before: dict, after: dict) -> dict[str, dict]:
    return {c["question"]: c for c in pages.change_rows({"changes": answers.changes(before, after)})}


def test_a_luck_change_says_the_bands_it_moves_between():
    # before: "changed", with no word of the verdict's bands the two figures lie in
    luck = _rows(MODERATE, LOW)["luck"]
    assert luck["reads"] == "changed: moderate -> low luck"
    assert luck["tone"] == "none"  # luck has no better side: no green or red
    assert luck["crosses"] == 0.3 and luck["threshold"] is None  # crossed, and still not sized
    same = _rows(MODERATE, _version(luck=(0.40, 0.39, 0.41)))["luck"]
    assert same["reads"] == "changed, moderate luck in both"
    unclear = _rows(_version(luck=(0.305, 0.25, 0.36)), _version(luck=(0.295, 0.24, 0.35)))["luck"]
    assert unclear["reads"] == "no clear change (the estimates read moderate -> low luck)"


def _compared(bw_review, before: dict, after: dict) -> dict:
    _, result = bw_review
    result = copy.deepcopy(result)
    result["versus"] = {"source": "vs-rule", "rules": {"deck": 40}, "questions": result["questions"]}
    result["comparison"] = {"possible": True, "why": None, "before": "the reviewed rules",
                            "after": "the --vs-rule rules"}
    result["changes"] = answers.changes(before, after)
    return result


def test_the_console_page_and_review_json_say_the_luck_band_move(bw_review, tmp_path):
    result = _compared(bw_review, MODERATE, LOW)
    line = next(x for x in reviews.summary_lines(result) if x.startswith("change in luck:"))
    assert line.startswith("change in luck: 30.4% -> 23.3% (difference -7.1 points")
    assert line.endswith(": changed: moderate -> low luck")
    page = pages.render(result)
    assert '<tr class="none"><td>Luck: share the cards explain</td>' in page
    assert '<td class="change">changed: moderate -> low luck</td>' in page.replace("-&gt;", "->")
    assert "luck&#39;s and tension&#39;s say which of their verdict&#39;s bands" in page
    _, data = pages.write(tmp_path, result)
    (luck,) = [c for c in json.loads(data.read_text())["changes"] if c["question"] == "luck"]
    assert (luck["crosses"], luck["change"]) == (0.3, "changed")



def test_tension_is_neutral_in_the_changes_as_on_its_cards(bw_review):
    # before: 30% -> 40% of winners behind at half-time read "better" in green (red the other way)
    # beside tension cards that are neither good nor bad
    some, high = _version(luck=(0.3, 0.29, 0.31), tension=(0.20, 0.18, 0.22)), \
        _version(luck=(0.3, 0.29, 0.31), tension=(0.30, 0.28, 0.32))
    for before, after, reads in ((some, high, "changed: some -> high tension"),
                                 (high, some, "changed: high -> some tension")):
        row = _rows(before, after)["tension"]
        assert (row["change"], row["better"], row["tone"]) == ("changed", None, "none")
        assert row["reads"] == reads and row["threshold"] is None
    page = pages.render(_compared(bw_review, some, high))
    assert '<tr class="none"><td>Tension: winner behind at half-time</td>' in page
    assert "more tension" not in page
    cards = pages.cards(bw_review[1]["questions"])
    (tension,) = [c for c in cards if c["key"] == "tension"]
    assert pages.TONE[tension["verdict"]] not in ("good", "bad") and "tone" not in tension


def test_a_review_json_that_called_tension_better_reads_as_its_cards_when_rendered_again():
    old = {"question": "tension", "before": 0.20, "after": 0.30, "delta": 0.10, "ci": [0.07, 0.13],
           "better": True, "change": "better"}
    (row,) = pages.change_rows({"changes": [old]})
    assert (row["reads"], row["tone"]) == ("changed: some -> high tension", "none")


def _shown(question: str, before: float, after: float, low: float, high: float, change: str) -> str:
    row = {"question": question, "before": before, "after": after, "delta": after - before, "ci": [low, high],
           "better": None, "change": change, "small": None, "threshold": answers.matters(question),
           "crosses": None}
    (got,) = pages.change_rows({"changes": [row]})
    return f"{got['before_text']} -> {got['after_text']} (difference {got['delta_text']})"


def test_a_difference_has_the_decimals_its_two_figures_need():
    # before: "2.500 -> 2.503 (difference 0.0 (-0.005 to +0.01))", Black & White's rounds per match:
    # the difference 0.003 shown as 0.0 beside two figures written apart
    assert _shown("match: rounds", 2.5, 2.503, -0.005, 0.01, "no clear change") == \
        "2.500 -> 2.503 (difference +0.003 (-0.005 to +0.010))"
    # Trickster pip_limit=10's largest seat edge read "0.10 points -> 0.13 points (difference 0.0
    # points (-0.2 to +0.3))"
    assert _shown("seats", 0.10, 0.13, -0.2, 0.27, "no clear change") == \
        "0.10 points -> 0.13 points (difference +0.03 points (-0.20 to +0.27))"
    # figures one decimal tells apart keep one
    assert _shown("match: rounds", 12.3, 13.3, 0.5, 1.6, "changed") == "12.3 -> 13.3 (difference +1.0 (+0.5 to +1.6))"


def test_restrict_and_the_review_word_one_cost_alike():
    # before: Hearts' no-queen-dump, 0.6 points (0.5 to 0.7): `simtool restrict` said "costs" (any
    # cost surely above 0) where the review said "nearly as good (flagged)" (under 1 point)
    from simtool.analysis import restrict, verdicts

    row = {"doing": "never dumping the queen", "strategy": "ducker", "win_cost": 0.006, "win_cost_low": 0.005,
           "win_cost_high": 0.007, "deals": 20_000, "changed": 0.11}
    review = verdicts.restriction_verdict(row["doing"], row["strategy"], 0.6, 0.5, 0.7, 20_000, 0.11)
    assert restrict.verdict(0.006, 0.005, 0.007, 0.11) == review.word == "nearly as good"
    assert restrict.sentence(row) == review.sentence == (
        "Never dumping the queen costs ducker 0.6 points of win share per seat (95% interval 0.5 to 0.7): under "
        "1 point, though surely above 0, so this crude rule does nearly as well as full play (flagged).")
    for cost, low, high, changed in ((0.024, 0.021, 0.027, 0.2), (0.01, 0.005, 0.015, 0.2), (0.0, -0.001, 0.001, 0.0),
                                     (-0.02, -0.03, -0.01, 0.3)):
        pts = (100 * cost, 100 * low, 100 * high)
        assert restrict.verdict(cost, low, high, changed) == \
            verdicts.restriction_verdict("x", "y", *pts, 1000, changed).word
    assert "nearly as good < 1 point, costs >= 1" in restrict.THRESHOLDS_TEXT


def test_a_luck_interval_held_at_the_floor_says_what_lay_below_it(tmp_path, bw_review):
    # before: Black & White at 2 players, one balance against one duck, read "The cards explain
    # 0.0% (95% interval 0.0 to 0.0%)": every resample's cards' part was floored at 0, upper end
    # and all, where the estimate before the floor lay wholly below 0
    import numpy as np

    import simtool
    from simtool import stats
    from tests.calibration import luck_deals

    folder = tmp_path / "bw2"
    simtool.run("black-white", 2000, players=2, seats={0: "balance"}, strategy="duck", duplicate=True, seed=4,
                jobs=1, out=folder)
    luck = answers.luck_question(folder)
    assert luck["ci"] == [0.0, 0.0] and luck["verdict"] == "low"
    value, low, high = luck["unfloored"]["value"], *luck["unfloored"]["ci"]
    assert low < value < high < 0
    assert "0.0 to 0.0" not in luck["sentence"]
    assert ("The cards explain 0.0% of the variance of a seat's score with one balance against 1 duck (duplicate "
            "deals), at the floor of 0: their part was estimated below it, -6.6% (95% interval -10.3 to -2.7%)"
            ) in luck["sentence"]
    questions = copy.deepcopy(bw_review[1]["questions"])
    questions["luck"] = luck
    (shown,) = [c for c in pages.cards(questions) if c["key"] == "luck"]
    assert shown["figure"] == "0.0%, at the floor of 0: estimated -6.6% (95% interval -10.3 to -2.7%)"
    # where the floor holds no seat's part, the two agree to the bit, and the review asks for none
    y = luck_deals(np.random.default_rng(7), 400, 0.3)
    cards = stats.luck_shares(y).row(0, named=True)
    assert stats.luck_unfloored(y) == (cards["share"], cards["share_low"], cards["share_high"])
    assert answers.luck_question(bw_review[0] / "runs" / "luck" / next(
        p.name for p in (bw_review[0] / "runs" / "luck").iterdir() if p.is_dir()))["unfloored"] is None
