"""Hostile round 11: the strength table, sweep lists, output folders behind broken links, and the
Python API's odd arguments. Each test failed on the code before its fix."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import simtool
from simtool.cli import main
from simtool.commands import strength

from .test_hardening_cli import main_error

BW = ["--game", "black-white", "--strategy", "random", "--jobs", "1", "-q", "--n", "10", "--seed", "1"]


# ---- the strength table -----------------------------------------------------------------------

def test_a_strength_table_naming_a_game_twice_is_refused():
    # before: `python bench/strength.py --games hearts,hearts` played every hearts cell twice and
    # wrote a table listing each of its rows twice
    with pytest.raises(simtool.SimtoolError, match=r"^game 'hearts' named twice; give each game once "
                                                    r"\(valid: black-white, .*hearts\)$"):
        strength.plan(["hearts", "black-white", "hearts"], n=16)
    assert len(strength.plan(["hearts"], n=16)) == 7  # a game named once: its seven cells


# ---- sweep lists -------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, needle", [
    (["--rule", "deck=30,,32"], "bad --rule 'deck=30,,32': an empty value; expected values separated by ','"),
    (["--players", "3,,4"], "bad --players '3,,4': an empty value"),
    (["--game", "black-white,"], "bad --game 'black-white,': an empty value"),
])
def test_an_empty_value_in_a_sweeps_list_is_named_as_written(capsys, tmp_path, argv, needle):
    # before: "bad --rule ['30,,32']; expected values separated by ','": a Python list, and the
    # rule's name left out
    text = main_error(capsys, ["sweep", "--game", "black-white", "--n", "10", "-j", "1", "-q",
                               "--runs", tmp_path / "s", "--out", tmp_path / "s.html", *argv], needle)
    assert "[" not in text
    assert not (tmp_path / "s").exists()


# ---- output folders ----------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["run", *BW, "--out", "{link}"],
    ["run", *BW, "--out", "{link}/sub"],
    ["sweep", "--game", "black-white", "--rule", "deck=30", "--n", "10", "-j", "1", "-q", "--runs", "{link}",
     "--out", "{tmp}/s.html"],
    ["tune", "--game", "black-white", "--vary", "deck=30,32", "--objective", "seat_spread", "--n", "10",
     "-j", "1", "-q", "--out", "{link}"],
])
def test_an_output_folder_behind_a_broken_link_says_so(capsys, tmp_path, command):
    # before: "cannot write to output folder x: File exists", of a name where nothing exists
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "gone")
    argv = [str(a).format(link=link, tmp=tmp_path) for a in command]
    main_error(capsys, argv, f"{link} is a link to {tmp_path / 'gone'}, which does not exist; remove the "
                             f"link or make what it points to")
    assert not (tmp_path / "gone").exists() and link.is_symlink()


@pytest.mark.parametrize("out, quoted", [(" ", "' '"), (Path("  "), "'  '")])
def test_a_blank_output_folder_is_quoted_as_written(out, quoted):
    # before, from the command line and with a Path: "bad out PosixPath(' '); ..."
    with pytest.raises(simtool.SimtoolError, match=f"^bad out {quoted}; expected a folder path"):
        simtool.run("black-white", n=10, seed=1, out=out)


def test_a_blank_out_on_the_command_line_is_quoted_as_written(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = main_error(capsys, ["run", *BW, "--out", " "], "bad --out ' '; expected a folder path")
    assert "PosixPath" not in text and os.listdir(tmp_path) == []


@pytest.mark.parametrize("command", [
    ["report", "{run}", "--out", "{link}/page.html"],
    ["sweep", "--game", "black-white", "--rule", "deck=30", "--n", "10", "-j", "1", "-q", "--seed", "1",
     "--runs", "{tmp}/runs", "--out", "{link}/page.html"],
])
def test_a_report_behind_a_broken_link_is_refused_before_anything_is_played(capsys, tmp_path, command):
    # before: the path resolved through the link looked writable; the sweep played every cell and
    # then failed on "cannot write report ...: File exists"
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "gone")
    run = tmp_path / "run"
    if "report" in command:
        assert main(["run", *BW, "--out", str(run)]) == 0
        capsys.readouterr()
    argv = [str(a).format(link=link, tmp=tmp_path, run=run) for a in command]
    main_error(capsys, argv, f"cannot write report {link}/page.html: {link} is a link to {tmp_path / 'gone'}, "
                             f"which does not exist")
    assert not (tmp_path / "runs").exists() and not (tmp_path / "gone").exists()


# ---- figures -----------------------------------------------------------------------------------

def test_the_deals_that_would_settle_a_seat_verdict_follow_its_lopsided_interval():
    # before: seat 3 of a 512-match Hearts run, 6.3 points under the fair 25% (-9.5 to -2.8), was
    # "unclear whether slight or strong; about 1 more match would settle it": the half-width (3.35)
    # was taken for the interval's end facing 3 points, which lies 3.58 from the estimate
    from simtool import stats
    from simtool.analysis import verdicts

    n, low_seat = 512, 95 / 512
    others = (1 - low_seat) / 3

    def shares(m: int) -> list[tuple[int, float, float, float]]:
        return [(s, w, *map(float, stats.wilson(w * m, m))) for s, w in enumerate([others] * 3 + [low_seat])]

    v = verdicts.seat_verdict(shares(n), 4, n, "matches")
    assert v.word == "unclear" and v.figures["seat"] == 3 and v.figures["ci_pts"][1] > -3
    settled, half_way = n + v.more, n + v.more // 2
    assert shares(settled)[3][3] - 0.25 == pytest.approx(-0.03, abs=0.0005)  # its end at 3 points then
    assert shares(half_way)[3][3] - 0.25 > -0.03  # not settled with half as many more
    assert f"about {v.more} more matches would settle it" in v.sentence and v.more > 40


# ---- plugins -----------------------------------------------------------------------------------

LOUD = '''
import sys
print("seat 0 wins 99.9%")
sys.stdout.write("forged\\n")
from simtool import bits


def quiet(view, rng):
    return bits.lowest(view.legal)
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_plugin_printing_as_it_is_imported_prints_to_standard_error(capsys, tmp_path, jobs):
    # before: `simtool run -q` printed the plugin's lines on standard output before the run's folder
    plugin = tmp_path / "loud.py"
    plugin.write_text(LOUD)
    out = tmp_path / "r"
    assert main(["run", "--game", "black-white", "--n", "40", "--seed", "1", "-q", "--jobs", jobs,
                 "--seat", f"0={plugin}:quiet", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert printed.out == f"{out}\n"
    assert "seat 0 wins 99.9%" in printed.err and "forged" in printed.err


# ---- tune --------------------------------------------------------------------------------------

@pytest.mark.parametrize("objective", ["seat_spread:", "first_seat_edge:", "overshoot=0.2:"])
def test_an_objective_with_a_colon_and_no_direction_is_refused(objective):
    # before: 'seat_spread:' was tuned as seat_spread's default direction, as if no colon were there
    from simtool import games
    from simtool.commands import tune

    with pytest.raises(simtool.SimtoolError, match=f"^bad objective '{objective}'; a direction is :min or :max$"):
        tune.parse_objective(games.get("kansas-city"), objective)
    assert tune.parse_objective(games.get("kansas-city"), "seat_spread:min").direction == "min"


# ---- review ------------------------------------------------------------------------------------

def test_an_empty_vs_rules_from_python_names_the_rules_it_could_change(tmp_path):
    # before: "--vs-rule  gives the rules under review (as played at 3 players); ...", naming nothing
    from simtool.commands import review

    with pytest.raises(simtool.SimtoolError, match=r"^vs_rules \{\} names no rule to change; give one such as "
                                                    r"\{'deck': \.\.\.\} \(valid: deck, hand_size\), or None"):
        review.review("black-white", tmp_path / "r", vs_rules={}, seed=1, jobs=1)
    assert not (tmp_path / "r").exists()
