"""The console's hidden-information line said its verdict twice: "hidden information: not
measured. Not measured: the clairvoyant reference can only share ..."."""

from __future__ import annotations

from pathlib import Path

from simtool.analysis import review as answers
from simtool.commands.review import summary_lines


def test_hidden_information_not_measured_says_so_once():
    answer = answers.hidden_question({"over heuristic": Path("unread")}, "pimc")
    (line,) = summary_lines({"questions": {"hidden_information": answer, "hazards": [], "restrictions": []}})
    assert line.lower().count("not measured") == 1, line
    assert line == ("hidden information: not measured. The clairvoyant reference can only share pimc's play-outs "
                    "where a built-in strategy plays them (a plugin may not see the true deal).")


def test_skill_not_measured_says_so_once(monkeypatch):
    # "skill: not measured. No search strategy plays this game, so skill was not measured."
    monkeypatch.setattr(answers, "seats_question", lambda *a: {"verdict": "fair", "sentence": "s"})
    monkeypatch.setattr(answers, "luck_question", lambda *a: {"verdict": "low", "sentence": "l"})
    monkeypatch.setattr(answers, "match_questions", lambda *a: ({"verdict": "low", "sentence": "t"}, None))
    monkeypatch.setattr(answers, "hazards", lambda *a: [])
    monkeypatch.setattr(answers, "by_play", lambda folders, v: {"heuristic": [None], "duplicate": [None],
                                                                "matches": [None]} if folders else {})
    q = answers.questions(None, {"seats": [1], "skill": [], "luck": [1], "match": [1], "restrictions": []},
                          0, "balance", None)
    lines = summary_lines({"questions": q})
    assert [line for line in lines if line.lower().count("not measured") > 1] == []
    assert "skill: not measured. No search strategy plays this game: no stronger play to set against the default." \
        in lines
    # before: "... so hidden information was not priced.", the verdict said again
    assert "hidden information: not measured. No search strategy plays this game: no fair search to set one " \
           "that sees the hidden cards against." in lines
