"""A figure the review says one way reads the same wherever else it is shown: a luck share held
at its floor of 0 in the run's and the report's luck tables and in the review's changes table,
restrict's points in the words of every other table, and a failing replay's hint."""

from __future__ import annotations

import html
import re

from simtool.analysis import review as answers
from simtool.analysis import verdicts
from simtool.cli import main
from simtool.reports import balance
from simtool.reports import review as pages

from .test_cli import cli
from .test_hardening_cli import main_error
from .test_words31 import _version


def _words(text: str) -> str:
    """Text as one line of words: the console wraps its sentences, the page breaks its tags."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def test_the_run_and_report_luck_tables_say_the_floor_as_the_review_does(tmp_path):
    # before: Black & White at 2 players, one balance against one duck, 1,000 duplicate deals:
    # the console's and the report's luck table and sentence read the cards' "0.0% (0.0–0.0)",
    # and the report's verdict "0.0% (95% interval 0.0 to 0.0%)", where the review said the floor
    run = tmp_path / "bw2"
    shown = cli("run", "--game", "black-white", "--players", "2", "--strategy", "duck", "--seat", "0=balance",
                "--duplicate", "--n", "1000", "--seed", "4", "--jobs", "1", "--out", run)
    assert shown.exit_code == 0, shown.output
    review = answers.luck_question(run)
    below = (review["unfloored"]["value"], *review["unfloored"]["ci"])
    clause = verdicts.floor_clause(below)  # the review's words: "at the floor of 0: their part was estimated..."
    assert clause in review["sentence"] and "-7.3% (95% interval -12.7 to -1.8%)" in clause
    console = _words(shown.output)
    assert "0.0% (0.0–0.0)" not in console and "0.0 to 0.0" not in console
    assert "the cards decide about 0.0% of a deal's score under these strategies, which" in console
    assert f"over deals. The cards' 0.0% is {clause}." in console
    a = balance.analyse(run, charts=False)
    (cells,) = [rows for caption, _, rows in a.metric_tables if caption == balance.LUCK_TABLE]
    cell = verdicts.floor_cell(0.0, below)
    assert cell == "0.0%, at the floor of 0: estimated -7.3% (95% interval -12.7 to -1.8%)"
    assert cells[0] == ["cards", cell, cell]  # the win's share is held there too, by the same deals
    assert cells[1][1] == "18.5% (14.8–22.5)"  # a share off the floor keeps its interval
    (luck,) = [sentence for question, _, sentence in a.verdicts if question == "Luck"]
    assert luck == f"The cards explain 0.0% of the variance of a seat's score, {clause}: low luck from the deal alone."
    assert any(f"over deals. The cards' 0.0% is {clause}." in x for x in a.findings)  # the report's sentence
    frame = dict(a.metrics)[balance.LUCK_TABLE]
    assert frame["score_share_unfloored"].to_list() == [below[0], None, None]


def _luck_at_floor(below: float) -> dict:
    """Review questions whose luck is held at its floor of 0, estimated ``below`` it; every other
    figure alike in both versions."""
    q = _version(luck=(0.0, 0.0, 0.0))
    q["luck"]["unfloored"] = {"value": below, "ci": [below - 0.006, below + 0.007]}
    return q


def test_the_changes_table_says_both_versions_sit_at_the_floor():
    # before: "luck 0.0% -> 0.0% (difference 0.0 points (0.0 to 0.0), independent): no clear
    # change", an interval of no width where neither version's share is known to the point
    (row,) = [c for c in answers.changes(_luck_at_floor(-0.045), _luck_at_floor(-0.039)) if c["question"] == "luck"]
    assert (row["ci"], row["interval"], row["change"]) == ([None, None], answers.FLOOR, "no clear change")
    (shown,) = pages.change_rows({"changes": [row]})
    assert (shown["before_text"], shown["after_text"], shown["delta_text"], shown["interval_text"], shown["reads"]) \
        == ("0.0%", "0.0%", "none measurable", "both at the floor of 0", "no clear change, low luck in both")
    # one version off the floor has a share to set against the other's 0: as before
    (off,) = [c for c in answers.changes(_luck_at_floor(-0.045), _version(luck=(0.05, 0.03, 0.07)))
              if c["question"] == "luck"]
    assert off["interval"] == answers.INDEPENDENT and off["ci"] == [0.03, 0.07]
    # deals alike in both keep the rule of three's interval of what the rule could move unseen
    (alike,) = [c for c in answers.changes(_luck_at_floor(-0.045), _luck_at_floor(-0.045), alike={"luck": (0.0, 0.01)})
                if c["question"] == "luck"]
    assert alike["interval"] == answers.ALIKE and alike["ci"] == [0.0, 0.01]


def test_restricts_table_heads_its_points_as_the_review_does(tmp_path):
    # before: 'simtool restrict -g hearts --n 2000 --seed 1' headed "win share cost" over cells of
    # "0.5 pts (-0.2 to 1.1)", where its sentences say "0.5 points of win share" and the review's
    # tables head their figures "(points)": "Win share it costs (points, 95% interval)"
    from simtool.analysis import restrict

    assert restrict.fmt_cost(0.005, -0.002, 0.011) == "0.5 (-0.2 to 1.1)"  # the report's cells too
    r = cli("restrict", "-g", "kansas-city", "--n", "20", "--seed", "1", "-j", "1", "--restrictions", "no-upgrade",
            "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    assert "win share cost (points)" in r.output and " pts" not in r.output


BOOM = """import os

from simtool import bits


def boom(view, rng):
    if os.environ.get("FLOOR31_FAIL"):
        raise RuntimeError("boom")
    return bits.lowest(view.legal)
"""


def test_a_failed_replay_names_its_deal_without_a_hint_to_replay_it(tmp_path, capsys, monkeypatch):
    # before: 'simtool replay -g black-white --seat 1=boom.py:boom --n 100 --seed 5 --deal 0' ended
    # "(..., deal 0 of the run with seed 5, n 100: `simtool replay --seed 5 --n 100 --deal 0` with the
    # run's other options writes it out)": the command just run, which fails alike
    bot, run = tmp_path / "boom.py", tmp_path / "r"
    bot.write_text(BOOM)
    setting = ["-g", "black-white", "--seat", f"1={bot}:boom", "--n", "100", "--seed", "5"]
    assert main([*map(str, ["run", *setting, "-j", "1", "-q", "-o", run])]) == 0
    monkeypatch.setenv("FLOOR31_FAIL", "1")
    for argv in (["replay", *setting, "--deal", "0"], ["replay", "--run", run, "--deal", "0"]):
        text = main_error(capsys, argv, "boom")
        assert text.endswith("deal 0 of the run with seed 5, n 100)") and "simtool replay" not in text, text
    # a run's failure still says how to write the deal out
    assert "`simtool replay --seed 5 --n 100 --deal 0` with the run's other options writes it out" in main_error(
        capsys, ["run", *setting, "-j", "1", "-q", "-o", tmp_path / "again"], "boom")
