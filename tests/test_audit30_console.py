"""Audit 30: `simtool review`'s console printed each verdict word with no threshold it comes from
("skill: much. ... much skill.", "hazard overshoot: common. ..."), where `simtool run`'s seat
line and the page's cards state them."""

from __future__ import annotations

from simtool.analysis import verdicts
from simtool.commands.review import summary_lines


def _answer(v: verdicts.Verdict) -> dict:
    return {"verdict": v.word, "sentence": v.sentence, "thresholds": v.thresholds}


def test_each_console_verdict_states_its_thresholds():
    seats = verdicts.seat_verdict([(0, 0.272, 0.270, 0.273), (1, 0.25, 0.248, 0.252), (2, 0.24, 0.238, 0.242),
                                   (3, 0.238, 0.236, 0.240)], 4, 98_304)
    q = {"seats": _answer(seats),
         "skill": _answer(verdicts.skill_verdict((21.0, 13.5, 28.6), (32.6, 24.3, 40.4), (1.3, -5.0, 8.7), 128)),
         "luck": _answer(verdicts.luck_verdict(0.017, 0.016, 0.020, 65_536)),
         "tension": _answer(verdicts.tension_verdict((0.257, 0.249, 0.265), (0.52, 0.51, 0.53),
                                                     (0.70, 0.69, 0.71), 12_288)),
         "hazards": [{**_answer(verdicts.hazard_verdict("overshoot", "goes over the trick limit", 0.355, 0.354,
                                                       0.356, 98_304)), "name": "overshoot", "risk": True}],
         "restrictions": [{**_answer(verdicts.restriction_verdict("never upgrading", "target", 15.5, 15.2, 15.9,
                                                                  65_536)), "name": "no-upgrade"},
                          {"name": "pass-high", "verdict": "never binds", "sentence": "It changed no result.",
                           "thresholds": verdicts.stated(verdicts.RESTRICTION_WORDS, verdicts.RESTRICTION_THRESHOLDS)}],
         "match": _answer(verdicts.match_verdict((11.0, 10.9, 11.1), (0.0, 0.0, 0.001), 6144, 200))}
    lines = summary_lines({"questions": q})
    ends = {line.partition(":")[0]: line for line in lines}
    # before: each line ended on its sentence ("... a slight edge favouring seat 0 (95% interval ...).")
    assert ends["seats"].endswith("points). (fair < 1 point, slight 1 to < 3, strong >= 3.)")
    assert ends["skill"].endswith(" (little < 3 points, some 3 to < 10, much >= 10.)")
    assert ends["luck"].endswith(" (low < 30%, moderate 30% to < 60%, high >= 60%.)")
    assert ends["tension"].endswith(" (winner behind at half-time: low < 10%, some 10% to < 25%, high >= 25%.)")
    assert ends["hazard overshoot"].endswith(": common. (rare < 1%, occasional 1% to < 10%, common >= 10%.)")
    assert ends["crude play no-upgrade"].endswith(" (nearly as good < 1 point, costs >= 1.)")
    assert ends["match"].endswith(" (matches stopped by the cap: rare < 1%, occasional 1% to < 10%, common >= 10%.)")
    # a word that is no band of them gets none: "never binds" is not "nearly as good" or "costs"
    assert ends["crude play pass-high"] == "crude play pass-high: never binds. It changed no result."
