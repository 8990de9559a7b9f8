"""The changes table says how big a change is, not only its direction: with hundreds of thousands
of deals Kansas City's pass_count=2 moved the overshoot hazard +0.10 points (+0.02 to +0.18) and
the row read "worse", as a seat edge moved 5 points did. Each row is now judged against the
smallest difference that matters to its question, the first threshold of that question's own
verdict (simtool.analysis.review.MATTERS), in the console, on the page and in review.json."""

from __future__ import annotations

import copy
import json

import pytest

from simtool.analysis import review as answers
from simtool.analysis import verdicts
from simtool.commands import review as reviews
from simtool.reports import review as pages


def _fig(value: float, low: float, high: float) -> dict:
    return {"value": value, "ci": [low, high]}


def _version(seats, skill, tension, overshoot, cost, luck, queen, rounds) -> dict:
    """Review questions with these figures, each ``(value, low, high)``: edges, gains and costs
    in points, shares and rates as fractions."""
    return {"seats": {"figure": _fig(*seats)}, "skill": {"figure": _fig(*skill)}, "luck": {"figure": _fig(*luck)},
            "tension": {"figure": _fig(*tension)},
            "hazards": [{"name": "overshoot", "rate": overshoot[0], "ci": list(overshoot[1:]), "risk": True},
                        {"name": "queen", "rate": queen[0], "ci": list(queen[1:]), "risk": True, "seat": 1}],
            "restrictions": [{"name": "no-upgrade", "cost_pts": cost[0], "ci_pts": list(cost[1:]), "changed": 900}],
            "match": {"rounds": rounds[0], "rounds_ci": list(rounds[1:]), "capped": 0.0, "capped_ci": [0.0, 0.0003]}}


BEFORE = _version(seats=(2.0, 1.9, 2.1), skill=(20.0, 10.0, 30.0), tension=(0.30, 0.29, 0.31),
                  overshoot=(0.3550, 0.3545, 0.3555), cost=(5.0, 4.0, 6.0), luck=(0.02, 0.015, 0.025),
                  queen=(0.25, 0.248, 0.252), rounds=(3.0, 2.9, 3.1))
AFTER = _version(seats=(7.0, 6.9, 7.1), skill=(22.0, 12.0, 32.0), tension=(0.302, 0.292, 0.312),
                 overshoot=(0.3560, 0.3555, 0.3565), cost=(6.5, 5.5, 7.5), luck=(0.05, 0.045, 0.055),
                 queen=(0.30, 0.298, 0.302), rounds=(3.5, 3.4, 3.6))


@pytest.fixture(scope="module")
def rows() -> dict[str, dict]:
    return {c["question"]: c for c in answers.changes(BEFORE, AFTER)}


def test_the_interval_decides_the_size_against_the_threshold():
    # whole interval within ± the threshold: small; all of it at or past it: not; across it: unknown
    assert verdicts.change_small(0.0002, 0.0018, 0.01) is True
    assert verdicts.change_small(-0.004, 0.003, 0.01) is True  # holding 0: no change that matters
    assert verdicts.change_small(3.0, 7.1, 1.0) is False
    assert verdicts.change_small(-7.1, -1.0, 1.0) is False  # at the threshold belongs to the band above
    assert verdicts.change_small(0.2, 1.0, 1.0) is None  # may reach 1 point: not "under 1 point"
    assert verdicts.change_small(-14.0, 18.0, 3.0) is None
    assert verdicts.change_small(0.1, 0.2, None) is None  # no threshold: unjudged
    assert verdicts.change_small(float("nan"), float("nan"), 1.0) is None  # no interval


def test_each_row_takes_the_first_threshold_of_its_questions_verdict(rows):
    assert rows["seats"]["threshold"] == verdicts.SEAT_THRESHOLDS[0] == 1.0
    assert rows["skill"]["threshold"] == verdicts.SKILL_THRESHOLDS[0] == 3.0
    assert rows["hazards: overshoot"]["threshold"] == verdicts.HAZARD_THRESHOLDS[0] == 0.01
    assert rows["restrictions: no-upgrade"]["threshold"] == verdicts.RESTRICTION_THRESHOLDS[0] == 1.0
    assert rows["match: capped"]["threshold"] == verdicts.HAZARD_THRESHOLDS[0]
    # the most exposed seat's rate: its verdict is the seat verdict's, 1 point of its gap
    assert rows["hazards: queen (the most exposed seat)"]["threshold"] == pytest.approx(0.01)
    # none: luck's bands are 30 points wide, tension's first band is a level (low), not a
    # negligible difference, match length has no verdict
    assert rows["luck"]["threshold"] is None and rows["match: rounds"]["threshold"] is None
    assert rows["tension"]["threshold"] is None


def test_the_four_cases_clear_large_clear_small_equivalent_and_unclear(rows):
    large, small = rows["seats"], rows["hazards: overshoot"]
    same, unclear = rows["match: capped"], rows["skill"]
    across = rows["restrictions: no-upgrade"]
    # the old words stay for what reads review.json: "change" and "better" as before
    assert (large["change"], large["better"], large["small"]) == ("worse", False, False)
    assert large["ci"][0] >= 1.0
    assert (small["change"], small["better"], small["small"]) == ("worse", False, True)
    assert 0 < small["ci"][0] and small["ci"][1] < 0.01
    assert (same["change"], same["small"]) == ("no clear change", True)
    assert (unclear["change"], unclear["small"]) == ("no clear change", None)
    assert (across["change"], across["small"]) == ("better", None)  # +0.09 to +2.9 points: across 1
    assert rows["luck"]["change"] == "changed" and rows["luck"]["small"] is None


def _reads(rows: dict[str, dict]) -> dict[str, str]:
    return {r["question"]: r["reads"] for r in pages.change_rows({"changes": list(rows.values())})}


def test_the_words_say_how_big_each_change_is(rows):
    reads = _reads(rows)
    assert reads["seats"] == "worse, by 1 point or more"
    assert reads["hazards: overshoot"] == "worse, by under 1 point (too small to matter)"
    assert reads["match: capped"] == "no change that matters (under 1 point either way)"
    assert reads["tension"] == "no clear change"  # within 10 points either way, but not sized
    assert reads["skill"] == "no clear change"
    assert reads["restrictions: no-upgrade"] == "better, unclear whether by under 1 point or more"
    assert reads["hazards: queen (the most exposed seat)"] == "worse, by 1 point or more"
    # no threshold: no size; luck says the bands of its two figures (2% and 5%: low in both)
    assert reads["luck"] == "changed, low luck in both" and reads["match: rounds"] == "changed"
    assert reads["match: capped"] == "no change that matters (under 1 point either way)"


def test_an_interval_end_never_shows_on_the_threshold_it_is_under():
    # an end of 0.996 points read "+1.0" beside "by under 1 point"
    row = {"question": "seats", "before": 2.0, "after": 2.6, "delta": 0.6, "ci": [0.2, 0.996],
           "better": False, "change": "worse", "small": True, "threshold": 1.0}
    (shown,) = pages.change_rows({"changes": [row]})
    assert shown["delta_text"] == "+0.6 points (+0.2 to +0.996)"
    assert shown["reads"] == "worse, by under 1 point (too small to matter)"


def test_a_review_json_from_before_sizes_gets_them_on_rendering(rows):
    old = {k: v for k, v in rows["hazards: overshoot"].items() if k not in ("small", "threshold")}
    (shown,) = pages.change_rows({"changes": [old]})
    assert shown["reads"] == "worse, by under 1 point (too small to matter)"


def _compared(bw_review) -> dict:
    _, result = bw_review
    result = copy.deepcopy(result)
    result["versus"] = {"source": "vs-rule", "rules": {"deck": 40}, "questions": result["questions"]}
    result["comparison"] = {"possible": True, "why": None, "before": "the reviewed rules",
                            "after": "the --vs-rule rules"}
    result["changes"] = answers.changes(BEFORE, AFTER)
    return result


def test_the_console_prints_the_size(bw_review):
    lines = [x for x in reviews.summary_lines(_compared(bw_review)) if x.startswith("change in")]
    assert "change in rate overshoot: 35.5% -> 35.6% (difference +0.1 points (+0.03 to +0.2), independent): " \
           "worse, by under 1 point (too small to matter)" in lines
    assert next(x for x in lines if x.startswith("change in seats:")).endswith(": worse, by 1 point or more")
    assert next(x for x in lines if x.startswith("change in tension:")).endswith(": no clear change")


def test_the_page_shows_the_size_and_states_the_thresholds(bw_review):
    page = pages.render(_compared(bw_review))
    assert '<td class="change">worse, by under 1 point (too small to matter)</td>' in page
    # not bold as the large change is (a rate, not a hazard, on this page: Black & White has no overshoot)
    assert '<tr class="bad small"><td>Rate: overshoot</td>' in page
    assert '<tr class="bad"><td>Largest seat edge (points)</td>' in page
    assert '<td class="change">no change that matters (under 1 point either way)</td>' in page
    legend = page[page.index('<section id="changes">'):]
    legend = legend[:legend.index("</section>")]
    assert "of tension" not in legend
    for stated in ("1 point of a seat edge", "3 points of skill or of hidden information",
                   "1 point of a rate or a hazard&#39;s", "1 point of what a crude rule costs",
                   "Luck, tension and match length have no such threshold"):
        assert stated in legend, stated


def test_review_json_holds_the_size_and_its_threshold(bw_review, tmp_path):
    _, data = pages.write(tmp_path, _compared(bw_review))
    got = {c["question"]: c for c in json.loads(data.read_text())["changes"]}
    assert (got["hazards: overshoot"]["small"], got["hazards: overshoot"]["threshold"]) == (True, 0.01)
    assert (got["seats"]["small"], got["seats"]["threshold"]) == (False, 1.0)
    assert (got["skill"]["small"], got["luck"]["threshold"]) == (None, None)
    assert got["hazards: overshoot"]["change"] == "worse"  # the old word, kept for what reads it


def test_docs_state_the_fields_and_the_thresholds():
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs/review.md").read_text()
    assert '"small": true|false|null' in doc and '"threshold"' in doc
    assert "too small to matter" in doc and "no change that matters" in doc


def test_a_change_under_the_threshold_across_a_verdict_line_is_not_too_small_to_matter():
    # before: Hearts jack=on moved a crude rule's cost 0.7 -> 1.4 points, from "nearly as good"
    # (flagged) to "costs", and the changes row read "better, by under 1 point (too small to matter)"
    before = _version(seats=(2.0, 1.9, 2.1), skill=(20.0, 10.0, 30.0), tension=(0.30, 0.29, 0.31),
                      overshoot=(0.0085, 0.0080, 0.0090), cost=(0.7, 0.6, 0.8), luck=(0.02, 0.015, 0.025),
                      queen=(0.25, 0.248, 0.252), rounds=(3.0, 2.9, 3.1))
    after = _version(seats=(2.0, 1.9, 2.1), skill=(20.0, 10.0, 30.0), tension=(0.30, 0.29, 0.31),
                     overshoot=(0.0120, 0.0115, 0.0125), cost=(1.4, 1.3, 1.5), luck=(0.02, 0.015, 0.025),
                     queen=(0.25, 0.248, 0.252), rounds=(3.0, 2.9, 3.1))
    rows = {c["question"]: c for c in answers.changes(before, after)}
    cost, rate = rows["restrictions: no-upgrade"], rows["hazards: overshoot"]
    assert (cost["small"], cost["crosses"]) == (True, 1.0)
    assert (rate["small"], rate["crosses"]) == (True, 0.01)  # 0.85% rare -> 1.2% occasional
    assert rows["seats"]["crosses"] is None
    reads = _reads(rows)
    assert reads["restrictions: no-upgrade"] == "better, by under 1 point but across the verdict's 1 point line"
    assert reads["hazards: overshoot"] == "worse, by under 1 point but across the verdict's 1 point line"
    tones = {r["question"]: r["tone"] for r in pages.change_rows({"changes": list(rows.values())})}
    assert tones["restrictions: no-upgrade"] == "good" and tones["hazards: overshoot"] == "bad"  # bold
    # a review.json written before `crosses` is read the same when rendered again
    old = [{k: v for k, v in c.items() if k != "crosses"} for c in rows.values()]
    assert {r["question"]: r["reads"] for r in pages.change_rows({"changes": old})} == reads
