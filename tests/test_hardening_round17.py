"""Hostile round 17: results the same for any --jobs, and the self-contained pages against
hostile names. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest

from simtool.reports import balance, review, tune

from . import test_browser
from .test_cli import cli

browser = test_browser.browser  # headless Chromium, skipped (saying why) without it

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: what follows it reads right to left, to its paragraph's end

BOT = '''
from simtool import bits
from strategies import strategy


@strategy("bot", "lowest")
def bot(view, rng):
    return bits.lowest(view.legal)
'''


def test_a_direction_control_in_a_name_stays_inside_the_name_on_the_report(tmp_path):
    # before: a plugin file named 'b\u202eot.py' put U+202E on the page as it is, and the rest of
    # each sentence and cell holding the name ("..., random elsewhere") read right to left
    plugin = tmp_path / f"b{RLO}ot.py"
    plugin.write_text(BOT)
    run, page = tmp_path / "run", tmp_path / "page.html"
    r = cli("run", "-g", "black-white", "-n", "300", "--seed", "1", "--jobs", "1", "-q", "-o", run,
            "--seat", f"0={plugin}:bot", "--strategy", "random")
    assert r.exit_code == 0, r.output
    r = cli("report", run, "-o", page)
    assert r.exit_code == 0, r.output
    text = page.read_text()
    assert RLO not in text
    assert "b\\u202eot.py:bot" in text  # written out, as an error line quotes it


@pytest.mark.parametrize("page", [balance, review, tune])
def test_every_page_writes_direction_controls_out(page):
    # the review's and the tuning's pages show rule values and titles a game plugin declares
    template = page.environment().from_string("<p>{{ name }}, {{ chart|safe }} and the rest</p>")
    text = template.render(name=f"x{RLO}y\u2067z", chart=f"<svg>{RLO}</svg>")
    assert text == "<p>x\\u202ey\\u2067z, <svg>\\u202e</svg> and the rest</p>"


def printed_seed(text: str) -> int:
    found = re.findall(r"\bseed (\d+)", text)
    assert len(set(found)) == 1, text
    return int(found[0])


@pytest.mark.usefixtures("charts_undrawn")  # its pages are not read (their charts were 0.5 s of CPU)
def test_a_sweep_prints_the_seed_it_chose_and_given_back_it_plays_the_same_tables(tmp_path):
    # before: 'sweep: 1 cell, 300 deals in 1 chunk, into RUNS' with --seed left out, and nowhere on
    # the console the seed that would play the sweep again
    said, tables = [], []
    for k, seed in enumerate((None, "given")):
        runs = tmp_path / f"runs{k}"
        args = ("sweep", "-g", "black-white", "--lineup", "random", "-n", "300", "--jobs", 1 + k,
                "--runs", runs, "-o", tmp_path / f"s{k}.html")
        r = cli(*args, *(("--seed", printed_seed(said[0])) if seed else ()))
        assert r.exit_code == 0, r.output
        said.append(r.stdout)
        tables.append(pl.read_parquet(runs / "black-white_3p_random" / "seats.parquet"))
        meta = json.loads((runs / "black-white_3p_random" / "run.json").read_text())
        assert printed_seed(r.stdout) == meta["seed"]
    assert tables[0].equals(tables[1])


def test_restricted_play_and_a_tuning_print_the_seed_they_chose(tmp_path):
    # before: neither named the seed it had chosen (the ladder and a run do)
    r = cli("restrict", "-g", "kansas-city", "-n", "200", "--restrictions", "pass-high", "--jobs", "1",
            "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    meta = json.loads((tmp_path / "r" / "kansas-city_4p_target" / "run.json").read_text())
    assert printed_seed(r.stdout) == meta["seed"]
    r = cli("tune", "-g", "kansas-city", "--vary", "pass_count=2,3", "--objective", "seat_spread:min",
            "--trials", "2", "-n", "200", "--jobs", "1", "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    assert printed_seed(r.stdout) == json.loads((tmp_path / "t" / "tune.json").read_text())["seed"]


def test_a_review_prints_the_seed_it_chose(tmp_path, monkeypatch):
    from simtool.commands import review as reviews

    # the seed is chosen before anything is played: every play at the least that plays it, and
    # the search's plays left out, as for a game no search plays (a deal of search at every seat in
    # five plays was three quarters of this review's CPU)
    tiny = reviews.Sizes(deals=1, matches=1, restrictions=1, duplicate=1, search=1, random=1, leads=1)
    played = reviews.review
    monkeypatch.setattr(reviews, "review", lambda *a, **k: played(*a, **k, sizes=tiny))
    monkeypatch.setattr(reviews, "search_names", lambda game_id: (None, None))
    r = cli("review", "-g", "black-white", "--jobs", "1", "--out", tmp_path / "rv")
    assert r.exit_code == 0, r.output
    assert printed_seed(r.stdout) == json.loads((tmp_path / "rv" / "review.json").read_text())["seed"]
    assert r.stdout.startswith("review: black-white 3p, seed ")  # the path's line, read by scripts, as it was


def test_a_long_name_or_title_wraps_on_the_page_instead_of_widening_it(browser, tmp_path):
    # before: a plugin strategy named with 3000 characters made the report 28,669 px wide at a
    # 1280 px window (its findings' sentences name it whole), and a --title of 3000 characters
    # 54,169 px (the page's heading); the rest of each page scrolled sideways with it
    plugin = tmp_path / "longbot.py"
    plugin.write_text(BOT.replace('"bot", "lowest"', '"n" * 2990 + "-long-tail", "lowest"'))
    run = tmp_path / "run"
    r = cli("run", "-g", "black-white", "-n", "300", "--seed", "1", "--jobs", "1", "-q", "-o", run,
            "--seat", f"0={plugin}:bot", "--strategy", "random")
    assert r.exit_code == 0, r.output
    for name, title in (("name", "simtool balance report"), ("title", "T" * 3000)):
        page_file = tmp_path / f"{name}.html"
        assert cli("report", run, "-o", page_file, "--title", title).exit_code == 0
        for width in (1280, 700):
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(page_file.resolve().as_uri())
            assert page.evaluate("document.documentElement.scrollWidth") == width, (name, width)
            page.close()


def test_a_tuning_gives_values_written_alike_in_a_file_name_a_folder_each(tmp_path, monkeypatch):
    # before: a game's rule values 'x/y' and 'x:y' were both trial folder 'mode-x-y_n100_s1': the
    # second trial stopped the tuning, "... holds a run played with other settings: rules
    # target=30,mode=x/y (now target=30,mode=x:y) (the tune, or a default of simtool's, changed);
    # play it again in a new --out", which no new --out could cure; and a value of 300 characters
    # was "File name too long ...; choose a shorter path", of a path the user never chose
    from simtool import games
    from simtool.commands.tune import folder_key
    from simtool.options import Option

    from .designer_games import whist_heuristic  # noqa: F401 (registers its heuristic)
    from .designer_games.whist import Whist

    class Slashed(Whist):
        id = "designer-slashed"
        options = (*Whist.options, Option("mode", ("a", "x/y", "x:y", "v" * 300), "names its folders"))

    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, Slashed()))
    r = cli("tune", "-g", "designer-slashed", "--vary", "mode", "--objective", "seat_spread:min",
            "--trials", "4", "-n", "100", "--seed", "1", "--jobs", "1", "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    trials = json.loads((tmp_path / "t" / "tune.json").read_text())
    assert "4 trials in" in r.stdout, (r.stdout, trials)
    assert folder_key({"pass_count": 2, "limit": 1}, 100, 5) == "pass_count-2_limit-1_n100_s5"  # as before
    assert len(folder_key({"mode": "v" * 300}, 100, 5).encode()) <= 255


@pytest.fixture
def long_game(installed) -> str:
    """A designer's game, ``designer-long``, whose rule ``mode`` takes a value of 3000 characters,
    one word: that value."""
    from simtool.options import Option

    from .designer_games import whist_heuristic  # noqa: F401 (registers its heuristic)
    from .designer_games.whist import Whist

    long = "v" * 2990 + "-long-tail"

    class Long(Whist):
        id = "designer-long"
        options = (*Whist.options, Option("mode", ("a", long), "a long value"))

    installed(Long())
    return long


def test_a_long_rule_value_is_clipped_on_the_tuning_page(browser, tmp_path, long_game):
    # before: a game's rule value of 3000 characters stood whole in the tuning page's table cells
    # and set-up, 25,956 px wide in a 1280 px window
    long = long_game
    r = cli("tune", "-g", "designer-long", "--vary", "mode", "--objective", "seat_spread:min",
            "--trials", "2", "-n", "100", "--seed", "1", "--jobs", "1", "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    page_file = tmp_path / "t" / "tune.html"
    assert not re.search(f"<td>[^<]*{long}", page_file.read_text())  # clipped, the whole in a tooltip
    for width in (1280, 700):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(page_file.resolve().as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") == width
        page.close()


def test_a_long_rule_value_wraps_in_the_reports_table_captions(browser, tmp_path, long_game):
    # before: the verdicts table's caption names the run by its rules ("Run 1: 4p, mode=vvv..."),
    # and a value of 3000 characters, one word, made the table as wide as it: 27,636 px in a
    # 1280 px window, with every column stretched alike
    long = long_game
    run, page_file = tmp_path / "run", tmp_path / "page.html"
    r = cli("run", "-g", "designer-long", "-n", "100", "--seed", "1", "--jobs", "1", "-q", "-o", run,
            "--rule", f"mode={long}")
    assert r.exit_code == 0, r.output
    assert cli("report", run, "-o", page_file).exit_code == 0
    for width in (1280, 700):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(page_file.resolve().as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") == width
        page.close()
