"""Audit 30: the balance report's verdicts showed luck (duplicate deals), tension (whole matches)
and a rate one seat has every deal (Hearts' queen, worded fair/slight/strong) with no threshold
beside them: the note under the verdicts stated the seats' and the rates' alone."""

from __future__ import annotations

import pytest

import simtool
from simtool.reports import balance as report

NOTE = "Seats: fair when every seat's edge"


def _note(html: str) -> str:
    start = html.index(NOTE)
    return html[start:html.index("</p>", start)]


@pytest.mark.usefixtures("charts_undrawn")
def test_the_verdicts_note_states_the_thresholds_of_luck_tension_and_a_shared_rate(tmp_path):
    simtool.run("hearts", n=40, unit="match", seed=1, out=tmp_path / "matches")
    simtool.run("kansas-city", n=60, seats={0: "greedy"}, duplicate=True, seed=1, out=tmp_path / "duplicate")
    page = report.render([tmp_path / "matches", tmp_path / "duplicate"])
    assert "<td>Tension</td>" in page and "<td>Luck</td>" in page
    note = _note(page)
    # before: the note ended "... common from 10%. The words and terms are explained in the glossary"
    assert ("Luck: low when the cards explain surely under 30% of the variance of a seat's result, "
            "moderate 30% to under 60%, high from 60%.") in note
    assert ("Tension: low when the winner was behind at half-time in surely under 10% of matches, "
            "some 10% to under 25%, high from 25%.") in note
    assert "fair, slight or strong as the seats, on each seat's gap to its fair share" in note
    # a run of single deals with neither shows neither
    simtool.run("black-white", n=40, seed=1, out=tmp_path / "deals")
    plain = _note(report.render([tmp_path / "deals"]))
    assert "Luck:" not in plain and "Tension:" not in plain and "gap to its fair share" not in plain
