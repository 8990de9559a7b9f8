"""A figure every match shared (Kansas City's 3 hands a match) is no measured change in a review's
comparison, nor an unclear verdict wanting more matches."""

from __future__ import annotations

from simtool.analysis import review as answers
from simtool.analysis import verdicts
from simtool.reports.review import change_rows


def questions(rounds: float, rounds_ci: list[float]) -> dict:
    fig = {"value": 0.02, "ci": [0.01, 0.03], "name": "x"}
    return {"seats": {"figure": fig}, "skill": {}, "luck": {"figure": fig}, "tension": {"figure": fig},
            "hazards": [], "restrictions": [],
            "match": {"rounds": rounds, "rounds_ci": rounds_ci, "capped": 0.0, "capped_ci": [0.0, 0.107]}}


def test_rounds_every_match_alike_in_both_versions_read_fixed_by_the_rules():
    # before: "change in match: rounds: 3.0 -> 3.0 (difference 0.0 (0.0 to 0.0), independent): no clear change"
    rows = {r["question"]: r for r in answers.changes(questions(3.0, [3.0, 3.0]), questions(4.0, [4.0, 4.0]))}
    assert rows["match: rounds"]["change"] == rows["match: capped"]["change"] == "the same in every match"
    shown = change_rows({"questions": {"hazards": []}, "changes": list(rows.values())})
    lines = [f"change in {c['name']}: {c['before_text']} -> {c['after_text']} (difference {c['delta_text']}, "
             f"{c['interval_text']}): {c['reads']}" for c in shown if c["name"].startswith("match")]
    assert lines == ["change in match: rounds: 3.0 -> 4.0 (difference +1.0, every match lasted 3, then 4, rounds): "
                     "no interval, every match as long",
                     "change in match: capped: 0.0% -> 0.0% (difference 0.0 points, every match lasted 3, then 4, "
                     "rounds, short of the 200-round cap): no interval, every match as long"]


def test_rounds_that_vary_are_still_measured():
    rows = {r["question"]: r for r in answers.changes(questions(3.2, [3.1, 3.3]), questions(3.0, [3.0, 3.0]))}
    assert rows["match: rounds"]["change"] == "changed" and rows["match: capped"]["change"] == "no clear change"


def test_the_match_verdict_of_matches_all_as_long_wants_no_more_matches():
    # before: "unclear whether rare or common; about 349 more matches would settle it"
    v = verdicts.match_verdict((3.0, 3.0, 3.0), (0.0, 0.0, 0.107), 32, 200)
    assert (v.word, v.more) == ("rare", None)
    assert v.sentence == "Every match played (32) lasted 3 rounds, so none came near the 200-round cap."


def test_the_page_shows_no_measured_interval_for_a_length_the_rules_fix(bw_review):
    # before: the match card read "0.0% (95% interval 0.0 to 10.7%)" of matches stopped by the cap
    # and the tension table "Rounds per match 3.00 | 3.00 to 3.00", as if measured
    import copy

    from simtool.reports import review as pages

    result = copy.deepcopy(bw_review[1])
    q = result["questions"]
    q["match"].update(rounds=3.0, rounds_ci=[3.0, 3.0])
    rounds = next(r for r in q["tension"]["table"] if r["figure"] == "Rounds per match")
    rounds.update(value=3.0, ci=[3.0, 3.0])
    match_card = next(c for c in pages.cards(q) if c["key"] == "match")
    assert (match_card["figure"], match_card["chart"]) == ("", "")
    assert "<td>Rounds per match</td><td>3.00</td><td>none: the same in every match</td>" in pages.render(result)


def test_a_few_matches_all_as_long_are_not_said_to_be_fixed_by_the_rules(tmp_path):
    # Black & White plays a tie-break round after p rounds while the lead is shared (1 match in
    # 25 or so): its 16 matches of seed 1 all lasted 3 rounds. before: "Every match lasts 3
    # rounds, as the rules fix it (all 16 matches played), so none can reach the 200-round cap."
    # and its change rows "fixed by the rules, not measured", claims the matches cannot make
    from pathlib import Path

    import polars as pl

    from simtool import games
    from simtool.commands.run import run

    run("black-white", 16, unit="match", seed=1, jobs=1, out=tmp_path / "m")
    matches = pl.read_parquet(tmp_path / "m" / "matches.parquet")
    assert set(matches["rounds"]) == {3}
    _, shape = answers.match_questions(games.get("black-white"), Path(tmp_path / "m"))
    assert shape["sentence"] == "Every match played (16) lasted 3 rounds, so none came near the 200-round cap."
    assert "rules" not in shape["sentence"] and "rules" not in answers.FIXED
